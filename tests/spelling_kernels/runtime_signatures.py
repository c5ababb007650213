import pl


@pl.program
class RuntimeSignatures:
    """The reference wrappers' optional arguments: pipe init with omitted consumer buffers (0),
    the hard and soft syncall forms, cacheinvalid with and without a region, a constant sync
    event with its lane."""

    @pl.function(type=pl.FunctionType.AIV)
    def vec(self, a: pl.Tensor[[16, 16], pl.FP32], ws: pl.Tensor[[16], pl.INT32],
            out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        buf = pl.reserve_buffer(name="c2v", size=4096)
        pl.aiv_initialize_pipe(dir_mask=1, slot_size=512, c2v_consumer_buf=buf)
        pl.aiv_initialize_pipe(dir_mask=2, slot_size=512, v2c_consumer_buf=buf, id=3)
        pl.system.aiv_initialize_pipe(buf, dir_mask=1, slot_size=512, id=4)
        pl.system.syncall(core_type="aiv_only")
        pl.system.syncall()
        pl.system.syncall(mode="soft", core_type="aiv_only", gm_workspace=ws, used_cores=0)
        pl.system.syncall(mode="soft", core_type="mix", gm_workspace=ws, used_cores=4)
        pl.system.cacheinvalid()
        pl.system.cacheinvalid(a, [1, 16], [0, 0])
        pl.system.sync_set(4, pipe=pl.PipeType.MTE3, ffts_mode=2, core_type="aiv")
        pl.system.sync_wait(4, pipe=pl.PipeType.MTE3, core_type="aiv")
        t = pl.load(a, [0, 0], [16, 16])
        out = pl.store(t, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.AIC)
    def cube(self, mem: pl.Tensor[[64, 32], pl.FP16], idx: pl.Tensor[[1, 16], pl.INT32],
             out: pl.Out[pl.Tensor[[16, 32], pl.FP16]]) -> pl.Tensor[[16, 32], pl.FP16]:
        pl.aic_initialize_pipe(dir_mask=2, slot_size=512)
        rows: pl.Tile[[16, 32], pl.FP16, pl.MemorySpace.Mat, pl.TileView(valid_shape=[9, 21])] = pl.tile.mgather(
            mem, idx, coalesce="row", gather_oob="zero", target_memory=pl.MemorySpace.Mat, valid_shape=[9, 21])
        out = pl.store(rows, [0, 0], out)
        return out
