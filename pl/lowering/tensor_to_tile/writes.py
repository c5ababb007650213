"""Writes to GM tensors inside an InCore function keep their meaning, or the kernel is rejected.

ConvertTensorToTileOps turns some tensor values of an InCore function into on-chip copies of GM
storage: a `pl.slice` (or reshape, transpose, ...) of a GM tensor becomes a `tile.load` taken where
the slice stands (the reference language docs: "inside an InCore scope `pl.slice` yields a Tile"),
and a tensor parameter that a converted op reads whole is loaded once at function entry. The
source, and `pl.interpret`, read those values as views of the GM tensor. The two meanings differ
exactly when GM storage is written while a copy of it is in use, so `check_gm_writes` raises a
PlError located at the offending statement for:

* a write into such a copy (by any op whose effects column declares a write: `pl.write`,
  `pl.assemble`, ...; or as the Out / InOut actual of a call): it would change the on-chip copy
  only, never the GM tensor;
* a read of a copy after its GM tensor was written, later in program order or in a later
  iteration of an enclosing loop: the copy still holds the values from before the write.

`loaded_merges` names the merges (loop carries, if results) the conversion made tiles by loading a
GM tensor flowing into them: the merged value is then a copy of every GM tensor that flows in,
taken at the merge (for a loop, again at the end of each iteration).

Guarantees: the check only reads the body; a function it accepts is converted as before. Loops are
walked twice (the second walk stands for every later iteration; loops nested in it once, so a body
at nesting depth d is walked at most d + 1 times); the branches of an `if` start from the same
state and their writes are merged after it.
"""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from typing_extensions import assert_never

from pl.errors import PlError
from pl.ir.expr import Call, ConstInt, Expr, GlobalVar, IterArg, Var
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
from pl.ir.traverse import walk_exprs
from pl.ir.types import TensorType
from pl.lowering.tensor_to_tile.convert import PASSTHROUGH
from pl.ops.registry import get_op


@dataclass(frozen=True)
class _Gm:
    """A value backed by the GM tensor `roots[0]`; `copy` is where its on-chip copy was taken
    (None: the GM tensor itself), `seq` when (in walk order) that copy was taken. A copy taken at
    a merge (`merged`) may hold any of several GM tensors (`roots`)."""

    roots: tuple[Var, ...]
    copy: Span | None
    seq: int
    merged: bool = False

    @property
    def root(self) -> Var:
        return self.roots[0]


def _vars(e: Expr | None) -> list[Var]:
    return [] if e is None else [x for x in walk_exprs(e) if isinstance(x, Var)]


def _gm_value(info: Mapping[int, _Gm], args: tuple[Expr, ...]) -> bool:
    """Whether some argument is backed by a GM tensor (only such a call can write one)."""
    for a in args:
        if id(a) in info:
            return True
    return False


def _name(v: Expr) -> str:
    name = v.name if isinstance(v, Var) else "the value"
    return name.split("__", 1)[0] or name


def _taken(g: _Gm) -> str:
    assert g.copy is not None
    if g.merged:
        return f"loaded at line {g.copy.line}, where it flows into one value with a tile"
    return "loaded at function entry" if g.seq == 0 else f"taken at line {g.copy.line}"


def _why(g: _Gm) -> str:
    if g.merged:
        return ("a loop carry or an if result that is a tile on one path and a GM tensor on "
                "another holds a tile, so the tensor is loaded where it flows in")
    return ("inside an InCore function a slice of a GM tensor, or a tensor parameter an op reads "
            "whole, is loaded on chip where it is taken")


class _Checker:
    def __init__(self, f: Function, entry_loaded: set[int],
                 callee_writes: Mapping[str, tuple[int, ...]],
                 loaded_merges: AbstractSet[int], aliases: AbstractSet[frozenset[int]]) -> None:
        self.callee_writes = callee_writes
        self.loaded_merges = loaded_merges
        self.repeating = False  # inside the walk that stands for a loop's later iterations
        self.seq = 0
        self.info: dict[int, _Gm] = {}
        # Whether an on-chip copy exists yet: until one does, no read can be stale.
        self.copies = False
        # id of a GM tensor -> (when, where, which tensor the write named): a write through a
        # parameter a call site aliases with others (`aliases`) is a write of each of them too.
        self.last_write: dict[int, tuple[int, Span, Var]] = {}
        self.aliased: dict[int, list[Var]] = {}
        self.slices: set[int] = set()  # ids of the vars a tensor.slice of GM storage binds
        self.retake: set[tuple[int, int]] = set()  # see `reads`
        for pair in aliases:
            i, j = sorted(pair)
            self.aliased.setdefault(id(f.params[i]), []).append(f.params[j])
            self.aliased.setdefault(id(f.params[j]), []).append(f.params[i])
        for p in f.params:
            if isinstance(p.type, TensorType):
                self.info[id(p)] = _Gm((p,), f.span if id(p) in entry_loaded else None, 0)
        self.copies = any(g.copy is not None for g in self.info.values())

    def tick(self) -> int:
        self.seq += 1
        return self.seq

    # ---- statements ------------------------------------------------------------------------------
    def body(self, s: Stmt | None) -> None:
        for x in flatten_body(s):
            self.stmt(x)

    def stmt(self, stmt: Stmt) -> None:
        s = stmt_kind(stmt)
        match s:
            case AssignStmt():
                self.reads(s.value, s.span, s)
                self.value(s.var, s.value, s.span)
            case EvalStmt():
                self.reads(s.expr, s.span, s)
                self.value(None, s.expr, s.span)
            case ForStmt() | WhileStmt():
                merged = [i for i, ia in enumerate(s.iter_args) if id(ia) in self.loaded_merges]
                for ia in s.iter_args:
                    self.reads(ia.init, s.span)
                    self.alias(ia, ia.init)
                    if id(ia) in self.loaded_merges:
                        self.merge_copy(ia, [ia.init], s.span)
                if isinstance(s, ForStmt):
                    for e in (s.start, s.stop, s.step):
                        self.reads(e, s.span)
                # The second walk stands for every later iteration. Inside it the writes of the
                # whole enclosing iteration are already recorded, so nested loops are walked once
                # (keeping the walk linear in the nesting depth).
                outer = self.repeating
                for walk in range(1 if outer else 2):
                    self.repeating = outer or walk == 1
                    if isinstance(s, WhileStmt):
                        self.reads(s.condition, s.span)
                    self.body(s.body)
                    # The next iteration (and the loop's result) may hold a yielded GM tensor.
                    yielded = _yielded(s.body)
                    for i in merged:
                        ia = s.iter_args[i]
                        self.merge_copy(ia, [ia, *yielded[i:i + 1]], s.span)
                self.repeating = outer
                runs = _runs_at_least_once(s)
                for i, (ia, rv) in enumerate(zip(s.iter_args, s.return_vars, strict=False)):
                    if i in merged and runs:
                        # Its initial value (often SSA's stand-in for a value first bound in
                        # the loop) never reaches the result of a loop that surely runs.
                        self.merge_copy(rv, list(yielded[i:i + 1]), s.span)
                    else:
                        self.alias(rv, ia)
            case IfStmt():
                self.reads(s.condition, s.span)
                before = dict(self.last_write)
                self.body(s.then_body)
                after_then, self.last_write = self.last_write, before
                self.body(s.else_body)
                for key, w in after_then.items():
                    if key not in self.last_write or self.last_write[key][0] < w[0]:
                        self.last_write[key] = w
                branches = [_yielded(s.then_body), _yielded(s.else_body)]
                for values in branches:
                    for rv, value in zip(s.return_vars, values, strict=False):
                        if id(rv) not in self.info:
                            self.alias(rv, value)
                for i, rv in enumerate(s.return_vars):
                    if id(rv) in self.loaded_merges:
                        self.merge_copy(rv, [v[i] for v in branches if i < len(v)], s.span)
            case YieldStmt() | ReturnStmt():
                for v in s.values:
                    self.reads(v, s.span)
            case ScopeStmt():
                self.body(s.body)
            case SeqStmts():
                self.body(s)
            case BreakStmt() | ContinueStmt():
                pass
            case _:
                assert_never(s)

    # ---- values ----------------------------------------------------------------------------------
    def alias(self, new: Var, source: Expr | None) -> None:
        g = self.info.get(id(source)) if isinstance(source, (Var, IterArg)) else None
        if g is not None:
            self.info[id(new)] = g

    def merge_copy(self, merge: Var, values: list[Expr], span: Span) -> None:
        """`merge` holds an on-chip copy, taken now, of the GM tensors behind `values`."""
        roots: list[Var] = []
        for v in values:
            g = self.info.get(id(v))
            if g is not None:
                roots.extend(r for r in g.roots if all(r is not x for x in roots))
        if roots:
            self.info[id(merge)] = _Gm(tuple(roots), span, self.tick(), merged=True)
            self.copies = True

    def written(self, call: Call) -> tuple[int, ...]:
        """The args a call writes: an op's from the op table, a function's Out / InOut params."""
        if isinstance(call.op, GlobalVar):
            return self.callee_writes.get(call.op.name, ())
        op = get_op(call.op.name)
        return op.written_args if op is not None else ()

    def value(self, var: Var | None, value: Expr, span: Span) -> None:
        """A statement's value: its writes (`effect`), then what `var` (when given) is bound to
        (`define`). Only a call with an argument backed by a GM tensor can write or bind one, so
        no other call is looked up."""
        if not isinstance(value, Call):
            if var is not None:
                self.alias(var, value)
            return
        if not _gm_value(self.info, value.args):
            return
        self.effect(value, span)
        if var is not None:
            self.define(var, value, span)

    def define(self, var: Var, value: Call, span: Span) -> None:
        """`var` bound to the call `value`: backed by the GM tensor the call writes and returns,
        or by the one its first argument is backed by (an inheriting tensor op: a view, copied on
        chip here unless the op stays a tensor op)."""
        if isinstance(var.type, TensorType):
            written = [i for i in self.written(value) if i < len(value.args)]
            if written:
                self.alias(var, value.args[written[0]])  # the written tensor, returned
                return
        g = self.info.get(id(value.args[0]))
        op = None if isinstance(value.op, GlobalVar) else get_op(value.op.name)
        if g is not None and op is not None and op.level == "tensor" and op.inherits_input:
            if g.copy is None and value.op.name not in PASSTHROUGH:
                g = _Gm(g.roots, span, self.tick())  # loaded on chip right here
                self.copies = True
                if value.op.name == "tensor.slice":
                    self.slices.add(id(var))
            self.info[id(var)] = g

    def effect(self, e: Call, span: Span) -> None:
        for i in self.written(e):
            g = self.info.get(id(e.args[i])) if i < len(e.args) else None
            if g is None:
                continue
            if g.copy is not None:
                raise PlError(
                    f"{e.op.name} writes `{_name(e.args[i])}`, an on-chip copy of the GM tensor "
                    f"`{_name(g.root)}` {_taken(g)}: {_why(g)}, so this write would never "
                    f"reach `{_name(g.root)}`. Write "
                    f"`{_name(g.root)}` itself (pl.assemble({_name(g.root)}, tile, offsets)), or "
                    "keep the value on chip explicitly with pl.load / pl.store", span)
            write = (self.tick(), span, g.root)
            self.last_write[id(g.root)] = write
            for other in self.aliased.get(id(g.root), ()):
                self.last_write[id(other)] = write

    def reads(self, e: Expr | None, span: Span, stmt: Stmt | None = None) -> None:
        """A read of the values in `e`, in the statement `stmt` when it is an assignment or an
        evaluation: a stale copy read there that a slice took of a parameter whose alias was
        written is taken again right there (`retake`); any other stale copy is an error."""
        if not self.copies:
            return  # no on-chip copy yet, so none read here can miss a write
        for v in _vars(e):
            g = self.info.get(id(v))
            if g is None or g.copy is None:
                continue
            written = [(self.last_write[id(r)], r) for r in g.roots if id(r) in self.last_write]
            if not written:
                continue
            write, root = max(written, key=lambda w: w[0][0])
            if write[0] > g.seq and write[2] is not root and stmt is not None \
                    and id(v) in self.slices:
                self.retake.add((id(stmt), id(v)))
            elif write[0] > g.seq:
                what = f"`{_name(root)}` was written" if write[2] is root else (
                    f"`{_name(write[2])}` was written (a call of this function passes the "
                    f"same tensor as `{_name(root)}` and `{_name(write[2])}`)")
                raise PlError(
                    f"`{_name(v)}` is an on-chip copy of the GM tensor `{_name(root)}` "
                    f"{_taken(g)}, read here after {what} at line "
                    f"{write[1].line}: {_why(g)}, so it would not see the write. "
                    + ("Read the value before the write, or load what you need after it "
                       "(pl.load)" if g.merged else "Take the slice after the write (inside the "
                       "loop), or read the values before writing"), span)


def _runs_at_least_once(s: ForStmt | WhileStmt) -> bool:
    """Whether the loop `s` has a static trip count of at least one."""
    if not isinstance(s, ForStmt):
        return False
    bounds = [e.static_int() if isinstance(e, ConstInt) else None for e in (s.start, s.stop, s.step)]
    start, stop, step = bounds
    return start is not None and stop is not None and step is not None and step != 0 \
        and len(range(start, stop, step)) > 0


def _yielded(body: Stmt | None) -> tuple[Expr, ...]:
    """The values the trailing yield of `body` gives (none without one)."""
    last = flatten_body(body)[-1:] if body is not None else []
    return last[0].values if last and isinstance(last[0], YieldStmt) else ()


def check_gm_writes(f: Function, body: Stmt, entry_loaded: set[int],
                    callee_writes: Mapping[str, tuple[int, ...]],
                    loaded_merges: AbstractSet[int] = frozenset(),
                    aliases: AbstractSet[frozenset[int]] = frozenset()
                    ) -> frozenset[tuple[int, int]]:
    """Reject (PlError) a write or a read whose meaning the on-chip copies would change.
    `callee_writes`: the Out / InOut param positions of each program function (a call writes those
    actuals); `loaded_merges`: see the module docstring; `aliases`: the pairs of parameter
    positions a call site passes one tensor through (lowering/tensor_to_tile/aliases.py).

    Returns the reads to take again: (id of the statement, id of the var a slice bound) for each
    read, in an assignment or evaluation, of a slice of a parameter taken before a write through
    a parameter a call site aliases it with (the conversion loads the slice again right before
    that statement, where the source reads it)."""
    checker = _Checker(f, entry_loaded, callee_writes, loaded_merges, aliases)
    checker.body(body)
    return frozenset(checker.retake)
