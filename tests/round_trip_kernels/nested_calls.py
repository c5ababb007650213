"""Op calls nested as written (pl.parse keeps them; the flatten_call_expr pass gives them statements
of their own): in another call's arguments, a chain, an if's condition, a yield, a return, a
tensor-level function's calls and a call of a program function; the printed program reads back with
the same nesting."""
import pl


@pl.program
class NestedCalls:
    @pl.function(type=pl.FunctionType.InCore)
    def tiles(
        self,
        x: pl.Tensor[[16, 128], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        xt = pl.load(x, [0, 0], [16, 128])
        x3 = pl.mul(pl.mul(xt, xt), xt)
        inner = pl.add(xt, pl.mul(x3, 0.044715))
        if pl.tile.read(pl.exp(inner), [0, 0]) > 0.0:
            y = pl.yield_(pl.exp(pl.neg(inner)))
        else:
            y = pl.yield_(inner)
        return pl.store(pl.mul(y, 0.5), [0, 0], out)

    @pl.function(type=pl.FunctionType.InCore)
    def tensors(
        self,
        a: pl.Tensor[[16, 128], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        out = pl.assemble(out, pl.exp(pl.mul(a, 0.5)), [0, 0])
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[16, 128], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        out = self.tiles(x, out)
        out = self.tensors(x, out)
        return out
