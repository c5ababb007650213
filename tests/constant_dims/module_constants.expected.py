import pl

R = 32
C = 256
ROWS = 32  # R's value too: a function whose shapes spell both keeps the literal 32


@pl.program
class ModuleConstants:
    @pl.function(type=pl.FunctionType.InCore)
    def scale(
        self,
        x: pl.Tensor[[R, C], pl.FP32],
        out: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    ) -> pl.Tensor[[R, C], pl.FP32]:
        xt: pl.Tile[[R, C], pl.FP32, pl.MemorySpace.Vec] = pl.load(x, [0, 0], [R, C])
        y: pl.Tile[[R, C], pl.FP32, pl.MemorySpace.Vec] = pl.mul(xt, 2.0)
        out = pl.store(y, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.InCore)
    def both(
        self,
        x: pl.Tensor[[R, C], pl.FP32],
        w: pl.Tensor[[ROWS, C], pl.FP32],
        out: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    ) -> pl.Tensor[[R, C], pl.FP32]:
        xt: pl.Tile[[32, C], pl.FP32, pl.MemorySpace.Vec] = pl.load(x, [0, 0], [R, C])
        wt: pl.Tile[[32, C], pl.FP32, pl.MemorySpace.Vec] = pl.load(w, [0, 0], [ROWS, C])
        y: pl.Tile[[32, C], pl.FP32, pl.MemorySpace.Vec] = pl.add(xt, wt)
        out = pl.store(y, [0, 0], out)
        return out
