import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64, 16], pl.FP32], out: pl.Out[pl.Tensor[[64, 16], pl.FP32]]) -> pl.Tensor[[64, 16], pl.FP32]:
        with pl.at(level=pl.Level.HOST, optimizations=[pl.cross_core_slot(slot_num=2)]):  # error: are only supported with level=pl.Level.CORE_GROUP
            out = pl.add(x, x)
        return out
