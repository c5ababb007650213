"""A first kernel: y = relu(x @ w) + bias, with a K loop that carries its accumulator by rebinding."""

import pl


@pl.program
class FirstKernel:
    @pl.function(type=pl.FunctionType.InCore)
    def matmul_relu(
        self,
        x: pl.Tensor[[16, 256], pl.FP16],
        w: pl.Tensor[[256, 64], pl.FP16],
        bias: pl.Tensor[[16, 64], pl.FP32],
        y: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        acc: pl.Tile[[16, 64], pl.FP32, pl.MemorySpace.Acc] = pl.create_tile(
            [16, 64], dtype=pl.FP32, target_memory=pl.MemorySpace.Acc
        )
        for k in pl.range(0, 256, 64):
            x_k: pl.Tile[[16, 64], pl.FP16, pl.MemorySpace.Mat] = pl.load(
                x, [0, k], [16, 64], target_memory=pl.MemorySpace.Mat
            )
            w_k: pl.Tile[[64, 64], pl.FP16, pl.MemorySpace.Mat] = pl.load(
                w, [k, 0], [64, 64], target_memory=pl.MemorySpace.Mat
            )
            x_k_Left: pl.Tile[[16, 64], pl.FP16, pl.MemorySpace.Left] = pl.move(
                x_k, target_memory=pl.MemorySpace.Left
            )
            w_k_Right: pl.Tile[[64, 64], pl.FP16, pl.MemorySpace.Right] = pl.move(
                w_k, target_memory=pl.MemorySpace.Right
            )
            acc: pl.Tile[[16, 64], pl.FP32, pl.MemorySpace.Acc] = pl.matmul_acc(
                acc, x_k_Left, w_k_Right
            )  # rebinding `acc` carries it to the next iteration
        b: pl.Tile[[16, 64], pl.FP32, pl.MemorySpace.Vec] = pl.load(bias, [0, 0], [16, 64])
        acc_Vec: pl.Tile[[16, 64], pl.FP32, pl.MemorySpace.Vec] = pl.move(
            acc,
            target_memory=pl.MemorySpace.Vec,
            blayout=pl.TileLayout.row_major,
            slayout=pl.TileLayout.none_box,
        )
        r: pl.Tile[[16, 64], pl.FP32, pl.MemorySpace.Vec] = pl.relu(acc_Vec)
        s: pl.Tile[[16, 64], pl.FP32, pl.MemorySpace.Vec] = pl.add(r, b)
        y = pl.store(s, [0, 0], y)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[16, 256], pl.FP16],
        w: pl.Tensor[[256, 64], pl.FP16],
        bias: pl.Tensor[[16, 64], pl.FP32],
        y: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        y = self.matmul_relu(x, w, bias, y)
        return y
