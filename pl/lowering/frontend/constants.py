"""Python values and literals as IR constants.

Guarantees: an integer becomes ConstInt(INDEX) and is refused, located where it is written, when
it fits no 64-bit device integer (a literal of more than 40 digits is refused unread); a float
becomes ConstFloat(FP32) (`float("inf")` too); a bool ConstBool; a module-level number or list
closed over by a kernel becomes its constant (`py_to_expr`), anything else a located error.
`static_value` reads the Python number a constant expression stands for. Nothing here lowers a
sub-expression.
"""

from __future__ import annotations

from typing import Any

import libcst as cst

from pl.ir.enums import DType
from pl.ir.expr import (
    BinaryExpr,
    ConstBool,
    ConstFloat,
    ConstInt,
    Expr,
    MakeTuple,
    UnaryExpr,
)
from pl.ir.fold import (
    INT_MIN,
    UINT_MAX,
    binary_value,
    unary_value,
)
from pl.ir.operators import BinaryOp, Kind, UnaryOp
from pl.language import dsl
from pl.lowering.frontend import op_builders
from pl.lowering.frontend.context import FnCtx
from pl.lowering.source.static_eval import LIMIT_HINT, literal_number, size_problem

# Integer constants are 64-bit on the device (INDEX, or UINT64 for masks): a literal, a folded
# constant or a module-level number outside [INT_MIN, UINT_MAX] is refused where it is written,
# and a shift is not folded at all past 64 bits (`1 << 3000000000` would take gigabytes).
_LITERAL_DIGITS = 40


def int_const(ctx: FnCtx, value: int, node: cst.CSTNode) -> ConstInt:
    """`value` as an INDEX constant, or a PlError at `node` when it does not fit in 64 bits."""
    if not INT_MIN <= value <= UINT_MAX:
        raise ctx.error(node, f"Integer constant {_int_text(value)} does not fit in 64 bits",
                        hint=f"kernel integers lie between {INT_MIN} and {UINT_MAX}")
    return ConstInt(int(value), DType.INDEX)  # int(): `pl.PipeType.V` is stored as the plain int


def _int_text(value: int) -> str:
    return str(value) if value.bit_length() < 100 else f"of {value.bit_length()} bits"


def static_value(e: Expr) -> int | float | bool | None:
    """The value of a scalar expression built only of constants (`1 == 2`, `N % 16 == 0` with N
    a module constant), or None when it depends on a kernel value or cannot be computed here
    (a division by zero, a shift past 64 bits). Integer arithmetic wraps to the expression's
    dtype, as `pl.interpret` computes it (pl/ir/fold.py)."""
    if isinstance(e, ConstInt | ConstFloat | ConstBool):
        return e.value
    if isinstance(e, BinaryExpr):
        a, b = static_value(e.left), static_value(e.right)
        if a is None or b is None or e.op is BinaryOp.Pow \
                or (e.op in (BinaryOp.FloorDiv, BinaryOp.FloorMod, BinaryOp.FloatDiv) and b == 0) \
                or (e.op.kind is Kind.BITWISE and not (isinstance(a, int) and isinstance(b, int))) \
                or (e.op in (BinaryOp.BitShiftLeft, BinaryOp.BitShiftRight) and not 0 <= b < 64):
            return None
        return binary_value(e.op, a, b, e.dtype)  # type: ignore[no-any-return]
    if isinstance(e, UnaryExpr) and e.op in (UnaryOp.Neg, UnaryOp.Not, UnaryOp.BitNot):
        a = static_value(e.operand)
        if a is None or (e.op is UnaryOp.BitNot and not isinstance(a, int)):
            return None
        return unary_value(e.op, a, e.dtype)  # type: ignore[no-any-return]
    return None


def py_to_expr(ctx: FnCtx, value: Any, node: cst.CSTNode) -> Expr:
    """A static Python value used where an IR expression is needed. A tuple or list past the
    static evaluator's limits (its total items, its depth: `size_problem`) is refused here too,
    where a value a module's own code built (`--exec`, the decorators) first meets pl."""
    if isinstance(value, list | tuple):
        problem = size_problem(value)
        if problem is not None:
            raise ctx.error(node, f"'{_code(node)}' cannot be used in a kernel: {problem}",
                            hint=LIMIT_HINT)
    return _py_to_expr(ctx, value, node)


def _py_to_expr(ctx: FnCtx, value: Any, node: cst.CSTNode) -> Expr:
    if isinstance(value, Expr):
        return value
    if isinstance(value, bool):
        return ConstBool(value)
    if isinstance(value, int):
        return int_const(ctx, value, node)
    if isinstance(value, float):
        return ConstFloat(value, DType.FP32)
    if isinstance(value, dsl.DynVar):
        return ctx.prog.dyn_var(value)
    if isinstance(value, list | tuple):
        return MakeTuple(tuple(_py_to_expr(ctx, v, node) for v in value))
    if value is None:  # the "no producer yet" task id, as in the reference (`prev_tid = None`)
        return op_builders.build_call("pl.system.task_invalid", (), {}, ctx.cur_span)
    raise ctx.error(node, f"'{_code(node)}' is not a value usable in a kernel expression")


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def literal_int(ctx: FnCtx, node: cst.Integer) -> Any:
    if len(node.value) > _LITERAL_DIGITS:  # too long to fit, and to convert cheaply
        raise ctx.error(node, f"Integer literal of {len(node.value)} characters does not fit in "
                              "64 bits", hint=f"kernel integers lie between {INT_MIN} and {UINT_MAX}")
    return int_const(ctx, int(literal_number(node)), node)


def literal_float(ctx: FnCtx, node: cst.Float) -> Any:
    return ConstFloat(literal_number(node), DType.FP32)


def float_call(ctx: FnCtx, node: cst.Call) -> Expr:
    """`float('inf')`, `float('-inf')`, `float('nan')` (any string literal Python's `float`
    reads): the FP32 constant Python computes. How the printer writes the floats no literal
    spells (pl/printer/exprs.py, `float_text`)."""
    hint = "write float('inf'), float('-inf') or float('nan'); convert a value with pl.cast"
    args = node.args
    if len(args) != 1 or args[0].keyword is not None or args[0].star:
        raise ctx.error(node, "float(...) in a kernel takes one string literal", hint=hint)
    text = args[0].value
    if not isinstance(text, cst.SimpleString | cst.ConcatenatedString) or \
            not isinstance(value := text.evaluated_value, str):
        raise ctx.error(text, "float(...) in a kernel takes one string literal", hint=hint)
    try:
        return ConstFloat(float(value), DType.FP32)
    except ValueError:
        raise ctx.error(text, f"float() cannot read {value!r} as a number", hint=hint) from None


def literal_string(ctx: FnCtx, node: cst.SimpleString | cst.ConcatenatedString) -> Any:
    return node.evaluated_value
