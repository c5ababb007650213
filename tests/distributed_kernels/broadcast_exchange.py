"""`pld.tensor.broadcast` from rank 0 and `pld.tensor.all_to_all_v` inside a rank's InCore
function: every rank's `b_out` is rank 0's input; block s (2 rows) of rank d's `recv_out` is
block d of rank s's table (every row moves), and row s of its `rc_out` is rank s's send count for
d, clamped to the 2-row block."""
import pl
import pl.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class BroadcastExchange:
    @pl.function(type=pl.FunctionType.InCore)
    def step(
        self,
        x: pl.Tensor[[1, 16], pl.FP32],
        table: pl.Tensor[[NR * 2, 16], pl.FP32],
        counts: pl.Tensor[[NR, 1], pl.INT32],
        b_out: pl.Out[pl.Tensor[[1, 16], pl.FP32]],
        recv_out: pl.Out[pl.Tensor[[NR * 2, 16], pl.FP32]],
        rc_out: pl.Out[pl.Tensor[[NR, 1], pl.INT32]],
        bwin: pl.InOut[pld.DistributedTensor[[1, 16], pl.FP32]],
        data: pl.InOut[pld.DistributedTensor[[NR * 2, 16], pl.FP32]],
        recvc: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]],
        sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]],
    ):
        me = pld.rank(pld.get_comm_ctx(sig))
        pld.tensor.put(bwin, me, x)
        bwin = pld.tensor.broadcast(bwin, sig, root=0)
        data = pld.tensor.all_to_all_v(table, data, sig, counts, recvc)
        pld.tensor.get(b_out, me, bwin)
        pld.tensor.get(recv_out, me, data)
        pld.tensor.get(rc_out, me, recvc)

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(
        self,
        x: pl.Tensor[[1, 16], pl.FP32],
        table: pl.Tensor[[NR * 2, 16], pl.FP32],
        counts: pl.Tensor[[NR, 1], pl.INT32],
        b_out: pl.Out[pl.Tensor[[1, 16], pl.FP32]],
        recv_out: pl.Out[pl.Tensor[[NR * 2, 16], pl.FP32]],
        rc_out: pl.Out[pl.Tensor[[NR, 1], pl.INT32]],
        bwin: pl.InOut[pld.DistributedTensor[[1, 16], pl.FP32]],
        data: pl.InOut[pld.DistributedTensor[[NR * 2, 16], pl.FP32]],
        recvc: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]],
        sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]],
    ):
        self.step(x, table, counts, b_out, recv_out, rc_out, bwin, data, recvc, sig)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(
        self,
        xs: pl.Tensor[[NR, 1, 16], pl.FP32],
        tables: pl.Tensor[[NR, NR * 2, 16], pl.FP32],
        counts: pl.Tensor[[NR, NR, 1], pl.INT32],
        b_outs: pl.Out[pl.Tensor[[NR, 1, 16], pl.FP32]],
        recv_outs: pl.Out[pl.Tensor[[NR, NR * 2, 16], pl.FP32]],
        rc_outs: pl.Out[pl.Tensor[[NR, NR, 1], pl.INT32]],
    ):
        n = pld.world_size()
        bbuf = pld.alloc_window_buffer([1, 16], dtype=pl.FP32)
        dbuf = pld.alloc_window_buffer(n * 2 * 16 * pl.FP32.get_byte())
        cbuf = pld.alloc_window_buffer(n * pl.INT32.get_byte())
        sbuf = pld.alloc_window_buffer(n * pl.INT32.get_byte())
        for r in pl.range(pld.world_size()):
            bwin = pld.window(bbuf, [1, 16], dtype=pl.FP32)
            data = pld.window(dbuf, [n * 2, 16], dtype=pl.FP32)
            recvc = pld.window(cbuf, [n, 1], dtype=pl.INT32)
            sig = pld.window(sbuf, [n, 1], dtype=pl.INT32)
            self.chip(xs[r], tables[r], counts[r], b_outs[r], recv_outs[r], rc_outs[r], bwin,
                      data, recvc, sig, device=r)
