"""The rules of an op call that need no lowering: where the op may be called, what its arguments may be.

Guarantees: a host-only distributed op (`pld.world_size`, `alloc_window_buffer`) is called only
in a HOST orchestrator outside device scopes, a window buffer only as the right-hand side of a
simple assignment without `name=`; a task id is an argument only of the task ops and of an
update of a task-id array (`keeps_task_ids`); inside `pl.split_aiv(2, mode=M)` an aiv_shard /
aic_gather splits as the region does; a kwarg stored as the call's attr (`KwargType.attr`) is
known by the spelling (`attr_kwargs`); an op-call error points at the argument it names
(`culprit`). Each check raises one located PlError.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from typing import Any, Final

import libcst as cst

from pl.errors import PlError
from pl.ir.enums import DType, Level, ScopeKind
from pl.ir.expr import (
    ConstInt,
    Expr,
)
from pl.ir.types import ArrayType, ScalarType
from pl.language.dsl_ops import spelling_index
from pl.lowering.frontend.constants import (
    int_const,
)
from pl.lowering.frontend.context import FnCtx
from pl.ops.registry import KWARG_TYPES, all_ops


def split_args(ctx: FnCtx, args: Any) -> tuple[list[cst.Arg], list[cst.Arg]]:
    pos: list[cst.Arg] = []
    kw: list[cst.Arg] = []
    for a in args:
        if a.star:
            raise ctx.error(a, "Star arguments are not supported in kernels")
        (kw if a.keyword is not None else pos).append(a)
    return pos, kw


def attr_kwargs(spelling: str) -> frozenset[str]:
    """The kwargs of the ops `spelling` builds that are stored as the call's attrs, not kwargs
    (`KwargType.attr`: system.task_dummy's `deps=[task ids]`, its "deps" attr as on pl.submit)."""
    return frozenset(k.name for name in spelling_index().get(spelling, ())
                     for k in all_ops()[name].kwargs if KWARG_TYPES[k.type_name].attr)


# The distributed ops only a HOST orchestrator calls, outside its device-side scopes (the
# reference's parser checks them there).
HOST_ONLY: Final = frozenset({"pld.world_size", "pld.system.world_size", "pld.alloc_window_buffer",
                               "pld.tensor.alloc_window_buffer"})


_DEVICE_SCOPES: Final = frozenset({ScopeKind.InCore, ScopeKind.Spmd, ScopeKind.SplitAiv})


def check_host_only(ctx: FnCtx, node: cst.Call, spelling: str) -> None:
    if ctx.level is not Level.HOST:
        where = ctx.level.name if ctx.level is not None else "a device-side"
        raise ctx.error(node, f"{spelling}() can only be called in a HOST orchestrator, not in a "
                              f"{where} function",
                        hint="@pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)")
    if any(scope.kind in _DEVICE_SCOPES for scope in ctx.open_scopes):
        raise ctx.error(node, f"{spelling}() cannot be called inside an InCore or SPMD scope: it "
                              "is the host's")
    if "alloc_window_buffer" in spelling and node is not ctx.assigned_call:
        raise ctx.error(node, f"{spelling} must appear as the right-hand side of a simple "
                              "assignment: the window takes the name it is bound to",
                        hint=f"buf = {spelling}(1024)")
    if "alloc_window_buffer" in spelling and any(
            a.keyword is not None and a.keyword.value == "name" for a in node.args):
        raise ctx.error(node, f"{spelling}: the 'name' kwarg cannot be passed explicitly; the "
                              "window takes the name of the variable it is assigned to")


def split_aiv_mode(ctx: FnCtx, spelling: str) -> Any:
    """The mode of the innermost `pl.split_aiv` region around an aiv_shard / aic_gather call."""
    if not spelling.endswith((".aiv_shard", ".aic_gather")):
        return None
    return next((s.split_aiv for s in reversed(ctx.open_scopes) if s.split_aiv is not None), None)


def lane_split(ctx: FnCtx, node: cst.Call, spelling: str, kwargs: dict[str, Any],
                mode: IntEnum) -> None:
    """Inside `for aiv_id in pl.split_aiv(2, mode=M)`, aiv_shard / aic_gather split as the region
    does: their `split` is M's code (as the reference's parser stamps it); a `split=` written
    there must say the same (the printed form spells it)."""
    given = kwargs.get("split")
    if given is None:
        kwargs["split"] = int_const(ctx, int(mode), node)
    elif not (isinstance(given, ConstInt) and given.value == int(mode)):
        raise ctx.error(node, f"{spelling}() inside a 'for ... in pl.split_aiv(...)' loop splits as "
                              f"the loop does (pl.SplitMode.{mode.name}); its split= says otherwise",
                        hint="drop split=: the split mode is inherited from the pl.split_aiv loop")


def keeps_task_ids(spelling: str, args: list[Any]) -> bool:
    """Whether the op takes task ids as task ids: the task ops (`pl.system.*`), and writing one
    into an array of task ids (`pl.array.update_element(tids, i, tid)`; `tids[i] = tid` too). No
    other op computes with one: a task id is an opaque handle, not a number."""
    if spelling.startswith("pl.system."):
        return True
    if spelling == "pl.array.update_element" and args:
        t = getattr(args[0], "type", None)
        return isinstance(t, ArrayType) and t.dtype is DType.TASK_ID
    return False


def is_task_id(value: Any) -> bool:
    """`value` is a kernel value of type Scalar[TASK_ID] (pl.submit's, or `None`)."""
    if not isinstance(value, Expr):
        return False
    t = value.type
    return isinstance(t, ScalarType) and t.dtype is DType.TASK_ID


def culprit(err: PlError, call: cst.Call, positional: Sequence[cst.Arg]) -> cst.CSTNode:
    """The node an op-call error points at: the argument it names (positional slot or keyword),
    else the call."""
    i = err.argument
    if isinstance(i, int) and 0 <= i < len(positional):
        return positional[i].value
    for a in call.args:
        if isinstance(i, str) and a.keyword is not None and a.keyword.value == i:
            return a
    return call
