"""A K loop inside the scope, carrying the accumulator: inference places the carry in Acc."""
import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[16, 64], pl.FP16], b: pl.Tensor[[64, 32], pl.FP16],
             out: pl.Out[pl.Tensor[[16, 32], pl.FP32]]) -> pl.Tensor[[16, 32], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="kloop"):
            a0 = pl.load(a, [0, 0], [16, 32])
            b0 = pl.load(b, [0, 0], [32, 32])
            acc = pl.matmul(a0, b0)
            for k in pl.range(1, 2):
                ak = pl.load(a, [0, k * 32], [16, 32])
                bk = pl.load(b, [k * 32, 0], [32, 32])
                acc = pl.matmul_acc(acc, ak, bk)
            out = pl.store(acc, [0, 0], out)
        return out
