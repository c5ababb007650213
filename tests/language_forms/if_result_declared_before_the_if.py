import pl

# pl's own form (the reference has no place for it): `p: T` without a value right before an if
# types the result `p` of its tuple yield, which has no place for an annotation. The printer
# writes it when a result's type is not its yielded value's (an accumulator carried by a loop).


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
               m: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 16], pl.FP32]:
        a = pl.load(x, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        # the accumulator's first value
        p: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Acc]
        if m > 2:
            u = pl.load(x, [0, 0], [16, 16])
            w = pl.add(u, u)
            p, q = pl.yield_(u, w)
        else:
            v = pl.load(x, [0, 0], [16, 16])
            p, q = pl.yield_(v, v)
        for _i, (c,) in pl.range(2, init_values=(p,)):
            n = pl.matmul_acc(c, a, a)
            r = pl.yield_(n)
        s = pl.add(q, r)
        out = pl.store(s, [0, 0], out)
        return out
# printed: # the accumulator's first value
