# expect: out = np.concatenate([-np.sort(-x.reshape(2, 2, 32), axis=-1).reshape(2, 64), np.argsort(-x.reshape(2, 2, 32), axis=-1, kind="stable").reshape(2, 64).astype(np.float32)], axis=1)
import pl


# sort32 sorts each 32-element block descending into (value, index bits) pairs; gather_mask
# P0101 keeps the values, P1010 with output_dtype=UINT32 the indices (here 0..31 per block,
# converted to FP32 so the expectation can compare them).
@pl.program
class Sort32:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[2, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[2, 128], pl.FP32]],
    ) -> pl.Tensor[[2, 128], pl.FP32]:
        src = pl.load(x, [0, 0], [2, 64])
        up = pl.tile.ci(0, [1, 32], dtype=pl.UINT32)
        one = pl.tile.col_expand(pl.tile.create([4, 32], dtype=pl.UINT32), up)
        idx = pl.tile.reshape(one, [2, 64])
        pairs = pl.tile.sort32(src, idx)
        values = pl.tile.gather_mask(pairs, mask_pattern=1)
        bits = pl.tile.gather_mask(pairs, mask_pattern=2, output_dtype=pl.UINT32)
        where = pl.tile.cast(bits, target_type=pl.FP32)
        out = pl.store(values, [0, 0], out)
        out = pl.store(where, [0, 64], out)
        return out
