"""Helpers of SSA conversion: version names, substitution, and use/def analysis over the frozen IR.

Guarantees: every function here is pure (inputs are never mutated; an unchanged node is returned as
the same object). Var identity is the variable identity: two Vars sharing a name hint are different
variables, one Var object assigned twice is one variable.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from typing_extensions import assert_never

from pl.ir import (
    AssignStmt,
    BreakStmt,
    ContinueStmt,
    EvalStmt,
    Expr,
    ForStmt,
    IfStmt,
    MemRef,
    ReturnStmt,
    ScopeKind,
    ScopeStmt,
    SeqStmts,
    Stmt,
    TensorType,
    TileType,
    TupleType,
    Type,
    UnknownType,
    Var,
    WhileStmt,
    YieldStmt,
)
from pl.ir.span import UNKNOWN_SPAN, Span
from pl.ir.stmt import stmt_kind
from pl.ir.traverse import child_bodies, map_expr, stmt_exprs, walk_exprs, walk_stmts
from pl.ir.types import declared_valid

# Roles a generated suffix may carry (the reference's auto_name::IsKnownRole).
KNOWN_ROLES = frozenset({"ssa", "iter", "rv", "phi", "tile", "tmp", "out", "store", "idx"})

# Fields that never hold values to substitute: locations and comments; a type's MemRef is
# substituted by `Substituter.memref` (its base is a name, not a use).
_SKIP_FIELDS = frozenset({"span", "comments", "memref"})

T = TypeVar("T")


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
    base, qualifier, old_role, old_version = parse_auto_name(name)
    if old_role is None and old_version is None:
        qualifier = ""
    if not base:
        # "__x" has no usable base; keep something printable rather than an empty identifier.
        base = name.strip("_").split("__")[0] or "v"
    head = f"{qualifier}_{role}" if qualifier and role else qualifier or role
    return f"{base}__{head}_v{version}" if head else f"{base}__v{version}"


# ── substitution ─────────────────────────────────────────────────────────────────────────────────


def _field_names(cls: type) -> list[str]:
    return [f.name for f in dataclasses.fields(cls) if f.name not in _SKIP_FIELDS and f.init]


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
    """What a Substituter does with a Var it has no version for: the Var is recorded in `found`
    with the span of the statement being converted when it was first met (`where`, kept up to
    date by the SSA converter)."""

    def __init__(self) -> None:
        self.where: Span = UNKNOWN_SPAN
        self.found: dict[Var, Span] = {}

    def miss(self, v: Var) -> Var:
        if v not in self.found:
            self.found[v] = self.where
        return v


class Substituter:
    """Rewrites uses of Vars through a version map (a Var to its new version, or to any
    expression that replaces it, such as an unrolled loop's constant index), inside expressions and
    the types they carry.

    A Var without a version is left as it is and, when `misses` is given, recorded there.
    `static`: the types already found to hold no Var; one run's Substituters may share it,
    because that answer does not depend on the versions. A program has few distinct types among
    many values, so each is asked `all_constant` (a walk of its shape and view) once."""

    def __init__(self, versions: Mapping[Var, Expr], misses: Misses | None = None,
                 static: set[Type] | None = None, same: Mapping[Var, Var] | None = None) -> None:
        self.versions = versions
        # A Var's source variable, where another Var stands for it (Function.same_variable):
        # `versions` is keyed by variable.
        self.same: Mapping[Var, Var] = {} if same is None else same
        self.misses = misses
        self.static: set[Type] = set() if static is None else static

    def value(self, v: Any) -> Any:
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
                return v  # str, int, enums, None: nothing to substitute

    def expr(self, e: Expr) -> Expr:
        if isinstance(e, Var):
            # Var and IterArg alike: a use is replaced, never rebuilt (its type is the def's).
            v = self.versions.get(self.same.get(e, e))
            if v is None:
                return e if self.misses is None else self.misses.miss(e)
            return v
        # Operands, kwargs/attrs values and a Call's result type (a dynamic dim names a Var).
        return map_expr(e, self.expr, self.type)

    def items(self, v: tuple[Any, ...]) -> tuple[Any, ...]:
        """`value` of a tuple: the same tuple when no item changed."""
        out = tuple([self.value(x) for x in v])
        return v if all(a is b for a, b in zip(out, v, strict=True)) else out

    def type(self, t: Type) -> Type:
        """`t` with the Vars its dims and views mention substituted; `t` itself when none does."""
        with_memref = False
        if isinstance(t, TileType | TensorType) and t.memref is not None:
            with_memref = True
            memref = self.memref(t.memref)
            if memref is not t.memref:
                t = dataclasses.replace(t, memref=memref)
        elif t in self.static:
            return t
        if not t.all_constant:  # asked of the type itself: no walk for the common static type
            return _map_fields(t, self.value)
        if not with_memref:  # (a type with a MemRef is not remembered: its base is a Var)
            self.static.add(t)
        return t

    def memref(self, m: MemRef) -> MemRef:
        """`m` naming the current version of its base Ptr, so the allocation it names is still the
        one an alloc binds. A base without a version (a forward reference, a DDR buffer that no
        statement allocates) stays as it is: naming it is no use of an undefined value."""
        assert isinstance(m.base, Var)
        base = self.versions.get(self.same.get(m.base, m.base), m.base)
        offset = self.expr(m.byte_offset)
        index = None if m.slot_index is None else self.expr(m.slot_index)
        if base is m.base and offset is m.byte_offset and index is m.slot_index:
            return m
        return MemRef(base, offset, m.size, m.slots, index)


# ── use/def analysis ─────────────────────────────────────────────────────────────────────────────


def assigned_vars(s: Stmt) -> dict[Var, None]:
    """Vars `s` binds for the statements after it, in first-binding order: AssignStmt targets,
    the return vars of the loops and ifs in it (a value yielded out of an inner loop is a
    definition of the loop around that loop too) and the task ids of scopes (`as tid`, listed
    before what the scope's body binds)."""
    out: dict[Var, None] = {}
    for x in walk_stmts(s):
        if type(x) is AssignStmt:
            out[x.var] = None
        elif isinstance(x, ForStmt | WhileStmt | IfStmt):
            out.update(dict.fromkeys(x.return_vars))
        elif type(x) is ScopeStmt and x.task_id is not None:
            out[x.task_id] = None
    return out


def vars_used(*exprs: Expr) -> set[Var]:
    """The Vars the expressions reference (IterArgs included); types are not searched."""
    return {e for root in exprs for e in walk_exprs(root) if isinstance(e, Var)}


def stmt_live_in(stmt: Stmt) -> set[Var]:
    """Vars a statement needs from outside it: used before (or without) being assigned inside it."""
    s = stmt_kind(stmt)
    used = vars_used(*stmt_exprs(s))  # what it evaluates itself: values, headers, inits, scope args
    match s:
        case AssignStmt() | EvalStmt() | ReturnStmt() | YieldStmt() | BreakStmt() | ContinueStmt():
            return used
        case SeqStmts():
            return seq_live_in(s.stmts)
        case ForStmt():
            return used | (stmt_live_in(s.body) - {s.loop_var, *s.iter_args})
        case WhileStmt():
            return used | (stmt_live_in(s.body) - set(s.iter_args))
        case IfStmt():
            for b in child_bodies(s):
                used |= stmt_live_in(b)
            return used
        case ScopeStmt():
            return used | stmt_live_in(s.body)
        case _:
            assert_never(s)


def seq_live_in(stmts: tuple[Stmt, ...] | list[Stmt]) -> set[Var]:
    defined: set[Var] = set()
    live: set[Var] = set()
    for s in stmts:
        live |= stmt_live_in(s) - defined
        defined |= assigned_vars(s).keys()
    return live


def suffix_needs(stmts: tuple[Stmt, ...] | list[Stmt]) -> dict[int, set[Var]]:
    """For each i where stmts[i] holds statements (a loop, if, scope or nested sequence: what
    decides from the uses after it which values to carry out), the Vars that stmts[i + 1:] need
    from before them. One backward pass, updating one set in place, from the end down to the
    first such statement (nothing before it is asked about; a straight-line sequence asks nothing)."""
    holders = [i for i, s in enumerate(stmts) if child_bodies(s)]
    after: set[Var] = set()
    needs: dict[int, set[Var]] = {}
    for i in range(len(stmts) - 1, holders[0] - 1 if holders else len(stmts), -1):
        s = stmts[i]
        if child_bodies(s):
            needs[i] = set(after)
        after -= assigned_vars(s).keys()
        after |= stmt_live_in(s)
    return needs


def is_transparent_scope(s: Stmt) -> bool:
    """`pl.scope()` is a codegen wrapper; other scopes are outline boundaries."""
    return isinstance(s, ScopeStmt) and s.kind is ScopeKind.Runtime


# ── types of definitions ─────────────────────────────────────────────────────────────────────────


def assignment_type(lhs_type: Type, value: Expr) -> Type:
    """The type a new version of an assigned Var gets: that of its defining value.

    As in the reference, the value's type wins when it is informative (the value is a Var, or it is
    a Tensor/Tile/Tuple type), else the declared one is kept; a MemRef that only the declaration
    has is kept (for a tile only when the value lies in the MemRef's space; an unplaced value
    takes that space), and so is a Tile view only the declaration has. (A rebinding
    `v = pl.mul(v, 2.0)` of a Mat `v` is a Vec value: its new version is Vec, whatever the first
    binding's type was.)
    """
    rhs = value.type
    informative = isinstance(value, Var) or isinstance(rhs, (TensorType, TileType, TupleType))
    chosen = rhs if informative and not isinstance(rhs, UnknownType) else lhs_type
    if isinstance(chosen, TileType) and isinstance(lhs_type, TileType):
        if chosen.memref is None and lhs_type.memref is not None:
            # The allocation holds tiles of its space only: a value placed elsewhere is not in it.
            if chosen.memory_space is None:
                chosen = chosen.with_space(lhs_type.memory_space)
            if chosen.memory_space is lhs_type.memory_space:
                chosen = dataclasses.replace(chosen, memref=lhs_type.memref)
        chosen = declared_valid(lhs_type, chosen) or chosen  # a declared valid region stays
    elif isinstance(chosen, TensorType) and isinstance(lhs_type, TensorType):
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
        elif isinstance(x, ScopeStmt) and x.task_id is not None:
            out[x.task_id] = x.task_id.type
    return out
