import pl


@pl.jit.extern(core_type="cube", source="k.cpp")  # error: core_type must be 'aic', 'aiv', or 'mixed', got 'cube'
def k(a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]: ...


@pl.jit
def entry(a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
    out = k(a, out)
    return out
