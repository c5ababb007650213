import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        r = pl.row_sum(a, a, [0, 0])  # error: pl.row_sum expects 1 to 2 positional argument(s), got 3
        out = pl.assemble(out, r, [0, 0])
        return out
