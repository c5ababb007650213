"""Printed names for Vars: the disambiguation rule of dsl.md section 2.

Guarantees: within one function, distinct Vars always print distinct names. Names are assigned in
the reference's order (params, then definitions in pre-order - a for loop's loop var, return vars,
iter args; an if's return vars before its branches - then uses); a name hint held by one Var only
is kept as is and reserved first, every colliding Var takes the first free of `name`, `name_1`,
`name_2`, ... . A Var used in the body but defined nowhere prints as `name__FREE_VAR`. Vars that
appear as dimensions inside types (dynamic dims) are named once for the whole program.
A function's body is walked once (`collect`) for both its dynamic dims and its local names.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from pl.ir.expr import Call, Expr, GlobalVar, Var
from pl.ir.function import Function
from pl.ir.stmt import (
    AssignStmt,
    ForStmt,
    Stmt,
)
from pl.ir.traverse import stmt_defs, stmt_exprs, type_exprs, walk_exprs, walk_stmts
from pl.ir.types import Type

FREE_SUFFIX = "__FREE_VAR"


def _append_vars(exprs: Iterable[Expr], out: list[Var], callees: dict[str, None] | None = None) -> None:
    """Appends every Var occurrence in the expressions to `out`, left to right, pre-order (it
    walks them with pl.ir.traverse.walk_exprs), and (if given) the names of the program functions
    they call to `callees`, in order of first call."""
    for root in exprs:
        for e in walk_exprs(root):
            if isinstance(e, Var):
                out.append(e)
            elif callees is not None and type(e) is Call and isinstance(e.op, GlobalVar):
                callees.setdefault(e.op.name, None)


class Collector:
    """Definitions and uses of one body, in the reference's pre-order (a statement's definitions,
    then the uses in its expressions - `pl.ir.traverse.stmt_exprs`, then a loop's attrs - then its
    bodies), and the program functions it calls (`callees`, in order of first call, from the same
    walk; a loop's attrs call none)."""

    def __init__(self) -> None:
        self.defs: list[Var] = []
        self.uses: list[Var] = []
        self.types: list[Type] = []
        self._callees: dict[str, None] = {}

    @property
    def callees(self) -> list[str]:
        return list(self._callees)

    def define(self, vs: Iterable[Var]) -> None:
        for v in vs:
            self.defs.append(v)
            self.types.append(v.type)

    def body(self, body: Stmt) -> None:
        """Every statement of `body`, pre-order (pl.ir.traverse.walk_stmts)."""
        defs, types, uses, callees = self.defs, self.types, self.uses, self._callees
        for s in walk_stmts(body):
            if type(s) is AssignStmt:  # most statements: without the match below
                var = s.var
                defs.append(var)
                types.append(var.type)
                _append_vars((s.value,), uses, callees)
            else:
                self._definitions(s)
                _append_vars(stmt_exprs(s), uses, callees)
                if type(s) is ForStmt and s.attrs:
                    # A loop's attrs may hold expressions (`attrs={"k": n}`) that `stmt_exprs`
                    # does not list; a Var there still needs its printed name (free, colliding).
                    _append_vars([v for _, v in s.attrs if isinstance(v, Expr)], uses)

    def _definitions(self, s: Stmt) -> None:
        """The Vars `s` binds, in the reference's order (loop var, return vars, iter args)."""
        self.define(stmt_defs(s))


def unique_names(order: Sequence[Var]) -> dict[Var, str]:
    """The reference's BuildRenameMapForDefs over Vars in first-seen order."""
    seen = dict.fromkeys(order)  # first-seen order
    counts = Counter(v.name for v in seen)
    used = {name for name, count in counts.items() if count == 1}
    out: dict[Var, str] = {}
    for v in seen:
        if counts[v.name] == 1:
            out[v] = v.name
            continue
        candidate, n = v.name, 0
        while candidate in used:
            n += 1
            candidate = f"{v.name}_{n}"
        used.add(candidate)
        out[v] = candidate
    return out


def collect(f: Function) -> Collector:
    """The definitions, uses and defined types of `f`'s body (one walk, shared by the users below)."""
    c = Collector()
    c.body(f.body)
    return c


def dynamic_dims(functions: Iterable[Function], collected: Sequence[Collector] | None = None) -> dict[Var, str]:
    """Names of the Vars used as dims in types anywhere in the functions (program-wide);
    `collected`: `collect(f)` of each function, if the caller has it already."""
    order: list[Var] = []
    # Equal types hold the same dim Vars (Vars compare by identity), and only the first
    # occurrence of a Var counts in `unique_names`, so each distinct type is walked once.
    # Most definitions share their type object with others: those skip even the (deep) hash.
    seen: set[Type] = set()
    seen_objects: set[int] = set()  # ids of types alive in `functions` for the whole call
    functions = list(functions)
    if collected is None:
        collected = [collect(f) for f in functions]
    for f, c in zip(functions, collected, strict=True):
        for t in (*(p.type for p in f.params), *f.return_types, *c.types):
            if id(t) in seen_objects:
                continue
            seen_objects.add(id(t))
            if t not in seen:
                seen.add(t)
                _append_vars(type_exprs(t), order)
    return unique_names(order)


class Names:
    """Printed names of one function's Vars (plus the program's dynamic dims)."""

    def __init__(self, local: dict[Var, str], dyn: dict[Var, str], free: set[Var]) -> None:
        self._local = local
        self._dyn = dyn
        self._free = free

    @classmethod
    def for_function(cls, f: Function, dyn: dict[Var, str], collected: Collector | None = None) -> Names:
        c = collect(f) if collected is None else collected
        defined = set(f.params) | set(c.defs)
        uses = [u for u in c.uses if u not in dyn] if dyn else c.uses
        free = set(uses).difference(defined)
        local = unique_names([*f.params, *c.defs, *uses])
        return cls(local, dyn, free)

    def __call__(self, v: Var) -> str:
        name = self._local.get(v)
        if name is None:
            name = self._dyn.get(v)
            if name is not None:
                return name  # a dynamic dim is never free
            name = v.name
        return name + FREE_SUFFIX if v in self._free else name


__all__ = ["FREE_SUFFIX", "Collector", "Names", "collect", "dynamic_dims", "unique_names"]
