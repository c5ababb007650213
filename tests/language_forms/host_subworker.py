# no-interpret: HOST SubWorker
import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
               m: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 16])
        out = pl.store(t, [0, 0], out)
        return out

    # A HOST SubWorker's body is plain Python the host runs: kept as written, never compiled.
    @pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)
    def check(x: pl.Tensor[[16, 16], pl.FP32]):
        import math  # noqa: F401

        # comments and blank lines stay
        assert x is not None
        for _row in range(16):
            pass

    # `...` alone: a callback bound at run time
    @pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker, attrs={"tag": 1})
    def callback(x: pl.Tensor[[16, 16], pl.FP32]): ...

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
             m: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 16], pl.FP32]:
        out = self.kernel(x, out, m)
        self.check(out)
        self.callback(out)
        return out
# printed: assert x is not None
# printed:     def check(x: pl.Tensor[[16, 16], pl.FP32]):
