import pl


@pl.program
class NestedSameOp:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 64], pl.FP32],
        y: pl.Tensor[[16, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        y_vec: pl.Tile[[16, 64], pl.FP32, pl.MemorySpace.Vec] = pl.tile.load(
            y, [0, 0], [16, 64], [16, 64], target_memory=pl.MemorySpace.Vec
        )
        a: pl.Tile[[16, 64], pl.FP32, pl.MemorySpace.Vec] = pl.tile.load(
            x, [0, 0], [16, 64], [16, 64], target_memory=pl.MemorySpace.Vec
        )
        b: pl.Tile[[16, 64], pl.FP32, pl.MemorySpace.Vec] = pl.tile.exp(a)
        # two calls of one op nested in one statement: each is a value of its own
        mul_vec: pl.Tile[[16, 64], pl.FP32, pl.MemorySpace.Vec] = pl.tile.mul(a, b)
        mul_vec_1: pl.Tile[[16, 64], pl.FP32, pl.MemorySpace.Vec] = pl.tile.mul(b, b)
        c: pl.Tile[[16, 64], pl.FP32, pl.MemorySpace.Vec] = pl.tile.add(mul_vec, mul_vec_1)
        out: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(c, [0, 0], out)
        exp_vec: pl.Tile[[16, 64], pl.FP32, pl.MemorySpace.Vec] = pl.tile.exp(y_vec)
        out_tensor: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(exp_vec, [0, 0], out)
        return out_tensor
