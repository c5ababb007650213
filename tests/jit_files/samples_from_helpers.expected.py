"""Entries whose arrays come from helpers of the file: a helper's returned tuple unpacked, and
a dict a helper returns, copied by a dict comprehension and spread by a list comprehension
over a literal list of its keys (show_inferred reads them without running anything)."""

import torch

import pl


@pl.jit
def doubled(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    rows, cols = x.shape
    with pl.at(level=pl.Level.CORE_GROUP):
        t: pl.Tile[[48, 64], pl.FP16, pl.MemorySpace.Vec] = pl.load(x, [0, 0], [rows, cols])
        pl.store(pl.add(t, t), [0, 0], out)
    return out


@pl.jit
def summed(a: pl.Tensor, b: pl.Tensor, out: pl.Out[pl.Tensor]):
    rows, cols = a.shape
    with pl.at(level=pl.Level.CORE_GROUP):
        ta: pl.Tile[[32, 16], pl.FP32, pl.MemorySpace.Vec] = pl.load(a, [0, 0], [rows, cols])
        tb: pl.Tile[[32, 16], pl.FP32, pl.MemorySpace.Vec] = pl.load(b, [0, 0], [rows, cols])
        pl.store(pl.add(ta, tb), [0, 0], out)
    return out


def _make_inputs(rows):
    x = torch.randn(rows, 64, dtype=torch.float16)
    out = torch.zeros(rows, 64, dtype=torch.float16)
    return x, out


def _tables():
    return {
        "a": torch.randn(32, 16, dtype=torch.float32),
        "b": torch.randn(32, 16, dtype=torch.float32),
        "out": torch.zeros(32, 16, dtype=torch.float32),
    }


def test_doubled():
    x, out = _make_inputs(48)
    doubled(x, out)


def test_summed():
    base = _tables()
    copies = {k: v.clone() for k, v in base.items()}
    order = ["a", "b", "out"]
    summed(*[copies[n] for n in order])
