import pl


@pl.program
class K:
    @pl.function
    def f(self, a: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64], pl.FP32]:
        match n:  # error: Unsupported statement type: Match
            case 0:
                a = pl.add(a, a)
        return a
