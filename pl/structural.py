"""Structural equality and hashing of IR trees (dsl.md section 5).

Guarantees: spans, Var name hints, function / program names and comments never matter. Vars in
definition positions (params, AssignStmt.var, loop vars, iter args, return vars) are bound by a
bijective map, their types compared; a used Var must be mapped to its counterpart or be the very
same object (with auto_mapping, any consistent bijection). Vars inside types (dynamic dims) always
map by bijection, so two parses of one program with `pl.dynamic` dims compare equal. Programs
compare functions in name-sorted order; Call kwargs / attrs and scope args compare as unordered
maps. ConstInt / scalar dtypes INDEX and INT64 count as equal. A float is compared by its repr, so
every constant equals itself (a NaN too) and -0.0 is not 0.0. `structural_equal(a, b)` implies
`structural_hash(a) == structural_hash(b)`. Both walk an explicit stack, so a body of any length
costs no recursion depth.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from typing_extensions import assert_never

from pl.ir.enums import DType
from pl.ir.expr import (
    BinaryExpr,
    Call,
    ConstBool,
    ConstFloat,
    ConstInt,
    Expr,
    ExprKind,
    IterArg,
    MakeTuple,
    Op,
    TupleGetItem,
    UnaryExpr,
    Var,
    expr_kind,
)
from pl.ir.function import Function, Program
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
    StmtKind,
    WhileStmt,
    YieldStmt,
    stmt_kind,
)
from pl.ir.types import (
    ArrayType,
    HandleType,
    PtrType,
    ScalarType,
    TensorType,
    TileType,
    TupleType,
    Type,
    UnknownType,
    type_kind,
)

__all__ = ["assert_structural_equal", "structural_equal", "structural_hash"]

# Modes of a work item: how a value in that position is compared.
NODE, DEF, LOOPDEF, TYPE, LTYPE, DIM = "node", "def", "loopdef", "type", "ltype", "dim"


@dataclass(frozen=True, slots=True)
class _Seq:
    """A list-valued field; elements are compared in `mode`."""

    items: tuple[Any, ...]
    mode: str


@dataclass(frozen=True, slots=True)
class _Map:
    """An unordered key -> value field (kwargs, attrs, scope args); `label` names it in reasons."""

    items: tuple[tuple[str, Any], ...]
    label: str


@dataclass(frozen=True, slots=True)
class _Opt:
    """An optional field: presence is compared, then the value in `mode`."""

    item: Any
    mode: str
    label: str


Child = tuple[str, Any, str]


def _dtype(dt: DType) -> DType:
    return DType.INDEX if dt is DType.INT64 else dt


def _fmt(v: Any) -> str:
    if isinstance(v, DType):
        return v.short
    if isinstance(v, Enum):
        return v.name
    if isinstance(v, str):
        return repr(v)
    return str(v)


def _fields(x: Any, mode: str) -> tuple[str, list[tuple[str, Any]], list[Child]]:
    """(tag, atoms as (reason label, value), children as (path segment, value, mode))."""
    if mode in (TYPE, LTYPE):
        return _type_fields(x, mode)
    match x:
        case Program():
            fs = sorted(x.functions, key=lambda f: f.name)
            return "Program", [], [("", _Map(tuple((f.name, f) for f in fs), "Function"), NODE)]
        case Function():
            return "Function", [("Function type", x.func_type), ("Level", x.level), ("Role", x.role),
                                ("Host body", x.host_body),
                                ("External source", x.external_source)], [
                (".params", _Seq(x.params, DEF), NODE),
                (".directions", _Seq(tuple(x.directions), NODE), NODE),
                (".attrs", _Map(x.attrs, "Attrs"), NODE),
                (".return_types", _Seq(x.return_types, TYPE), NODE),
                (".body", x.body, NODE)]
        case Stmt():
            return _stmt_fields(stmt_kind(x))
        case Expr():
            return _expr_fields(expr_kind(x))
        case Enum():
            return type(x).__name__, [(type(x).__name__, x)], []
        case _:
            raise TypeError(f"structural comparison of {type(x).__name__} is not supported")


def _stmt_fields(x: StmtKind) -> tuple[str, list[tuple[str, Any]], list[Child]]:
    match x:
        case SeqStmts():
            return "SeqStmts", [], [("", _Seq(x.stmts, NODE), NODE)]
        case AssignStmt():
            return "AssignStmt", [], [(".var", x.var, DEF), (".value", x.value, NODE)]
        case EvalStmt():
            return "EvalStmt", [], [(".expr", x.expr, NODE)]
        case ReturnStmt() | YieldStmt():
            return type(x).__name__, [], [(".values", _Seq(x.values, NODE), NODE)]
        case ForStmt():
            return "ForStmt", [("ForKind", x.kind)], [
                (".loop_var", x.loop_var, LOOPDEF), (".start", x.start, NODE), (".stop", x.stop, NODE),
                (".step", x.step, NODE), (".iter_args", _Seq(x.iter_args, DEF), NODE),
                (".body", x.body, NODE), (".return_vars", _Seq(x.return_vars, DEF), NODE),
                (".attrs", _Map(x.attrs, "Attrs"), NODE)]
        case WhileStmt():
            return "WhileStmt", [], [
                (".iter_args", _Seq(x.iter_args, DEF), NODE), (".condition", x.condition, NODE),
                (".body", x.body, NODE), (".return_vars", _Seq(x.return_vars, DEF), NODE)]
        case IfStmt():
            return "IfStmt", [], [
                (".condition", x.condition, NODE), (".then_body", x.then_body, NODE),
                (".else_body", _Opt(x.else_body, NODE, "IfStmt else_body"), NODE),
                (".return_vars", _Seq(x.return_vars, DEF), NODE)]
        case ScopeStmt():
            return "ScopeStmt", [("ScopeKind", x.kind)], [
                (".args", _Map(x.args, "Scope args"), NODE), (".body", x.body, NODE),
                (".task_id", _Opt(x.task_id, DEF, "ScopeStmt task_id"), NODE)]
        case BreakStmt() | ContinueStmt():
            return type(x).__name__, [], []
        case _:
            assert_never(x)


def _expr_fields(x: ExprKind) -> tuple[str, list[tuple[str, Any]], list[Child]]:
    match x:
        case ConstInt():
            return "ConstInt", [("Integer value", x.value), ("ConstInt dtype", _dtype(x.dtype))], []
        case ConstFloat():
            return "ConstFloat", [("Float value", x.value), ("ConstFloat dtype", x.dtype)], []
        case ConstBool():
            return "ConstBool", [("Bool value", x.value)], []
        case BinaryExpr():
            return x.op.name, [("ScalarType dtype", _dtype(x.dtype))], [(".left", x.left, NODE),
                                                                   (".right", x.right, NODE)]
        case UnaryExpr():
            return x.op.name, [("ScalarType dtype", _dtype(x.dtype))], [(".operand", x.operand, NODE)]
        case MakeTuple():
            return "MakeTuple", [], [(".elements", _Seq(x.elements, NODE), NODE)]
        case TupleGetItem():
            return "TupleGetItem", [("Integer value", x.index)], [(".tuple", x.tuple_expr, NODE)]
        case Call():
            callee = "Operator name" if isinstance(x.op, Op) else "Function name"
            return "Call", [("Callee kind", type(x.op).__name__), (callee, x.op.name)], [
                (".args", _Seq(x.args, NODE), NODE), (".kwargs", _Map(x.kwargs, "Kwargs"), NODE),
                (".attrs", _Map(x.attrs, "Attrs"), NODE), (".type", x.result_type, TYPE)]
        case Var():
            raise TypeError("a Var is compared through its binding, not its fields")
        case _:
            assert_never(x)


def _type_fields(x: Any, mode: str) -> tuple[str, list[tuple[str, Any]], list[Child]]:
    if not isinstance(x, Type):
        raise TypeError(f"not a type: {type(x).__name__}")
    t = type_kind(x)
    match t:
        case ScalarType(dtype=dt):
            return "ScalarType", [("ScalarType dtype", _dtype(dt) if mode == LTYPE else dt)], []
        case TensorType():
            return "TensorType", [("TensorType dtype", t.dtype), ("TensorType rank", t.rank),
                                  ("TensorType distributed", t.distributed)], [
                (".shape", _Seq(t.shape, DIM), NODE),
                (".view", _Opt(t.view, NODE, "TensorType tensor_view"), NODE)]
        case TileType():
            return "TileType", [("TileType dtype", t.dtype), ("TileType rank", t.rank),
                                ("TileType memory_space", t.memory_space)], [
                (".shape", _Seq(t.shape, DIM), NODE),
                (".view", _Opt(t.view, NODE, "TileType tile_view"), NODE)]
        case TupleType(types=types):
            return "TupleType", [], [(".types", _Seq(types, TYPE), NODE)]
        case ArrayType(extent=n, dtype=dt):
            return "ArrayType", [("ArrayType dtype", dt), ("ArrayType extent", n)], []
        case PtrType():
            return "PtrType", [], []
        case HandleType(kind=name):
            return "HandleType", [("HandleType kind", name)], []
        case UnknownType():
            return "UnknownType", [], []
        case _:
            assert_never(t)


def _view_fields(v: Any) -> tuple[str, list[tuple[str, Any]], list[Child]]:
    """TileView / TensorView: enum and int fields are atoms, Expr fields are children."""
    name = type(v).__name__
    atoms: list[tuple[str, Any]] = []
    children: list[Child] = []
    for f in v.__dataclass_fields__:
        val = getattr(v, f)
        if isinstance(val, tuple):
            children.append((f".{f}", _Seq(val, DIM), NODE))
        elif isinstance(val, Expr) or val is None:
            children.append((f".{f}", _Opt(val, DIM, f"{name} {f}"), NODE))
        else:
            atoms.append((f"{name} {f}", val))
    return name, atoms, children


def _is_view(x: Any) -> bool:
    return type(x).__name__ in ("TileView", "TensorView")


# Nodes that hold no Var and compare by value with ==, exactly as _fields would compare them.
# ConstFloat is not among them: 0.0 == -0.0 and nan != nan, where `_differ` tells them apart.
_LEAVES = (ConstInt, ConstBool, ScalarType, PtrType, UnknownType)


def _differ(a: Any, b: Any) -> bool:
    """Whether two atoms are different values. A float is its repr (what the hash reads): -0.0
    is not 0.0, and a NaN is a NaN, so every constant equals itself."""
    if type(a) is not type(b):
        return True
    if isinstance(a, float):
        return repr(a) != repr(b)
    if isinstance(a, tuple | list):
        return len(a) != len(b) or any(_differ(x, y) for x, y in zip(a, b, strict=True))
    return bool(a != b)


class _Mismatch(Exception):
    def __init__(self, path: str, left: Any, right: Any, reason: str) -> None:
        super().__init__(reason)
        self.path, self.left, self.right, self.reason = path, left, right, reason


class _Equal:
    """One comparison: a work stack of (path, left, right, mode) and the Var bijection."""

    def __init__(self, auto_mapping: bool) -> None:
        self.auto = auto_mapping
        self.fwd: dict[Var, Var] = {}
        self.bwd: dict[Var, Var] = {}
        self.stack: list[tuple[str, Any, Any, str]] = []

    def run(self, a: Any, b: Any) -> None:
        self.stack.append(("", a, b, NODE))
        while self.stack:
            self.step(*self.stack.pop())

    def push(self, items: list[tuple[str, Any, Any, str]]) -> None:
        self.stack.extend(reversed(items))

    def bind(self, path: str, a: Var, b: Var, mode: str, defining: bool) -> None:
        if a in self.fwd:
            if self.fwd[a] is not b:
                raise _Mismatch(path, a, b, "Variable mapping mismatch (left is mapped to another variable)")
            return
        if b in self.bwd:
            raise _Mismatch(path, a, b, "Variable mapping mismatch (right is mapped to another variable)")
        if not defining and a is not b and not self.auto and mode != DIM:
            raise _Mismatch(path, a, b, "Variable pointer mismatch (without auto-mapping)")
        self.fwd[a], self.bwd[b] = b, a
        todo: list[tuple[str, Any, Any, str]] = [
            (path + ".type", a.type, b.type, LTYPE if mode == LOOPDEF else TYPE)]
        if isinstance(a, IterArg) and isinstance(b, IterArg):
            todo.append((path + ".init", a.init, b.init, NODE))
        self.push(todo)

    def step(self, path: str, a: Any, b: Any, mode: str) -> None:
        if isinstance(a, _Seq):
            assert isinstance(b, _Seq)
            if len(a.items) != len(b.items):
                raise _Mismatch(path, a.items, b.items,
                                f"Vector size mismatch ({len(a.items)} items != {len(b.items)} items)")
            self.push([(f"{path}[{i}]", x, y, a.mode) for i, (x, y) in enumerate(zip(a.items, b.items, strict=True))])
            return
        if isinstance(a, _Map):
            assert isinstance(b, _Map)
            self.map(path, a, b)
            return
        if isinstance(a, _Opt):
            assert isinstance(b, _Opt)
            if (a.item is None) != (b.item is None):
                raise _Mismatch(path, a.item, b.item, f"{a.label} presence mismatch")
            if a.item is not None:
                self.push([(path, a.item, b.item, a.mode)])
            return
        if type(a) is not type(b):
            what = "Type" if mode in (TYPE, LTYPE) else "Node type"
            raise _Mismatch(path, a, b, f"{what} mismatch ({type(a).__name__} != {type(b).__name__})")
        if isinstance(a, Var):
            self.bind(path, a, b, mode, defining=mode in (DEF, LOOPDEF))
            return
        if a == b and type(a) in _LEAVES:
            return  # a fast path for the commonest leaves; the general one gives the same answer
        tag_a, atoms_a, kids_a = _view_fields(a) if _is_view(a) else _fields(a, mode)
        tag_b, atoms_b, kids_b = _view_fields(b) if _is_view(b) else _fields(b, mode)
        if tag_a != tag_b:
            raise _Mismatch(path, a, b, f"Node type mismatch ({tag_a} != {tag_b})")
        for (label, va), (_, vb) in zip(atoms_a, atoms_b, strict=True):
            if _differ(va, vb):
                raise _Mismatch(path, a, b, f"{label} mismatch ({_fmt(va)} != {_fmt(vb)})")
        # Inside a dim expression every nested Var is a dim too (bijectively mapped).
        self.push([(path + seg, x, y, DIM if mode == DIM and m == NODE else m)
                   for (seg, x, m), (_, y, _) in zip(kids_a, kids_b, strict=True)])

    def map(self, path: str, a: _Map, b: _Map) -> None:
        da, db = dict(a.items), dict(b.items)
        if sorted(da) != sorted(db):
            only_a = sorted(set(da) - set(db))
            only_b = sorted(set(db) - set(da))
            if a.label == "Function" and len(only_a) == len(only_b) == 1:
                raise _Mismatch(path, da, db, f"Map key mismatch ({only_a[0]!r} != {only_b[0]!r})")
            raise _Mismatch(path, sorted(da), sorted(db),
                            f"{a.label} key mismatch (only left: {only_a}, only right: {only_b})")
        todo: list[tuple[str, Any, Any, str]] = []
        for k in sorted(da):
            va, vb, kp = da[k], db[k], f"{path}['{k}']"
            if _holds_expr(va) or _holds_expr(vb) or isinstance(va, Function):
                todo.append((kp, _as_node(va), _as_node(vb), NODE))
            elif _differ(va, vb):
                raise _Mismatch(kp, va, vb, f"{a.label} value mismatch for key '{k}'")
        self.push(todo)


def _holds_expr(v: Any) -> bool:
    if isinstance(v, Expr):
        return True
    return isinstance(v, (tuple, list)) and any(_holds_expr(x) for x in v)


def _as_node(v: Any) -> Any:
    if isinstance(v, (tuple, list)):
        return _Seq(tuple(_as_node(x) for x in v), NODE)
    return v


def _describe(x: Any) -> str:
    from pl.printer.program import print_expr, print_type

    try:
        if isinstance(x, Expr):
            return print_expr(x)
        if isinstance(x, Type) and not isinstance(x, UnknownType):
            return print_type(x)
    except (TypeError, ValueError):
        pass
    if isinstance(x, Function):
        return f"Function {x.name}"
    if isinstance(x, Stmt):
        return type(x).__name__
    if isinstance(x, tuple):
        return f"[{', '.join(_describe(i) for i in x)}]"
    return _fmt(x)


def _compare(a: Any, b: Any, auto_mapping: bool) -> _Mismatch | None:
    try:
        _Equal(auto_mapping).run(a, b)
    except _Mismatch as m:
        return m
    return None


def structural_equal(a: Any, b: Any, *, auto_mapping: bool = False) -> bool:
    """True iff the two IR trees are equal up to names, spans, comments and Var renaming."""
    return _compare(a, b, auto_mapping) is None


def assert_structural_equal(a: Any, b: Any, *, auto_mapping: bool = False) -> None:
    """Raise AssertionError naming the first differing path, both sides and the reason."""
    m = _compare(a, b, auto_mapping)
    if m is None:
        return
    path = m.path[1:] if m.path.startswith(".") else (m.path or "<root>")
    raise AssertionError(f"Structural equality assertion failed at: {path}\n\n"
                         f"Left: {_describe(m.left)}\nRight: {_describe(m.right)}\nReason: {m.reason}")


def structural_hash(node: Any) -> int:
    """A hash consistent with structural_equal (Vars hash by order of first appearance)."""
    tokens: list[Any] = []
    var_ids: dict[Var, int] = {}
    stack: list[tuple[Any, str]] = [(node, NODE)]
    while stack:
        x, mode = stack.pop()
        kids: list[tuple[Any, str]] = []
        if isinstance(x, _Seq):
            tokens.append(("seq", len(x.items)))
            kids = [(i, x.mode) for i in x.items]
        elif isinstance(x, _Map):
            tokens.append(("map", tuple(sorted(k for k, _ in x.items))))
            for _, v in sorted(x.items, key=lambda kv: kv[0]):
                if _holds_expr(v) or isinstance(v, Function):
                    kids.append((_as_node(v), NODE))
                else:
                    tokens.append((type(v).__name__, repr(v)))
        elif isinstance(x, _Opt):
            tokens.append(("opt", x.item is None))
            kids = [] if x.item is None else [(x.item, x.mode)]
        elif isinstance(x, Var):
            first = x not in var_ids
            var_ids.setdefault(x, len(var_ids))
            tokens.append((type(x).__name__, var_ids[x]))
            if first:
                kids = [(x.type, LTYPE if mode == LOOPDEF else TYPE)]
                if isinstance(x, IterArg):
                    kids.append((x.init, NODE))
        else:
            tag, atoms, children = _view_fields(x) if _is_view(x) else _fields(x, mode)
            # INT64 / INDEX compare equal in some positions, so the hash never tells them apart.
            tokens.append((tag, tuple(repr(_dtype(v)) if isinstance(v, DType) else repr(v) for _, v in atoms)))
            kids = [(c, m) for _, c, m in children]
        stack.extend(reversed(kids))
    return hash(tuple(tokens))

