import pl


@pl.program
class SpmdCallAddedOut:
    # A tensor-level kernel returning what it computes: compilation adds an Out tensor to it
    @pl.function(type=pl.FunctionType.InCore)
    def scaled(
        self,
        x: pl.Tensor[[16, 64], pl.FP32],
        s: pl.Scalar[pl.INDEX],
        ret0_out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        x_vec: pl.Tile[[16, 64], pl.FP32, pl.MemorySpace.Vec] = pl.tile.load(
            x, [0, 0], [16, 64], [16, 64], target_memory=pl.MemorySpace.Vec
        )
        y_vec: pl.Tile[[16, 64], pl.FP32, pl.MemorySpace.Vec] = pl.tile.muls(x_vec, s)
        ret0_store: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(y_vec, [0, 0], ret0_out)
        return ret0_store

    @pl.function(type=pl.FunctionType.InCore)
    def main_incore_0(
        self,
        x: pl.Tensor[[16, 64], pl.FP32],
        ret0_0_out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        b: pl.Scalar[pl.INDEX] = pl.tile.get_block_idx()
        out: pl.Tensor[[16, 64], pl.FP32] = self.scaled(x, b, ret0_0_out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[16, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        with pl.spmd(2):
            ret0_0_out: pl.Tensor[[16, 64], pl.FP32] = pl.tensor.create(
                [16, 64], dtype=pl.FP32, layout=pl.TensorLayout.ND
            )
            out: pl.Tensor[[16, 64], pl.FP32] = self.main_incore_0(x, ret0_0_out)
        # a second statement: the block is outlined
        # the call, in an spmd block compilation outlines, passes the added tensor
        return out
