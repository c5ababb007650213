import pl


@pl.program
class K:
    # A vector op computes in Vec (UB) and an AIC function runs on the cube core, which has no
    # vector unit: its result cannot be made in Mat there.
    @pl.function(type=pl.FunctionType.AIC)
    def cross_aic(self, inp: pl.Tensor[[4, 2], pl.FP32]):
        recv: pl.Tile[[4, 2], pl.FP32, pl.MemorySpace.Mat] = pl.tpop_from_aiv(shape=[4, 2], dtype=pl.FP32, split=0)
        twice: pl.Tile[[4, 2], pl.FP32, pl.MemorySpace.Mat] = pl.add(recv, recv)  # error: 'twice' is annotated Mat, but tile.add produces a Vec tile here
        pl.tpush_to_aiv(twice, split=0)
