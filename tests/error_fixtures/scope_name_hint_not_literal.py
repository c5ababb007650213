import pl

HINT = "fused"


@pl.program
class K:
    @pl.function(type=pl.FunctionType.AIV)
    def work(self, src: pl.Tensor[[64, 4], pl.BF16], dst: pl.Out[pl.Tensor[[64, 4], pl.BF16]]
             ) -> pl.Tensor[[64, 4], pl.BF16]:
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, src: pl.Tensor[[64, 4], pl.BF16], dst: pl.Out[pl.Tensor[[64, 4], pl.BF16]]
             ) -> pl.Tensor[[64, 4], pl.BF16]:
        # The hint must be written where the scope is: a name bound elsewhere is refused.
        with pl.spmd(4, name_hint=HINT):  # error: pl.spmd() 'name_hint' argument must be a string literal  # error-col: 35
            dst = self.work(src, dst)
        return dst
