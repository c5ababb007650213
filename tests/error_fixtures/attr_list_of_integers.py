import pl


@pl.program
class P:
    @pl.function(attrs={"custom_list": [1, 2]})  # error: Unsupported list element type for key: custom_list  # error-col: 40
    def kernel(self, x: pl.Tensor[[4], pl.FP16]) -> pl.Tensor[[4], pl.FP16]:
        return x
