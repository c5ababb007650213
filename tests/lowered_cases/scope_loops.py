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
        for ob in pl.spmd(4, name_hint="rows"):
            m0 = ob * ROWS  # this block's first row
            a_slice = pl.slice(a, [ROWS, 128], [m0, 0])
            y = pl.add(a_slice, 1.0)
            out = pl.assemble(out, y, [m0, 0])
        return out

    # A split_aiv loop: each of the two vector cores takes half of the rows.
    @pl.function(type=pl.FunctionType.InCore)
    def halves(
        self,
        a: pl.Tensor[[256, 128], pl.FP32],
        out: pl.Out[pl.Tensor[[256, 128], pl.FP32]],
    ) -> pl.Tensor[[256, 128], pl.FP32]:
        for aiv_id in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):
            offset = aiv_id * 128
            t = pl.load(a, [offset, 0], [128, 128])
            out = pl.store(pl.exp(t), [offset, 0], out)  # a nested call
        return out
