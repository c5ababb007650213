"""A pl.spmd body outlined from a function whose tensors have a `pl.dynamic` dim: the symbol is
bound by the outlined function's tensor parameters, as in the parent, and is no parameter of its
own; taken as an INDEX parameter after the tensor annotated with it, it shadowed the symbol and
the printed program did not read back (found on the reference's test_orchestration_codegen_more.py
kernels)."""
import pl

M = pl.dynamic("M")


@pl.program
class Prog:
    @pl.function(type=pl.FunctionType.Opaque)
    def main(self, a: pl.Tensor[[M, 64], pl.FP32], b: pl.Tensor[[64, 16], pl.FP32],
             out: pl.Tensor[[M, 16], pl.FP32]) -> pl.Tensor[[M, 16], pl.FP32]:
        m = pl.tensor.dim(a, 0)
        for ob in pl.spmd(m // 16, name_hint="rows"):
            m0 = ob * 16
            a_slice = pl.slice(a, [16, 64], [m0, 0])
            a_add = pl.add(a_slice, 1.0)
            c = pl.matmul(a_add, b)
            out = pl.assemble(out, pl.add(c, 1.0), [m0, 0])
        return out
