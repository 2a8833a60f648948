"""Two-rank jobs over the gloo backend that fail on purpose, started by torchrun from capture.sh.

Both ranks compute on GPU 0 and all-reduce a CPU tensor each step, logging each step with a
timestamp. assert: rank 1 indexes out of range on the GPU at step 3, so rank 0 loses its peer in
the all-reduce. straggler: rank 1 stalls at step 3 longer than the process group's timeout, so
rank 0 times out waiting for it.
"""
import datetime
import logging
import os
import sys
import time

import torch
import torch.distributed as dist


def main(mode):
    rank = int(os.environ["RANK"])
    logging.basicConfig(level=logging.INFO,
                        format=f"%(asctime)s %(levelname)s [rank{rank}] %(message)s")
    log = logging.getLogger("train")
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=20))
    weights = torch.zeros(10, device="cuda")
    for step in range(1, 6):
        if rank == 1 and step == 3 and mode == "assert":
            index = torch.tensor([20], device="cuda")
            log.info("step %d loss %.3f", step, weights[index].sum().item())
        if rank == 1 and step == 3 and mode == "straggler":
            log.info("step %d: opening the next shard", step)
            time.sleep(60)
        grads = torch.ones(4)
        dist.all_reduce(grads)
        log.info("step %d loss %.3f", step, 1.0 / step)
        time.sleep(1)
    dist.destroy_process_group()


if __name__ == "__main__":
    main(sys.argv[1])
