import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def pair(self, x: pl.Tensor[[16, 16], pl.FP32], a: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
             b: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> tuple[pl.Tensor[[16, 16], pl.FP32],
                                                              pl.Tensor[[16, 16], pl.FP32]]:
        t: pl.Tile[[16, 16], pl.FP32] = pl.load(x, [0, 0], [16, 16])
        a = pl.store(pl.add(t, t), [0, 0], a)
        b = pl.store(pl.mul(t, t), [0, 0], b)
        return a, b

    @pl.function(type=pl.FunctionType.InCore)
    def combine(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32],
                out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        ta: pl.Tile[[16, 16], pl.FP32] = pl.load(a, [0, 0], [16, 16])
        tb: pl.Tile[[16, 16], pl.FP32] = pl.load(b, [0, 0], [16, 16])
        out = pl.store(pl.sub(ta, tb), [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def kernel(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
               m: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 16], pl.FP32]:
        a0 = pl.create_tensor([16, 16], dtype=pl.FP32)
        b0 = pl.create_tensor([16, 16], dtype=pl.FP32)
        with pl.manual_scope():
            (a, b), tid = pl.submit(self.pair, x, a0, b0)
            out, tid2 = pl.submit(self.combine, a, b, out, deps=[tid])
        return out
