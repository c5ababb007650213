"""Two programs: the first one's function, shown as it compiles, does not read back as the same
program (its M/N-tiled matmul carries the output through loops, and outlining the scope again
reads that output as an input); the second one's does, and is shown as it compiles."""

# shown: Scaled.kernel

import pl


@pl.program
class Tiled:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        a: pl.Tensor[[256, 32], pl.FP32],
        b: pl.Tensor[[32, 256], pl.FP32],
        out: pl.Out[pl.Tensor[[256, 256], pl.FP32]],
    ) -> pl.Tensor[[256, 256], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            c = pl.matmul(a, b, out_dtype=pl.FP32)  # larger than Acc: tiled by rows and columns
            out = pl.assemble(out, c, [0, 0])
        return out


@pl.program
class Scaled:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 128], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        x_vec: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.tile.load(
            x, [0, 0], [16, 128], [16, 128], target_memory=pl.MemorySpace.Vec
        )
        y_vec: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.tile.muls(x_vec, 2.0)  # a tensor-level op: load, multiply, store
        out_tensor: pl.Tensor[[16, 128], pl.FP32] = pl.tile.store(y_vec, [0, 0], out)
        return out_tensor
