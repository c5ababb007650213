import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
               m: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 16])
        # a step of 0 runs no iteration (the reference's trip count): `t` stays as loaded
        for _i, (acc,) in pl.range(0, 4, 0, init_values=(t,)):
            nxt = pl.add(acc, acc)
            acc_out = pl.yield_(nxt)
        out = pl.store(acc_out, [0, 0], out)
        return out
