"""An orchestration function that creates an intermediate tensor and calls two InCore kernels."""

import pl


@pl.program
class OrchestratedAdd:
    @pl.function(type=pl.FunctionType.InCore)
    def add_kernel(
        self,
        a: pl.Tensor[[16, 128], pl.FP32],
        b: pl.Tensor[[16, 128], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        a_tile: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.load(a, [0, 0], [16, 128])
        b_tile: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.load(b, [0, 0], [16, 128])
        s: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.add(a_tile, b_tile)
        out = pl.store(s, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.InCore)
    def scale_kernel(
        self,
        x: pl.Tensor[[16, 128], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        x_tile: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.load(x, [0, 0], [16, 128])
        y: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.mul(x_tile, 2.0)
        out = pl.store(y, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        a: pl.Tensor[[16, 128], pl.FP32],
        b: pl.Tensor[[16, 128], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        tmp = pl.create_tensor([16, 128], dtype=pl.FP32)
        tmp = self.add_kernel(a, b, tmp)
        out = self.scale_kernel(tmp, out)
        return out
