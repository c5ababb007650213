# expect: out = np.concatenate([x[(ix[:, :1] & 7).reshape(-1)], x.reshape(-1)[ix & 255].reshape(8, 32), x.reshape(-1)[::-1].reshape(8, 32)])
import pl


# tile.mgather in row mode (row r is x[idx[r]]) and element mode (x.flat[idx]); tile.mscatter
# writes out.flat[idx] = src into the GM tensor (here reversed into rows 16..23).
@pl.program
class MGatherMScatter:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[8, 32], pl.FP32],
        ix: pl.Tensor[[8, 32], pl.INT32],
        out: pl.Out[pl.Tensor[[24, 32], pl.FP32]],
    ) -> pl.Tensor[[24, 32], pl.FP32]:
        raw = pl.load(ix, [0, 0], [8, 32])
        rows = pl.tile.ands(pl.tile.slice(raw, [8, 1], [0, 0]), 7)
        by_row = pl.tile.mgather(x, rows, coalesce="row")
        elems = pl.tile.ands(raw, 255)
        by_elem = pl.tile.mgather(x, elems, coalesce="elem")
        src = pl.load(x, [0, 0], [8, 32])
        down = pl.tile.ci(767, [1, 256], dtype=pl.INT32, descending=True)
        rev = pl.tile.reshape(down, [8, 32])
        out = pl.store(by_row, [0, 0], out)
        out = pl.store(by_elem, [8, 0], out)
        out = pl.tile.mscatter(src, rev, out)
        return out
