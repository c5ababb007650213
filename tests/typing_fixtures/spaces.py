"""Annotations whose dtype or memory space contradicts the value."""

# ruff: noqa: F841, B007  (fixtures bind names only to show their types)

import pl


@pl.program
class Spaces:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 16], pl.FP16],
        b: pl.Tensor[[16, 16], pl.FP16],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        x: pl.Tile[[16, 16], pl.FP16, pl.MemorySpace.Vec] = pl.load(a, [0, 0], [16, 16])
        y: pl.Tile[[16, 16], pl.FP16, pl.Mem.Mat] = pl.load(b, [0, 0], [16, 16], target_memory=pl.Mem.Mat)
        bad_load: pl.Tile[[16, 16], pl.FP16, pl.Mem.Mat] = pl.load(b, [0, 0], [16, 16])  # E: Incompatible types in assignment (expression has type "Tile[FP16, Vec]", variable has type "Tile[FP16, Mat]")
        z: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Vec] = pl.matmul(x, y)  # E: Incompatible types in assignment (expression has type "Tile[FP32, Acc]", variable has type "Tile[FP32, Vec]")
        acc: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Acc] = pl.matmul(x, y)
        any_space: pl.Tile[[16, 16], pl.FP32] = pl.matmul(x, y)
        wrong_dtype: pl.Tile[[16, 16], pl.FP16] = pl.matmul(x, y)  # E: Incompatible types in assignment (expression has type "Tile[FP32, Acc]", variable has type "Tile[FP16, Any]")
        left: pl.Tile[[16, 16], pl.FP16, pl.Mem.Left] = pl.move(y, target_memory=pl.Mem.Left)
        bad_move: pl.Tile[[16, 16], pl.FP16, pl.Mem.Right] = pl.move(y, target_memory=pl.Mem.Left)  # E: Incompatible types in assignment (expression has type "Tile[FP16, Left]", variable has type "Tile[FP16, Right]")
        view: pl.Tile[[16, 16], pl.FP16, pl.Mem.Mat] = pl.tile.reshape(y, [16, 16])
        sq: pl.Tile[[16, 16], pl.FP16, pl.Mem.Mat] = pl.exp(x)  # E: Incompatible types in assignment (expression has type "Tile[FP16, Vec]", variable has type "Tile[FP16, Mat]")
        cast: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.cast(x, target_type=pl.BF16)  # E: Incompatible types in assignment (expression has type "Tile[BF16, Vec]", variable has type "Tile[FP32, Vec]")
        tile_for_tensor: pl.Tensor[[16, 16], pl.FP32] = acc  # E: Incompatible types in assignment (expression has type "Tile[FP32, Acc]", variable has type "Tensor[FP32]")
        typo: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vector] = acc  # E: "pl.Mem.Vector" is not a pl memory space
        out = pl.store(acc, [0, 0], out)
        return out
