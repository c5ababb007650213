# printed: pl.Ptr = pl.tile.alloc(pl.MemorySpace.Vec, 1024)
# printed: pl.Ptr = pl.tile.alloc(pl.MemorySpace.Mat, 512)
# printed: pl.MemRef("gm_out", 0, 1024)
# printed: pl.MemRef(buf_a
# printed: , 512, 512),
import pl


@pl.program
class AllocatedMemory:
    """IR as printed after memory allocation: tiles bound to buffers by MemRefs (one buffer holds two
    half-size tiles at byte offsets 0 and 512), a Mat buffer, and a DDR base named only in the
    signature."""

    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32, pl.MemRef("gm_out", 0, 1024)]],
        m: pl.Scalar[pl.INDEX],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        buf_a: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 1024)
        buf_b: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 1024)
        buf_m: pl.Ptr = pl.tile.alloc(pl.Mem.Mat, 512)
        top: pl.Tile[[8, 16], pl.FP32, pl.MemRef(buf_a, 0, 512), pl.Mem.Vec] = pl.tile.load(
            x, [0, 0], [8, 16], target_memory=pl.Mem.Vec)
        bottom: pl.Tile[[8, 16], pl.FP32, pl.MemRef(buf_a, 512, 512), pl.Mem.Vec] = pl.tile.load(
            x, [8, 0], [8, 16], target_memory=pl.Mem.Vec)
        staged: pl.Tile[[8, 16], pl.FP32, pl.MemRef(buf_m, 0, 512), pl.Mem.Mat] = pl.tile.load(
            x, [0, 0], [8, 16], target_memory=pl.Mem.Mat)
        acc: pl.Tile[[8, 16], pl.FP32, pl.MemRef(buf_b, 0, 512), pl.Mem.Vec] = pl.tile.add(top, bottom)
        for _i in pl.range(m):
            acc = pl.tile.add(acc, top)
        back: pl.Tile[[8, 16], pl.FP32, pl.MemRef(buf_b, 512, 512), pl.Mem.Vec] = pl.tile.move(
            staged, target_memory=pl.Mem.Vec)
        out = pl.tile.store(acc, [0, 0], out)
        out = pl.tile.store(back, [8, 0], out)
        return out
