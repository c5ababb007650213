"""`on_deep_stack(fn)`: `fn()` run where the depth of the user's program cannot overflow the stack.

Why: the compiler's walks recurse over structure whose depth the user's program chooses and Python
accepts (a constant nested through 500 names, a chain of 300 modules each importing the next, 150
`@pl.inline` helpers each calling the previous, and the IR those make). With Python's default
limit of 1000 frames each failed with RecursionError (exit 123). Making every such walk iterative
(frontend, static evaluator, module loader, inliner, printer, passes, interpreter) would rewrite
most of the compiler; instead every entry point runs its work here.

Guarantees:
- `fn()` runs on a thread of its own with a `STACK_BYTES` stack (address space reserved, pages
  committed only as the stack grows) and a recursion limit of at least `RECURSION_LIMIT` frames,
  several times what the explicit user-depth limits (`MAX_NESTING`: constants, imports, inline
  helpers, each refused beyond it with a located error) need. Its value is returned, what it
  raises is raised (its traceback kept). Where `ulimit -v` leaves less than 8 times that stack,
  an eighth of the address space is the stack, the limit scaled alike; where no thread can be
  started at all, `fn()` runs in the caller (Python's own limit then holds).
- The caller's trace and profile functions (`sys.settrace`, `sys.setprofile`: a debugger, coverage,
  a call counter) are set in the thread too, so they see the run as if it ran in the caller.
- Called again from inside such a thread, `fn()` just runs (entry points nest: `pl.compile` runs
  passes, which print).
- One deep run at a time (a lock), so the process-wide recursion limit it raises is restored to
  what it was when the last run ends, and no other run sees it restored early.
- An exception is handed over with its traceback, unless that is deeper than `SHALLOW` frames:
  then the traceback's text is a note on it and the frames are freed on the deep stack.
- An exception the calling thread receives while it waits (Ctrl-C, a timer's alarm) is raised in
  the worker too, whose run stops there; then it is raised in the caller. No run outlives its call.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import TypeVar

__all__ = ["MAX_NESTING", "RECURSION_LIMIT", "STACK_BYTES", "on_deep_stack", "start_deep_threads"]

T = TypeVar("T")

MAX_NESTING = 1000  # user-level depth (nested constants, import chains, inline chains) pl accepts
RECURSION_LIMIT = 30_000  # frames: 30 per level of MAX_NESTING, each with 17 KiB of stack
SHALLOW = 1000  # frames of a traceback the caller's stack frees safely (Python's default limit)
STACK_BYTES = 512 << 20  # the deepest C recursion per frame measured (repr) takes 5-9 KiB

_LOCK = threading.Lock()


class _DeepThread(threading.Thread):
    pass


def on_deep_stack(fn: Callable[[], T]) -> T:
    """`fn()`, on a deep stack (module doc)."""
    if isinstance(threading.current_thread(), _DeepThread):
        return fn()
    outcome: list[tuple[bool, object]] = []
    # Released by the worker when `fn` is done. (Not `join()`: a join interrupted by a signal's
    # exception can mark a thread stopped that still runs, and a second join then returns at once.)
    done = threading.Lock()
    done.acquire()

    # The caller's Python-level trace and profile functions (a debugger, coverage, a call
    # counter) see the run as they would see `fn()` in the caller: they are set per thread.
    trace, profile = sys.gettrace(), sys.getprofile()

    def run() -> None:
        if callable(profile):
            sys.setprofile(profile)
        if callable(trace):
            sys.settrace(trace)
        try:
            outcome.append((True, fn()))
        except BaseException as e:  # noqa: BLE001 - carried to the caller, which raises it
            outcome.append((False, _shallow(e)))
        finally:
            done.release()

    with _LOCK:
        limit = sys.getrecursionlimit()
        try:
            worker = _start(run, limit)
            if worker is not None:
                try:
                    done.acquire()
                except BaseException as stop:  # interrupted while waiting: stop the run too
                    if not outcome:
                        _raise_in(worker, type(stop))
                    done.acquire()
                    raise
        finally:
            sys.setrecursionlimit(limit)
    if worker is None:  # no thread can be had (an address-space limit): run it here
        return fn()
    ok, value = outcome[0]
    if not ok:
        assert isinstance(value, BaseException)
        raise value
    return value  # type: ignore[return-value]


def start_deep_threads(runs: list[Callable[[], None]], name: str) -> list[threading.Thread]:
    """Threads started at once, one per `runs` entry, each on a deep stack of its own (their share
    of `_stack_bytes()`, at least 1 MiB); `on_deep_stack` called inside one just runs. The caller
    joins them (the interpreter's ranks: pl.interpreter.ranks)."""
    size = threading.stack_size(max(1 << 20, _stack_bytes() // max(1, len(runs))) >> 20 << 20)
    try:
        threads = [_DeepThread(target=run, name=f"{name}-{i}", daemon=True)
                   for i, run in enumerate(runs)]
        for t in threads:
            t.start()
    finally:
        threading.stack_size(size)
    return list(threads)


def _start(run: Callable[[], None], limit: int) -> _DeepThread | None:
    """A started deep thread running `run`, the recursion limit raised in proportion to the stack
    it got (`_stack_bytes`); None when no thread can be started (the address space is full)."""
    stack = _stack_bytes()
    worker = _DeepThread(target=run, name="pl-deep-stack", daemon=True)
    sys.setrecursionlimit(max(limit, RECURSION_LIMIT * stack // STACK_BYTES))
    size = threading.stack_size(stack)  # the size of the threads started next
    try:
        worker.start()
        return worker
    except RuntimeError:  # "can't start new thread"
        sys.setrecursionlimit(limit)
        return None
    finally:
        threading.stack_size(size)


def _stack_bytes() -> int:
    """STACK_BYTES, or an eighth of the address space a `ulimit -v` allows when that is less
    (the stack's reservation counts against it, and the compile needs the rest): under 250 MB
    a 512 MiB stack cannot be mapped, or leaves the parser no memory."""
    try:
        import resource  # not on Windows
    except ImportError:
        return STACK_BYTES
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    if soft == resource.RLIM_INFINITY:
        return STACK_BYTES
    return max(1 << 20, min(STACK_BYTES, soft // 8) >> 20 << 20)


def _shallow(error: BaseException) -> BaseException:
    """`error`, and the exceptions it chains, without a traceback deeper than `SHALLOW` frames:
    such a traceback (a RecursionError's, say) holds a chain of as many frame objects, which
    would be freed on the caller's ordinary stack and overflow it. Its text is kept as a note."""
    seen: set[int] = set()
    e: BaseException | None = error
    while e is not None and id(e) not in seen:
        seen.add(id(e))
        tb, depth = e.__traceback__, 0
        while tb is not None and depth <= SHALLOW:
            tb, depth = tb.tb_next, depth + 1
        if depth > SHALLOW:
            import traceback  # only on this rare path

            text = "".join(traceback.format_tb(e.__traceback__, limit=SHALLOW // 2))
            add_note = getattr(e, "add_note", None)  # Python 3.11+
            if add_note is not None:
                add_note(f"traceback (its first {SHALLOW // 2} of more than {SHALLOW} frames, "
                         f"run on pl's deep stack):\n{text}")
            e.with_traceback(None)
        e = e.__cause__ or e.__context__
    return error


def _raise_in(worker: threading.Thread, kind: type[BaseException]) -> None:
    """Raise `kind` in `worker` at its next bytecode (CPython's PyThreadState_SetAsyncExc)."""
    import ctypes  # only on this rare path

    if worker.ident is not None:
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(worker.ident),
                                                   ctypes.py_object(kind))
