import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def step(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
             row: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 16], pl.FP32]:
        t: pl.Tile[[4, 16], pl.FP32] = pl.load(x, [row, 0], [4, 16])
        u: pl.Tile[[4, 16], pl.FP32] = pl.load(out, [row, 0], [4, 16])
        out = pl.store(pl.add(t, u), [row, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def kernel(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
               m: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.manual_scope():
            prev = None  # no producer yet
            for i in pl.range(4):
                out, prev = pl.submit(self.step, x, out, i * 4, deps=[prev])
            out, last = pl.submit(self.step, x, out, 0, deps=[None, prev])
        return out
