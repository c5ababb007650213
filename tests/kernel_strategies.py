"""Hypothesis strategies that generate well-formed `pl` kernels as DSL source text.

Guarantees: every drawn value is a `GeneratedProgram` whose `source` is the text of one `@pl.program`
class that the reference DSL accepts (so `pl.parse(source)` must succeed) and whose root
Orchestration function `main` is the program's entry for `pl.interpret`. Two families:

* `tile_programs()`: a tile-level InCore `kernel` (loads with Vec / Mat / no target, elementwise,
  scalar and unary chains, matmul / matmul_acc with `create_tile` accumulators, moves, stores,
  `pl.range` loops carried by `init_values` + `pl.yield_` or by plain rebinding, if/else phis on a
  scalar condition, `break` / `continue` under an if in loops, early `return`s under an if outside
  loops, and a value yielded by an inner loop used after its outer loop) called by `main`.
* `tensor_programs()`: a tensor-level InCore `kernel(lhs, rhs, out)` in the shape of the seed's
  residency example (`pl.slice` + `pl.matmul` + `pl.assemble` inside a `pl.range` loop) and a root
  `main` whose call sites alias inputs with outputs in the ways pass.md section 6 names (fresh
  `pl.create_tensor`, the root's own params, the same tensor as In and Out, a slice of an Out as an
  In, two calls, an Orchestration or InCore wrapper, an InOut lhs).

All tiles and tensors are FP32, so the interpreter's results of the source and compiled programs
must agree bit for bit (compilation only adds moves, which copy values).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from hypothesis import strategies as st

__all__ = ["GeneratedProgram", "tile_programs", "tensor_programs", "TILE_SPACES"]

TILE_SPACES = ("Vec", "Mat", "Acc", "Left", "Right")
BINARY = ("add", "sub", "mul", "maximum", "minimum")
SCALAR = ("add", "sub", "mul")
UNARY = ("neg", "abs", "relu", "exp")
MOVE_TARGETS = ("Vec", "Mat", "Left", "Right")

# Corners the generators steer around (set PL_PROPERTIES_KNOWN_BUGS=1 to walk into them):
# a For/If/While body that is a single statement (not a SeqStmts) gets no inserted moves, exactly
#   as in the reference (pass.md 4: "Bodies that are a single bare statement get NO move
#   insertion"), so such a program can end with a constraint violation the verifier reports.
# (BUG-1, an if whose branches end in a user `pl.yield_` AND rebind an outer name, is fixed in
#   lowering/ssa.py and no longer avoided.)
AVOID_KNOWN_BUGS = os.environ.get("PL_PROPERTIES_KNOWN_BUGS", "") != "1"


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
    yielding_if: bool = False  # inside an if whose branches yield: no break/continue here

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
    kinds = ["load", "vec", "vec", "matmul", "matmul_acc", "move", "store", "rebind"]
    if depth < 2:
        kinds += ["for_carry", "for_rebind", "if_phi", "if_rebind"]
    if depth < 1:
        kinds += ["nested_yield"]
    if loop_vars:
        if not k.yielding_if:
            kinds += ["exit"]  # `break` / `continue` under an if (all loops drawn are pl.range)
    elif "out" not in k.frozen:
        kinds += ["early_return"]  # `return` is not allowed inside a loop
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
        _pad_single(k, start, indent + 1)


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


def _pad_single(k: _Kernel, start: int, indent: int) -> None:
    """Under BUG-2 avoidance: give a nested body that has one statement a second one (a load)."""
    prefix = "    " * indent
    count = sum(1 for line in k.lines[start:] if line.startswith(prefix) and not line[len(prefix)].isspace())
    if AVOID_KNOWN_BUGS and count == 1:
        k.emit(indent, f"{k.fresh('pad')} = pl.load(x, [0, 0], [{k.size}, {k.size}])")


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
        _body(k, indent + 1, inner, [*loop_vars, (ivar, trips)], depth + 1, 0, 3)
        nxt = k.fresh("n")
        k.emit(indent + 1, f"{nxt} = {_value_like(k, indent + 1, inner, carry)}")
        result = k.fresh("r")
        k.emit(indent + 1, f"{result} = pl.yield_({nxt})")
        pool[result] = pool[init]
        k.features.add("for:init_values")
    else:
        target = _pick(k, pool, ("Vec", "Acc"), rebind=True)
        k.emit(indent, f"for {ivar} in {rng}:")
        start = len(k.lines)
        _body(k, indent + 1, inner, [*loop_vars, (ivar, trips)], depth + 1, 0, 3)
        if target is not None:
            # plain rebinding of an outer name: SSA conversion must turn it into a carry
            k.emit(indent + 1, f"{target} = {_value_like(k, indent + 1, inner, target)}")
        elif "out" in k.frozen:
            k.emit(indent + 1, "pass")
        else:
            k.emit(indent + 1, f"out = pl.store({_pick(k, inner)}, [0, 0], out)")
        _pad_single(k, start, indent + 1)
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
            start = len(k.lines)
            _body(k, indent + 1, inner, loop_vars, depth + 1, 0, 2)
            k.emit(indent + 1, f"{target} = {_value_like(k, indent + 1, inner, target)}")
            _pad_single(k, start, indent + 1)
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
    head = [
        "import pl",
        "",
        "",
        "@pl.program",
        "class Generated:",
        "    @pl.function(type=pl.FunctionType.InCore)",
        f"    def kernel(self, x: {tensor}, y: {tensor}, out: pl.Out[{tensor}],",
        f"               m: pl.Scalar[pl.INDEX]) -> {tensor}:",
    ]
    tail = [
        "",
        "    @pl.function(type=pl.FunctionType.Orchestration)",
        f"    def main(self, x: {tensor}, y: {tensor}, out: pl.Out[{tensor}],",
        f"             m: pl.Scalar[pl.INDEX]) -> {tensor}:",
        "        out = self.kernel(x, y, out, m)",
        "        return out",
    ]
    return GeneratedProgram("\n".join(head + k.lines + tail) + "\n", tuple(sorted(k.features)))


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


def _tensor_kernel(d: _Dims, draw: st.DrawFn, feats: set[str]) -> list[str]:
    sliced = draw(st.booleans())
    carried = draw(st.booleans())
    lhs_dir = draw(st.sampled_from(("In", "In", "InOut")))
    post = draw(st.sampled_from(("", "", "pl.add(c_n, c_n)", "pl.mul(c_n, 0.5)", "pl.exp(c_n)")))
    rhs_t = d.t(d.k, d.n if sliced else d.nb)
    lhs_t = d.t(d.m, d.k) if lhs_dir == "In" else f"pl.InOut[{d.t(d.m, d.k)}]"
    feats.update({f"rhs:{'sliced' if sliced else 'whole'}", f"loop:{'carry' if carried else 'rebind'}",
                  f"lhs:{lhs_dir}"} | ({"post"} if post else set()))
    body = ["    @pl.function(type=pl.FunctionType.InCore)",
            f"    def kernel(self, lhs: {lhs_t}, rhs: {rhs_t}, out: pl.Out[{d.t(d.m, d.n)}])"
            f" -> {d.t(d.m, d.n)}:"]
    ind = "            "
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
    if carried:
        body += [f"{ind}acc_next = pl.assemble(acc, c_n, [0, n])",
                 f"{ind}result = pl.yield_(acc_next)",
                 "        return result"]
    else:
        body += [f"{ind}out = pl.assemble(out, c_n, [0, n])", "        return out"]
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
