"""DSL programs whose in-place writes must land where every later read sees them
(tests/test_inplace_writes.py).

Each but the last is one InCore `main(x, y, out)` (x 32x128 BF16, y 128x128 BF16, out 16x128 FP32): a tile
written in place (`pl.write`, `fillpad_inplace`, `scatter_update`, `pl.assemble`) and read again
afterwards, where compiling moves the written tile, or a view of it, to another space, reuses a
move taken before the write, or copies a view of the written tile. `pl.interpret` must give the
same results before and after `pl.compile`.
"""

from __future__ import annotations

import textwrap

MAT = "pl.MemorySpace.Mat"


def kernel(*parts: str) -> str:
    body = "\n".join(textwrap.dedent(p).strip("\n") for p in parts)
    return ("import pl\n\n\n@pl.program\nclass P:\n"
            "    @pl.function(type=pl.FunctionType.InCore)\n"
            "    def main(self, x: pl.Tensor[[32, 128], pl.BF16], y: pl.Tensor[[128, 128], pl.BF16],\n"
            "             out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:\n"
            + textwrap.indent(body, " " * 8) + "\n")


# The operands of a matmul: `a` (x's top half) and `b` in Mat.
OPERANDS = f"""
a = pl.load(x, [0, 0], [16, 128], target_memory={MAT})
b = pl.load(y, [0, 0], [128, 128], target_memory={MAT})
"""

CASES: dict[str, str] = {
    # matmul's Acc result written through its Vec copy; matmul_acc reads the accumulator.
    "write-acc-then-matmul-acc": kernel(OPERANDS, """
        acc = pl.matmul(a, b)
        pl.write(acc, [0, 0], 5.0)
        c = pl.matmul_acc(acc, a, b)
        r = pl.store(c, [0, 0], out)
        return r
        """),
    # The write's result is the accumulator again: a write through it, and a view of the
    # accumulator taken before both writes, see every write.
    "write-through-the-result-of-a-write": kernel(OPERANDS, """
        acc = pl.matmul(a, b)
        s = pl.tile.slice(acc, [8, 128], [8, 0])
        r = pl.write(acc, [0, 0], 5.0)
        pl.write(r, [9, 1], 6.0)
        c = pl.matmul_acc(acc, a, b)
        e = pl.assemble(c, s, [0, 0])
        o = pl.store(e, [0, 0], out)
        return o
        """),
    # The same in a loop: the next trip's matmul_acc reads what this trip wrote.
    "write-acc-in-loop": kernel(OPERANDS, """
        acc = pl.matmul(a, b)
        for i in pl.range(3):
            pl.write(acc, [i, i], 1.0)
            acc = pl.matmul_acc(acc, a, b)
        r = pl.store(acc, [0, 0], out)
        return r
        """),
    # A Mat tile written (through a Vec copy) between two matmuls: the second may not reuse the
    # first one's Left move of it.
    "write-mat-then-matmul-reuses-left": kernel(OPERANDS, """
        c = pl.matmul(a, b)
        pl.write(a, [0, 0], 2.0)
        d = pl.matmul_acc(c, a, b)
        r = pl.store(d, [0, 0], out)
        return r
        """),
    # A Vec tile written in place (no copy) between two matmuls reading it as Left.
    "write-vec-then-matmul-reuses-left": kernel("""
        a = pl.load(x, [0, 0], [16, 128])
        b = pl.load(y, [0, 0], [128, 128], target_memory=pl.MemorySpace.Mat)
        c = pl.matmul(a, b)
        pl.write(a, [3, 4], 2.0)
        d = pl.matmul_acc(c, a, b)
        r = pl.store(d, [0, 0], out)
        return r
        """),
    # The Left move taken before a loop whose body writes its source.
    "write-vec-in-loop-after-left-move": kernel("""
        a = pl.load(x, [0, 0], [16, 128])
        b = pl.load(y, [0, 0], [128, 128], target_memory=pl.MemorySpace.Mat)
        c = pl.matmul(a, b)
        for i in pl.range(2):
            c = pl.matmul_acc(c, a, b)
            pl.write(a, [i, 0], 0.5)
        r = pl.store(c, [0, 0], out)
        return r
        """),
    # A Mat slice (a view) read by a matmul after a tile is assembled into its base.
    "mat-slice-then-assemble-into-base": kernel(f"""
        base = pl.load(x, [0, 0], [32, 128], target_memory={MAT})
        b = pl.load(y, [0, 0], [128, 128], target_memory={MAT})
        s = pl.slice(base, [16, 128], [0, 0])
        t = pl.load(x, [16, 0], [16, 128], target_memory={MAT})
        base = pl.assemble(base, t, [0, 0])
        c = pl.matmul(s, b)
        r = pl.store(c, [0, 0], out)
        return r
        """),
    # The same in a loop: the slice is taken once, the base written on every trip.
    "mat-slice-then-assemble-into-base-in-loop": kernel(f"""
        base = pl.load(x, [0, 0], [32, 128], target_memory={MAT})
        b = pl.load(y, [0, 0], [128, 128], target_memory={MAT})
        s = pl.slice(base, [16, 128], [0, 0])
        c = pl.matmul(s, b)
        for i in pl.range(2):
            t = pl.load(x, [16 - 8 * i, 0], [16, 128], target_memory={MAT})
            base = pl.assemble(base, t, [0, 0])
            c = pl.matmul_acc(c, s, b)
        r = pl.store(c, [0, 0], out)
        return r
        """),
    # An unaligned Vec slice (a copy of its own once compiled) read after a pl.write into its
    # base; a second one written through (it must stay a view).
    "vec-slice-then-write-into-base": kernel("""
        xb = pl.load(x, [0, 0], [16, 128])
        base = pl.cast(xb, pl.FP32)
        s = pl.slice(base, [16, 8], [0, 1])
        w = pl.slice(base, [16, 8], [0, 9])
        pl.write(base, [0, 1], 9.0)
        pl.write(w, [2, 0], 7.0)
        t = pl.add(s, s)
        base = pl.assemble(base, t, [0, 64])
        r = pl.store(base, [0, 0], out)
        return r
        """),
    # Unaligned Vec slices handed on through a loop's carry: a write through the carry must
    # reach the base (it stays a view), and the add reads the written window.
    "vec-slice-carried-then-written": kernel("""
        xb = pl.load(x, [0, 0], [16, 128])
        base = pl.cast(xb, pl.FP32)
        w = pl.slice(base, [16, 8], [0, 1])
        for i in pl.range(2):
            if i == 0:
                w = pl.slice(base, [16, 8], [0, 9])
        pl.write(w, [2, 0], 7.0)
        t = pl.add(w, w)
        base = pl.assemble(base, t, [0, 64])
        r = pl.store(base, [0, 0], out)
        return r
        """),
    # fillpad_inplace of a view of an Acc tile (through its Vec copy); the store reads the tile.
    "fillpad-inplace-of-acc": kernel(OPERANDS, """
        acc = pl.matmul(a, b)
        part = pl.tile.set_validshape(acc, 8, 100)
        pl.tile.fillpad_inplace(part)
        r = pl.store(acc, [0, 0], out)
        return r
        """),
    # Its result is the tile again, valid everywhere once padded: the store writes all of it.
    "fillpad-inplace-result-of-acc-view": kernel(OPERANDS, """
        acc = pl.matmul(a, b)
        part = pl.tile.set_validshape(acc, 8, 100)
        full = pl.tile.fillpad_inplace(part)
        r = pl.store(full, [0, 0], out)
        return r
        """),
    # scatter_update of an Acc tile (through its Vec copy); matmul_acc reads the tile.
    "scatter-update-of-acc": kernel(OPERANDS, """
        acc = pl.matmul(a, b)
        idx = pl.tile.ci(2, [1, 4], dtype=pl.INT32)
        src = pl.load(x, [16, 0], [4, 128])
        src32 = pl.cast(src, pl.FP32)
        pl.tile.scatter_update(acc, idx, src32, dim=-2)
        c = pl.matmul_acc(acc, a, b)
        r = pl.store(c, [0, 0], out)
        return r
        """),
    # A call whose InOut Tile parameter the callee writes, between two matmuls reading the tile
    # as Left: the second may not reuse the first one's move.
    "inout-call-between-matmuls": """import pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def bump(self, t: pl.InOut[pl.Tile[[16, 128], pl.BF16, pl.MemorySpace.Vec]]) -> pl.Tile[[16, 128], pl.BF16, pl.MemorySpace.Vec]:
        u = pl.write(t, [1, 2], 4.0)
        return u

    @pl.function(type=pl.FunctionType.InCore)
    def main(self, x: pl.Tensor[[16, 128], pl.BF16], y: pl.Tensor[[128, 128], pl.BF16],
             out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
        v = pl.load(x, [0, 0], [16, 128])
        b = pl.load(y, [0, 0], [128, 128], target_memory=pl.MemorySpace.Mat)
        c = pl.matmul(v, b)
        w = self.bump(v)
        d = pl.matmul_acc(c, v, b)
        r = pl.store(d, [0, 0], out)
        return r
""",
}

# In-place ops nested in a statement's expressions (not its top-level call).
CASES.update({
    # In a tuple: computed by a statement of its own, its result the accumulator again.
    "nested-write-in-tuple": kernel(OPERANDS, """
        acc = pl.matmul(a, b)
        w, z = pl.write(acc, [0, 0], 5.0), b
        pl.write(w, [1, 1], 6.0)
        c = pl.matmul_acc(acc, a, z)
        r = pl.store(c, [0, 0], out)
        return r
        """),
    # In an if's condition: the written copy is assembled back before either branch runs.
    "nested-write-in-if-condition": kernel(OPERANDS, """
        acc = pl.matmul(a, b)
        if pl.tile.read(pl.write(acc, [0, 0], 5.0), [0, 1]) > 1000.0:
            acc = pl.matmul_acc(acc, a, b)
        c = pl.matmul_acc(acc, a, b)
        r = pl.store(c, [0, 0], out)
        return r
        """),
    # A Vec tile written in an if's condition: the branch and the matmul after the if may not
    # reuse the Left move taken before.
    "nested-write-in-if-condition-then-left-reuse": kernel("""
        a = pl.load(x, [0, 0], [16, 128])
        b = pl.load(y, [0, 0], [128, 128], target_memory=pl.MemorySpace.Mat)
        c = pl.matmul(a, b)
        if pl.tile.read(pl.write(a, [3, 4], 2.0), [0, 0]) < 1000.0:
            c = pl.matmul_acc(c, a, b)
        d = pl.matmul_acc(c, a, b)
        r = pl.store(d, [0, 0], out)
        return r
        """),
})


# A tile both branches of an if give its result, each made in its branch: the branch yielding the
# other space hands the result a copy of a tile nothing names after the if.
CASES["write-divergent-if-result-of-branch-tiles"] = """import pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def main(self, x: pl.Tensor[[16, 128], pl.FP32], xb: pl.Tensor[[32, 128], pl.BF16],
             y: pl.Tensor[[128, 128], pl.BF16], n: pl.Scalar[pl.INDEX],
             out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
        a = pl.load(xb, [0, 0], [16, 128], target_memory=pl.MemorySpace.Mat)
        b = pl.load(y, [0, 0], [128, 128], target_memory=pl.MemorySpace.Mat)
        if n > 0:
            t = pl.matmul(a, b)
        else:
            t = pl.load(x, [0, 0], [16, 128])
        pl.write(t, [0, 0], 5.0)
        r = pl.store(t, [0, 0], out)
        return r
"""


def _divergent(then: str, other: str, after: str) -> str:
    """main(x, xb, y, n, out) with `acc` (Acc) and `v` (Vec), an if binding `t` to `then` or
    `other`, then the lines `after` (one string, eight spaces of indent)."""
    return ("""import pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def main(self, x: pl.Tensor[[16, 128], pl.FP32], xb: pl.Tensor[[32, 128], pl.BF16],
             y: pl.Tensor[[128, 128], pl.BF16], n: pl.Scalar[pl.INDEX],
             out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
        a = pl.load(xb, [0, 0], [16, 128], target_memory=pl.MemorySpace.Mat)
        b = pl.load(y, [0, 0], [128, 128], target_memory=pl.MemorySpace.Mat)
        acc = pl.matmul(a, b)
        v = pl.load(x, [0, 0], [16, 128])
        if n > 0:
            t = """ + then + """
        else:
            t = """ + other + "\n" + after)


_COPIED = "# error: this writes in place a tile that shares its buffer with 't', the result of the if"

# Writes no write-back can make land where the source's does: each a located error on the
# line marked `# error: <message part>`.
REFUSED: dict[str, str] = {
    # A while's condition is evaluated before every trip: a pl.write there of an Acc tile (a
    # copy in Vec, the space the op takes) would write the copy.
    "write-in-while-condition": kernel(OPERANDS, """
        acc = pl.matmul(a, b)
        for (k,) in pl.while_(init_values=(0,)):  # error: tile.write writes 'acc' in place here, but 'acc' is in Acc and the op takes Vec
            pl.cond(pl.tile.read(pl.write(acc, [0, 0], 5.0), [0, 1]) < k)
            k = pl.yield_(k + 1)
        c = pl.matmul_acc(acc, a, b)
        r = pl.store(c, [0, 0], out)
        return r
        """),
    # An if result that is `acc` (Acc) on one path and `v` (Vec) on the other is one space once
    # compiled: a copy of one of them. A write through it would miss that tile; a write into the
    # tile after the if would miss the result.
    "write-through-divergent-if-result": _divergent("acc", "v", """
        pl.write(t, [0, 0], 5.0)  {m}
        c = pl.matmul_acc(acc, a, b)
        r = pl.store(c, [0, 0], out)
        return r
""".replace("{m}", _COPIED)),
    # A write into `acc` after the if: the result, a copy of it, would not see it.
    "write-into-the-copied-tile-after-a-divergent-if-result": _divergent("v", "acc", """
        pl.write(acc, [0, 0], 5.0)  {m}
        w = pl.add(t, v)
        r = pl.store(w, [0, 0], out)
        return r
""".replace("{m}", _COPIED)),
    "fillpad-through-divergent-if-result-in-loop": _divergent("pl.tile.slice(acc, [16, 128], [0, 0])", "v", """
        for i in pl.range(2):  {m}
            t = pl.tile.fillpad_inplace(t)
        c = pl.matmul_acc(acc, a, b)
        r = pl.store(c, [0, 0], out)
        return r
""".replace("{m}", _COPIED)),
}

# A Mat slice a matmul in a while's condition reads (no statement to take an extract before: it
# reads the view), after a tile is assembled into its base (bench/fuzz.py nest_tile_op, seed 41).
CASES["mat-slice-read-in-while-condition"] = kernel(f"""
    base = pl.load(x, [0, 0], [32, 128], target_memory={MAT})
    b = pl.load(y, [0, 0], [128, 128], target_memory={MAT})
    s = pl.slice(base, [16, 128], [0, 0])
    t = pl.load(x, [16, 0], [16, 128], target_memory={MAT})
    base = pl.assemble(base, t, [0, 0])
    c = pl.matmul(s, b)
    while pl.tile.read(pl.matmul(s, b), [0, 0]) < pl.tile.read(c, [0, 0]) - 1.0:
        c = pl.matmul(s, b)
    r = pl.store(c, [0, 0], out)
    return r
    """)
