import pl


@pl.program
class FuncAttrDecorator:
    # Attributes given by the decorator stay there (no pl.func_attr line is added for them).
    @pl.function(type=pl.FunctionType.InCore, attrs={"split": pl.SplitMode.UP_DOWN})
    def kernel(
        self,
        x: pl.Tensor[[16, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        x_vec: pl.Tile[[16, 64], pl.FP32, pl.MemorySpace.Vec] = pl.tile.load(
            x, [0, 0], [16, 64], [16, 64], target_memory=pl.MemorySpace.Vec
        )
        y_vec: pl.Tile[[16, 64], pl.FP32, pl.MemorySpace.Vec] = pl.tile.exp(x_vec)
        out_tensor: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(y_vec, [0, 0], out)
        return out_tensor
