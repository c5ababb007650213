# printed: core_num=4
# printed: sync_start=True
# printed: allow_early_resolve=True
# printed: dumps=[x
import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def step(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t: pl.Tile[[16, 16], pl.FP32] = pl.load(x, [0, 0], [16, 16])
        u: pl.Tile[[16, 16], pl.FP32] = pl.load(out, [0, 0], [16, 16])
        out = pl.store(pl.maximum(t, u), [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def kernel(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]], m: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.manual_scope():
            out, first = pl.spmd_submit(self.step, x, out, core_num=4, sync_start=True, dumps=[x])
            out, _ = pl.spmd_submit(self.step, x, out, core_num=2, deps=[first], allow_early_resolve=True)
        return out
