import pl


@pl.function
def f(a: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
    return a
