"""LibCST nodes for IR expressions, types and keyword values (dsl.md section 4).

Guarantees: every builder returns a LibCST expression node whose code is valid Python in the DSL's
printed syntax; operators get parentheses exactly where precedence (or Python's comparison
chaining) needs them; an all-constant integer tree prints its leaves as `pl.const(v, pl.INDEX)` so
that the frontend rebuilds it verbatim instead of folding it.
"""

from __future__ import annotations

import keyword
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import lru_cache
from typing import Any

import libcst as cst

from pl.ir.enums import DType, MemorySpace
from pl.ir.expr import (
    SUBMIT_ATTR,
    BinaryExpr,
    Call,
    ConstBool,
    ConstFloat,
    ConstInt,
    Expr,
    GlobalVar,
    MakeTuple,
    TupleGetItem,
    UnaryExpr,
    Var,
    is_submit,
)
from pl.ir.types import (
    ScalarType,
    TensorType,
    TensorView,
    TileType,
    TupleType,
    Type,
    UnknownType,
    implicit_tile_view,
)
from pl.ops.registry import OpDef, get_op, rebinding_slot
from pl.printer.nodes import arg, call_node_of, keyword_arg, list_of, name_node, replace_unchecked


@dataclass(frozen=True, slots=True)
class Ctx:
    """What printing an expression depends on besides the expression."""

    name_of: Callable[[Var], str]
    mem_alias: bool = False
    in_program: bool = False
    # LibCST nodes are immutable, so one node per distinct type / variable is shared by every
    # statement that prints it (the printer's output is only ever rendered, never visited).
    memo: dict[Any, cst.BaseExpression] = field(default_factory=dict, compare=False, repr=False)
    # Likewise one `cst.Arg` per Var passed positionally and per (keyword, scalar value) pair.
    args: dict[Any, cst.Arg] = field(default_factory=dict, compare=False, repr=False)


def default_ctx() -> Ctx:
    return Ctx(name_of=lambda v: v.name)


@lru_cache(maxsize=1024)
def dotted(path: str) -> cst.BaseExpression:
    """`a.b.c` as Name/Attribute nodes; segments that are Python keywords get a trailing `_`."""
    parts = [p + "_" if keyword.iskeyword(p) else p for p in path.split(".")]
    node: cst.BaseExpression = cst.Name(parts[0])
    for p in parts[1:]:
        node = cst.Attribute(value=node, attr=cst.Name(p))
    return node


def call(func: str | cst.BaseExpression, args: Sequence[cst.BaseExpression] = (),
         kwargs: Sequence[tuple[str, cst.BaseExpression]] = ()) -> cst.Call:
    f = dotted(func) if isinstance(func, str) else func
    arg_nodes = [arg(a) for a in args]
    arg_nodes += [keyword_arg(k, v) for k, v in kwargs]
    return call_node_of(f, arg_nodes)


@lru_cache(maxsize=4096, typed=True)  # typed: True must never come back as 1
def int_node(v: int) -> cst.BaseExpression:
    """An integer literal; shared per value (nodes are immutable and only ever rendered)."""
    if v < 0:
        return cst.UnaryOperation(operator=cst.Minus(), expression=cst.Integer(str(-v)))
    return cst.Integer(str(v))


def float_node(v: float) -> cst.BaseExpression:
    if math.isnan(v) or math.isinf(v):
        text = "nan" if math.isnan(v) else ("-inf" if v < 0 else "inf")
        return call("float", [cst.SimpleString(repr(text))])
    if math.copysign(1.0, v) < 0:
        return cst.UnaryOperation(operator=cst.Minus(), expression=cst.Float(repr(-v)))
    return cst.Float(repr(v))


def list_node(items: Sequence[cst.BaseExpression]) -> cst.List:
    return list_of(items)


def tuple_node(items: Sequence[cst.BaseExpression]) -> cst.Tuple:
    """A parenthesised tuple; a 1-tuple keeps its trailing comma."""
    elements = [cst.Element(i) for i in items]
    if len(elements) == 1:
        elements = [cst.Element(items[0], comma=cst.Comma())]
    return cst.Tuple(elements)


def enum_node(v: Enum, ctx: Ctx) -> cst.BaseExpression:
    if isinstance(v, DType):
        return dotted(f"pl.{v.name}")
    if isinstance(v, MemorySpace):
        return dotted(f"pl.{'Mem' if ctx.mem_alias else 'MemorySpace'}.{v.name}")
    return dotted(f"pl.{type(v).__name__}.{v.name}")


_CAST_MODES = ("none", "rint", "round", "floor", "ceil", "trunc", "odd")


def value_node(v: Any, ctx: Ctx, key: str = "") -> cst.BaseExpression:
    """A kwarg / attr value: Python scalars, enum members, Exprs, lists, dicts."""
    if v is None:
        return cst.Name("None")
    if isinstance(v, bool):
        return cst.Name("True" if v else "False")
    if isinstance(v, int):
        if key == "mode" and 0 <= v < len(_CAST_MODES):
            return cst.SimpleString(repr(_CAST_MODES[v]))
        return int_node(v)
    if isinstance(v, float):
        return float_node(v)
    if isinstance(v, str):
        return cst.SimpleString(repr(v))
    if isinstance(v, Enum):
        return enum_node(v, ctx)
    if isinstance(v, Expr):
        return expr_node(v, ctx)
    if isinstance(v, (tuple, list)):
        return list_node([value_node(x, ctx) for x in v])
    if isinstance(v, dict):
        return dict_node(list(v.items()), ctx)
    raise TypeError(f"cannot print value {v!r} of type {type(v).__name__}")


def dict_node(items: Sequence[tuple[str, Any]], ctx: Ctx) -> cst.Dict:
    return cst.Dict([cst.DictElement(cst.SimpleString('"' + k + '"'), value_node(v, ctx, k))
                     for k, v in items])


# Python precedence, lowest first; atoms and calls bind tightest.
_OR, _AND, _NOT, _CMP, _BOR, _BXOR, _BAND, _SHIFT, _ADD, _MUL, _UNARY, _POW, _ATOM = range(13)

_BINARY: dict[str, tuple[int, type[cst.BaseBinaryOp]]] = {
    "Add": (_ADD, cst.Add), "Sub": (_ADD, cst.Subtract), "Mul": (_MUL, cst.Multiply),
    "FloorDiv": (_MUL, cst.FloorDivide), "FloorMod": (_MUL, cst.Modulo),
    "FloatDiv": (_MUL, cst.Divide), "Pow": (_POW, cst.Power), "BitAnd": (_BAND, cst.BitAnd),
    "BitOr": (_BOR, cst.BitOr), "BitXor": (_BXOR, cst.BitXor),
    "BitShiftLeft": (_SHIFT, cst.LeftShift), "BitShiftRight": (_SHIFT, cst.RightShift),
}
_COMPARE: dict[str, type[cst.BaseCompOp]] = {
    "Eq": cst.Equal, "Ne": cst.NotEqual, "Lt": cst.LessThan, "Le": cst.LessThanEqual,
    "Gt": cst.GreaterThan, "Ge": cst.GreaterThanEqual,
}
_BOOL: dict[str, tuple[int, type[cst.BaseBooleanOp]]] = {"And": (_AND, cst.And), "Or": (_OR, cst.Or)}
# Operators with no Python spelling the DSL accepts print as calls.
_FUNCTION_BINARY = {"Min": "pl.min", "Max": "pl.max", "Xor": "pl.xor"}


def precedence(e: Expr) -> int:
    match e:
        case BinaryExpr(op=op):
            if op in _BINARY:
                return _BINARY[op][0]
            if op in _COMPARE:
                return _CMP
            if op in _BOOL:
                return _BOOL[op][0]
            return _ATOM
        case UnaryExpr(op="Neg" | "BitNot"):
            return _UNARY
        case UnaryExpr(op="Not"):
            return _NOT
        case ConstInt(value=v) if v < 0:
            return _UNARY
        case ConstFloat(value=v) if math.copysign(1.0, v) < 0 and not math.isnan(v):
            return _UNARY
        case _:
            return _ATOM


def _paren(node: cst.BaseExpression) -> cst.BaseExpression:
    return node.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])


def _child(parent: BinaryExpr, child: Expr, is_left: bool, ctx: Ctx, typed: bool) -> cst.BaseExpression:
    pp, cp = precedence(parent), precedence(child)
    needs = cp < pp
    if cp == pp:
        # `**` is right-associative; comparisons chain in Python, so never leave them bare.
        needs = is_left if parent.op == "Pow" else (not is_left or pp == _CMP)
    node = expr_node(child, ctx, typed)
    return _paren(node) if needs else node


def _const_tree(e: Expr) -> bool:
    if isinstance(e, ConstInt):
        return True
    return isinstance(e, BinaryExpr) and _const_tree(e.left) and _const_tree(e.right)


def expr_node(e: Expr, ctx: Ctx, typed_index: bool = False) -> cst.BaseExpression:
    """The printed form of an expression (`typed_index`: INDEX consts as `pl.const(v, pl.INDEX)`)."""
    # Calls and Vars are almost every expression printed: tested before the match of all kinds.
    if type(e) is Call:
        return call_node(e, ctx)
    match e:
        case Var():
            node = ctx.memo.get(e)
            if node is None:
                node = ctx.memo[e] = name_node(ctx.name_of(e))
            return node
        case ConstInt(value=v, dtype=dt):
            if dt is DType.INDEX and not typed_index:
                return int_node(v)
            return call("pl.const", [int_node(v), dotted(f"pl.{dt.name}")])
        case ConstFloat(value=v, dtype=dt):
            if dt is DType.FP32:
                return float_node(v)
            return call("pl.const", [float_node(v), dotted(f"pl.{dt.name}")])
        case ConstBool(value=v):
            return cst.Name("True" if v else "False")
        case BinaryExpr():
            return _binary(e, ctx, typed_index or _const_tree(e))
        case UnaryExpr():
            return _unary(e, ctx, typed_index)
        case MakeTuple(elements=elements):
            return list_node([expr_node(x, ctx, typed_index) for x in elements])
        case TupleGetItem(tuple_expr=inner, index=index):
            base = expr_node(inner, ctx)
            if precedence(inner) < _ATOM:
                base = _paren(base)
            return cst.Subscript(value=base, slice=[cst.SubscriptElement(cst.Index(int_node(index)))])
        case Call():
            return call_node(e, ctx)
        case _:
            raise TypeError(f"cannot print expression {type(e).__name__}")


def _binary(e: BinaryExpr, ctx: Ctx, typed: bool) -> cst.BaseExpression:
    if e.op in _FUNCTION_BINARY:
        return call(_FUNCTION_BINARY[e.op], [expr_node(e.left, ctx, typed), expr_node(e.right, ctx, typed)])
    left = _child(e, e.left, True, ctx, typed)
    right = _child(e, e.right, False, ctx, typed)
    if e.op in _BINARY:
        return cst.BinaryOperation(left=left, operator=_BINARY[e.op][1](), right=right)
    if e.op in _COMPARE:
        return cst.Comparison(left=left, comparisons=[
            cst.ComparisonTarget(operator=_COMPARE[e.op](), comparator=right)])
    if e.op in _BOOL:
        return cst.BooleanOperation(left=left, operator=_BOOL[e.op][1](), right=right)
    raise TypeError(f"unknown binary operator {e.op}")


def _unary(e: UnaryExpr, ctx: Ctx, typed: bool) -> cst.BaseExpression:
    inner = expr_node(e.operand, ctx, typed)
    if e.op == "Abs":
        return call("abs", [inner])
    if e.op == "Cast":
        return call("pl.cast", [inner, dotted(f"pl.{e.dtype.name}")])
    own = _NOT if e.op == "Not" else _UNARY
    # Python parses `-2 ** 2` as -(2 ** 2), so a power operand of a unary operator stays bare.
    if precedence(e.operand) < own:
        inner = _paren(inner)
    ops: dict[str, cst.BaseUnaryOp] = {"Neg": cst.Minus(), "BitNot": cst.BitInvert(), "Not": cst.Not()}
    if e.op not in ops:
        raise TypeError(f"unknown unary operator {e.op}")
    return cst.UnaryOperation(operator=ops[e.op], expression=inner)


FULL_OPS = ("tile.full", "tensor.full")
# `dotted("pl." + op name)` by op name (without building the dotted name for every call).
_OP_FUNCS: dict[str, cst.BaseExpression] = {}


def call_node(e: Call, ctx: Ctx) -> cst.Call:
    if isinstance(e.op, GlobalVar):
        if is_submit(e):
            return _submit_node(e, ctx)
        func = dotted(f"self.{e.op.name}") if ctx.in_program else cst.Name(e.op.name)
        kwargs = [(k, value_node(v, ctx, k)) for k, v in e.kwargs]
    elif e.op.name in FULL_OPS and len(e.args) == 2:
        # `pl.FP32` is not accepted as a positional value, so the reference spells full() by keyword.
        func = dotted("pl." + e.op.name)
        shape, value = e.args
        val = value_node(value.value, ctx) if isinstance(value, (ConstInt, ConstFloat)) else expr_node(value, ctx)
        kwargs = [(k, value_node(v, ctx, k)) for k, v in e.kwargs if k == "dtype"]
        kwargs += [("value", val)]
        kwargs += [(k, value_node(v, ctx, k)) for k, v in e.kwargs if k != "dtype"]
        return _with_attrs(call(func, [expr_node(shape, ctx)], kwargs), e, ctx)
    else:
        parts = op_call_parts(e, ctx)
        assert parts is not None
        return call_node_of(*parts)
    return _with_attrs(call(func, [expr_node(a, ctx) for a in e.args], kwargs), e, ctx)



def op_call_parts(e: Call, ctx: Ctx) -> tuple[cst.BaseExpression, list[cst.Arg]] | None:
    """The callee and arguments of `call_node(e, ctx)` for an op call (the hot path: its Var
    arguments and scalar keywords are shared Arg nodes), without building the Call; None for a
    call of a program function or a `full` spelled by keyword."""
    op = e.op
    if isinstance(op, GlobalVar) or (op.name in FULL_OPS and len(e.args) == 2):
        return None
    func = op_callee(op.name)
    args = [positional_arg(a, ctx) for a in e.args]
    cut = _keyword_from(op.name, len(e.args))
    if cut is not None:
        # The reference's wrapper binds these positions to other parameters: spell them by name.
        names = [a.name for a in _op_def(op.name).args]
        args = args[:cut] + [keyword_arg(names[i], expr_node(a, ctx))
                             for i, a in enumerate(e.args) if i >= cut]
    if e.kwargs:
        args += [_keyword_arg(k, v, ctx) for k, v in e.kwargs]
    if e.attrs:  # as `_with_attrs` adds them
        args.append(keyword_arg("attrs", dict_node(list(e.attrs), ctx)))
    return func, args


def _op_def(name: str) -> OpDef:
    op = get_op(name)
    assert op is not None, name
    return op


def _keyword_from(name: str, nargs: int) -> int | None:
    """The first positional argument of a call of op `name` that must be printed by keyword so the
    reference's wrapper of `pl.<name>` reads it as the same parameter (`rebinding_slot`)."""
    op = get_op(name)
    return None if op is None else rebinding_slot("pl." + name, op, nargs)


def op_callee(name: str) -> cst.BaseExpression:
    """`pl.<name>`, the callee of an op's calls (one node per op)."""
    func = _OP_FUNCS.get(name)
    if func is None:
        func = _OP_FUNCS[name] = dotted("pl." + name)
    return func


def positional_arg(e: Expr, ctx: Ctx) -> cst.Arg:
    """`cst.Arg(expr_node(e))`, shared per Var (an Arg's comma is rendered by its position)."""
    if type(e) is not Var:
        return arg(expr_node(e, ctx))
    node = ctx.args.get(e)
    if node is None:
        node = ctx.args[e] = arg(expr_node(e, ctx))
    return node


# Keyword values whose printed node depends only on (keyword, type, value): shared Arg nodes.
_SCALARS = (bool, int, str, type(None))


def _keyword_arg(k: str, v: Any, ctx: Ctx) -> cst.Arg:
    """`k=value_node(v)`, shared per (keyword, enum member or scalar)."""
    if not (isinstance(v, Enum) or type(v) in _SCALARS):
        return keyword_arg(k, value_node(v, ctx, k))
    key = (k, type(v), v)
    node = ctx.args.get(key)
    if node is None:
        node = ctx.args[key] = keyword_arg(k, value_node(v, ctx, k))
    return node


def _submit_node(e: Call, ctx: Ctx) -> cst.Call:
    """`pl.submit(self.fn, args..., deps=[...])`: the DSL spelling of a task launch."""
    assert isinstance(e.op, GlobalVar)
    fn = dotted(f"self.{e.op.name}") if ctx.in_program else cst.Name(e.op.name)
    kwargs = [(k, value_node(v, ctx, k)) for k, v in e.attrs if k == "deps"]
    rest = [(k, v) for k, v in e.attrs if k not in (SUBMIT_ATTR, "deps")]
    node = call("pl.submit", [fn, *(expr_node(a, ctx) for a in e.args)], kwargs)
    return _with_attrs(node, Call(e.op, e.args, (), tuple(rest), e.result_type), ctx)


def _with_attrs(node: cst.Call, e: Call, ctx: Ctx) -> cst.Call:
    if not e.attrs:
        return node
    return replace_unchecked(node, args=[*node.args, keyword_arg("attrs", dict_node(list(e.attrs), ctx))])


# ---- types ----------------------------------------------------------------------------------


def dim_node(d: Expr, ctx: Ctx) -> cst.BaseExpression:
    if isinstance(d, (ConstInt, Var)):
        return expr_node(d, ctx)
    return expr_node(d, ctx, typed_index=True)


def _subscript(base: str, items: Sequence[cst.BaseExpression]) -> cst.Subscript:
    return cst.Subscript(value=dotted(base), slice=[cst.SubscriptElement(cst.Index(i)) for i in items])


def _shape(shape: Sequence[Expr], ctx: Ctx) -> cst.List:
    return list_node([dim_node(d, ctx) for d in shape])


def _tile_view(t: TileType, ctx: Ctx) -> cst.Call | None:
    v = t.view
    if v is None:
        return None
    implicit = implicit_tile_view(t.shape, t.memory_space)
    kw: list[tuple[str, cst.BaseExpression]] = []
    if v.valid_shape:
        kw.append(("valid_shape", _shape(v.valid_shape, ctx)))
    if v.stride:
        kw.append(("stride", _shape(v.stride, ctx)))
    if v.start_offset is not None:
        kw.append(("start_offset", dim_node(v.start_offset, ctx)))
    for name in ("blayout", "slayout", "fractal", "pad", "compact"):
        if getattr(v, name) != getattr(implicit, name):
            kw.append((name, value_node(getattr(v, name), ctx)))
    return call("pl.TileView", [], kw)


def _tensor_view(v: TensorView, ctx: Ctx) -> cst.Call:
    default = TensorView()
    kw: list[tuple[str, cst.BaseExpression]] = []
    if v.stride:
        kw.append(("stride", _shape(v.stride, ctx)))
    if v.layout != default.layout:
        kw.append(("layout", value_node(v.layout, ctx)))
    if v.valid_shape:
        kw.append(("valid_shape", _shape(v.valid_shape, ctx)))
    if v.pad != default.pad:
        kw.append(("pad", value_node(v.pad, ctx)))
    return call("pl.TensorView", [], kw)


def type_node(t: Type, ctx: Ctx) -> cst.BaseExpression:
    """`pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec]`, `pl.Tensor[..]`, `pl.Scalar[..]`, ..."""
    key = ("type", t)
    node = ctx.memo.get(key)
    if node is None:
        node = ctx.memo[key] = _type_node(t, ctx)
    return node


def _type_node(t: Type, ctx: Ctx) -> cst.BaseExpression:
    match t:
        case ScalarType(dtype=dt):
            return _subscript("pl.Scalar", [dotted(f"pl.{dt.name}")])
        case TensorType(shape=shape, dtype=dt, view=view):
            items: list[cst.BaseExpression] = [_shape(shape, ctx), dotted(f"pl.{dt.name}")]
            if view is not None:
                items.append(_tensor_view(view, ctx))
            return _subscript("pl.Tensor", items)
        case TileType(shape=shape, dtype=dt, memory_space=space):
            items = [_shape(shape, ctx), dotted(f"pl.{dt.name}")]
            if space is not None:
                items.append(enum_node(space, ctx))
            tv = _tile_view(t, ctx)
            if tv is not None:
                items.append(tv)
            return _subscript("pl.Tile", items)
        case TupleType(types=types):
            return _subscript("pl.Tuple", [type_node(x, ctx) for x in types])
        case UnknownType():
            raise TypeError("UnknownType has no printed form")
        case _:
            raise TypeError(f"cannot print type {type(t).__name__}")
