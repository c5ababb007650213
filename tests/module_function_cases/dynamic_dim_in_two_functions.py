"""Two module-level kernels typed with the same `pl.dynamic` dim, whose results the program binds
to one name: both results have the type [ROWS, 8] (one symbol, however many functions name it)."""

import pl

ROWS = pl.dynamic("ROWS")


@pl.function(type=pl.FunctionType.InCore)
def plus_one(acc: pl.InOut[pl.Tensor[[ROWS, 8], pl.FP32]]) -> pl.Tensor[[ROWS, 8], pl.FP32]:
    t = pl.load(acc, [0, 0], [16, 8])
    u = pl.add(t, 1.0)
    acc = pl.store(u, [0, 0], acc)
    return acc


@pl.function(type=pl.FunctionType.InCore)
def doubled(acc: pl.InOut[pl.Tensor[[ROWS, 8], pl.FP32]]) -> pl.Tensor[[ROWS, 8], pl.FP32]:
    t = pl.load(acc, [0, 0], [16, 8])
    u = pl.add(t, t)
    acc = pl.store(u, [0, 0], acc)
    return acc


@pl.program
class Doubling:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, out: pl.InOut[pl.Tensor[[16, 8], pl.FP32]]) -> pl.Tensor[[16, 8], pl.FP32]:
        acc = plus_one(out)
        for _ in pl.range(3):
            acc = doubled(acc)
        return acc
