import pl

# Declared allocations the reference accepts (pl reads them and, as docs/memory_allocation.md
# says, does not carry them): a name reached again through its one variable, an explicitly named
# declaration, slot subscripts within the declared count, one name with one slot count.
ring = pl.MemRef(slots=2)
named = pl.MemRef("stage")
scratch = pl.MemRef()


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
               m: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 16], pl.FP32]:
        a: pl.Tile[[16, 16], pl.FP32, ring[0], pl.Mem.Vec] = pl.load(x, [0, 0], [16, 16])
        b: pl.Tile[[16, 16], pl.FP32, ring[1], pl.Mem.Vec] = pl.add(a, a)
        c: pl.Tile[[16, 16], pl.FP32, named, pl.Mem.Vec] = pl.mul(b, a)
        d: pl.Tile[[16, 16], pl.FP32, named, pl.Mem.Vec] = pl.sub(c, a)
        e: pl.Tile[[16, 16], pl.FP32, scratch, pl.Mem.Vec] = pl.add(d, b)
        f: pl.Tile[[16, 16], pl.FP32, pl.MemRef("pair", slots=2)[1], pl.Mem.Vec] = pl.add(e, e)
        g: pl.Tile[[16, 16], pl.FP32, pl.MemRef("pair", slots=2)[0], pl.Mem.Vec] = pl.sub(f, e)
        out = pl.store(g, [0, 0], out)
        return out
