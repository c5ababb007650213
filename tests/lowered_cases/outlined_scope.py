import pl


@pl.program
class OutlinedScope:
    @pl.function(type=pl.FunctionType.Opaque)
    def main(
        self,
        x: pl.Tensor[[16, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        # The scope's body runs on a core: compilation outlines it into a task, which loads
        # the tensors it reads on entry; those loads stand first in the scope.
        with pl.at(level=pl.Level.CORE_GROUP):
            y = pl.mul(x, x)  # squared
            out = pl.assemble(out, y, [0, 0])
        return out
