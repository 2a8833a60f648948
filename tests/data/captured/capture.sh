#!/usr/bin/env bash
# Runs the programs beside this file on a machine with an NVIDIA GPU, CUDA's compiler, PyTorch,
# Triton, JAX and CuPy, and writes what each printed to DIR/NAME.log, with DIR/MANIFEST.tsv naming
# the command, its exit status and the machine. Usage: capture.sh DIR [NAME...]: with names, only
# those captures run. Not part of the build or the tests: the logs it wrote are committed beside
# it, and tests/query/captured_test.cc reads them.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$1
shift
wanted=" $* "  # the names asked for; blank: all
mkdir -p "$out"
manifest=$out/MANIFEST.tsv
printf 'name\texit\tcommand\n' >"$manifest"

wants() {  # wants NAME...: whether any of these captures was asked for
  local name
  for name; do [ "$wanted" = "  " ] || [[ "$wanted" == *" $name "* ]] && return 0; done
  return 1
}

run() {  # run NAME SECONDS COMMAND...: one capture, stdout and stderr together as the user sees it
  local name=$1 seconds=$2
  shift 2
  wants "$name" || return 0
  timeout --kill-after=5 "$seconds" "$@" >"$out/$name.log" 2>&1
  printf '%s\t%s\t%s\n' "$name" "$?" "${*//$'\n'/ }" >>"$manifest"
}

{
  date -u +%FT%TZ
  nvidia-smi --query-gpu=name,driver_version,pci.bus_id --format=csv,noheader
  nvcc --version | tail -n 2
  python3 -c 'import torch, triton; print("torch", torch.__version__, "cuda", torch.version.cuda, "nccl", torch.cuda.nccl.version(), "triton", triton.__version__)'
  python3 -c 'import jax, cupy; print("jax", jax.__version__, "cupy", cupy.__version__)'
} >"$out/machine.txt" 2>&1

build=$(mktemp -d)
cuda_modes=(illegal-address misaligned trap assert bad-config too-much-shared bad-device huge-malloc
            bad-memcpy double-free)
if wants "${cuda_modes[@]/#/cuda-}" cuda-no-kernel-image sanitizer-illegal-address; then
  nvcc -O1 -lineinfo -arch=sm_90 -o "$build/faults" "$here/faults.cu" -lcuda >"$out/nvcc.log" 2>&1
  nvcc -O1 -gencode arch=compute_100,code=sm_100 -o "$build/sm100_only" "$here/sm100_only.cu" \
    >>"$out/nvcc.log" 2>&1
fi
for mode in "${cuda_modes[@]}"; do
  run "cuda-$mode" 30 "$build/faults" "$mode"
done
run cuda-no-kernel-image 30 "$build/sm100_only"
run sanitizer-illegal-address 90 compute-sanitizer --tool memcheck "$build/faults" illegal-address

py=(python3 "$here/faults.py")
for mode in torch_oom torch_oom_fresh torch_index_assert torch_embedding_assert \
            torch_different_devices torch_fork torch_bad_ordinal triton_illegal_address \
            jax_oom cupy_oom; do
  run "$mode" 60 "${py[@]}" "$mode"
done
run torch_oom_malloc_async 60 env PYTORCH_CUDA_ALLOC_CONF=backend:cudaMallocAsync "${py[@]}" torch_oom
run torch_bad_alloc_conf 60 env PYTORCH_CUDA_ALLOC_CONF=expandable_segment:True "${py[@]}" \
  torch_bad_alloc_conf
run torch_no_gpus 60 env CUDA_VISIBLE_DEVICES=-1 "${py[@]}" torch_no_gpus
for mode in cublas_invalid_value cufft_invalid_size curand_bad_type torch_oom_fraction \
            torch_sync_while_capturing dataloader_worker_killed; do
  run "$mode" 60 "${py[@]}" "$mode"
done

run nccl-watchdog-timeout 150 env NCCL_DEBUG=INFO TORCH_NCCL_TRACE_BUFFER_SIZE=2000 \
  TORCH_NCCL_DUMP_ON_TIMEOUT=1 TORCH_FR_DUMP_TEMP_FILE="$build/fr_" \
  torchrun --nproc_per_node=1 "$here/nccl_job.py" timeout
run nccl-duplicate-gpu 120 env NCCL_DEBUG=WARN \
  torchrun --nproc_per_node=2 --tee 3 "$here/nccl_job.py" duplicate
run nccl-no-such-interface 120 env NCCL_DEBUG=WARN NCCL_SOCKET_IFNAME=nosuchif0 \
  torchrun --nproc_per_node=1 "$here/nccl_job.py" one

run cupy_illegal_address 60 "${py[@]}" cupy_illegal_address
run triton_shared_memory 45 "${py[@]}" triton_shared_memory
# JAX beside another JAX process, which took its default share of the GPU at its first array.
if wants jax_oom_beside_another; then
  "${py[@]}" jax_hold_and_wait >/dev/null 2>&1 &
  holder=$!
  sleep 20
  run jax_oom_beside_another 60 "${py[@]}" jax_oom_beside_another
  kill "$holder" 2>/dev/null
fi

# Two ranks over gloo on one GPU: rank 1's device assert, then rank 1 stalling past the timeout.
# torchrun's --tee prefixes each line with its local rank; the per-rank files go to DIR/ranks-*.
for mode in assert straggler; do
  run "gloo-$mode" 120 torchrun --nproc_per_node=2 --tee 3 --log-dir "$out/ranks-$mode" \
    "$here/gloo_job.py" "$mode"
done
# A rank whose peer never starts: the store waits for a second process that never comes.
run store-peer-missing 60 env RANK=0 WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 MASTER_PORT=29531 \
  python3 -c 'import datetime, torch.distributed as d
d.init_process_group("gloo", timeout=datetime.timedelta(seconds=10))'
# A store whose port another process holds.
if wants store-port-in-use; then
  python3 -c 'import socket, time; s = socket.socket(); s.bind(("0.0.0.0", 29532)); s.listen(); time.sleep(40)' &
  holder=$!
  sleep 2
  run store-port-in-use 60 env RANK=0 WORLD_SIZE=1 MASTER_ADDR=127.0.0.1 MASTER_PORT=29532 \
    python3 -c 'import torch.distributed as d
d.init_process_group("gloo")'
  kill "$holder" 2>/dev/null
fi

# What the kernel logged while the programs above faulted (Xid lines), if this machine lets us read it.
{ dmesg -T 2>&1 || journalctl -k --no-pager 2>&1; } | grep -E 'NVRM|nvidia|Xid' >"$out/kernel.log" 2>&1
nvidia-smi -q -d ECC,ROW_REMAPPER >"$out/nvidia-smi-ecc.txt" 2>&1
rm -rf "$build"
