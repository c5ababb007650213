import pl


@pl.program
class PromotedTfreeToAiv:
    """pl.aic_initialize_pipe (buffers by keyword) and pl.tfree_to_aiv on the cube side, freeing a
    Mat tile."""

    @pl.function(type=pl.FunctionType.AIC)
    def cube(self, b: pl.Tensor[[16, 16], pl.BF16], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        buf = pl.reserve_buffer(name="v2c", size=2048)
        peer = pl.import_peer_buffer(name="c2v", peer_func="vec")
        pl.aic_initialize_pipe(dir_mask=2, slot_size=512, c2v_consumer_buf=peer, v2c_consumer_buf=buf)
        lhs = pl.load(b, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        rhs = pl.load(b, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        acc = pl.matmul(lhs, rhs)
        pl.tfree_to_aiv(lhs, split=0)
        out = pl.store(acc, [0, 0], out)
        return out
