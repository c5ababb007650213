import pl


@pl.program
class K:
    # The scope's body becomes an InCore function of its own: a return there could not return
    # from `main`.
    @pl.function
    def main(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.load(a, [0, 0], [16, 16])
            out = pl.store(t, [0, 0], out)
            return out  # error: return is not allowed inside a pl.at(level=pl.Level.CORE_GROUP) or pl.spmd scope
