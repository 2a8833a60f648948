#!/usr/bin/env bash
# Runs the programs beside this file on a machine with an NVIDIA GPU, CUDA's compiler, PyTorch,
# Triton, JAX and CuPy, and writes what each printed to DIR/NAME.log, with DIR/MANIFEST.tsv naming
# the command, its exit status and the machine. Usage: capture.sh DIR. Not part of the build or
# the tests: the logs it wrote are committed beside it, and tests/query/captured_test.cc reads them.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$1
mkdir -p "$out"
manifest=$out/MANIFEST.tsv
printf 'name\texit\tcommand\n' >"$manifest"

run() {  # run NAME SECONDS COMMAND...: one capture, stdout and stderr together as the user sees it
  local name=$1 seconds=$2
  shift 2
  timeout --kill-after=5 "$seconds" "$@" >"$out/$name.log" 2>&1
  printf '%s\t%s\t%s\n' "$name" "$?" "$*" >>"$manifest"
}

{
  date -u +%FT%TZ
  nvidia-smi --query-gpu=name,driver_version,pci.bus_id --format=csv,noheader
  nvcc --version | tail -n 2
  python3 -c 'import torch, triton; print("torch", torch.__version__, "cuda", torch.version.cuda, "nccl", torch.cuda.nccl.version(), "triton", triton.__version__)'
  python3 -c 'import jax, cupy; print("jax", jax.__version__, "cupy", cupy.__version__)'
} >"$out/machine.txt" 2>&1

build=$(mktemp -d)
nvcc -O1 -lineinfo -arch=sm_90 -o "$build/faults" "$here/faults.cu" -lcuda >"$out/nvcc.log" 2>&1
nvcc -O1 -gencode arch=compute_100,code=sm_100 -o "$build/sm100_only" "$here/sm100_only.cu" \
  >>"$out/nvcc.log" 2>&1
for mode in illegal-address misaligned trap assert bad-config too-much-shared bad-device \
            huge-malloc bad-memcpy double-free; do
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

run nccl-watchdog-timeout 150 env NCCL_DEBUG=INFO TORCH_NCCL_TRACE_BUFFER_SIZE=2000 \
  TORCH_NCCL_DUMP_ON_TIMEOUT=1 TORCH_FR_DUMP_TEMP_FILE="$build/fr_" \
  torchrun --nproc_per_node=1 "$here/nccl_job.py" timeout
run nccl-duplicate-gpu 120 env NCCL_DEBUG=WARN \
  torchrun --nproc_per_node=2 --tee 3 "$here/nccl_job.py" duplicate

# What the kernel logged while the programs above faulted (Xid lines), if this machine lets us read it.
{ dmesg -T 2>&1 || journalctl -k --no-pager 2>&1; } | grep -E 'NVRM|nvidia|Xid' >"$out/kernel.log" 2>&1
nvidia-smi -q -d ECC,ROW_REMAPPER >"$out/nvidia-smi-ecc.txt" 2>&1
rm -rf "$build"
