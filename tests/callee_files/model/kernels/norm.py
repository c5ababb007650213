"""Kernels only the model's entry (model/decode.py) calls: this file has no entry of its own.
Run alone, each is shown specialised for the call the entry of its package makes."""

import pl

from ..config import HIDDEN, ROWS


@pl.jit.inline
def scaled_copy(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="scaled_copy"):
        t = pl.load(x, [0, 0], [ROWS, HIDDEN])
        s = pl.mul(t, 0.5)
        out = pl.store(s, [0, 0], out)
    return out


@pl.jit.incore
def add_rows(a: pl.Tensor, b: pl.Tensor, out: pl.Out[pl.Tensor]):
    ta = pl.load(a, [0, 0], [ROWS, HIDDEN])
    tb = pl.load(b, [0, 0], [ROWS, HIDDEN])
    s = pl.add(ta, tb)
    pl.store(s, [0, 0], out)
    return out
