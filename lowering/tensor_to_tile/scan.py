"""Pre-scans of ConvertTensorToTileOps over one InCore function body (read-only).

Guarantees:
* `hoist_nested_tensor_calls` gives every tensor-op call nested inside another expression (a yield
  value, a call argument, a return value) its own assignment right before its user, so the nested
  seed form `r = pl.yield_(pl.assemble(acc, c, off))` converts exactly like the un-nested one.
* `consumer_spaces` maps each Var whose consumer needs a memory space (conversion input
  requirements: Mat for matmul operands, ...) to that space, propagated backward through
  inherit-input ops and plain aliases; a non-Vec demand overrides Vec, otherwise first wins.
* `params_needing_entry_load` lists the tensor vars consumed directly by converted ops (outside
  requirement-covered slots and self-loading ops), traced through loop-carry initial values.
"""

from __future__ import annotations

from typing_extensions import assert_never

from lowering.tensor_to_tile.common import body_of, same_items
from lowering.tensor_to_tile.convert import SELF_LOADING, converter_for
from pl.ir.enums import MemorySpace
from pl.ir.expr import (
    BinaryExpr,
    Call,
    ConstBool,
    ConstFloat,
    ConstInt,
    Expr,
    GlobalVar,
    IterArg,
    MakeTuple,
    TupleGetItem,
    UnaryExpr,
    Var,
    expr_kind,
)
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
from pl.ir.traverse import map_expr, map_stmt, walk_stmts
from pl.ir.types import TensorType, TileType
from pl.ops.registry import get_op


def _is_tensor_op_call(e: Expr) -> bool:
    return isinstance(e, Call) and not isinstance(e.op, GlobalVar) and _is_tensor_op_name(e.op.name)


class _Hoister:
    def __init__(self) -> None:
        self.pending: list[Stmt] = []

    def nested(self, e: Expr) -> Expr:
        """Hoist tensor-op calls found inside `e` (e itself stays): among a call's arguments and a
        list's elements, where the seed's nested forms put them."""
        k = expr_kind(e)
        match k:
            case Call():
                args = tuple([self.operand(a) for a in k.args])
                if same_items(args, k.args):
                    return k
                return Call(k.op, args, k.kwargs, k.attrs, k.result_type, span=k.span)
            case MakeTuple():
                return map_expr(k, self.operand)
            case Var() | ConstInt() | ConstFloat() | ConstBool() | BinaryExpr() | UnaryExpr() \
                    | TupleGetItem():
                return k  # scalar expressions and leaves
            case _:
                assert_never(k)

    def operand(self, e: Expr) -> Expr:
        if not isinstance(e, (Call, MakeTuple)):
            return e  # a leaf neither holds nor is a call
        inner = self.nested(e)
        if not _is_tensor_op_call(inner):
            return inner
        assert isinstance(inner, Call)
        tmp = Var(inner.op.name.split(".", 1)[1], inner.type, span=inner.span)
        self.pending.append(AssignStmt(tmp, inner, span=inner.span))
        return tmp

    def body(self, s: Stmt | None) -> Stmt:
        out: list[Stmt] = []
        for child in flatten_body(s):
            new = self.stmt(child)
            out.extend(self.pending)
            self.pending = []
            out.append(new)
        return body_of(s, out)

    def stmt(self, stmt: Stmt) -> Stmt:
        s = stmt_kind(stmt)
        match s:
            case AssignStmt() | EvalStmt():
                return map_stmt(s, expr=self.nested)  # the call itself stays, its operands hoist
            case YieldStmt() | ReturnStmt():
                return map_stmt(s, expr=self.operand)
            case ForStmt() | WhileStmt() | IfStmt() | ScopeStmt() | SeqStmts():
                return map_stmt(s, body=self.body)  # headers and conditions stay as they are
            case BreakStmt() | ContinueStmt():
                return s
            case _:
                assert_never(s)


def _is_tensor_op_name(name: str) -> bool:
    op = get_op(name)
    return op is not None and op.level == "tensor"


def hoist_nested_tensor_calls(body: Stmt) -> Stmt:
    return _Hoister().body(body)


def _plain_var(e: Expr) -> Var | None:
    """Var-only match (an IterArg is not a plain Var here, as in the reference)."""
    return e if isinstance(e, Var) and not isinstance(e, IterArg) else None


def _shaped(e: Expr) -> bool:
    return isinstance(e.type, (TensorType, TileType))


def consumer_spaces(body: Stmt) -> dict[int, MemorySpace]:
    reqs: dict[int, MemorySpace] = {}
    edges: list[tuple[int, int]] = []

    def demand(key: int, space: MemorySpace) -> None:
        old = reqs.get(key)
        if old is None or (old is MemorySpace.Vec and space is not MemorySpace.Vec):
            reqs[key] = space

    for s in walk_stmts(body):
        value: Expr | None = None
        if isinstance(s, AssignStmt):
            value = s.value
        elif isinstance(s, EvalStmt):
            value = s.expr
        # The registered op of a call statement, looked up once for both uses below.
        op = get_op(value.op.name) if isinstance(value, Call) \
            and not isinstance(value.op, GlobalVar) else None
        if isinstance(s, AssignStmt) and _shaped(s.var):
            src = _plain_var(s.value)
            if src is not None and _shaped(src):
                edges.append((id(s.var), id(src)))
            elif op is not None and op.inherits_input and isinstance(value, Call):
                for a in value.args:
                    v = _plain_var(a)
                    if v is not None and _shaped(v):
                        edges.append((id(s.var), id(v)))
                        break
        if op is None or not op.conversion_reqs:
            continue
        assert isinstance(value, Call)
        for idx, (space, _trans) in sorted(op.conversion_reqs.items()):
            target = _plain_var(value.args[idx]) if idx < len(value.args) else None
            if target is not None:
                demand(id(target), space)
    for dst, src_key in reversed(edges):
        if dst in reqs:
            demand(src_key, reqs[dst])
    return reqs


def params_needing_entry_load(body: Stmt) -> set[int]:
    used: set[int] = set()
    inits: dict[int, Expr] = {}
    for s in walk_stmts(body):
        if isinstance(s, (ForStmt, WhileStmt)):
            for ia in s.iter_args:
                inits[id(ia)] = ia.init
        if not isinstance(s, AssignStmt) or not isinstance(s.value, Call):
            continue
        call = s.value
        if isinstance(call.op, GlobalVar) or call.op.name in SELF_LOADING:
            continue
        if converter_for(call.op.name) is None:
            continue
        op = get_op(call.op.name)
        reqs = op.conversion_reqs if op is not None else {}
        for i, a in enumerate(call.args):
            if i not in reqs and isinstance(a, Var) and isinstance(a.type, TensorType):
                used.add(id(a))
    changed = True
    while changed:
        changed = False
        for key, init in inits.items():
            if key in used and isinstance(init, Var) and isinstance(init.type, TensorType) \
                    and id(init) not in used:
                used.add(id(init))
                changed = True
    return used
