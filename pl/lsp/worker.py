"""The language server's compiles, in a child process that a superseded compile is stopped with.

A compile cannot be interrupted from the outside while it runs in the server's own process (a
thread runs to its end, and the next compile waits behind it). So compiles run in a child
process, one at a time, and cancelling the task that awaits one kills that process: the compile
stops at once, wherever it is. The child is forked from a process server that has the compiler
imported (multiprocessing's `forkserver`, preloaded with `pl.lsp.analysis` and the compiler), so
replacing a killed child costs a fork, not an import; a child that was not killed serves the
next compile too.

Guarantees: a stopped compile leaves nothing behind: it dies with its process, together with any
state it was building, the server's own state is never touched by a compile, and a killed
compile has no answer, so nothing of it can be published. The child's standard output is its
standard error (the server's standard output is the editor's channel). A child whose server
goes away ends (its channel closes).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import sys
from collections.abc import Callable
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar

__all__ = ["CompileFailed", "Worker"]

T = TypeVar("T")

# Imported once by the process server, before it forks a child.
_PRELOAD = ("pl.lsp.worker", "pl.lsp.analysis", "pl.show_inferred.annotate")


class CompileFailed(Exception):
    """The child ended without an answer, or the function raised (a bug in pl): its words."""


def _serve(conn: Connection) -> None:
    """The child: runs each (function, arguments) it is sent and sends back (True, answer) or
    (False, what it raised), until its server goes away."""
    os.dup2(2, 1)  # nothing a compile prints may reach the editor's channel
    sys.stdout = sys.stderr
    while True:
        try:
            fn, args = conn.recv()
        except EOFError:
            return
        try:
            answer: tuple[bool, Any] = (True, fn(*args))
        except Exception as e:  # a bug in pl, not in the kernel (analyze returns the kernel's errors)
            answer = (False, f"{type(e).__name__}: {e}")
        conn.send(answer)


class Worker:
    """Runs functions of pl in a child process, one at a time (see the module doc)."""

    def __init__(self) -> None:
        self.context = multiprocessing.get_context("forkserver")
        self.context.set_forkserver_preload(list(_PRELOAD))
        self.lock = asyncio.Lock()
        self.child: tuple[BaseProcess, Connection] | None = None

    def start(self) -> None:
        """Starts the process server (it imports the compiler); the first `run` otherwise does."""
        from multiprocessing import forkserver

        forkserver.ensure_running()

    def _stop(self) -> None:
        if self.child is not None:
            process, conn = self.child
            self.child = None
            process.kill()
            process.join()
            conn.close()

    async def run(self, fn: Callable[..., T], *args: Any,
                  started: Callable[[int], None] | None = None) -> T:
        """`fn(*args)` in the child (`fn`, the arguments and the answer are pickled), after the
        runs before it; `started` is told the child's process id when it begins. Cancelling the
        awaiting task while it runs kills the child. Raises `CompileFailed`."""
        async with self.lock:
            if self.child is None:
                ours, theirs = self.context.Pipe()
                new = self.context.Process(target=_serve, args=(theirs,), daemon=True)
                new.start()
                theirs.close()
                self.child = (new, ours)
            process, conn = self.child
            loop = asyncio.get_running_loop()
            ready = loop.create_future()

            def readable() -> None:
                if not ready.done():
                    ready.set_result(None)

            conn.send((fn, args))
            if started is not None and process.pid is not None:
                started(process.pid)
            fd = conn.fileno()
            loop.add_reader(fd, readable)
            try:
                try:
                    await ready
                finally:
                    loop.remove_reader(fd)
            except asyncio.CancelledError:
                self._stop()  # superseded: the compile stops now, and its answer never comes
                raise
            try:
                ok, value = conn.recv()
            except EOFError:
                self._stop()
                raise CompileFailed(f"the compile process ended without an answer (exit status "
                                    f"{process.exitcode})") from None
            if not ok:
                raise CompileFailed(value)
            return value  # type: ignore[no-any-return]
