import pl

N = pl.dynamic("N")


# The launch leaves the Out tensor to the runtime; converting the kernel narrows its result
# type (the valid extent N of the Out it stores into), and the launch's type follows it once.
@pl.program
class SubmitLeavingOutAnOut:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[64], pl.FP32],
               out: pl.Out[pl.Tensor[[64], pl.FP32, pl.TensorView(valid_shape=[N], layout=pl.TensorLayout.ND)]],
               ) -> pl.Tensor[[64], pl.FP32]:
        t = pl.load(x, [0], [64])
        return pl.store(pl.add(t, t), [0], out)

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        with pl.manual_scope():
            a, _tid = pl.submit(self.kernel, x)
        return a
