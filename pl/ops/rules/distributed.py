"""Result types of the distributed ops (`pld.system.*`, `pld.tensor.*`, `pld.tile.*`), checked as
the reference checks what a kernel can get wrong.

Guarantees: a window-bound operand (a `pld.DistributedTensor`: TensorType with `distributed`)
is refused when a plain tensor is given, naming the op and the operand; offsets have one entry
per dimension of the tensor they index; `pld.tensor.window` makes a window-bound tensor of the
given shape and dtype from an allocation's Ptr; `pld.tile.remote_load` makes a tile of the
requested shape (and valid shape) in the tensor's dtype, its memory space left to inference;
the collectives give their destination's type, the communication ops none (Unknown).
"""

from __future__ import annotations

from pl.ir.enums import DType, WaitCmp
from pl.ir.types import HandleType, PtrType, ScalarType, TensorType, TileView, Type, UnknownType
from pl.ops.marks import type_rule
from pl.ops.rules.util import Deduction, norm_dim, tile, type_name, write_bounds


def _window_bound(ctx: Deduction, i: int, role: str) -> TensorType:
    t = ctx.tensor(i)
    if not t.distributed:
        raise ctx.fail(f"{ctx.name} expects a pld.DistributedTensor {role} (window-bound), got "
                       f"{type_name(t)}", argument=i)
    return t


def _offsets(ctx: Deduction, i: int, t: TensorType, role: str) -> None:
    offsets = ctx.tuple_arg(i)
    if len(offsets) != t.rank:
        raise ctx.fail(f"{ctx.name} requires one offset per dimension of {role} ({t.rank}), but "
                       f"got {len(offsets)}", argument=i)


@type_rule("pld.system.world_size")
def world_size(ctx: Deduction) -> Type:
    ctx.nargs(0)
    return ScalarType(DType.INT64)


@type_rule("pld.system.get_comm_ctx")
def get_comm_ctx(ctx: Deduction) -> Type:
    ctx.nargs(1)
    _window_bound(ctx, 0, "dist_tensor")
    return HandleType("CommCtx")


@type_rule("pld.system.rank", "pld.system.nranks")
def comm_scalar(ctx: Deduction) -> Type:
    ctx.nargs(1)
    t = ctx.args[0].type
    if t != HandleType("CommCtx"):
        raise ctx.fail(f"{ctx.name} expects a pld.CommCtx (the result of pld.get_comm_ctx), got "
                       f"{type_name(t)}", argument=0)
    return ScalarType(DType.INT32)


@type_rule("pld.system.notify")
def notify(ctx: Deduction) -> Type:
    ctx.nargs(4)
    t = _window_bound(ctx, 0, "target")
    ctx.scalar(1)
    _offsets(ctx, 2, t, "target")
    ctx.scalar(3)
    return UnknownType()


@type_rule("pld.system.wait", "pld.system.defer_wait")
def wait(ctx: Deduction) -> Type:
    ctx.nargs(3)
    t = _window_bound(ctx, 0, "signal")
    _offsets(ctx, 1, t, "signal")
    expected = ctx.scalar(2)
    if ctx.name == "pld.system.defer_wait":
        if not (expected.is_int() or expected is DType.INDEX):
            raise ctx.fail(f"{ctx.name}: expected must be an integer or index scalar, got "
                           f"{expected.name}", argument=2)
        if ctx.kwargs.get("cmp") != int(WaitCmp.Ge):
            raise ctx.fail(f"{ctx.name} only supports WaitCmp.Ge (the task completes once the "
                           "slot reaches the value)")
    return UnknownType()


@type_rule("pld.tensor.alloc_window_buffer")
def alloc_window_buffer(ctx: Deduction) -> Type:
    ctx.nargs(1)
    ctx.scalar(0)
    return PtrType()


@type_rule("pld.tensor.window")
def window(ctx: Deduction) -> Type:
    ctx.nargs(2)
    if not isinstance(ctx.args[0].type, PtrType):
        raise ctx.fail(f"{ctx.name} expects a Ptr handle (the result of "
                       f"pld.alloc_window_buffer), got {type_name(ctx.args[0].type)}", argument=0)
    shape = ctx.tuple_arg(1)
    return TensorType(tuple(norm_dim(d) for d in shape), ctx.kw_dtype("dtype"), distributed=True)


@type_rule("pld.tensor.put", "pld.tile.put")
def put(ctx: Deduction) -> Type:
    ctx.nargs(3, 8)
    _window_bound(ctx, 0, "dst")
    ctx.scalar(1)
    ctx.tensor(2)
    return UnknownType()


@type_rule("pld.tensor.get", "pld.tile.get")
def get(ctx: Deduction) -> Type:
    ctx.nargs(3, 8)
    ctx.tensor(0)
    ctx.scalar(1)
    _window_bound(ctx, 2, "src")
    return UnknownType()


@type_rule("pld.tensor.remote_store", "pld.tile.remote_store")
def remote_store(ctx: Deduction) -> Type:
    ctx.nargs(4)
    src = ctx.tile(0) if ctx.name.startswith("pld.tile.") else ctx.tensor(0)
    t = _window_bound(ctx, 1, "target")
    if src.dtype is not t.dtype:
        raise ctx.fail(f"{ctx.name} requires the source's dtype ({src.dtype.name}) to be the "
                       f"target's ({t.dtype.name})", argument=0)
    ctx.scalar(2)
    _offsets(ctx, 3, t, "target")
    # The push must fit the peer's target region (a rank-mismatched one is not checked).
    write_bounds(ctx, ctx.tuple_arg(3), src.shape, t.shape, "peer's target")
    return UnknownType()


@type_rule("pld.tensor.barrier", target=0, signal=0, most=1)
@type_rule("pld.tensor.allreduce", target=0, signal=1, most=2)
@type_rule("pld.tensor.broadcast", "pld.tensor.reduce_scatter", target=0, signal=1, most=2)
@type_rule("pld.tensor.allgather", "pld.tensor.all_to_all", target=1, signal=2, most=3)
@type_rule("pld.tensor.all_to_all_v", target=1, signal=2, most=5)
def collective(ctx: Deduction, *, target: int, signal: int, most: int) -> Type:
    """The collectives work in place on `target`, synchronised through `signal` (allreduce may
    leave its signal to the host: the reference synthesises one)."""
    ctx.nargs(most if ctx.name != "pld.tensor.allreduce" else 1, most)
    for i in range(len(ctx.args)):
        ctx.tensor(i)
    _window_bound(ctx, target, "target")
    if ctx.has(signal):
        sig = _window_bound(ctx, signal, "signal")
        if sig.dtype is not DType.INT32:
            raise ctx.fail(f"{ctx.name} requires an INT32 signal (its notify / wait counters), got "
                           f"{sig.dtype.name}", argument=signal)
    if ctx.kwargs.get("mode") == "ring" and (ctx.kw_int("core_num") or 1) > 1:
        raise ctx.fail(f'{ctx.name}: mode="ring" does not support core_num > 1')
    return ctx.args[target].type


@type_rule("pld.tile.remote_load")
def remote_load(ctx: Deduction) -> Type:
    ctx.nargs(4, 5)
    t = _window_bound(ctx, 0, "target")
    ctx.scalar(1)
    _offsets(ctx, 2, t, "target")
    shape = tuple(norm_dim(d) for d in ctx.tuple_arg(3))
    valid = ctx.opt_tuple(4)
    view = TileView(valid_shape=tuple(norm_dim(d) for d in valid)) if valid else None
    return tile(shape, t.dtype, None, view)
