import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.Group)
    def a(self, x: pl.Tensor[[16], pl.FP32], p: pl.Tensor[[16], pl.FP32]) -> pl.Tensor[[16], pl.FP32]:
        _r0 = self.z(x, p)
        r1 = self.kern(x, p)
        return r1

    @pl.function(type=pl.FunctionType.InCore)
    def kern(self, x: pl.Tensor[[16], pl.FP32], out: pl.Out[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
        t = pl.load(x, [0], [16])
        r = pl.store(t, [0], out)
        return r

    @pl.function
    def main(self, x: pl.Tensor[[16], pl.FP32], d: pl.Tensor[[16], pl.FP32]) -> pl.Tensor[[16], pl.FP32]:
        r = self.a(x, d)
        return r

    # `a` and `z` call each other: the reference parses this (its InlineFunctions pass refuses
    # cycles among Inline functions only); running it never ends, which pl.interpret reports
    @pl.function(type=pl.FunctionType.Group)
    def z(self, x: pl.Tensor[[16], pl.FP32], p: pl.Tensor[[16], pl.FP32]) -> pl.Tensor[[16], pl.FP32]:
        r = self.a(x, p)
        return r
