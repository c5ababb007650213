"""A Mat mgather has its index's full shape, [16, 32]; valid_shape only narrows what is valid.
So a [16, 16] left operand (valid K = 9) meets it on a physical K of 16 in the matmul."""
import pl


@pl.program
class MgatherMatValid:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        mem: pl.Tensor[[512], pl.FP16],
        idx: pl.Tensor[[16, 32], pl.INT32],
        scratch: pl.Tensor[[512], pl.FP16],
        eye: pl.Tensor[[16, 16], pl.FP16],
        out: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        gathered: pl.Tile[[16, 32], pl.FP16, pl.MemorySpace.Mat, pl.TileView(valid_shape=[9, 21])] = (
            pl.tile.mgather(mem, idx, scratch=scratch, valid_shape=[9, 21], coalesce="elem",
                            target_memory=pl.MemorySpace.Mat))
        eye_tile = pl.load(eye, [0, 0], [16, 16], valid_shape=[16, 9],
                           target_memory=pl.MemorySpace.Mat)
        product = pl.matmul(eye_tile, gathered)
        out = pl.store(product, [0, 0], out)
        return out
