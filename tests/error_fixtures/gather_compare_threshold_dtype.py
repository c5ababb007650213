import pl


@pl.program
class Scan:
    @pl.function(type=pl.FunctionType.InCore)
    def main(self, src: pl.Tensor[[16, 64], pl.INT16], limit: pl.Scalar[pl.INT32], hits: pl.Out[pl.Tensor[[16, 8], pl.INT32]]) -> pl.Tensor[[16, 8], pl.INT32]:
        s = pl.load(src, [0, 0], [16, 64])
        scratch = pl.tile.create([16, 64], pl.UINT8)
        found, _n = pl.tile.gather_compare(s, limit, scratch, cmp_mode="ge", out_cols=8)  # error: requires kvalue dtype equal to src dtype INT16, but got INT32  # error-col: 47
        return pl.store(found, [0, 0], hits)
