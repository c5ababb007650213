import pl


@pl.program
class PromotedCrossCore:
    """The promoted spellings pl.reserve_buffer / pl.import_peer_buffer / pl.aiv_initialize_pipe / pl.tfree_to_aic on the
    vector side of a C->V pipe (the freed tile is a loaded one: a tpop's printed form drops its
    shape and dtype, which is another matter)."""

    @pl.function(type=pl.FunctionType.AIV)
    def vec(self, a: pl.Tensor[[16, 128], pl.FP32], out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
        buf = pl.reserve_buffer(name="c2v", size=4096, base=pl.AUTO)
        peer = pl.import_peer_buffer(name="v2c", peer_func="cube")
        pl.aiv_initialize_pipe(buf, peer, dir_mask=1, slot_size=8192)
        t = pl.load(a, [0, 0], [16, 128])
        s = pl.add(t, t)
        pl.tfree_to_aic(t)
        out = pl.store(s, [0, 0], out)
        return out
