"""@pl.inline helpers whose every call compiles alike: annotated in their own bodies."""

import pl

N = 64


@pl.inline
def product(a: pl.Tile[[N, N], pl.BF16], b: pl.Tile[[N, N], pl.BF16]) -> pl.Tile[[N, N], pl.FP32]:
    a_Left: pl.Tile[[N, N], pl.BF16, pl.MemorySpace.Left] = pl.move(
        a, target_memory=pl.MemorySpace.Left
    )
    b_Right: pl.Tile[[N, N], pl.BF16, pl.MemorySpace.Right] = pl.move(
        b, target_memory=pl.MemorySpace.Right
    )
    # `a` and `b` come in Mat; the matmul reads them from L0.
    c: pl.Tile[[N, N], pl.FP32, pl.MemorySpace.Acc] = pl.matmul(a_Left, b_Right)
    return c


@pl.inline
def half(t: pl.Tile[[N, N], pl.FP32]) -> pl.Tile[[N, N], pl.FP32]:
    return pl.mul(t, 0.5)  # the value of the call


@pl.program
class InlineAgree:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        lhs: pl.Tensor[[N, N], pl.BF16],
        rhs: pl.Tensor[[N, N], pl.BF16],
        out: pl.Out[pl.Tensor[[N, N], pl.FP32]],
    ) -> pl.Tensor[[N, N], pl.FP32]:
        x: pl.Tile[[N, N], pl.BF16, pl.MemorySpace.Mat] = pl.load(
            lhs, [0, 0], [N, N], target_memory=pl.MemorySpace.Mat
        )
        y: pl.Tile[[N, N], pl.BF16, pl.MemorySpace.Mat] = pl.load(
            rhs, [0, 0], [N, N], target_memory=pl.MemorySpace.Mat
        )
        xy: pl.Tile[[N, N], pl.FP32, pl.MemorySpace.Acc] = product(x, y)  # two calls, one plan
        yx: pl.Tile[[N, N], pl.FP32, pl.MemorySpace.Acc] = product(y, x)
        out = pl.store(xy, [0, 0], out)
        out = pl.store(yx, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.InCore)
    def halves(
        self,
        x: pl.Tensor[[N, N], pl.FP32],
        out: pl.Out[pl.Tensor[[N, N], pl.FP32]],
    ) -> pl.Tensor[[N, N], pl.FP32]:
        t: pl.Tile[[N, N], pl.FP32, pl.MemorySpace.Vec] = pl.load(x, [0, 0], [N, N])
        h: pl.Tile[[N, N], pl.FP32, pl.MemorySpace.Vec] = half(half(t))  # nested calls of one helper
        out = pl.store(h, [0, 0], out)
        return out
