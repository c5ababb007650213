"""The pre-scan of ConvertTensorToTileOps over one InCore function body (one walk; the input is
never mutated).

Guarantees:
* `hoist_and_scan(body)` gives every tensor-op call nested inside another expression (a yield
  value, a call argument, a return value) its own assignment right before its user, so the nested
  seed form `r = pl.yield_(pl.assemble(acc, c, off))` converts exactly like the un-nested one.
  In the same walk it finds both facts below about the new body (its `Scan`):
  - `Scan.demands` maps each Var whose consumer needs a memory space (conversion input
    requirements: Mat for matmul operands, ...) to that space, propagated backward through
    inherit-input ops and plain aliases; a non-Vec demand overrides Vec, otherwise first wins;
  - `Scan.entry_loaded` lists the tensor vars consumed directly by converted ops (outside
    requirement-covered slots and self-loading ops), traced through loop-carry initial values:
    the params that need an entry load.
"""

from __future__ import annotations

from dataclasses import dataclass

from typing_extensions import assert_never

from pl.errors import PlError
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
from pl.ir.rewriter import body_of
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
from pl.ir.traverse import map_expr, map_stmt, walk_exprs
from pl.ir.types import TensorType, TileType
from pl.lowering.tensor_to_tile.convert import SELF_LOADING, converter_for
from pl.ops.registry import get_op


def _is_tensor_op_call(e: Expr) -> bool:
    return isinstance(e, Call) and not isinstance(e.op, GlobalVar) and _is_tensor_op_name(e.op.name)


class _Hoister:
    """Hoists nested tensor-op calls out of each statement and hands every statement of the new
    body to `scanner` (a leaf after the statements hoisted out of it, a compound statement after
    its bodies), so the body is scanned in the same walk."""

    def __init__(self, scanner: _Scanner) -> None:
        self.pending: list[Stmt] = []
        self.scanner = scanner

    def nested(self, e: Expr) -> Expr:
        """Hoist tensor-op calls found inside `e` (e itself stays): among a call's arguments and a
        list's elements, where the seed's nested forms put them."""
        k = expr_kind(e)
        match k:
            case Call():
                args = k.args
                for i, a in enumerate(args):
                    if not isinstance(a, (Call, MakeTuple)):
                        continue  # a leaf neither holds nor is a call
                    new = self.operand(a)
                    if new is not a:  # the first hoisted operand: rebuild from here on
                        args = (*args[:i], new, *[self.operand(x) for x in args[i + 1:]])
                        return Call(k.op, args, k.kwargs, k.attrs, k.result_type, span=k.span)
                return k
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
        visit = self.scanner.visit
        for child in flatten_body(s):
            new = self.stmt(child)
            for hoisted in self.pending:
                visit(hoisted)
                out.append(hoisted)
            self.pending = []
            visit(new)
            out.append(new)
        return body_of(s, out)

    def stmt(self, stmt: Stmt) -> Stmt:
        s = stmt_kind(stmt)
        match s:
            case AssignStmt() | EvalStmt():
                return map_stmt(s, expr=self.nested)  # the call itself stays, its operands hoist
            case YieldStmt() | ReturnStmt():
                return map_stmt(s, expr=self.operand)
            case WhileStmt():
                _check_while_condition(s)
                return map_stmt(s, body=self.body)
            case ForStmt() | IfStmt() | ScopeStmt() | SeqStmts():
                return map_stmt(s, body=self.body)  # headers and conditions stay as they are
            case BreakStmt() | ContinueStmt():
                return s
            case _:
                assert_never(s)


def _check_while_condition(s: WhileStmt) -> None:
    """A tensor op in a while's condition is refused, located at it: the condition is evaluated
    before every iteration, so no statement could compute its tile form (the frontend computes
    the calls of an if's or a loop's header before it, where they are converted), and left as
    it is it would read tiles as tensors."""
    for e in walk_exprs(s.condition):
        if _is_tensor_op_call(e):
            assert isinstance(e, Call)
            raise PlError(f"{e.op.name} in the condition of a while loop is not converted to tile "
                          "ops: the condition is evaluated before every iteration, where no "
                          "statement can compute it", e.span if e.span.line > 0 else s.span,
                          hint="compute it in the loop body and carry the result: "
                               "for (..., flag) in pl.while_(init_values=(..., first)): "
                               "pl.cond(flag)")


def _is_tensor_op_name(name: str) -> bool:
    op = get_op(name)
    return op is not None and op.level == "tensor"


def hoist_and_scan(body: Stmt) -> tuple[Stmt, Scan]:
    """The body with its nested tensor-op calls hoisted, and the `Scan` of that new body."""
    scanner = _Scanner()
    new = _Hoister(scanner).body(body)
    return new, scanner.result()


def _plain_var(e: Expr) -> Var | None:
    """Var-only match (an IterArg is not a plain Var here, as in the reference)."""
    return e if isinstance(e, Var) and not isinstance(e, IterArg) else None


def _shaped(e: Expr) -> bool:
    return isinstance(e.type, (TensorType, TileType))


@dataclass(frozen=True)
class Scan:
    """What one walk over a (hoisted) InCore body finds for the rewrite (see the module docstring).

    `demands`: id of a Var -> the memory space its consumer needs; `entry_loaded`: ids of the
    tensor vars converted ops consume directly.
    """

    demands: dict[int, MemorySpace]
    entry_loaded: set[int]
    # id of a tensor Var -> the statement (and op) that first reads it whole with a converted
    # op, and the first that passes it to a tile op that reads the tensor itself (`tile.load`'s
    # source): a param with both cannot be loaded whole at entry.
    whole_uses: dict[int, tuple[Span, str]]
    tensor_uses: dict[int, tuple[Span, str]]


class _Scanner:
    """Collects a `Scan` from the statements of a body, each given once by `visit`, leaves in
    program order (a loop may come before or after its body: its initial values only feed a
    fixpoint)."""

    def __init__(self) -> None:
        self.reqs: dict[int, MemorySpace] = {}
        self.edges: list[tuple[int, int]] = []  # (a shaped var, the var it views or aliases)
        self.used: set[int] = set()
        self.inits: dict[int, Expr] = {}
        self.whole_uses: dict[int, tuple[Span, str]] = {}
        self.tensor_uses: dict[int, tuple[Span, str]] = {}

    def demand(self, key: int, space: MemorySpace) -> None:
        old = self.reqs.get(key)
        if old is None or (old is MemorySpace.Vec and space is not MemorySpace.Vec):
            self.reqs[key] = space

    def visit(self, s: Stmt) -> None:
        if isinstance(s, AssignStmt):
            value = s.value
        elif isinstance(s, EvalStmt):
            value = s.expr
        else:
            if isinstance(s, (ForStmt, WhileStmt)):
                for ia in s.iter_args:
                    self.inits[id(ia)] = ia.init
            return
        call = value if isinstance(value, Call) and not isinstance(value.op, GlobalVar) else None
        op = get_op(call.op.name) if call is not None else None
        if isinstance(s, AssignStmt) and _shaped(s.var):
            if call is None:  # an alias of a var (a call of a program function is no alias)
                src = _plain_var(value)
                if src is not None and _shaped(src):
                    self.edges.append((id(s.var), id(src)))
            elif op is not None and op.inherits_input:
                for a in call.args:
                    v = _plain_var(a)
                    if v is not None and _shaped(v):
                        self.edges.append((id(s.var), id(v)))
                        break
        if call is None:
            return
        conversion_reqs = op.conversion_reqs if op is not None else {}
        if conversion_reqs:
            for idx, (space, _trans) in sorted(conversion_reqs.items()):
                target = _plain_var(call.args[idx]) if idx < len(call.args) else None
                if target is not None:
                    self.demand(id(target), space)
        if isinstance(s, AssignStmt) and converter_for(call.op.name) is not None \
                and call.op.name not in SELF_LOADING:
            for i, a in enumerate(call.args):
                if i not in conversion_reqs and isinstance(a, Var) and isinstance(a.type, TensorType):
                    self.used.add(id(a))
                    self.whole_uses.setdefault(id(a), (s.span, call.op.name))
        elif converter_for(call.op.name) is None and call.op.name.startswith("tile.") \
                and op is not None:
            for i, a in enumerate(call.args):
                # (A write into it, `pl.store(t, .., a)`, is check_gm_writes' to refuse.)
                if i not in op.written_args and isinstance(a, Var) \
                        and isinstance(a.type, TensorType):
                    self.tensor_uses.setdefault(id(a), (s.span, call.op.name))

    def result(self) -> Scan:
        """Demands pushed back along the edges (last first), loads traced through loop inits."""
        for dst, src_key in reversed(self.edges):
            if dst in self.reqs:
                self.demand(src_key, self.reqs[dst])
        used = self.used
        changed = True
        while changed:
            changed = False
            for key, init in self.inits.items():
                if key in used and isinstance(init, Var) and isinstance(init.type, TensorType) \
                        and id(init) not in used:
                    used.add(id(init))
                    changed = True
        return Scan(self.reqs, used, self.whole_uses, self.tensor_uses)
