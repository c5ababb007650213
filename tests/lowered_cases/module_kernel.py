import pl


# A tensor-level kernel at module level, no program: a program of its own.
@pl.function(type=pl.FunctionType.InCore)
def double(
    x: pl.Tensor[[64, 64], pl.FP32],
    out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
) -> pl.Tensor[[64, 64], pl.FP32]:
    y = pl.add(x, x)  # load, add, and the store below
    out = pl.assemble(out, y, [0, 0])
    return out
