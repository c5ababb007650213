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
        acc = pl.create_tile([16, 64], dtype=pl.FP32, target_memory=pl.MemorySpace.Acc)
        for k in pl.range(0, 256, 64):
            x_k = pl.load(x, [0, k], [16, 64], target_memory=pl.MemorySpace.Mat)
            w_k = pl.load(w, [k, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
            acc = pl.matmul_acc(acc, x_k, w_k)  # rebinding `acc` carries it to the next iteration
        b = pl.load(bias, [0, 0], [16, 64])
        r = pl.relu(acc)
        s = pl.add(r, b)
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
