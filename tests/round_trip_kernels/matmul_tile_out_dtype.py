"""`pl.matmul` of two tiles with `out_dtype=` the accumulator's dtype (FP32 for float operands):
the reference accepts the dtype the tile matmul has anyway, and refuses any other
(tests/error_fixtures/matmul_tile_out_dtype_not_accumulator.py)."""
import pl


@pl.program
class TileOutDtype:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, lhs: pl.Tensor[[16, 64], pl.BF16], rhs: pl.Tensor[[64, 32], pl.BF16],
               out: pl.Out[pl.Tensor[[16, 32], pl.FP32]]) -> pl.Tensor[[16, 32], pl.FP32]:
        a = pl.load(lhs, [0, 0], [16, 64])
        b = pl.load(rhs, [0, 0], [64, 32])
        acc = pl.matmul(a, b, out_dtype=pl.FP32)
        out = pl.store(acc, [0, 0], out)
        return out
