import pl

left = pl.MemRef("buffer")
right = pl.MemRef("buffer")


@pl.program
class Collide:
    @pl.function
    def main(self, a: pl.Tensor[[32, 32], pl.FP16], out: pl.Out[pl.Tensor[[32, 32], pl.FP16]]) -> pl.Tensor[[32, 32], pl.FP16]:
        t: pl.Tile[[32, 32], pl.FP16, left, pl.Mem.Vec] = pl.load(a, [0, 0], [32, 32])
        u: pl.Tile[[32, 32], pl.FP16, right, pl.Mem.Vec] = pl.neg(t)  # error: Two separate pl.MemRef() declarations both resolve to the name 'buffer'  # error-col: 39
        return pl.store(u, [0, 0], out)
