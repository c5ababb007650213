# printed: attrs={"dump_vars": [x
# printed: attrs={"arg_direction_overrides": [0], "dump_vars": [x
import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def step(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t: pl.Tile[[16, 16], pl.FP32] = pl.load(x, [0, 0], [16, 16])
        u: pl.Tile[[16, 16], pl.FP32] = pl.load(out, [0, 0], [16, 16])
        out = pl.store(pl.sub(t, u), [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def kernel(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]], m: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 16], pl.FP32]:
        out = self.step(x, out)
        pl.dump_tag(x)
        pl.dump_tag(out)
        out = self.step(x, out)
        out = self.step(pl.no_dep(x), out)
        return out
