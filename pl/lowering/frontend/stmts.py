"""Simple statements: assignments, yields, returns, `pass`, `break`, `continue`, expressions.

Guarantees: a non-strict rebinding of a plain Var re-uses that Var and must keep its type;
`a, b = call(...)` goes through a tuple temp and TupleGetItem. Statements that hold blocks
(if, with, for, while) are lowering/frontend/blocks.py's.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, Final

import libcst as cst

from pl.errors import PlError
from pl.ir.enums import DType, FunctionType, MemorySpace
from pl.ir.expr import Call, ConstInt, Expr, IterArg, Op, TupleGetItem, Var
from pl.ir.function import WrittenSpace
from pl.ir.names import user_name
from pl.ir.operators import Kind
from pl.ir.span import Span
from pl.ir.stmt import (
    AssignStmt,
    BreakStmt,
    ContinueStmt,
    EvalStmt,
    ReturnStmt,
    Stmt,
    YieldStmt,
)
from pl.ir.types import ArrayType, ScalarType, TensorType, TileType, TupleType, Type, UnknownType
from pl.language import dsl
from pl.lowering.flatten_nd import as_flattened_load
from pl.lowering.frontend import subscripts
from pl.lowering.frontend.constants import static_value
from pl.lowering.frontend.context import FnCtx, InlineCallee, YieldSite
from pl.lowering.frontend.exprs import (
    array_index,
    array_op,
    attrs_arg,
    lower_binary,
    lower_call,
    lower_expr,
    subscript_components,
)
from pl.lowering.frontend.jit_static import bind_static
from pl.lowering.frontend.op_args import LOAD_SPACES
from pl.lowering.frontend.types import (
    Annot,
    check_local,
    lower_annotation,
    placed_by_inference,
    type_mismatch,
    type_text,
)
from pl.lowering.source.static_eval import written_operator
from pl.ops.deduce import make_call
from pl.ops.registry import get_op


def comments_of(node: cst.CSTNode) -> list[str]:
    out = []
    for line in getattr(node, "leading_lines", ()):
        if line.comment is not None:
            out.append(line.comment.value[1:].strip())
    return out


def dsl_callee(ctx: FnCtx, node: cst.CSTNode) -> Any:
    """The DSL object a call's callee denotes, or None (never raises)."""
    # Attribute first: `pl.op(...)` is the common callee, and an exact class match skips the
    # (slow) ABC check that LibCST's node classes otherwise cost.
    if type(node) is cst.Call:
        func = node.func
        if type(func) is cst.Attribute or type(func) is cst.Name:
            return ctx.try_resolve(func)
    if not isinstance(node, cst.Call) or not isinstance(node.func, cst.Attribute | cst.Name):
        return None
    return ctx.try_resolve(node.func)


def lower_small(ctx: FnCtx, node: cst.BaseSmallStatement) -> list[Stmt]:
    """The statements of one simple statement: those an inline function's body or a loop's initial
    values put first (see `FnCtx.hoisted`), then the statement itself."""
    # Dispatch on the exact node class (LibCST nodes are ABCs: class patterns are slow).
    handler = _SMALL_HANDLERS.get(type(node))
    if handler is None:
        handler = _small_handler_by_isinstance(node)
    outer, ctx.hoisted = ctx.hoisted, []
    try:
        produced = handler(ctx, node)
        hoisted: list[Stmt] = ctx.hoisted
    finally:
        ctx.hoisted = outer
    return hoisted + produced if hoisted else produced


def _assign_stmt(ctx: FnCtx, node: cst.Assign) -> list[Stmt]:
    if len(node.targets) != 1:
        raise ctx.error(node, "Chained assignment (a = b = e) is not supported")
    return assign(ctx, node.targets[0].target, node.value, None, node)


def _ann_assign_stmt(ctx: FnCtx, node: cst.AnnAssign) -> list[Stmt]:
    if not isinstance(node.target, cst.Name):
        raise ctx.error(node.target, "An annotated assignment needs a plain name")
    ann = lower_annotation(ctx, node.annotation.annotation, lower_expr)
    if node.value is None:
        return _declare_result(ctx, node.target.value, ann.type, node)
    return assign(ctx, node.target, node.value, ann, node)


def _declare_result(ctx: FnCtx, name: str, t: Type, node: cst.AnnAssign) -> list[Stmt]:
    """`p: T` without a value: the type of the result `p` of the if right after it (checked by
    `lower_block` and `blocks.lower_if`). It is how a result of `p, q = pl.yield_(..)`, which
    has no place for an annotation, keeps a type other than its yielded value's."""
    if name in ctx.result_types:
        raise ctx.error(node, f"'{name}' is declared twice before the same if")
    ctx.result_types[name] = (t, node)
    return []


def _aug_assign_stmt(ctx: FnCtx, node: cst.AugAssign) -> list[Stmt]:
    op = written_operator(node.operator)  # `+=` -> Add (pl/ir/operators.py)
    if op is None or not op.in_kernels or op.kind not in (Kind.ARITH, Kind.BITWISE) \
            or not isinstance(node.target, cst.Name):
        raise ctx.error(node, "Unsupported augmented assignment")
    e = lower_binary(ctx, op, node.target, node.value, node)
    return [bind(ctx, node.target, e, None, node)]


def _return_stmt(ctx: FnCtx, node: cst.Return) -> list[Stmt]:
    span = ctx.src.stmt_span(node)
    if ctx.loops:
        raise ctx.error(node, "return is not allowed inside a loop",
                        hint="carry the value out with init_values and pl.yield_, "
                             "then return it after the loop")
    if ctx.outlined_scope() is not None:
        raise ctx.error(node, "return is not allowed inside a pl.at(level=pl.Level.CORE_GROUP) "
                              "or pl.spmd scope: its body runs as a task of its own (an InCore "
                              "function compilation outlines), which cannot return from the "
                              "function around it",
                        hint="bind the value inside the scope and return it after the scope")
    vals: tuple[Expr, ...] = ()
    if isinstance(node.value, cst.Tuple):
        vals = tuple(lower_expr(ctx, el.value) for el in node.value.elements)
    elif node.value is not None:
        vals = (lower_expr(ctx, node.value),)
    _check_returned(ctx, node, vals)
    return [ReturnStmt(vals, span=span)]


def _check_returned(ctx: FnCtx, node: cst.Return, vals: tuple[Expr, ...]) -> None:
    """The returned values against the `->` annotation: as many as declared, each of the declared
    kind and dtype (`type_mismatch`; other dims are kept as declared, as the reference does)."""
    declared = ctx.return_types
    if not declared:
        return
    actual: tuple[Type, ...] = tuple(v.type for v in vals)
    if len(actual) == 1 and isinstance(actual[0], TupleType) and len(declared) != 1:
        actual = actual[0].types
    if len(actual) != len(declared):
        raise ctx.error(node, f"Function '{ctx.name}' declares {len(declared)} return value(s) but "
                              f"returns {len(actual)}")
    for i, (d, a) in enumerate(zip(declared, actual, strict=True)):
        why = type_mismatch(d, a)
        if why is not None:
            where = node.value if len(vals) == 1 or not isinstance(node.value, cst.Tuple) \
                else node.value.elements[i].value
            raise ctx.error(where or node, f"Returned value {why} ({type_text(d)})",
                            hint=f"Change the return annotation to: {type_text(a)}")


def _pass_stmt(ctx: FnCtx, node: cst.Pass) -> list[Stmt]:
    return []


def _break_continue_stmt(ctx: FnCtx, node: cst.Break | cst.Continue) -> list[Stmt]:
    span = ctx.src.stmt_span(node)
    word = "break" if isinstance(node, cst.Break) else "continue"
    if not ctx.loops:
        raise ctx.error(node, f"'{word}' outside a loop")
    if ctx.loops[-1][0] not in ("Sequential", "While"):
        raise ctx.error(node, f"'{word}' is only allowed in pl.range and while loops")
    scope = ctx.outlined_scope()
    if scope is not None and scope.loops == len(ctx.loops):
        raise ctx.error(node, f"'{word}' cannot leave the pl.at(level=pl.Level.CORE_GROUP) or "
                              "pl.spmd scope it is in: the scope's body runs as a task of its own "
                              "(an InCore function compilation outlines), which cannot end a loop "
                              "around it",
                        hint="compute the condition inside the scope and test it after the scope")
    return [BreakStmt(span=span) if word == "break" else ContinueStmt(span=span)]


def _unsupported_stmt(ctx: FnCtx, node: cst.BaseSmallStatement) -> list[Stmt]:
    raise ctx.error(node, f"Unsupported statement type: {type(node).__name__}")


def _small_handler_by_isinstance(node: cst.BaseSmallStatement) -> Callable[[FnCtx, Any], list[Stmt]]:
    """The handler of a statement whose class is not in the table (a subclass), or the error."""
    for cls, handler in _SMALL_HANDLERS.items():
        if isinstance(node, cls):
            return handler
    return _unsupported_stmt


def _expr_stmt(ctx: FnCtx, node: cst.Expr) -> list[Stmt]:
    value = node.value
    if isinstance(value, cst.SimpleString | cst.ConcatenatedString):
        return []  # docstring
    if ctx.prog.jit and isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) \
            and value.func.attr.value == "bind_dynamic":
        _bind_dynamic(ctx, value)
        return []
    obj = dsl_callee(ctx, value)
    if obj is dsl.yield_:
        assert isinstance(value, cst.Call)
        return [yield_site(ctx, None, [None], value, node)]
    if obj is dsl.static_print:
        return []
    if obj is dsl.static_assert:
        assert isinstance(value, cst.Call)
        _static_assert(ctx, value)
        return []
    if obj is dsl.func_attr:
        assert isinstance(value, cst.Call)
        if ctx.emitted:
            raise ctx.error(value, "pl.func_attr(...) must be the first statement of the function")
        for arg in value.args:
            for key, val in attrs_arg(ctx, arg.value, "pl.func_attr"):
                if any(k == key for k, _ in ctx.attrs):
                    raise ctx.error(arg, f"Duplicate function attribute '{key}'",
                                    hint="Each attribute may be declared only once.")
                ctx.attrs.append((key, val))
        return []
    if obj is dsl.cond:
        raise ctx.error(value, "pl.cond(...) must be the first statement of a pl.while_ loop")
    if isinstance(obj, InlineCallee):  # its statements are hoisted before this one
        assert isinstance(value, cst.Call)
        obj.expand(ctx, value, as_value=False)
        return []
    if obj is dsl.dump_tag:
        assert isinstance(value, cst.Call)
        _dump_tag(ctx, value)
        return []
    if obj is dsl.submit or obj is dsl.spmd_submit:  # its task id must be bound, as the reference says
        raise ctx.error(value, f"{obj.spelling}(...) must be unpacked as a 2-tuple: "
                               f"`out, tid = {obj.spelling}(self.kernel, ...)`",
                        hint=f"{obj.spelling} returns the kernel's results and its task id")
    return [EvalStmt(lower_expr(ctx, value), span=ctx.src.stmt_span(node))]


def _bind_dynamic(ctx: FnCtx, call: cst.Call) -> None:
    """`x.bind_dynamic(dim, SYM)` in a `@pl.jit` entry: no statement; the entry's parameter `x`
    was typed with SYM in that dim (lowering/frontend/jit.py), which is checked here."""
    func = call.func
    assert isinstance(func, cst.Attribute)
    target = func.value
    var = ctx.lookup_var(target.value) if isinstance(target, cst.Name) else None
    dim = call.args[0].value if len(call.args) == 2 else None
    k = int(dim.value, 0) if isinstance(dim, cst.Integer) else -1
    sym = ctx.resolve(call.args[1].value) if len(call.args) == 2 else None
    shape = var.type.shape if var is not None and isinstance(var.type, TensorType) else ()
    if not (isinstance(sym, dsl.DynVar) and 0 <= k < len(shape)
            and shape[k] is ctx.prog.dyn_var(sym)):
        raise ctx.error(call, "x.bind_dynamic(dim, SYM) binds a dim of an unshaped `pl.Tensor` "
                              "parameter of a @pl.jit entry to a pl.dynamic symbol, as a "
                              "statement of the entry's own body",
                        hint="or write the symbol in the parameter's annotation: "
                             "x: pl.Tensor[[SYM, 64], pl.FP32]")


def _dump_tag(ctx: FnCtx, call: cst.Call) -> None:
    """`pl.dump_tag(t)`: no statement; the tensor Var `t` names now is marked, so the program
    calls after it that take it list it in their "dump_vars" attr (`FnCtx.dump_tagged`)."""
    if ctx.func_type not in (FunctionType.Orchestration, FunctionType.Inline):
        raise ctx.error(call, "pl.dump_tag() is only valid inside an Orchestration or Inline function",
                        hint="Tag the tensor in the orchestration function whose kernel calls take it")
    if len(call.args) != 1 or call.args[0].keyword is not None or call.args[0].star:
        raise ctx.error(call, "pl.dump_tag() takes exactly one positional argument (no keywords)",
                        hint="Use: pl.dump_tag(tensor_var)")
    arg = call.args[0].value
    if not isinstance(arg, cst.Name):
        raise ctx.error(arg, "pl.dump_tag() argument must be a bare variable name")
    var = ctx.lookup_var(arg.value)
    if var is None:  # an inline function's parameter stands for its argument (inline.py)
        given = ctx.prog.closure.get(arg.value)
        var = given if isinstance(given, Var) else None
    if var is None:
        raise ctx.error(arg, f"pl.dump_tag() argument '{arg.value}' is not defined at this point",
                        hint="Tag a tensor only after it is bound (a parameter or an earlier assignment)")
    if not isinstance(var.type, TensorType):
        raise ctx.error(arg, f"pl.dump_tag() argument '{arg.value}' is not a tensor",
                        hint="Only tensors can be selectively dumped")
    if not any(var is t for t in ctx.dump_tagged):
        ctx.dump_tagged.append(var)


def _static_assert(ctx: FnCtx, call: cst.Call) -> None:
    """`pl.static_assert(cond[, "message"])`: `cond` must be computable while compiling (constants
    and module-level numbers), and fails the compile at this line when false (the reference's
    semantics)."""
    args = list(call.args)
    if not 1 <= len(args) <= 2 or any(a.keyword is not None or a.star for a in args):
        raise ctx.error(call, "static_assert() requires 1 or 2 arguments",
                        hint="Use: pl.static_assert(condition) or "
                             "pl.static_assert(condition, 'message')")
    message = ""
    if len(args) == 2:
        text = args[1].value
        literal = text.evaluated_value if isinstance(text, cst.SimpleString) else None
        if not isinstance(literal, str):
            raise ctx.error(text, "static_assert() message must be a string literal")
        message = literal
    cond = args[0].value
    result = static_value(lower_expr(ctx, cond))
    source = cst.Module([]).code_for_node(cond)
    if result is None:
        raise ctx.error(cond, "static_assert condition must be compile-time evaluable",
                        hint=f"Condition `{source}` cannot be computed while compiling (it "
                             "reads a kernel value, or divides by zero)")
    if not result:
        raise ctx.error(call, f"static_assert failed: {message}" if message
                        else "static_assert failed",
                        hint=f"Condition `{source}` evaluated to {result!r}")



def yield_site(ctx: FnCtx, names: list[str] | None, types: list[Type | None], call: cst.Call,
               stmt: cst.CSTNode) -> Stmt:
    if not ctx.yields:
        raise ctx.error(call, "pl.yield_(...) is only allowed inside a loop or an if")
    scope = ctx.outlined_scope()
    if scope is not None and scope.yields == len(ctx.yields):
        raise ctx.error(call, "pl.yield_(...) cannot end a loop or an if around the "
                              "pl.at(level=pl.Level.CORE_GROUP) or pl.spmd scope it is in: the "
                              "scope's body runs as a task of its own (an InCore function "
                              "compilation outlines)",
                        hint="bind the value inside the scope and yield it after the scope")
    values = [lower_expr(ctx, a.value) for a in call.args]
    if names is not None and len(names) != len(values):
        raise ctx.error(call, f"pl.yield_ gives {len(values)} value(s) to {len(names)} name(s)",
                        hint="yield one value per name on the left")
    ctx.yields[-1].append(YieldSite(names, types, values, stmt))
    return YieldStmt(tuple(values), span=ctx.src.stmt_span(stmt))


def assign(ctx: FnCtx, target: cst.BaseAssignTargetExpression, value: cst.BaseExpression,
           ann: Annot | None, node: cst.CSTNode) -> list[Stmt]:
    if ann is None and bind_static(ctx, target, value):  # `M, N = a.shape` in a @pl.jit body
        return []
    callee = dsl_callee(ctx, value)
    if callee is dsl.yield_:
        assert isinstance(value, cst.Call)
        if isinstance(target, cst.Name):
            return [yield_site(ctx, [target.value], [ann.type if ann else None], value, node)]
        if isinstance(target, cst.Tuple | cst.List) and all(
                isinstance(e.value, cst.Name) for e in target.elements):
            names = [e.value.value for e in target.elements]  # type: ignore[attr-defined]
            return [yield_site(ctx, names, [None] * len(names), value, node)]
        raise ctx.error(target, "The target of pl.yield_ must be names")
    if type(target) is cst.Name or isinstance(target, cst.Name):
        ctx.assigned_call = value
        try:
            rhs = _lower_rhs(ctx, value, callee)
        finally:
            ctx.assigned_call = None
        if isinstance(rhs, Call) and rhs.op.name == "pld.tensor.alloc_window_buffer" \
                and ctx.lookup_var(target.value) is not None:
            raise ctx.error(target, f"The window '{target.value}' is already declared: each "
                                    "pld.alloc_window_buffer binds a name of its own")
        return [bind(ctx, target, rhs, ann, node)]
    if isinstance(target, cst.Tuple | cst.List):
        submit = callee is dsl.submit or callee is dsl.spmd_submit
        names = _submit_targets(ctx, target) if submit else _plain_targets(ctx, target)
        stmts = _unpack(ctx, names, _lower_rhs(ctx, value, callee), node)
        if submit:
            ctx.submit_producers.update((n.value, (names[-1].value, True)) for n in names[:-1])
        return stmts
    if isinstance(target, cst.Subscript) and isinstance(target.value, cst.Name):
        rhs = _lower_rhs(ctx, value, callee)  # Python evaluates the value before the target
        base = lower_expr(ctx, target.value)
        if isinstance(base.type, ArrayType):  # `arr[i] = v` rebinds arr to the updated array
            index = array_index(ctx, target)
            updated = array_op(ctx, "pl.array.update_element",
                               [(target.value, base), (index, lower_expr(ctx, index)),
                                (value, rhs)], node)
            return [bind(ctx, target.value, updated, None, node)]
        if isinstance(base.type, TensorType | TileType):  # `dst[a:b] = src` (subscripts.py)
            return [bind(ctx, target.value, _subscript_write(ctx, target, base, rhs, value), None,
                         node)]
    if isinstance(target, cst.Subscript):
        raise ctx.error(target, "Subscript-write target must be a variable name, got "
                                f"{cst.Module([]).code_for_node(target.value)}",
                        hint="Assign through a named Tensor/Tile, e.g. 'dst[...] = src'")
    raise ctx.error(target, f"Unsupported assignment target: {type(target).__name__}")


def _subscript_write(ctx: FnCtx, target: cst.Subscript, base: Expr, rhs: Expr,
                     value: cst.BaseExpression) -> Expr:
    """The new value of `dst` in `dst[...] = src` (an assemble, lowering/frontend/subscripts.py);
    the reference allows the rebinding this is only before SSA conversion."""
    if ctx.prog.strict_ssa:
        raise ctx.error(target, "Subscript-write syntax 'dst[...] = src' is only supported before "
                                "SSA conversion",
                        hint="Rewrite as an explicit pl.assemble(...) call, or remove "
                             "strict_ssa=True")
    comps = subscript_components(ctx, target)
    try:
        return subscripts.write(base, comps, rhs, ctx.cur_span)
    except PlError as e:
        raise ctx.src.locate(e, target, ctx.cur_span) from None


def _plain_targets(ctx: FnCtx, target: cst.Tuple | cst.List) -> list[cst.Name]:
    names = []
    for el in target.elements:
        if not isinstance(el.value, cst.Name):
            raise ctx.error(el, "Tuple unpacking targets must be plain names")
        names.append(el.value)
    return names


def _submit_targets(ctx: FnCtx, target: cst.Tuple | cst.List) -> list[cst.Name]:
    """`out, tid` or `(a, b), tid`: pl.submit's value is the flat tuple (*results, task id), so
    the grouped results bind its first elements in order, as in the reference."""
    first = target.elements[0].value if len(target.elements) == 2 else None
    if not isinstance(first, cst.Tuple | cst.List):
        return _plain_targets(ctx, target)
    for el in first.elements:
        if not isinstance(el.value, cst.Name):
            raise ctx.error(el, "pl.submit's result targets must be plain names (no nested tuples)",
                            hint="Use `out, tid = pl.submit(...)` or `(a, b), tid = pl.submit(...)`")
    tid = target.elements[1].value
    if not isinstance(tid, cst.Name):
        raise ctx.error(tid, "pl.submit's task id target must be a plain name")
    return [*_plain_targets(ctx, first), tid]


def _lower_rhs(ctx: FnCtx, value: cst.BaseExpression, callee: Any) -> Expr:
    """`lower_expr(ctx, value)`, without resolving the callee of a call a second time."""
    if callee is not None and type(value) is cst.Call:
        return lower_call(ctx, value, callee)
    return lower_expr(ctx, value)


def _unpack(ctx: FnCtx, names: list[cst.Name], e: Expr, node: cst.CSTNode) -> list[Stmt]:
    t = e.type
    if not isinstance(t, TupleType) or len(t.types) != len(names):
        got = len(t.types) if isinstance(t, TupleType) else 1
        raise ctx.error(node, f"Cannot unpack {got} value(s) into {len(names)} names")
    span = ctx.src.stmt_span(node)
    tmp = Var("_tuple_tmp", t, span=span)
    out: list[Stmt] = [AssignStmt(tmp, e, span=span)]
    for i, n in enumerate(names):
        out.append(bind(ctx, n, TupleGetItem(tmp, i), None, node))
    return out


def rebinds_as_same(a: Type, b: Type) -> bool:
    """Whether a name bound to a value of type `a` may be rebound to one of type `b` (the same
    dtype and shape; a space or layout may change)."""
    if a == b or isinstance(a, UnknownType) or isinstance(b, UnknownType):
        return True
    if isinstance(a, TileType | TensorType) and type(a) is type(b):
        return a.dtype == b.dtype and a.shape == b.shape
    if isinstance(a, ScalarType) and isinstance(b, ScalarType):
        return {a.dtype, b.dtype} <= {DType.INDEX, DType.INT64}
    return False


def declared_literal(value: Expr, declared: Type | None) -> Expr:
    """An integer literal (INDEX) under an integer scalar annotation, with the annotated dtype
    (`i: pl.Scalar[pl.INT32] = 1` binds an INT32, as in the reference); any other value as it
    is."""
    if type(value) is ConstInt and value.dtype is DType.INDEX \
            and isinstance(declared, ScalarType) and declared.dtype.is_int():
        return ConstInt(value.value, declared.dtype, span=value.span)
    return value


def _in_written_space(ctx: FnCtx, name: str, ann: Annot, value: Expr, node: cst.CSTNode) -> Expr:
    """The value of `name: pl.Tile[..., S] = value` where inference places tiles (an InCore, AIC
    or AIV function, a scope outlined into one), made in the space S the user wrote, or a located
    error when it cannot be.

    A space written for a tile is the user's, as a `target_memory=` is (seed: the pass never
    overrides one): a producer that takes `target_memory` and was given none (`pl.load`,
    `pl.create_tile`) makes the tile in S, and a consumer that needs another space reads a move
    of it. A value that cannot be made in S (a load into Left, Right, Acc or Bias; a vector op's
    result in Acc; a `target_memory=` that says another space) is an error: the name would be
    one space and its value another, and the calls typed from the name would not type-check."""
    at, got = ann.type, value.type
    if not isinstance(at, TileType) or not isinstance(got, TileType) or at.memref is not None \
            or got.memory_space in (None, at.memory_space):
        return value
    space, have = at.memory_space, got.memory_space
    assert space is not None and have is not None
    where = node.annotation if isinstance(node, cst.AnnAssign) else node
    op = get_op(value.op.name) if type(value) is Call and type(value.op) is Op else None
    if type(value) is not Call or op is None or not op.retargetable:
        what = f"'{user_name(value.name)}' is" if isinstance(value, Var) else \
            f"{value.op_name} produces" if isinstance(value, Call) else "its value is"
        raise ctx.error(where, f"'{name}' is annotated {space.name}, but {what} a {have.name} "
                               "tile here",
                        hint=f"Change annotation to: {type_text(got)}, or move it there: "
                             f"{name} = pl.move(..., target_memory=pl.MemorySpace.{space.name})")
    rhs = node.value if isinstance(node, cst.AnnAssign | cst.Assign) else None
    if isinstance(rhs, cst.Call) and any(a.keyword is not None and a.keyword.value == "target_memory"
                                         for a in rhs.args):
        raise ctx.error(where, f"'{name}' is annotated {space.name} but its target_memory= says "
                               f"{have.name}", hint="write one space: change the annotation or "
                                                    "the target_memory= keyword")
    if op.name == "tile.load" and space not in LOAD_SPACES:
        raise ctx.error(where, f"'{name}' is annotated {space.name}, but a load reads GM into Vec "
                               f"or Mat only",
                        hint=f"load it into Mat (or Vec), then pl.move(...) it to "
                             f"pl.MemorySpace.{space.name}")
    kwargs = tuple((k, space if k == "target_memory" else v) for k, v in value.kwargs)
    if all(k != "target_memory" for k, _ in value.kwargs):
        kwargs += (("target_memory", space),)
    try:
        return make_call(op.name, value.args, kwargs, value.attrs, value.span)
    except PlError as e:
        raise ctx.error(where, f"'{name}' is annotated {space.name}, but {op.name} cannot make it "
                               f"there: {e.message}") from None


def _record_written_spaces(ctx: FnCtx, name: str, ann: Annot | None,
                           node: cst.AnnAssign | cst.Assign) -> None:
    """Each memory space written in `name = value` / `name: T = value` (the annotation's, and an
    argument of its call, `target_memory=` or positional), with where it is written: the
    function's `written_spaces` (pl.ir.function.WrittenSpace). A space's span starts at its
    `MemorySpace` / `Mem` (the part that says it is a space)."""
    written: list[tuple[MemorySpace, cst.BaseExpression]] = []
    if ann is not None and ann.space_node is not None and isinstance(ann.type, TileType) \
            and ann.type.memory_space is not None:
        written.append((ann.type.memory_space, ann.space_node))
    if isinstance(node.value, cst.Call):
        for a in node.value.args:
            if isinstance(a.value, cst.Attribute):  # (`pl.MemorySpace.Vec`, `pl.Mem.Vec`)
                obj = ctx.try_resolve(a.value)
                if isinstance(obj, MemorySpace):
                    written.append((obj, a.value))
    for space, where in written:
        start = ctx.src.span_of(where.value.attr if isinstance(where, cst.Attribute)
                                and isinstance(where.value, cst.Attribute) else where)
        end = ctx.src.span_of(where)
        ctx.written_spaces.append(WrittenSpace(name, ctx.cur_span, space, Span(
            start.filename, start.line, start.col, end.end_line, end.end_col)))


def bind(ctx: FnCtx, name_node: cst.Name, value: Expr, ann: Annot | None,
         node: cst.CSTNode) -> Stmt:
    name = name_node.value
    existing = ctx.lookup_var(name)
    if ctx.submit_producers:  # a new tensor value has no producer; a new task id is another task
        ctx.submit_producers = {k: (tid, live and tid != name)
                                for k, (tid, live) in ctx.submit_producers.items() if k != name}
    if ann is not None:
        value = declared_literal(as_flattened_load(value, ann.type), ann.type)
    # A call whose type its op or callee cannot tell (`pl.tile.tpop_from_aic(split=0)`, a function
    # without a return annotation) takes the annotation's type, as the reference's parser does;
    # rebinding a typed name without one declares that name's type, which is what the printer
    # then writes as the annotation (so the printed program reads back the same).
    declared = ann.type if ann is not None else existing.type if existing is not None else None
    if isinstance(value, Call) and isinstance(value.result_type, UnknownType) \
            and declared is not None and not isinstance(declared, UnknownType):
        value = dataclasses.replace(value, result_type=declared)
    # An annotation that restates the type of the name it rebinds is what the printer writes for
    # a rebinding that keeps the name's Var (`acc: pl.Tile[.., Vec] = pl.matmul_acc(acc, ..)`
    # after `acc = pl.create_tile(..)` in a loop, before SSA): it claims no new space, so the
    # printed program reads back to itself.
    restated = existing is not None and ann is not None and ann.type == existing.type
    if ann is not None and ann.space_given and placed_by_inference(ctx) and not restated:
        value = _in_written_space(ctx, name, ann, value, node)
    t = check_local(ctx, name, ann, value.type, node) if ann is not None else value.type
    span = ctx.cur_span  # `node` is the simple statement being lowered (see lower_block)
    if isinstance(node, cst.AnnAssign) or isinstance(node, cst.Assign) \
            and node.targets[0].target is name_node:
        _record_written_spaces(ctx, name, ann, node)
    if existing is not None:  # a rebinding
        if ctx.dump_tagged:  # a new value is not the tensor pl.dump_tag marked (the reference's SSA)
            ctx.dump_tagged = [v for v in ctx.dump_tagged if v is not existing]
        if ctx.prog.strict_ssa and name in ctx.scopes[-1] \
                and id(existing) not in ctx.params and not isinstance(existing, IterArg):
            raise ctx.error(name_node, f"Variable '{name}' is already defined",
                            hint="strict_ssa is on: bind the new value to a new name")
        if not isinstance(existing, IterArg) and not ctx.prog.strict_ssa:
            if not rebinds_as_same(existing.type, t):
                raise ctx.error(node, f"Cannot reassign '{name}' with a different type: was "
                                      f"{type_text(existing.type)}, got {type_text(t)}",
                                hint="Bind the new value to a new name")
            if not (isinstance(t, TileType) and t != existing.type and name in ctx.scopes[-1]):
                return AssignStmt(existing, value, span=span)
            # A tile rebound in its own block with another space or layout (`c: pl.Tile[...,
            # Vec] = pl.add(..)` after `c = pl.matmul(..)`, as show_inferred writes it) is a new
            # Var of the new type: the calls after it deduce their types from the tile they
            # read, not from the first binding's. (The reference refuses the rebinding; a
            # rebinding of an outer value stays the same Var, which a loop carries.)
    var = Var(name, t, span=span)
    ctx.bind_new(var)  # (the source variable it is one with: FnCtx.bind_new)
    return AssignStmt(var, value, span=span)


# The small statements lower_small accepts, by exact LibCST class.
_SMALL_HANDLERS: Final[Mapping[type, Callable[[FnCtx, Any], list[Stmt]]]] = MappingProxyType({
    cst.Assign: _assign_stmt, cst.AnnAssign: _ann_assign_stmt, cst.AugAssign: _aug_assign_stmt,
    cst.Expr: _expr_stmt, cst.Return: _return_stmt, cst.Pass: _pass_stmt,
    cst.Break: _break_continue_stmt, cst.Continue: _break_continue_stmt,
})
