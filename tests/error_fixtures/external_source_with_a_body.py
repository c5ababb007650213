import pl


@pl.program
class K:
    # An external kernel's body is its C++ source: the def holds its signature only.
    @pl.function(type=pl.FunctionType.AIV, external_source="relu.cpp")
    def relu(self, x: pl.Tensor[[8], pl.FP32]) -> pl.Tensor[[8], pl.FP32]:  # error: declares an external kernel (external_source=), so its body must be `...` alone  # error-col: 9
        return x

    @pl.function
    def main(self, x: pl.Tensor[[8], pl.FP32]) -> pl.Tensor[[8], pl.FP32]:
        return self.relu(x)
