"""The language server itself (pygls): one `_File` per open document, compiled off the event loop.

Each open or change schedules a compile of that text after `DEBOUNCE` seconds; a newer edit
cancels the older one, whether it still waits or already runs: every compile runs in a process of
its own (pl/lsp/worker.py), which cancelling kills, so a superseded compile stops at once, leaves
no state behind, and has no result to publish (each step also checks that its version is still
the document's before it publishes). The event loop keeps answering while compiles run. Requests
for hints or hovers wait for the compile of the document's current version. What happens to
compiles is logged (`window/logMessage`, type Log): started, stopped because superseded.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.workspace import TextDocument

from pl.errors import package_version, source_lines
from pl.lsp.analysis import Analysis, Diagnostic, analyze, hover_text, written
from pl.lsp.worker import CompileFailed, Worker

__all__ = ["DEBOUNCE", "STALE", "WRITE_ACTION", "make_server"]

DEBOUNCE = 0.15  # seconds of quiet typing before a compile starts
WRITE_ACTION = "Write the inferred annotations"
STALE = " (stale)"  # appended to each hint kept from the last good compile of a file that fails now

_SEVERITY: Mapping[str, types.DiagnosticSeverity] = MappingProxyType({
    "error": types.DiagnosticSeverity.Error, "warning": types.DiagnosticSeverity.Warning,
    "note": types.DiagnosticSeverity.Information})


@dataclass
class _File:
    version: int
    task: asyncio.Task[Analysis | None] | None = None
    current: Analysis | None = None     # the last compile of `version` (or an older one)
    good: Analysis | None = None        # the last compile that succeeded


class PlServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("pl-lsp", package_version())
        self.files: dict[str, _File] = {}
        self.worker = Worker()

    def log(self, message: str) -> None:
        self.window_log_message(types.LogMessageParams(type=types.MessageType.Log,
                                                       message=f"pl: {message}"))

    def schedule(self, uri: str, version: int) -> None:
        f = self.files.setdefault(uri, _File(version))
        f.version = version
        if f.task is not None:
            f.task.cancel()
        f.task = asyncio.get_running_loop().create_task(self._compile(uri, version))

    async def _compile(self, uri: str, version: int) -> Analysis | None:
        await asyncio.sleep(DEBOUNCE)
        doc = self.workspace.get_text_document(uri)
        text, path = doc.source, doc.path
        pid: list[int] = []  # the process the compile runs in, once it runs

        def started(process: int) -> None:
            pid.append(process)
            self.log(f"compiling {path} (version {version}) in process {process}")

        try:
            a = await self.worker.run(analyze, text, path, started=started)
        except asyncio.CancelledError:
            if pid:  # (not when it was cancelled while it waited for its turn)
                f = self.files.get(uri)
                why = f"superseded by version {f.version}" if f is not None else "closed"
                self.log(f"stopped compiling {path} (version {version}): {why}; "
                         f"process {pid[0]} ended")
            raise
        except CompileFailed as e:  # a bug in pl, not in the kernel: said so, never a dead server
            a = Analysis(False, (Diagnostic(0, 0, 0, 0, "error",
                                            f"internal error in pl {package_version()}: {e}"),))
        f = self.files.get(uri)
        if f is None or f.version != version:
            return None  # superseded while it ran: dropped
        f.current = a
        if a.ok:
            f.good = a
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=uri, version=version, diagnostics=[_diagnostic(doc, d) for d in a.diagnostics]))
        caps = self.client_capabilities.workspace
        if caps is not None and caps.inlay_hint is not None and caps.inlay_hint.refresh_support:
            self.workspace_inlay_hint_refresh(None)  # the editor asks again for this version's
        return a

    async def analysis(self, uri: str) -> _File | None:
        """The file's state once the compile of its current version is done."""
        f = self.files.get(uri)
        while f is not None and f.task is not None:
            task = f.task
            try:
                await asyncio.shield(task)
            except asyncio.CancelledError:
                if task is f.task:
                    raise
            if task is f.task:
                break
        return f


def _position(doc: TextDocument, line: int, col: int) -> types.Position:
    """A position of pl (characters) in the client's units (UTF-16 unless it said otherwise)."""
    return doc.position_codec.position_to_client_units(doc.lines, types.Position(line=line, character=col))


def _diagnostic(doc: TextDocument, d: Diagnostic) -> types.Diagnostic:
    return types.Diagnostic(
        range=types.Range(start=_position(doc, d.line, d.col), end=_position(doc, d.end_line, d.end_col)),
        message=d.message, severity=_SEVERITY[d.severity], source="pl")


def make_server() -> PlServer:
    server = PlServer()

    @server.feature(types.INITIALIZED)
    def initialized(ls: PlServer, params: types.InitializedParams) -> None:
        # The process server imports the compiler once, now, beside the event loop (the first
        # compile would otherwise wait for it).
        threading.Thread(target=ls.worker.start, daemon=True).start()

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: PlServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, params.text_document.version)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: PlServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, params.text_document.version)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: PlServer, params: types.DidCloseTextDocumentParams) -> None:
        f = ls.files.pop(params.text_document.uri, None)
        if f is not None and f.task is not None:
            f.task.cancel()

    @server.feature(types.TEXT_DOCUMENT_INLAY_HINT)
    async def inlay_hint(ls: PlServer, params: types.InlayHintParams) -> list[types.InlayHint]:
        f = await ls.analysis(params.text_document.uri)
        if f is None or f.good is None:
            return []
        doc = ls.workspace.get_text_document(params.text_document.uri)
        stale = f.current is not None and not f.current.ok
        r = params.range
        out = []
        for h in f.good.hints:
            if not r.start.line <= h.line <= r.end.line:
                continue
            out.append(types.InlayHint(
                position=_position(doc, h.line, h.col),
                label=h.label + (STALE if stale else ""),
                kind=types.InlayHintKind.Type if h.kind == "type" else None,
                tooltip="the file does not compile now: these are its last good hints" if stale
                else None))
        return out

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    async def hover(ls: PlServer, params: types.HoverParams) -> types.Hover | None:
        f = await ls.analysis(params.text_document.uri)
        if f is None or f.good is None:
            return None
        doc = ls.workspace.get_text_document(params.text_document.uri)
        at = doc.position_codec.position_from_client_units(doc.lines, params.position)
        text = hover_text(f.good, source_lines(doc.source), at.line, at.character)
        if text is None:
            return None
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.PlainText, value=text))

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION,
                    types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.Source]))
    async def code_action(ls: PlServer, params: types.CodeActionParams) -> list[types.CodeAction]:
        uri = params.text_document.uri
        doc = ls.workspace.get_text_document(uri)
        text = doc.source
        try:  # (a cancelled request kills its compile)
            out = await ls.worker.run(written, text, doc.path)
        except CompileFailed:  # a file that does not compile has nothing to write (its diagnostics say why)
            return []
        if out == text:
            return []
        lines = text.splitlines(keepends=True)
        end = types.Position(line=len(lines), character=0)
        edit = types.TextEdit(range=types.Range(start=types.Position(line=0, character=0), end=end),
                              new_text=out)
        return [types.CodeAction(
            title=WRITE_ACTION, kind=types.CodeActionKind.Source,
            edit=types.WorkspaceEdit(changes={uri: [edit]}))]

    return server
