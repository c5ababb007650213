"""The tensor-level collectives inside a rank's InCore function, each on its own window:
`allgather` (block s of every rank's `gathered` is rank s's input row), `allreduce` with
`op=Max` (every rank's `peak` is the element-wise maximum of all inputs), `all_to_all` (block s
of rank d's `recv` is row d of rank s's `table`) and `reduce_scatter` (row r of rank r's `scat`
is the sum of every rank's row r of `table`); each result is read back with a `pld.tensor.get`
from the rank itself."""
import pl
import pl.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class Collectives:
    @pl.function(type=pl.FunctionType.InCore)
    def step(
        self,
        x: pl.Tensor[[1, 16], pl.FP32],
        table: pl.Tensor[[NR, 16], pl.FP32],
        gathered_out: pl.Out[pl.Tensor[[NR, 16], pl.FP32]],
        peak_out: pl.Out[pl.Tensor[[1, 16], pl.FP32]],
        recv_out: pl.Out[pl.Tensor[[NR, 16], pl.FP32]],
        scat_out: pl.Out[pl.Tensor[[1, 16], pl.FP32]],
        gathered: pl.InOut[pld.DistributedTensor[[NR, 16], pl.FP32]],
        peak: pl.InOut[pld.DistributedTensor[[1, 16], pl.FP32]],
        recv: pl.InOut[pld.DistributedTensor[[NR, 16], pl.FP32]],
        scat: pl.InOut[pld.DistributedTensor[[NR, 16], pl.FP32]],
        sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]],
    ):
        me = pld.rank(pld.get_comm_ctx(sig))
        gathered = pld.tensor.allgather(x, gathered, sig)
        pld.tensor.put(peak, me, x)
        peak = pld.tensor.allreduce(peak, sig, op=pld.ReduceOp.Max)
        recv = pld.tensor.all_to_all(table, recv, sig)
        pld.tensor.put(scat, me, table)
        scat = pld.tensor.reduce_scatter(scat, sig, op=pld.ReduceOp.Sum)
        pld.tensor.get(gathered_out, me, gathered)
        pld.tensor.get(peak_out, me, peak)
        pld.tensor.get(recv_out, me, recv)
        pld.tensor.get(scat_out, me, scat, [0, 0], [me, 0], [1, 16])

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(
        self,
        x: pl.Tensor[[1, 16], pl.FP32],
        table: pl.Tensor[[NR, 16], pl.FP32],
        gathered_out: pl.Out[pl.Tensor[[NR, 16], pl.FP32]],
        peak_out: pl.Out[pl.Tensor[[1, 16], pl.FP32]],
        recv_out: pl.Out[pl.Tensor[[NR, 16], pl.FP32]],
        scat_out: pl.Out[pl.Tensor[[1, 16], pl.FP32]],
        gathered: pl.InOut[pld.DistributedTensor[[NR, 16], pl.FP32]],
        peak: pl.InOut[pld.DistributedTensor[[1, 16], pl.FP32]],
        recv: pl.InOut[pld.DistributedTensor[[NR, 16], pl.FP32]],
        scat: pl.InOut[pld.DistributedTensor[[NR, 16], pl.FP32]],
        sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]],
    ):
        self.step(x, table, gathered_out, peak_out, recv_out, scat_out, gathered, peak, recv,
                  scat, sig)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(
        self,
        xs: pl.Tensor[[NR, 1, 16], pl.FP32],
        tables: pl.Tensor[[NR, NR, 16], pl.FP32],
        gathered_outs: pl.Out[pl.Tensor[[NR, NR, 16], pl.FP32]],
        peak_outs: pl.Out[pl.Tensor[[NR, 1, 16], pl.FP32]],
        recv_outs: pl.Out[pl.Tensor[[NR, NR, 16], pl.FP32]],
        scat_outs: pl.Out[pl.Tensor[[NR, 1, 16], pl.FP32]],
    ):
        rows = pld.world_size()
        gbuf = pld.alloc_window_buffer(rows * 16 * pl.FP32.get_byte())
        pbuf = pld.alloc_window_buffer([1, 16], dtype=pl.FP32)
        rbuf = pld.alloc_window_buffer(rows * 16 * pl.FP32.get_byte())
        sbuf = pld.alloc_window_buffer(rows * 16 * pl.FP32.get_byte())
        cbuf = pld.alloc_window_buffer(rows * pl.INT32.get_byte())
        for r in pl.range(pld.world_size()):
            gathered = pld.window(gbuf, [rows, 16], dtype=pl.FP32)
            peak = pld.window(pbuf, [1, 16], dtype=pl.FP32)
            recv = pld.window(rbuf, [rows, 16], dtype=pl.FP32)
            scat = pld.window(sbuf, [rows, 16], dtype=pl.FP32)
            sig = pld.window(cbuf, [rows, 1], dtype=pl.INT32)
            self.chip(xs[r], tables[r], gathered_outs[r], peak_outs[r], recv_outs[r],
                      scat_outs[r], gathered, peak, recv, scat, sig, device=r)
