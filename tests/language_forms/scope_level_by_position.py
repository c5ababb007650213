import pl


@pl.program
class K:
    @pl.function
    def main(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
             m: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 16], pl.FP32]:
        # `pl.at`'s level (and role) may be given by position, as in the reference's signature
        with pl.at(pl.Level.HOST):
            y = pl.add(x, x)
        out = pl.assemble(out, y, [0, 0])
        return out
