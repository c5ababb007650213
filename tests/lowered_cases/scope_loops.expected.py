import pl

ROWS = 16


@pl.program
class ScopeLoops:
    # An spmd loop over row blocks: its body runs as a task compilation outlines, whose
    # statements are shown where the user wrote them, under the loop.
    @pl.function(type=pl.FunctionType.Opaque)
    def blocks(
        self,
        a: pl.Tensor[[64, 128], pl.FP32],
        out: pl.Out[pl.Tensor[[64, 128], pl.FP32]],
    ) -> pl.Tensor[[64, 128], pl.FP32]:
        for ob in pl.spmd(4, name_hint='rows'):
            m0: pl.Scalar[pl.INDEX] = ob * 16  # this block's first row
            a_slice_vec: pl.Tile[[ROWS, 128], pl.FP32, pl.MemorySpace.Vec] = pl.tile.load(
                a, [m0, 0], [ROWS, 128], [ROWS, 128], target_memory=pl.MemorySpace.Vec
            )
            y_vec: pl.Tile[[ROWS, 128], pl.FP32, pl.MemorySpace.Vec] = pl.tile.adds(
                a_slice_vec, 1.0
            )
            out: pl.Tensor[[64, 128], pl.FP32] = pl.tile.store(y_vec, [m0, 0], out)
        return out

    # A split_aiv loop: each of the two vector cores takes half of the rows.
    @pl.function(type=pl.FunctionType.InCore)
    def halves(
        self,
        a: pl.Tensor[[256, 128], pl.FP32],
        out: pl.Out[pl.Tensor[[256, 128], pl.FP32]],
    ) -> pl.Tensor[[256, 128], pl.FP32]:
        for aiv_id in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):
            offset: pl.Scalar[pl.INDEX] = aiv_id * 128
            t: pl.Tile[[128, 128], pl.FP32, pl.MemorySpace.Vec] = pl.tile.load(
                a, [offset, 0], [128, 128], [128, 128], target_memory=pl.MemorySpace.Vec
            )
            exp: pl.Tile[[128, 128], pl.FP32, pl.MemorySpace.Vec] = pl.tile.exp(t)  # a nested call
            out: pl.Tensor[[256, 128], pl.FP32] = pl.tile.store(exp, [offset, 0], out)
        return out
