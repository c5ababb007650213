"""The ranks of a distributed run of `pl.interpret` (`ranks=N`): window buffers, the tasks a HOST
orchestrator dispatches to the ranks (`device=r`), and how the ranks wait for each other.

The model (the reference's docs/en/user/distributed):
- `pld.alloc_window_buffer(size)` is a buffer of `size` bytes on every rank (`WindowBuffer`, all
  zero); `pld.window(buf, shape, dtype=)` on the host is a typed view of it that is no rank's yet
  (`Window`); passed to a dispatch with `device=r` it is rank r's slice, an array over rank r's
  bytes. A window-bound array inside a task therefore knows its rank and its buffer
  (`World.locate`), and `World.peer_view` is the same region of another rank's slice.
- A dispatch (`self.chip(..., device=r)`) queues a `Task`; the queued tasks run together, one
  thread per rank running its tasks in the order they were dispatched, when the host next needs
  their effects (`World.flush`): before any host statement other than a view (`x[r]`), a window
  or a further dispatch, when a dispatch's result is read, and at the end of the run. A
  program's host therefore sees every earlier dispatch finished, and the ranks run at once, as
  the chips do.
- A rank that waits (`pld.system.wait`, a collective, the end of a task with a `defer_wait`)
  sleeps until another rank changes what it waits for. When every running rank waits and none
  can change anything, the run stops with a located PlError naming what each rank waits for
  (the hardware would hang): the interpreter never hangs on a wait.
- The communication domain is every rank (`pld.rank(ctx)` is the device, `pld.nranks(ctx)` the
  run's rank count); a round whose windows reach only some ranks is a located PlError, as a
  dispatch to a device outside the run is.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import numpy as np

from pl.deep_stack import start_deep_threads
from pl.errors import PlError
from pl.interpreter.values import Array, np_dtype
from pl.ir.enums import DType
from pl.ir.function import Function
from pl.ir.span import Span

__all__ = ["CommCtx", "Dispatched", "Task", "Window", "WindowBuffer", "World"]

# The storage bytes per declared byte of a window buffer: a BF16 element is stored as a float32
# (pl.interpreter.values), twice its declared size.
_STORAGE_FACTOR = 2


class _Aborted(Exception):
    """Raised in a rank whose run stops because another rank failed (that error is reported)."""


@dataclass(eq=False)
class WindowBuffer:
    """`pld.alloc_window_buffer(nbytes)`: `nbytes` bytes on every rank, all zero at first."""

    nbytes: int
    storage: tuple[Array, ...]


@dataclass(frozen=True, eq=False)
class Window:
    """`pld.window(buf, shape, dtype=)` on the host: a typed view of every rank's bytes of `buf`,
    no rank's until a dispatch binds it (`on`)."""

    buffer: WindowBuffer
    shape: tuple[int, ...]
    dtype: DType

    def on(self, rank: int) -> Array:
        """Rank `rank`'s slice, an array over that rank's bytes."""
        dt = np.dtype(np_dtype(self.dtype))
        view: Array = np.ndarray(self.shape, dt, buffer=self.buffer.storage[rank], offset=0)
        return view


@dataclass(frozen=True)
class CommCtx:
    """`pld.get_comm_ctx(t)`: the rank whose slice `t` is, among `nranks`."""

    rank: int
    nranks: int


@dataclass(eq=False)
class Task:
    """A dispatch: `func` on rank `rank` with `args` (windows still unbound: `raw`)."""

    rank: int
    func: Function
    raw: tuple[Any, ...]
    span: Span
    results: tuple[Any, ...] | None = None


@dataclass(frozen=True, eq=False)
class Dispatched:
    """Result `index` of a dispatched task, read once the task has run (`World.result`)."""

    task: Task
    index: int


@dataclass(eq=False)
class _Meeting:
    """The ranks that reached their n-th collective, with what each passed."""

    key: str
    arrived: dict[int, tuple[Any, ...]] = field(default_factory=dict)
    done: bool = False


class World:
    """The state the ranks of one run share (module doc). One per `pl.interpret` call."""

    def __init__(self, nranks: int | None) -> None:
        self.nranks = nranks
        self.cond = threading.Condition()  # an RLock: helpers nest
        self.buffers: list[WindowBuffer] = []
        self.pending: list[Task] = []
        self.local = threading.local()  # .rank, .deferred of the task a thread runs
        # Of the round running: how many ranks still run, who waits (since which change) for
        # what, the count of changes, whether a rank failed, and the collectives met so far.
        self.alive = 0
        self.waiting: dict[int, tuple[int, str]] = {}
        self.changes = 0
        self.failed = False
        self.meetings: list[_Meeting] = []
        self.met: dict[int, int] = {}

    # ---- the host's side ------------------------------------------------------------------------

    def size(self, what: str) -> int:
        if self.nranks is None:
            raise PlError(f"pl.interpret: {what} needs the number of ranks the program runs on",
                          hint="pass it: pl.interpret(program, *args, ranks=N)")
        return self.nranks

    def alloc(self, nbytes: int) -> WindowBuffer:
        n = self.size("pld.alloc_window_buffer")
        if nbytes < 0:
            raise PlError(f"pl.interpret: a window buffer of {nbytes} bytes")
        buf = WindowBuffer(nbytes, tuple(np.zeros(nbytes * _STORAGE_FACTOR, np.uint8)
                                         for _ in range(n)))
        self.buffers.append(buf)
        return buf

    def window(self, buf: Any, shape: tuple[int, ...], dtype: DType) -> Window:
        if not isinstance(buf, WindowBuffer):
            raise PlError("pl.interpret: pld.window takes a buffer of pld.alloc_window_buffer")
        need = int(np.prod(shape)) * dtype.get_byte()
        if need > buf.nbytes:
            raise PlError(f"pl.interpret: a window of {list(shape)} {dtype.name} needs {need} "
                          f"bytes, its buffer has {buf.nbytes}")
        return Window(buf, shape, dtype)

    def dispatch(self, task: Task) -> Any:
        """Queue `task`; its results, read later, as `Dispatched`."""
        if getattr(self.local, "rank", None) is not None:
            raise PlError("pl.interpret: a dispatch (device=) inside a rank's task: only the "
                          "HOST orchestrator dispatches", task.span)
        n = self.size("a dispatch to a device (device=)")
        if not 0 <= task.rank < n:
            raise PlError(f"pl.interpret: device={task.rank}, but the run has {n} ranks "
                          f"(0 to {n - 1})", task.span)
        self.pending.append(task)
        count = len(task.func.return_types)
        out = tuple(Dispatched(task, i) for i in range(count))
        return out[0] if count == 1 else (out or None)

    def result(self, value: Dispatched, run: Callable[[Task], tuple[Any, ...]]) -> Any:
        if value.task.results is None:
            self.flush(run)
        assert value.task.results is not None
        return value.task.results[value.index]

    def flush(self, run: Callable[[Task], tuple[Any, ...]]) -> None:
        """Run the queued tasks, one thread per rank, and wait for all of them (module doc)."""
        tasks, self.pending = self.pending, []
        if not tasks:
            return
        self._check_domains(tasks)
        queues: dict[int, list[Task]] = {}
        for t in tasks:
            queues.setdefault(t.rank, []).append(t)
        self.alive, self.waiting, self.changes, self.failed = len(queues), {}, 0, False
        self.meetings, self.met = [], {}
        errors: list[BaseException] = []

        def body(rank: int, queue: list[Task]) -> None:
            self.local.rank = rank
            try:
                for task in queue:  # a rank runs its tasks in the order they were dispatched
                    self.local.deferred = []
                    task.results = run(task)
                    for check, what, span in self.local.deferred:
                        try:
                            self.block_until(check, what)
                        except PlError as e:
                            raise e.located(span) from None
            except _Aborted:
                pass
            except BaseException as e:  # noqa: BLE001 - reported by the host's thread
                errors.append(e)
                with self.cond:
                    self.failed = True
                    self.cond.notify_all()
            finally:
                with self.cond:
                    self.alive -= 1
                    self.changed()

        threads = start_deep_threads([partial(body, r, q) for r, q in sorted(queues.items())],
                                     "pl-rank")
        for th in threads:
            th.join()
        if errors:
            first = next((e for e in errors if isinstance(e, PlError) and "wait for each other"
                          in e.message), errors[0])
            raise first

    def _check_domains(self, tasks: Sequence[Task]) -> None:
        n = self.size("a dispatch to a device (device=)")
        reached: dict[int, tuple[WindowBuffer, set[int], Span]] = {}
        for t in tasks:
            for a in t.raw:
                if isinstance(a, Window):
                    reached.setdefault(id(a.buffer), (a.buffer, set(), t.span))[1].add(t.rank)
        for _, ranks, span in reached.values():
            if len(ranks) != n:
                raise PlError(f"pl.interpret: a window reaches ranks {sorted(ranks)} of the run's "
                              f"{n}: the interpreter's communication domain is every rank, and a "
                              "domain of some ranks (what pld.rank and pld.nranks mean there) is "
                              "not modelled", span,
                              hint="dispatch every rank (for r in pl.range(pld.world_size())), "
                                   f"or run with ranks={len(ranks)}")

    def bind(self, task: Task) -> tuple[Any, ...]:
        """The task's arguments with each window bound to the task's rank."""
        return tuple(a.on(task.rank) if isinstance(a, Window) else a for a in task.raw)

    # ---- the ranks' side ------------------------------------------------------------------------

    def rank(self) -> int | None:
        """The rank the calling thread runs (None on the host)."""
        return getattr(self.local, "rank", None)

    def locate(self, arr: Any, what: str) -> tuple[WindowBuffer, int, int]:
        """(buffer, rank, byte offset) of a window-bound array."""
        if isinstance(arr, np.ndarray):
            start = arr.__array_interface__["data"][0]
            for buf in self.buffers:
                for r, store in enumerate(buf.storage):
                    base = store.__array_interface__["data"][0]
                    if base <= start < base + store.nbytes:
                        return buf, r, start - base
        raise PlError(f"pl.interpret: {what} is not one rank's slice of a communication window: "
                      "ranks run from a HOST orchestrator that dispatches them (device=r) with "
                      "windows of pld.alloc_window_buffer",
                      hint="interpret the host orchestrator: pl.interpret(program, *args, "
                           "ranks=N, entry='<host>')")

    def peer_view(self, arr: Any, peer: int, what: str) -> Array:
        """The region `arr` is of its rank's slice, in rank `peer`'s slice."""
        buf, _, offset = self.locate(arr, what)
        n = len(buf.storage)
        if not 0 <= peer < n:
            raise PlError(f"pl.interpret: peer {peer} is not a rank of the run (0 to {n - 1})")
        view: Array = np.ndarray(arr.shape, arr.dtype, buffer=buf.storage[peer], offset=offset,
                                 strides=arr.strides)
        return view

    def ctx(self, arr: Any) -> CommCtx:
        _, rank, _ = self.locate(arr, "the tensor of pld.get_comm_ctx")
        return CommCtx(rank, self.size("pld.get_comm_ctx"))

    def changed(self) -> None:
        """Something a waiting rank may wait for changed (the caller holds `cond`)."""
        self.changes += 1
        self.cond.notify_all()

    def block_until(self, ready: Callable[[], bool], what: str) -> None:
        """Sleep until `ready()`; a located-by-the-caller PlError when no rank can make it so."""
        me = self.rank()
        with self.cond:
            while not ready():
                if self.failed:
                    raise _Aborted
                if me is None:
                    raise PlError(f"pl.interpret: the host waits for {what}, which no rank runs "
                                  "to change")
                self.waiting[me] = (self.changes, what)
                stuck = len(self.waiting) == self.alive and all(
                    seen == self.changes for seen, _ in self.waiting.values())
                if stuck:
                    self.failed = True
                    self.cond.notify_all()
                    others = "; ".join(f"rank {r} waits for {w}" for r, (_, w) in
                                       sorted(self.waiting.items()) if r != me)
                    raise PlError(f"pl.interpret: the ranks wait for each other forever: rank "
                                  f"{me} waits here for {what}" + (f"; {others}" if others else "")
                                  + "; no running rank can change what they wait for (on the "
                                    "device this hangs)")
                self.cond.wait()
            if me is not None:
                self.waiting.pop(me, None)

    def defer(self, ready: Callable[[], bool], what: str, span: Span) -> None:
        """Hold the end of the calling rank's task until `ready()` (`span`: the defer_wait)."""
        deferred = getattr(self.local, "deferred", None)
        if deferred is None:
            raise PlError("pl.interpret: pld.system.defer_wait outside a rank's task")
        deferred.append((ready, what, span))

    def meet(self, key: str, args: tuple[Any, ...],
             compute: Callable[[dict[int, tuple[Any, ...]]], None]) -> None:
        """A collective: this rank's `args` join those the other ranks pass at their collective
        of the same count; the last to arrive runs `compute` on all of them, by rank."""
        me = self.rank()
        assert me is not None
        with self.cond:
            n = self.size(key)
            count = self.met.get(me, 0)
            self.met[me] = count + 1
            while len(self.meetings) <= count:
                self.meetings.append(_Meeting(key))
            meeting = self.meetings[count]
            if meeting.key != key:
                raise PlError(f"pl.interpret: rank {me}'s collective number {count + 1} is {key}, "
                              f"another rank's is {meeting.key}: every rank runs the same "
                              "collectives in the same order")
            meeting.arrived[me] = args
            if len(meeting.arrived) == n:
                compute(meeting.arrived)
                meeting.done = True
                self.changed()
                return
            self.block_until(lambda: meeting.done,
                             f"the other ranks at {key} (collective number {count + 1}; "
                             f"{len(meeting.arrived)} of {n} arrived)")
