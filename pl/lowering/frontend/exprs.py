"""Expressions: the recursive lowering of a kernel's expressions (names, list literals,
operators, subscripts, op calls, `self.fn(...)`, pl.submit, task-id lists).

Guarantees: `lower_value` dispatches on the node's kind, once, and recursion goes through
`lower_expr` / `lower_value` only, so every sub-expression is lowered by the same rules; closure
numbers fold to constants; op calls go through `lowering.frontend.op_builders.build_call` and any
error it raises without a place gets the call's span; program calls check arity. What needs no
lowering lives beside it, each with its own guarantees: constants and literals (constants.py),
the typing and folding of scalar operators on lowered operands (scalar_ops.py), the rules of an
op call (op_call_rules.py) and of a program call (program_call_rules.py). (Everything that
recurses stays here: a module lowering a sub-expression would import this one, and this one
dispatches to it, an import cycle.)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from enum import Enum, IntEnum
from types import MappingProxyType
from typing import Any, Final

import libcst as cst

from pl.errors import PlError
from pl.ir.enums import ArgDirection, DType, ParamDirection, Role
from pl.ir.expr import (
    SUBMIT_ATTR,
    SUBMIT_KEYWORDS,
    BinaryExpr,
    Call,
    ConstBool,
    ConstFloat,
    ConstInt,
    Expr,
    GlobalVar,
    MakeTuple,
    TupleGetItem,
    Var,
    program_call_type,
)
from pl.ir.function import Function
from pl.ir.operators import BinaryOp, Kind
from pl.ir.stmt import AssignStmt
from pl.ir.types import ArrayType, ScalarType, TensorType, TileType, TupleType
from pl.language import dsl
from pl.lowering.frontend import op_builders, subscripts
from pl.lowering.frontend.call_checks import check_op_call
from pl.lowering.frontend.constants import (
    float_call,
    literal_float,
    literal_int,
    literal_string,
    py_to_expr,
    static_value,
)
from pl.lowering.frontend.context import FnCtx, InlineCallee, Signature, dotted
from pl.lowering.frontend.op_call_rules import (
    HOST_ONLY,
    attr_kwargs,
    check_host_only,
    culprit,
    is_task_id,
    keeps_task_ids,
    lane_split,
    split_aiv_mode,
    split_args,
)
from pl.lowering.frontend.predicate import check_predicate
from pl.lowering.frontend.program_call_rules import bind_dynamic_dims, no_dep_inner, with_dump_vars
from pl.lowering.frontend.scalar_ops import (
    require_scalar,
    scalar_binary,
    scalar_compare,
    scalar_unary,
    task_id_error,
)
from pl.lowering.frontend.types import type_mismatch, type_text
from pl.lowering.source.static_eval import written_operator
from pl.lowering.unroll import MAX_UNROLL_ITERATIONS


def lower_expr(ctx: FnCtx, node: cst.BaseExpression) -> Expr:
    return py_to_expr(ctx, lower_value(ctx, node), node)


# Lowering, the passes and the printer walk expressions recursively: nesting deeper than this (a
# 400-term sum is 400 deep) is refused where it exceeds the limit, not met as a stack overflow.
MAX_EXPRESSION_DEPTH = 100


def lower_value(ctx: FnCtx, node: cst.BaseExpression) -> Any:
    """An IR Expr, or a static Python value (enum member, str) for op attributes."""
    # Dispatch on the exact node class: LibCST nodes are ABCs, so an isinstance chain (or a
    # `match` on classes) costs an ABC check per case on every expression.
    handler = _VALUE_HANDLERS.get(type(node))
    if handler is None:
        handler = _handler_by_isinstance(node)
    ctx.depth += 1
    if ctx.depth > MAX_EXPRESSION_DEPTH:
        # Located at the statement: precise node positions would walk the deep tree recursively.
        raise PlError(f"Expression nests too deeply for pl (more than {MAX_EXPRESSION_DEPTH} "
                      "levels)", ctx.cur_span, source=ctx.src.text,
                      hint="split it into several statements (a long sum: add partial sums)")
    try:
        return handler(ctx, node)
    finally:
        ctx.depth -= 1


def _name(ctx: FnCtx, node: cst.Name | cst.Attribute) -> Any:
    return ctx.resolve(node)


def _sequence(ctx: FnCtx, node: cst.List | cst.Tuple) -> Any:
    elems = []
    for el in node.elements:
        if isinstance(el, cst.StarredElement):
            raise ctx.error(el, "Starred elements are not supported in kernels")
        value = lower_expr(ctx, el.value)
        elems.append(value)
    return MakeTuple(tuple(elems))


def _boolean(ctx: FnCtx, node: cst.BooleanOperation) -> Any:
    op = BinaryOp.And if isinstance(node.operator, cst.And) else BinaryOp.Or
    left, right = lower_expr(ctx, node.left), lower_expr(ctx, node.right)
    for side, n in ((left, node.left), (right, node.right)):
        require_scalar(ctx, side, n)
    return BinaryExpr(op, left, right, DType.BOOL)


def _unsupported(ctx: FnCtx, node: cst.BaseExpression) -> Any:
    raise ctx.error(node, f"Unsupported expression type: {type(node).__name__}",
                    hint="a list comprehension over constants is unrolled only as pl.submit's "
                         "deps=[...]" if isinstance(node, cst.ListComp) else None)


def _handler_by_isinstance(node: cst.BaseExpression) -> Callable[[FnCtx, Any], Any]:
    """The handler of a node whose class is not in the table (a subclass), or the error."""
    for cls, handler in _VALUE_HANDLERS.items():
        if isinstance(node, cls):
            return handler
    return _unsupported


def _binary(ctx: FnCtx, node: cst.BinaryOperation) -> Expr:
    op = written_operator(node.operator)
    if op is None or not op.in_kernels or op.kind is Kind.COMPARE:
        token = cst.Module([]).code_for_node(node.operator).strip()
        raise ctx.error(node.operator, f"Operator '{token}' is not supported in kernels")
    return lower_binary(ctx, op, node.left, node.right, node)


def lower_binary(ctx: FnCtx, op: BinaryOp, left_node: cst.BaseExpression,
                 right_node: cst.BaseExpression, node: cst.CSTNode) -> Expr:
    """`left op right` (an arithmetic or bitwise operator kernels write, `x += 1` too)."""
    return scalar_binary(ctx, op, lower_expr(ctx, left_node), lower_expr(ctx, right_node),
                         left_node, right_node, node)


def _compare(ctx: FnCtx, node: cst.Comparison) -> Expr:
    if len(node.comparisons) != 1:
        raise ctx.error(node, "Chained comparisons are not supported")
    target = node.comparisons[0]
    op = written_operator(target.operator)
    if op is None or op.kind is not Kind.COMPARE:
        raise ctx.error(target.operator, "Unsupported comparison operator")
    return scalar_compare(ctx, op, lower_expr(ctx, node.left), lower_expr(ctx, target.comparator),
                          node.left, target.comparator)


def _unary(ctx: FnCtx, node: cst.UnaryOperation) -> Expr:
    return scalar_unary(ctx, node, lower_expr(ctx, node.expression))


def _subscript(ctx: FnCtx, node: cst.Subscript) -> Expr:
    base = lower_expr(ctx, node.value)
    if isinstance(base.type, ArrayType):  # `arr[i]` reads element i
        index = array_index(ctx, node)
        return array_op(ctx, "pl.array.get_element",
                        [(node.value, base), (index, lower_expr(ctx, index))], node)
    if isinstance(base.type, TupleType) and len(node.slice) == 1 \
            and isinstance(node.slice[0].slice, cst.Index):
        idx = lower_expr(ctx, node.slice[0].slice.value)
        if isinstance(idx, ConstInt):
            return TupleGetItem(base, idx.value)
    if isinstance(base.type, TensorType | TileType):  # a view or an element (subscripts.py)
        comps = subscript_components(ctx, node)
        try:
            return subscripts.read(base, comps, ctx.cur_span)
        except PlError as e:
            raise ctx.src.locate(e, node, ctx.cur_span) from None
    if isinstance(base.type, TupleType):
        raise ctx.error(node, "Only constant integer indices supported for tuple access",
                        hint="Use a constant integer index like tuple[0]")
    raise ctx.error(node, f"Subscript requires Tuple, Tensor, Tile, or Array type, got "
                          f"{type(base.type).__name__}",
                    hint="Subscript syntax is supported for Tuple, Tensor, Tile, and Array types")


def subscript_components(ctx: FnCtx, node: cst.Subscript) -> list[subscripts.Component]:
    """The indices of `x[...]` lowered, one per written component (`x[(i, j)]` is `x[i, j]`)."""
    elements: list[cst.BaseSlice] = [el.slice for el in node.slice]
    if len(elements) == 1 and isinstance(elements[0], cst.Index) \
            and isinstance(elements[0].value, cst.Tuple):
        elements = [cst.Index(el.value) for el in elements[0].value.elements]
    comps: list[subscripts.Component] = []
    for el in elements:
        if isinstance(el, cst.Slice):
            comps.append(subscripts.Slice(
                None if el.lower is None else lower_expr(ctx, el.lower),
                None if el.upper is None else lower_expr(ctx, el.upper),
                el.step is not None))
        else:
            assert isinstance(el, cst.Index)
            comps.append(subscripts.Index(lower_expr(ctx, el.value)))
    return comps


def array_index(ctx: FnCtx, node: cst.Subscript) -> cst.BaseExpression:
    """The one index of `arr[i]` (a read, or the target of `arr[i] = v`)."""
    if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
        raise ctx.error(node, "An array is indexed by one integer", hint="e.g. arr[i]")
    return node.slice[0].slice.value


def array_op(ctx: FnCtx, spelling: str, operands: Sequence[tuple[cst.CSTNode, Expr]],
             node: cst.CSTNode) -> Expr:
    """The op call that array indexing stands for (`arr[i]` is `pl.array.get_element(arr, i)`,
    `arr[i] = v` is `arr = pl.array.update_element(arr, i, v)`), built and checked as that call
    is; an error points at the operand it names."""
    try:
        return op_builders.build_call(spelling, [e for _, e in operands], {},
                                      ctx.cur_span)
    except PlError as e:
        i = e.argument
        culprit = operands[i][0] if isinstance(i, int) and 0 <= i < len(operands) else node
        raise ctx.src.locate(e, culprit, ctx.cur_span) from None


# -- calls ------------------------------------------------------------------------------------


def lower_call(ctx: FnCtx, node: cst.Call, callee: Any = None) -> Expr:
    """A call in a kernel. `callee`: what `node.func` resolves to, when the caller has already
    resolved it (None: resolve it here)."""
    func = node.func
    if ctx.self_name and isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) \
            and func.value.value == ctx.self_name:
        return program_call(ctx, node, func.attr.value, node.args)
    if type(func) is not cst.Attribute and not isinstance(func, cst.Attribute | cst.Name):
        raise ctx.error(func, "Unsupported call target")
    obj = callee
    if obj is None:
        try:
            obj = ctx.resolve(func)
        except PlError as e:
            if isinstance(func, cst.Attribute):
                raise ctx.error(func, f"Unknown operation '{dotted(func)}'", hint=e.hint) from None
            raise
    spelling = getattr(obj, "__pl_op__", None)
    if isinstance(spelling, str):
        return op_call(ctx, node, spelling)
    if isinstance(getattr(obj, "__self__", None), DType) and getattr(obj, "__name__", "") == "get_byte":
        if node.args:
            raise ctx.error(node, f"{dotted(func)}() takes no arguments")
        return ConstInt(obj(), DType.INDEX, span=ctx.cur_span)
    if obj is dsl.const:
        return _const(ctx, node)
    if obj is float:
        return float_call(ctx, node)
    if obj is dsl.submit or obj is dsl.spmd_submit:
        return _submit(ctx, node, obj.spelling)
    if obj is dsl.yield_:
        raise ctx.error(node, "pl.yield_(...) must be a statement or the right-hand side of an "
                              "assignment")
    if isinstance(obj, dsl.KernelOnly):
        raise ctx.error(func, f"{obj.spelling}(...) cannot be used as an expression here")
    if isinstance(obj, InlineCallee):
        value = obj.expand(ctx, node)
        assert value is not None  # as a value, an inline call without one is refused
        return value
    if isinstance(obj, Function):
        return external_call(ctx, node, obj)
    if isinstance(func, cst.Attribute):
        raise ctx.error(func, f"Unknown operation '{dotted(func)}'")
    raise ctx.error(func, f"Cannot call '{dotted(func)}' in a kernel",
                    hint="A kernel calls pl.* operations, self.method(...) of its program, and "
                         "module-level @pl.function / @pl.inline functions by name")


def op_call(ctx: FnCtx, node: cst.Call, spelling: str) -> Expr:
    if spelling in HOST_ONLY:
        check_host_only(ctx, node, spelling)
    pos, kw = split_args(ctx, node.args)
    deps: tuple[tuple[str, Any], ...] = ()
    if "deps" in attr_kwargs(spelling):
        deps, kw = _deps_keyword(ctx, node, spelling, kw)
    args = [_op_arg(ctx, a.value) for a in pos]
    attrs: tuple[tuple[str, Any], ...] = ()
    kwargs: dict[str, Any] = {}
    for a in kw:
        if a.keyword is None:
            continue
        if a.keyword.value == "attrs":  # compiler attrs, as the printer writes them
            attrs = attrs_arg(ctx, a.value, refused=_OP_BESPOKE_ATTRS)
        else:
            kwargs[a.keyword.value] = _op_arg(ctx, a.value)
    region = split_aiv_mode(ctx, spelling)
    if region is not None:
        lane_split(ctx, node, spelling, kwargs, region)
    if not keeps_task_ids(spelling, args):
        for a, value in zip(pos, args, strict=True):
            if is_task_id(value):
                raise task_id_error(ctx, a.value)
        for a in kw:
            if a.keyword is not None and is_task_id(kwargs.get(a.keyword.value)):
                raise task_id_error(ctx, a.value)
    cheap = ctx.cur_span
    try:
        built = op_builders.build_call(spelling, args, kwargs, cheap, ctx.prog.built_calls)
    except PlError as e:
        raise ctx.src.locate(e, culprit(e, node, pos), cheap) from None
    check_op_call(ctx, node, spelling, built, pos, kw, args, kwargs)
    if (attrs or deps) and isinstance(built, Call):
        built = Call(built.op, built.args, built.kwargs, built.attrs + deps + attrs,
                     built.result_type, span=built.span)
    return built


def _deps_keyword(ctx: FnCtx, node: cst.Call, spelling: str, kw: list[cst.Arg]
                  ) -> tuple[tuple[tuple[str, Any], ...], list[cst.Arg]]:
    """The required `deps=[...]` of `spelling` as its "deps" attr (none when the list is empty,
    as the reference stores it), and the other keywords."""
    found = [a for a in kw if a.keyword is not None and a.keyword.value == "deps"]
    if not found:
        raise ctx.error(node, f"{spelling} requires keyword argument 'deps'",
                        hint=f"Use {spelling}(deps=[]) for an empty barrier")
    value = found[0].value
    if not isinstance(value, cst.List | cst.Tuple):
        raise ctx.error(value, f"{spelling}: deps= takes a list of task ids, e.g. deps=[tid]")
    rest = [a for a in kw if a is not found[0]]
    return ((("deps", lower_deps(ctx, value, f"{spelling}: deps=")),) if value.elements else ()), rest


def hoist_nested(ctx: FnCtx, value: Any) -> Any:
    """An op call of a tile or a tensor that is bound to a name rather than nested where it is
    written: a loop carry's initial value (a definition the flatten_call_expr pass does not
    rebuild) and an `@pl.inline` function's argument (each use of the parameter is that one
    value), computed first by its own statement named after the op (`add = pl.add(a, b)`; Vars
    are told apart by identity, and the printer renames colliding ones); else `value`. Calls
    nested in other calls stay as written (pl/lowering/flatten_call.py flattens them)."""
    if ctx.hoisted is None or type(value) is not Call or isinstance(value.op, GlobalVar) \
            or not isinstance(value.type, TileType | TensorType):
        return value
    temp = Var(value.op.name.rsplit(".", 1)[-1], value.type, span=value.span)
    ctx.hoisted.append(AssignStmt(temp, value, span=ctx.cur_span))
    return temp


# Call attrs with a surface of their own, never written in a call's `attrs={...}` (the printer
# never emits them there; the reference's parser refuses them): manual dependency edges are
# `deps=[...]` of pl.submit / task_dummy, and an op's `dummy_task` follows from the op.
_CALL_ONLY_DEPS: Final = ("manual_dep_edges",)
_OP_BESPOKE_ATTRS: Final = ("manual_dep_edges", "dummy_task")


def attrs_arg(ctx: FnCtx, node: cst.BaseExpression, what: str = "attrs=",
              refused: tuple[str, ...] = ()) -> tuple[tuple[str, Any], ...]:
    """`attrs={"key": value, ...}` (of an op call, `@pl.function` or `pl.func_attr`): string
    keys, none of `refused`; values are constants, strings, dtypes, enum members, kernel values
    or lists of them."""
    if not isinstance(node, cst.Dict):
        raise ctx.error(node, f"{what} takes a dict literal with string keys, e.g. {{\"k\": 1}}")
    out: list[tuple[str, Any]] = []
    for el in node.elements:
        if not isinstance(el, cst.DictElement) or not isinstance(el.key, cst.SimpleString):
            raise ctx.error(el, f"{what} keys must be string literals")
        key = el.key.evaluated_value
        if not isinstance(key, str):
            raise ctx.error(el.key, f"{what} keys must be string literals")
        if key in refused:
            raise ctx.error(el.key, f"attrs={{'{key}': ...}} is not accepted on a call: it has a "
                                    "surface of its own",
                            hint="Manual dependency edges are deps=[...] of `pl.submit(self.kernel, "
                                 "..., deps=[...])` or `pl.system.task_dummy(deps=[...])`, which is "
                                 "also the one dummy task")
        if isinstance(el.value, cst.List | cst.Tuple):
            out.append((key, _attr_list(ctx, key, el.value)))
        else:
            out.append((key, _attr_value(ctx, el.value)))
    return tuple(out)


# The one attr key whose list holds plain integers (argument positions), as in the reference.
_INT_LIST_KEY = "arg_direction_overrides"


def _attr_list(ctx: FnCtx, key: str, node: cst.List | cst.Tuple) -> tuple[Any, ...]:
    """A list-valued attr holds one kind of element, as the reference's attr conversion demands:
    kernel values (a reference to each), `pl.adir` members, or, under `arg_direction_overrides`
    only, integers. Anything else would be dropped or misread downstream, so it is refused here."""
    raw = [el.value if isinstance(el.value, cst.List | cst.Tuple | cst.SimpleString)
           else _op_arg(ctx, el.value) for el in node.elements]  # a nested list or a string: refused
    if key == _INT_LIST_KEY:
        ok = all(isinstance(v, ConstInt) and v.dtype is DType.INDEX for v in raw)
        expected = "integers"
    elif raw and isinstance(raw[0], Var):
        ok, expected = all(isinstance(v, Var) for v in raw), "all kernel values, as the first is"
    else:
        ok, expected = all(isinstance(v, ArgDirection) for v in raw), "pl.adir members"
    if not ok:
        raise ctx.error(node, f"Unsupported list element type for key: {key} (expected {expected})",
                        hint="a list-valued attr holds kernel values or pl.adir members; integer "
                             f"lists only under '{_INT_LIST_KEY}'")
    return tuple(_attr_value(ctx, el.value) for el in node.elements)


def _attr_value(ctx: FnCtx, node: cst.BaseExpression) -> Any:
    if isinstance(node, cst.List | cst.Tuple):
        return tuple(_attr_value(ctx, el.value) for el in node.elements)
    if isinstance(node, cst.SimpleString):
        return node.evaluated_value
    val = _op_arg(ctx, node)
    if isinstance(val, IntEnum):  # `pl.SplitMode.UP_DOWN`: the attr keeps the int, as the reference's
        return int(val)
    match val:
        case ConstBool(value=b):
            return b
        case ConstInt(value=i, dtype=DType.INDEX):
            return i
        case ConstFloat(value=f, dtype=DType.FP32):
            return f
    return val


def _op_arg(ctx: FnCtx, node: cst.BaseExpression) -> Any:
    if type(node) is cst.Name:  # the common operand, a kernel value: skip the generic dispatch
        var = ctx.lookup_var(node.value)
        if var is not None:
            return var
    val = lower_value(ctx, node)
    if isinstance(val, Expr | str) or _is_enum(val):
        return val
    return py_to_expr(ctx, val, node)


def _is_enum(val: Any) -> bool:
    return isinstance(val, Enum)


def _const(ctx: FnCtx, node: cst.Call) -> Expr:
    args = [a for a in node.args]
    if len(args) != 2:
        raise ctx.error(node, "pl.const takes a value and a dtype: pl.const(42, pl.INT32)")
    value = lower_expr(ctx, args[0].value)
    dt = lower_value(ctx, args[1].value)
    if not isinstance(dt, DType):
        raise ctx.error(args[1].value, "Expected a dtype such as pl.INT32")
    if isinstance(value, ConstInt | ConstFloat | ConstBool):
        if dt.is_float():
            return ConstFloat(float(value.value), dt)
        if dt is DType.BOOL:
            return ConstBool(bool(value.value))
        return ConstInt(int(value.value), dt)
    raise ctx.error(args[0].value, "pl.const needs a literal value")


def program_call(ctx: FnCtx, node: cst.Call, name: str, args: Any,
                 attrs: tuple[tuple[str, Any], ...] = (), submit: bool = False) -> Expr:
    """`self.name(...)`: a call of a function of the program (recursion included: the
    reference's parser accepts it, and a pass that cannot follow a cycle says so). A submit
    (`pl.submit(self.name, ...)`) may leave out Out / InOut arguments: the runtime allocates
    them."""
    sig = ctx.prog.signatures.get(name)
    if sig is None:
        raise ctx.error(node.func, f"Function '{name}' not defined in program",
                        hint=f"Functions of this program: {', '.join(ctx.prog.signatures) or 'none'}")
    return _signature_call(ctx, node, sig, args, attrs, submit)


def external_call(ctx: FnCtx, node: cst.Call, fn: Function) -> Expr:
    """`name(...)` of a module-level `@pl.function`: the function joins the program (after its
    own functions) and is called as `self.name(...)` is, as in the reference."""
    name = fn.name
    if name in ctx.prog.signatures:
        raise ctx.error(node.func, f"External function '{name}' conflicts with program function "
                                   f"'{name}'",
                        hint="Rename either the external or program function")
    held = ctx.prog.externals.setdefault(name, fn)
    if held is not fn:
        raise ctx.error(node.func, f"Conflicting external functions with name '{name}'",
                        hint="External functions must have unique names; rename one of them")
    sig = Signature(name, [(p.name, p.type, d) for p, d in zip(fn.params, fn.directions,
                                                                  strict=True)],
                    fn.return_types, fn.func_type, GlobalVar(name), fn.role)
    return _signature_call(ctx, node, sig, node.args, ())


def call_site_attrs(ctx: FnCtx, node: cst.BaseExpression, name: str, npos: int
                    ) -> tuple[tuple[str, Any], ...]:
    """`attrs={...}` on a call of program function `name` with `npos` positional arguments:
    `arg_directions` gives one direction per argument; dependency edges are not an attr (they
    are a submit's deps=, and an attr would silently not order anything: `_CALL_ONLY_DEPS`)."""
    given = attrs_arg(ctx, node, refused=_CALL_ONLY_DEPS)
    directions = dict(given).get("arg_directions")
    if directions and len(directions) != npos:
        raise ctx.error(node, f"attrs['arg_directions'] length ({len(directions)}) on call to "
                              f"'{name}' must match positional arg count ({npos})")
    return given


def specialised_call(ctx: FnCtx, node: cst.Call,
                     specialise: Callable[[list[cst.Arg], tuple[Expr, ...]], Signature]) -> Expr:
    """A call of a `@pl.jit.*` function (pl/jit): its arguments are lowered first, and
    `specialise` gives the signature of the program function their types make of it."""
    pos, _ = split_args(ctx, node.args)
    lowered = tuple(lower_expr(ctx, a.value) for a in pos)
    return _signature_call(ctx, node, specialise(pos, lowered), node.args, (), lowered=lowered)


def _signature_call(ctx: FnCtx, node: cst.Call, sig: Signature, args: Any,
                    attrs: tuple[tuple[str, Any], ...], submit: bool = False,
                    lowered: tuple[Expr, ...] | None = None) -> Expr:
    """`lowered`: the positional arguments, already lowered (a `@pl.jit` call's)."""
    name = sig.name
    pos, kw = split_args(ctx, args)
    for a in kw:
        if a.keyword is not None and a.keyword.value not in ("device", "attrs"):
            raise ctx.error(a, f"Function '{name}' does not take keyword argument "
                               f"'{a.keyword.value}'")
    most = len(sig.params)
    least = sum(d not in (ParamDirection.Out, ParamDirection.InOut) for _, _, d in sig.params) \
        if submit else most
    if not least <= len(pos) <= most:
        params = [f"{p}: {d.name}" for p, _, d in sig.params]
        expects = f"{least}..{most}" if least != most else f"{most}"
        raise ctx.error(node, f"Function '{name}' expects {expects} argument(s), got {len(pos)}",
                        hint=f"Parameters: {params}" + (". Out/InOut params may be omitted in "
                                                        "submit calls" if submit else ""))
    for a in kw:  # call-site attrs (e.g. `attrs={"core_num": 4}`) stay on the Call
        if a.keyword is not None and a.keyword.value == "attrs":
            attrs += call_site_attrs(ctx, a.value, name, len(pos))
    if lowered is None:
        values = [no_dep_inner(ctx, a.value) for a in pos]
        no_dep = tuple(i for i, (a, v) in enumerate(zip(pos, values, strict=True))
                       if v is not a.value)
        if no_dep:  # the reference's slot overrides: DeriveCallDirections makes these NoDep
            attrs += (("arg_direction_overrides", no_dep),)
        lowered = tuple(lower_expr(ctx, v) for v in values)
    attrs = with_dump_vars(ctx, attrs, lowered)
    bound: dict[Var, tuple[int, str]] = {}  # a dynamic dim of the callee: its extent, and from where
    for a, value, (pname, ptype, _) in zip(pos, lowered, sig.params, strict=False):
        # The reference binds a callee's shape to its argument's, rank included: only the kind and
        # dtype must agree (a value of another dtype is not what the callee computes on).
        why = type_mismatch(ptype, value.type)
        if why is not None:
            raise ctx.error(a.value, f"Argument '{pname}' of '{name}' {why}",
                            hint=f"'{name}' declares {pname}: {type_text(ptype)}")
        bind_dynamic_dims(ctx, a.value, name, pname, ptype, value.type, bound)
    device = next((a for a in kw if a.keyword is not None and a.keyword.value == "device"), None)
    if device is not None:
        if sig.role is not Role.Orchestrator:
            raise ctx.error(device, f"Function '{name}' does not take 'device': only an "
                                    "orchestrator is dispatched to a device",
                            hint="device= goes on a call of a function with "
                                 "type=pl.FunctionType.Orchestration or role=pl.Role.Orchestrator")
        attrs += (("device", lower_expr(ctx, device.value)),)
    return Call(sig.gvar, lowered, (), attrs, program_call_type(sig.return_types),
                span=ctx.cur_span)


# The keywords of pl.submit / pl.spmd_submit besides the program function's arguments: those
# of the launch's attrs (pl.ir.expr.SUBMIT_KEYWORDS), then `attrs=`.
_SUBMIT_WORDS: Final = (*SUBMIT_KEYWORDS.values(), "attrs")
_SPMD_ONLY = ("core_num", "sync_start")


def _submit(ctx: FnCtx, node: cst.Call, spelling: str) -> Expr:
    """`pl.submit(self.fn, *args, deps=, dumps=, allow_early_resolve=, predicate=)` and
    `pl.spmd_submit(..., core_num=N, sync_start=)`: a program call marked with SUBMIT_ATTR
    (pl.ir.expr), typed (*returns, TASK_ID); each keyword is an attr of the call (the launch spec
    `core_num` marks an SPMD launch; a False flag is not stored, as in the reference)."""
    args = list(node.args)
    if not args or not (isinstance(args[0].value, cst.Attribute)
                        and isinstance(args[0].value.value, cst.Name)
                        and args[0].value.value.value == ctx.self_name):
        raise ctx.error(node, f"{spelling} takes a program function first: {spelling}(self.fn, ...)")
    name = args[0].value.attr.value
    rest = [a for a in args[1:] if a.keyword is None]
    given = {a.keyword.value: a for a in args[1:] if a.keyword is not None}
    spmd = spelling == "pl.spmd_submit"
    for key, a in given.items():
        if key not in _SUBMIT_WORDS or (key in _SPMD_ONLY and not spmd):
            allowed = [k for k in _SUBMIT_WORDS if spmd or k not in _SPMD_ONLY]
            raise ctx.error(a, f"{spelling} does not take keyword argument '{key}'",
                            hint=f"Keywords: {', '.join(k + '=' for k in allowed)}")
    if spmd and "core_num" not in given:
        raise ctx.error(node, "pl.spmd_submit needs core_num=N (the number of blocks to launch)")
    attrs: list[tuple[str, Any]] = [(SUBMIT_ATTR, True)]
    for attr, key in SUBMIT_KEYWORDS.items():
        found = given.get(key)
        if found is None:
            continue
        if key == "dumps":
            attrs.append((attr, _dump_vars(ctx, found.value, rest)))
        elif key in ("sync_start", "allow_early_resolve"):
            flag = lower_value(ctx, found.value)
            if not isinstance(flag, bool | ConstBool):
                raise ctx.error(found.value, f"{spelling}: {key}= takes True or False")
            if flag is True or (isinstance(flag, ConstBool) and flag.value):
                attrs.append((attr, True))
        elif key == "core_num":
            attrs.append((attr, _core_num(ctx, found.value)))
        elif key == "deps":
            attrs.append((attr, lower_deps(ctx, found.value, f"{spelling}: deps=")))
        elif key == "predicate":
            pred = lower_expr(ctx, found.value)
            check_predicate(ctx, pred, found.value, spelling, dict(attrs).get("deps"))
            attrs.append((attr, pred))
        else:
            attrs.append((attr, lower_expr(ctx, found.value)))
    if "attrs" in given:
        attrs += call_site_attrs(ctx, given["attrs"].value, name, len(rest))
    call = program_call(ctx, node, name, rest, tuple(attrs), submit=True)
    assert isinstance(call, Call)
    sig = ctx.prog.signatures[name]
    return Call(call.op, call.args, (), call.attrs, program_call_type(sig.return_types, submit=True),
                span=call.span)


def _core_num(ctx: FnCtx, node: cst.BaseExpression) -> Expr:
    """`core_num=`: a positive integer constant or an integer scalar."""
    value = lower_expr(ctx, node)
    t = value.type
    if not isinstance(t, ScalarType) or not (t.dtype.is_int() or t.dtype is DType.INDEX) \
            or (isinstance(value, ConstInt) and value.value < 1):
        raise ctx.error(node, "pl.spmd_submit: core_num= must be a positive integer (the number of "
                              "blocks to launch)")
    return value


def lower_deps(ctx: FnCtx, node: cst.BaseExpression, what: str = "deps=") -> Expr:
    """A `deps=[...]` list of pl.submit / pl.spmd_submit / task_dummy / pl.at / pl.spmd: task ids
    (Scalar[TASK_ID], `None`) or arrays of them (comprehensions over constants unrolled, see
    `_deps`). Whole arrays and elements read from arrays do not mix in one list (the reference's
    parser refuses it: its codegen cannot pack both)."""
    value = _deps(ctx, node)
    entries = value.elements if isinstance(value, MakeTuple) else ()
    for e in entries:
        t = e.type
        if not ((isinstance(t, ScalarType) or isinstance(t, ArrayType)) and t.dtype is DType.TASK_ID):
            raise ctx.error(node, f"{what} entries must be task ids (from pl.submit, None) or "
                                  f"arrays of them, got {type_text(t)}")
    elements = [e for e in entries if isinstance(e, Call) and e.op_name == "array.get_element"]
    if elements and any(isinstance(e.type, ArrayType) for e in entries):
        raise ctx.error(node, f"{what} cannot mix a whole task-id array with its elements (arr[i])",
                        hint="List the whole array, or only its elements")
    return value


def _dump_vars(ctx: FnCtx, node: cst.BaseExpression, args: list[cst.Arg]) -> tuple[Expr, ...]:
    """`dumps=[a, b]`: names of the launch's own arguments, as the reference requires."""
    if not isinstance(node, cst.List | cst.Tuple):
        raise ctx.error(node, "dumps= takes a list of the launch's tensor arguments, e.g. dumps=[q]")
    passed = {a.value.value for a in args if isinstance(a.value, cst.Name)}
    out = []
    for el in node.elements:
        if not isinstance(el.value, cst.Name) or el.value.value not in passed:
            raise ctx.error(el.value, "dumps= entries must be names passed to the launch as arguments")
        out.append(lower_expr(ctx, el.value))
    return tuple(out)


def _deps(ctx: FnCtx, node: cst.BaseExpression) -> Expr:
    """`deps=[...]` of pl.submit: a list whose entries may be list comprehensions over values
    known while compiling (`[tids[k] for k in range(K) if k != SKIP]`), unrolled into their
    entries as the reference's parser unrolls them (only here: elsewhere a comprehension is
    refused, as there)."""
    if isinstance(node, cst.ListComp):
        return MakeTuple(tuple(_unrolled(ctx, node)))
    if isinstance(node, cst.List | cst.Tuple) and any(isinstance(el.value, cst.ListComp)
                                                        for el in node.elements):
        entries: list[Expr] = []
        for el in node.elements:
            if isinstance(el.value, cst.ListComp):
                entries += _unrolled(ctx, el.value)
            else:
                entries.append(lower_expr(ctx, el.value))
        return MakeTuple(tuple(entries))
    return lower_expr(ctx, node)


def _unrolled(ctx: FnCtx, comp: cst.ListComp) -> list[Expr]:
    """The entries of `[elt for name in ITER if COND]`: ITER a `range(...)` of constants or a
    sequence of constant ints, COND constant once `name` is each of them."""
    gen = comp.for_in
    if gen.inner_for_in is not None or gen.asynchronous is not None:
        raise ctx.error(comp, "A deps= comprehension takes a single plain `for` clause")
    if not isinstance(gen.target, cst.Name):
        raise ctx.error(gen.target, "A deps= comprehension's target must be a single name",
                        hint="Use `for i in ...`, not `for i, j in ...`")
    name = gen.target.value
    values = _static_ints(ctx, gen.iter)
    entries: list[Expr] = []
    for v in values:
        keep = True
        for cond in gen.ifs:
            test = static_value(_lower_with_constant(ctx, cond.test, name, v))
            if test is None:
                raise ctx.error(cond.test, "A deps= comprehension's filter depends on a kernel "
                                           "value: it cannot be unrolled while compiling",
                                hint="Filters may read only constants and the comprehension's "
                                     "own loop name")
            keep = keep and bool(test)
        if keep:
            entries.append(_lower_with_constant(ctx, comp.elt, name, v))
    return entries


def _lower_with_constant(ctx: FnCtx, node: cst.BaseExpression, name: str, v: int) -> Expr:
    """`node` lowered with the comprehension's `name` read as `v`. What is lowered is a copy
    of `node`, which has no position: an error in it is located at `node` itself."""
    try:
        return lower_expr(ctx, _with_constant(node, name, v))
    except PlError as e:
        raise ctx.src.locate(e, node) from None


def _static_ints(ctx: FnCtx, node: cst.BaseExpression) -> list[int]:
    """The ints a comprehension's iterable gives while compiling."""
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) \
            and ctx.try_resolve(node.func) is range:
        bounds = [static_value(lower_expr(ctx, a.value)) for a in node.args]
        if len(bounds) in (1, 2, 3) and all(type(b) is int for b in bounds) and bounds[-1] != 0 \
                and not any(a.keyword or a.star for a in node.args):
            values = range(*bounds)  # type: ignore[arg-type]
            if len(values) > MAX_UNROLL_ITERATIONS:
                raise ctx.error(node, f"A deps= comprehension unrolls {len(values)} entries, more "
                                      f"than the {MAX_UNROLL_ITERATIONS} a loop may unroll",
                                hint="depend on fewer tasks, or submit inside a pl.range loop "
                                     "with deps=[arr[i]]")
            return list(values)
        raise ctx.error(node, "A deps= comprehension's range(...) needs constant bounds",
                        hint="Use module-level numbers, or write the loop as pl.range with "
                             "deps=[arr[i]] inside")
    if isinstance(node, cst.Call) and isinstance(ctx.try_resolve(node.func), dsl.KernelOnly):
        raise ctx.error(node, "A deps= comprehension's iterable is a kernel loop (pl.range, "
                              "pl.parallel, ...): it cannot be unrolled while compiling",
                        hint="Use Python's range(...) for a list unrolled while compiling")
    value = lower_value(ctx, node)
    ints: list[Any] | None = None
    if isinstance(value, list | tuple):  # a module constant
        ints = list(value)
    elif isinstance(value, MakeTuple):
        ints = [static_value(e) for e in value.elements]
    if ints is None or any(type(i) is not int for i in ints):
        raise ctx.error(node, "A deps= comprehension's iterable must be range(...) or a sequence "
                              "of constant ints")
    return ints


def _with_constant(node: cst.BaseExpression, name: str, value: int) -> cst.BaseExpression:
    """`node` with each read of `name` replaced by the literal `value`."""
    literal: cst.BaseExpression = cst.Integer(str(abs(value)))
    if value < 0:
        literal = cst.UnaryOperation(cst.Minus(), literal)

    class _Substitute(cst.CSTTransformer):
        def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.BaseExpression:
            # Another name stays the very node of the file, so an error about it is located.
            return literal if original.value == name else original

        def leave_Attribute(self, original: cst.Attribute,
                            updated: cst.Attribute) -> cst.BaseExpression:
            return updated.with_changes(attr=original.attr)  # `x.name` is not a read of name

        def leave_Arg(self, original: cst.Arg, updated: cst.Arg) -> cst.Arg:
            return updated.with_changes(keyword=original.keyword)

    out = node.visit(_Substitute())
    assert isinstance(out, cst.BaseExpression)
    return out


# The expression forms lower_value accepts, by exact LibCST class.
_VALUE_HANDLERS: Final[Mapping[type, Callable[[FnCtx, Any], Any]]] = MappingProxyType({
    cst.Integer: literal_int, cst.Float: literal_float, cst.SimpleString: literal_string,
    cst.ConcatenatedString: literal_string, cst.Name: _name, cst.Attribute: _name, cst.List: _sequence,
    cst.Tuple: _sequence, cst.UnaryOperation: _unary, cst.BinaryOperation: _binary,
    cst.Comparison: _compare, cst.BooleanOperation: _boolean, cst.Call: lower_call,
    cst.Subscript: _subscript,
})
