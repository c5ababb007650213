import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def fill(self, x: pl.Tensor[[64, 64], pl.FP32], a: pl.InOut[pl.Tile[[64, 64], pl.FP32, pl.MemorySpace.Vec]]) -> pl.Tile[[64, 64], pl.FP32, pl.MemorySpace.Vec]:
        t = pl.load(x, [0, 0], [32, 64])
        s = pl.tile.assemble(a, t, [0, 0])
        return s

    @pl.function(type=pl.FunctionType.InCore)
    def main(self, x: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        m = pl.load(x, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        s = self.fill(x, m)  # error: InOut Tile parameter 'a' in Vec, but 'm' is in Mat
        r = pl.store(s, [0, 0], out)
        return r
