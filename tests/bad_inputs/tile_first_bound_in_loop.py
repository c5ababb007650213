import pl


@pl.program
class K:
    @pl.function
    def f(self, a: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        for i in pl.range(4):  # error: 'e' is first bound inside this loop and used after it
            e = pl.cast(pl.add(a, 1.0), pl.FP16)
        b = pl.cast(e, pl.FP32)
        return b
