import pl


@pl.program
class K:
    # `row` lives in the first task's buffers: the second scope, another task, cannot read it.
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 48], pl.FP32], out: pl.Out[pl.Tensor[[16, 48], pl.FP32]]) -> pl.Tensor[[16, 48], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            row = pl.load(x, [0, 0], [16, 16])  # error: 'row' is a tile the pl.at(level=pl.Level.CORE_GROUP) or pl.spmd scope defines and code after the scope reads
        with pl.at(level=pl.Level.CORE_GROUP):
            out = pl.store(pl.exp(row), [0, 0], out)
        return out
