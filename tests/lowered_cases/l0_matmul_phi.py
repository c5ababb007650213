"""A K-chunked matmul whose accumulator a loop carries: the first chunk starts it (pl.matmul), the
others add to it (pl.matmul_acc), in the two branches of an if. Each chunk overflows L0 (BF16 on
910B), so each branch's matmul is tiled into a loop of its own, and the if's result is the value
either loop leaves; the regenerated file rebinds the accumulator in both branches."""

import pl


@pl.program
class L0MatmulPhi:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        lhs: pl.Tensor[[128, 1024], pl.BF16],
        rhs: pl.Tensor[[1024, 64], pl.BF16],
        out: pl.Out[pl.Tensor[[128, 64], pl.FP32]],
    ) -> pl.Tensor[[128, 64], pl.FP32]:
        acc = pl.create_tensor([128, 64], dtype=pl.FP32)
        # two chunks of K = 512, each tiled into a loop over K
        for kb in pl.pipeline(0, 2, stage=2):
            a = lhs[:, kb * 512 : kb * 512 + 512]
            b = rhs[kb * 512 : kb * 512 + 512, :]
            if kb == 0:
                acc = pl.matmul(a, b, out_dtype=pl.FP32)  # the first chunk
            else:
                acc = pl.matmul_acc(acc, a, b)
        out = pl.assemble(out, acc, [0, 0])
        return out
