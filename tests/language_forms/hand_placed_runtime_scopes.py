# printed: @pl.function(type=pl.FunctionType.Orchestration, auto_scope=False)
import pl


@pl.program
class K:
    # auto_scope=False: this function places its AUTO runtime scopes itself, so a hand-written
    # `with pl.scope():` is accepted here (and the flag is printed back).
    @pl.function(type=pl.FunctionType.Orchestration, auto_scope=False)
    def kernel(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
               m: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 16], pl.FP32]:
        for i in pl.range(2):
            with pl.scope():
                with pl.at(level=pl.Level.CORE_GROUP, name_hint="", no_dep_args=[x], dumps=[out]):
                    t: pl.Tile[[4, 16], pl.FP32] = pl.load(x, [i * 4, 0], [4, 16])
                    out = pl.store(pl.exp(t), [i * 4, 0], out)
        with pl.manual_scope():
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="tail", no_dep_args=[]):
                u: pl.Tile[[4, 16], pl.FP32] = pl.load(x, [8, 0], [4, 16])
                out = pl.store(pl.neg(u), [8, 0], out)
        with pl.scope(mode=pl.ScopeMode.AUTO):
            with pl.cluster(name_hint="last"):
                v: pl.Tile[[4, 16], pl.FP32] = pl.load(x, [12, 0], [4, 16])
                out = pl.store(pl.abs(v), [12, 0], out)
        return out
