"""pl.aiv_shard of a matmul result in a pl.split_aiv region inside a pl.at scope: the scope is
outlined into an InCore function and the shard becomes tile.aiv_shard (split forwarded), the
reference's 1:1 conversion, its result in Vec; it was refused as an op with no tile conversion
once the scope was outlined (kernels of the reference's test_convert_tensor_to_tile_ops.py)."""
import pl


@pl.program
class Prog:
    @pl.function
    def main(self, a: pl.Tensor[[128, 128], pl.FP32], b: pl.Tensor[[128, 128], pl.FP32]) -> pl.Tensor[[64, 128], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            qk = pl.matmul(a, b)
            for aiv_id in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):  # noqa: B007
                res = pl.aiv_shard(qk)
        return res
