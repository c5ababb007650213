import pl


@pl.program
class ExternalKernels:
    # Declared external kernels (what @pl.jit.extern makes): the signature, and C++ source as the body.
    @pl.function(type=pl.FunctionType.AIV, external_source="kernels/relu.cpp")
    def relu(
        self,
        a: pl.Tensor[[64, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        ...

    @pl.function(type=pl.FunctionType.AIC, external_source="kernels/pa.cpp")
    def pa_aic(
        self,
        a: pl.Tensor[[64, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        ...

    @pl.function(
        type=pl.FunctionType.AIV,
        external_source="kernels/pa.cpp",
        attrs={"dual_aiv_dispatch": True, "external_include_dirs": '["include"]'},
    )
    def pa_aiv(
        self,
        a: pl.Tensor[[64, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        ...

    @pl.function(type=pl.FunctionType.Group)
    def pa(
        self,
        a: pl.Tensor[[64, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        pa_out: pl.Tensor[[64, 64], pl.FP32] = self.pa_aic(a, out)
        self.pa_aiv(a, out)
        return pa_out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        a: pl.Tensor[[64, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        out: pl.Tensor[[64, 64], pl.FP32] = self.relu(a, out)
        out: pl.Tensor[[64, 64], pl.FP32] = self.pa(a, out)
        return out
