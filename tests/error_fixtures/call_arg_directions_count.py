import pl


@pl.program
class Directed:
    @pl.function(type=pl.FunctionType.InCore)
    def scale(self, a: pl.Tensor[[32], pl.FP32], b: pl.Tensor[[32], pl.FP32], c: pl.Out[pl.Tensor[[32], pl.FP32]]) -> pl.Tensor[[32], pl.FP32]:
        t = pl.load(a, [0], [32])
        u = pl.load(b, [0], [32])
        return pl.store(pl.mul(t, u), [0], c)

    @pl.function
    def main(self, a: pl.Tensor[[32], pl.FP32], b: pl.Tensor[[32], pl.FP32], c: pl.Out[pl.Tensor[[32], pl.FP32]]) -> pl.Tensor[[32], pl.FP32]:
        c = self.scale(a, b, c, attrs={"arg_directions": [pl.adir.input, pl.adir.output_existing]})  # error: attrs['arg_directions'] length (2) on call to 'scale' must match positional arg count (3)  # error-col: 39
        return c
