import pl


@pl.program
class K:
    @pl.function
    def f(self, a: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            for i in pl.range(4):
                k = i * 16
        b = pl.add(a, pl.cast(k, pl.FP32))  # error: 'k' is not defined on every path to this use
        return b
