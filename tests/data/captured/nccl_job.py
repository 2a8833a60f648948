"""Distributed jobs that fail on purpose, started by torchrun from capture.sh.

timeout: one rank, whose all-reduce waits behind a kernel that spins longer than the process
group's timeout, so that ProcessGroupNCCL's watchdog fires.
one: one rank and one all-reduce, for runs whose environment is what fails (a wrong
NCCL_SOCKET_IFNAME).
duplicate: two ranks that both pick GPU 0, which NCCL refuses at its first collective.
"""
import datetime
import os
import sys

import torch
import torch.distributed as dist


def main(mode):
    rank = int(os.environ["RANK"])
    torch.cuda.set_device(0)
    dist.init_process_group("nccl", timeout=datetime.timedelta(seconds=15),
                            device_id=torch.device("cuda", 0) if mode != "duplicate" else None)
    t = torch.ones(1 << 20, device="cuda")
    if mode == "timeout":
        dist.all_reduce(t)
        torch.cuda.synchronize()
        print(f"rank {rank}: step 1 done", flush=True)
        torch.cuda._sleep(120 * 2_000_000_000)  # about two minutes of spinning at 2 GHz
    dist.all_reduce(t)
    torch.cuda.synchronize()
    print(f"rank {rank}: all-reduce finished", flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    main(sys.argv[1])
