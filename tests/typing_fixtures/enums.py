"""The reference's int-coded enums and layout constants type-check where the ops take them."""

# ruff: noqa: F841  (fixtures bind names only to show their types)

import pl


@pl.program
class Enums:
    @pl.function(type=pl.FunctionType.AIV, attrs={"split": pl.SplitMode.UP_DOWN})
    def kernel(
        self,
        x: pl.Tensor[[16, 128], pl.FP32],
        s: pl.Tensor[[16, 2], pl.FP8E8M0, pl.MX_A_ZZ],
        n: pl.Tensor[[16, 16], pl.FP16, pl.NZ],
        out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 128])
        pl.system.sync_src(set_pipe=pl.PipeType.MTE2, wait_pipe=pl.PipeType.V, event_id=0)
        pl.system.sync_wait(pipe=pl.PipeType.MTE3, event_id=3)
        g = pl.tile.gather_mask(t, pl.tile.MaskPattern.P0101)
        pl.load(x, [0, 0], [16, 128], target_memory=pl.PipeType.V)  # E: Argument "target_memory" to "load" has incompatible type "PipeType"; expected "MemorySpace"
        base: int = pl.system.AUTO + pl.AUTO
        out = pl.store(t, [0, 0], out, atomic=pl.AtomicType.Add)
        return out
