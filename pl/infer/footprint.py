"""A function's on-chip footprint per memory space: the whole-function upper bound that residency's
capacity rule checks (pass.md 6, ops.md 13) and show_inferred reports, and the peak of live bytes
that capacity warnings check.

Guarantees:
- every value that owns an allocation counts once: a Tile parameter (it holds its space for the
  whole function) and a tile assigned from anything but a buffer view, a plain rename, or an op
  whose output reuses an input's buffer; a view or rename shares its source's buffer;
- a space's bytes are its owners' static sizes (4-bit dtypes packed) laid out one after another in
  definition order (parameters first), each end rounded up to 32 bytes, as a bump allocator that
  never frees would place them: an upper bound, since buffers whose lives do not overlap could
  share bytes;
- an owner whose shape is not static has size None, and its space is `unknown`: its bytes are then
  a lower bound;
- `Footprint.record` is the one rule; `function_footprint` walks a function with the IR's one
  traversal and feeds it, residency's inventory feeds it from its own visit of the body.

A second quantity, `peak_live_bytes(func)`, is what capacity warnings use: per space, the most
bytes held at once by owners that are live together (`PeakInfo`: the bytes, the statement where
they are reached, the owners live there). The same owners and the same 32-byte sizes as the
footprint; a space's peak is never more than its footprint. Its liveness is meant to make a
warning mean a real overflow whatever allocator reuses buffers, so where a rule has to guess it
guesses low; in code without loops or branches it guesses nowhere (no tiles live together are
missed, none is added):
- an owner is live from its defining statement to its last use, both included: a statement's
  operands and its result are live together (an op reads its inputs while writing its output; the
  ops that write in place are the ones marked `output_reuses_input`, which own no buffer);
- a value without a buffer of its own (a rename `y = x`, a view, an in-place op) is its source's
  buffer: a use of it is a use of that buffer (its source lives to the value's last use);
- liveness is computed backward over the statement tree, branch by branch: a value used only in
  an if's else branch is dead in its then branch (the branches are alternatives), which is exact;
- a use inside a loop of a value defined outside that loop keeps it live through the whole loop
  (the next iteration reads it again), which is exact;
- a loop-carried value (a loop's iter arg and return var) is its initial value's buffer, and an
  if's return var is the buffer of one branch's value (the one defined inside the if, else the
  then branch's): each is one buffer, as an allocator that places a carried value in place would
  have it; where a carried value could not share (its initial value still used after the loop
  while the loop yields fresh tiles) this counts one buffer too few, the low side;
- what a loop yields lives to the yield, and the carried value is live where it is used; the hand
  over between them (initial value to iter arg, yield to the next iteration) is no overlap;
- a Tile parameter is live for the whole function; an owner of dynamic shape adds no bytes where it
  is live, so a space with one has a peak that is a lower bound (`PeakInfo.unknown`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from typing_extensions import assert_never

from pl.ir.enums import MemorySpace
from pl.ir.expr import Call, Expr, Var
from pl.ir.function import Function
from pl.ir.span import Span
from pl.ir.stmt import (
    AssignStmt,
    BreakStmt,
    ContinueStmt,
    EvalStmt,
    ForStmt,
    IfStmt,
    ReturnStmt,
    ScopeStmt,
    SeqStmts,
    Stmt,
    WhileStmt,
    YieldStmt,
    flatten_body,
    stmt_kind,
)
from pl.ir.traverse import expr_children, stmt_defs, stmt_exprs, walk_exprs, walk_stmts
from pl.ir.types import TileType
from pl.ops.registry import get_op

ALIGN = 32  # bytes: every buffer of every space starts on a 32-byte boundary


def tile_bytes(t: TileType) -> int | None:
    """Static storage bytes of a tile (4-bit dtypes packed), None when a dim is not a constant > 0."""
    elems = 1
    for d in t.shape:
        value = getattr(d, "value", None)
        if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
            return None
        elems *= value
    return (elems * t.dtype.bits + 7) // 8


def owns_allocation(value: Expr) -> bool:
    """Whether `x = value` gives x a buffer of its own (not a rename, a view or an in-place op)."""
    return _shared_arg(value) is None


def buffer_source(value: Expr) -> Expr | None:
    """The expression whose buffer `x = value` shares: the renamed value, a view's source (arg 0),
    the argument an in-place op writes and returns; None when x owns a buffer."""
    index = _shared_arg(value)
    if index is None:
        return None
    if isinstance(value, Call):
        return value.args[index] if index < len(value.args) else None
    return value


def _shared_arg(value: Expr) -> int | None:
    """The argument whose buffer a call's result is (0 for a rename, which is its own source);
    None when the result owns a buffer."""
    if isinstance(value, Var):
        return 0
    if not isinstance(value, Call):
        return None
    op = get_op(value.op_name)
    if op is None:
        return None
    if op.output_reuses_input is not None:
        return op.output_reuses_input
    return 0 if op.is_buffer_view else None


@dataclass
class SpaceFootprint:
    """One space's owners (each with its static bytes, None when dynamic) and their layout."""

    owners: list[tuple[Var, int | None]] = field(default_factory=list)
    bytes: int = 0          # the end of the last owner laid out (sizes of dynamic owners left out)

    @property
    def unknown(self) -> bool:
        """Some owner's size is not static: `bytes` is a lower bound."""
        return any(size is None for _, size in self.owners)


@dataclass
class Footprint:
    """The footprint of one function, space by space (only spaces with an owner appear)."""

    spaces: dict[MemorySpace, SpaceFootprint] = field(default_factory=dict)

    def record(self, var: Var, value: Expr | None) -> MemorySpace | None:
        """Count `var = value` (`value` None: `var` is a Tile parameter) when it owns a buffer of
        a known space; return that space, or None when nothing was counted."""
        t = var.type
        if not isinstance(t, TileType) or t.memory_space is None \
                or (value is not None and not owns_allocation(value)):
            return None
        space = self.spaces.setdefault(t.memory_space, SpaceFootprint())
        size = tile_bytes(t)
        space.owners.append((var, size))
        if size is not None:
            space.bytes = -(-(space.bytes + size) // ALIGN) * ALIGN
        return t.memory_space

    def bytes_in(self, space: MemorySpace) -> int:
        found = self.spaces.get(space)
        return found.bytes if found is not None else 0


def function_footprint(func: Function) -> Footprint:
    """The footprint of `func` after inference (tiles without a memory space are not counted)."""
    out = Footprint()
    for p in func.params:
        out.record(p, None)
    for stmt in walk_stmts(func.body):
        if isinstance(stmt, AssignStmt):
            out.record(stmt.var, stmt.value)
    return out


@dataclass(frozen=True)
class PeakInfo:
    """The most bytes of one space live at once in a function (see the module docstring)."""

    bytes: int                                  # the live owners' sizes, each rounded up to 32
    span: Span                                  # the statement where they are live (the first)
    owners: tuple[tuple[Var, int | None], ...]  # the owners live there, in definition order
    unknown: bool = False   # an owner of the space has a dynamic size: the peak is a lower bound


def peak_live_bytes(func: Function) -> dict[MemorySpace, PeakInfo]:
    """Per space with an owner, the peak of live bytes of `func` after inference."""
    return footprint_and_peaks(func)[1]


def footprint_and_peaks(func: Function) -> tuple[Footprint, dict[MemorySpace, PeakInfo]]:
    """`function_footprint(func)` and `peak_live_bytes(func)` from one walk of the body, for a
    caller that needs both (the liveness records the footprint's owners as it finds them)."""
    found = _Liveness(func)
    peaks = {}
    for space, (total, _, span, buffers) in found.best.items():
        owners = sorted((o for o in buffers if found.space[o] is space), key=found.order.__getitem__)
        peaks[space] = PeakInfo(total, span, tuple((o, found.size[o]) for o in owners),
                                found.footprint.spaces[space].unknown)
    return found.footprint, peaks


def _var_uses(exprs: tuple[Expr, ...]) -> set[Var]:
    return {v for e in exprs for v in walk_exprs(e) if isinstance(v, Var)}


class _Liveness:
    """One function's buffers (the footprint's owners), what each value's buffer is, and the live
    owners at every statement, found by one backward visit of the body."""

    def __init__(self, func: Function) -> None:
        fp = self.footprint = Footprint()
        self.order: dict[Var, int] = {}        # owner -> definition order (parameters first)
        self.size: dict[Var, int | None] = {}
        self.aligned: dict[Var, int] = {}      # owner -> bytes it holds (0 when dynamic)
        self.space: dict[Var, MemorySpace] = {}
        self.link: dict[Var, Var] = {}         # a value without a buffer -> the value it shares
        self.params: set[Var] = set()
        for p in func.params:
            if self._record(fp, p, None):
                self.params.add(p)
        for s in walk_stmts(func.body):
            k = stmt_kind(s)
            if isinstance(k, AssignStmt):
                if not self._record(fp, k.var, k.value):
                    source = buffer_source(k.value)
                    if isinstance(source, Var):
                        self._link(k.var, source)
            elif isinstance(k, ForStmt | WhileStmt):
                for n, ia in enumerate(k.iter_args):
                    if isinstance(ia.init, Var):
                        self._link(ia, ia.init)
                        if n < len(k.return_vars):
                            self._link(k.return_vars[n], ia.init)
            elif isinstance(k, IfStmt) and k.return_vars:
                self._link_if(k)
        self.root: dict[Var, Var | None] = {}  # a linked value -> its owner (None: no buffer)
        for v in self.link:
            self._resolve(v)
        # Every value liveness follows -> the owner whose buffer it is.
        self.buffer = {o: o for o in self.order}
        self.buffer.update((v, o) for v, o in self.root.items() if o is not None)
        # Per space, the most bytes so far: (bytes, (line, column), span, the buffers live there).
        self.best: dict[MemorySpace, tuple[int, tuple[int, int], Span, set[Var]]] = {}
        entry = self._body(func.body, set(), None) if func.body is not None else set()
        self._point(entry, func.span)

    def _record(self, fp: Footprint, var: Var, value: Expr | None) -> bool:
        space = fp.record(var, value)
        if space is None:
            return False
        self.order[var] = len(self.order)
        size = self.size[var] = fp.spaces[space].owners[-1][1]
        self.aligned[var] = 0 if size is None else -(-size // ALIGN) * ALIGN
        self.space[var] = space
        return True

    def _link(self, var: Var, shared: Var) -> None:
        if isinstance(var.type, TileType):  # only a tile can be an owner's buffer
            self.link[var] = shared

    def _link_if(self, k: IfStmt) -> None:
        """An if's return var is the buffer of the value one branch yields: the first defined
        inside the if (a buffer the branch made), else the first branch's."""
        yields = [last for body in (k.then_body, k.else_body)
                  for last in flatten_body(body)[-1:] if isinstance(last, YieldStmt)]
        made = {v for body in (k.then_body, k.else_body) for b in walk_stmts(body)
                for v in stmt_defs(b)}
        for n, rv in enumerate(k.return_vars):
            values = [v for y in yields for v in y.values[n:n + 1] if isinstance(v, Var)]
            inside = [v for v in values if v in made]
            if values:
                self._link(rv, (inside or values)[0])

    def _resolve(self, v: Var) -> None:
        """Map `v` and the values it links through to the owner whose buffer they are (None when
        the chain ends elsewhere), following links without recursion."""
        path: list[Var] = []
        on_path: set[Var] = set()
        cur: Var | None = v
        while cur is not None and cur not in self.root and cur not in self.order:
            if cur in on_path:  # not in SSA form: no buffer rather than a loop
                cur = None
                break
            path.append(cur)
            on_path.add(cur)
            cur = self.link.get(cur)
        found = None if cur is None else cur if cur in self.order else self.root[cur]
        for p in path:
            self.root[p] = found

    def _held(self, values: set[Var]) -> set[Var]:
        """Those of `values` that are a buffer or share one (the values liveness follows)."""
        return {v for v in values if v in self.buffer}

    def _uses(self, s: Stmt) -> set[Var]:
        """The values `s` reads that liveness follows. (A stack over `expr_children` rather than
        `walk_exprs`: a generator per statement took a sixth of the liveness walk at 5,000
        statements.)"""
        buffer, out = self.buffer, set()
        stack = list(stmt_exprs(s))
        while stack:
            e = stack.pop()
            if isinstance(e, Var):
                if e in buffer:
                    out.add(e)
            else:
                stack.extend(expr_children(e))
        return out

    def _point(self, live: set[Var], span: Span) -> None:
        """Weigh the buffers of the values `live` (and the parameters) at a statement against each
        space's peak so far; a tie keeps the earlier statement."""
        buffers = {self.buffer[v] for v in live} | self.params
        totals: dict[MemorySpace, int] = {}
        for owner in buffers:
            space = self.space[owner]
            totals[space] = totals.get(space, 0) + self.aligned[owner]
        at = (span.line, span.col)
        for space, total in totals.items():
            best = self.best.get(space)
            if best is None or total > best[0] or (total == best[0] and at <= best[1]):
                self.best[space] = (total, at, span, buffers)

    def _body(self, body: Stmt, live_out: set[Var], loop: tuple[set[Var], set[Var]] | None
              ) -> set[Var]:
        """The owners live before `body`, given those live after it; weighs every statement.
        `loop` is the innermost enclosing loop's (live at its body's end, live after it)."""
        live = live_out
        for s in reversed(flatten_body(body)):
            live = self._stmt(s, live, loop)
        return live

    def _stmt(self, s: Stmt, live_out: set[Var], loop: tuple[set[Var], set[Var]] | None
              ) -> set[Var]:
        k = stmt_kind(s)
        match k:
            case AssignStmt() | EvalStmt() | YieldStmt():
                uses = self._uses(k)
                defined = self._held({k.var}) if isinstance(k, AssignStmt) else set()
                self._point(live_out | uses | defined, k.span)
                return (live_out - defined) | uses
            case ReturnStmt():
                live = self._uses(k)      # nothing after a return runs
            case BreakStmt():
                live = set() if loop is None else loop[1]
            case ContinueStmt():
                live = set() if loop is None else loop[0]
            case SeqStmts():
                return self._body(k, live_out, loop)
            case IfStmt():
                after = live_out - set(k.return_vars)   # the branches' yields define them
                live = self._uses(k) | self._body(k.then_body, after, loop) \
                    | (after if k.else_body is None else self._body(k.else_body, after, loop))
            case ForStmt() | WhileStmt():
                # Live at the body's end: what is live after the loop, and every buffer the body
                # uses that is not made in it (the next iteration reads it again).
                inner = list(walk_stmts(k.body))
                made = {v for b in inner for v in stmt_defs(b)} | set(stmt_defs(k))
                used = {v for b in inner for v in _var_uses(stmt_exprs(b))}
                if isinstance(k, WhileStmt):
                    used |= _var_uses((k.condition,))
                after = live_out - set(k.return_vars)
                end = after | self._held(used - made)
                entry = self._body(k.body, end, (end, after)) - set(k.iter_args)
                live = self._uses(k) | after | entry
            case ScopeStmt():
                live = self._uses(k) | self._body(k.body, live_out, loop)  # a task id: no tile
            case _:
                assert_never(k)
        self._point(live, k.span)
        return live
