"""A pl.unroll loop whose copies compile differently: each copy stands where the loop was."""

# note: UnrollUnequal.kernel: the pl.unroll loop at line 18 is shown as it compiles, at its place, below the level it is written at (the copies of the pl.unroll loop at line 18 compile differently (other types, spaces or moves)); the rest of the function is annotated as written

import pl


@pl.program
class UnrollUnequal:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 128], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 128], target_memory=pl.MemorySpace.Mat)
        # The first copy reads the Mat tile, which must move to Vec; the second reads a Vec one.
        for _ in pl.unroll(2):
            t = pl.exp(t)  # applied twice
        out = pl.store(t, [0, 0], out)
        return out
