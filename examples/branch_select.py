"""An if/else whose branches yield different tiles into one phi."""

import pl


@pl.program
class BranchSelect:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 128], pl.FP32],
        flag: pl.Scalar[pl.INDEX],
        out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        x_tile = pl.load(x, [0, 0], [16, 128])
        if flag > 0:
            pos = pl.exp(x_tile)
            picked = pl.yield_(pos)
        else:
            neg = pl.neg(x_tile)
            picked = pl.yield_(neg)
        out = pl.store(picked, [0, 0], out)
        return out
