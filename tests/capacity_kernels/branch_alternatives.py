"""An if/else whose branches read different 64 KiB Vec tiles: `b` is read only by the else branch,
so it is dead in the then branch (the branches are alternatives), and each branch holds two tiles
(128 KiB). All four tiles add up to 256 KiB, more than Vec on 910B (184 KiB)."""

import pl


@pl.program
class BranchAlternatives:
    @pl.function(type=pl.FunctionType.InCore)
    def pick(self, x: pl.Tensor[[128, 128], pl.FP32], y: pl.Tensor[[128, 128], pl.FP32],
             flag: pl.Scalar[pl.INDEX],
             out: pl.Out[pl.Tensor[[128, 128], pl.FP32]]) -> pl.Tensor[[128, 128], pl.FP32]:
        a = pl.load(x, [0, 0], [128, 128])
        b = pl.load(y, [0, 0], [128, 128])
        if flag > 0:
            pos = pl.exp(a)
            picked = pl.yield_(pos)
        else:
            neg = pl.neg(b)
            picked = pl.yield_(neg)
        out = pl.store(picked, [0, 0], out)
        return out
