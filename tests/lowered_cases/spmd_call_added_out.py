import pl


@pl.program
class SpmdCallAddedOut:
    # A tensor-level kernel returning what it computes: compilation adds an Out tensor to it
    @pl.function(type=pl.FunctionType.InCore)
    def double(self, x: pl.Tensor[[16, 64], pl.FP32]) -> pl.Tensor[[16, 64], pl.FP32]:
        y = pl.add(x, x)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[16, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        with pl.spmd(2):
            # the call, in an spmd block compilation outlines, passes the added tensor
            out = self.double(x)
            b = pl.tile.get_block_idx()  # noqa: F841 (a second statement: the block is outlined)
        return out
