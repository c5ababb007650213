"""Op semantics of the interpreter, part 4: cross-core pipes, their buffers, task ids and the
async-prefetch handles.

The model: one run executes the functions of a program one call after another (a group or
mixed kernel calls its cube side, then its vector side), so a pipe is a FIFO queue per direction
and pipe id, kept in the run's `RunState` (`OpCtx.run`):
- `tpush_to_aiv` / `tpush_to_aic` append a copy of the tile to the queue of their direction and
  pipe id (`id=`, default 0); a later write to the pushed tile does not reach the queue;
- `tpop_from_aic` / `tpop_from_aiv` take the oldest tile of the queue the matching push fills;
  a pop on an empty queue is a located PlError (its producer has not run: the interpreter does
  not run the two sides at once), and so is a pop whose result shape differs from the pushed
  tile's (a split pipe hands each of the two vector lanes a part; one run is one lane);
- pipe setup and slot release (`*_initialize_pipe`, `tfree_*`) compute nothing: the queue is the
  pipe; a reserved or imported buffer is a name with a base in the run's state (`base=` when
  given, else the run's count of buffers so far), so an import of a buffer reserved earlier in
  the run reads the same base;
- task ids are opaque (`pl.interpreter.values.TaskId`): a launched task's id (a submit's or an
  `as tid` scope's, pl.interpreter.execute; a dependency-only `task_dummy`'s; `task_id_of`) is
  valid, the "no task" id (`task_invalid`) is not, and `task_is_valid` tells the two apart;
  nothing computes with one;
- an async prefetch only warms a cache: `make_context`, `async_prefetch` and `session` give
  opaque handles (their kind's name) and change no value, and `wait` is true (the prefetch has
  landed once the one core runs the next statement).
"""

from __future__ import annotations

from collections import deque
from typing import Any

import numpy as np

from pl.errors import PlError
from pl.interpreter.context import OpCtx
from pl.interpreter.values import TaskId
from pl.ir.types import HandleType
from pl.ops.marks import interprets

# Each push direction, and the pop that reads its queue.
_TO_AIV, _TO_AIC = "cube -> vector", "vector -> cube"


def _pipe(c: OpCtx, direction: str) -> deque[Any]:
    pipe_id = c.kwargs.get("id")
    key = (direction, 0 if pipe_id is None else int(pipe_id))
    return c.run.pipes.setdefault(key, deque())


@interprets("tile.tpush_to_aiv", direction=_TO_AIV)
@interprets("tile.tpush_to_aic", direction=_TO_AIC)
def _push(c: OpCtx, *, direction: str) -> Any:
    _pipe(c, direction).append(np.array(c.array(0), copy=True))
    return None


@interprets("tile.tpop_from_aic", direction=_TO_AIV)
@interprets("tile.tpop_from_aiv", direction=_TO_AIC)
def _pop(c: OpCtx, *, direction: str) -> Any:
    queue = _pipe(c, direction)
    pipe_id = c.kwargs.get("id") or 0
    if not queue:
        raise PlError(f"pl.interpret: op '{c.name}' pops from the empty {direction} pipe {pipe_id}: "
                      "no tile was pushed to it before in this run",
                      hint="The interpreter runs one function at a time: call the producing side "
                           "before the consuming side, or interpret the program that calls both")
    tile = queue.popleft()
    want = c.result_shape()
    if want is not None and tuple(tile.shape) != want:
        raise PlError(f"pl.interpret: op '{c.name}' pops a {list(want)} tile from the {direction} "
                      f"pipe {pipe_id}, which holds a {list(tile.shape)} tile (a split pipe gives "
                      "each vector lane a part; the interpreter runs one lane)")
    return tile


# Pipe setup and slot release: the run's queues are the pipes (see the module docstring).
@interprets("system.aic_initialize_pipe", "system.aiv_initialize_pipe", "system.tfree_to_aic",
            "system.tfree_to_aiv")
def _pipe_bookkeeping(c: OpCtx) -> Any:
    return None


@interprets("system.reserve_buffer")
def _reserve_buffer(c: OpCtx) -> Any:
    base = c.kwargs.get("base")
    chosen = int(base) if base is not None and int(base) >= 0 else len(c.run.buffers)
    c.run.buffers[str(c.kwargs.get("name"))] = chosen
    return chosen


@interprets("system.import_peer_buffer")
def _import_peer_buffer(c: OpCtx) -> Any:
    buffers = c.run.buffers
    return buffers.setdefault(str(c.kwargs.get("name")), len(buffers))


@interprets("system.task_invalid")
def _task_invalid(c: OpCtx) -> Any:
    return TaskId(valid=False)


@interprets("system.task_is_valid")
def _task_is_valid(c: OpCtx) -> Any:
    tid = c.arg(0)
    if not isinstance(tid, TaskId):
        raise PlError(f"pl.interpret: op '{c.name}' expects a task id, got {tid!r}")
    return tid.valid


@interprets("system.task_id_of", "system.task_dummy")
def _launched_task(c: OpCtx) -> Any:
    return TaskId(valid=True)


@interprets("prefetch.make_context", "prefetch.async_prefetch", "prefetch.session")
def _prefetch_handle(c: OpCtx) -> Any:
    t = c.result_type
    assert isinstance(t, HandleType)  # the prefetch type rules make handles
    return t.kind


@interprets("prefetch.wait")
def _prefetch_wait(c: OpCtx) -> Any:
    return True
