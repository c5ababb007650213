import pl


@pl.program
class K:
    # The matmul stands outside any pl.at scope of an Orchestration function: nothing places its
    # operands (only InCore functions and pl.at scopes get moves), and two Vec tiles are not a
    # matmul's Left and Right.
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        ta = pl.load(a, [0, 0], [16, 16])
        tb = pl.load(b, [0, 0], [16, 16])
        acc = pl.matmul(ta, tb)  # error: Op 'tile.matmul' input 0 ('ta') requires Left but is in Vec
        out = pl.store(acc, [0, 0], out)
        return out
