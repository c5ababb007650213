# printed: : pl.PrefetchAsyncContext = pl.prefetch.make_context()
# printed: pl.AsyncEvent = pl.prefetch.async_prefetch(
# printed: pl.prefetch.wait(
import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def step(self, x: pl.Tensor[[1, 256], pl.FP32], out: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        ctx = pl.prefetch.make_context()
        evt = pl.prefetch.async_prefetch(x, ctx)
        session: pl.AsyncSession = pl.prefetch.session(ctx)
        # blocks until x is warm in L2
        pl.prefetch.wait(evt, session)
        t: pl.Tile[[1, 256], pl.FP32] = pl.load(x, [0, 0], [1, 256])
        u: pl.Tile[[16, 16], pl.FP32] = pl.load(out, [0, 0], [16, 16])
        out = pl.store(pl.add(pl.reshape(t, [16, 16]), u), [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def kernel(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]], m: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 16], pl.FP32]:
        flat = pl.reshape(x, [1, 256])
        out = self.step(flat, out)
        return out
