import pl

R = 32
C = 256


@pl.program
class LoweredConstants:
    # A tensor-level kernel: shown as it compiles, its loads and stores spell R and C too.
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[R, C], pl.FP32],
        out: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    ) -> pl.Tensor[[R, C], pl.FP32]:
        x_vec: pl.Tile[[R, C], pl.FP32, pl.MemorySpace.Vec] = pl.tile.load(
            x, [0, 0], [R, C], [R, C], target_memory=pl.MemorySpace.Vec
        )
        y_vec: pl.Tile[[R, C], pl.FP32, pl.MemorySpace.Vec] = pl.tile.exp(x_vec)
        out_tensor: pl.Tensor[[R, C], pl.FP32] = pl.tile.store(y_vec, [0, 0], out)
        return out_tensor
