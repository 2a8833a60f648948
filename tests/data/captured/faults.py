"""Python programs that fail on purpose on a GPU, one fault per mode, run by capture.sh.

Each mode lets the exception escape, so the log holds what a user's job prints: the traceback
and the framework's own message.
"""
import os
import sys


def torch_oom():
    import torch
    held = torch.empty(100 * 2**30, dtype=torch.uint8, device="cuda")
    more = torch.empty(60 * 2**30, dtype=torch.uint8, device="cuda")
    return held, more


def torch_oom_fresh():
    import torch
    return torch.empty(400 * 2**30, dtype=torch.uint8, device="cuda")


def torch_bad_alloc_conf():
    import torch
    return torch.zeros(1, device="cuda")


def torch_index_assert():
    import torch
    x = torch.zeros(10, device="cuda")
    idx = torch.tensor([20], device="cuda")
    y = x[idx]
    torch.cuda.synchronize()
    return y


def torch_embedding_assert():
    import torch
    emb = torch.nn.Embedding(10, 4).cuda()
    out = emb(torch.tensor([3, 11], device="cuda"))
    print(out.sum().item())


def torch_different_devices():
    import torch
    a = torch.ones(4, 4, device="cuda")
    b = torch.ones(4, 4)
    return torch.mm(a, b)


def torch_fork():
    import multiprocessing as mp
    import torch
    torch.zeros(1, device="cuda")
    ctx = mp.get_context("fork")
    with ctx.Pool(1) as pool:
        pool.map(_child_uses_cuda, [0])


def _child_uses_cuda(_):
    import torch
    return torch.zeros(1, device="cuda").item()


def torch_bad_ordinal():
    import torch
    return torch.zeros(1, device="cuda:5")


def torch_no_gpus():
    import torch
    return torch.zeros(1, device="cuda")


def triton_illegal_address():
    import torch
    import triton
    import triton.language as tl

    @triton.jit
    def far_store(ptr, n, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK) + (1 << 40)
        tl.store(ptr + offs, tl.zeros([BLOCK], tl.float32))

    x = torch.zeros(1024, device="cuda")
    far_store[(1,)](x, 1024, BLOCK=128)
    torch.cuda.synchronize()
    print(x.sum().item())


def jax_oom():
    import jax.numpy as jnp
    x = jnp.ones((300 * 2**30 // 4,), dtype=jnp.float32)
    print(x.sum())


def cupy_oom():
    import cupy
    return cupy.empty(400 * 2**30, dtype=cupy.uint8)


def cublas_invalid_value():
    import numpy
    import cupy
    from cupy_backends.cuda.libs import cublas
    handle = cupy.cuda.device.get_cublas_handle()
    a = cupy.ones((4, 4), dtype=cupy.float32)
    one = numpy.ones(1, numpy.float32)
    zero = numpy.zeros(1, numpy.float32)
    cublas.sgemm(handle, 0, 0, -1, 4, 4, one.ctypes.data, a.data.ptr, 4, a.data.ptr, 4,
                 zero.ctypes.data, a.data.ptr, 4)


def cufft_invalid_size():
    from cupy.cuda import cufft
    return cufft.Plan1d(0, cufft.CUFFT_C2C, 1)


def curand_bad_type():
    from cupy_backends.cuda.libs import curand
    return curand.createGenerator(12345)


def torch_oom_fraction():
    import torch
    torch.cuda.set_per_process_memory_fraction(0.01)
    return torch.empty(4 * 2**30, dtype=torch.uint8, device="cuda")


def torch_sync_while_capturing():
    import torch
    x = torch.zeros(4, device="cuda")
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        y = x + 1
        print(y.cpu())


class _WorkerKilledDataset:
    """A dataset whose fifth item kills the worker process reading it."""

    def __len__(self):
        return 8

    def __getitem__(self, i):
        import signal
        if i == 5:
            os.kill(os.getpid(), signal.SIGKILL)
        return i


def dataloader_worker_killed():
    import torch
    for _ in torch.utils.data.DataLoader(_WorkerKilledDataset(), num_workers=2, batch_size=1):
        pass


def cupy_illegal_address():
    import cupy
    write = cupy.RawKernel(r'extern "C" __global__ void write(int* p) { *p = 42; }', "write")
    write((1,), (1,), (cupy.uint64(16),))  # a pointer to address 0x10
    cupy.cuda.runtime.deviceSynchronize()


def jax_oom_beside_another():
    import jax.numpy as jnp
    x = jnp.ones((40 * 2**30 // 4,), dtype=jnp.float32)
    x.block_until_ready()


def jax_hold_and_wait():
    import time
    import jax.numpy as jnp
    jnp.ones(16).block_until_ready()  # JAX takes its share of the GPU at its first array
    time.sleep(45)


def triton_shared_memory():
    import torch
    import triton
    import triton.language as tl

    @triton.jit
    def square_tile(src, dst, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        tile = tl.load(src + offs[:, None] * BLOCK + offs[None, :])
        tl.store(dst + offs[:, None] * BLOCK + offs[None, :], tl.dot(tile, tile))

    n = 256
    src = torch.ones(n * n, device="cuda")
    dst = torch.empty_like(src)
    square_tile[(1,)](src, dst, BLOCK=n)
    torch.cuda.synchronize()


MODES = {name: fn for name, fn in globals().items() if callable(fn) and not name.startswith("_")}

if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in MODES:
        sys.exit(f"faults.py: give one mode of {sorted(MODES)}")
    print(f"mode {sys.argv[1]}, pid {os.getpid()}", flush=True)
    MODES[sys.argv[1]]()
