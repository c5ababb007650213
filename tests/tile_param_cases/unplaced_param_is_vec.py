# A Tile parameter whose type names no memory space is Vec, and the signature says so afterwards.
import pl


@pl.program
class Before:
    @pl.function(type=pl.FunctionType.AIV)
    def main(self, b: pl.Tile[[16, 128], pl.FP32],
             out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
        s: pl.Tile[[16, 128], pl.FP32] = pl.mul(b, b)
        r: pl.Tensor[[16, 128], pl.FP32] = pl.store(s, [0, 0], out)
        return r


# moves:
# decisions: main.b=Vec:parameter_default main.s=Vec:fixed_output
@pl.program
class Expected:
    @pl.function(type=pl.FunctionType.AIV)
    def main(self, b: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec],
             out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
        s: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.tile.mul(b, b)
        r: pl.Tensor[[16, 128], pl.FP32] = pl.tile.store(s, [0, 0], out)
        return r
