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
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from pl.ir.expr import (
    BinaryExpr,
    Call,
    ConstBool,
    ConstFloat,
    ConstInt,
    Expr,
    GlobalVar,
    MakeTuple,
    TupleGetItem,
    UnaryExpr,
    Var,
)
from pl.ir.function import Function
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
)
from pl.ir.types import TensorType, TileType, TupleType, Type

FREE_SUFFIX = "__FREE_VAR"


def expr_children(e: Expr) -> Iterator[Expr]:
    """Direct sub-expressions, in printing order (kwarg and attr Expr values included)."""
    match e:
        case BinaryExpr(left=left, right=right):
            yield left
            yield right
        case UnaryExpr(operand=operand):
            yield operand
        case MakeTuple(elements=elements):
            yield from elements
        case TupleGetItem(tuple_expr=inner):
            yield inner
        case Call(args=args, kwargs=kwargs, attrs=attrs):
            yield from args
            for _, v in (*kwargs, *attrs):
                yield from value_exprs(v)
        case _:
            return


def value_exprs(v: Any) -> Iterator[Expr]:
    """Exprs held by a kwarg/attr value (an Expr, or a list/tuple of them)."""
    if isinstance(v, Expr):
        yield v
    elif isinstance(v, (tuple, list)):
        for item in v:
            yield from value_exprs(item)


def children_of(e: Expr) -> Sequence[Expr]:
    """`expr_children(e)` as a sequence; the common shapes without a generator."""
    t = type(e)
    if t is Call:
        assert isinstance(e, Call)
        if not e.kwargs and not e.attrs:
            return e.args
    elif t is BinaryExpr:
        assert isinstance(e, BinaryExpr)
        return (e.left, e.right)
    elif isinstance(e, Var) or t in _LEAVES:
        return ()
    return list(expr_children(e))


_LEAVES = (ConstInt, ConstFloat, ConstBool)


def _append_vars(exprs: Iterable[Expr], out: list[Var], callees: dict[str, None] | None = None) -> None:
    """Appends every Var occurrence in the expressions to `out`, left to right, depth first, and
    (if given) the names of the program functions they call to `callees`, in order of first call."""
    stack = list(exprs)
    stack.reverse()
    while stack:
        e = stack.pop()
        if isinstance(e, Var):
            out.append(e)
            continue
        if callees is not None and type(e) is Call and isinstance(e.op, GlobalVar):
            callees.setdefault(e.op.name, None)
        children = children_of(e)
        if children:
            stack.extend(reversed(children))


def vars_in_exprs(exprs: Iterable[Expr]) -> Iterator[Var]:
    """Every Var occurrence in the expressions, left to right, depth first."""
    out: list[Var] = []
    _append_vars(exprs, out)
    return iter(out)


def type_exprs(t: Type) -> Iterator[Expr]:
    """The expressions a type holds: dims, view fields."""
    match t:
        case TensorType(shape=shape, view=view):
            yield from shape
            if view is not None:
                yield from (*view.stride, *view.valid_shape)
        case TileType(shape=shape, view=view):
            yield from shape
            if view is not None:
                yield from (*view.valid_shape, *view.stride)
                if view.start_offset is not None:
                    yield view.start_offset
        case TupleType(types=types):
            for sub in types:
                yield from type_exprs(sub)
        case _:
            return


class Collector:
    """Definitions and uses of one body, in the reference's pre-order, and the program functions
    it calls (`callees`: `pl.printer.callees` of the function, from the same walk)."""

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

    def use(self, exprs: Iterable[Expr]) -> None:
        _append_vars(exprs, self.uses, self._callees)

    def use_values(self, values: Iterable[Any]) -> None:
        """Uses in loop attrs and scope arguments, which `callees` does not look into."""
        for v in values:
            _append_vars(value_exprs(v), self.uses)

    def stmt(self, s: Stmt) -> None:
        # Statement nesting depth is small; a long SeqStmts is walked by a loop, not by recursion.
        match s:
            case SeqStmts(stmts=stmts):
                defs, types, uses, callees = self.defs, self.types, self.uses, self._callees
                for child in stmts:
                    if type(child) is AssignStmt:  # most statements: without the match below
                        var = child.var
                        defs.append(var)
                        types.append(var.type)
                        _append_vars((child.value,), uses, callees)
                    else:
                        self.stmt(child)
            case AssignStmt(var=var, value=value):
                self.define([var])
                self.use([value])
            case EvalStmt(expr=expr):
                self.use([expr])
            case ReturnStmt(values=values) | YieldStmt(values=values):
                self.use(values)
            case ForStmt():
                self.define([s.loop_var, *s.return_vars, *s.iter_args])
                self.use([s.start, s.stop, s.step, *(ia.init for ia in s.iter_args)])
                self.use_values(v for _, v in s.attrs)
                self.stmt(s.body)
            case WhileStmt():
                self.define([*s.return_vars, *s.iter_args])
                self.use([*(ia.init for ia in s.iter_args), s.condition])
                self.stmt(s.body)
            case IfStmt():
                self.define(s.return_vars)
                self.use([s.condition])
                self.stmt(s.then_body)
                if s.else_body is not None:
                    self.stmt(s.else_body)
            case ScopeStmt(body=body, args=args):
                self.use_values(v for _, v in args)
                self.stmt(body)
            case BreakStmt() | ContinueStmt():
                pass
            case _:
                raise TypeError(f"unknown statement kind {type(s).__name__}")


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
    c.stmt(f.body)
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
    def empty(cls) -> Names:
        return cls({}, {}, set())

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


__all__ = ["FREE_SUFFIX", "Collector", "Names", "children_of", "collect", "dynamic_dims", "expr_children", "type_exprs",
           "unique_names", "value_exprs", "vars_in_exprs"]
