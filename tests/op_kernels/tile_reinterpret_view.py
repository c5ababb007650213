# expect: out = np.concatenate([x.view(np.int32) & 0xFFFF, x.view(np.int16)[:, 1::2].astype(np.int32)], axis=1)
import pl


# reinterpret_view views the FP32 bits as INT32 (same width) and as INT16 (twice the columns:
# the odd halves are the high 16 bits on a little-endian buffer).
@pl.program
class Reinterpret:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 32], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 64], pl.INT32]],
    ) -> pl.Tensor[[16, 64], pl.INT32]:
        src = pl.load(x, [0, 0], [16, 32])
        words = pl.tile.reinterpret_view(src, dtype=pl.INT32)
        low = pl.tile.ands(words, 65535)
        halves = pl.tile.reinterpret_view(src, dtype=pl.INT16)
        high = pl.tile.gather_mask(halves, mask_pattern=2)
        wide = pl.tile.cast(high, target_type=pl.INT32)
        out = pl.store(low, [0, 0], out)
        out = pl.store(wide, [0, 32], out)
        return out
