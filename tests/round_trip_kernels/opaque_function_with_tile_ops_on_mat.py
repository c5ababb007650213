"""An Opaque function written at tile level (no InCore function, no scope): its matmuls read Mat
loads. Inference places the tiles of every function that holds tile ops, so the matmuls read
Left/Right moves of them; the memory verifier, which checks every function kind since issue 30,
refused it ('requires Left but is in Mat'; kernels of the reference's test_memory_reuse.py and
test_auto_tile_matmul_l0.py, whose pipeline leaves non-InCore functions as written)."""
import pl


@pl.program
class Prog:
    @pl.function
    def main(self, lhs: pl.Tensor[[16, 64], pl.BF16], rhs: pl.Tensor[[64, 64], pl.BF16], cond: pl.Scalar[pl.INDEX],
             out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        sa: pl.Tile[[16, 64], pl.BF16, pl.Mem.Mat] = pl.tile.load(lhs, [0, 0], [16, 64], target_memory=pl.Mem.Mat)
        sb: pl.Tile[[64, 64], pl.BF16, pl.Mem.Mat] = pl.tile.load(rhs, [0, 0], [64, 64], target_memory=pl.Mem.Mat)
        prev: pl.Tile[[16, 64], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(sa, sb)
        if cond < 1:
            phi: pl.Tile[[16, 64], pl.FP32, pl.Mem.Acc] = pl.yield_(prev)
        else:
            acc: pl.Tile[[16, 64], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(prev, sa, sb)
            phi: pl.Tile[[16, 64], pl.FP32, pl.Mem.Acc] = pl.yield_(acc)
        result: pl.Tensor[[16, 64], pl.FP32] = pl.store(phi, [0, 0], out)
        return result
