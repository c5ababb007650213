import pl


@pl.program
class NestedChain:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 128], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        xt: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.tile.load(
            x, [0, 0], [16, 128], [16, 128], target_memory=pl.MemorySpace.Vec
        )
        # a chain of nested calls: each inner result gets a name of its own
        add: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.tile.add(xt, xt)  # the chain
        muls: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.tile.muls(add, 0.5)
        y: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.tile.exp(muls)
        out: pl.Tensor[[16, 128], pl.FP32] = pl.tile.store(y, [0, 0], out)
        return out
