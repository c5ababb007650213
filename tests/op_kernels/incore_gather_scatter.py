# expect: out = np.concatenate([np.take_along_axis(x, ix & 15, axis=-1), np.concatenate([x[:, :8], s[:, ::-1]], axis=-1)[:, :8], np.concatenate([x[:, :8], s[:, ::-1]], axis=-1)[:, 8:]], axis=-1)
import pl


# Inside an InCore function the index forms convert to tile ops: tensor.gather along the last
# axis (output[b, k] = input[b, index[b, k]]) and tensor.scatter (output[b, index[b, k]] =
# src[b, k], the other elements kept: a descending arange writes src reversed into columns 15..8).
@pl.program
class IncoreGatherScatter:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[4, 16], pl.FP32],
        ix: pl.Tensor[[4, 8], pl.INT32],
        s: pl.Tensor[[4, 8], pl.FP32],
        out: pl.Out[pl.Tensor[[4, 24], pl.FP32]],
    ) -> pl.Tensor[[4, 24], pl.FP32]:
        k = pl.tensor.ands(ix, 15)
        g = pl.tensor.gather(x, -1, k)
        row = pl.tensor.ci(15, [1, 8], dtype=pl.INT32, descending=True)
        down = pl.tensor.col_expand(pl.tensor.create([4, 8], dtype=pl.INT32), row)
        r = pl.tensor.scatter(x, dim=-1, index=down, src=s)
        out = pl.assemble(out, g, [0, 0])
        out = pl.assemble(out, r, [0, 8])
        return out
