"""A scope whose tensor-level result is read after it: the outlined function returns it through an
Out tensor the call site creates inside the scope (tensor-to-tile conversion), and that scope,
a call and its tensor.create, is not outlined again (compiling the compiled program gives it
back)."""
import pl


@pl.program
class Prog:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[64], pl.FP32], b: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            c = pl.add(a, b)
        return c
