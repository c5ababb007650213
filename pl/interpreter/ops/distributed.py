"""Op semantics of the interpreter, part 6: the distributed module (`pld.*`), on the ranks of
`pl.interpreter.ranks` (`OpCtx.run.world`).

As the reference documents them (docs/en/user/distributed):
- `world_size` is the run's rank count (`pl.interpret(..., ranks=N)`); `alloc_window_buffer`
  and `window` make the host's buffers and views; `get_comm_ctx(t)` is the rank whose slice `t`
  is, `rank` / `nranks` read it.
- `notify(target, peer, offsets, value, op=)` adds `value` into (AtomicAdd) or sets (Set) one
  element of peer's slice of `target`; `wait(signal, offsets, expected, cmp=)` sleeps until this
  rank's element equals (Eq) or reaches (Ge) `expected`; `defer_wait` lets the task run on and
  holds its end until then.
- `remote_store` (tensor or tile: its valid region) writes a region of peer's slice at `offsets`,
  adding with `atomic=pl.AtomicType.Add`; `pld.tile.remote_load` reads one (zero past its valid
  shape, as `tile.load`); `put` writes the local `src` (or its region) into peer's slice of `dst`,
  `get` reads peer's slice of `src` into the local `dst` (the staging tiles and `chunk_*` /
  `pipeline` only say how the hardware moves it).
- The collectives meet every rank (`World.meet`): `barrier`; `allreduce` (every rank's target
  becomes the reduction of all: Sum, Max, Min, Prod); `broadcast` (root's target); `allgather`
  (block s of every target is rank s's input); `reduce_scatter` (block r of rank r's target is the
  reduction of every rank's block r; the other blocks keep what they held); `all_to_all` (block s
  of rank d's target is block d of rank s's input); `all_to_all_v` (the same with blocks of
  MAX_RECV = rows / ranks rows, every row moved, and `recv_counts[s]` of rank d set to
  min(send_counts[d] of rank s, MAX_RECV)). On the host, with windows, a collective acts on every
  rank's slice at once (after the dispatched tasks ran). Their signal keeps its value (the
  reference's self-clearing protocol restores it).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, Final

import numpy as np

from pl.errors import PlError
from pl.interpreter.context import OpCtx, window
from pl.interpreter.ranks import CommCtx, Window, World
from pl.interpreter.values import Array, coerce_array
from pl.ir.enums import DType, NotifyOp, ReduceOp, WaitCmp
from pl.ir.types import TensorType, TileType
from pl.ops.marks import interprets


def _world(c: OpCtx) -> World:
    return c.run.world


def _int(c: OpCtx, i: int) -> int:
    v = c.arg(i)
    if isinstance(v, (tuple, list, np.ndarray)) or v is None:
        raise PlError(f"pl.interpret: op '{c.name}' expects an integer as argument {i}")
    return int(v)


def _added(c: OpCtx) -> bool:
    return int(c.kwargs.get("atomic", 0) or 0) == 1


def _dtype(c: OpCtx, i: int) -> DType:
    """The declared dtype of tensor / tile argument `i` (BF16's arrays are float32)."""
    t = c.call.args[i].type
    if not isinstance(t, (TensorType, TileType)):
        raise PlError(f"pl.interpret: op '{c.name}' expects a tensor as argument {i}")
    return t.dtype


def _write(dst: Array, offsets: tuple[int, ...], region: Array, dtype: DType, add: bool,
           name: str) -> None:
    """Write `region` into `dst` (of declared `dtype`) at `offsets`, or add it in (`add`)."""
    if len(offsets) != dst.ndim or region.ndim != dst.ndim:
        raise PlError(f"pl.interpret: op '{name}' needs offsets and a region of the target's "
                      f"rank {dst.ndim}")
    if any(o + s > d for o, s, d in zip(offsets, region.shape, dst.shape, strict=True)):
        raise PlError(f"pl.interpret: op '{name}' writes {list(region.shape)} at {list(offsets)}, "
                      f"past the target's {list(dst.shape)}")
    place = window(offsets, region.shape)
    dst[place] = coerce_array(dst[place] + region if add else region, dtype)


def _read(src: Array, offsets: tuple[int, ...], shape: tuple[int, ...], name: str) -> Array:
    if len(offsets) != src.ndim or len(shape) != src.ndim:
        raise PlError(f"pl.interpret: op '{name}' needs offsets and a shape of the source's "
                      f"rank {src.ndim}")
    if any(o + s > d for o, s, d in zip(offsets, shape, src.shape, strict=True)):
        raise PlError(f"pl.interpret: op '{name}' reads {list(shape)} at {list(offsets)}, past the "
                      f"source's {list(src.shape)}")
    return src[window(offsets, shape)]


# ---- system ---------------------------------------------------------------------------------------

@interprets("pld.system.world_size")
def _world_size(c: OpCtx) -> Any:
    return _world(c).size("pld.world_size()")


@interprets("pld.system.get_comm_ctx")
def _get_comm_ctx(c: OpCtx) -> Any:
    return _world(c).ctx(c.arg(0))


def _ctx(c: OpCtx) -> CommCtx:
    ctx = c.arg(0)
    if not isinstance(ctx, CommCtx):
        raise PlError(f"pl.interpret: op '{c.name}' takes the handle of pld.get_comm_ctx")
    return ctx


@interprets("pld.system.rank")
def _rank(c: OpCtx) -> Any:
    return _ctx(c).rank


@interprets("pld.system.nranks")
def _nranks(c: OpCtx) -> Any:
    return _ctx(c).nranks


@interprets("pld.system.notify")
def _notify(c: OpCtx) -> Any:
    world = _world(c)
    peer, offsets, value = _int(c, 1), c.ints(2), c.arg(3)
    op = int(c.kwargs.get("op", 0))
    with world.cond:
        view = world.peer_view(c.arg(0), peer, "the target of pld.system.notify")
        cell = window(offsets, (1,) * len(offsets))
        _read(view, offsets, (1,) * len(offsets), c.name)
        total = view[cell] + value if op == NotifyOp.AtomicAdd else np.full_like(view[cell], value)
        view[cell] = coerce_array(total, _dtype(c, 0))
        world.changed()
    return None


def _slot(c: OpCtx, what: str) -> tuple[Callable[[], bool], str]:
    world = _world(c)
    signal, offsets, expected = c.arg(0), c.ints(1), c.arg(2)
    world.locate(signal, f"the signal of {what}")
    _read(signal, offsets, (1,) * len(offsets), c.name)
    equal = int(c.kwargs.get("cmp", 0)) == WaitCmp.Eq
    cell = tuple(offsets)

    def ready() -> bool:
        return bool(signal[cell] == expected) if equal else bool(signal[cell] >= expected)
    words = "==" if equal else ">="
    return ready, f"its signal element {list(offsets)} {words} {expected} ({what})"


@interprets("pld.system.wait")
def _wait(c: OpCtx) -> Any:
    ready, what = _slot(c, "pld.system.wait")
    _world(c).block_until(ready, what)
    return None


@interprets("pld.system.defer_wait")
def _defer_wait(c: OpCtx) -> Any:
    ready, what = _slot(c, "pld.system.defer_wait, held at the end of the task")
    _world(c).defer(ready, what, c.call.span)
    return None


# ---- windows --------------------------------------------------------------------------------------

@interprets("pld.tensor.alloc_window_buffer")
def _alloc(c: OpCtx) -> Any:
    return _world(c).alloc(_int(c, 0))


@interprets("pld.tensor.window")
def _window(c: OpCtx) -> Any:
    dtype = c.kwargs.get("dtype")
    if not isinstance(dtype, DType):
        raise PlError("pl.interpret: pld.window needs dtype=")
    return _world(c).window(c.arg(0), c.ints(1), dtype)


# ---- one-sided ------------------------------------------------------------------------------------

@interprets("pld.tensor.remote_store", source="tensor")
@interprets("pld.tile.remote_store", source="tile")
def _remote_store(c: OpCtx, *, source: str) -> Any:
    world = _world(c)
    src = c.array(0)
    if source == "tile" and isinstance(c.call.args[0].type, TileType):
        src = src[window((0,) * src.ndim, c.valid_shape(0))]
    peer, offsets = _int(c, 2), c.ints(3)
    with world.cond:
        view = world.peer_view(c.arg(1), peer, f"the target of {c.name}")
        _write(view, offsets, np.asarray(src), _dtype(c, 1), _added(c), c.name)
        world.changed()
    return None


@interprets("pld.tile.remote_load")
def _remote_load(c: OpCtx) -> Any:
    world = _world(c)
    peer, offsets, shape = _int(c, 1), c.ints(2), c.ints(3)
    valid = c.ints(4) if c.arg(4) is not None else shape
    with world.cond:
        view = world.peer_view(c.arg(0), peer, "the target of pld.tile.remote_load")
        got = tuple(max(0, min(v, d - o)) for v, d, o in zip(valid, view.shape, offsets,
                                                              strict=True))
        out = np.zeros(shape, view.dtype)
        out[window((0,) * len(got), got)] = _read(view, offsets, got, c.name)
    return out


def _region(c: OpCtx, first: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]] | None:
    """(dst_offsets, src_offsets, shape) of put / get from argument `first` on, or None (whole)."""
    if c.arg(first + 2) is None:
        return None
    return c.ints(first), c.ints(first + 1), c.ints(first + 2)


def _transfer(c: OpCtx, dst: Array, src: Array, region: tuple[tuple[int, ...], ...] | None,
              add: bool) -> None:
    dtype = _dtype(c, 0)
    if region is None:
        if dst.shape != src.shape:
            raise PlError(f"pl.interpret: op '{c.name}' copies a whole {list(src.shape)} into a "
                          f"{list(dst.shape)}: give dst_offsets, src_offsets and shape")
        _write(dst, (0,) * dst.ndim, np.array(src), dtype, add, c.name)
        return
    dst_off, src_off, shape = region
    _write(dst, dst_off, np.array(_read(src, src_off, shape, c.name)), dtype, add, c.name)


@interprets("pld.tensor.put", first=3)
@interprets("pld.tile.put", first=5)
def _put(c: OpCtx, *, first: int) -> Any:
    world = _world(c)
    with world.cond:
        dst = world.peer_view(c.arg(0), _int(c, 1), f"the dst of {c.name}")
        _transfer(c, dst, c.array(2), _region(c, first), _added(c))
        world.changed()
    return None


@interprets("pld.tensor.get", first=3)
@interprets("pld.tile.get", first=5)
def _get(c: OpCtx, *, first: int) -> Any:
    world = _world(c)
    with world.cond:
        src = world.peer_view(c.arg(2), _int(c, 1), f"the src of {c.name}")
        _transfer(c, c.array(0), src, _region(c, first), False)
        world.changed()
    return None


# ---- collectives ----------------------------------------------------------------------------------

_REDUCE: Final[Mapping[int, Callable[..., Any]]] = MappingProxyType({
    ReduceOp.Sum: np.sum, ReduceOp.Max: np.max, ReduceOp.Min: np.min, ReduceOp.Prod: np.prod})


def _reduce(c: OpCtx, parts: list[Array], dtype: DType) -> Array:
    op = int(c.kwargs.get("op", 0) or 0)
    fn = _REDUCE.get(op)
    if fn is None:
        raise PlError(f"pl.interpret: op '{c.name}': reduce op {op} is not one of pld.ReduceOp")
    stacked = np.stack(parts)
    wide = stacked.astype(np.float32) if stacked.dtype == np.float16 else stacked
    return coerce_array(fn(wide, axis=0), dtype)


def _blocks(target: Array, n: int, name: str) -> int:
    if target.ndim == 0 or target.shape[0] % n:
        raise PlError(f"pl.interpret: op '{name}' splits its target's {list(target.shape)} rows "
                      f"into one block per rank, and {n} ranks do not divide them")
    return int(target.shape[0] // n)


def _collective(c: OpCtx, compute: Callable[[dict[int, tuple[Any, ...]]], None],
                result: int) -> Any:
    """Run a collective: in a rank's task, meet the other ranks; on the host, with windows,
    act on every rank's slice. Returns argument `result` (the rebound target)."""
    world = _world(c)
    if world.rank() is None:
        n = world.size(c.name)
        if not any(isinstance(a, Window) for a in c.args):
            raise PlError(f"pl.interpret: {c.name} on the host acts on windows (pld.window)")
        compute({r: tuple(a.on(r) if isinstance(a, Window) else a for a in c.args)
                 for r in range(n)})
        return c.arg(result)
    for i, a in enumerate(c.args):
        t = c.call.args[i].type if i < len(c.call.args) else None
        if isinstance(t, TensorType) and t.distributed:
            world.locate(a, f"argument {i} of {c.name}")
    world.meet(c.name, c.args, compute)
    return c.arg(result)


@interprets("pld.tensor.barrier")
def _barrier(c: OpCtx) -> Any:
    return _collective(c, lambda _: None, 0)


@interprets("pld.tensor.allreduce")
def _allreduce(c: OpCtx) -> Any:
    def compute(by_rank: dict[int, tuple[Any, ...]]) -> None:
        total = _reduce(c, [np.array(args[0]) for _, args in sorted(by_rank.items())],
                        _dtype(c, 0))
        for args in by_rank.values():
            args[0][...] = total
    return _collective(c, compute, 0)


@interprets("pld.tensor.broadcast")
def _broadcast(c: OpCtx) -> Any:
    root = int(c.kwargs.get("root", 0))

    def compute(by_rank: dict[int, tuple[Any, ...]]) -> None:
        if root not in by_rank:
            raise PlError(f"pl.interpret: {c.name}: root {root} is not a rank of the run")
        data = np.array(by_rank[root][0])
        for args in by_rank.values():
            args[0][...] = data
    return _collective(c, compute, 0)


@interprets("pld.tensor.allgather")
def _allgather(c: OpCtx) -> Any:
    def compute(by_rank: dict[int, tuple[Any, ...]]) -> None:
        n = len(by_rank)
        rows = _blocks(by_rank[0][1], n, c.name)
        for dargs in by_rank.values():
            target = dargs[1]
            block = (rows, *target.shape[1:])
            for s, sargs in by_rank.items():
                if np.size(sargs[0]) != int(np.prod(block)):
                    raise PlError(f"pl.interpret: {c.name}: rank {s}'s input has "
                                  f"{np.size(sargs[0])} elements, a block of the target (its "
                                  f"{target.shape[0]} rows over {n} ranks) {list(block)}")
                target[s * rows:(s + 1) * rows] = np.reshape(sargs[0], block)
    return _collective(c, compute, 1)


@interprets("pld.tensor.reduce_scatter")
def _reduce_scatter(c: OpCtx) -> Any:
    def compute(by_rank: dict[int, tuple[Any, ...]]) -> None:
        n = len(by_rank)
        rows = _blocks(by_rank[0][0], n, c.name)
        blocks = {r: _reduce(c, [np.array(args[0][r * rows:(r + 1) * rows])
                                 for _, args in sorted(by_rank.items())], _dtype(c, 0))
                  for r in by_rank}
        for r, args in by_rank.items():
            args[0][r * rows:(r + 1) * rows] = blocks[r]
    return _collective(c, compute, 0)


def _exchange(by_rank: dict[int, tuple[Any, ...]], name: str) -> int:
    """Block s of rank d's target (argument 1) = block d of rank s's input (argument 0)."""
    n = len(by_rank)
    rows = _blocks(by_rank[0][1], n, name)
    sent = {s: np.array(args[0]) for s, args in by_rank.items()}
    for d, dargs in by_rank.items():
        for s in by_rank:
            dargs[1][s * rows:(s + 1) * rows] = sent[s][d * rows:(d + 1) * rows]
    return rows


@interprets("pld.tensor.all_to_all")
def _all_to_all(c: OpCtx) -> Any:
    def compute(by_rank: dict[int, tuple[Any, ...]]) -> None:
        _exchange(by_rank, c.name)
    return _collective(c, compute, 1)


@interprets("pld.tensor.all_to_all_v")
def _all_to_all_v(c: OpCtx) -> Any:
    def compute(by_rank: dict[int, tuple[Any, ...]]) -> None:
        counts = {s: np.array(args[3]).reshape(-1) for s, args in by_rank.items()}
        n = len(by_rank)
        for s, args in by_rank.items():
            if counts[s].size < n or args[4].shape[0] < n:
                raise PlError(f"pl.interpret: {c.name}: rank {s}'s send_counts has "
                              f"{counts[s].size} entries and its recv_counts {args[4].shape[0]} "
                              f"rows; each needs one per rank ({n})")
        rows = _exchange(by_rank, c.name)
        for d, dargs in by_rank.items():
            recv = dargs[4]
            for s in by_rank:
                recv[(s,) + (0,) * (recv.ndim - 1)] = min(int(counts[s][d]), rows)
    return _collective(c, compute, 1)
