"""A @pl.jit entry whose scope computes a tile that compilation stores into a tensor the scope
creates: the task it runs is shown as a @pl.jit.incore function before the entry, which the
scope calls by name (a module-level function has no class to hold it as a method)."""

import pl


@pl.jit.incore
def shifted_incore_0(
    x: pl.Tensor[[64], pl.FP32],
    ret0_out: pl.Out[pl.Tensor[[64], pl.FP32]],
) -> pl.Tensor[[64], pl.FP32]:
    x_vec: pl.Tile[[64], pl.FP32, pl.MemorySpace.Vec] = pl.tile.load(
        x, [0], [64], [64], target_memory=pl.MemorySpace.Vec
    )
    muls: pl.Tile[[64], pl.FP32, pl.MemorySpace.Vec] = pl.tile.muls(x_vec, 2.0)
    y_vec: pl.Tile[[64], pl.FP32, pl.MemorySpace.Vec] = pl.tile.adds(muls, 1.0)
    ret0_store: pl.Tensor[[64], pl.FP32] = pl.tile.store(y_vec, [0], ret0_out)
    return ret0_store


@pl.jit
def shifted(x: pl.Tensor[[64], pl.FP32], y: pl.Out[pl.Tensor[[64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        ret0_out: pl.Tensor[[64], pl.FP32] = pl.tensor.create(
            [64], dtype=pl.FP32, layout=pl.TensorLayout.ND
        )
        y: pl.Tensor[[64], pl.FP32] = shifted_incore_0(x, ret0_out)
    # Doubled, then shifted by one.
    # one vector pass
    return y
