"""DSL op call -> IR: `build_call(spelling, args, kwargs, span)`.

Guarantees:
- the result is a concrete IR node: a `Call` of a registered op built by `pl.ops.deduce.make_call`
  (so its type is deduced and its memory space stamped), or a scalar `BinaryExpr` / `UnaryExpr`
  for the scalar forms (`pl.min/max`, `pl.add` on scalars, `pl.cast` of a scalar); a unified
  spelling never survives;
- dispatch follows the reference wrappers (dsl.md 1.7, ops.md 11): the first Tensor/Tile operand
  picks `tensor.X` or `tile.X`, a scalar rhs picks the scalar variant (`add -> adds` ...), mixing
  Tensor and Tile operands is a PlError;
- a canonical printed call (`pl.tile.load(x, [0, 0], [16, 128], [16, 128], target_memory=...)`)
  builds back exactly the Call it was printed from;
- every user mistake raises PlError located at `span`;
- given a `memo` (one per parse: `ProgCtx.built_calls`), a keyword-free call over tile / tensor
  Vars reuses the op, kwargs and result type that an earlier successful build with equal argument
  types chose in the same parse; nothing is remembered across parses.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, Final

from pl.errors import InternalError, PlError
from pl.ir.enums import DType, MemorySpace
from pl.ir.expr import BinaryExpr, Call, ConstInt, Expr, MakeTuple, Op, UnaryExpr, Var
from pl.ir.operators import BinaryOp, UnaryOp, promote
from pl.ir.span import Span
from pl.ir.types import ArrayType, ScalarType, TensorType, TileType, Type
from pl.language.dsl_ops import SCALAR_ONLY_SPELLINGS, spelling_index
from pl.lowering.frontend.op_args import describe, shape_arguments, to_expr
from pl.ops.deduce import make_call
from pl.ops.registry import OpDef, dsl_positional, get_op
from pl.ops.rules.util import is_int_dim, norm_dim, shape_str

Arg = Any  # an IR Expr, or a static Python value (enum member, str, int/float/bool, list)

# Scalar arithmetic reached through unified spellings (both operands scalar).
_SCALAR_BINARY: Final[Mapping[str, BinaryOp]] = MappingProxyType({
    "add": BinaryOp.Add, "sub": BinaryOp.Sub, "mul": BinaryOp.Mul, "div": BinaryOp.FloatDiv,
    "maximum": BinaryOp.Max, "minimum": BinaryOp.Min,
})

# Where a popped tile lives when its type is given with shape=/dtype= (ops.tsv notes).
_TPOP_SPACE: Final[Mapping[str, MemorySpace]] = MappingProxyType(
    {"tile.tpop_from_aic": MemorySpace.Vec, "tile.tpop_from_aiv": MemorySpace.Mat})

# Ops whose operands legitimately mix levels (tensor target + tile source), dispatched on arg 0.
_MIXED_OK = frozenset({"assemble", "gather_row", "store", "load", "read", "write"})


PlainCalls = dict[tuple[Any, ...], tuple[Op, tuple[tuple[str, Any], ...], Type]]


def build_call(spelling: str, args: Sequence[Arg], kwargs: Mapping[str, Arg], span: Span,
               memo: PlainCalls | None = None) -> Expr:
    """Turn one DSL op call with lowered arguments into IR (see the module docstring)."""
    key = None if kwargs or memo is None else _plain_key(spelling, args)
    if key is not None:
        assert memo is not None
        hit = memo.get(key)
        if hit is not None:
            return Call(hit[0], tuple(args), hit[1], (), hit[2], span=span)
    try:
        built = _build(spelling, [to_expr(a) for a in args],
                       {k: to_expr(v) for k, v in kwargs.items()}, span)
    except PlError as err:
        raise err.located(span) from None
    if key is not None:
        assert memo is not None
        _remember_plain(memo, key, args, built)
    return built


# `memo` keys: (spelling, the arguments' types). Dispatch reads tile / tensor Vars only through
# their kinds, argument shaping leaves them in their slots, and deduction reads them only through
# their types, which compare by value (IR constants compare by class too: ConstInt(1) is not
# ConstBool(True)), so calls with equal keys build equal Calls over their own arguments. Only
# successful builds that kept the arguments as given are stored; an error is raised again, with
# its own message, every time.
def _plain_key(spelling: str, args: Sequence[Arg]) -> tuple[Any, ...] | None:
    """The memo key of a keyword-free call, or None when an argument is not a tile / tensor Var."""
    key: list[Any] = [spelling]
    for a in args:
        if type(a) is not Var:
            return None
        t = a.var_type
        if type(t) is not TileType and type(t) is not TensorType:
            return None
        key.append(t)
    return tuple(key)


def _remember_plain(memo: PlainCalls, key: tuple[Any, ...], args: Sequence[Arg], built: Expr) -> None:
    if type(built) is not Call or built.attrs or type(built.op) is not Op \
            or len(built.args) != len(args):
        return
    for given, kept in zip(args, built.args, strict=True):
        if given is not kept:
            return
    memo[key] = (built.op, built.kwargs, built.result_type)


def _build(spelling: str, args: list[Arg], kwargs: dict[str, Arg], span: Span) -> Expr:
    op = _dispatch(spelling, args, kwargs)
    if op is None:
        if spelling in SCALAR_ONLY_SPELLINGS:
            return _scalar_binary(spelling, SCALAR_ONLY_SPELLINGS[spelling], args, kwargs, span)
        return _scalar_form(spelling, _base_name(spelling), args, kwargs, span)
    result_type = _tpop_result_type(spelling, op, kwargs) if kwargs else None
    if op.name == "pld.tensor.alloc_window_buffer":
        args = _window_bytes(spelling, args, kwargs)
    exprs, kw = shape_arguments(spelling, op, args, kwargs)
    if op.name == "array.update_element":
        exprs = _element_literal(exprs)
    call = _make(op.name, exprs, kw, span)
    if result_type is not None and isinstance(call, Call):
        call = dataclasses.replace(call, result_type=result_type)
    return call


def _window_bytes(spelling: str, args: list[Arg], kwargs: dict[str, Arg]) -> list[Arg]:
    """`pld.alloc_window_buffer([rows, cols], dtype=pl.FP32)`: the shape form of the reference's
    wrapper, the size in bytes (product of the dims times the dtype's bytes) as the op takes it."""
    dtype = kwargs.pop("dtype", None)
    if not (args and isinstance(args[0], MakeTuple)):
        if dtype is not None:
            raise PlError(f"{spelling}: dtype= is only valid when the first argument is a shape "
                          "such as [16, 64]")
        return args
    if not isinstance(dtype, DType):
        raise PlError(f"{spelling} requires dtype= when the first argument is a shape, e.g. "
                      f"{spelling}([16, 64], dtype=pl.FP32)")
    dims = args[0].elements
    if not dims:
        raise PlError(f"{spelling}: the shape must not be empty")
    size: Expr = ConstInt(dtype.byte_size(), DType.INT64)
    for d in dims:
        if not is_int_dim(d):
            raise PlError(f"{spelling}: the shape must be integers, got {shape_str(dims)}")
        if isinstance(d, ConstInt) and d.value <= 0:
            raise PlError(f"{spelling}: all dimensions must be positive, got {shape_str(dims)}")
        if isinstance(size, ConstInt) and isinstance(d, ConstInt):
            size = ConstInt(size.value * d.value, DType.INT64)
        else:
            size = BinaryExpr(BinaryOp.Mul, size, d, DType.INT64)
    return [size, *args[1:]]


def _element_literal(args: list[Expr]) -> list[Expr]:
    """`update_element(arr, i, 7)`: an integer literal value takes the integer array's element
    dtype, as the reference's wrapper gives it (printed `pl.const(7, pl.INT32)`)."""
    if len(args) == 3 and isinstance(args[0].type, ArrayType) and args[0].type.dtype.is_int():
        value = args[2]
        if type(value) is ConstInt and value.dtype is DType.INDEX:
            return [args[0], args[1], ConstInt(value.value, args[0].type.dtype, span=value.span)]
    return args


def _dispatch(spelling: str, args: list[Arg], kwargs: dict[str, Arg]) -> OpDef | None:
    """The registered op this call builds, or None for a scalar form (pl.min, scalar pl.add)."""
    if spelling in SCALAR_ONLY_SPELLINGS:
        return None
    candidates = spelling_index().get(spelling)
    if not candidates:
        raise PlError(f"Unknown operation '{spelling}'")
    if spelling.startswith("pld."):
        # `pld.remote_store` names the tile and the tensor op: its source's level picks one.
        prefix = "pld.tile." if args and _kind(args[0]) == "Tile" else "pld.tensor."
        return get_op(next((c for c in candidates if c.startswith(prefix)), candidates[0]))
    base = _base_name(spelling)
    # Operands given by keyword (`pl.add(lhs=a, rhs=b)`) choose the level as positional ones do.
    named = dsl_positional(spelling) or ()
    operands = [*args, *(kwargs[p] for p in named[len(args):] if p in kwargs)]
    level = _choose_level(spelling, base, candidates, operands)
    if level is None:
        return None
    op = _choose_op(spelling, base, level, candidates, args, kwargs)
    if spelling.startswith("pl.tensor.") and base not in _MIXED_OK:
        _reject_tile_operands(spelling, args)
    return op


def _reject_tile_operands(spelling: str, args: list[Arg]) -> None:
    """An explicit `pl.tensor.X` works on tensors; a tile operand is the user's slip, not a
    request to convert (the unified `pl.X` is the spelling that follows its operands)."""
    for i, a in enumerate(args):
        if isinstance(a, Expr) and isinstance(a.type, TileType):
            tile_spelling = "pl.tile." + spelling.removeprefix("pl.tensor.")
            raise PlError(f"{spelling} requires TensorType operands, but argument {i} is a TileType",
                          hint=f"use {tile_spelling} (or the unified pl.{spelling.removeprefix('pl.tensor.')}) "
                               "on tiles")


def _tpop_result_type(spelling: str, op: OpDef, kwargs: dict[str, Arg]) -> TileType | None:
    """tpop's DSL-only `shape=` / `dtype=` give the popped tile's type (ops.tsv); they are not kwargs."""
    space = _TPOP_SPACE.get(op.name)
    if space is None or ("shape" not in kwargs and "dtype" not in kwargs):
        return None
    shape, dtype = kwargs.pop("shape", None), kwargs.pop("dtype", None)
    if not isinstance(shape, MakeTuple) or not isinstance(dtype, DType):
        raise PlError(f"{spelling}: shape= and dtype= must be given together, e.g. "
                      f"{spelling}(shape=[16, 128], dtype=pl.FP32)")
    if not all(map(is_int_dim, shape.elements)):
        raise PlError(f"{spelling}: shape= must be a list of integers, got "
                      f"{shape_str(shape.elements)}")
    return TileType(tuple(map(norm_dim, shape.elements)), dtype, space)


def _make(name: str, args: list[Expr], kwargs: list[tuple[str, Any]], span: Span) -> Expr:
    call = make_call(name, args, kwargs, span=span)
    if not isinstance(call, Expr):  # pragma: no cover - contract of make_call
        raise InternalError(f"make_call({name!r}) returned {type(call).__name__}, not an Expr")
    return call


def _base_name(spelling: str) -> str:
    name = spelling.rsplit(".", 1)[1]
    return name[:-1] if name.endswith("_") else name


def _kind(arg: Arg) -> str:
    if isinstance(arg, Expr):
        t = arg.type
        if isinstance(t, TensorType):
            return "Tensor"
        if isinstance(t, TileType):
            return "Tile"
        if isinstance(t, ScalarType):
            return "Scalar"
    return type(arg).__name__


def _levels(candidates: Sequence[str]) -> list[str]:
    out: list[str] = []
    for name in candidates:
        lvl = name.split(".", 1)[0]
        if lvl not in out:
            out.append(lvl)
    return out


def _choose_level(spelling: str, base: str, candidates: Sequence[str], args: list[Arg]) -> str | None:
    """`tile` / `tensor` / `system`, or None for the scalar form of a unified op."""
    levels = _levels(candidates)
    for prefix in ("tile", "tensor"):
        if spelling.startswith(f"pl.{prefix}.") and prefix in levels:
            return prefix
    if len(levels) == 1:
        return levels[0]
    kinds = [_kind(a) for a in args]
    operand_kinds = [k for k in kinds if k in ("Tensor", "Tile")]
    if base not in _MIXED_OK and "Tensor" in operand_kinds and "Tile" in operand_kinds:
        raise PlError(f"{spelling}: cannot mix Tensor and Tile arguments ({', '.join(kinds)}). "
                      "All operands must be the same type level — either all Tensor or all Tile")
    if operand_kinds:
        return operand_kinds[0].lower()
    if args and _all_scalar(args[:1] if base == "cast" else args[:2]) and (
            base in _SCALAR_BINARY or base == "cast"):
        return None
    culprit = next((i for i, k in enumerate(kinds) if k != "Scalar"), 0)
    raise PlError(f"{spelling}: expected Tensor or Tile operands, got "
                  f"({', '.join(_operand_word(a) for a in args)})", argument=culprit)


def _operand_word(arg: Arg) -> str:
    """An operand as messages name it: its kind, or the value the user wrote."""
    kind = _kind(arg)
    if kind in ("Tensor", "Tile", "Scalar"):
        return kind
    return "a list" if isinstance(arg, MakeTuple) else describe(arg)


def _all_scalar(args: Sequence[Arg]) -> bool:
    return all(_kind(a) == "Scalar" for a in args)


def _choose_op(spelling: str, base: str, level: str, candidates: Sequence[str],
               args: list[Arg], kwargs: Mapping[str, Arg]) -> OpDef:
    names = [c for c in candidates if c.startswith(level + ".")]
    name = _pick_name(base, level, names, args, kwargs)
    op = get_op(name)
    if op is None:  # pragma: no cover - the index is built from the registry
        raise PlError(f"Unknown operation '{spelling}'")
    return op


def _pick_name(base: str, level: str, names: list[str], args: list[Arg],
               kwargs: Mapping[str, Arg]) -> str:
    if len(names) == 1:
        return names[0]
    rhs_scalar = len(args) > 1 and _kind(args[1]) == "Scalar"
    # A scalar rhs picks the op's scalar-rhs form (`add -> adds`, ops.md 11; see OpDef).
    unified = get_op(f"{level}.{base}")
    variant = unified.scalar_variant if unified is not None else None
    if variant and rhs_scalar and variant in names:
        return variant
    if base == "mrgsort":
        # format1 is (src, block_len); format2 merges 2-4 sorted tiles with a scratch `tmp`.
        one = len(args) == 1 or "block_len" in kwargs or (len(args) == 2 and rhs_scalar)
        return f"{level}.mrgsort_format1" if one else f"{level}.mrgsort_format2"
    if base == "gather" and level == "tensor":
        if "mask_pattern" in kwargs:
            return "tensor.gather_mask"
        # The compare form's kvalue is keyword-only in the reference; the printer writes it
        # second, alone. `gather(x, -1, idx)` / `gather(x, -1, index=idx)` is the index form.
        index_form = len(args) > 2 or "index" in kwargs
        if {"cmp_mode", "out_cols", "kvalue"} & set(kwargs) or (rhs_scalar and not index_form):
            return "tensor.gather_compare"
        return "tensor.gather"
    if base == "scatter" and level == "tensor":
        return "tensor.scatter_mask" if "mask_pattern" in kwargs else "tensor.scatter"
    exact = f"{level}.{base}"
    return exact if exact in names else names[0]


def _scalar_form(spelling: str, base: str, args: list[Arg], kwargs: Mapping[str, Arg],
                 span: Span) -> Expr:
    if base == "cast":
        return _scalar_cast(spelling, args, kwargs, span)
    return _scalar_binary(spelling, _SCALAR_BINARY[base], args, kwargs, span)


def _scalar_binary(spelling: str, op: BinaryOp, args: list[Arg], kwargs: Mapping[str, Arg],
                   span: Span) -> Expr:
    if kwargs or len(args) != 2:
        raise PlError(f"{spelling} expects 2 scalar arguments, got {len(args)}"
                      + (f" and keyword(s) {', '.join(kwargs)}" if kwargs else ""),
                      hint=f"Signature: {spelling}(lhs, rhs)")
    lhs, rhs = args
    for a in args:
        if _kind(a) != "Scalar":
            raise PlError(f"{spelling}: expected scalar operands, got ({_kind(lhs)}, {_kind(rhs)})")
    dtype = promote(_dtype(lhs), _dtype(rhs))
    if op is BinaryOp.FloatDiv and not dtype.is_float():
        dtype = DType.FP32
    return BinaryExpr(op, lhs, rhs, dtype, span=span)


def _scalar_cast(spelling: str, args: list[Arg], kwargs: Mapping[str, Arg], span: Span) -> Expr:
    target = kwargs.get("target_type", args[1] if len(args) > 1 else None)
    if len(args) < 1 or not isinstance(target, DType):
        raise PlError(f"{spelling}: a scalar cast needs a target dtype", hint=f"{spelling}(x, pl.FP32)")
    return UnaryExpr(UnaryOp.Cast, args[0], target, span=span)


def _dtype(e: Expr) -> DType:
    t = e.type
    assert isinstance(t, ScalarType)
    return t.dtype


__all__ = ["Arg", "build_call"]
