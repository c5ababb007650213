# A Left Tile parameter is a matmul's left operand as it is; only the right operand moves.
import pl


@pl.program
class Before:
    @pl.function(type=pl.FunctionType.AIC)
    def main(self, a: pl.Tile[[16, 128], pl.BF16, pl.MemorySpace.Left], y: pl.Tensor[[128, 64], pl.BF16],
             out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        b: pl.Tile[[128, 64], pl.BF16] = pl.load(y, [0, 0], [128, 64], target_memory=pl.MemorySpace.Mat)
        c: pl.Tile[[16, 64], pl.FP32] = pl.matmul(a, b)
        r: pl.Tensor[[16, 64], pl.FP32] = pl.store(c, [0, 0], out)
        return r


# moves: b_Right
# decisions: main.a=Left:parameter main.c=Acc:fixed_output
@pl.program
class Expected:
    @pl.function(type=pl.FunctionType.AIC)
    def main(self, a: pl.Tile[[16, 128], pl.BF16, pl.MemorySpace.Left], y: pl.Tensor[[128, 64], pl.BF16],
             out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        b: pl.Tile[[128, 64], pl.BF16, pl.MemorySpace.Mat] = pl.tile.load(y, [0, 0], [128, 64], [128, 64], target_memory=pl.MemorySpace.Mat)
        b_Right: pl.Tile[[128, 64], pl.BF16, pl.MemorySpace.Right] = pl.tile.move(b, target_memory=pl.MemorySpace.Right)
        c: pl.Tile[[16, 64], pl.FP32, pl.MemorySpace.Acc] = pl.tile.matmul(a, b_Right)
        r: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(c, [0, 0], out)
        return r
