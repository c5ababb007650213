"""Argument shaping for DSL op calls: what the reference's Python builders do before `create_op_call`.

Given the chosen IR op and the user's positional / keyword arguments, `shape_arguments` returns the
positional Exprs and the keyword values exactly as the IR Call stores them:
- keyword spellings of positional parameters (`valid_shape=`, `tmp_tile=`) move to their slot, extra
  positionals fill the op's keyword parameters in declared order (`pl.cast(t, pl.FP16)`);
- arity and keyword names are checked (PlError naming the expected signature / accepted kwargs); no
  call takes more positional arguments than the reference's wrapper of its spelling does
  (`positional_limit`), and positionals bind as that wrapper binds them (`bind_by_reference`), so
  an argument is never taken for a parameter it is not;
- the reference's always-emitted defaults are filled (`tile.load` valid_shape and target_memory,
  `tile.create` target_memory, `tensor.create` layout, cast mode, fillpad pad_value, tensor.matmul
  flags, cmp_type); literal kwarg values become Python values, string enums their ints;
- keyword values come back in the op's declared order, so any spelling of a call builds one Call.
Pure: nothing here touches the IR it is given.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from enum import Enum, IntEnum
from typing import Any

from pl.errors import PlError
from pl.ir.enums import DType, MemorySpace, PadValue
from pl.ir.expr import ConstBool, ConstFloat, ConstInt, Expr, MakeTuple
from pl.ir.types import TileType
from pl.language.dsl_ops import canonical_spelling
from pl.ops.registry import (
    ARG_KINDS,
    KWARG_CODES,
    KWARG_ENUMS,
    KWARG_TYPES,
    OpDef,
    dsl_positional,
    rebinding_slot,
)
from pl.ops.surface import SURFACES

LOAD_SPACES = (MemorySpace.Vec, MemorySpace.Mat)


def to_expr(value: Any) -> Any:
    """Python literals to IR constants, lists to MakeTuple; Exprs and enums/str pass unchanged."""
    if isinstance(value, Expr):  # the common case, first
        return value
    if isinstance(value, bool):
        return ConstBool(value)
    if isinstance(value, IntEnum):  # an int-coded member: `_convert_kwarg` decides what it means
        return value
    if isinstance(value, int):
        return ConstInt(value)
    if isinstance(value, float):
        return ConstFloat(value)
    if isinstance(value, list | tuple):
        elements = tuple(to_expr(v) for v in value)
        for e in elements:
            if not isinstance(e, Expr):  # `["a"]`: left as the list, for the caller to reject
                return value
        return MakeTuple(elements)
    return value


def _arg_bounds(op: OpDef) -> tuple[int, int]:
    """(required, maximum) positional arguments of `op` at DSL level (the op's record says)."""
    return op.dsl_min_args, len(op.args)


def positional_limit(spelling: str, op: OpDef) -> int:
    """The most positional arguments a call of `op` spelled `spelling` takes: the op's positional
    slots plus its keyword parameters, capped by the reference wrapper of the spelling (a surplus
    argument must never become a keyword parameter the wrapper does not take positionally:
    `pl.row_sum(t, a, b)` is not `tensor.row_sum(t, axis=a, keep_dim=b)`)."""
    limit = len(op.args) + len(op.kwargs) + len(op.droppable_defaults)
    params = _reference_params(spelling, op)
    return limit if params is None else min(limit, len(params))


def bind_by_reference(spelling: str, op: OpDef, args: Sequence[Any], kwargs: Mapping[str, Any]
                      ) -> tuple[Sequence[Any], Mapping[str, Any]]:
    """Positional arguments bound the way the reference's wrapper binds them.

    The wrapper's parameter order can differ from the IR op's (`pl.matmul_acc(acc, lhs, rhs,
    a_trans, b_trans, init_cond)` against `tensor.matmul_acc(acc, lhs, rhs, init_cond; a_trans,
    b_trans)`): from the first positional the two bind differently (`rebinding_slot`), every
    positional is passed by the wrapper's parameter name (a name the IR does not know stands for
    the IR slot at its index). A wrapper parameter the op has no place for (`tmp_tile` of
    `pl.row_sum` on a tensor) is an error, never another parameter. A call that also names a
    parameter so bound is refused by the reference; it is the printer's IR-order form and is read
    in IR order."""
    droppable = tuple(op.droppable_defaults)
    params = _reference_params(spelling, op)
    first = None if params is None else rebinding_slot(
        spelling if dsl_positional(spelling) is not None else canonical_spelling(op.name),
        op, len(args), droppable)
    if params is None or first is None:
        return args, kwargs
    names = {a.name for a in op.args} | {k.name for k in op.kwargs} | set(droppable)
    bound = dict(kwargs)
    for i in range(first, len(args)):
        p = params[i]
        if p not in names and i >= len(op.args):
            raise PlError(f"{spelling}: argument {i + 1} ('{p}') has no meaning for {op.name}",
                          hint=f"Signature: {signature(spelling, op)}")
        name = p if p in names else op.args[i].name
        if name in bound:
            return args, kwargs
        bound[name] = args[i]
    return args[:first], bound


def _reference_params(spelling: str, op: OpDef) -> tuple[str, ...] | None:
    """The positional parameters of the reference wrapper the call goes through: the spelling's
    own, else that of the op's canonical spelling; None for system ops (see `rebinding_slot`)."""
    if op.level == "system":
        return None
    params = dsl_positional(spelling)
    return params if params is not None else dsl_positional(canonical_spelling(op.name))


def signature(spelling: str, op: OpDef) -> str:
    """`pl.tile.load(tensor, offsets, shapes[, valid_shape], target_memory=, clamp=)`."""
    required, _ = _arg_bounds(op)
    pos = ", ".join(a.name for a in op.args[:required])
    opt = "".join(f"[, {a.name}]" for a in op.args[required:])
    kws = ", ".join(f"{k.name}=" for k in op.kwargs)
    inner = pos + opt + (", " if (pos or opt) and kws else "") + kws
    return f"{spelling}({inner})"


def _convert_kwarg(spelling: str, op: OpDef, key: str, value: Any) -> Any:
    """A kwarg value as the IR stores it: Python scalars, enum members, DTypes, or Exprs."""
    spec = op.kwarg_spec(key)
    type_name = spec.type_name if spec else ""
    if isinstance(value, ConstBool):
        value = value.value
    elif isinstance(value, ConstInt | ConstFloat) and type_name not in ("Expr",):
        value = value.value
    if isinstance(value, IntEnum):  # `pl.AtomicType.Add` & co. (pl/ir/enums.py)
        # An int-coded kwarg keeps the int, as the reference's IR does; in any other kwarg the
        # member stays itself, so the check below names the misuse instead of reading its int.
        return int(value) if type_name and KWARG_TYPES[type_name].stores_int else value
    if key == "pad_value" and not isinstance(value, PadValue):
        return _pad_value(spelling, value)
    enum_type = KWARG_ENUMS.get(type_name)
    if enum_type is not None and isinstance(value, int) and not isinstance(value, bool):
        for member in enum_type:
            if member.value == value:
                return member
        raise PlError(f"{spelling}: {value} is not a valid {key}; expected one of "
                      + ", ".join(f"pl.{enum_type.__name__}.{m.name}" for m in enum_type))
    if key in KWARG_CODES and type_name and KWARG_TYPES[type_name].stores_int and isinstance(value, str | int) \
            and not isinstance(value, bool):
        table = KWARG_CODES[key]
        code = table.get(value.lower()) if isinstance(value, str) else value
        if code not in table.values():
            shown = f"'{value}'" if isinstance(value, str) else str(value)
            raise PlError(f"{spelling}: invalid {key} {shown}; expected one of "
                          + ", ".join(repr(k) for k in table)
                          + f" (or its code, {min(table.values())} to {max(table.values())})")
        return code
    return value


def describe(value: Any) -> str:
    """A value as the user wrote it, for messages (`the string '2'`, `pl.MemorySpace.Vec`)."""
    if isinstance(value, str):
        return f"the string {value!r}"
    if isinstance(value, DType):
        return f"the dtype pl.{value.name}"
    if isinstance(value, Enum):
        return f"pl.{type(value).__name__}.{value.name}"
    if isinstance(value, bool | int | float):
        return f"the constant {value!r}"
    if value is None:
        return "None"
    if isinstance(value, Expr):
        kind = type(value.type).__name__.removesuffix("Type").lower()
        return f"a {kind} value"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(describe(v) for v in value) + "]"
    return f"a {type(value).__name__} value"


def _check_kwarg(spelling: str, op: OpDef, key: str, value: Any) -> None:
    spec = op.kwarg_spec(key)
    if spec is None or value is None:
        return
    kind = KWARG_TYPES[spec.type_name]
    if not kind.values:
        return
    if not isinstance(value, kind.values):
        raise PlError(f"{spelling}: {key} must be {kind.words}, got "
                      f"{describe(value)}", hint=f"Signature: {signature(spelling, op)}",
                      argument=key)


def _pad_value(spelling: str, value: Any) -> PadValue:
    # The reference accepts the literal sugars 0, inf and -inf for the three padding modes.
    if isinstance(value, int | float) and not isinstance(value, bool):
        if value == 0:
            return PadValue.zero
        if math.isinf(value):
            return PadValue.max if value > 0 else PadValue.min
    raise PlError(f"{spelling}: pad_value must be pl.PadValue.zero/max/min or 0, math.inf, -math.inf, "
                  f"got {value!r}")


def _tile_matmul_dtype(slots: Sequence[Any]) -> DType | None:
    """The result dtype of a tile matmul of these operands: its accumulator's, FP32 for float
    operands and INT32 for integer ones (None while an operand is not a tile yet)."""
    lhs = getattr(slots[0], "type", None) if slots else None
    if not isinstance(lhs, TileType):
        return None
    return DType.FP32 if lhs.dtype.is_float() else DType.INT32


def shape_arguments(spelling: str, op: OpDef, args: Sequence[Any], kwargs: Mapping[str, Any]
                    ) -> tuple[list[Expr], list[tuple[str, Any]]]:
    """Positional Exprs and ordered kwargs of the Call of `op` (see the module docstring)."""
    required, maximum = _arg_bounds(op)
    limit = positional_limit(spelling, op)
    if len(args) > limit:
        raise _arity_error(spelling, op, len(args), max(limit, required))
    args, kwargs = bind_by_reference(spelling, op, args, kwargs)
    if op.dim_first and len(args) >= 2 and isinstance(args[1], ConstInt | int) \
            and not isinstance(args[1], bool):
        if "dim" in kwargs:
            raise PlError(f"{spelling}: got multiple values for argument 'dim'")
        args, kwargs = [args[0], *args[2:]], {**kwargs, "dim": args[1]}
    arg_names = [a.name for a in op.args]
    kw_names = [k.name for k in op.kwargs]
    slots: list[Any] = list(args[:maximum])
    given: dict[str, Any] = {}
    for extra, value in zip(kw_names, args[maximum:], strict=False):
        given[extra] = value
    if len(args) > maximum + len(kw_names):
        raise _arity_error(spelling, op, len(args))
    droppable = op.droppable_defaults
    for key, value in kwargs.items():
        if key in arg_names:
            idx = arg_names.index(key)
            while len(slots) <= idx:
                slots.append(None)
            if slots[idx] is not None:
                raise PlError(f"{spelling}: got multiple values for argument '{key}'")
            slots[idx] = value
        elif key in kw_names:
            if key in given:
                raise PlError(f"{spelling}: got multiple values for argument '{key}'")
            given[key] = value
        elif key in droppable:
            plain = value.value if isinstance(value, ConstBool | ConstInt) else value
            if key == "out_dtype" and plain is not None and plain == _tile_matmul_dtype(slots):
                continue  # the reference accepts the dtype the accumulator has anyway
            if plain != droppable[key]:
                raise PlError(f"{spelling}: '{key}' is not supported for Tile operands",
                              hint="At tile level a transposed operand is a pl.tile.transpose_view(...)")
        else:
            accepted = ", ".join(kw_names + arg_names) or "none"
            raise PlError(f"{spelling}: unknown keyword argument '{key}'",
                          hint=f"Accepted keyword arguments: {accepted}")
    if op.all_or_none and 0 < sum(v is not None for v in slots) < len(op.args):
        raise PlError(f"{spelling} takes all of its arguments or none",
                      hint=f"Signature: {signature(spelling, op)}")
    # An optional slot the reference's builder leaves out of the Call when it is omitted
    # (`OpDef.args[i].omitted`): the later ones move up (tile.mgather's scratch in row mode).
    for i in reversed([i for i, a in enumerate(op.args) if a.omitted]):
        if len(slots) > i and slots[i] is None:
            del slots[i]
    slots = _fill_gaps(spelling, op, _with_defaults(op, slots))
    if not required <= len(slots) <= maximum:
        raise _arity_error(spelling, op, len(slots))
    # (A `space` operand that is not a memory space is left for the kind check below.)
    exprs = [op.args[i].stored(a) if op.args[i].kind == "space" else to_expr(a)
             for i, a in enumerate(slots)]
    for i, e in enumerate(exprs):
        if not isinstance(e, Expr):
            raise PlError(f"{spelling}: argument '{op.args[i].name}' must be "
                          f"{ARG_KINDS[op.args[i].kind]}, got "
                          f"{describe(e)}", hint=f"Signature: {signature(spelling, op)}",
                          argument=i)
    out_kwargs = _finish_kwargs(spelling, op, exprs, given)
    surface = SURFACES.get(op.name)
    if surface is not None and surface.store is not None:
        return surface.store(spelling, exprs, out_kwargs)
    return exprs, out_kwargs


def _arity_error(spelling: str, op: OpDef, got: int, maximum: int | None = None) -> PlError:
    required, slots = _arg_bounds(op)
    maximum = slots if maximum is None else maximum
    expected = str(required) if required == maximum else f"{required} to {maximum}"
    return PlError(f"{spelling} expects {expected} positional argument(s), got {got}",
                   hint=f"Signature: {signature(spelling, op)}")


def _with_defaults(op: OpDef, slots: list[Any]) -> list[Any]:
    """`slots` with every omitted parameter that has a reference default (the call column's `default:`) filled."""
    defaults = op.arg_defaults
    if not defaults:
        return slots
    padded = slots + [None] * (len(op.args) - len(slots))
    return [defaults.get(a.name) if v is None else v for a, v in zip(op.args, padded, strict=True)]


def _fill_gaps(spelling: str, op: OpDef, slots: list[Any]) -> list[Any]:
    # A later optional slot given by keyword with an earlier one omitted: the reference stands an
    # empty tuple in for a missing tuple slot (tensor.slice drop_dims without valid_shape).
    for i, value in enumerate(slots):
        if value is None:
            name = op.args[i].name
            if name in ("valid_shape", "shapes") or op.args[i].kind == "tuple":
                slots[i] = MakeTuple(())
            else:
                raise PlError(f"{spelling}: missing argument '{name}'",
                              hint=f"Signature: {signature(spelling, op)}")
    return slots


def _finish_kwargs(spelling: str, op: OpDef, exprs: list[Expr], given: dict[str, Any]
                   ) -> list[tuple[str, Any]]:
    values = {k: _convert_kwarg(spelling, op, k, v) for k, v in given.items()}
    for key, value in values.items():
        _check_kwarg(spelling, op, key, value)
        choices = op.kwarg_choices.get(key)
        if choices is not None and value not in choices:
            raise PlError(f"{spelling}: {key} must be one of {', '.join(map(repr, choices))}, "
                          f"got {describe(value)}", argument=key)
    for key in op.required_kwargs:
        if key not in values:
            raise PlError(f"{spelling}: missing required keyword argument '{key}'",
                          hint=f"Signature: {signature(spelling, op)}")
    for key, default in op.always_kwargs:
        values.setdefault(key, default)
    if op.name == "tile.load":
        if len(exprs) == 3:
            exprs.append(exprs[2])
        if values["target_memory"] not in LOAD_SPACES:
            raise PlError(f"{spelling}: target_memory must be pl.MemorySpace.Vec or pl.MemorySpace.Mat, "
                          f"got {values['target_memory']}",
                          hint="Load into Vec or Mat, then pl.move(...) to other spaces")
    for spec in op.kwargs:
        if spec.type_name == "DataType" and spec.name in values:
            if not isinstance(values[spec.name], DType) and values[spec.name] is not None:
                raise PlError(f"{spelling}: {spec.name} must be a dtype such as pl.FP32, "
                              f"got {values[spec.name]!r}")
    order = [k.name for k in op.kwargs]
    return sorted(values.items(), key=lambda kv: order.index(kv[0]) if kv[0] in order else len(order))
