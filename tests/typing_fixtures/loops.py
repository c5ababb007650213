"""Loops with carried values and pl.yield_ arity."""

# ruff: noqa: F841, B007  (fixtures bind names only to show their types)

import pl


@pl.program
class Loops:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[64, 64], pl.FP32],
        n: pl.Scalar[pl.INDEX],
        out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        t0 = pl.load(a, [0, 0], [64, 64])
        for i, (acc,) in pl.range(0, 64, 16, init_values=(t0,)):
            nxt = pl.add(acc, acc)
            total = pl.yield_(nxt)
        for j, (p, q) in pl.range(n, init_values=(t0, t0)):
            both = pl.yield_(p)  # E: pl.yield_ passes 1 value(s) but the loop carries 2 (init_values)
        for k, (r,) in pl.range(4, init_values=(t0,)):
            if k > 0:
                s = pl.yield_(r)
            else:
                s = pl.yield_(pl.exp(r))
            extra = pl.yield_(s, s)  # E: pl.yield_ passes 2 value(s) but the loop carries 1 (init_values)
        for m, (u, v) in pl.range(4, init_values=(t0,)):  # E: Need more than 1 value to unpack (2 expected)
            pass
        for w in pl.range(n, 4, 1, 2):  # E: No overload variant of "range" matches argument types "Scalar[INDEX]", "int", "int", "int"
            pass
        res: pl.Tile[[64, 64], pl.FP32, pl.Mem.Acc] = total  # E: Incompatible types in assignment (expression has type "Tile[FP32, Vec]", variable has type "Tile[FP32, Acc]")
        out = pl.store(total, [0, 0], out)
        return out
