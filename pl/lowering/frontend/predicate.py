"""The dispatch predicate of a launch: `predicate=(t[i, j] > 0)` on pl.submit, pl.spmd_submit and
`with pl.spmd(...)`.

Guarantees: a predicate the frontend accepts is what the runtime can evaluate at the dispatch
point, so nothing is left to fail (or, worse, to decide wrongly) later:
- one comparison (==, !=, <, <=, >, >=) of one tensor element against an integer literal, in
  either order;
- the tensor's dtype is a signed 8/16/32/64-bit integer (the runtime sign-extends what it reads,
  so an unsigned value with its top bit set would compare as negative and invert the decision);
- one integer index per axis, none a negative constant (the runtime stores indices unsigned, so
  -1 would address far outside the tensor);
- when the tensor is a result of an earlier pl.submit, that submit's task id is in deps= (else
  the predicate could be evaluated before the tensor is written).
Each violation is one PlError at the predicate as written.
"""

from __future__ import annotations

from typing import Final

import libcst as cst

from pl.ir.enums import DType
from pl.ir.expr import BinaryExpr, Call, ConstFloat, ConstInt, Expr, MakeTuple, Var
from pl.ir.operators import BinaryOp, Kind
from pl.ir.types import ArrayType, ScalarType, TensorType
from pl.lowering.frontend.context import FnCtx
from pl.lowering.frontend.types import type_text

_COMPARISONS: Final = frozenset(op for op in BinaryOp if op.kind is Kind.COMPARE)
_HINT: Final = "Use predicate=(tensor[i0, ...] > 0): one comparison against an integer literal"
_OPERAND_BITS: Final = (8, 16, 32, 64)


def check_predicate(ctx: FnCtx, pred: Expr, node: cst.BaseExpression, spelling: str,
                    deps: Expr | None) -> None:
    """Raise a located PlError at `node` when `pred` (its lowered form) is not a predicate the
    runtime can evaluate, or `deps` (the launch's lowered deps=, None without) misses the task
    that writes what it reads (see the module docstring)."""
    if not (isinstance(pred, BinaryExpr) and pred.op in _COMPARISONS):
        raise ctx.error(node, f"{spelling}: predicate= must be a single comparison (==, !=, >, <, "
                              ">=, <=) of a tensor element against an integer literal",
                        hint=_HINT + " (to dispatch unconditionally, omit predicate=)")
    read, literal = _read_and_literal(pred)
    if read is None or literal is None:
        raise ctx.error(node, f"{spelling}: predicate= must compare one tensor element (e.g. t[i]) "
                              "against an integer literal; the runtime evaluates a single "
                              "element-vs-constant comparison", hint=_HINT)
    t = read.args[0].type
    assert isinstance(t, TensorType)  # a tensor.read reads a tensor
    if not (t.dtype.is_signed_int() and t.dtype.bits in _OPERAND_BITS):
        raise ctx.error(node, "predicate operand must be a signed 8/16/32/64-bit integer tensor, "
                              f"got {t.dtype.name}: the runtime sign-extends the value it reads, so "
                              "an unsigned operand can compare as negative and invert the dispatch "
                              "decision", hint=_HINT)
    if not isinstance(literal, ConstInt):
        raise ctx.error(node, f"{spelling}: predicate= must compare against an integer literal",
                        hint=_HINT)
    index = read.args[1] if len(read.args) > 1 else MakeTuple(())
    indices = index.elements if isinstance(index, MakeTuple) else (index,)
    for i in indices:
        it = i.type
        if not (isinstance(it, ScalarType) and (it.dtype.is_int() or it.dtype is DType.INDEX)):
            raise ctx.error(node, f"predicate indices must be integer scalars, got {type_text(it)}",
                            hint=_HINT)
        # (A negative constant index is refused when the read is built: ops/deduce.py.)
    if len(indices) != t.rank:
        raise ctx.error(node, f"predicate needs {t.rank} index(es) to locate a single element of a "
                              f"rank-{t.rank} tensor, got {len(indices)}", hint=_HINT)
    _check_producer(ctx, read.args[0], node, spelling, deps)


def _check_producer(ctx: FnCtx, operand: Expr, node: cst.BaseExpression, spelling: str,
                    deps: Expr | None) -> None:
    """Only what is known for sure is refused: an operand from elsewhere (a parameter, a scope
    task) has no recorded producer, and a task-id array in deps= does not name its tasks."""
    if not isinstance(operand, Var) or ctx.lookup_var(operand.name) is not operand:
        return
    record = ctx.submit_producers.get(operand.name)
    if record is None:
        return
    tid, live = record
    entries = deps.elements if isinstance(deps, MakeTuple) else () if deps is None else (deps,)
    if any(isinstance(d.type, ArrayType) for d in entries):
        return
    producer = ctx.lookup_var(tid)
    if live and any(d is producer for d in entries):
        return
    rebound = "" if live else f" (since rebound: '{tid}' now names another task)"
    raise ctx.error(node, f"{spelling}: predicate= reads '{operand.name}', which is written by the "
                          f"task bound to '{tid}'{rebound}, but that task is not in deps=",
                    hint="Keep the producer's task id under a name of its own and list it in "
                         "deps=; without it the predicate may be evaluated before that task has "
                         "written the tensor")


def _read_and_literal(pred: BinaryExpr) -> tuple[Call | None, Expr | None]:
    """The tensor.read and the constant of `t[i] OP c` or `c OP t[i]`, else (None, None)."""
    for a, b in ((pred.left, pred.right), (pred.right, pred.left)):
        if isinstance(a, Call) and a.op_name == "tensor.read" and isinstance(a.args[0].type, TensorType) \
                and isinstance(b, ConstInt | ConstFloat):
            return a, b
    return None, None
