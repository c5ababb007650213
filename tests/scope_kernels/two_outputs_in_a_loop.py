"""A scope in a loop carrying the output tensor, and a scope that writes two tensors the rest of
the function reads (a tuple result), one of them read by the next scope."""
import pl


@pl.program
class K:
    @pl.function
    def main(self, a: pl.Tensor[[32, 32], pl.FP32], b: pl.Tensor[[32, 32], pl.FP32],
             out: pl.Out[pl.Tensor[[32, 32], pl.FP32]],
             aux: pl.Out[pl.Tensor[[16, 32], pl.FP32]]) -> pl.Tensor[[32, 32], pl.FP32]:
        for k in pl.range(2):
            with pl.at(level=pl.Level.CORE_GROUP):
                ta = pl.load(a, [k * 16, 0], [16, 32], target_memory=pl.MemorySpace.Mat)
                tb = pl.load(b, [0, 0], [32, 32], target_memory=pl.MemorySpace.Mat)
                prod = pl.matmul(ta, tb)
                out = pl.store(prod, [k * 16, 0], out)
        with pl.at(level=pl.Level.CORE_GROUP):
            row = pl.load(a, [0, 0], [16, 32])
            e = pl.exp(row)
            out = pl.store(e, [16, 0], out)
            aux = pl.store(row, [0, 0], aux)
        with pl.at(level=pl.Level.CORE_GROUP):
            back = pl.load(aux, [0, 0], [16, 32])
            again = pl.add(back, back)
            out = pl.store(again, [0, 0], out)
        return out
