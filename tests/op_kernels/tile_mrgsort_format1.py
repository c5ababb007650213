# expect: out = np.concatenate([-np.sort(-x, axis=-1), np.argsort(-x, axis=-1, kind="stable").astype(np.float32)], axis=1)
import pl


# sort32 sorts four 32-element blocks; mrgsort format1 merges the four runs of 64 words
# ((value, index) pairs) into one: the whole row sorted descending, with the source positions.
@pl.program
class MergeSort:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[1, 128], pl.FP32],
        out: pl.Out[pl.Tensor[[1, 256], pl.FP32]],
    ) -> pl.Tensor[[1, 256], pl.FP32]:
        src = pl.load(x, [0, 0], [1, 128])
        idx = pl.tile.ci(0, [1, 128], dtype=pl.UINT32)
        pairs = pl.tile.sort32(src, idx)
        merged = pl.tile.mrgsort(pairs, block_len=64)
        values = pl.tile.gather_mask(merged, mask_pattern=1)
        bits = pl.tile.gather_mask(merged, mask_pattern=2, output_dtype=pl.UINT32)
        where = pl.tile.cast(bits, target_type=pl.FP32)
        out = pl.store(values, [0, 0], out)
        out = pl.store(where, [0, 128], out)
        return out
