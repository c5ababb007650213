"""A cube/vector group kernel joined by a cross-core pipe: the cube side multiplies and pushes the
product, the vector side pops it and adds a bias; the group calls the cube side first, so
`pl.interpret` sees the push before the pop."""

import pl


@pl.program
class CubeToVector:
    @pl.function(type=pl.FunctionType.AIC)
    def cube(self, a: pl.Tensor[[16, 16], pl.FP16], b: pl.Tensor[[16, 16], pl.FP16]) -> None:
        buf = pl.import_peer_buffer(name="c2v", peer_func="vec")
        pl.aic_initialize_pipe(dir_mask=1, slot_size=1024, c2v_consumer_buf=buf)
        lhs: pl.Tile[[16, 16], pl.FP16, pl.MemorySpace.Mat] = pl.load(
            a, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat
        )
        rhs: pl.Tile[[16, 16], pl.FP16, pl.MemorySpace.Mat] = pl.load(
            b, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat
        )
        lhs_Left: pl.Tile[[16, 16], pl.FP16, pl.MemorySpace.Left] = pl.move(
            lhs, target_memory=pl.MemorySpace.Left
        )
        rhs_Right: pl.Tile[[16, 16], pl.FP16, pl.MemorySpace.Right] = pl.move(
            rhs, target_memory=pl.MemorySpace.Right
        )
        acc: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Acc] = pl.matmul(lhs_Left, rhs_Right)
        pl.tpush_to_aiv(acc, split=0)

    @pl.function(type=pl.FunctionType.AIV)
    def vec(self, bias: pl.Tensor[[16, 16], pl.FP32],
            out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        buf = pl.reserve_buffer(name="c2v", size=2048)
        pl.aiv_initialize_pipe(dir_mask=1, slot_size=1024, c2v_consumer_buf=buf)
        prod: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Vec] = pl.tpop_from_aic(split=0)
        t: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Vec] = pl.load(bias, [0, 0], [16, 16])
        s: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Vec] = pl.add(prod, t)
        pl.tfree_to_aic(prod)
        out = pl.store(s, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Group)
    def main(self, a: pl.Tensor[[16, 16], pl.FP16], b: pl.Tensor[[16, 16], pl.FP16],
             bias: pl.Tensor[[16, 16], pl.FP32],
             out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        self.cube(a, b)
        out = self.vec(bias, out)
        return out
