"""A @pl.jit entry whose scope computes a tile that compilation stores into a tensor the scope
creates: the task it runs is shown as a @pl.jit.incore function before the entry, which the
scope calls by name (a module-level function has no class to hold it as a method)."""

import pl


@pl.jit
def shifted(x: pl.Tensor[[64], pl.FP32], y: pl.Out[pl.Tensor[[64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        # Doubled, then shifted by one.
        y = pl.add(pl.mul(x, 2.0), 1.0)  # one vector pass
    return y
