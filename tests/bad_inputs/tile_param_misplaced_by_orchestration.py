import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.AIV)
    def f(self, a: pl.Tile[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        s = pl.add(a, a)
        r = pl.store(s, [0, 0], out)
        return r

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        t = pl.load(x, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        r = self.f(t, out)  # error: Function 'f' input 0 ('t') requires Vec but is in Mat
        return r
