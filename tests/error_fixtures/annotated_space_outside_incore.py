import pl


@pl.program
class K:
    # Outside an InCore, AIC or AIV function nothing moves a tile to the space its annotation
    # names: `t` would be Vec by name and Mat by value, and the loop carrying it took the name's.
    @pl.function
    def main(self, a: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        t: pl.Tile[[64, 64], pl.FP32, pl.Mem.Vec] = pl.load(a, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)  # error: 't' is annotated Vec but its value is a Mat tile
        for _k, (carried,) in pl.range(2, init_values=(t,)):
            stepped = pl.exp(carried)
            yk = pl.yield_(stepped)
        return pl.store(yk, [0, 0], out)
