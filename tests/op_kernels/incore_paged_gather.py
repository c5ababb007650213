# expect: out = np.concatenate([src[(ix & 15) // 4 * 4 + (ix & 15) % 4, 8:40], np.zeros((2, 32), np.float32)])
import pl


# Rows through a block table (block_size 4; here the identity table, so physical row = index):
# inside an InCore function the gather converts to a loop of tile.gather_row into an on-chip
# [max_indices, size] buffer; the rows past the six gathered ones stay 0.
@pl.program
class IncorePagedGather:
    @pl.function(type=pl.FunctionType.InCore)
    def gather(
        self,
        src: pl.Tensor[[16, 64], pl.FP32],
        k: pl.Tensor[[6], pl.INT32],
        table: pl.Tensor[[4], pl.INT32],
    ) -> pl.Tensor[[8, 32], pl.FP32]:
        g = pl.tensor.paged_gather(src, k, table, block_size=4, size=32, col_off=8, max_indices=8,
                                   space=pl.MemorySpace.Vec)
        return g

    @pl.function(type=pl.FunctionType.Orchestration)
    def kernel(
        self,
        src: pl.Tensor[[16, 64], pl.FP32],
        ix: pl.Tensor[[6], pl.INT32],
        out: pl.Out[pl.Tensor[[8, 32], pl.FP32]],
    ) -> pl.Tensor[[8, 32], pl.FP32]:
        k = pl.tensor.ands(ix, 15)
        table = pl.tensor.ci(0, [4], dtype=pl.INT32)
        g = self.gather(src, k, table)
        out = pl.assemble(out, g, [0, 0])
        return out
