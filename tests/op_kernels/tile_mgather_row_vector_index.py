# expect: out = x[ix[0] & 63]
import pl


# A [1, R] index in row mode gathers R rows: the result is [R, mem's last extent].
@pl.program
class MGatherRowVector:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[64, 32], pl.FP32],
        ix: pl.Tensor[[1, 16], pl.INT32],
        out: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        raw = pl.load(ix, [0, 0], [1, 16])
        rows = pl.tile.ands(raw, 63)
        gathered: pl.Tile[[16, 32], pl.FP32] = pl.tile.mgather(x, rows, coalesce="row")
        out = pl.store(gathered, [0, 0], out)
        return out
