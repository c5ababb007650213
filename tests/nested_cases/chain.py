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
        # a chain of nested calls: no inner result needs a move, so the nesting stays
        y = pl.exp(pl.mul(pl.add(xt, xt), 0.5))  # the chain
        x3 = pl.mul(pl.mul(y, y), y)
        inner = pl.add(xt, pl.mul(x3, 0.044715))
        # a nested call returned: it stays too
        return pl.store(pl.mul(inner, 0.5), [0, 0], out)
