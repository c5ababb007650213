"""@pl.jit entries the __main__ block reaches only through values: a loop over a literal table of
(entry, extent) pairs, a dict of entries read by a key only the run knows, `.compile` on a
sample's `.clone()`, `.lower(*args)` of a literal list, an entry only a host entry calls
(its parameters bound to the host entry's), and one only a test class's method calls, on a
scaled array; the runtime's worker is not installed."""

import argparse

import torch
from pypto.runtime import ChipWorker

import pl

WIDTH = 64


@pl.jit
def shifted(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    rows, cols = x.shape
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [rows, cols])
        u = pl.add(t, 1.0)
        pl.store(u, [0, 0], out)
    return out


@pl.jit
def squared(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    rows, cols = x.shape
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [rows, cols])
        u = pl.mul(t, t)
        pl.store(u, [0, 0], out)
    return out


@pl.jit
def summed(x: pl.Tensor, y: pl.Tensor, out: pl.Out[pl.Tensor]):
    rows, cols = x.shape
    with pl.at(level=pl.Level.CORE_GROUP):
        tx = pl.load(x, [0, 0], [rows, cols])
        ty = pl.load(y, [0, 0], [rows, cols])
        s = pl.add(tx, ty)
        pl.store(s, [0, 0], out)
    return out


@pl.jit
def negated(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    rows, cols = x.shape
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [rows, cols])
        n = pl.neg(t)
        pl.store(n, [0, 0], out)
    return out


@pl.jit
def scaled(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    rows, cols = x.shape
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [rows, cols])
        u = pl.mul(t, 3.0)
        pl.store(u, [0, 0], out)
    return out


@pl.jit
def doubled_chip(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    rows, cols = x.shape
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [rows, cols])
        d = pl.add(t, t)
        pl.store(d, [0, 0], out)
    return out


@pl.jit.host
def doubled_host(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    out = doubled_chip(x, out)
    return out


@pl.jit
def quartered(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    rows, cols = x.shape
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [rows, cols])
        q = pl.mul(t, 0.25)
        pl.store(q, [0, 0], out)
    return out


class TestQuartered:
    def test_small_values(self) -> None:
        x = (torch.randn(12, WIDTH) * 0.5).half()
        quartered(x, torch.zeros((12, WIDTH), dtype=torch.float16))


_BY_NAME = {"scale": scaled, "shift": shifted}


def run_all(worker: ChipWorker) -> None:
    for fn, rows in ((shifted, 16), (squared, 32)):
        x = torch.randn(rows, WIDTH, dtype=torch.float16)
        fn(x, torch.zeros((rows, WIDTH), dtype=torch.float16))
    sample = torch.zeros((8, WIDTH), dtype=torch.float32)
    worker.register(summed.compile(sample, sample, sample.clone()))
    args = [torch.randn(4, 16, dtype=torch.float32), torch.empty([4, 16], dtype=torch.float32)]
    print(negated.lower(*args))
    host_x = torch.full((WIDTH, 32), 2.0, dtype=torch.float32).share_memory_()
    doubled_host.compile(host_x, torch.zeros((WIDTH, 32), dtype=torch.float32))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=sorted(_BY_NAME), default="scale")
    mode = parser.parse_args().mode
    x = torch.randn(24, WIDTH, dtype=torch.bfloat16)
    _BY_NAME[mode](x, torch.zeros_like(x))
    run_all(ChipWorker())
