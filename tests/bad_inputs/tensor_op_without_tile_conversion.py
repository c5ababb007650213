import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[16, 64], pl.FP32], out: pl.Out[pl.Tensor[[8, 64], pl.FP32]]) -> pl.Tensor[[8, 64], pl.FP32]:
        m = pl.tensor.aiv_shard(x, split=1)  # error: has no tile conversion yet
        out = pl.assemble(out, m, [0, 0])
        return out
