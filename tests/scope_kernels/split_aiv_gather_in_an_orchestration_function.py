"""pl.aic_gather of a vector result in a pl.split_aiv region of an Orchestration function (which
the frontend wraps in an InCore scope, as the reference's parser does): outlined, the gather
becomes tile.aic_gather, its result in Mat; it was refused as an op with no tile conversion once
the scope was outlined (kernels of the reference's test_split_aiv_parsing.py)."""
import pl


@pl.program
class Prog:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[128, 512], pl.FP32], out: pl.Out[pl.Tensor[[128, 512], pl.FP32]]) -> pl.Tensor[[128, 512], pl.FP32]:
        for aiv_id in pl.split_aiv(2, mode=pl.SplitMode.LEFT_RIGHT):  # noqa: B007
            h = pl.exp(a)
            g = pl.aic_gather(h)  # noqa: F841
        return out
