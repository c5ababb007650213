"""Scalar operators of lowered operands: their typing and the folding of integer constants.

Guarantees: an operand must be a scalar, and not a task id (a located error otherwise); a literal
adopts the other operand's dtype unless it is a float and the other is not, otherwise the one
promotion rule (pl/ir/operators.py); `scalar_binary` folds two integer constants of one dtype
computed as the interpreter computes them (a shift past 64 bits, a negative shift count, a
result no 64-bit integer holds: located errors); a comparison is a BOOL; a negated constant is
folded; `~` takes an integer, `not` anything scalar. Nothing here lowers a sub-expression: the
callers (pl/lowering/frontend/exprs.py) lower the operands first.
"""

from __future__ import annotations

import libcst as cst

from pl.errors import PlError
from pl.ir.enums import DType
from pl.ir.expr import (
    BinaryExpr,
    ConstFloat,
    ConstInt,
    Expr,
    UnaryExpr,
)
from pl.ir.fold import (
    FOLDABLE,
    int_binary,
    int_exact,
    int_undefined,
    wrap_int,
)
from pl.ir.operators import BinaryOp, UnaryOp, promote
from pl.ir.types import ScalarType
from pl.lowering.frontend.constants import (
    int_const,
)
from pl.lowering.frontend.context import FnCtx


def require_scalar(ctx: FnCtx, e: Expr, node: cst.CSTNode) -> DType:
    t = e.type
    if not isinstance(t, ScalarType):
        raise ctx.error(node, "Expression must be ScalarExpr or Var with ScalarType, got "
                              f"{type(t).__name__}",
                        hint="Use pl.add / pl.mul ... for Tensor and Tile arithmetic")
    if t.dtype is DType.TASK_ID:
        raise task_id_error(ctx, node)
    return t.dtype


def task_id_error(ctx: FnCtx, node: cst.CSTNode) -> PlError:
    return ctx.error(node, "A task id (`None`, or the id pl.submit gives) is not a number",
                     hint="pass it in deps=[...]; test it with pl.system.task_is_valid(tid)")


def _promote(a: Expr, b: Expr, da: DType, db: DType) -> DType:
    """A literal takes the other side's dtype (x: INT32 + 1 stays INT32) unless it is a float
    and the other side is not; otherwise the one promotion rule (pl/ir/operators.py)."""
    if isinstance(b, ConstInt | ConstFloat) and not isinstance(a, ConstInt | ConstFloat):
        return da if (da.is_float() or not db.is_float()) else db
    if isinstance(a, ConstInt | ConstFloat) and not isinstance(b, ConstInt | ConstFloat):
        return db if (db.is_float() or not da.is_float()) else da
    return promote(da, db)


def _retype(e: Expr, dt: DType) -> Expr:
    if isinstance(e, ConstInt) and dt.is_int():
        return ConstInt(e.value, dt)
    if isinstance(e, ConstFloat | ConstInt) and dt.is_float():
        return ConstFloat(float(e.value), dt)
    return e


def scalar_binary(ctx: FnCtx, op: BinaryOp, left: Expr, right: Expr, left_node: cst.CSTNode,
                  right_node: cst.CSTNode, node: cst.CSTNode) -> Expr:
    """`left op right` of lowered operands, folded when both are integer constants of one
    dtype."""
    dl, dr = require_scalar(ctx, left, left_node), require_scalar(ctx, right, right_node)
    if op in (BinaryOp.BitShiftLeft, BinaryOp.BitShiftRight):
        for side, d in ((left_node, dl), (right_node, dr)):
            if not d.is_int():  # as in Python (`1.5 << 2` fails)
                raise ctx.error(side, f"a shift takes integers, but this operand is {d.name}",
                                hint="convert the value to an integer type first")
    if isinstance(left, ConstInt) and isinstance(right, ConstInt) and op in FOLDABLE and left.dtype.is_int() \
            and left.dtype == right.dtype and not (op in (BinaryOp.FloorDiv, BinaryOp.FloorMod) and right.value == 0):
        if op is BinaryOp.BitShiftLeft and not 0 <= right.value < 64 and left.value != 0:
            raise ctx.error(node, f"Shift by {right.value} does not fit in 64 bits",
                            hint="kernel integers are 64-bit; shift by 0 to 63")
        if op in (BinaryOp.BitShiftLeft, BinaryOp.BitShiftRight) and right.value < 0:
            raise ctx.error(right_node, f"Negative shift count {right.value}")
        # Computed in the constants' dtype, as the interpreter computes the expression (an INDEX
        # result wraps as int64); a result of the written numbers that fits no 64-bit integer is
        # refused where it is written.
        assert int_undefined(op, right.value) is None
        int_const(ctx, int_exact(op, left.value, right.value), node)
        return ConstInt(int_binary(op, left.value, right.value, left.dtype), left.dtype)
    dt = _promote(left, right, dl, dr)
    return BinaryExpr(op, _retype(left, dt), _retype(right, dt), dt)


def scalar_compare(ctx: FnCtx, op: BinaryOp, left: Expr, right: Expr, left_node: cst.CSTNode,
                   right_node: cst.CSTNode) -> Expr:
    """`left op right` of lowered operands, `op` a comparison: a BOOL."""
    dl = require_scalar(ctx, left, left_node)
    dr = require_scalar(ctx, right, right_node)
    dt = _promote(left, right, dl, dr)
    return BinaryExpr(op, _retype(left, dt), _retype(right, dt), DType.BOOL)


def scalar_unary(ctx: FnCtx, node: cst.UnaryOperation, operand: Expr) -> Expr:
    """The unary operator `node` applied to its lowered operand (a constant negated is folded)."""
    if isinstance(node.operator, cst.Minus):
        if isinstance(operand, ConstInt):
            return ConstInt(wrap_int(int_const(ctx, -operand.value, node).value, operand.dtype),
                            operand.dtype)
        if isinstance(operand, ConstFloat):
            return ConstFloat(-operand.value, operand.dtype)
        return UnaryExpr(UnaryOp.Neg, operand, require_scalar(ctx, operand, node.expression))
    if isinstance(node.operator, cst.Plus):
        require_scalar(ctx, operand, node.expression)
        return operand
    if isinstance(node.operator, cst.Not):
        require_scalar(ctx, operand, node.expression)
        return UnaryExpr(UnaryOp.Not, operand, DType.BOOL)
    dtype = require_scalar(ctx, operand, node.expression)
    if not dtype.is_int() or dtype is DType.BOOL:
        # As in Python (`~1.5` fails): the complement of a float means nothing; a bool's would
        # be Python's -2, not a bool.
        raise ctx.error(node, f"'~' takes an integer, but its operand is {dtype.name}",
                        hint="write `not x` for a bool" if dtype is DType.BOOL
                        else "convert the value to an integer type first")
    return UnaryExpr(UnaryOp.BitNot, operand, dtype)
