import pl


@pl.program
class K:
    # A while's condition is evaluated before every iteration: a tensor op there has no
    # statement of its own to be converted to tile ops in (one in an if's condition or a loop's
    # bounds is computed before the statement, and converted).
    @pl.function(type=pl.FunctionType.InCore)
    def main(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        z = pl.add(x, y)
        while pl.tensor.read(z, [0, 0]) < pl.tensor.read(pl.add(x, y), [0, 0]):  # error: in the condition of a while loop is not converted to tile ops
            z = pl.mul(x, y)
        out = pl.assemble(out, z, [0, 0])
        return out
