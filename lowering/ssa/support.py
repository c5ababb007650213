"""Helpers of SSA conversion: version names, substitution, and use/def analysis over the frozen IR.

Guarantees: every function here is pure (inputs are never mutated; an unchanged node is returned as
the same object). Var identity is the variable identity: two Vars sharing a name hint are different
variables, one Var object assigned twice is one variable.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Mapping
from typing import Any, TypeVar

from pl.ir import (
    AssignStmt,
    Call,
    ConstBool,
    ConstFloat,
    ConstInt,
    EvalStmt,
    Expr,
    ForStmt,
    IfStmt,
    ReturnStmt,
    ScopeKind,
    ScopeStmt,
    SeqStmts,
    Stmt,
    TensorType,
    TensorView,
    TileType,
    TileView,
    TupleType,
    Type,
    UnknownType,
    Var,
    WhileStmt,
    YieldStmt,
)
from pl.ir.span import UNKNOWN_SPAN, Span

# Roles a generated suffix may carry (the reference's auto_name::IsKnownRole).
KNOWN_ROLES = frozenset({"ssa", "iter", "rv", "phi", "tile", "tmp", "out", "store", "idx"})

# Fields that never hold values to substitute: locations and comments.
_SKIP_FIELDS = frozenset({"span", "comments"})

T = TypeVar("T")

# Values that hold nothing to substitute: returned as they are without the `match` below.
_ATOMS = frozenset({str, int, float, bool, type(None)})


# ── names ────────────────────────────────────────────────────────────────────────────────────────


def _is_version_token(token: str) -> bool:
    return len(token) >= 2 and token[0] == "v" and token[1:].isdigit()


def parse_auto_name(name: str) -> tuple[str, str, str | None, int | None]:
    """Split `base__[qualifier_][role_]vN` into (base, qualifier, role, version).

    A name without `__` is all base. Mirrors the reference's auto_name::Parse.
    """
    boundary = name.find("__")
    if boundary < 0:
        return name, "", None, None
    base, suffix = name[:boundary], name[boundary + 2:]
    version: int | None = None
    head, sep, last = suffix.rpartition("_")
    if sep and _is_version_token(last):
        version, suffix = int(last[1:]), head
    elif not sep and _is_version_token(suffix):
        version, suffix = int(suffix[1:]), ""
    role: str | None = None
    head, sep, last = suffix.rpartition("_")
    if sep and last in KNOWN_ROLES:
        role, suffix = last, head
    elif not sep and suffix in KNOWN_ROLES:
        role, suffix = suffix, ""
    return base, suffix, role, version


def versioned_name(name: str, role: str, version: int) -> str:
    """The name of version `version` of a variable named `name` in role `role`.

    `x` -> `x__ssa_v0`; an already generated name is re-based (`x__iter_v1` -> `x__rv_v2`), and a
    hand-written name containing the reserved `__` keeps only the part before it.
    """
    if name and "__" not in name:
        # The common case (a user's plain name): parse_auto_name would return it all as base.
        return f"{name}__{role}_v{version}"
    return rebased_name(name, role, version)


def rebased_name(name: str, role: str, version: int) -> str:
    """`versioned_name` through parse_auto_name, for any name (see there)."""
    base, qualifier, old_role, old_version = parse_auto_name(name)
    if old_role is None and old_version is None:
        qualifier = ""
    if not base:
        # "__x" has no usable base; keep something printable rather than an empty identifier.
        base = name.strip("_").split("__")[0] or "v"
    suffix = "_".join(p for p in (qualifier, role, f"v{version}") if p)
    return f"{base}__{suffix}"


# ── substitution ─────────────────────────────────────────────────────────────────────────────────


def _field_names(cls: type) -> list[str]:
    return [f.name for f in dataclasses.fields(cls) if f.name not in _SKIP_FIELDS and f.init]


def _mentions_var(v: Any) -> bool:
    match v:
        case Var():
            return True
        case tuple() | list():
            return any(_mentions_var(x) for x in v)
        case _ if dataclasses.is_dataclass(v) and not isinstance(v, type):
            return any(_mentions_var(getattr(v, n)) for n in _field_names(type(v)))
        case _:
            return False


def _all_const(dims: tuple[Any, ...]) -> bool:
    for d in dims:
        if type(d) is not ConstInt:
            return False
    return True


def _is_static_plain(t: TensorType | TileType) -> bool:
    """A shaped type whose dims (and view dims) are all constants, without memref: no Var in it."""
    if t.memref is not None or not _all_const(t.shape):
        return False
    view = t.view
    if view is None:
        return True
    if type(view) is TileView:
        return _all_const(view.valid_shape) and _all_const(view.stride) \
            and (view.start_offset is None or type(view.start_offset) is ConstInt)
    return type(view) is TensorView and _all_const(view.valid_shape) and _all_const(view.stride)


def _type_has_vars(t: Type) -> bool:
    """Whether a type mentions a Var anywhere (a dynamic dim). Most types do not, and then
    substitution returns them as they are without walking them."""
    if type(t) in (TileType, TensorType) and _is_static_plain(t):  # type: ignore[arg-type]
        return False
    return _mentions_var(t)


def _map_fields(obj: T, fn: Callable[[Any], Any]) -> T:
    """Rebuild a dataclass with `fn` applied to every field; the same object if nothing changed."""
    changes: dict[str, Any] = {}
    for name in _field_names(type(obj)):
        old = getattr(obj, name)
        new = fn(old)
        if new is not old:
            changes[name] = new
    if not changes:
        return obj
    return dataclasses.replace(obj, **changes)  # type: ignore[type-var]


class Misses:
    """What a Substituter does with a Var it has no version for: `resolve` may name the version
    to use instead; otherwise the Var is recorded in `found` with the span of the statement being
    converted when it was first met (`where`, kept up to date by the SSA converter)."""

    def __init__(self, resolve: Callable[[Var], Var | None]) -> None:
        self.resolve = resolve
        self.where: Span = UNKNOWN_SPAN
        self.found: dict[Var, Span] = {}

    def miss(self, v: Var) -> Var:
        got = self.resolve(v)
        if got is not None:
            return got
        if v not in self.found:
            self.found[v] = self.where
        return v


class Substituter:
    """Rewrites uses of Vars through a version map, inside expressions and the types they carry.

    A Var without a version is left as it is and, when `misses` is given, recorded there."""

    def __init__(self, versions: Mapping[Var, Var], misses: Misses | None = None) -> None:
        self.versions = versions
        self.misses = misses
        # Type objects found to mention no Var, by id (the object is kept, so its id is not
        # reused while it is here): the frontend and deduction share one type object among all
        # values of equal type, so most types are checked once per function, not once per use.
        self.plain: dict[int, Type] = {}

    def value(self, v: Any) -> Any:
        if type(v) in _ATOMS:
            return v
        match v:
            case Expr():
                return self.expr(v)
            case Type():
                return self.type(v)
            case tuple():
                return self.items(v)
            case list():
                return [self.value(x) for x in v]
            case _ if dataclasses.is_dataclass(v) and not isinstance(v, type):
                return _map_fields(v, self.value)  # views (TileView/TensorView)
            case _:
                return v

    def expr(self, e: Expr) -> Expr:
        if type(e) is Call:  # the most frequent value, first
            return self.call(e)
        match e:
            case Var():
                # Var and IterArg alike: a use is replaced, never rebuilt (its type is the def's).
                v = self.versions.get(e)
                if v is None:
                    return e if self.misses is None else self.misses.miss(e)
                return v
            case Call():
                return self.call(e)
            case ConstInt() | ConstFloat() | ConstBool():
                return e
            case _ if dataclasses.is_dataclass(e):
                return _map_fields(e, self.value)
            case _:
                return e

    def call(self, e: Call) -> Call:
        """`_map_fields(e, self.value)` for the most frequent node, without the generic walk.

        The callee (an Op or GlobalVar: a name) never holds a value to substitute.
        """
        args = self.items(e.args)
        kwargs = self.items(e.kwargs) if e.kwargs else e.kwargs
        attrs = self.items(e.attrs) if e.attrs else e.attrs
        result_type = self.type(e.result_type)
        if args is e.args and kwargs is e.kwargs and attrs is e.attrs \
                and result_type is e.result_type:
            return e
        return Call(e.op, args, kwargs, attrs, result_type, span=e.span)

    def items(self, v: tuple[Any, ...]) -> tuple[Any, ...]:
        """`value` of a tuple: the same tuple when no item changed."""
        out = []
        changed = False
        for x in v:
            y = self.expr(x) if type(x) is Var or isinstance(x, Var) else self.value(x)
            if y is not x:
                changed = True
            out.append(y)
        return tuple(out) if changed else v

    def type(self, t: Type) -> Type:
        if self.plain.get(id(t)) is t:
            return t
        return self.type_walk(t)

    def type_walk(self, t: Type) -> Type:
        """`type` without the look-up of the type objects already found plain."""
        match t:
            case TensorType() | TileType() | TupleType():
                if _type_has_vars(t):
                    return _map_fields(t, self.value)
                if len(self.plain) >= _PLAIN_LIMIT:
                    self.plain.clear()
                self.plain[id(t)] = t
                return t
            case _:
                return t


_PLAIN_LIMIT = 1 << 16  # distinct plain type objects a Substituter remembers (about one per value)


# ── statement walking ────────────────────────────────────────────────────────────────────────────


def child_stmts(s: Stmt) -> list[Stmt]:
    match s:
        case SeqStmts():
            return list(s.stmts)
        case ForStmt() | WhileStmt() | ScopeStmt():
            return [s.body]
        case IfStmt():
            return [s.then_body] + ([s.else_body] if s.else_body is not None else [])
        case _:
            return []


def walk_stmts(s: Stmt) -> Iterator[Stmt]:
    """Every statement of a tree, pre-order."""
    yield s
    for c in child_stmts(s):
        yield from walk_stmts(c)


def assigned_vars(s: Stmt) -> dict[Var, None]:
    """Vars `s` binds for the statements after it, in first-binding order: AssignStmt targets and
    the return vars of the loops and ifs in it (a value yielded out of an inner loop is a
    definition of the loop around that loop too)."""
    out: dict[Var, None] = {}
    for x in walk_stmts(s):
        if type(x) is AssignStmt:
            out[x.var] = None
        elif isinstance(x, ForStmt | WhileStmt | IfStmt):
            for rv in x.return_vars:
                out[rv] = None
    return out


def expr_uses(e: Any, out: set[Var]) -> None:
    """Add the Vars referenced by an expression (or tuple of them) to `out`; types are not searched."""
    match e:
        case Var():
            out.add(e)
        case tuple() | list():
            for x in e:
                expr_uses(x, out)
        case Expr() if dataclasses.is_dataclass(e):
            for f in dataclasses.fields(e):
                if f.name not in _SKIP_FIELDS:
                    expr_uses(getattr(e, f.name), out)
        case _:
            pass


def _uses(*exprs: Any) -> set[Var]:
    out: set[Var] = set()
    for e in exprs:
        expr_uses(e, out)
    return out


def stmt_live_in(s: Stmt) -> set[Var]:
    """Vars a statement needs from outside it: used before (or without) being assigned inside it."""
    match s:
        case AssignStmt():
            return _uses(s.value)
        case EvalStmt():
            return _uses(s.expr)
        case ReturnStmt() | YieldStmt():
            return _uses(s.values)
        case SeqStmts():
            return seq_live_in(s.stmts)
        case ForStmt():
            used = _uses(s.start, s.stop, s.step, tuple(ia.init for ia in s.iter_args))
            body = stmt_live_in(s.body) - {s.loop_var, *s.iter_args}
            return used | body
        case WhileStmt():
            used = _uses(s.condition, tuple(ia.init for ia in s.iter_args))
            return used | (stmt_live_in(s.body) - set(s.iter_args))
        case IfStmt():
            used = _uses(s.condition) | stmt_live_in(s.then_body)
            if s.else_body is not None:
                used |= stmt_live_in(s.else_body)
            return used
        case ScopeStmt():
            return stmt_live_in(s.body) | _uses(tuple(v for _, v in s.args))
        case _:
            return set()


def seq_live_in(stmts: tuple[Stmt, ...] | list[Stmt]) -> set[Var]:
    defined: set[Var] = set()
    live: set[Var] = set()
    for s in stmts:
        live |= stmt_live_in(s) - defined
        defined |= assigned_vars(s).keys()
    return live


def suffix_needs(stmts: tuple[Stmt, ...] | list[Stmt]) -> list[set[Var]]:
    """needs[i] = Vars that stmts[i:] need from before stmts[i] (needs[len] is empty)."""
    needs: list[set[Var]] = [set() for _ in range(len(stmts) + 1)]
    for j in range(len(stmts), 0, -1):
        s = stmts[j - 1]
        needs[j - 1] = stmt_live_in(s) | (needs[j] - assigned_vars(s).keys())
    return needs


def is_transparent_scope(s: Stmt) -> bool:
    """`pl.scope()` is a codegen wrapper; other scopes are outline boundaries."""
    return isinstance(s, ScopeStmt) and s.kind is ScopeKind.Runtime


# ── types of definitions ─────────────────────────────────────────────────────────────────────────


def assignment_type(lhs_type: Type, value: Expr) -> Type:
    """The type a new version of an assigned Var gets: that of its defining value.

    As in the reference, the value's type wins when it is informative (the value is a Var, or it is
    a Tensor/Tile/Tuple type), else the declared one is kept; a MemRef that only the declaration
    has is kept. (A rebinding `v = pl.mul(v, 2.0)` of a Mat `v` is a Vec value: its new version is
    Vec, whatever the first binding's type was.)
    """
    rhs = value.type
    kind = type(rhs)
    if (kind is TileType or kind is TensorType) and rhs.memref is None:  # type: ignore[attr-defined]
        # The common definition (an op's tile or tensor result): informative, and no memref to
        # carry over unless the declaration has one.
        if not isinstance(lhs_type, (TensorType, TileType)) or lhs_type.memref is None:
            return rhs
    return assignment_type_general(lhs_type, value)


def assignment_type_general(lhs_type: Type, value: Expr) -> Type:
    """`assignment_type` without its shortcut for a plain tile or tensor value."""
    rhs = value.type
    informative = isinstance(value, Var) or isinstance(rhs, (TensorType, TileType, TupleType))
    chosen = rhs if informative and not isinstance(rhs, UnknownType) else lhs_type
    if isinstance(chosen, (TensorType, TileType)) and isinstance(lhs_type, (TensorType, TileType)):
        if chosen.memref is None and lhs_type.memref is not None:
            chosen = dataclasses.replace(chosen, memref=lhs_type.memref)
    return chosen


def assignment_types(s: Stmt) -> dict[Var, Type]:
    """For each Var `assigned_vars(s)` names, the type of its last binding (in tree order)."""
    out: dict[Var, Type] = {}
    for x in walk_stmts(s):
        if type(x) is AssignStmt:
            out[x.var] = assignment_type(x.var.type, x.value)
        elif isinstance(x, ForStmt | WhileStmt | IfStmt):
            for rv in x.return_vars:
                out[rv] = rv.type
    return out
