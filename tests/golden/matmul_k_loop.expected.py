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
        acc0: pl.Tile[[64, 64], pl.FP32, pl.MemorySpace.Acc] = pl.create_tile(
            [64, 64], dtype=pl.FP32, target_memory=pl.MemorySpace.Acc
        )
        for k, (acc,) in pl.range(0, 256, 64, init_values=(acc0,)):
            # Stage both K slabs in L1; inference moves them on to Left / Right.
            a_k: pl.Tile[[64, 64], pl.FP16, pl.MemorySpace.Mat] = pl.load(
                a, [0, k], [64, 64], target_memory=pl.MemorySpace.Mat
            )
            b_k: pl.Tile[[64, 64], pl.FP16, pl.MemorySpace.Mat] = pl.load(
                b, [k, 0], [64, 64], target_memory=pl.MemorySpace.Mat
            )
            a_k_Left: pl.Tile[[64, 64], pl.FP16, pl.MemorySpace.Left] = pl.move(
                a_k, target_memory=pl.MemorySpace.Left
            )
            b_k_Right: pl.Tile[[64, 64], pl.FP16, pl.MemorySpace.Right] = pl.move(
                b_k, target_memory=pl.MemorySpace.Right
            )
            nxt: pl.Tile[[64, 64], pl.FP32, pl.MemorySpace.Acc] = pl.matmul_acc(
                acc, a_k_Left, b_k_Right
            )
            total: pl.Tile[[64, 64], pl.FP32, pl.MemorySpace.Acc] = pl.yield_(nxt)
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
