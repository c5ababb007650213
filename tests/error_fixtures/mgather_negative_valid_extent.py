import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, mem: pl.Tensor[[512], pl.FP16], idx: pl.Tensor[[16, 32], pl.INT32], scratch: pl.Tensor[[512], pl.FP16], out: pl.Out[pl.Tensor[[16, 32], pl.FP16]]) -> pl.Tensor[[16, 32], pl.FP16]:
        g = pl.tile.mgather(mem, idx, scratch=scratch, valid_shape=[9, -1], coalesce="elem", target_memory=pl.MemorySpace.Mat)  # error: every valid extent must be >= 0, got -1  # error-col: 68
        out = pl.store(g, [0, 0], out)
        return out
