import pl


# A kernel no program calls: a program of its own.
@pl.function(type=pl.FunctionType.InCore)
def scale(
    x: pl.Tensor[[64, 64], pl.FP32],
    out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
) -> pl.Tensor[[64, 64], pl.FP32]:
    # load, double, store
    xt: pl.Tile[[64, 64], pl.FP32, pl.MemorySpace.Vec] = pl.load(x, [0, 0], [64, 64])
    yt: pl.Tile[[64, 64], pl.FP32, pl.MemorySpace.Vec] = pl.add(xt, xt)  # stays in Vec
    out = pl.store(yt, [0, 0], out)
    return out


# A kernel the program below calls by its bare name.
@pl.function(type=pl.FunctionType.InCore)
def mm(
    a: pl.Tensor[[64, 64], pl.BF16],
    b: pl.Tensor[[64, 64], pl.BF16],
    out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
) -> pl.Tensor[[64, 64], pl.FP32]:
    at: pl.Tile[[64, 64], pl.BF16, pl.MemorySpace.Vec] = pl.load(a, [0, 0], [64, 64])
    bt: pl.Tile[[64, 64], pl.BF16, pl.MemorySpace.Vec] = pl.load(b, [0, 0], [64, 64])
    at_Left: pl.Tile[[64, 64], pl.BF16, pl.MemorySpace.Left] = pl.move(
        at, target_memory=pl.MemorySpace.Left
    )
    bt_Right: pl.Tile[[64, 64], pl.BF16, pl.MemorySpace.Right] = pl.move(
        bt, target_memory=pl.MemorySpace.Right
    )
    c: pl.Tile[[64, 64], pl.FP32, pl.MemorySpace.Acc] = pl.matmul(at_Left, bt_Right)  # moves into Left and Right go before it
    out = pl.store(c, [0, 0], out)
    return out


@pl.program
class Caller:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        a: pl.Tensor[[64, 64], pl.BF16],
        b: pl.Tensor[[64, 64], pl.BF16],
        out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        out = mm(a, b, out)
        return out
