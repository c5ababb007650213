import pl


@pl.program
class K:
    # The loop is outside the scope, whose body becomes an InCore function of its own.
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]], m: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 16], pl.FP32]:
        for i in pl.range(3):
            with pl.at(level=pl.Level.CORE_GROUP):
                t = pl.load(a, [0, 0], [16, 16])
                if m > i:
                    break  # error: 'break' cannot leave the pl.at(level=pl.Level.CORE_GROUP) or pl.spmd scope it is in
                out = pl.store(t, [0, 0], out)
        return out
