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
        x_tile: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.load(x, [0, 0], [16, 128])
        if flag > 0:
            pos: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.exp(x_tile)
            picked: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.yield_(pos)
        else:
            neg: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.neg(x_tile)
            picked: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.yield_(neg)
        out = pl.store(picked, [0, 0], out)
        return out
