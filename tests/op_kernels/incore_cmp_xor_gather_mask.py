# expect: out = np.concatenate([(x < y).astype(np.float32) + (x >= np.float32(0.25)).astype(np.float32), x[:, 1::4], ((i ^ j) ^ 5).astype(np.float32)], axis=1)
import pl


# Inside an InCore function tensor.cmp (0/1 through a packed mask and tile.sel), tensor.gather
# in its mask form (P0010: column 1 of every 4) and tensor.xor / xors (with their scratch tile)
# convert to tile ops.
@pl.program
class IncoreCmpXorGatherMask:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 64], pl.FP32],
        y: pl.Tensor[[16, 64], pl.FP32],
        i: pl.Tensor[[16, 64], pl.INT32],
        j: pl.Tensor[[16, 64], pl.INT32],
        out: pl.Out[pl.Tensor[[16, 144], pl.FP32]],
    ) -> pl.Tensor[[16, 144], pl.FP32]:
        lt = pl.tensor.cmp(x, y, cmp_type=2)
        ge = pl.tensor.cmp(x, 0.25, cmp_type=5)
        both = pl.tensor.add(lt, ge)
        picked = pl.tensor.gather(x, mask_pattern=4)
        k = pl.tensor.xor(i, j)
        k5 = pl.tensor.xors(k, 5)
        kf = pl.tensor.cast(k5, target_type=pl.FP32)
        out = pl.assemble(out, both, [0, 0])
        out = pl.assemble(out, picked, [0, 64])
        out = pl.assemble(out, kf, [0, 80])
        return out
