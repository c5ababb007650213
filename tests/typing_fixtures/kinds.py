"""Tensor / Tile confusion, arity and unknown ops."""

# ruff: noqa: F841, B007  (fixtures bind names only to show their types)

import pl


@pl.program
class Kinds:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 128], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 128])
        pl.load(t, [0, 0], [16, 128])  # E: Argument 1 to "load" has incompatible type "Tile[FP32, Vec]"; expected "Tensor[Any]"
        pl.store(x, [0, 0], out)  # E: Argument 1 to "store" has incompatible type "Tensor[FP32]"; expected "Tile[Any, Any]"
        pl.tile.exp(x)  # E: Argument 1 to "exp" has incompatible type "Tensor[FP32]"; expected "Tile[Any, Any]"
        pl.tensor.exp(t)  # E: Argument 1 to "exp" has incompatible type "Tile[FP32, Vec]"; expected "Tensor[Any]"
        pl.exp(t, t)  # E: No overload variant of "exp" matches argument types "Tile[FP32, Vec]", "Tile[FP32, Vec]"
        pl.tile.add(t)  # E: No overload variant of "add" matches argument type "Tile[FP32, Vec]"
        pl.load(x, [0, 0])  # E: Missing positional argument "shapes" in call to "load"
        pl.create_tile([16, 16])  # E: Missing positional argument "dtype" in call to "create_tile"
        pl.tile.exp(t, t)  # E: Too many arguments for "exp"
        pl.tile.move(t)  # E: Missing positional argument "target_memory" in call to "move"
        pl.frobnicate(t)  # E: Module has no attribute "frobnicate"
        pl.tile.frobnicate(t)  # E: Module has no attribute "frobnicate"
        pl.load(x, [0, 0], [16, 128], target_memory=pl.FP32)  # E: Argument "target_memory" to "load" has incompatible type "DType"; expected "MemorySpace"
        pl.load(x, [0, 0], [16, 128], colour=1)  # E: Unexpected keyword argument "colour" for "load"
        out = pl.store(t, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[16, 128], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        self.kernel(x)  # E: Missing positional argument "out" in call to "kernel" of "Kinds"
        out = self.kernel(x, out)
        return out
