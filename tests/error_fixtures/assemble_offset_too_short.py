import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[16, 128], pl.FP32], out: pl.Out[pl.Tensor[[16, 256], pl.FP32]]) -> pl.Tensor[[16, 256], pl.FP32]:
        for blk, (acc,) in pl.range(0, 256, 128, init_values=(out,)):
            x = pl.slice(a, [16, 128], [0, 0])
            acc_next = pl.assemble(acc, x, [blk])  # error: offset has 1 entries but target has rank 2  # error-col: 44
            result = pl.yield_(acc_next)
        return result
