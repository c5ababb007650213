"""An @pl.inline helper whose calls compile differently, in a function that spells the name
the helper binds: the helper's value is named apart at each call, and the function's own
value keeps its name."""

# note: InlineNamesApart.kernel: the call of the @pl.inline helper twice at line 26 is shown as it compiles, at its place

import pl


@pl.inline
def twice(t: pl.Tile[[16, 128], pl.FP32]) -> pl.Tile[[16, 128], pl.FP32]:
    s = pl.add(t, t)
    return s


@pl.program
class InlineNamesApart:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 128], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        s = pl.load(x, [0, 0], [16, 128])
        m = pl.load(x, [0, 0], [16, 128], target_memory=pl.MemorySpace.Mat)
        a = twice(s)  # a Vec argument
        # a Mat argument, moved to Vec
        b = twice(m)
        total = pl.add(a, b)
        total = pl.add(total, s)  # the function's own s
        out = pl.store(total, [0, 0], out)
        return out
