import pl


# A four-way tensor merge sort is as wide as its sources together ([1, 512] from four [1, 128]
# lists), and inside an InCore function it converts to tile.mrgsort_format2 with a scratch tile
# of that shape.
@pl.program
class FourWayMerge:
    @pl.function(type=pl.FunctionType.InCore)
    def main_incore_0(
        self,
        s0: pl.Tensor[[1, 128], pl.FP32],
        s1: pl.Tensor[[1, 128], pl.FP32],
        s2: pl.Tensor[[1, 128], pl.FP32],
        s3: pl.Tensor[[1, 128], pl.FP32],
    ) -> pl.Tensor[[1, 512], pl.FP32]:
        out: pl.Tensor[[1, 512], pl.FP32] = pl.tensor.mrgsort(s0, s1, s2, s3)
        return out
