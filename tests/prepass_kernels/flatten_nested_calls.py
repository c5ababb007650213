# pass: flatten_call_expr  backend: 910B
"""flatten_call_expr: each op call of a tile nested in another op call's arguments, in an if's
condition, yielded or returned gets a statement of its own right before the statement, inner calls
first (the statement's comment goes to the first); a while's condition keeps its calls.
"""

import pl


@pl.program
class Before:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 128], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        xt = pl.load(x, [0, 0], [16, 128])
        # a chain: inner calls first
        y = pl.exp(pl.mul(pl.add(xt, xt), 0.5))
        if pl.tile.read(pl.exp(xt), [0, 0]) > 0.0:
            z = pl.yield_(y)
        else:
            z = pl.yield_(xt)
        for _i, (acc,) in pl.range(2, init_values=(z,)):
            acc_next = pl.yield_(pl.add(acc, pl.neg(xt)))
        for (w,) in pl.while_(init_values=(acc_next,)):
            pl.cond(pl.tile.read(pl.abs(w), [0, 0]) < 0.0)
            w_next = pl.yield_(w)
        return pl.store(pl.mul(w_next, 0.5), [0, 0], out)


@pl.program
class Expected:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 128], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        xt = pl.load(x, [0, 0], [16, 128])
        # a chain: inner calls first
        add = pl.add(xt, xt)
        muls = pl.mul(add, 0.5)
        y = pl.exp(muls)
        exp = pl.exp(xt)
        if pl.tile.read(exp, [0, 0]) > 0.0:
            z = pl.yield_(y)
        else:
            z = pl.yield_(xt)
        for _i, (acc,) in pl.range(2, init_values=(z,)):
            neg = pl.neg(xt)
            add_1 = pl.add(acc, neg)
            acc_next = pl.yield_(add_1)
        for (w,) in pl.while_(init_values=(acc_next,)):
            pl.cond(pl.tile.read(pl.abs(w), [0, 0]) < 0.0)
            w_next = pl.yield_(w)
        muls_1 = pl.mul(w_next, 0.5)
        store = pl.store(muls_1, [0, 0], out)
        return store
