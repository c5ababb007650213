"""Valid kernels the stubs once rejected (each line must type-check), and the errors next to them
that stay errors."""

# ruff: noqa: F841  (fixtures bind names only to show their types)

import pl


@pl.program
class ValidCalls:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        cfg: pl.Tensor[[4], pl.INT32],
        out: pl.Out[pl.Tensor[[4], pl.INT32]],
    ) -> pl.Tensor[[4], pl.INT32]:
        # An index list, as pl.tile.read takes one (the stub typed it as a tensor or one scalar).
        first = pl.tensor.read(cfg, [0])
        n: pl.Scalar[pl.INT32] = pl.read(cfg, [1])
        out = pl.tensor.write(out, [0], first)
        return out

    @pl.function(type=pl.FunctionType.InCore)
    def scaled(
        self,
        x: pl.Tensor[[4], pl.FP32],
        n: pl.Scalar[pl.INT32],
        f: pl.Scalar[pl.FP32],
        on: pl.Scalar[pl.BOOL],
        out: pl.Out[pl.Tensor[[4], pl.FP32]],
    ) -> pl.Tensor[[4], pl.FP32]:
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[4], pl.FP32],
        out: pl.Out[pl.Tensor[[4], pl.FP32]],
    ) -> pl.Tensor[[4], pl.FP32]:
        # A literal for a pl.Scalar parameter: the frontend makes it a constant of that dtype.
        out = self.scaled(x, 3, 1.5, True, out)
        out = self.scaled(x, 3, 2, False, out)
        k: pl.Scalar[pl.INT32] = pl.const(3, pl.INT32)
        out = self.scaled(x, k, 2.0, True, out)
        out = self.scaled(x, 1.5, 2.0, True, out)  # E: Argument 2 to "scaled" of "ValidCalls" has incompatible type "float"; expected "Scalar[INT32] | int"
        out = self.scaled(x, 3, "2", True, out)  # E: Argument 3 to "scaled" of "ValidCalls" has incompatible type "str"; expected "Scalar[FP32] | float"
        out = self.scaled(x, 3, 2.0, 1.0, out)  # E: Argument 4 to "scaled" of "ValidCalls" has incompatible type "float"; expected "Scalar[BOOL] | bool"
        return out
