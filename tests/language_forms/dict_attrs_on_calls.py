# printed: "core_num": 4, "tag"
# printed: attrs={"windowize": True}
import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore, attrs={"pipeline_membership": "1:2"})
    def scale(self, x: pl.Tensor[[16, 16], pl.FP32],
              out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t: pl.Tile[[16, 16], pl.FP32] = pl.load(x, [0, 0], [16, 16])
        u = pl.add(t, t, attrs={"windowize": True})
        out = pl.store(u, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def kernel(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
               m: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 16], pl.FP32]:
        out = self.scale(x, out, attrs={"core_num": 4, "tag": "a:b"})
        return out
