"""DSL programs of the write-meaning cases (tests/test_gm_writes.py), built from two templates.

`incore(body)`: an InCore `kernel(x, out)` (x In, out InOut, 16x64 FP32) around `body` and a root
`main` calling it. `caller(main_body)`: an InCore `kernel(x)` returning a computed tensor (so
convert_tensor_to_tile_ops gives it a `ret0__out` param), an InCore and a Group wrapper forwarding
to it, and a root `main` whose body is `main_body`. A body line may end in `# error: <message part>`:
compiling the program must raise a PlError on that line.
"""

from __future__ import annotations

from pathlib import Path

T = "pl.Tensor[[16, 64], pl.FP32]"
_ROOT = ["", "    @pl.function(type=pl.FunctionType.Orchestration)"]


def _program(functions: list[str]) -> str:
    return "import pl\n\n\n@pl.program\nclass P:\n" + "\n".join(functions) + "\n"


# An InCore helper that writes its Out param `dst` (a call of it writes the actual).
FILL = ["    @pl.function(type=pl.FunctionType.InCore)",
        f"    def fill(self, src: {T}, dst: pl.Out[{T}]) -> {T}:",
        "        t = pl.load(src, [0, 0], [16, 64])",
        "        dst = pl.store(t, [0, 0], dst)",
        "        return dst",
        ""]


# An InCore helper returning a view of its parameter: a call's result is (a view of) the actual.
SAME = ["    @pl.function(type=pl.FunctionType.InCore)",
        f"    def same(self, a: {T}) -> {T}:",
        "        return pl.reshape(a, [16, 64])",
        ""]


# An InCore helper returning a view of its parameter at an offset it computes from its argument
# (0 when called with 2).
PART = ["    @pl.function(type=pl.FunctionType.InCore)",
        f"    def part(self, a: {T}, n: pl.Scalar[pl.INDEX]) -> {T}:",
        "        off = n * 16 - 32",
        "        return pl.slice(a, [16, 64], [0, off])",
        ""]
# The same with an offset a loop computes, which no caller can rebuild.
PART_IN_LOOP = ["    @pl.function(type=pl.FunctionType.InCore)",
                f"    def part(self, a: {T}) -> pl.Tensor[[16, 32], pl.FP32]:",
                "        off = 0",
                "        for i in pl.range(0, 2, 1):",
                "            off = i * 16",
                "        return pl.slice(a, [16, 32], [0, off])  # error: part returns a view of "
                "its parameter `a` whose offsets or shapes use `off`",
                ""]


# InCore helpers returning a view of their parameter that is not one chain of views in the
# top-level block: from one of two returns, bound in an if, carried by a loop. The caller's
# result would be a copy, which its write through the result never takes back to `out`.
_VIEW_MSG = "# error: part returns a view of one of its tensor parameters (pl.slice, pl.reshape, ...) "
PART_TWO_RETURNS = ["    @pl.function(type=pl.FunctionType.InCore)",
                    f"    def part(self, a: {T}, n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 32], pl.FP32]:",
                    "        if n > 1:",
                    "            return pl.slice(a, [16, 32], [0, 0])  " + _VIEW_MSG
                    + "from one of several returns",
                    "        return pl.slice(a, [16, 32], [0, 32])",
                    ""]
PART_IN_IF = ["    @pl.function(type=pl.FunctionType.InCore)",
              f"    def part(self, a: {T}, n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 32], pl.FP32]:",
              "        if n > 1:",
              "            v = pl.slice(a, [16, 32], [0, 0])",
              "        else:",
              "            v = pl.slice(a, [16, 32], [0, 32])",
              "        return v  " + _VIEW_MSG + "bound in a loop or an if",
              ""]
PART_CARRIED = ["    @pl.function(type=pl.FunctionType.InCore)",
                f"    def part(self, a: {T}) -> pl.Tensor[[16, 32], pl.FP32]:",
                "        v = pl.slice(a, [16, 32], [0, 0])",
                "        for i in pl.range(0, 2, 1):",
                "            v = pl.reshape(pl.slice(a, [16, 32], [0, 32 * i]), [16, 32])",
                "        return v  " + _VIEW_MSG + "bound in a loop or an if",
                ""]


def incore(body: list[str], helpers: list[str] = (),  # type: ignore[assignment]
           call: str = "self.kernel(x, out)") -> str:
    """The kernel is at line 7 + len(helpers), its body one line below; `main` calls it as `call`
    (`self.kernel(out, out)`: one tensor as both its In and its InOut parameter)."""
    return _program([*helpers, "    @pl.function(type=pl.FunctionType.InCore)",
                     f"    def kernel(self, x: {T}, out: pl.InOut[{T}]) -> {T}:",
                     *("        " + line for line in body),
                     *_ROOT,
                     f"    def main(self, x: {T}, out: pl.Out[{T}]) -> {T}:",
                     f"        r = {call}",
                     "        return r"])


def caller(main_body: list[str]) -> str:
    wrappers = [line for kind, name in (("InCore", "wrap"), ("Group", "grp")) for line in (
        "", f"    @pl.function(type=pl.FunctionType.{kind})",
        f"    def {name}(self, x: {T}) -> {T}:",
        "        y = self.kernel(x)",
        "        return y")]
    return _program(["    @pl.function(type=pl.FunctionType.InCore)",
                     f"    def kernel(self, x: {T}) -> {T}:",
                     "        y = pl.mul(x, 2.0)",
                     "        return y",
                     *wrappers,
                     *_ROOT,
                     f"    def main(self, x: {T}, n: pl.Scalar[pl.INDEX]) -> {T}:",
                     *("        " + line for line in main_body)])


def _stationary_lhs_writing_lhs() -> str:
    """examples/stationary_lhs.py with a pl.write of its stationary lhs inside the loop."""
    text = (Path(__file__).resolve().parents[2] / "examples" / "stationary_lhs.py").read_text(encoding="utf-8")
    matmul = "            c_n = pl.matmul(lhs, rhs_n, out_dtype=pl.FP32)\n"
    assert matmul in text
    return text.replace(matmul, matmul + "            pl.write(lhs, [0, n % 128], 0.5)\n")


# Kernels whose meaning compilation keeps (the interpreter agrees before and after).
OK: dict[str, str] = {
    "write-gm-param-not-read-whole": incore(["out = pl.write(out, [1, 2], 7.0)", "y = pl.add(x, x)",
                                             "out = pl.assemble(out, y, [0, 0])", "return out"]),
    "slice-taken-after-write-in-loop": incore([
        "for i in pl.range(0, 2, 1):", "    s = pl.slice(out, [16, 32], [0, 0])", "    y = pl.add(s, s)",
        "    out = pl.assemble(out, y, [0, 32])", "return out"]),
    "write-stationary-matmul-lhs-in-loop": _stationary_lhs_writing_lhs(),
    "call-assigned": caller(["r = self.kernel(x)", "return r"]),
    "call-evaluated": caller(["self.kernel(x)", "return x"]),
    "call-nested": caller(["r = pl.add(self.kernel(x), x)", "return r"]),
    "call-submitted": caller(["r, tid = pl.submit(self.kernel, x)", "return r"]),
    "call-through-incore-wrapper": caller(["r = self.wrap(x)", "return r"]),
    "call-through-group-wrapper": caller(["r = self.grp(x)", "return r"]),
    "call-in-loop-and-branch": caller([
        "for i, (acc,) in pl.range(0, 3, 1, init_values=(x,)):",
        "    if n > 2:", "        nxt = pl.yield_(self.kernel(acc))",
        "    else:", "        nxt = pl.yield_(pl.add(self.kernel(acc), acc))",
        "    res = pl.yield_(nxt)", "return res"]),
    "slice-taken-after-a-call-writes-its-base": incore([
        "out = self.fill(x, out)", "s = pl.slice(out, [16, 32], [0, 0])", "y = pl.add(s, s)",
        "out = pl.assemble(out, y, [0, 32])", "return out"], FILL),
    "write-in-loop-then-slice": incore([
        "for i in pl.range(0, 2, 1):", "    out = pl.write(out, [0, i], 3.0)", "    s = pl.slice(out, [16, 32], [0, 0])",
        "    out = pl.assemble(out, pl.add(s, s), [0, 32])", "return out"]),
    # The valid region a tile op narrows (set_validshape operand) is widened back to the one the
    # tensor type declares, so what is stored is what the tensor program computed.
    "add-of-set-validshape-operand": incore(["av = pl.set_validshape(x, 8, 64)", "y = pl.add(av, x)",
                                             "return y"]),
    "matmul-of-set-validshape-operand": incore([
        "a = pl.slice(x, [16, 16], [0, 0])", "av = pl.set_validshape(a, 8, 16)",
        "y = pl.matmul(av, x, out_dtype=pl.FP32)", "return y"]),
    "row-sum-of-set-validshape-operand": incore([
        "av = pl.set_validshape(x, 8, 32)", "y = pl.row_sum(av)", "out = pl.assemble(out, y, [0, 3])",
        "return out"]),
    # A merge (loop carry, if result) that is a tile on one path and a GM tensor on another holds
    # a tile: the tensor is loaded where it flows in. SSA starts a value first bound in a loop from
    # a stand-in of its type, here the InOut param `out`.
    "loop-result-first-bound-in-loop": incore([
        "for i in pl.range(2):", "    y = pl.add(x, x)", "return y"]),
    "loop-result-first-bound-in-loop-read-after-write": incore([
        "for i in pl.range(2):", "    y = pl.add(x, x)", "out = pl.assemble(out, pl.mul(x, 3.0), [0, 0])",
        "w = pl.add(y, y)", "return w"]),
    "loop-carry-of-a-param-yielding-a-tile": incore([
        "for i, (acc,) in pl.range(2, init_values=(out,)):", "    y = pl.add(x, x)",
        "    nxt = pl.yield_(y)", "return nxt"]),
    "loop-carry-yielding-a-param": incore([
        "r = pl.add(x, x)", "for i in pl.range(2):", "    r = out", "return r"]),
    "nested-loop-result-first-bound-inside": incore([
        "for i in pl.range(2):", "    for j in pl.range(2):", "        y = pl.add(x, x)", "return y"]),
    "while-result-first-bound-in-loop": incore([
        "n = 0", "r = out", "while n < 2:", "    r = pl.add(r, x)", "    n = n + 1", "return r"]),
    "if-result-tile-or-param": incore([
        "r = pl.add(x, x)", "for i in pl.range(2):", "    if i == 0:", "        r = out", "    else:",
        "        r = pl.add(x, x)", "return r"]),
    "if-result-of-two-params-read-whole": incore([
        "u = pl.add(x, x)", "for i in pl.range(2):", "    if i == 0:", "        r = out", "    else:",
        "        r = x", "    u = pl.add(r, x)", "return u"]),
    "loop-result-read-after-the-loop-wrote-it": incore([
        "acc = out", "for i in pl.range(2):", "    acc = pl.assemble(acc, pl.add(x, x), [0, 0])",
        "u = pl.add(acc, x)", "return u"]),
    "loop-carry-of-a-written-tensor": incore([
        "o = pl.assemble(out, pl.add(x, x), [0, 0])", "for i in pl.range(2):", "    o = pl.add(o, x)",
        "return o"]),
    # A store writes the valid region a reshape declares, not the one of its input.
    # A call passing one tensor as x and out: x is loaded where each read stands, after the write.
    "param-aliased-by-the-call-read-whole-after-a-write": incore([
        "y = pl.add(x, 1.0)", "out = pl.assemble(out, y, [0, 0])", "z = pl.mul(x, 2.0)",
        "out = pl.assemble(out, z, [0, 0])", "return out"], call="self.kernel(out, out)"),
    "param-aliased-by-the-call-read-whole-in-a-loop": incore([
        "for i in pl.range(0, 3, 1):", "    y = pl.add(x, 1.0)", "    out = pl.assemble(out, y, [0, 0])",
        "return out"], call="self.kernel(out, out)"),
    "param-aliased-through-a-view-read-whole-after-a-write": incore([
        "y = pl.add(x, 1.0)", "out = pl.assemble(out, y, [0, 0])", "z = pl.mul(x, 2.0)",
        "out = pl.assemble(out, z, [0, 0])", "return out"],
        call="self.kernel(pl.reshape(pl.reshape(out, [64, 16]), [16, 64]), out)"),
    "param-aliased-through-a-returned-view-read-whole-after-a-write": incore([
        "y = pl.add(x, 1.0)", "out = pl.assemble(out, y, [0, 0])", "z = pl.mul(x, 2.0)",
        "out = pl.assemble(out, z, [0, 0])", "return out"], SAME, call="self.kernel(out, self.same(out))"),
    # A returned view names the caller's actual: the kernel's write through it reaches out.
    "returned-view-written-by-the-caller": incore([
        "out = pl.assemble(out, pl.mul(x, 3.0), [0, 0])", "return out"], PART,
        call="self.kernel(x, self.part(out, 2))"),
    # A slice of x taken before a write through the call's alias of x is taken again where an op
    # reads it after the write.
    "slice-of-an-aliased-param-read-after-a-write": incore([
        "s = pl.slice(x, [16, 32], [0, 0])", "out = pl.assemble(out, pl.add(s, s), [0, 0])",
        "z = pl.add(s, s)", "out = pl.assemble(out, z, [0, 32])", "return out"],
        call="self.kernel(out, out)"),
    "slice-of-an-aliased-param-read-in-a-loop-that-writes": incore([
        "s = pl.slice(x, [16, 32], [0, 0])", "for i in pl.range(0, 3, 1):", "    y = pl.add(s, s)",
        "    out = pl.assemble(out, y, [0, 0])", "return out"], call="self.kernel(out, out)"),
    "reshape-declaring-a-narrower-valid-region": incore([
        "t = pl.tensor.reshape(x, [16, 64], [4, 8])", "out = pl.assemble(out, t, [0, 0])", "return out"]),
    "reshape-declaring-the-whole-region-of-a-narrowed-input": incore([
        "n = pl.tensor.set_validshape(x, 8, 8)", "t = pl.tensor.reshape(n, [16, 64], [16, 64])",
        "out = pl.assemble(out, t, [0, 0])", "return out"]),
}

# Kernels compilation would change: each must be a located error.
BAD: dict[str, str] = {
    "write-into-slice-of-gm": incore([
        "s = pl.slice(x, [16, 32], [0, 0])",
        "s = pl.write(s, [0, 0], 5.0)  # error: writes `s`, an on-chip copy of the GM tensor `x` taken at line 8",
        "y = pl.add(s, s)", "out = pl.assemble(out, y, [0, 0])", "return out"]),
    "write-into-slice-of-param-read-whole": incore([
        "s = pl.slice(x, [16, 32], [0, 0])",
        "s = pl.write(s, [0, 0], 5.0)  # error: copy of the GM tensor `x` loaded at function entry",
        "y = pl.add(x, x)", "out = pl.assemble(out, y, [0, 0])", "return out"]),
    "write-gm-param-read-whole": incore([
        "y = pl.add(x, x)", "x = pl.write(x, [1, 2], 7.0)  # error: `x` loaded at function entry",
        "out = pl.assemble(out, y, [0, 0])", "return out"]),
    "assemble-into-slice-of-gm": incore([
        "s = pl.slice(out, [16, 32], [0, 0])",
        "s = pl.assemble(s, pl.slice(x, [16, 32], [0, 0]), [0, 0])  # error: writes `s`, an on-chip copy",
        "return out"]),
    "assemble-into-param-read-whole": incore([
        "y = pl.add(out, x)",
        "out = pl.assemble(out, pl.add(x, x), [0, 0])  # error: writes `out`, an on-chip copy of the GM tensor `out` loaded",
        "out = pl.assemble(out, pl.add(y, y), [0, 0])", "return out"]),
    "slice-read-after-a-call-writes-its-base": incore([
        "s = pl.slice(out, [16, 32], [0, 0])", "out = self.fill(x, out)",
        "y = pl.add(s, s)  # error: read here after `out` was written at line 15",
        "out = pl.assemble(out, y, [0, 0])", "return out"], FILL),
    "slice-read-in-nested-loops-that-write": incore([
        "s = pl.slice(out, [16, 32], [0, 0])", "for i in pl.range(0, 2, 1):", "    for j in pl.range(0, 2, 1):",
        "        for k in pl.range(0, 2, 1):",
        "            y = pl.add(s, s)  # error: read here after `out` was written at line 13",
        "            out = pl.assemble(out, y, [0, 0])", "return out"]),
    "slice-read-after-assemble": incore([
        "s = pl.slice(out, [16, 32], [0, 0])", "y = pl.add(x, x)", "out = pl.assemble(out, y, [0, 0])",
        "z = pl.add(s, s)  # error: read here after `out` was written at line 10",
        "out = pl.assemble(out, z, [0, 32])", "return out"]),
    "slice-read-in-loop-that-writes": incore([
        "s = pl.slice(out, [16, 32], [0, 0])", "for i in pl.range(0, 2, 1):",
        "    y = pl.add(s, s)  # error: read here after `out` was written at line 11",
        "    out = pl.assemble(out, y, [0, 0])", "return out"]),
    # The GM tensor a merge loads where it flows in (see OK) is a copy like the others.
    "if-result-read-after-its-gm-tensor-is-written": incore([
        "r = pl.add(x, x)", "for i in pl.range(2):", "    if i == 0:", "        r = out", "    else:",
        "        r = pl.add(x, x)", "    out = pl.assemble(out, pl.mul(x, 3.0), [0, 0])",
        "    u = pl.add(r, x)  # error: `r` is an on-chip copy of the GM tensor `out` loaded at line 10, "
        "where it flows into one value with a tile", "return u"]),
    "write-into-if-result-holding-a-gm-tensor": incore([
        "y = pl.add(x, x)", "for i in pl.range(2):", "    if i == 0:", "        r = out", "    else:",
        "        r = pl.add(x, x)", "    r = pl.assemble(r, y, [0, 0])  # error: writes `r`, an on-chip copy",
        "return r"]),
    # A slice of x taken before a write through the call's alias of x and returned after it:
    # only an op reading it can take it again.
    "slice-returned-after-a-write-through-an-aliased-param": incore([
        "s = pl.slice(x, [16, 64], [0, 0])", "out = pl.assemble(out, pl.add(x, x), [0, 0])",
        "return s  # error: a call of this function passes the same tensor as `x` and `out`"],
        call="self.kernel(out, out)"),
    "returned-view-at-an-offset-a-loop-computes": incore([
        "out = pl.assemble(out, pl.mul(x, 3.0), [0, 0])", "return out"], PART_IN_LOOP,
        call="self.kernel(x, self.part(out))"),
    "returned-view-from-one-of-two-returns": incore([
        "out = pl.assemble(out, pl.mul(x, 3.0), [0, 0])", "return out"], PART_TWO_RETURNS,
        call="self.kernel(x, self.part(out, 2))"),
    "returned-view-bound-in-an-if": incore([
        "out = pl.assemble(out, pl.mul(x, 3.0), [0, 0])", "return out"], PART_IN_IF,
        call="self.kernel(x, self.part(out, 2))"),
    "returned-view-carried-by-a-loop": incore([
        "out = pl.assemble(out, pl.mul(x, 3.0), [0, 0])", "return out"], PART_CARRIED,
        call="self.kernel(x, self.part(out))"),
    "reshape-declaring-another-valid-region-in-3-d": incore([
        "t = pl.tensor.reshape(x, [1, 16, 64], [1, 4, 8])  # error: tensor.reshape: valid_shape [1, 4, 8] "
        "is not the valid region [1, 16, 64]",
        "out = pl.assemble(out, pl.tensor.reshape(t, [16, 64]), [0, 0])", "return out"]),
    "while-result-read-after-its-initial-gm-tensor-is-written": incore([
        "r = out", "n = 0", "while n < 1:", "    r = pl.add(x, x)", "    n = n + 1",
        "out = pl.assemble(out, pl.mul(x, 3.0), [0, 0])",
        "w = pl.add(r, x)  # error: read here after `out` was written at line 13", "return w"]),
}
