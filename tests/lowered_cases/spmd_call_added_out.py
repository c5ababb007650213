import pl


@pl.program
class SpmdCallAddedOut:
    # A tensor-level kernel returning what it computes: compilation adds an Out tensor to it
    @pl.function(type=pl.FunctionType.InCore)
    def scaled(self, x: pl.Tensor[[16, 64], pl.FP32], s: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 64], pl.FP32]:
        y = pl.mul(x, s)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[16, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        with pl.spmd(2):
            b = pl.tile.get_block_idx()  # a second statement: the block is outlined
            # the call, in an spmd block compilation outlines, passes the added tensor
            out = self.scaled(x, b)
        return out
