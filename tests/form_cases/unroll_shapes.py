"""A pl.unroll loop whose copies have other shapes: each copy stands where the loop was, its
values named apart where a name would be rebound to another shape."""

# note: UnrollShapes.kernel: the pl.unroll loop at line 18 is shown as it compiles, at its place, below the level it is written at (the copies of the pl.unroll loop at line 18 compile differently

import pl


@pl.program
class UnrollShapes:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[64, 128], pl.FP32],
        out: pl.Out[pl.Tensor[[64, 128], pl.FP32]],
    ) -> pl.Tensor[[64, 128], pl.FP32]:
        # Copy i loads and stores a block of (i + 1) * 16 rows: the copies' types differ.
        for i in pl.unroll(2):
            t = pl.load(x, [0, 0], [(i + 1) * 16, 128])
            e = pl.exp(t)  # one block
            out = pl.store(e, [0, 0], out)
        return out
