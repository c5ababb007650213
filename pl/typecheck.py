"""The well-typed property: every stored type is the one the op type rules deduce.

`verify_well_typed(program)` re-runs the type rule of every registered op call in every function
(`pl.ops.deduce.make_call`, the same rules the frontend and the passes use) and returns one located
PlError per violation, in program order, raising nothing:
* a call the rules reject (the rule's own message);
* a call whose stored result type differs from the deduced one;
* a scalar operator (BinaryExpr, UnaryExpr) with a non-scalar operand, or whose stored dtype is
  not the one its record gives (pl/ir/operators.py: the promoted operand dtypes, BOOL for a
  comparison or a logical operator);
* an assignment whose variable's type differs from its value's type (INDEX and INT64 scalars
  stand for each other, as in the frontend's annotation check); likewise an iter arg against
  its initial value and a loop's or if's return var against what its body's closing yield gives
  (shape and dtype; memory spaces too for loops once inference has placed the tiles, `placed`,
  while an if's branches may end in different spaces, the reference's divergent phi).
An op with no result rule (its result is Unknown until an annotation types it) is not compared.
A memory space the rule leaves unset (inference places tiles later) is not compared, nor is a
memref; everything else - shape, dtype, space when deduced, view - must be equal. One stored type
differs from its rule's by design: flatten_tile_nd_to_2d gives an N-D window's `tile.load` the
merged 2-D tile (`lowering.flatten_nd.flat_tile_type` of the deduced one), which is accepted.
`pl.passes.PassManager(..., verify=True)` runs it (and the SSA check once SSA form is reached)
after every pass.
"""

from __future__ import annotations

from typing_extensions import assert_never

from pl.errors import PlError
from pl.ir.enums import DType
from pl.ir.expr import BinaryExpr, Call, Expr, GlobalVar, UnaryExpr, Var
from pl.ir.function import Function, Program
from pl.ir.operators import BinaryOp
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
from pl.ir.traverse import stmt_exprs, walk_exprs, walk_stmts
from pl.ir.types import ScalarType, TileType, TupleType, Type, UnknownType, declared_valid
from pl.lowering.flatten_nd import flat_tile_type
from pl.ops.deduce import make_call
from pl.ops.registry import get_op
from pl.printer.program import print_type


def _comparable(t: Type, deduced: Type) -> Type:
    """`t` as the rules would write it: without the memory space they left unset, no memref."""
    if isinstance(t, TileType) and isinstance(deduced, TileType):
        space = t.memory_space if deduced.memory_space is not None else None
        return TileType(t.shape, t.dtype, space, t.view, None)
    if isinstance(t, TupleType) and isinstance(deduced, TupleType) \
            and len(t.types) == len(deduced.types):
        return TupleType(tuple(_comparable(a, b) for a, b in zip(t.types, deduced.types,
                                                                   strict=True)))
    return t


def _text(t: Type) -> str:
    """A type as the DSL writes it (`UnknownType`, which has no DSL form, by name)."""
    return "Unknown" if isinstance(t, UnknownType) else print_type(t)


def _assignable(var: Type, value: Type) -> bool:
    """A variable's type against its value's: equal (memref aside), INDEX and INT64 scalars (the
    frontend accepts either annotation for the other: the reference's INDEX is an int64), or any
    type for an Unknown value."""
    if isinstance(value, UnknownType):
        return True  # an op without a result rule: the annotation types it (dsl.md 1.3)
    if isinstance(var, ScalarType) and isinstance(value, ScalarType):
        return var.dtype == value.dtype or {var.dtype, value.dtype} <= _INT64_LIKE
    narrowed = declared_valid(var, value)
    if narrowed is not None:  # the declaration narrows the value's valid region, as the frontend accepts
        return _strip(var) == _strip(narrowed)
    return _strip(var) == _strip(value)


_INT64_LIKE = frozenset({DType.INDEX, DType.INT64})


def _carried(t: Type, spaces: bool) -> Type:
    """What a loop carry or phi must agree on: shape, dtype and (`spaces`) memory space. Views
    are not compared: inference refreshes a carried tile's view per use."""
    if isinstance(t, TileType):
        return TileType(t.shape, t.dtype, t.memory_space if spaces else None, None, None)
    return t


def _strip(t: Type) -> Type:
    if isinstance(t, TileType):
        return TileType(t.shape, t.dtype, t.memory_space, t.view, None)
    return t


def _same(stored: Type, deduced: Type) -> bool:
    return _comparable(stored, deduced) == _strip(deduced)


def _stored_fits(call: Call, deduced: Type) -> bool:
    if _same(call.type, deduced):
        return True
    if call.op.name == "tile.load" and isinstance(deduced, TileType):
        flat = flat_tile_type(deduced)
        return flat is not None and _same(call.type, flat)
    return False


class _Checker:
    def __init__(self, func: Function, placed: bool) -> None:
        self.func = func
        self.placed = placed
        self.errors: list[PlError] = []

    def fail(self, message: str, span: Span) -> None:
        self.errors.append(PlError(f"function '{self.func.name}': {message}", span,
                                   note="rule WellTyped"))

    def expr(self, e: Expr, span: Span) -> None:
        """Check every op call in `e`, innermost first (the reverse of a pre-order puts every
        expression after all of those inside it)."""
        for x in reversed(list(walk_exprs(e))):
            if isinstance(x, Call):
                self.call(x, span)
            elif isinstance(x, BinaryExpr | UnaryExpr):
                self.scalar(x, span)

    def scalar(self, e: BinaryExpr | UnaryExpr, span: Span) -> None:
        """An operator's operands are scalars and its stored dtype is the one its record gives
        (pl/ir/operators.py: promoted operands, BOOL for a comparison; INDEX and INT64 stand for
        each other; a FloatDiv of integers may be FP32, as `pl.div` builds it)."""
        where = e.span if e.span.line > 0 else span
        operands = (e.left, e.right) if isinstance(e, BinaryExpr) else (e.operand,)
        dtypes = [t.dtype for x in operands if isinstance(t := x.type, ScalarType)]
        if len(dtypes) != len(operands):
            self.fail(f"'{e.op.symbol}' takes scalars, but an operand is "
                      f"{' and '.join(_text(x.type) for x in operands)}", where)
            return
        if isinstance(e, BinaryExpr):
            want = e.op.result_dtype(dtypes[0], dtypes[1])
            also = DType.FP32 if e.op is BinaryOp.FloatDiv and not want.is_float() else want
        else:
            want = also = e.op.result_dtype(dtypes[0], e.dtype)
        if e.dtype not in (want, also) and {e.dtype, want} != {DType.INDEX, DType.INT64}:
            names = " and ".join(d.name for d in dtypes)
            self.fail(f"'{e.op.symbol}' of {names} gives {want.name}, but the expression stores "
                      f"{e.dtype.name}", where)

    def call(self, e: Call, span: Span) -> None:
        if isinstance(e.op, GlobalVar) or get_op(e.op.name) is None:
            return
        where = e.span if e.span.line > 0 else span
        try:
            deduced = make_call(e.op.name, e.args, e.kwargs).type
        except PlError as err:
            self.fail(f"{e.op.name} is ill-typed: {err.message}", where)
            return
        if isinstance(deduced, UnknownType):
            return  # no result rule (e.g. cross-core pops): the stored type is the annotation's
        if not _stored_fits(e, deduced):
            self.fail(f"{e.op.name} stores the result type {_text(e.type)} but its "
                      f"arguments give {_text(deduced)}", where)

    def stmt(self, stmt: Stmt) -> None:
        for e in stmt_exprs(stmt):  # every call the statement evaluates, loop headers included
            self.expr(e, stmt.span)
        s = stmt_kind(stmt)
        match s:
            case AssignStmt():
                if not _assignable(s.var.type, s.value.type):
                    self.fail(f"'{s.var.name}' is declared {_text(s.var.type)} but assigned "
                              f"a value of type {_text(s.value.type)}", s.span)
            case ForStmt() | WhileStmt():
                for ia in s.iter_args:
                    self.carried(f"iter arg '{ia.name}'", ia.type, ia.init.type, s.span,
                                 self.placed)
                self.joined(s.return_vars, s.body, self.placed)
            case IfStmt():
                # An if whose branches end in different spaces is left so by inference (pass.md
                # 8, the reference's divergent-branch behaviour): phis compare without spaces.
                self.joined(s.return_vars, s.then_body, False)
                if s.else_body is not None:
                    self.joined(s.return_vars, s.else_body, False)
            case EvalStmt() | ReturnStmt() | YieldStmt() | SeqStmts() | ScopeStmt() | BreakStmt() \
                    | ContinueStmt():
                pass  # nothing typed beyond their calls (verify_well_typed walks nested bodies)
            case _:
                assert_never(s)

    def joined(self, return_vars: tuple[Var, ...], body: Stmt, spaces: bool) -> None:
        """Each return var against the value the body's closing yield gives it."""
        last = flatten_body(body)[-1:] if return_vars else []
        if last and isinstance(last[0], YieldStmt):
            for rv, v in zip(return_vars, last[0].values, strict=False):
                self.carried(f"return var '{rv.name}'", rv.type, v.type, last[0].span, spaces)

    def carried(self, what: str, declared: Type, given: Type, span: Span, spaces: bool) -> None:
        """`spaces`: compare memory spaces too (before inference a carry may still change space,
        so they are compared only once the tiles are placed)."""
        declared, given = _carried(declared, spaces), _carried(given, spaces)
        if not _assignable(declared, given):
            self.fail(f"{what} is {_text(declared)} but receives a value of type "
                      f"{_text(given)}", span)


def verify_well_typed(program: Program, *, placed: bool = False) -> list[PlError]:
    """Every violation of the well-typed property in `program` (empty: well-typed). `placed`:
    memory-space inference has run, so loop carries and phis must also agree on their tiles'
    memory spaces and views (before it, inference may still move a carried value)."""
    errors: list[PlError] = []
    for f in program.functions:
        checker = _Checker(f, placed and f.func_type.is_incore_kind())  # inference's scope
        for s in walk_stmts(f.body):  # every statement, nested bodies included
            checker.stmt(s)
        errors.extend(checker.errors)
    return errors


__all__ = ["verify_well_typed"]
