"""Type rules of the elementwise, unary, reduction, matmul, creation and access `tensor.*` ops
(results are TensorTypes in DDR, no memory space); the view/layout ops are in `tensor_view`.

Differences from the tile counterparts that are easy to get wrong (ops.md 15): tensor scalar ops
promote with the scalar (bitwise/shift scalar ops and `subs` keep arg0's dtype, as the reference's
tensor_ops/elementwise.cpp does); exp/sqrt/rsqrt/recip turn integer input into FP32; `tensor.cmp`
is not a packed mask; `tensor.div` broadcasts and promotes (only a dtype-set check); col
reductions reduce axis -2; `tensor.matmul` uses out_dtype or promote(lhs, rhs) (BF16 x BF16 stays
BF16).
"""

from __future__ import annotations

from collections.abc import Callable

from pl.ir.enums import DType, TensorLayout
from pl.ir.expr import ConstInt
from pl.ir.types import ScalarType, TensorType, TensorView, Type
from pl.ops.marks import type_rule
from pl.ops.rules.util import (
    Deduction,
    Shape,
    broadcast,
    dtype_in,
    idx,
    promote,
    same_dim,
    static,
    valid_shape_of,
)

Rule = Callable[[Deduction], Type]

_SIN = ("{op} is FP32-only, but got input with dtype {dt}. Cast the input to FP32 explicitly "
        "(pl.cast) before calling it")
_NOT = ("{op} requires an int16 or uint16 tensor dtype, but got {dt}. Reinterpret or cast the "
        "input first")
_LOG = "{op} requires an FP16 or FP32 tensor operand, but got {dt}"


def tensor(shape: Shape, dtype: DType, view: TensorView | None = None) -> TensorType:
    return TensorType(tuple(shape), dtype, view)


def row_major_strides(shape: Shape) -> list[int] | None:
    dims = [static(d) for d in shape]
    if any(d is None for d in dims):
        return None
    out, acc = [], 1
    for d in reversed(dims):
        out.append(acc)
        acc *= d  # type: ignore[operator]
    return out[::-1]


@type_rule("tensor.add", "tensor.sub", "tensor.mul", "tensor.fmod", "tensor.part_add", "tensor.part_max",
           "tensor.part_min", "tensor.part_mul")
@type_rule("tensor.div", allowed=(DType.INT16, DType.INT32, DType.FP16, DType.FP32))
@type_rule("tensor.maximum", "tensor.minimum", "tensor.cmp", scalar_rhs=True)
@type_rule("tensor.and", "tensor.or", "tensor.xor", int_only=True)
@type_rule("tensor.shl", "tensor.shr", int_only=True, keep_dtype=True)
def binary(ctx: Deduction, *, int_only: bool = False, keep_dtype: bool = False,
           scalar_rhs: bool = False, allowed: tuple[DType, ...] = ()) -> Type:
    """Tensor-tensor elementwise; `scalar_rhs` ops (maximum/minimum/cmp) also take a scalar."""
    ctx.nargs(2)
    if scalar_rhs and isinstance(ctx.args[1].type, ScalarType):
        return scalar_op(ctx)
    a, b = ctx.shaped(0), ctx.shaped(1)
    for t in (a, b):
        if int_only and not t.dtype.is_int():
            raise ctx.fail(f"The operator {ctx.name} requires an integer tensor dtype, but got "
                           f"{t.dtype.short}")
        if allowed:
            dtype_in(ctx, t.dtype, allowed, "operand dtype")
    dt = a.dtype if keep_dtype else promote(a.dtype, b.dtype)
    if ctx.kw_bool("high_precision") and not dt.is_float():
        raise ctx.fail(f"The operator {ctx.name} supports high_precision only for FP16 or FP32")
    shape = broadcast(ctx, a.shape, b.shape)
    keep = ctx.name not in _FRESH_VALID and isinstance(a, TensorType) \
        and isinstance(b, TensorType) and len(a.shape) == len(b.shape) \
        and all(map(same_dim, a.shape, b.shape)) \
        and all(map(same_dim, valid_shape_of(a), valid_shape_of(b)))
    return tensor(shape, dt, _valid(shape, valid_shape_of(a)) if keep else None)


# Elementwise results keep their operands' valid region (both operands', when they agree), as
# the reference's do; the partial combines and comparisons make a fully valid result.
_FRESH_VALID = frozenset({"tensor.part_add", "tensor.part_mul", "tensor.part_max",
                          "tensor.part_min", "tensor.cmp"})


def _valid(shape: Shape, valid: Shape) -> TensorView | None:
    """A view carrying `valid` when it is narrower than `shape`."""
    if len(valid) != len(shape) or all(map(same_dim, valid, shape)):
        return None
    return TensorView(valid_shape=tuple(valid))


@type_rule("tensor.adds", "tensor.muls", "tensor.divs", "tensor.fmods")
@type_rule("tensor.subs", keep_dtype=True,
           allowed=(DType.INT8, DType.INT16, DType.INT32, DType.FP16, DType.FP32, DType.BF16))
@type_rule("tensor.ands", "tensor.ors", "tensor.xors", "tensor.shls", "tensor.shrs", keep_dtype=True,
           int_only=True)
def scalar_op(ctx: Deduction, *, keep_dtype: bool = False, int_only: bool = False,
              allowed: tuple[DType, ...] = ()) -> Type:
    """Tensor-scalar: promote with the scalar, except bitwise/shift and subs (keep arg0's)."""
    ctx.nargs(2)
    a = ctx.shaped(0)
    s = ctx.scalar(1)
    if int_only:
        if not a.dtype.is_int():
            raise ctx.fail(f"The operator {ctx.name} requires an integer tensor dtype, but got "
                           f"{a.dtype.short}")
        if not s.is_int():
            raise ctx.fail(f"The operator {ctx.name} requires the shift/bitwise scalar to be an "
                           f"integer type, but got {s.short}")
    rhs = ctx.args[1]
    if type(rhs) is ConstInt and rhs.dtype is DType.INDEX and (a.dtype.is_int() or a.dtype.is_float()):
        # A bare integer literal has no dtype of its own yet: it takes the tensor's, as the
        # reference's wrappers stamp it (`pl.mul(int32_tensor, 2)` is INT32, not INDEX).
        s = a.dtype
    if allowed:
        dtype_in(ctx, a.dtype, allowed, "tensor dtype")
        dtype_in(ctx, s, allowed, "scalar dtype")
    keep = isinstance(a, TensorType) and ctx.name not in _FRESH_VALID
    return tensor(a.shape, a.dtype if keep_dtype else promote(a.dtype, s),
                  _valid(a.shape, valid_shape_of(a)) if keep else None)


@type_rule("tensor.abs", "tensor.neg")
@type_rule("tensor.exp", "tensor.sqrt", "tensor.rsqrt", "tensor.recip", to_float=True)
@type_rule("tensor.sin", "tensor.cos", allowed=(DType.FP32,), message=_SIN)
@type_rule("tensor.log", allowed=(DType.FP16, DType.FP32), message=_LOG)
@type_rule("tensor.not", allowed=(DType.INT16, DType.UINT16), message=_NOT)
def unary(ctx: Deduction, *, to_float: bool = False, allowed: tuple[DType, ...] = (),
          message: str = "") -> Type:
    ctx.nargs(1)
    a = ctx.shaped(0)
    if allowed and a.dtype not in allowed:
        raise ctx.fail(message.format(op=ctx.name, dt=a.dtype.short))
    if ctx.kw_bool("high_precision") and a.dtype not in (DType.FP16, DType.FP32):
        raise ctx.fail(f"The operator {ctx.name} supports high_precision only for FP16/FP32")
    dt = a.dtype if a.dtype.is_float() or not to_float else DType.FP32
    return tensor(a.shape, dt)


@type_rule("tensor.cast")
def cast(ctx: Deduction) -> Type:
    ctx.nargs(1)
    a = ctx.shaped(0)
    target = ctx.kw_dtype("target_type")
    if target is a.dtype:
        raise ctx.fail(f"{ctx.name}: target_type {target.short} equals input dtype; same-dtype "
                       "cast is not a valid operation")
    return tensor(a.shape, target)


@type_rule("tensor.row_expand", "tensor.row_expand_add", "tensor.row_expand_div", "tensor.row_expand_expdif",
           "tensor.row_expand_max", "tensor.row_expand_min", "tensor.row_expand_mul",
           "tensor.row_expand_sub", "tensor.col_expand", "tensor.col_expand_add", "tensor.col_expand_div",
           "tensor.col_expand_expdif", "tensor.col_expand_max", "tensor.col_expand_min",
           "tensor.col_expand_mul", "tensor.col_expand_sub", "tensor.expands")
def expand(ctx: Deduction) -> Type:
    ctx.nargs(2)
    a = ctx.shaped(0)
    other = ctx.args[1].type
    odt = other.dtype if isinstance(other, (TensorType, ScalarType)) else a.dtype
    return tensor(a.shape, promote(a.dtype, odt))


def _axis(ctx: Deduction, rank: int, default: int) -> int:
    ax = ctx.kw_int("axis", default)
    assert ax is not None
    a = ax + rank if ax < 0 else ax
    if not 0 <= a < rank:
        raise ctx.fail(f"The operator {ctx.name} requires axis in [-{rank}, {rank}), but got {ax}")
    return a


@type_rule("tensor.row_sum", "tensor.row_max", "tensor.row_min", "tensor.row_prod", default_axis=-1)
@type_rule("tensor.col_sum", "tensor.col_max", "tensor.col_min", "tensor.col_prod", default_axis=-2)
@type_rule("tensor.row_argmax", "tensor.row_argmin", default_axis=-1, out=DType.INT32)
@type_rule("tensor.col_argmax", "tensor.col_argmin", default_axis=-2, out=DType.INT32)
def reduce(ctx: Deduction, *, default_axis: int, out: DType | None = None) -> Type:
    ctx.nargs(1)
    a = ctx.shaped(0)
    ax = _axis(ctx, a.rank, default_axis)
    keep = ctx.kwargs.get("keep_dim", True)
    shape = list(a.shape)
    if keep is False:
        del shape[ax]
    else:
        shape[ax] = idx(1)
    return tensor(tuple(shape), out or a.dtype)


@type_rule("tensor.matmul")
def matmul(ctx: Deduction) -> Type:
    ctx.nargs(2)
    lhs, rhs = ctx.shaped(0), ctx.shaped(1)
    if lhs.rank < 2 or rhs.rank < 2:
        raise ctx.fail(f"{ctx.name} requires operands of rank >= 2")
    lm, lk = lhs.shape[-2], lhs.shape[-1]
    rk, rn = rhs.shape[-2], rhs.shape[-1]
    if ctx.kw_bool("a_trans"):
        lm, lk = lk, lm
    if ctx.kw_bool("b_trans"):
        rk, rn = rn, rk
    k1, k2 = static(lk), static(rk)
    if k1 is not None and k2 is not None and k1 != k2:
        raise ctx.fail(f"{ctx.name} requires matching inner dimensions, but got lhs K={k1} and "
                       f"rhs K={k2}")
    batch = broadcast(ctx, lhs.shape[:-2], rhs.shape[:-2])
    dt = ctx.kw_dtype("out_dtype", promote(lhs.dtype, rhs.dtype))
    return tensor(tuple(batch) + (lm, rn), dt)


@type_rule("tensor.matmul_acc")
def matmul_acc(ctx: Deduction) -> Type:
    ctx.nargs(3, 4)
    ctx.init_cond(3)
    acc = ctx.shaped(0)
    ctx.shaped(1)
    ctx.shaped(2)
    return tensor(acc.shape, acc.dtype)


@type_rule("tensor.create", "tensor.create_l1")
@type_rule("tensor.full", nargs=(2, 2))
@type_rule("tensor.ci", shape_at=1, nargs=(2, 2), default=DType.INT32)
@type_rule("tensor.random", shape_at=6, nargs=(7, 7), default=DType.UINT32)
def creation(ctx: Deduction, *, shape_at: int = 0, nargs: tuple[int, int] = (1, 1),
             default: DType | None = None) -> Type:
    ctx.nargs(*nargs)
    shape = ctx.tuple_arg(shape_at)
    view = None
    layout = ctx.kwargs.get("layout")
    if isinstance(layout, TensorLayout) and layout is not TensorLayout.ND:
        view = TensorView(layout=layout)
    return tensor(shape, ctx.kw_dtype("dtype", default), view)


@type_rule("tensor.dim")
def dim(ctx: Deduction) -> Type:
    ctx.nargs(2)
    a = ctx.shaped(0)
    ax = ctx.int_arg(1)
    if ax is not None and not -a.rank <= ax < a.rank:
        raise ctx.fail(f"The operator {ctx.name} requires axis in range, but got {ax}")
    return ScalarType(DType.INDEX)


@type_rule("tensor.scatter_mask")
def scatter_mask(ctx: Deduction) -> Type:
    """dst's type: the input's columns land in the columns of dst its mask pattern selects, so
    dst is 2 (patterns 1-2), 4 (3-6) or 1 (7) times as wide, with the input's dtype."""
    ctx.nargs(2)
    src, dst = ctx.shaped(0), ctx.shaped(1)
    pattern = ctx.kw_int("mask_pattern")
    if pattern is None or not 1 <= pattern <= 7:
        raise ctx.fail(f"The operator {ctx.name} requires mask_pattern in [1, 7], but got {pattern}")
    if src.dtype is not dst.dtype or src.rank != 2 or dst.rank != 2:
        raise ctx.fail(f"The operator {ctx.name} requires 2D input and dst of one dtype, but got "
                       f"{src.dtype.name} rank {src.rank} and {dst.dtype.name} rank {dst.rank}")
    stride = 1 if pattern == 7 else 2 if pattern <= 2 else 4
    cols, dst_cols = src.shape[1], dst.shape[1]
    if isinstance(cols, ConstInt) and isinstance(dst_cols, ConstInt) \
            and dst_cols.value != cols.value * stride:
        raise ctx.fail(f"The operator {ctx.name} with mask_pattern={pattern} requires dst.shape[1] "
                       f"({dst_cols.value}) == input.shape[1] ({cols.value}) * {stride}")
    return tensor(dst.shape, dst.dtype)


@type_rule("tensor.read")
def read(ctx: Deduction) -> Type:
    ctx.nargs(2)
    return ScalarType(ctx.shaped(0).dtype)


@type_rule("tensor.write", "tensor.scatter", "tensor.scatter_update")
@type_rule("tensor.fillpad", "tensor.mrgsort_format1", keep_view=False)
def same_as(ctx: Deduction, *, i: int = 0, keep_view: bool = True) -> Type:
    """The type of argument `i` (as a plain tensor of its shape and dtype unless `keep_view`)."""
    t = ctx.shaped(i)
    if isinstance(t, TensorType):
        return t if keep_view else tensor(t.shape, t.dtype)
    return tensor(t.shape, t.dtype)
