"""A pl.spmd dispatch body whose kernel argument is a tensor op (`pl.add(x, 1.0)`): it runs where
the dispatch is, as in the reference (whose parser wraps only a body reading its block index in an
InCore scope), so the body is not outlined; outlined, the converted argument was a tile handed to
the kernel's tensor parameter and the compiled program did not read back (found on the
reference's test_scope_parsing.py kernels)."""
import pl


@pl.program
class Prog:
    @pl.function(type=pl.FunctionType.InCore)
    def worker(self, x: pl.Tensor[[64], pl.FP32], out: pl.Out[pl.Tensor[[64], pl.FP32]]) -> pl.Tensor[[64], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            out = pl.add(x, x)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64], pl.FP32], out: pl.Out[pl.Tensor[[64], pl.FP32]]) -> pl.Tensor[[64], pl.FP32]:
        with pl.spmd(4):
            out = self.worker(pl.add(x, 1.0), out)
        return out
