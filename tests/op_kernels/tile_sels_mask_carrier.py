# expect: out = np.where(np.arange(16) % 2 == 1, x, np.float32(2.0))
import pl


# A mask carried in an INT32 tile: 0xAAAAAAAA (all -1431655766) sets bits 1, 3, 5, ... of each
# row's little-endian bytes, so the odd columns keep the source.
@pl.program
class SelsCarrier:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[2, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[2, 16], pl.FP32]],
    ) -> pl.Tensor[[2, 16], pl.FP32]:
        src = pl.load(x, [0, 0], [2, 16])
        mask = pl.tile.full([2, 8], dtype=pl.INT32, value=-1431655766)
        tmp = pl.tile.create([1, 32], dtype=pl.UINT8)
        r = pl.tile.sels(mask, src, tmp, 2.0)
        out = pl.store(r, [0, 0], out)
        return out
