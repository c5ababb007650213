"""The one traversal of the IR: what a statement holds, walks over statements and expressions, and
the rebuild of a statement from mapped parts.

Guarantees:
- `child_bodies(s)` are the statement bodies directly inside `s`, in program order (a SeqStmts'
  statements; a loop's or scope's body; an if's then body, then its else body when present).
- `stmt_defs(s)` are the Vars `s` binds itself, in the reference's order (loop var, return vars,
  iter args; a scope's task id).
- `stmt_exprs(s)` are the expressions `s` holds directly, in evaluation order, nested bodies
  excluded: an assignment's value, an evaluated expression, returned/yielded values, an if's or
  while's condition, a for's start/stop/step, the initial values of iter args, and the scope
  arguments that are expressions (`pl.spmd(n)`'s `n`). One rule for initial values: an IterArg
  without one (`init is None`) contributes nothing, so every item is an `Expr`.
- `last_yield(body)` is the yield a body ends with, looking through statement lists and scopes
  (a yield directly inside `with pl.scope():` still ends the branch); None when it ends otherwise.
- `walk_stmts(s)` is every statement of a tree, pre-order (a SeqStmts itself included, then before
  else), with an explicit stack: no generator per statement and no recursion depth.
- `expr_children(e)` / `walk_exprs(e)`: the direct sub-expressions of an expression and all of them
  pre-order (Call arguments, then expression-valued kwargs and attrs, directly or in a tuple/list).
  Neither looks into types nor into an IterArg's initial value (that belongs to its definition).
  `type_exprs(t)` are the expressions a type holds (dims, view dims, strides, start offset);
  whether a type names a Var at all, the type itself says (`Type.all_constant`).
- `map_expr(e, expr, type_)` rebuilds `e` with `expr` applied to its direct sub-expressions and
  `type_` to a Call's result type; `e` itself when nothing changed.
- `map_stmt(s, body=..., expr=...)` rebuilds `s` with `body` applied to each child body and `expr`
  to each expression `stmt_exprs` lists except iter-arg initial values (those live inside the
  IterArg, a definition: a pass changing one makes a new IterArg and maps its uses itself). Binders
  (assigned vars, loop vars, iter args, return vars) are kept. When every part comes back as the
  very same object, `s` itself is returned; a rebuilt statement keeps its span and comments.
- Every `match` here ends in `assert_never`, so adding a kind to `StmtKind`/`ExprKind` makes mypy
  point at each place to handle it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from typing_extensions import assert_never

from pl.ir.expr import (
    BinaryExpr,
    Call,
    ConstBool,
    ConstFloat,
    ConstInt,
    Expr,
    MakeTuple,
    TupleGetItem,
    UnaryExpr,
    Var,
    expr_kind,
)
from pl.ir.stmt import (
    AssignStmt,
    BreakStmt,
    ContinueStmt,
    EvalStmt,
    ForStmt,
    IfStmt,
    ReturnStmt,
    ScopeStmt,
    SeqStmts,
    Stmt,
    WhileStmt,
    YieldStmt,
    stmt_kind,
)
from pl.ir.types import TensorType, TileType, TupleType, Type

__all__ = ["child_bodies", "expr_children", "last_yield", "map_expr", "map_stmt", "stmt_defs",
           "stmt_exprs", "type_exprs", "walk_exprs", "walk_stmts"]


def _identity(x: Any) -> Any:
    return x


def _identity_type(t: Type) -> Type:
    return t


def stmt_defs(s: Stmt) -> tuple[Var, ...]:
    """The Vars `s` binds itself (not those of nested bodies), in the reference's order: an
    assignment's var; a loop's loop var, return vars, then iter args; an if's return vars; the
    task id `with pl.at(...) as tid:` binds."""
    k = stmt_kind(s)
    match k:
        case AssignStmt():
            return (k.var,)
        case ForStmt():
            return (k.loop_var, *k.return_vars, *k.iter_args)
        case WhileStmt():
            return (*k.return_vars, *k.iter_args)
        case IfStmt():
            return k.return_vars
        case ScopeStmt():
            return () if k.task_id is None else (k.task_id,)
        case SeqStmts() | EvalStmt() | ReturnStmt() | YieldStmt() | BreakStmt() \
                | ContinueStmt():
            return ()
        case _:
            assert_never(k)


def child_bodies(s: Stmt) -> tuple[Stmt, ...]:
    """The statement bodies directly inside `s`, in program order."""
    k = stmt_kind(s)
    match k:
        case AssignStmt() | EvalStmt() | ReturnStmt() | YieldStmt() | BreakStmt() | ContinueStmt():
            return ()  # the leaves first: most statements are assignments
        case SeqStmts():
            return k.stmts
        case ForStmt() | WhileStmt() | ScopeStmt():
            return (k.body,)
        case IfStmt():
            return (k.then_body,) if k.else_body is None else (k.then_body, k.else_body)
        case _:
            assert_never(k)


def _scope_exprs(args: tuple[tuple[str, Any], ...]) -> tuple[Expr, ...]:
    return tuple(v for _, v in args if isinstance(v, Expr))


def stmt_exprs(s: Stmt) -> tuple[Expr, ...]:
    """The expressions `s` holds directly, in evaluation order (see the module docstring)."""
    k = stmt_kind(s)
    match k:
        case AssignStmt():
            return (k.value,)
        case EvalStmt():
            return (k.expr,)
        case ReturnStmt() | YieldStmt():
            return k.values
        case IfStmt():
            return (k.condition,)
        case ForStmt():
            return (k.start, k.stop, k.step, *(ia.init for ia in k.iter_args if ia.init is not None))
        case WhileStmt():
            return (*(ia.init for ia in k.iter_args if ia.init is not None), k.condition)
        case ScopeStmt():
            return _scope_exprs(k.args)
        case SeqStmts() | BreakStmt() | ContinueStmt():
            return ()
        case _:
            assert_never(k)


N = TypeVar("N")


def _preorder(root: N, children: Callable[[N], tuple[N, ...]]) -> Iterator[N]:
    """`root` and every node below it, pre-order, with an explicit stack (no recursion depth)."""
    stack = [root]
    while stack:
        top = stack.pop()
        yield top
        below = children(top)
        if below:
            stack.extend(reversed(below))


def last_yield(body: Stmt | None) -> YieldStmt | None:
    """The yield ending `body` (see the module docstring)."""
    while body is not None:
        k = stmt_kind(body)
        match k:
            case YieldStmt():
                return k
            case SeqStmts():
                body = k.stmts[-1] if k.stmts else None
            case ScopeStmt():
                body = k.body
            case AssignStmt() | EvalStmt() | ReturnStmt() | IfStmt() | ForStmt() | WhileStmt() \
                    | BreakStmt() | ContinueStmt():
                return None
            case _:
                assert_never(k)
    return None


def walk_stmts(s: Stmt | None) -> Iterator[Stmt]:
    """Every statement of the tree under `s` (itself included), pre-order; nothing for None."""
    return iter(()) if s is None else _preorder(s, child_bodies)


def _value_exprs(values: tuple[tuple[str, Any], ...]) -> tuple[Expr, ...]:
    """The expressions among kwargs/attrs values, directly or in a list/tuple (e.g. dump_vars)."""
    out: list[Expr] = []
    for _, v in values:
        if isinstance(v, Expr):
            out.append(v)
        elif isinstance(v, (list, tuple)):
            out.extend(x for x in v if isinstance(x, Expr))
    return tuple(out)


def expr_children(e: Expr) -> tuple[Expr, ...]:
    """The direct sub-expressions of `e`, in argument order."""
    k = expr_kind(e)
    match k:
        case Call():
            if not k.kwargs and not k.attrs:
                return k.args
            return (*k.args, *_value_exprs(k.kwargs), *_value_exprs(k.attrs))
        case MakeTuple():
            return k.elements
        case BinaryExpr():
            return (k.left, k.right)
        case UnaryExpr():
            return (k.operand,)
        case TupleGetItem():
            return (k.tuple_expr,)
        case Var() | ConstInt() | ConstFloat() | ConstBool():
            return ()
        case _:
            assert_never(k)


def walk_exprs(e: Expr) -> Iterator[Expr]:
    """`e` and every expression inside it, pre-order (outer before inner)."""
    return _preorder(e, expr_children)


def type_exprs(t: Type) -> tuple[Expr, ...]:
    """The expressions a type holds: its dims, its view's valid shape, strides and start offset,
    and those of a tuple's element types. A MemRef is not among them: it names its allocation
    (and offset) as an annotation that only SSA conversion renames (pl.ir.types)."""
    if isinstance(t, TileType | TensorType):
        view = t.view
        if view is None:
            return t.shape
        offset = getattr(view, "start_offset", None)  # a TileView's; a TensorView has none
        return (*t.shape, *view.valid_shape, *view.stride, *(() if offset is None else (offset,)))
    if isinstance(t, TupleType):
        return tuple(e for x in t.types for e in type_exprs(x))
    return ()  # ScalarType, ArrayType (a static int extent), PtrType, UnknownType: nothing inside


def _map_items(items: tuple[Any, ...], fn: Callable[[Any], Any]) -> tuple[Any, ...]:
    """`fn` of each item: `items` itself when every item comes back as the same object (no tuple
    is built then; a copy is made from the first changed item on)."""
    for i, x in enumerate(items):
        y = fn(x)
        if y is not x:
            return (*items[:i], y, *[fn(z) for z in items[i + 1:]])
    return items


def _map_values(values: tuple[tuple[str, Any], ...], fn: Callable[[Expr], Expr]
                ) -> tuple[tuple[str, Any], ...]:
    """kwargs/attrs with `fn` applied to each expression value (directly or in a list/tuple)."""

    def one(pair: tuple[str, Any]) -> tuple[str, Any]:
        name, v = pair
        if isinstance(v, Expr):
            new: Any = fn(v)
        elif isinstance(v, (list, tuple)):
            items = [fn(x) if isinstance(x, Expr) else x for x in v]
            new = v if all(a is b for a, b in zip(items, v, strict=True)) else type(v)(items)
        else:
            return pair
        return pair if new is v else (name, new)

    return _map_items(values, one)


def map_expr(e: Expr, expr: Callable[[Expr], Expr], type_: Callable[[Type], Type] = _identity_type
             ) -> Expr:
    """`e` with `expr` applied to each direct sub-expression (those `expr_children` lists) and
    `type_` to a Call's stored result type; `e` itself when nothing changed. A Var is a leaf here:
    mapping uses of variables is the caller's `expr`."""
    k = expr_kind(e)
    match k:
        case Call():
            args = _map_items(k.args, expr)
            kwargs = _map_values(k.kwargs, expr) if k.kwargs else k.kwargs
            attrs = _map_values(k.attrs, expr) if k.attrs else k.attrs
            result_type = type_(k.result_type)
            if args is k.args and kwargs is k.kwargs and attrs is k.attrs \
                    and result_type is k.result_type:
                return k
            return Call(k.op, args, kwargs, attrs, result_type, span=k.span)
        case MakeTuple():
            elements = _map_items(k.elements, expr)
            return k if elements is k.elements else MakeTuple(elements, span=k.span)
        case BinaryExpr():
            left, right = expr(k.left), expr(k.right)
            if left is k.left and right is k.right:
                return k
            return BinaryExpr(k.op, left, right, k.dtype, span=k.span)
        case UnaryExpr():
            operand = expr(k.operand)
            return k if operand is k.operand else UnaryExpr(k.op, operand, k.dtype, span=k.span)
        case TupleGetItem():
            inner = expr(k.tuple_expr)
            return k if inner is k.tuple_expr else TupleGetItem(inner, k.index, span=k.span)
        case Var() | ConstInt() | ConstFloat() | ConstBool():
            return k
        case _:
            assert_never(k)


S = TypeVar("S", bound=Stmt)


def map_stmt(s: S, body: Callable[[Stmt], Stmt] = _identity,
             expr: Callable[[Expr], Expr] = _identity) -> S:
    """`s` with `body` applied to its child bodies and `expr` to its expressions, in evaluation
    order (expressions before the bodies they guard); `s` itself when nothing changed. The result
    is of the same kind as `s`."""
    k = stmt_kind(s)
    new: Stmt
    match k:
        case AssignStmt():
            value = expr(k.value)
            if value is k.value:
                return s
            new = AssignStmt(k.var, value, span=k.span, comments=k.comments)
        case EvalStmt():
            e = expr(k.expr)
            if e is k.expr:
                return s
            new = EvalStmt(e, span=k.span, comments=k.comments)
        case ReturnStmt() | YieldStmt():
            values = _map_items(k.values, expr)
            if values is k.values:
                return s
            new = dataclasses.replace(k, values=values)
        case SeqStmts():
            stmts = _map_items(k.stmts, body)
            if stmts is k.stmts:
                return s
            new = dataclasses.replace(k, stmts=stmts)
        case IfStmt():
            condition = expr(k.condition)
            then_body = body(k.then_body)
            else_body = None if k.else_body is None else body(k.else_body)
            if condition is k.condition and then_body is k.then_body and else_body is k.else_body:
                return s
            new = dataclasses.replace(k, condition=condition, then_body=then_body,
                                      else_body=else_body)
        case ForStmt():
            start, stop, step = expr(k.start), expr(k.stop), expr(k.step)
            loop_body = body(k.body)
            if start is k.start and stop is k.stop and step is k.step and loop_body is k.body:
                return s
            new = dataclasses.replace(k, start=start, stop=stop, step=step, body=loop_body)
        case WhileStmt():
            condition = expr(k.condition)
            loop_body = body(k.body)
            if condition is k.condition and loop_body is k.body:
                return s
            new = dataclasses.replace(k, condition=condition, body=loop_body)
        case ScopeStmt():
            args = _map_items(k.args, lambda pair: pair if not isinstance(pair[1], Expr)
                              else _renamed(pair, expr(pair[1])))
            scope_body = body(k.body)
            if args is k.args and scope_body is k.body:
                return s
            new = dataclasses.replace(k, args=args, body=scope_body)
        case BreakStmt() | ContinueStmt():
            return s
        case _:
            assert_never(k)
    return new  # type: ignore[return-value]


def _renamed(pair: tuple[str, Any], value: Any) -> tuple[str, Any]:
    """`pair` with its value replaced, or `pair` itself when the value is the same object."""
    return pair if value is pair[1] else (pair[0], value)


def holds_tiles(params: Sequence[Var], body: Stmt) -> bool:
    """Whether a function with these parameters and body has a tile parameter or defines a tile
    (what show_inferred regenerates: a function without tiles has nothing to show)."""
    return any(isinstance(p.type, TileType) for p in params) or any(
        isinstance(v.type, TileType) for s in walk_stmts(body) for v in stmt_defs(s))
