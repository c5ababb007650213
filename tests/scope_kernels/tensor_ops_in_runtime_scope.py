"""Tensor-level ops in a pl.at scope nested in a runtime scope, with a branch inside the scope: the
outlined function is converted to tile ops before inference places them."""
import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.Orchestration, auto_scope=False)
    def main(self, a: pl.Tensor[[32, 32], pl.FP32], b: pl.Tensor[[32, 32], pl.FP32],
             out: pl.Out[pl.Tensor[[32, 32], pl.FP32]], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[32, 32], pl.FP32]:
        with pl.scope():
            with pl.at(level=pl.Level.CORE_GROUP):
                m = pl.matmul(a, b)
                if n > 2:
                    s = pl.add(m, a)
                else:
                    s = pl.sub(m, a)
                out = pl.assemble(out, s, [0, 0])
        return out
