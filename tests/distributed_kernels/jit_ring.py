"""The `@pl.jit` form of a distributed program (the reference's user docs write them so): a
`@pl.jit.host` orchestrator dispatches a per-device `@pl.jit` wrapper to every rank, whose
`@pl.jit.incore` kernel stages its input in its window slice, meets the other ranks at a
barrier and reads the next rank's slice. Called with the reference's
`config=RunConfig(distributed_config=DistributedConfig(device_ids=[...]))`, it runs as one rank
per device id: rank r's output is rank r+1's input."""
import pl
import pl.distributed as pld

NR = pl.dynamic("NR")
SIZE = 32


@pl.jit.incore
def next_row(
    x: pl.Tensor[[1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    data: pld.DistributedTensor[[1, SIZE], pl.FP32],
    signal: pld.DistributedTensor[[NR, 1], pl.INT32],
):
    ctx = pld.get_comm_ctx(data)
    peer = (pld.rank(ctx) + 1) % pld.nranks(ctx)
    data = pl.store(pl.load(x, [0, 0], [1, SIZE]), [0, 0], data)
    signal = pld.tensor.barrier(signal)
    got = pld.tile.remote_load(data, peer=peer, offsets=[0, 0], shape=[1, SIZE])
    y = pl.store(got, [0, 0], y)
    return y


@pl.jit
def per_rank(
    x: pl.Tensor[[1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    data: pld.DistributedTensor[[1, SIZE], pl.FP32],
    signal: pld.DistributedTensor[[NR, 1], pl.INT32],
):
    return next_row(x, y, data, signal)


@pl.jit.host
def ring(x: pl.Tensor[[NR, 1, SIZE], pl.FP32], y: pl.Out[pl.Tensor[[NR, 1, SIZE], pl.FP32]]):
    data_buf = pld.alloc_window_buffer([1, SIZE], dtype=pl.FP32)
    signal_buf = pld.alloc_window_buffer(pld.world_size() * pl.INT32.get_byte())
    for r in pl.range(pld.world_size()):
        data = pld.window(data_buf, [1, SIZE], dtype=pl.FP32)
        signal = pld.window(signal_buf, [pld.world_size(), 1], dtype=pl.INT32)
        per_rank(x[r], y[r], data, signal, device=r)
