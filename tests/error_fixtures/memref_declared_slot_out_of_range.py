import pl

ring = pl.MemRef(slots=3)


@pl.program
class Ring:
    @pl.function
    def main(self, a: pl.Tensor[[32, 32], pl.FP16], out: pl.Out[pl.Tensor[[32, 32], pl.FP16]]) -> pl.Tensor[[32, 32], pl.FP16]:
        t: pl.Tile[[32, 32], pl.FP16, ring[3], pl.Mem.Vec] = pl.load(a, [0, 0], [32, 32])  # error: Slot index 3 is out of range for 'ring', declared with 3 slot(s)  # error-col: 44
        return pl.store(t, [0, 0], out)
