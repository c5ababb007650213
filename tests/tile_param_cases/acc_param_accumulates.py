# An Acc Tile parameter is the accumulator of matmul_acc as it is: no move.
import pl


@pl.program
class Before:
    @pl.function(type=pl.FunctionType.InCore)
    def main(self, acc_init: pl.Tile[[16, 64], pl.FP32, pl.MemorySpace.Acc],
             x: pl.Tensor[[16, 128], pl.BF16], y: pl.Tensor[[128, 64], pl.BF16],
             out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        a: pl.Tile[[16, 128], pl.BF16] = pl.load(x, [0, 0], [16, 128], target_memory=pl.MemorySpace.Mat)
        b: pl.Tile[[128, 64], pl.BF16] = pl.load(y, [0, 0], [128, 64], target_memory=pl.MemorySpace.Mat)
        a_l: pl.Tile[[16, 128], pl.BF16] = pl.move(a, target_memory=pl.MemorySpace.Left)
        b_r: pl.Tile[[128, 64], pl.BF16] = pl.move(b, target_memory=pl.MemorySpace.Right)
        c: pl.Tile[[16, 64], pl.FP32] = pl.matmul_acc(acc_init, a_l, b_r)
        r: pl.Tensor[[16, 64], pl.FP32] = pl.store(c, [0, 0], out)
        return r


# moves:
# decisions: main.acc_init=Acc:parameter main.c=Acc:fixed_output
@pl.program
class Expected:
    @pl.function(type=pl.FunctionType.InCore)
    def main(self, acc_init: pl.Tile[[16, 64], pl.FP32, pl.MemorySpace.Acc],
             x: pl.Tensor[[16, 128], pl.BF16], y: pl.Tensor[[128, 64], pl.BF16],
             out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        a: pl.Tile[[16, 128], pl.BF16, pl.MemorySpace.Mat] = pl.tile.load(x, [0, 0], [16, 128], [16, 128], target_memory=pl.MemorySpace.Mat)
        b: pl.Tile[[128, 64], pl.BF16, pl.MemorySpace.Mat] = pl.tile.load(y, [0, 0], [128, 64], [128, 64], target_memory=pl.MemorySpace.Mat)
        a_l: pl.Tile[[16, 128], pl.BF16, pl.MemorySpace.Left] = pl.tile.move(a, target_memory=pl.MemorySpace.Left)
        b_r: pl.Tile[[128, 64], pl.BF16, pl.MemorySpace.Right] = pl.tile.move(b, target_memory=pl.MemorySpace.Right)
        c: pl.Tile[[16, 64], pl.FP32, pl.MemorySpace.Acc] = pl.tile.matmul_acc(acc_init, a_l, b_r)
        r: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(c, [0, 0], out)
        return r
