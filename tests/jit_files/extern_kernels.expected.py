"""@pl.jit.extern stubs (C++ kernels: a signature, no body) called by entries: static loading
declares each as an external function of the entry's program (a mixed one as its AIC and AIV
members and a Group), the entries are shown typed, and the stubs stay as written."""

import torch

import pl


@pl.jit.extern(core_type="aiv", source="kernels/relu.cpp")
def relu(
    a: pl.Tensor[[64, 64], pl.FP32],
    out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
) -> pl.Tensor[[64, 64], pl.FP32]: ...


@pl.jit.extern(core_type="mixed", aic_source="kernels/pa.cpp", aiv_source="kernels/pa.cpp",
               dual_aiv_dispatch=True)
def pa(
    a: pl.Tensor[[64, 64], pl.FP32],
    out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
) -> pl.Tensor[[64, 64], pl.FP32]: ...


@pl.jit.incore
def doubled(a: pl.Tensor, out: pl.Out[pl.Tensor]):
    t: pl.Tile[[64, 64], pl.FP32, pl.MemorySpace.Vec] = pl.load(a, [0, 0], [64, 64])
    d: pl.Tile[[64, 64], pl.FP32, pl.MemorySpace.Vec] = pl.add(t, t)
    pl.store(d, [0, 0], out)
    return out


@pl.jit
def relu_then_double(a: pl.Tensor, mid: pl.Out[pl.Tensor], out: pl.Out[pl.Tensor]):
    mid = relu(a, mid)
    out = doubled(mid, out)
    return out


@pl.jit
def mixed(a: pl.Tensor, out: pl.Out[pl.Tensor]):
    out = pa(a, out)
    return out


if __name__ == "__main__":
    a = torch.randn(64, 64)
    mid = torch.zeros(64, 64)
    out = torch.zeros(64, 64)
    relu_then_double(a, mid, out)
    mixed(a, out)
