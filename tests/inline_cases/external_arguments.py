import pl


@pl.function
def twice(x: pl.Tensor[[16], pl.FP32], y: pl.Tensor[[16], pl.FP32]) -> pl.Tensor[[16], pl.FP32]:
    z = pl.add(x, y)
    return z


@pl.program
class K:
    @pl.function
    def main(self, x: pl.Tensor[[16], pl.FP32]) -> pl.Tensor[[16], pl.FP32]:
        y = twice(x)  # error: Function 'twice' expects 2 argument(s), got 1
        return y
