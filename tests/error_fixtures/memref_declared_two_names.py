import pl

first = pl.MemRef()
second = first


@pl.program
class Aliases:
    @pl.function
    def main(self, a: pl.Tensor[[32, 32], pl.FP16], out: pl.Out[pl.Tensor[[32, 32], pl.FP16]]) -> pl.Tensor[[32, 32], pl.FP16]:
        t: pl.Tile[[32, 32], pl.FP16, first, pl.Mem.Vec] = pl.load(a, [0, 0], [32, 32])
        u: pl.Tile[[32, 32], pl.FP16, second, pl.Mem.Vec] = pl.abs(t)  # error: Declared allocation 'first' is also referenced as 'second'  # error-col: 39
        return pl.store(u, [0, 0], out)
