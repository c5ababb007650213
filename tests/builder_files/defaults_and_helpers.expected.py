"""@pl.program classes built by functions, as the reference's model examples build them: one builder
the file never calls (its parameters' defaults give the shapes), one it calls only through a
loop over builders; the builders call helper functions of the file (a guard that raises, a tuple
returned, a factory returning a @pl.function)."""

import pl

ROWS = 16
BRANCHES = 2


def stripe_shape(*, branches: int = BRANCHES) -> tuple[int, int]:
    if branches <= 0:
        raise ValueError(f"branches must be positive, got {branches}")
    return branches * ROWS, 32


def make_scaler(rows: int, cols: int):
    @pl.function(type=pl.FunctionType.InCore)
    def scaler(x: pl.Tensor[[rows, cols], pl.FP32],
               out: pl.Out[pl.Tensor[[rows, cols], pl.FP32]]) -> pl.Tensor[[rows, cols], pl.FP32]:
        t: pl.Tile[[32, 32], pl.FP32, pl.MemorySpace.Vec] = pl.load(x, [0, 0], [rows, cols])
        u: pl.Tile[[32, 32], pl.FP32, pl.MemorySpace.Vec] = pl.mul(t, 3.0)
        out = pl.store(u, [0, 0], out)
        return out

    return scaler


def build_doubler(rows: int = 32, cols: int = 16):
    @pl.program
    class Doubler:
        @pl.function(type=pl.FunctionType.InCore)
        def double(self, x: pl.Tensor[[rows, cols], pl.FP32],
                   out: pl.Out[pl.Tensor[[rows, cols], pl.FP32]]) -> pl.Tensor[[rows, cols], pl.FP32]:
            t: pl.Tile[[32, 16], pl.FP32, pl.MemorySpace.Vec] = pl.load(x, [0, 0], [rows, cols])
            d: pl.Tile[[32, 16], pl.FP32, pl.MemorySpace.Vec] = pl.add(t, t)
            out = pl.store(d, [0, 0], out)
            return out

    return Doubler


def build_striped(*, branches: int = BRANCHES):
    big_m, big_n = stripe_shape(branches=branches)
    scaler = make_scaler(big_m, big_n)

    @pl.program
    class Striped:
        @pl.function(type=pl.FunctionType.InCore)
        def shift(self, x: pl.Tensor[[big_m, big_n], pl.FP32],
                  out: pl.Out[pl.Tensor[[big_m, big_n], pl.FP32]]) -> pl.Tensor[[big_m, big_n], pl.FP32]:
            t: pl.Tile[[32, 32], pl.FP32, pl.MemorySpace.Vec] = pl.load(x, [0, 0], [big_m, big_n])
            s: pl.Tile[[32, 32], pl.FP32, pl.MemorySpace.Vec] = pl.add(t, 1.0)
            out = pl.store(s, [0, 0], out)
            return out

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: pl.Tensor[[big_m, big_n], pl.FP32],
                 out: pl.Out[pl.Tensor[[big_m, big_n], pl.FP32]]) -> pl.Tensor[[big_m, big_n], pl.FP32]:
            out = self.shift(x, out)
            out = scaler(out, out)
            return out

    return Striped


if __name__ == "__main__":
    for builder in (build_striped,):
        program = builder()
        print(program.name)
