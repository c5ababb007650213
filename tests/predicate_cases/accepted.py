import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def count(self, flags: pl.Out[pl.Tensor[[4, 4], pl.INT16]]) -> pl.Tensor[[4, 4], pl.INT16]:
        t = pl.load(flags, [0, 0], [4, 4])
        flags = pl.store(t, [0, 0], flags)
        return flags

    @pl.function(type=pl.FunctionType.InCore)
    def work(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(a, [0, 0], [16, 16])
        out = pl.store(pl.add(t, t), [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]], flags: pl.Out[pl.Tensor[[4, 4], pl.INT16]]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.manual_scope():
            flags, counted = pl.submit(self.count, flags)
            out, worked = pl.spmd_submit(self.work, a, out, core_num=2, deps=[counted], predicate=(flags[1, 0] > 0))
            with pl.spmd(2, deps=[counted, worked], predicate=(0 <= flags[0, 1])) as again:
                out = self.work(a, out)
            out, _ = pl.submit(self.work, a, out, deps=[again])
        return out
