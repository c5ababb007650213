import pl


@pl.program
class AddedOut:
    # A tensor-level kernel returning a tensor it computes: compilation stores the result
    # into an Out tensor it adds to the kernel's parameters, and the caller creates it.
    @pl.function(type=pl.FunctionType.InCore)
    def scale_rows(
        self,
        x: pl.Tensor[[64, 128], pl.FP32],
        ret0_out: pl.Out[pl.Tensor[[64, 128], pl.FP32]],
    ) -> pl.Tensor[[64, 128], pl.FP32]:
        x_vec: pl.Tile[[64, 128], pl.FP32, pl.MemorySpace.Vec] = pl.tile.load(
            x, [0, 0], [64, 128], [64, 128], target_memory=pl.MemorySpace.Vec
        )
        y_vec: pl.Tile[[64, 128], pl.FP32, pl.MemorySpace.Vec] = pl.tile.muls(x_vec, 2.0)  # doubled
        ret0_store: pl.Tensor[[64, 128], pl.FP32] = pl.tile.store(y_vec, [0, 0], ret0_out)
        return ret0_store

    @pl.function
    def main(self, x: pl.Tensor[[64, 128], pl.FP32]) -> pl.Tensor[[64, 128], pl.FP32]:
        # the caller passes the new Out tensor
        ret0_out: pl.Tensor[[64, 128], pl.FP32] = pl.tensor.create(
            [64, 128], dtype=pl.FP32, layout=pl.TensorLayout.ND
        )
        y: pl.Tensor[[64, 128], pl.FP32] = self.scale_rows(x, ret0_out)
        return y
