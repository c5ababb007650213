"""A tile matmul whose K loop carries an accumulator: the Vec-created init is promoted to Acc."""

import pl


@pl.program
class MatmulKLoop:
    @pl.function(type=pl.FunctionType.InCore)
    def mm_kernel(
        self,
        a: pl.Tensor[[64, 256], pl.FP16],
        b: pl.Tensor[[256, 64], pl.FP16],
        c: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        acc0 = pl.create_tile([64, 64], dtype=pl.FP32)
        for k, (acc,) in pl.range(0, 256, 64, init_values=(acc0,)):
            # Stage both K slabs in L1; inference moves them on to Left / Right.
            a_k = pl.load(a, [0, k], [64, 64], target_memory=pl.MemorySpace.Mat)
            b_k = pl.load(b, [k, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
            nxt = pl.matmul_acc(acc, a_k, b_k)
            total = pl.yield_(nxt)
        c = pl.store(total, [0, 0], c)
        return c

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        a: pl.Tensor[[64, 256], pl.FP16],
        b: pl.Tensor[[256, 64], pl.FP16],
        c: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        c = self.mm_kernel(a, b, c)
        return c
