"""A program calling a module-level @pl.function and an inline helper of another file."""

from helpers import N, scale_kernel, softplus_like

import pl


@pl.program
class UsesHelpers:
    @pl.function(type=pl.FunctionType.InCore)
    def soft(self, x: pl.Tensor[[N, N], pl.FP32], out: pl.Out[pl.Tensor[[N, N], pl.FP32]]) -> pl.Tensor[[N, N], pl.FP32]:
        t = pl.load(x, [0, 0], [N, N])
        s = softplus_like(t)
        out = pl.store(s, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[N, N], pl.FP32], out: pl.Out[pl.Tensor[[N, N], pl.FP32]]) -> pl.Tensor[[N, N], pl.FP32]:
        tmp = pl.create_tensor([N, N], dtype=pl.FP32)
        tmp = scale_kernel(x, tmp)
        out = self.soft(tmp, out)
        return out
