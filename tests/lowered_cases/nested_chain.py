import pl


@pl.program
class NestedChain:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 128], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        xt = pl.load(x, [0, 0], [16, 128])
        # a chain of nested calls: each inner result gets a name of its own
        y = pl.exp(pl.mul(pl.add(xt, xt), 0.5))  # the chain
        out = pl.store(y, [0, 0], out)
        return out
