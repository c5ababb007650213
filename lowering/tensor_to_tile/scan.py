"""Pre-scans of ConvertTensorToTileOps over one InCore function body (read-only).

Guarantees:
* `hoist_nested_tensor_calls` gives every tensor-op call nested inside another expression (a yield
  value, a call argument, a return value) its own assignment right before its user, so the nested
  seed form `r = pl.yield_(pl.assemble(acc, c, off))` converts exactly like the un-nested one.
* `consumer_spaces` maps each Var whose consumer needs a memory space (conversion input
  requirements: Mat for matmul operands, ...) to that space, propagated backward through
  inherit-input ops and plain aliases; a non-Vec demand overrides Vec, otherwise first wins.
* `is_plain_tile_code` tells whether a body is straight-line code without any tensor-op call,
  anywhere in any of its expressions: then every scan below comes back empty and the conversion
  hands every statement back as it is (a long kernel written in tile ops throughout). A loop or
  an if is never plain: the conversion re-derives the types its values carry.
* `params_needing_entry_load` lists the tensor vars consumed directly by converted ops (outside
  requirement-covered slots and self-loading ops), traced through loop-carry initial values.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from lowering.tensor_to_tile.common import body_of, same_items, walk_stmts
from lowering.tensor_to_tile.convert import SELF_LOADING, converter_for
from pl.ir.enums import MemorySpace
from pl.ir.expr import Call, ConstBool, ConstFloat, ConstInt, Expr, GlobalVar, IterArg, MakeTuple, Var
from pl.ir.stmt import (
    AssignStmt,
    EvalStmt,
    ForStmt,
    IfStmt,
    ReturnStmt,
    ScopeStmt,
    Stmt,
    WhileStmt,
    YieldStmt,
    flatten_body,
)
from pl.ir.types import TensorType, TileType
from pl.ops.registry import get_op


def _is_tensor_op_call(e: Expr) -> bool:
    return isinstance(e, Call) and not isinstance(e.op, GlobalVar) and _is_tensor_op_name(e.op.name)


class _Hoister:
    def __init__(self) -> None:
        self.pending: list[Stmt] = []

    def nested(self, e: Expr) -> Expr:
        """Hoist tensor-op calls found inside `e` (e itself stays)."""
        match e:
            case Call():
                args = tuple([self.operand(a) for a in e.args])
                if same_items(args, e.args):
                    return e
                return Call(e.op, args, e.kwargs, e.attrs, e.result_type, span=e.span)
            case MakeTuple():
                elems = tuple([self.operand(a) for a in e.elements])
                if same_items(elems, e.elements):
                    return e
                return MakeTuple(elems, span=e.span)
        return e

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

    def stmt(self, s: Stmt) -> Stmt:
        match s:
            case AssignStmt():
                value = self.nested(s.value)
                return s if value is s.value else AssignStmt(s.var, value, span=s.span,
                                                             comments=s.comments)
            case EvalStmt():
                e = self.nested(s.expr)
                return s if e is s.expr else EvalStmt(e, span=s.span, comments=s.comments)
            case YieldStmt():
                vals = tuple([self.operand(v) for v in s.values])
                return s if same_items(vals, s.values) \
                    else YieldStmt(vals, span=s.span, comments=s.comments)
            case ReturnStmt():
                vals = tuple([self.operand(v) for v in s.values])
                return s if same_items(vals, s.values) \
                    else ReturnStmt(vals, span=s.span, comments=s.comments)
            case ForStmt():
                body = self.body(s.body)
                return s if body is s.body else ForStmt(
                    s.loop_var, s.start, s.stop, s.step, s.iter_args, body, s.return_vars, s.kind,
                    s.attrs, span=s.span, comments=s.comments)
            case WhileStmt():
                body = self.body(s.body)
                return s if body is s.body else WhileStmt(
                    s.iter_args, s.condition, body, s.return_vars, span=s.span,
                    comments=s.comments)
            case IfStmt():
                then_body = self.body(s.then_body)
                els = self.body(s.else_body) if s.else_body is not None else None
                return s if then_body is s.then_body and els is s.else_body else IfStmt(
                    s.condition, then_body, els, s.return_vars, span=s.span, comments=s.comments)
            case ScopeStmt():
                body = self.body(s.body)
                return s if body is s.body else ScopeStmt(s.kind, body, s.args, span=s.span,
                                                          comments=s.comments)
        return s


def is_plain_tile_code(body: Stmt) -> bool:
    """`body` (nested scopes included) has no loop or if, and no statement evaluates a tensor-op
    call at any depth of any of its expressions (keyword values and the operands of arithmetic
    included: more than the conversion looks at)."""
    for s in walk_stmts(body):
        if type(s) is AssignStmt:  # the most frequent statement, without the generic walk
            if _holds_tensor_call(s.value):
                return False
            continue
        if isinstance(s, (ForStmt, WhileStmt, IfStmt)) or not dataclasses.is_dataclass(s):
            return False
        for f in dataclasses.fields(s):
            value = getattr(s, f.name)
            if not isinstance(value, Stmt) and _holds_tensor_call(value):
                return False
    return True


_LEAVES = frozenset({Var, ConstInt, ConstFloat, ConstBool})


def _holds_tensor_call(v: Any) -> bool:
    """`v` (an expression, or a tuple of them or of (key, value) pairs) is or holds a tensor-op
    call; types and other attributes are not looked into."""
    kind = type(v)
    if kind in _LEAVES:
        return False
    if kind is Call:
        op = v.op
        if not isinstance(op, GlobalVar) and _is_tensor_op_name(op.name):
            return True
        for a in v.args:
            if type(a) not in _LEAVES and _holds_tensor_call(a):
                return True
        return bool(v.kwargs and _holds_tensor_call(v.kwargs)
                    or v.attrs and _holds_tensor_call(v.attrs))
    if kind is tuple:
        return any(_holds_tensor_call(x) for x in v)
    if isinstance(v, Expr) and dataclasses.is_dataclass(v):  # IterArg (its init), tuples, ...
        return any(_holds_tensor_call(getattr(v, f.name)) for f in dataclasses.fields(v)
                   if f.name != "span")
    return False


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
