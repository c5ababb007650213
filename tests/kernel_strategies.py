"""Hypothesis strategies that generate well-formed `pl` kernels as DSL source text.

Guarantees: every drawn value is a `GeneratedProgram` whose `source` is the text of one `@pl.program`
class that the reference DSL accepts (so `pl.parse(source)` must succeed) and whose root
function `main` is the program's entry for `pl.interpret`. Five families:

* `tile_programs()`: a tile-level InCore `kernel` (loads with Vec / Mat / no target, elementwise,
  scalar and unary chains, matmul / matmul_acc with `create_tile` accumulators, moves, stores,
  `pl.range` loops carried by `init_values` + `pl.yield_` or by plain rebinding, if/else phis on a
  scalar condition, matmuls and unary ops nested in stores and binary ops, one-line `for` / `if`
  suites, `break` / `continue` under an if in loops, early `return`s under an if outside loops,
  and a value yielded by an inner loop used after its outer loop) called by `main`.
* `nd_programs()`: rank-3 kernels (tile or tensor level): reductions broadcast back, pages
  assembled, calls nested in calls, one-line loops (see its docstring).
* `tensor_programs()`: a tensor-level InCore `kernel(lhs, rhs, out)` in the shape of the seed's
  residency example (`pl.slice` + `pl.matmul` + `pl.assemble` inside a `pl.range` loop) and a root
  `main` whose call sites alias inputs with outputs in the ways pass.md section 6 names (fresh
  `pl.create_tensor`, the root's own params, the same tensor as In and Out, a slice of an Out as an
  In, two calls, an Orchestration or InCore wrapper, an InOut lhs); the kernel may assemble
  after its loop a value first bound in it (carried out from a stand-in of its type).
* `matmul_programs()`: a Mat-resident matmul that may overflow L0 (K and M/N tiling), stored
  once at an offset (see its docstring).
* `scoped_programs()`: tile-level bodies in `with pl.at(level=pl.Level.CORE_GROUP):` scopes of
  the root function itself (the reference's quick-start form; see its docstring), so `main` is
  the whole program until compilation outlines the scopes.

The first three families are FP32 throughout; the matmul family uses INT8 (-> INT32) products or
single-K-block FP16 ones. So the interpreter's results of the source and compiled programs must
agree bit for bit (compilation adds moves, which copy values, and splits matmuls only where the
sum is exact).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hypothesis import strategies as st

__all__ = ["GeneratedProgram", "matmul_programs", "nd_programs", "scoped_programs", "tile_programs",
           "tensor_programs", "TILE_SPACES"]

TILE_SPACES = ("Vec", "Mat", "Acc", "Left", "Right")
BINARY = ("add", "sub", "mul", "maximum", "minimum")
SCALAR = ("add", "sub", "mul")
UNARY = ("neg", "abs", "relu", "exp")
MOVE_TARGETS = ("Vec", "Mat", "Left", "Right")

# Corners the generators steer around: none at present. (A loop / branch body of one bare
# statement, which the reference leaves without moves, gets them here (infer/mutate.py) and is
# generated, one-line suites included; BUG-1, an if whose branches end in a user `pl.yield_` AND
# rebind an outer name, is fixed in lowering/ssa/convert.py.)


@dataclass(frozen=True)
class GeneratedProgram:
    """One generated program: its DSL text and what the generator put in it (for reports)."""

    source: str
    features: tuple[str, ...]

    def __repr__(self) -> str:  # hypothesis prints this for a falsifying example
        return f"GeneratedProgram(features={self.features!r}, source=\n{self.source}\n)"


# ---- tile-level kernels ---------------------------------------------------------------------------


@dataclass
class _Kernel:
    """The state of one tile kernel being drawn: the visible tiles and their pre-inference space."""

    draw: st.DrawFn
    size: int
    blocks: int
    lines: list[str] = field(default_factory=list)
    features: set[str] = field(default_factory=set)
    counter: int = 0
    frozen: frozenset[str] = frozenset()  # names that must not be rebound here (BUG-1)
    yielding_if: bool = False  # inside an if whose branches yield: no break/continue/return here
    scoped: bool = False  # the body stands in a pl.at scope: no `return` (scoped_programs)

    def fresh(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def emit(self, indent: int, text: str) -> None:
        self.lines.append("    " * indent + text)


def _pick(k: _Kernel, pool: dict[str, str], spaces: tuple[str, ...] | None = None,
          rebind: bool = False) -> str | None:
    names = sorted(n for n, s in pool.items() if (spaces is None or s in spaces)
                   and not (rebind and n in k.frozen))
    return k.draw(st.sampled_from(names)) if names else None


def _offset(k: _Kernel, loop_vars: list[tuple[str, int]]) -> str:
    """A column offset in the input tensors: a constant block, or a block picked by a loop var."""
    choices = [str(b * k.size) for b in range(k.blocks)]
    choices += [f"{v} * {k.size}" for v, trips in loop_vars if trips <= k.blocks]
    return k.draw(st.sampled_from(choices))


def _load(k: _Kernel, indent: int, pool: dict[str, str], loop_vars: list[tuple[str, int]]) -> None:
    target = k.draw(st.sampled_from(("", "Vec", "Mat")))
    src = k.draw(st.sampled_from(("x", "y")))
    kw = f", target_memory=pl.{k.draw(st.sampled_from(('Mem', 'MemorySpace')))}.{target}" if target else ""
    name = k.fresh("t")
    k.emit(indent, f"{name} = pl.load({src}, [0, {_offset(k, loop_vars)}], [{k.size}, {k.size}]{kw})")
    pool[name] = target or "Vec"
    k.features.add(f"load:{target or 'default'}")


def _vec_value(k: _Kernel, indent: int, pool: dict[str, str], base: str) -> str:
    """An expression computing a Vec tile from `base` (and maybe another pool tile)."""
    kind = k.draw(st.sampled_from(("binary", "scalar", "unary")))
    k.features.add(kind)
    if kind == "binary":
        other = _pick(k, pool) or base
        return f"pl.{k.draw(st.sampled_from(BINARY))}({base}, {other})"
    if kind == "scalar":
        const = k.draw(st.sampled_from(("0.5", "2.0", "1.25", "-3.0")))
        return f"pl.{k.draw(st.sampled_from(SCALAR))}({base}, {const})"
    return f"pl.{k.draw(st.sampled_from(UNARY))}({base})"


def _acc_value(k: _Kernel, indent: int, pool: dict[str, str], acc: str) -> str:
    lhs = _pick(k, pool) or acc
    rhs = _pick(k, pool) or acc
    k.features.add("matmul_acc")
    return f"pl.matmul_acc({acc}, {lhs}, {rhs})"


def _value_like(k: _Kernel, indent: int, pool: dict[str, str], name: str) -> str:
    """An expression whose pre-inference type equals `name`'s (Vec or Acc), so it may rebind it."""
    return _acc_value(k, indent, pool, name) if pool[name] == "Acc" else _vec_value(k, indent, pool, name)


def _stmt(k: _Kernel, indent: int, pool: dict[str, str], loop_vars: list[tuple[str, int]],
          depth: int) -> None:
    kinds = ["load", "vec", "vec", "matmul", "matmul_acc", "move", "store", "rebind", "nested",
             "alias"]
    if depth < 2:
        kinds += ["for_carry", "for_rebind", "if_phi", "if_rebind", "one_line"]
    if depth < 1:
        kinds += ["nested_yield"]
    if loop_vars:
        if not k.yielding_if:
            kinds += ["exit"]  # `break` / `continue` under an if (all loops drawn are pl.range)
    elif "out" not in k.frozen and not k.yielding_if and not k.scoped:
        kinds += ["early_return"]  # `return` is not allowed inside a loop, nor in a yielding if
    if not pool:
        kinds = ["load"]
    kind = k.draw(st.sampled_from(kinds))
    if kind == "load":
        _load(k, indent, pool, loop_vars)
    elif kind == "vec":
        base = _pick(k, pool)
        assert base is not None
        name = k.fresh("v")
        k.emit(indent, f"{name} = {_vec_value(k, indent, pool, base)}")
        pool[name] = "Vec"
    elif kind == "matmul":
        a, b = _pick(k, pool), _pick(k, pool)
        name = k.fresh("mm")
        k.emit(indent, f"{name} = pl.matmul({a}, {b})")
        pool[name] = "Acc"
        k.features.add("matmul")
    elif kind == "matmul_acc":
        acc = _pick(k, pool, ("Acc",))
        if acc is None or k.draw(st.booleans()):
            acc = k.fresh("acc")
            space = k.draw(st.sampled_from(("Acc", "Vec")))
            k.emit(indent, f"{acc} = pl.create_tile([{k.size}, {k.size}], dtype=pl.FP32, "
                           f"target_memory=pl.Mem.{space})")
            pool[acc] = space
            k.features.add(f"create_tile:{space}")
        name = k.fresh("ma")
        k.emit(indent, f"{name} = {_acc_value(k, indent, pool, acc)}")
        pool[name] = "Acc"
    elif kind == "move":
        src = _pick(k, pool)
        target = k.draw(st.sampled_from(MOVE_TARGETS))
        name = k.fresh("mv")
        k.emit(indent, f"{name} = pl.move({src}, target_memory=pl.Mem.{target})")
        pool[name] = target
        k.features.add(f"move:{target}")
    elif kind == "alias":
        # `a = b`: a copy whose placed type must follow b's, view included (b's view may change
        # with placement, e.g. an elementwise op on a Mat tile once a move feeds it Vec)
        src = _pick(k, pool)
        assert src is not None
        name = k.fresh("a")
        k.emit(indent, f"{name} = {src}")
        pool[name] = pool[src]
        k.features.add("alias")
    elif kind == "store":
        if "out" in k.frozen:
            return
        src = _pick(k, pool)
        k.emit(indent, f"out = pl.store({src}, [0, {_offset(k, loop_vars)}], out)")
        k.features.add("store")
    elif kind == "rebind":
        rebound = _pick(k, pool, ("Vec", "Acc"), rebind=True)
        if rebound is None:
            return
        k.emit(indent, f"{rebound} = {_value_like(k, indent, pool, rebound)}")
        k.features.add("rebind")
    elif kind == "nested":
        _nested(k, indent, pool, loop_vars)
    elif kind == "one_line":
        _one_line(k, indent, pool, loop_vars)
    elif kind in ("for_carry", "for_rebind"):
        outer_yielding, k.yielding_if = k.yielding_if, False  # a loop's own exits are allowed
        _for(k, indent, pool, loop_vars, depth, carried=kind == "for_carry")
        k.yielding_if = outer_yielding
    elif kind in ("exit", "early_return"):
        _early_exit(k, indent, pool, loop_vars, depth, kind)
    elif kind == "nested_yield":
        _nested_yield(k, indent, pool, loop_vars, depth)
    else:
        _if(k, indent, pool, loop_vars, depth, phi=kind == "if_phi")


def _nested(k: _Kernel, indent: int, pool: dict[str, str], loop_vars: list[tuple[str, int]]) -> None:
    """A matmul (or another op) nested in the arguments of a store or an elementwise op: lowering
    must give it its own statement so inference places its operands."""
    a, b = _pick(k, pool), _pick(k, pool)
    inner = f"pl.matmul({a}, {b})" if k.draw(st.booleans()) else f"pl.exp({a})"
    if "out" not in k.frozen and k.draw(st.booleans()):
        k.emit(indent, f"out = pl.store({inner}, [0, {_offset(k, loop_vars)}], out)")
        k.features.add("nested:store")
        return
    name = k.fresh("nv")
    other = _pick(k, pool) or a
    k.emit(indent, f"{name} = pl.{k.draw(st.sampled_from(BINARY))}({inner}, {other})")
    pool[name] = "Vec"
    k.features.add("nested:binary")


def _one_line(k: _Kernel, indent: int, pool: dict[str, str], loop_vars: list[tuple[str, int]]) -> None:
    """`for i in pl.range(n): x = ...` / `if m < c: x = ...` on one line: a bare one-statement
    body, which must get its moves like any other. The value defined there is not reused."""
    a, b = _pick(k, pool), _pick(k, pool)
    value = k.draw(st.sampled_from((f"pl.matmul({a}, {b})", f"pl.add({a}, {b})",
                                    f"pl.move({a}, target_memory=pl.Mem.Mat)")))
    if k.draw(st.booleans()):
        head = f"for {k.fresh('i')} in pl.range({k.draw(st.integers(1, 2))}):"
        k.features.add("one_line:for")
    else:
        head = f"if m {k.draw(st.sampled_from(('<', '>=')))} {k.draw(st.integers(0, 4))}:"
        k.features.add("one_line:if")
    k.emit(indent, f"{head} {k.fresh('o')} = {value}")


def _early_exit(k: _Kernel, indent: int, pool: dict[str, str], loop_vars: list[tuple[str, int]],
                depth: int, kind: str) -> None:
    """`if m <op> b:` with a few statements, then `break`/`continue` (inside a loop) or a store and
    `return out` (outside loops); maybe an else branch. Code after it runs only on the other path."""
    op = k.draw(st.sampled_from(("<", ">", "==", "!=")))
    k.emit(indent, f"if m {op} {k.draw(st.integers(0, 4))}:")
    inner = dict(pool)
    _body(k, indent + 1, inner, loop_vars, depth + 1, 0, 2)
    if kind == "exit":
        word = k.draw(st.sampled_from(("break", "continue")))
        k.emit(indent + 1, word)
        k.features.add(f"exit:{word}")
    else:
        k.emit(indent + 1, f"out = pl.store({_pick(k, inner)}, [0, 0], out)")
        k.emit(indent + 1, "return out")
        k.features.add("early_return")
    if k.draw(st.booleans()):
        k.emit(indent, "else:")
        start = len(k.lines)
        _body(k, indent + 1, dict(pool), loop_vars, depth + 1, 1, 2)
        if len(k.lines) == start:  # every drawn statement declined (nothing to rebind, say)
            k.emit(indent + 1, "pass")


def _nested_yield(k: _Kernel, indent: int, pool: dict[str, str], loop_vars: list[tuple[str, int]],
                  depth: int) -> None:
    """A value yielded by an inner loop and used after an outer loop that carries nothing."""
    init = _pick(k, pool, ("Vec", "Acc"))
    if init is None:
        return
    outer, inner_var, carry, result = k.fresh("i"), k.fresh("j"), k.fresh("c"), k.fresh("r")
    k.emit(indent, f"for {outer} in pl.range({k.draw(st.integers(1, 2))}):")
    k.emit(indent + 1, f"for {inner_var}, ({carry},) in pl.range({k.draw(st.integers(1, 2))}, "
                       f"init_values=({init},)):")
    inner = {**pool, carry: pool[init]}
    nxt = k.fresh("n")
    k.emit(indent + 2, f"{nxt} = {_value_like(k, indent + 2, inner, carry)}")
    k.emit(indent + 2, f"{result} = pl.yield_({nxt})")
    pool[result] = pool[init]
    k.features.add("nested_yield")


def _body(k: _Kernel, indent: int, pool: dict[str, str], loop_vars: list[tuple[str, int]],
          depth: int, min_size: int = 1, max_size: int = 3) -> None:
    for _ in range(k.draw(st.integers(min_size, max_size))):
        _stmt(k, indent, pool, loop_vars, depth)


def _for(k: _Kernel, indent: int, pool: dict[str, str], loop_vars: list[tuple[str, int]], depth: int,
         carried: bool) -> None:
    trips = k.draw(st.integers(1, 3))
    start = k.draw(st.sampled_from((0, 0, 1))) if trips > 1 else 0
    rng = f"pl.range({trips})" if start == 0 else f"pl.range({start}, {trips})"
    trips = trips if start == 0 else trips  # offsets use i * size: i < trips <= blocks stays in bounds
    ivar = k.fresh("i")
    inner = dict(pool)
    if carried:
        init = _pick(k, pool, ("Vec", "Acc"))
        if init is None:
            return
        carry = k.fresh("c")
        k.emit(indent, f"for {ivar}, ({carry},) in {rng[:-1]}, init_values=({init},)):")
        inner[carry] = pool[init]
        if k.draw(st.booleans()):
            # an exit first: SSA conversion copies the carry (`c_next = c`) for the path that
            # leaves, a copy whose view must follow the carry's placed one
            _early_exit(k, indent + 1, inner, [*loop_vars, (ivar, trips)], depth + 1, "exit")
        _body(k, indent + 1, inner, [*loop_vars, (ivar, trips)], depth + 1, 0, 3)
        nxt = k.fresh("n")
        if inner[carry] == "Vec" and k.draw(st.booleans()):
            # a Vec carry accumulated by matmul_acc: back-propagation re-places the carry, its
            # initial value and every alias of them in Acc after the body was analysed
            k.emit(indent + 1, f"{nxt} = {_acc_value(k, indent + 1, inner, carry)}")
            k.features.add("for:acc_backprop")
        else:
            k.emit(indent + 1, f"{nxt} = {_value_like(k, indent + 1, inner, carry)}")
        result = k.fresh("r")
        k.emit(indent + 1, f"{result} = pl.yield_({nxt})")
        pool[result] = pool[init]
        k.features.add("for:init_values")
    else:
        target = _pick(k, pool, ("Vec", "Acc"), rebind=True)
        k.emit(indent, f"for {ivar} in {rng}:")
        _body(k, indent + 1, inner, [*loop_vars, (ivar, trips)], depth + 1, 0, 3)
        if target is not None:
            # plain rebinding of an outer name: SSA conversion must turn it into a carry
            k.emit(indent + 1, f"{target} = {_value_like(k, indent + 1, inner, target)}")
        elif "out" in k.frozen:
            k.emit(indent + 1, "pass")
        else:
            k.emit(indent + 1, f"out = pl.store({_pick(k, inner)}, [0, 0], out)")
        k.features.add("for:rebind")


def _if(k: _Kernel, indent: int, pool: dict[str, str], loop_vars: list[tuple[str, int]], depth: int,
        phi: bool) -> None:
    op = k.draw(st.sampled_from(("<", ">", "==", "!=", "<=", ">=")))
    bound = k.draw(st.integers(0, 4))
    k.emit(indent, f"if m {op} {bound}:")
    if phi:
        seed = _pick(k, pool, ("Vec", "Acc"))
        if seed is None:
            k.emit(indent + 1, "pass")
            return
        result = k.fresh("p")
        saved = k.frozen
        outer_yielding, k.yielding_if = k.yielding_if, True
        for branch in ("then", "else"):
            if branch == "else":
                k.emit(indent, "else:")
            inner = dict(pool)
            _body(k, indent + 1, inner, loop_vars, depth + 1, 0, 2)
            val = k.fresh("b")
            k.emit(indent + 1, f"{val} = {_value_like(k, indent + 1, inner, seed)}")
            k.emit(indent + 1, f"{result} = pl.yield_({val})")
        k.frozen = saved
        k.yielding_if = outer_yielding
        pool[result] = pool[seed]
        k.features.add("if:phi")
    else:
        target = _pick(k, pool, ("Vec", "Acc"), rebind=True)
        if target is None:
            k.emit(indent + 1, "pass")
            return
        for branch in ("then", "else"):
            if branch == "else":
                if not k.draw(st.booleans()):
                    break
                k.emit(indent, "else:")
            inner = dict(pool)
            _body(k, indent + 1, inner, loop_vars, depth + 1, 0, 2)
            k.emit(indent + 1, f"{target} = {_value_like(k, indent + 1, inner, target)}")
            k.features.add("if:rebind")


@st.composite
def tile_programs(draw: st.DrawFn) -> GeneratedProgram:
    """A tile-level InCore kernel (section (a) of the brief) and its root orchestration."""
    size = draw(st.sampled_from((16, 32)))
    blocks = 3
    k = _Kernel(draw, size, blocks)
    pool: dict[str, str] = {}
    _load(k, 2, pool, [])
    _body(k, 2, pool, [], 0, 1, 6)
    final = _pick(k, pool)
    k.emit(2, f"out = pl.store({final}, [0, 0], out)")
    k.emit(2, "return out")
    tensor = f"pl.Tensor[[{size}, {size * blocks}], pl.FP32]"
    return GeneratedProgram(_kernel_and_main(tensor, k.lines, scalar=True), tuple(sorted(k.features)))


@st.composite
def scoped_programs(draw: st.DrawFn) -> GeneratedProgram:
    """Bodies like `tile_programs`' written in the reference's quick-start form: each in a
    `with pl.at(level=pl.Level.CORE_GROUP):` scope of the root function itself (Opaque or
    Orchestration), which compilation outlines into an InCore function before inference places
    its tiles. One or two scopes, each ending with a store into `out` (a second scope may read
    what the first stored: tasks pass data through tensors, never tiles), maybe in a `pl.range`
    loop (carrying `out` through the calls)."""
    size = draw(st.sampled_from((16, 32)))
    k = _Kernel(draw, size, 3, scoped=True)
    scopes = []
    for n in range(draw(st.integers(1, 2))):
        start = len(k.lines)
        pool: dict[str, str] = {}
        if n:  # the second task reads what the first stored
            name = k.fresh("t")
            k.emit(0, f"{name} = pl.load(out, [0, 0], [{size}, {size}])")
            pool[name] = "Vec"
            k.features.add("scope:reads_previous")
        _load(k, 0, pool, [])
        _body(k, 0, pool, [], 0, 1, 5)
        k.emit(0, f"out = pl.store({_pick(k, pool)}, [0, {n * size}], out)")
        scopes.append(k.lines[start:])
    looped = draw(st.booleans())
    if looped:
        k.features.add("scope:loop")
    kind = draw(st.sampled_from(("", "(type=pl.FunctionType.Orchestration)")))
    k.features.add("scope:orchestration" if kind else "scope:opaque")
    tensor = f"pl.Tensor[[{size}, {size * 3}], pl.FP32]"
    sig = f"(self, x: {tensor}, y: {tensor}, out: pl.Out[{tensor}], m: pl.Scalar[pl.INDEX]) -> {tensor}:"
    at = 3 if looped else 2
    lines = ["import pl", "", "", "@pl.program", "class Generated:", f"    @pl.function{kind}",
             f"    def main{sig}"]
    if looped:
        lines.append(f"        for rep in pl.range({draw(st.integers(1, 2))}):")
    for body in scopes:
        lines.append("    " * at + "with pl.at(level=pl.Level.CORE_GROUP):")
        lines.extend("    " * (at + 1) + line for line in body)
    lines.append("        return out")
    return GeneratedProgram("\n".join(lines) + "\n", tuple(sorted(k.features)))


def _kernel_and_main(tensor: str, body: list[str], scalar: bool) -> str:
    """The program text: InCore `kernel(x, y, out[, m])` with `body` (lines indented for it,
    ending in its return) and the root Orchestration `main` calling it."""
    extra, args = (", m: pl.Scalar[pl.INDEX]", "x, y, out, m") if scalar else ("", "x, y, out")
    sig = f"(self, x: {tensor}, y: {tensor}, out: pl.Out[{tensor}]{extra}) -> {tensor}:"
    lines = ["import pl", "", "", "@pl.program", "class Generated:",
             "    @pl.function(type=pl.FunctionType.InCore)", f"    def kernel{sig}", *body, "",
             "    @pl.function(type=pl.FunctionType.Orchestration)", f"    def main{sig}",
             f"        out = self.kernel({args})", "        return out"]
    return "\n".join(lines) + "\n"


# ---- tensor-level orchestration programs ----------------------------------------------------------


@dataclass(frozen=True)
class _Dims:
    m: int
    k: int
    nb: int
    trips: int

    @property
    def n(self) -> int:
        return self.nb * self.trips

    def t(self, rows: int, cols: int) -> str:
        return f"pl.Tensor[[{rows}, {cols}], pl.FP32]"


MIXED_DTYPE_POSTS = ("pl.add(pl.cast(c_n, target_type=pl.INT32), 0.5)",
                     "pl.mul(pl.cast(c_n, target_type=pl.BF16), 3.3)",
                     "pl.exp(pl.cast(pl.mul(c_n, 0.25), target_type=pl.INT8))",
                     "pl.maximum(pl.cast(c_n, target_type=pl.INT16), 0.5)")


def _post_feature(post: str) -> str:
    return "post:fill" if "bias" in post else \
        "post:mixed_dtype" if post in MIXED_DTYPE_POSTS else "post"


def _tensor_kernel(d: _Dims, draw: st.DrawFn, feats: set[str]) -> list[str]:
    sliced = draw(st.booleans())
    carried = draw(st.booleans())
    lhs_dir = draw(st.sampled_from(("In", "In", "InOut")))
    # `bias` is an on-chip tensor the runtime never sees: its init_value must become a fill.
    # The mixed-dtype ones compute in a dtype the scalar (or the type rule) promotes to: an
    # INT32 / BF16 / INT8 tensor with a float scalar, or a float op of an integer one, is FP32.
    post = draw(st.sampled_from(("", "", "pl.add(c_n, c_n)", "pl.mul(c_n, 0.5)", "pl.exp(c_n)",
                                 "pl.add(c_n, bias)", *MIXED_DTYPE_POSTS)))
    # Writes inside the loop: a scalar pl.write of the GM output after the assemble, a slice of the
    # output taken after the write (it must see it) and assembled back, a pl.write of the matmul's
    # own lhs (residency must not hoist a load of storage the loop writes).
    # `lhs_reread` reads the lhs whole after the assemble: a call site passing (a view of) `out`
    # as the lhs makes it see that write, so the lhs must be loaded where it is read.
    # `lhs_slice_reread` reads a slice of the lhs taken before the assemble after it: through
    # such a call site it must see the write, so it is loaded again where it is read.
    write = draw(st.sampled_from(("", "gm_write", "slice_after_write", "lhs_write", "lhs_write",
                                  "lhs_reread", "lhs_slice_reread")))
    # A tensor-op result first bound in the loop and assembled after it: SSA carries it out of
    # the loop from a stand-in of its type, the Out param `out` (the only one when trips == 1).
    # (A loop with explicit init_values keeps its body's names to itself.)
    escape = d.trips == 1 and not carried and draw(st.booleans())
    rhs_t = d.t(d.k, d.n if sliced else d.nb)
    lhs_t = d.t(d.m, d.k) if lhs_dir == "In" else f"pl.InOut[{d.t(d.m, d.k)}]"
    feats.update({f"rhs:{'sliced' if sliced else 'whole'}", f"loop:{'carry' if carried else 'rebind'}",
                  f"lhs:{lhs_dir}"} | ({_post_feature(post)} if post else set())
                 | ({f"write:{write}"} if write else set())
                 | ({"escape"} if escape else set()))
    body = ["    @pl.function(type=pl.FunctionType.InCore)",
            f"    def kernel(self, lhs: {lhs_t}, rhs: {rhs_t}, out: pl.Out[{d.t(d.m, d.n)}])"
            f" -> {d.t(d.m, d.n)}:"]
    ind = "            "
    if "bias" in post:
        body.append(f"        bias = pl.create_tensor([{d.m}, {d.nb}], dtype=pl.FP32, init_value=0.5)")
    if carried:
        body.append(f"        for n, (acc,) in pl.range(0, {d.n}, {d.nb}, init_values=(out,)):")
    else:
        body.append(f"        for n in pl.range(0, {d.n}, {d.nb}):")
    operand = "rhs"
    if sliced:
        body.append(f"{ind}rhs_n = pl.slice(rhs, [{d.k}, {d.nb}], [0, n])")
        operand = "rhs_n"
    body.append(f"{ind}c_n = pl.matmul(lhs, {operand}, out_dtype=pl.FP32)")
    if post:
        body.append(f"{ind}c_n = {post}")
    if write == "lhs_write":
        body.append(f"{ind}pl.write(lhs, [0, n % {d.k}], 0.5)")
    if write == "lhs_slice_reread":
        body.append(f"{ind}lhs_part = pl.slice(lhs, [{d.m}, {d.k}], [0, 0])")
    if escape:
        body.append(f"{ind}last = pl.mul(c_n, 0.5)")
    target = "acc_next" if carried else "out"
    body.append(f"{ind}{target} = pl.assemble({'acc' if carried else 'out'}, c_n, [0, n])")
    if write in ("gm_write", "slice_after_write"):
        body.append(f"{ind}{target} = pl.write({target}, [1, n], 0.25)")
    if write == "lhs_reread":
        body.append(f"{ind}{target} = pl.assemble({target}, pl.add(lhs, lhs), [0, 0])")
    if write == "lhs_slice_reread":
        body.append(f"{ind}{target} = pl.assemble({target}, pl.add(lhs_part, lhs_part), [0, 0])")
    if write == "slice_after_write":
        body += [f"{ind}seen = pl.slice({target}, [{d.m}, {d.nb}], [0, n])",
                 f"{ind}{target} = pl.assemble({target}, pl.add(seen, seen), [0, n])"]
    result = "result" if carried else "out"
    if carried:
        body.append(f"{ind}result = pl.yield_(acc_next)")
    if escape:
        body.append(f"        {result} = pl.assemble({result}, last, [0, 0])")
    body.append(f"        return {result}")
    return body


def _fill_kernel(d: _Dims) -> list[str]:
    t = d.t(d.m, d.k)
    return ["    @pl.function(type=pl.FunctionType.InCore)",
            f"    def fill(self, src: {t}, dst: pl.Out[{t}]) -> {t}:",
            f"        s = pl.load(src, [0, 0], [{d.m}, {d.k}])",
            "        s = pl.add(s, 1.0)",
            "        dst = pl.store(s, [0, 0], dst)",
            "        return dst"]


def _call_site(d: _Dims, draw: st.DrawFn, feats: set[str], callee: str, tag: str) -> list[str]:
    """Lines of one way to call `callee(lhs, rhs, out)` from an orchestration body with params a, b, out."""
    kinds = ["fresh_filled", "fresh_zero", "param", "slice_of_out", "two_calls", "fresh_alias_out"]
    if "write:lhs_write" in feats:  # a fresh lhs is what lets residency hoist its load at all
        kinds += ["fresh_filled", "fresh_zero"] * 3
    if d.k == d.n:
        kinds += ["same_in_out", "same_in_out"]
    kind = draw(st.sampled_from(kinds))
    feats.add(f"call:{kind}")
    fresh = f"f{tag}"
    if kind == "fresh_filled":
        return [f"{fresh} = pl.create_tensor([{d.m}, {d.k}], dtype=pl.FP32)",
                f"{fresh} = self.fill(a, {fresh})",
                f"out = self.{callee}({fresh}, b, out)"]
    if kind == "fresh_zero":
        return [f"{fresh} = pl.create_tensor([{d.m}, {d.k}], dtype=pl.FP32)",
                f"out = self.{callee}({fresh}, b, out)"]
    if kind == "param":
        return [f"out = self.{callee}(a, b, out)"]
    if kind == "same_in_out":
        return [f"out = self.{callee}(out, b, out)"]
    if kind == "slice_of_out":
        off = draw(st.sampled_from(range(0, d.n - d.k + 1, d.nb)))
        return [f"v{tag} = pl.slice(out, [{d.m}, {d.k}], [0, {off}])",
                f"out = self.{callee}(v{tag}, b, out)"]
    if kind == "two_calls":
        return [f"{fresh} = pl.create_tensor([{d.m}, {d.n}], dtype=pl.FP32)",
                f"{fresh} = self.{callee}(a, b, {fresh})",
                f"v{tag} = pl.slice({fresh}, [{d.m}, {d.k}], [0, 0])",
                f"out = self.{callee}(v{tag}, b, out)"]
    # fresh_alias_out: a fresh tensor written by the call and also read by it through a slice
    return [f"{fresh} = pl.create_tensor([{d.m}, {d.n}], dtype=pl.FP32)",
            f"{fresh} = self.{callee}(a, b, {fresh})",
            f"v{tag} = pl.slice({fresh}, [{d.m}, {d.k}], [0, 0])",
            f"{fresh} = self.{callee}(v{tag}, b, {fresh})",
            f"out = self.{callee}(a, b, out)",
            f"out = pl.assemble(out, pl.slice({fresh}, [{d.m}, {d.k}], [0, 0]), [0, 0])"]


@st.composite
def tensor_programs(draw: st.DrawFn) -> GeneratedProgram:
    """A tensor-level InCore kernel and a root orchestration aliasing its inputs and outputs."""
    k = draw(st.sampled_from((32, 64)))
    nb = draw(st.sampled_from((32, 64)))
    trips = draw(st.integers(1, 3))
    if k > nb * trips:  # keep views of the output able to serve as the lhs
        trips = -(-k // nb)
    d = _Dims(16, k, nb, trips)
    feats: set[str] = set()
    funcs = [_tensor_kernel(d, draw, feats), _fill_kernel(d)]
    wrapper = draw(st.sampled_from(("", "", "Orchestration", "InCore")))
    callee = "kernel"
    a_t, b_t, o_t = d.t(d.m, d.k), d.t(d.k, d.n) if "rhs:sliced" in feats else d.t(d.k, d.nb), d.t(d.m, d.n)
    if wrapper:
        feats.add(f"wrapper:{wrapper}")
        lines = (_call_site(d, draw, feats, "kernel", "w") if wrapper == "Orchestration"
                 else ["out = self.kernel(a, b, out)"])
        funcs.append([f"    @pl.function(type=pl.FunctionType.{wrapper})",
                      f"    def wrap(self, a: {a_t}, b: {b_t}, out: pl.Out[{o_t}]) -> {o_t}:",
                      *("        " + line for line in lines),
                      "        return out"])
        callee = "wrap"
    main_lines: list[str] = []
    for index in range(draw(st.integers(1, 2))):
        main_lines += _call_site(d, draw, feats, callee, str(index))
    funcs.append(["    @pl.function(type=pl.FunctionType.Orchestration)",
                  f"    def main(self, a: {a_t}, b: {b_t}, out: pl.Out[{o_t}]) -> {o_t}:",
                  *("        " + line for line in main_lines),
                  "        return out"])
    text = "import pl\n\n\n@pl.program\nclass Generated:\n" + "\n\n".join("\n".join(f) for f in funcs)
    return GeneratedProgram(text + "\n", tuple(sorted(feats)))


# ---- N-D (rank-3) kernels -------------------------------------------------------------------------

ROW_REDUCE = ("row_sum", "row_max", "row_min")
COL_REDUCE = ("col_sum", "col_max", "col_min")
EXPAND = ("mul", "sub", "add", "max", "min")


@st.composite
def nd_programs(draw: st.DrawFn) -> GeneratedProgram:
    """An InCore kernel on [2, R, C] tensors: rank-3 tile loads, elementwise ops, row and column
    reductions (with and without scratch tiles) broadcast back with row/col_expand_*, pages
    assembled into a rank-3 tile, ops nested in other calls, one-line loops; or the same at tensor
    level (`pl.tensor.row_*` with keep_dim, `pl.tensor.col_*` with axis=0). Every result that
    reaches `out` has the full [2, R, C] shape."""
    rows, cols = draw(st.sampled_from((4, 8))), draw(st.sampled_from((16, 32)))
    shape = f"[2, {rows}, {cols}]"
    feats: set[str] = set()
    lines: list[str] = []
    if draw(st.booleans()):
        feats.add("level:tensor")
        pool = ["x", "y"]
        for n in range(draw(st.integers(1, 4))):
            src = draw(st.sampled_from(pool))
            kind = draw(st.sampled_from(("row", "col", "binary")))
            name = f"e{n}"
            if kind == "row":
                op = draw(st.sampled_from(ROW_REDUCE))
                keep = draw(st.sampled_from(("", ", keep_dim=True", ", keep_dim=1")))
                lines.append(f"r{n} = pl.tensor.{op}({src}{keep})")
                lines.append(f"{name} = pl.tensor.row_expand_{draw(st.sampled_from(EXPAND[:3]))}"
                             f"({src}, r{n})")
                feats.add(f"tensor:{op}")
            elif kind == "col":
                op = draw(st.sampled_from(COL_REDUCE))
                lines.append(f"r{n} = pl.tensor.{op}({src}, axis=0)")
                lines.append(f"{name} = pl.tensor.col_expand_{draw(st.sampled_from(EXPAND))}"
                             f"({src}, r{n})")
                feats.add(f"tensor:{op}")
            else:
                lines.append(f"{name} = pl.tensor.{draw(st.sampled_from(BINARY))}({src}, "
                             f"{draw(st.sampled_from(pool))})")
            pool.append(name)
        lines.append(f"out = pl.assemble(out, {pool[-1]}, [0, 0, 0])")
    else:
        feats.add("level:tile")
        pool = ["t0"]
        lines.append(f"t0 = pl.load(x, [0, 0, 0], {shape})")
        for n in range(1, draw(st.integers(2, 6))):
            src = draw(st.sampled_from(pool))
            kind = draw(st.sampled_from(("load", "binary", "row", "col", "assemble", "nested",
                                         "one_line")))
            name = f"t{n}"
            feats.add(kind)
            if kind == "load":
                lines.append(f"{name} = pl.load(y, [0, 0, 0], {shape})")
            elif kind == "binary":
                lines.append(f"{name} = pl.{draw(st.sampled_from(BINARY))}({src}, "
                             f"{draw(st.sampled_from(pool))})")
            elif kind == "row":
                op = draw(st.sampled_from(ROW_REDUCE))
                lines.append(f"s{n} = pl.create_tile({shape}, dtype=pl.FP32, target_memory=pl.Mem.Vec)")
                lines.append(f"r{n} = pl.{op}({src}, s{n})")
                lines.append(f"{name} = pl.row_expand_{draw(st.sampled_from(EXPAND[:3]))}({src}, r{n})")
                feats.add(op)
            elif kind == "col":
                op = draw(st.sampled_from(COL_REDUCE))
                tmp = ""
                if op == "col_sum" and draw(st.booleans()):
                    lines.append(f"s{n} = pl.create_tile({shape}, dtype=pl.FP32, target_memory=pl.Mem.Vec)")
                    tmp = f", s{n}"
                lines.append(f"r{n} = pl.{op}({src}{tmp})")
                lines.append(f"{name} = pl.col_expand_{draw(st.sampled_from(EXPAND))}({src}, r{n})")
                feats.add(op)
            elif kind == "assemble":
                page = draw(st.integers(0, 1))
                lines.append(f"p{n} = pl.load(y, [{page}, 0, 0], [1, {rows}, {cols}])")
                lines.append(f"{name} = pl.assemble({src}, pl.exp(p{n}), [{1 - page}, 0, 0])")
            elif kind == "nested":
                lines.append(f"{name} = pl.add(pl.mul({src}, 0.5), pl.neg({draw(st.sampled_from(pool))}))")
            else:
                lines.append(f"for i{n} in pl.range(2): u{n} = pl.exp({src})")
                lines.append(f"{name} = pl.relu({src})")
            pool.append(name)
        lines.append(f"out = pl.store({pool[-1]}, [0, 0, 0], out)")
    tensor = f"pl.Tensor[{shape}, pl.FP32]"
    body = ["        " + line for line in lines] + ["        return out"]
    return GeneratedProgram(_kernel_and_main(tensor, body, scalar=False), tuple(sorted(feats)))


# ---- matmuls that overflow L0 (auto_tile_matmul_l0) -----------------------------------------------

MATMUL_DIMS = (16, 48, 100, 144, 192, 256, 272, 320)


@st.composite
def matmul_programs(draw: st.DrawFn) -> GeneratedProgram:
    """An InCore kernel whose Mat-resident matmul may overflow L0A/L0B (K tiling) or L0C (M/N
    tiling: the product is folded into its one store), and the root `main` calling it. INT8 x
    INT8 -> INT32 or FP16 x FP16 -> FP32, any K (the interpreter sums a product in K order from
    its accumulator, so a K split computes the whole product's bits). Dims aligned or not; the product stored at an offset
    into a larger output, sometimes valid on part of it only, sometimes stored twice (a second
    reader: left alone)."""
    fp16 = draw(st.booleans())
    dtype, acc = ("FP16", "FP32") if fp16 else ("INT8", "INT32")
    m, n = draw(st.sampled_from(MATMUL_DIMS)), draw(st.sampled_from(MATMUL_DIMS))
    k = draw(st.sampled_from((16, 64, 304, 512, 688)))
    r0, c0 = draw(st.sampled_from((0, 16))), draw(st.sampled_from((0, 32)))
    vm, vn = m - draw(st.sampled_from((0, 0, 5))), n - draw(st.sampled_from((0, 0, 7)))
    feats = {f"dtype:{dtype}", f"shape:{m}x{k}x{n}"}
    if (vm, vn) != (m, n):
        feats.add("partial_valid")
    out_t = f"pl.Tensor[[{m + r0}, {n + c0}], pl.{acc}]"
    sig = (f"(self, a: pl.Tensor[[{m}, {k}], pl.{dtype}], b: pl.Tensor[[{k}, {n}], pl.{dtype}], "
           f"out: pl.Out[{out_t}]) -> {out_t}:")
    body = [f"a_mat = pl.load(a, [0, 0], [{m}, {k}], [{vm}, {k}], target_memory=pl.Mem.Mat)",
            f"b_mat = pl.load(b, [0, 0], [{k}, {n}], [{k}, {vn}], target_memory=pl.Mem.Mat)",
            "c = pl.matmul(a_mat, b_mat)",
            f"out = pl.store(c, [{r0}, {c0}], out)"]
    if draw(st.integers(0, 3)) == 0:
        body.append("out = pl.store(c, [0, 0], out)")
        feats.add("second_reader")
    lines = ["import pl", "", "", "@pl.program", "class Generated:",
             "    @pl.function(type=pl.FunctionType.InCore)", f"    def kernel{sig}",
             *("        " + line for line in body), "        return out", "",
             "    @pl.function(type=pl.FunctionType.Orchestration)", f"    def main{sig}",
             "        out = self.kernel(a, b, out)", "        return out"]
    return GeneratedProgram("\n".join(lines) + "\n", tuple(sorted(feats)))
