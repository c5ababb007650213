# expect: out = x.reshape(-1, 8)[ix & 31].reshape(4, 64)
import pl


# tile.gatherb copies 32-byte blocks (eight FP32 values) from byte offsets of the source.
@pl.program
class GatherBlocks:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[4, 64], pl.FP32],
        ix: pl.Tensor[[4, 8], pl.INT32],
        out: pl.Out[pl.Tensor[[4, 64], pl.FP32]],
    ) -> pl.Tensor[[4, 64], pl.FP32]:
        src = pl.load(x, [0, 0], [4, 64])
        raw = pl.load(ix, [0, 0], [4, 8])
        block = pl.tile.muls(pl.tile.ands(raw, 31), 32)
        offset = pl.tile.cast(block, target_type=pl.UINT32)
        r = pl.tile.gatherb(src, offset)
        out = pl.store(r, [0, 0], out)
        return out
