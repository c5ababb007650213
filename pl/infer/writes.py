"""Which statements of a function body write a tile's buffer in place (the op table's effects).

A tile value names a buffer, and an in-place op (`OpDef.inplace_args`: tile.write, fillpad_inplace,
scatter_update, assemble, ...) or a call of a program function with an Out / InOut Tile parameter
changes that buffer, so every later reader of it reads the new
contents (the interpreter runs it that way, as the hardware does). Several values share one buffer:
an alias `y = x`, a view of it (`OpDef.is_buffer_view`: slice, reshape, ...), the result of an
in-place op on it, a loop's iter arg, its initial value and what the body yields for it, an if's
phi and its yields. Those form one buffer class here (more values than the interpreter shares at
any one time: a class only ever costs a copy, never a result).

Guarantees: `in_place_writes(body, sites, callees)` is None when no call of the body writes a tile in place
(most functions: nothing else to pay), else an `InPlaceWrites` whose `written(stmt)` gives the
classes a statement writes anywhere inside it, and `same_buffer(v, classes)` whether a value is in
one of them. Nothing is mutated; keys are Var objects (identity).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from pl.infer.common import CallSite, nested_calls, op_facts, top_level_call
from pl.ir.enums import ParamDirection
from pl.ir.expr import Call, GlobalVar, Var
from pl.ir.function import Program
from pl.ir.stmt import AssignStmt, ForStmt, IfStmt, Stmt, WhileStmt
from pl.ir.traverse import child_bodies, last_yield, walk_stmts
from pl.ir.types import TileType


def _tile_var(e: object) -> Var | None:
    return e if isinstance(e, Var) and isinstance(e.type, TileType) else None


# Program function name -> the positions of its Out / InOut Tile parameters (a call writes those
# arguments: the callee's writes reach the caller's tile, docs/tile_params.md).
CalleeWrites = Mapping[str, tuple[int, ...]]


def callee_writes(program: Program) -> CalleeWrites:
    """The `CalleeWrites` of a program's functions."""
    return {f.name: written for f in program.functions
            if (written := tuple(i for i, (p, d) in enumerate(zip(f.params, f.directions,
                                                                  strict=True))
                                 if isinstance(p.type, TileType) and d is not ParamDirection.In))}


def writes_of(call: Call, callees: CalleeWrites) -> tuple[int, ...]:
    """The arguments `call` writes in place: an op's `inplace_args`, a program function's Out /
    InOut Tile parameters."""
    if type(call.op) is GlobalVar:
        return callees.get(call.op.name, ())
    op = op_facts(call)[0]
    return op.inplace_args if op is not None else ()


class InPlaceWrites:
    def __init__(self, body: Stmt, callees: CalleeWrites) -> None:
        self.callees = callees
        self.parent: dict[Var, Var] = {}
        self._written: dict[int, frozenset[Var]] = {}
        for s in walk_stmts(body):
            self._join(s)
        self._collect(body)

    def root(self, v: Var) -> Var:
        while True:
            p = self.parent.get(v)
            if p is None or p is v:
                return v
            v = p

    def _union(self, a: object, b: object) -> None:
        va, vb = _tile_var(a), _tile_var(b)
        if va is not None and vb is not None:
            ra, rb = self.root(va), self.root(vb)
            if ra is not rb:
                self.parent[ra] = rb

    def _join(self, s: Stmt) -> None:
        """The buffer-sharing edges `s` makes (module doc)."""
        if isinstance(s, AssignStmt):
            value = s.value
            if isinstance(value, Var):
                self._union(s.var, value)
                return
            call = top_level_call(s)
            op = op_facts(call)[0] if call is not None else None
            if call is None or op is None or not call.args:
                return
            if op.is_buffer_view:
                self._union(s.var, call.args[0])
            for i in op.inplace_args:
                if i < len(call.args):
                    self._union(s.var, call.args[i])
        elif isinstance(s, (ForStmt, WhileStmt)):
            y = last_yield(s.body)
            for i, ia in enumerate(s.iter_args):
                self._union(ia, ia.init)
                if y is not None and i < len(y.values):
                    self._union(ia, y.values[i])
                if i < len(s.return_vars):
                    self._union(ia, s.return_vars[i])
        elif isinstance(s, IfStmt):
            for branch in (s.then_body, s.else_body):
                y = last_yield(branch)
                for rv, v in zip(s.return_vars, y.values if y is not None else (), strict=False):
                    self._union(rv, v)

    def _collect(self, s: Stmt) -> frozenset[Var]:
        """The classes (roots) `s` writes, memoised for every statement under it: by its
        top-level call and by the calls nested in its own expressions (`own_calls`)."""
        out: set[Var] = set()
        for call in own_calls(s):
            for i in writes_of(call, self.callees):
                v = _tile_var(call.args[i]) if i < len(call.args) else None
                if v is not None:
                    out.add(self.root(v))
        for child in child_bodies(s):
            out |= self._collect(child)
        got = self._written[id(s)] = frozenset(out)
        return got

    def written(self, s: Stmt) -> frozenset[Var]:
        return self._written.get(id(s), frozenset())

    def same_buffer(self, v: Var, classes: Iterable[Var]) -> bool:
        return self.root(v) in classes


def own_calls(s: Stmt) -> list[Call]:
    """The calls statement `s` evaluates itself: its top-level call, then those nested in its
    expressions (an op call in a tuple, an if's or while's condition, a loop header: the
    frontend keeps those where they are written, `common.nested_calls`)."""
    call = top_level_call(s)
    return [*((call,) if call is not None else ()), *nested_calls(s)]


def _writes_a_tile(call: Call, callees: CalleeWrites) -> bool:
    return any(i < len(call.args) and _tile_var(call.args[i]) is not None
               for i in writes_of(call, callees))


def in_place_writes(body: Stmt, sites: list[CallSite], callees: CalleeWrites
                    ) -> InPlaceWrites | None:
    """The body's `InPlaceWrites`, None when none of its calls (its top-level ones, `sites`,
    and those nested in an expression) writes a tile in place (`callees`: the program's
    `callee_writes`)."""
    if not any(_writes_a_tile(call, callees) for _, call, _, _ in sites) and \
            not any(_writes_a_tile(call, callees)
                    for s in walk_stmts(body) for call in nested_calls(s)):
        return None
    return InPlaceWrites(body, callees)
