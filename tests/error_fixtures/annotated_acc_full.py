import pl


@pl.program
class K:
    # tile.full fills a Vec (UB) buffer, in the reference as in pl (ops.tsv): no op fills Acc.
    # Left unannotated, the accumulator's init is moved to Acc by inference, as matmul_acc needs.
    @pl.function(type=pl.FunctionType.AIC)
    def main(self, x: pl.Tensor[[16, 128], pl.BF16], w: pl.Tensor[[128, 64], pl.BF16]):
        acc_init: pl.Tile[[16, 64], pl.FP32, pl.MemorySpace.Acc] = pl.tile.full([16, 64], dtype=pl.FP32, value=0.0)  # error: 'acc_init' is annotated Acc, but tile.full produces a Vec tile here
        for kb, (acc,) in pl.range(2, init_values=(acc_init,)):
            x_mat = pl.load(x, [0, 0], [16, 128], target_memory=pl.MemorySpace.Mat)
            w_mat = pl.load(w, [0, 0], [128, 64], target_memory=pl.MemorySpace.Mat)
            nxt = pl.matmul_acc(acc, x_mat, w_mat)
            acc_out = pl.yield_(nxt)
        pl.tpush_to_aiv(acc_out, split=0)
