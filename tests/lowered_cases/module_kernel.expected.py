import pl


# A tensor-level kernel at module level, no program: a program of its own.
@pl.function(type=pl.FunctionType.InCore)
def double(
    x: pl.Tensor[[64, 64], pl.FP32],
    out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
) -> pl.Tensor[[64, 64], pl.FP32]:
    x_vec: pl.Tile[[64, 64], pl.FP32, pl.MemorySpace.Vec] = pl.tile.load(
        x, [0, 0], [64, 64], [64, 64], target_memory=pl.MemorySpace.Vec
    )
    y_vec: pl.Tile[[64, 64], pl.FP32, pl.MemorySpace.Vec] = pl.tile.add(x_vec, x_vec)  # load, add, and the store below
    out_tensor: pl.Tensor[[64, 64], pl.FP32] = pl.tile.store(y_vec, [0, 0], out)
    return out_tensor
