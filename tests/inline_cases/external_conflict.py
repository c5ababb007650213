import pl


@pl.function
def twice(x: pl.Tensor[[16], pl.FP32]) -> pl.Tensor[[16], pl.FP32]:
    y = pl.add(x, x)
    return y


@pl.program
class K:
    @pl.function
    def twice(self, x: pl.Tensor[[16], pl.FP32]) -> pl.Tensor[[16], pl.FP32]:
        y = pl.mul(x, 2.0)
        return y

    @pl.function
    def main(self, x: pl.Tensor[[16], pl.FP32]) -> pl.Tensor[[16], pl.FP32]:
        y = twice(x)  # error: External function 'twice' conflicts with program function 'twice'
        return y
