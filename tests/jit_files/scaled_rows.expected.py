"""A @pl.jit file as the reference's examples are written: its __main__ block imports torch and
the reference's runtime, which static loading must not need (neither is installed here)."""

import torch
from pypto.runtime import RunConfig

import pl

ROWS = 48


@pl.jit.incore
def scale_block(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    rows, cols = x.shape
    t: pl.Tile[[48, 64], pl.FP16, pl.MemorySpace.Vec] = pl.load(x, [0, 0], [rows, cols])
    half: pl.Tile[[48, 64], pl.FP16, pl.MemorySpace.Vec] = pl.mul(t, 0.5)
    pl.store(half, [0, 0], out)
    return out


@pl.jit
def halve(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    out = scale_block(x, out)
    return out


@pl.jit
def halve_then_add(x: pl.Tensor, y: pl.Tensor, out: pl.Out[pl.Tensor]):
    cols = x.shape[1]
    with pl.at(level=pl.Level.CORE_GROUP):
        tx: pl.Tile[[ROWS, 64], pl.FP16, pl.MemorySpace.Vec] = pl.load(x, [0, 0], [ROWS, cols])
        ty: pl.Tile[[ROWS, 64], pl.FP16, pl.MemorySpace.Vec] = pl.load(y, [0, 0], [ROWS, cols])
        hx: pl.Tile[[ROWS, 64], pl.FP16, pl.MemorySpace.Vec] = pl.mul(tx, 0.5)
        s: pl.Tile[[ROWS, 64], pl.FP16, pl.MemorySpace.Vec] = pl.add(hx, ty)
        pl.store(s, [0, 0], out)
    return out


if __name__ == "__main__":
    cfg = RunConfig()
    x = torch.randn(ROWS, 64, dtype=torch.float16)
    y = torch.zeros((ROWS, 64), dtype=torch.float16)
    out = torch.empty((ROWS, 64), dtype=torch.float16)
    halve(x, out, config=cfg)
    halve_then_add(x, y, out, config=cfg)
    assert torch.allclose(out, x * 0.5)
