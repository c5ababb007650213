"""The text of IR expressions, types and keyword values (dsl.md section 4).

Guarantees: every function returns one line of valid Python in the DSL's printed syntax (no line
breaks: only statements are wrapped, pl/printer/doc.py); operators get parentheses exactly where
precedence (or Python's comparison chaining) needs them; an all-constant integer tree prints its
leaves as `pl.const(v, pl.INDEX)` so that the frontend rebuilds it verbatim instead of folding it.
Every DSL name is spelled from `PrintContext.root` (`pl` unless the caller's file imports it as another
name). A type's text is remembered on the `PrintContext` (one per printed function), which dies with the
print call.
"""

from __future__ import annotations

import keyword
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum, IntEnum
from types import MappingProxyType
from typing import Any, Final

from typing_extensions import assert_never

from pl.ir.enums import ARG_DIRECTION_NAMES, DType, MemorySpace, SplitMode
from pl.ir.expr import (
    SUBMIT_ATTR,
    SUBMIT_KEYWORDS,
    BinaryExpr,
    Call,
    ConstBool,
    ConstFloat,
    ConstInt,
    Expr,
    ExprKind,
    GlobalVar,
    MakeTuple,
    TupleGetItem,
    UnaryExpr,
    Var,
    is_submit,
)
from pl.ir.operators import ATOM as _ATOM
from pl.ir.operators import CMP as _CMP
from pl.ir.operators import UNARY as _UNARY
from pl.ir.operators import BinaryOp, UnaryOp
from pl.ir.types import (
    ArrayType,
    HandleType,
    MemRef,
    PtrType,
    ScalarType,
    TensorType,
    TensorView,
    TileType,
    TupleType,
    Type,
    TypeKind,
    UnknownType,
    implicit_tile_view,
)
from pl.ops.registry import KWARG_CODES, KWARG_TYPES, ArgSpec, get_op, rebinding_slot
from pl.ops.surface import SURFACES, Spelled


@dataclass(slots=True)
class PrintContext:
    """What printing an expression depends on besides the expression, and the memos of one
    print call (they die with it)."""

    name_of: Callable[[Var], str]
    mem_alias: bool = False
    in_program: bool = False
    root: str = "pl"
    # The Vars the function body binds (an alloc's Ptr prints bare in a MemRef only if there);
    # empty in a signature and for a statement or type printed alone.
    allocs: frozenset[Var] = frozenset()
    # A constant dim of a Tensor / Tile type's shape whose value is a key is spelled by that
    # name (`show_inferred`: the module constant the user's shapes spell it with).
    dim_names: Mapping[int, str] = field(default_factory=dict)
    types: dict[Type, str] = field(default_factory=dict, repr=False)
    # (op name, number of positional arguments) -> `_keyword_from` of it.
    cuts: dict[tuple[str, int], int | None] = field(default_factory=dict, repr=False)
    # Op name -> its `space` operands, with their positions (`_space_args`).
    space_args: dict[str, tuple[tuple[int, ArgSpec], ...]] = field(default_factory=dict, repr=False)
    # Op name -> its int-coded enum kwargs (`_coded_kwargs`).
    coded: dict[str, Mapping[str, type[IntEnum]]] = field(default_factory=dict, repr=False)
    # Op name -> its kwargs stored as attrs (`_attr_kwargs`).
    attr_kwargs: dict[str, tuple[str, ...]] = field(default_factory=dict, repr=False)
    # op name -> `op_callee` of it.
    callees: dict[str, str] = field(default_factory=dict, repr=False)

    def dsl(self, path: str) -> str:
        """`pl.<path>` as this print spells the DSL module."""
        return self.root + "." + path


def default_ctx() -> PrintContext:
    return PrintContext(name_of=lambda v: v.name)


def dotted(path: str) -> str:
    """`a.b.c` with each segment that is a Python keyword given a trailing `_`."""
    return ".".join(p + "_" if keyword.iskeyword(p) else p for p in path.split("."))


def op_callee(name: str, ctx: PrintContext) -> str:
    """`pl.tile.add`: how this print spells the callee of a call of op `name` (made once per op)."""
    text = ctx.callees.get(name)
    if text is None:
        # The distributed ops' names are their spellings (`pld.tensor.window`).
        text = ctx.callees[name] = dotted(name) if name.startswith("pld.") else ctx.dsl(dotted(name))
    return text


def call_text(func: str, items: Sequence[str]) -> str:
    return func + "(" + ", ".join(items) + ")"


def int_text(v: int) -> str:
    return str(v)


def float_text(v: float) -> str:
    """A float as text the frontend reads back to the same value, sign included: the shortest
    repr, and for the values no literal spells `float('inf')` / `float('nan')`
    (pl/lowering/frontend/exprs.py reads those calls); a negative value (-0.0, -inf, a NaN with
    its sign bit set) is the magnitude's text after `-`, which the frontend folds. A NaN reads
    back as Python's one quiet NaN (its sign kept, not its payload)."""
    text = "float('nan')" if math.isnan(v) else "float('inf')" if math.isinf(v) else \
        repr(abs(v))
    return "-" + text if math.copysign(1.0, v) < 0 else text


def list_text(items: Sequence[str]) -> str:
    return "[" + ", ".join(items) + "]"


def tuple_text(items: Sequence[str]) -> str:
    """A parenthesised tuple; a 1-tuple keeps its trailing comma."""
    if len(items) == 1:
        return "(" + items[0] + ",)"
    return "(" + ", ".join(items) + ")"


def enum_text(v: Enum, ctx: PrintContext) -> str:
    if isinstance(v, DType):
        return ctx.dsl(v.name)
    if isinstance(v, MemorySpace):
        return ctx.dsl(("Mem." if ctx.mem_alias else "MemorySpace.") + v.name)
    return ctx.dsl(f"{type(v).__name__}.{v.name}")


# A cast's `mode` int printed by the name the frontend reads (the registry's one table of codes).
_CAST_MODE_NAMES: Final[Mapping[int, str]] = MappingProxyType(
    {code: name for name, code in KWARG_CODES["mode"].items()})


def value_text(v: Any, ctx: PrintContext, key: str = "") -> str:
    """A kwarg / attr value: Python scalars, enum members, Exprs, lists, dicts."""
    if v is None:
        return "None"
    if isinstance(v, bool):
        return "True" if v else "False"
    if isinstance(v, int):
        if key == "mode" and v in _CAST_MODE_NAMES:
            return repr(_CAST_MODE_NAMES[v])
        return int_text(v)
    if isinstance(v, float):
        return float_text(v)
    if isinstance(v, str):
        return repr(v)
    if isinstance(v, Enum):
        return enum_text(v, ctx)
    if isinstance(v, Expr):
        return expr_text(v, ctx)
    if isinstance(v, (tuple, list)):
        return list_text([value_text(x, ctx) for x in v])
    if isinstance(v, dict):
        return dict_text(list(v.items()), ctx)
    raise TypeError(f"cannot print value {v!r} of type {type(v).__name__}")


def dict_text(items: Sequence[tuple[str, Any]], ctx: PrintContext) -> str:
    """An attrs dict. Its `"split"` is an int-coded `pl.SplitMode` (an op's `split=` kwarg stays an
    int: the reference spells only the attr)."""
    return "{" + ", ".join('"' + k + '": ' + _attr_text(k, v, ctx) for k, v in items) + "}"


def _attr_text(key: str, v: Any, ctx: PrintContext) -> str:
    if key == "split":
        return _split_text(v, ctx)
    if key == "arg_directions" and isinstance(v, (tuple, list)):
        # `[pl.adir.input, ...]`, as the reference prints a call's argument directions.
        return list_text([_direction_text(x, ctx) for x in v])
    return value_text(v, ctx, key)


def _direction_text(v: Any, ctx: PrintContext) -> str:
    name = ARG_DIRECTION_NAMES.get(v) if isinstance(v, int) and not isinstance(v, bool) else None
    return value_text(v, ctx) if name is None else ctx.dsl("adir." + name)


def _split_text(v: Any, ctx: PrintContext) -> str:
    member = _member_name(SplitMode, v) if isinstance(v, int) and not isinstance(v, bool) else None
    return value_text(v, ctx, "split") if member is None else ctx.dsl(member)


def _member_name(enum: type[IntEnum], v: int) -> str | None:
    """`Enum.Member` for the member whose value is v; None (printed as the int) for no member."""
    return next((f"{enum.__name__}.{m.name}" for m in enum if m.value == v), None)


def precedence(e: Expr) -> int:
    """Python's precedence of `e` as printed (pl/ir/operators.py; lowest first)."""
    kind: ExprKind = e  # type: ignore[assignment]
    match kind:
        case BinaryExpr(op=op):
            return op.precedence
        case UnaryExpr(op=op):
            return op.precedence
        case ConstInt(value=v):
            return _UNARY if v < 0 else _ATOM
        case ConstFloat(value=v):
            return _UNARY if math.copysign(1.0, v) < 0 else _ATOM
        case Var() | Call() | ConstBool() | MakeTuple() | TupleGetItem():
            return _ATOM
        case _:
            assert_never(kind)


def _child(parent: BinaryExpr, child: Expr, is_left: bool, ctx: PrintContext, typed: bool) -> str:
    pp, cp = precedence(parent), precedence(child)
    needs = cp < pp
    if cp == pp:
        # `**` is right-associative; comparisons chain in Python, so never leave them bare.
        needs = is_left if parent.op is BinaryOp.Pow else (not is_left or pp == _CMP)
    text = expr_text(child, ctx, typed)
    return "(" + text + ")" if needs else text


def _const_tree(e: Expr) -> bool:
    if isinstance(e, ConstInt):
        return True
    return isinstance(e, BinaryExpr) and _const_tree(e.left) and _const_tree(e.right)


def expr_text(e: Expr, ctx: PrintContext, typed_index: bool = False) -> str:
    """The printed form of an expression (`typed_index`: INDEX consts as `pl.const(v, pl.INDEX)`)."""
    # The union itself, without a call (`expr_kind` or `typing.cast` would add one per expression).
    kind: ExprKind = e  # type: ignore[assignment]
    match kind:
        case Var():
            return ctx.name_of(kind)
        case Call():
            func, items = call_parts(kind, ctx)
            return call_text(func, items)
        case ConstInt(value=v, dtype=dt):
            if dt is DType.INDEX and not typed_index:
                return int_text(v)
            return call_text(ctx.dsl("const"), [int_text(v), ctx.dsl(dt.name)])
        case ConstFloat(value=v, dtype=dt):
            if dt is DType.FP32:
                return float_text(v)
            return call_text(ctx.dsl("const"), [float_text(v), ctx.dsl(dt.name)])
        case ConstBool(value=v):
            return "True" if v else "False"
        case BinaryExpr():
            return _binary(kind, ctx, typed_index or _const_tree(kind))
        case UnaryExpr():
            return _unary(kind, ctx, typed_index)
        case MakeTuple(elements=elements):
            return list_text([expr_text(x, ctx, typed_index) for x in elements])
        case TupleGetItem(tuple_expr=inner, index=index):
            base = expr_text(inner, ctx)
            if precedence(inner) < _ATOM:
                base = "(" + base + ")"
            return base + "[" + int_text(index) + "]"
        case _:
            assert_never(kind)


def _binary(e: BinaryExpr, ctx: PrintContext, typed: bool) -> str:
    if e.op.precedence == _ATOM:  # an operator with no Python spelling prints as a call: pl.min
        return call_text(ctx.dsl(e.op.symbol),
                         [expr_text(e.left, ctx, typed), expr_text(e.right, ctx, typed)])
    left = _child(e, e.left, True, ctx, typed)
    right = _child(e, e.right, False, ctx, typed)
    return left + " " + e.op.symbol + " " + right


def _unary(e: UnaryExpr, ctx: PrintContext, typed: bool) -> str:
    inner = expr_text(e.operand, ctx, typed)
    match e.op:
        case UnaryOp.Abs:
            return call_text(e.op.symbol, [inner])
        case UnaryOp.Cast:
            return call_text(ctx.dsl(e.op.symbol), [inner, ctx.dsl(e.dtype.name)])
        case UnaryOp.Neg | UnaryOp.BitNot | UnaryOp.Not:
            # Python parses `-2 ** 2` as -(2 ** 2), so a power operand of a unary operator stays bare.
            if precedence(e.operand) < e.op.precedence:
                inner = "(" + inner + ")"
            return e.op.symbol + inner
        case _:
            assert_never(e.op)


def call_parts(e: Call, ctx: PrintContext) -> tuple[str, list[str]]:
    """The callee and the argument texts (each without its comma) of a call: the parts a
    statement ending in the call hands to the wrapping rule."""
    op = e.op
    attrs = list(e.attrs)
    if isinstance(op, GlobalVar):
        if is_submit(e):
            return _submit_parts(e, op, ctx)
        func = "self." + op.name if ctx.in_program else op.name
        items = [expr_text(a, ctx) for a in e.args]
        items += [k + "=" + value_text(v, ctx, k) for k, v in e.kwargs]
    elif (spelled := _spelled(e)) is not None:
        func = op_callee(op.name, ctx)
        items = [_shape_arg_text(a, e, ctx) or expr_text(a, ctx) for a in spelled.positional]
        items += [k + "=" + _kwarg_text(op.name, k, v, ctx) for k, v in spelled.keywords]
    else:
        func = op_callee(op.name, ctx)
        items = [_shape_arg_text(a, e, ctx) or expr_text(a, ctx) for a in e.args]
        for i, spec in _space_args(op.name, ctx):
            # A memory space operand (`pl.tile.alloc`) is stored as its integer code
            # (ArgSpec.stored); it prints as the member.
            space = spec.space_of(e.args[i]) if i < len(e.args) else None
            if space is not None:
                items[i] = enum_text(space, ctx)
        cut = _keyword_from(op.name, len(e.args), ctx)
        if cut is not None:
            # The reference's wrapper binds these positions to other parameters: spell them by name.
            op_def = get_op(op.name)
            assert op_def is not None, op.name
            names = [a.name for a in op_def.args]
            items[cut:] = [names[i] + "=" + items[i] for i in range(cut, len(items))]
        items += [k + "=" + _kwarg_text(op.name, k, v, ctx) for k, v in e.kwargs]
        for name in _attr_kwargs(op.name, ctx):
            # A kwarg stored as the call's attr (KwargType.attr: task_dummy's deps=[...]).
            items.append(name + "=" + value_text(dict(attrs).get(name, []), ctx, name))
            attrs = [(k, v) for k, v in attrs if k != name]
    if isinstance(op, GlobalVar):  # an orchestrator's dispatch target is spelled as a keyword
        items += ["device=" + value_text(v, ctx, k) for k, v in attrs if k == "device"]
        attrs = [(k, v) for k, v in attrs if k != "device"]
    if attrs:
        items.append("attrs=" + dict_text(attrs, ctx))
    return func, items


def _shape_arg_text(a: Expr, e: Call, ctx: PrintContext) -> str | None:
    """With `ctx.dim_names`, an op's list argument of constants that is the shape of its
    result or of one of its operands (a load's `shapes`, a store's) spelled as that type's
    shape is (`[R, C]`), so the text follows the constants as its types do; else None."""
    if not ctx.dim_names or not isinstance(a, MakeTuple) or not all(
            isinstance(x, ConstInt) and x.dtype is DType.INDEX for x in a.elements):
        return None
    values = [x.value for x in a.elements if isinstance(x, ConstInt)]
    for t in (e.type, *(x.type for x in e.args)):
        if isinstance(t, TileType | TensorType) and \
                [d.value if isinstance(d, ConstInt) else None for d in t.shape] == values:
            return _type_shape(a.elements, ctx)
    return None


def _spelled(e: Call) -> Spelled | None:
    """The DSL form of a call of an op with a bespoke surface (pl/ops/surface.py), else None."""
    surface = SURFACES.get(e.op.name)
    return surface.spell(e) if surface is not None and surface.spell is not None else None


def _kwarg_text(name: str, key: str, v: Any, ctx: PrintContext) -> str:
    """Kwarg `key` of a call of op `name`: an int-coded enum (`KwargType.coded`: `pipe=`,
    `atomic=`) as its member, as the reference prints it (an int no member has stays the int)."""
    if isinstance(v, int) and not isinstance(v, bool):
        coded = _coded_kwargs(name, ctx).get(key)
        member = _member_name(coded, v) if coded is not None else None
        if member is not None:
            return ctx.dsl(member)
    return value_text(v, ctx, key)


def _coded_kwargs(name: str, ctx: PrintContext) -> Mapping[str, type[IntEnum]]:
    """The int-coded enum kwargs of op `name` (its record's), by kwarg."""
    if name not in ctx.coded:
        op = get_op(name)
        ctx.coded[name] = {} if op is None else {
            k.name: coded for k in op.kwargs
            if (coded := KWARG_TYPES[k.type_name].coded) is not None}
    return ctx.coded[name]


def _attr_kwargs(name: str, ctx: PrintContext) -> tuple[str, ...]:
    """The kwargs of op `name` stored as the call's attrs (`KwargType.attr`)."""
    if name not in ctx.attr_kwargs:
        op = get_op(name)
        ctx.attr_kwargs[name] = () if op is None else tuple(
            k.name for k in op.kwargs if KWARG_TYPES[k.type_name].attr)
    return ctx.attr_kwargs[name]


def _space_args(name: str, ctx: PrintContext) -> tuple[tuple[int, ArgSpec], ...]:
    """The `space` operands of op `name` (its record's), with their positions."""
    if name not in ctx.space_args:
        op = get_op(name)
        ctx.space_args[name] = () if op is None else tuple(
            (i, a) for i, a in enumerate(op.args) if a.kind == "space")
    return ctx.space_args[name]


def _keyword_from(name: str, nargs: int, ctx: PrintContext) -> int | None:
    """The first positional argument of a call of op `name` that must be printed by keyword so the
    reference's wrapper of `pl.<name>` reads it as the same parameter (`rebinding_slot`)."""
    key = (name, nargs)
    if key not in ctx.cuts:
        op = get_op(name)
        ctx.cuts[key] = None if op is None else rebinding_slot("pl." + name, op, nargs)
    return ctx.cuts[key]


def _submit_parts(e: Call, fn: GlobalVar, ctx: PrintContext) -> tuple[str, list[str]]:
    """`pl.submit(self.fn, args..., deps=[...], attrs={...})`: the DSL spelling of a task launch;
    `pl.spmd_submit(..., core_num=N)` when it carries a launch spec."""
    items = ["self." + fn.name if ctx.in_program else fn.name, *(expr_text(a, ctx) for a in e.args)]
    attrs = dict(e.attrs)
    for key, spelled in SUBMIT_KEYWORDS.items():
        if key in attrs:
            text = value_text(attrs[key], ctx, key)
            items.append(spelled + "=" + ("(" + text + ")" if key == "predicate" else text))
    rest = [(k, v) for k, v in e.attrs if k != SUBMIT_ATTR and k not in SUBMIT_KEYWORDS]
    if rest:
        items.append("attrs=" + dict_text(rest, ctx))
    return ctx.dsl("spmd_submit" if "core_num" in attrs else "submit"), items


# ---- types ----------------------------------------------------------------------------------


def dim_text(d: Expr, ctx: PrintContext) -> str:
    if isinstance(d, (ConstInt, Var)):
        return expr_text(d, ctx)
    return expr_text(d, ctx, typed_index=True)


def _subscript(base: str, items: Sequence[str]) -> str:
    return base + "[" + ", ".join(items) + "]"


def _shape(shape: Sequence[Expr], ctx: PrintContext) -> str:
    return list_text([dim_text(d, ctx) for d in shape])


def _type_shape(shape: Sequence[Expr], ctx: PrintContext) -> str:
    """A type's own shape: a constant dim `ctx.dim_names` names is spelled by that name."""
    return list_text([ctx.dim_names.get(d.value) or dim_text(d, ctx) if isinstance(d, ConstInt)
                      and d.dtype == DType.INDEX else dim_text(d, ctx) for d in shape])


def _tile_view(t: TileType, ctx: PrintContext) -> str | None:
    v = t.view
    if v is None:
        return None
    implicit = implicit_tile_view(t.shape, t.memory_space)
    kw: list[str] = []
    if v.valid_shape:
        kw.append("valid_shape=" + _shape(v.valid_shape, ctx))
    if v.stride:
        kw.append("stride=" + _shape(v.stride, ctx))
    if v.start_offset is not None:
        kw.append("start_offset=" + dim_text(v.start_offset, ctx))
    for name in ("blayout", "slayout", "fractal", "pad", "compact"):
        if getattr(v, name) != getattr(implicit, name):
            kw.append(name + "=" + value_text(getattr(v, name), ctx))
    return call_text(ctx.dsl("TileView"), kw)


def _tensor_view(v: TensorView, ctx: PrintContext) -> str:
    default = TensorView()
    kw: list[str] = []
    if v.stride:
        kw.append("stride=" + _shape(v.stride, ctx))
    if v.layout != default.layout:
        kw.append("layout=" + value_text(v.layout, ctx))
    if v.valid_shape:
        kw.append("valid_shape=" + _shape(v.valid_shape, ctx))
    if v.pad != default.pad:
        kw.append("pad=" + value_text(v.pad, ctx))
    return call_text(ctx.dsl("TensorView"), kw)


def type_text(t: Type, ctx: PrintContext) -> str:
    """`pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec]`, `pl.Tensor[..]`, `pl.Scalar[..]`, ..."""
    if getattr(t, "memref", None) is not None:
        return _type_text(t, ctx)  # the memo's key (`==`) does not see a MemRef
    text = ctx.types.get(t)
    if text is None:
        text = ctx.types[t] = _type_text(t, ctx)
    return text


def _memref_text(m: MemRef, ctx: PrintContext) -> str:
    """`pl.MemRef(base, byte_offset, size)`. The base prints as a bare name where the function
    body binds it (its alloc) and this is not the signature, else as a string literal: the
    reference's rule, so the text reads back with no name used before it is bound."""
    assert isinstance(m.base, Var)
    name = ctx.name_of(m.base)
    base = name if m.base in ctx.allocs else '"' + name + '"'
    items = [base, expr_text(m.byte_offset, ctx), int_text(m.size)]
    if m.slots > 1:
        items.append("slots=" + int_text(m.slots))
    text = call_text(ctx.dsl("MemRef"), items)
    return text if m.slot_index is None else text + "[" + expr_text(m.slot_index, ctx) + "]"


def _type_text(t: Type, ctx: PrintContext) -> str:
    base, items = type_parts(t, ctx)
    return base if items is None else _subscript(base, items)


def type_parts(t: Type, ctx: PrintContext) -> tuple[str, list[str] | None]:
    """A type's text in its parts: the subscripted name and the items inside its brackets
    (`pl.Tile`, [`[16, 128]`, `pl.FP32`, `pl.MemorySpace.Vec`]), or the whole text and None
    for a type written without brackets (`pl.Ptr`)."""
    kind: TypeKind = t  # type: ignore[assignment]  # (no call: see expr_text)
    match kind:
        case ScalarType(dtype=dt):
            return ctx.dsl("Scalar"), [ctx.dsl(dt.name)]
        case TensorType(shape=shape, dtype=dt, view=view):
            items = [_type_shape(shape, ctx), ctx.dsl(dt.name)]
            if view is not None:
                items.append(_tensor_view(view, ctx))
            if kind.memref is not None:
                items.append(_memref_text(kind.memref, ctx))
            return ("pld.DistributedTensor" if kind.distributed else ctx.dsl("Tensor")), items
        case TileType(shape=shape, dtype=dt, memory_space=space):
            items = [_type_shape(shape, ctx), ctx.dsl(dt.name)]
            if kind.memref is not None:
                items.append(_memref_text(kind.memref, ctx))
            if space is not None:
                items.append(enum_text(space, ctx))
            tv = _tile_view(kind, ctx)
            if tv is not None:
                items.append(tv)
            return ctx.dsl("Tile"), items
        case TupleType(types=types):
            return ctx.dsl("Tuple"), [type_text(x, ctx) for x in types]
        case ArrayType(extent=n, dtype=dt):
            return ctx.dsl("Array"), [str(n), ctx.dsl(dt.name)]
        case PtrType():
            return ctx.dsl("Ptr"), None
        case HandleType(kind=name):
            return ("pld.CommCtx" if name == "CommCtx" else ctx.dsl(name)), None
        case UnknownType():
            raise TypeError("UnknownType has no printed form")
        case _:
            assert_never(kind)
