import pl

ROWS = 4


@pl.program
class HeaderInnerComment:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[64, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        # a comment inside the loop's header: kept before the loop
        for i, (out,) in pl.range(16, init_values=(out,)):
            slice: pl.Tile[[4, 64], pl.FP32, pl.MemorySpace.Vec] = pl.tile.load(
                x, [0, 0], [4, 64], [4, 64], target_memory=pl.MemorySpace.Vec
            )
            t_vec: pl.Tile[[4, 64], pl.FP32, pl.MemorySpace.Vec] = pl.tile.exp(slice)
            out_tensor: pl.Tensor[[64, 64], pl.FP32] = pl.tile.store(t_vec, [i * 4, 0], out)
            out: pl.Tensor[[64, 64], pl.FP32] = pl.yield_(out_tensor)
        return out
