import pl


@pl.program
class K:
    @pl.function
    def f(self, a: pl.Tensor[[16, 60], pl.FP32]) -> pl.Tensor[[16, 32], pl.FP32]:
        # The window overhangs the source by 4 columns, and neither clamp=True nor a valid_shape
        # that stops at the edge says that was meant.
        s = pl.slice(a, [16, 32], [0, 32])  # error: tensor.slice reads past the end of dimension 1: offset 32 + extent 32 exceeds the source extent 60. Pass clamp=True
        return s
