import pl


@pl.program
class NestedSameOp:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 64], pl.FP32],
        y: pl.Tensor[[16, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        a = pl.load(x, [0, 0], [16, 64], target_memory=pl.MemorySpace.Vec)
        b = pl.exp(a)
        # two calls of one op nested in one statement: each is a value of its own
        c = pl.add(pl.mul(a, b), pl.mul(b, b))
        out = pl.store(c, [0, 0], out)
        out = pl.assemble(out, pl.exp(y), [0, 0])
        return out
