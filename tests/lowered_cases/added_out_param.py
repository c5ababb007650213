import pl


@pl.program
class AddedOut:
    # A tensor-level kernel returning a tensor it computes: compilation stores the result
    # into an Out tensor it adds to the kernel's parameters, and the caller creates it.
    @pl.function(type=pl.FunctionType.InCore)
    def scale_rows(self, x: pl.Tensor[[64, 128], pl.FP32]) -> pl.Tensor[[64, 128], pl.FP32]:
        y: pl.Tensor[[64, 128], pl.FP32] = pl.mul(x, 2.0)  # doubled
        return y

    @pl.function
    def main(self, x: pl.Tensor[[64, 128], pl.FP32]) -> pl.Tensor[[64, 128], pl.FP32]:
        # the caller passes the new Out tensor
        y: pl.Tensor[[64, 128], pl.FP32] = self.scale_rows(x)
        return y
