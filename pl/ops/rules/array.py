"""Result types of the on-core array ops (`array.create`, `array.get_element`,
`array.update_element`), checked as the reference checks them.

Guarantees: an array type has a positive constant extent and integer, BOOL or TASK_ID elements
(the annotation `pl.Array[...]` is checked by the same functions); an index is an integer
scalar and, when it is a constant, inside the extent; a stored value has the element dtype (INDEX
and the integer dtypes stand for each other, as `arr[i] = i` needs under `pl.range`).
"""

from __future__ import annotations

from pl.ir.enums import DType
from pl.ir.expr import ConstInt, Expr
from pl.ir.types import ArrayType, ScalarType, Type
from pl.ops.marks import type_rule
from pl.ops.rules.util import Deduction, type_name

ARRAY_EXTENT = "An array's extent must be a positive compile-time int"


def is_array_extent(extent: Expr) -> bool:
    return isinstance(extent, ConstInt) and extent.value >= 1


def is_array_dtype(dtype: DType) -> bool:
    return dtype.is_int() or dtype in (DType.BOOL, DType.TASK_ID)


def array_dtype_problem(dtype: DType) -> str:
    return f"An array's elements must be integers, BOOL or TASK_ID, not pl.{dtype.name}"


@type_rule("array.create")
def create(ctx: Deduction) -> Type:
    ctx.nargs(1)
    dtype = ctx.kw_dtype("dtype")
    extent = ctx.args[0]
    if not is_array_extent(extent):
        raise ctx.fail(f"{ctx.name}: {ARRAY_EXTENT}", argument=0)
    if not is_array_dtype(dtype):
        raise ctx.fail(f"{ctx.name}: {array_dtype_problem(dtype)}")
    assert isinstance(extent, ConstInt)  # is_array_extent checked it
    return ArrayType(extent.value, dtype)


def _array_and_index(ctx: Deduction) -> ArrayType:
    t = ctx.args[0].type
    if not isinstance(t, ArrayType):
        raise ctx.fail(f"The operator {ctx.name} requires the first argument to be an Array, "
                       f"but got {type_name(t)}", argument=0)
    index_dtype = ctx.scalar(1)
    if not index_dtype.is_int():
        raise ctx.fail(f"The operator {ctx.name} requires an integer index, but got "
                       f"pl.{index_dtype.name}", argument=1)
    index = ctx.args[1]
    if isinstance(index, ConstInt) and not 0 <= index.value < t.extent:
        raise ctx.fail(f"{ctx.name}: index {index.value} is out of range for an array of "
                       f"{t.extent} elements", argument=1)
    return t


@type_rule("array.get_element")
def get_element(ctx: Deduction) -> Type:
    ctx.nargs(2)
    return ScalarType(_array_and_index(ctx).dtype)


@type_rule("array.update_element")
def update_element(ctx: Deduction) -> Type:
    ctx.nargs(3)
    t = _array_and_index(ctx)
    value = ctx.scalar(2)
    mixes = (value is DType.INDEX and t.dtype.is_int()) or (t.dtype is DType.INDEX and value.is_int())
    if value is not t.dtype and not mixes:
        raise ctx.fail(f"{ctx.name}: the value's dtype pl.{value.name} is not the array's "
                       f"element dtype pl.{t.dtype.name}", argument=2)
    return t
