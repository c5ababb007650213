# printed: pl.system.task_dummy(deps=[])
# printed: deps=[a
import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def step(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t: pl.Tile[[16, 16], pl.FP32] = pl.load(x, [0, 0], [16, 16])
        u: pl.Tile[[16, 16], pl.FP32] = pl.load(out, [0, 0], [16, 16])
        out = pl.store(pl.add(t, u), [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def kernel(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]], m: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.manual_scope():
            out, a = pl.submit(self.step, x, out)
            out, b = pl.submit(self.step, x, out)
            empty = pl.system.task_dummy(deps=[])
            barrier = pl.system.task_dummy(deps=[a, b, empty])
            out, _ = pl.submit(self.step, x, out, deps=[barrier])
        return out
