"""The one user-facing error type, `PlError`, and its renderer.

Every mistake in a kernel becomes a `PlError` carrying a `Span`; `render()` prints it the way the
reference does (rustc style): `Error: msg`, `--> file:line:col`, two lines of context, a caret under
the culprit, then `= help:` / `= note:` lines. This module imports only the IR span.
"""

from __future__ import annotations

import linecache
import os
import re
import sys

from pl.ir.span import Span

_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


def python_lines(text: str) -> list[str]:
    """The lines of `text` with their line breaks, numbered the way Python numbers them (at `\\n`,
    `\\r\\n` and `\\r`; `str.splitlines` also breaks at form feeds and other separators)."""
    return _LINE.findall(text)


class PlError(Exception):
    """A located, user-facing error (bad kernel source, bad op use, unsatisfiable request)."""

    def __init__(self, message: str, span: Span | None = None, *, hint: str | None = None,
                 note: str | None = None, source: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.span = span
        self.hint = hint
        self.note = note
        # Full text of the file the span points into, when it is not readable through linecache.
        self.source = source

    def __str__(self) -> str:
        return self.message

    def located(self, span: Span) -> PlError:
        """Give a span to an error raised without one (e.g. from op type deduction)."""
        if self.span is None or self.span.line <= 0:
            self.span = span
        return self

    def source_lines(self) -> list[str]:
        if self.source is not None:
            return [ln.rstrip("\r\n") for ln in python_lines(self.source)]
        if self.span is None:
            return []
        return [ln.rstrip("\n") for ln in linecache.getlines(self.span.filename)]

    def render(self, color: bool | None = None) -> str:
        if color is None:
            color = _want_color(sys.stderr)
        red, blue, bold, reset = (("\x1b[31m", "\x1b[34m", "\x1b[1m", "\x1b[0m") if color
                                  else ("", "", "", ""))
        out = [f"{bold}{red}Error{reset}{bold}: {self.message}{reset}"]
        span = self.span
        lines = self.source_lines()
        if span is not None and span.line > 0:
            out.append(f"  {blue}-->{reset} {span.filename}:{span.line}:{span.col}")
            if 0 < span.line <= len(lines):
                first = max(1, span.line - 2)
                last = min(len(lines), span.line + 2)
                width = len(str(last))
                pad = " " * width
                out.append(f"{pad} {blue}|{reset}")
                for n in range(first, last + 1):
                    out.append(f"{str(n).rjust(width)} {blue}|{reset} {lines[n - 1]}")
                    if n == span.line:
                        text = lines[n - 1]
                        end = span.end_col if span.end_line == span.line and span.end_col > span.col \
                            else _word_end(text, span.col)
                        carets = "^" * max(1, end - span.col)
                        label = self.message.split(". ")[0]
                        label = label if len(label) < 50 else ""
                        out.append(f"{pad} {blue}|{reset} {' ' * (span.col - 1)}{red}{carets}{reset}"
                                   + (f" {red}{label}{reset}" if label else ""))
                out.append(f"{pad} {blue}|{reset}")
        if self.hint:
            out.append(f"   = help: {self.hint}")
        if self.note:
            out.append(f"   = note: {self.note}")
        return "\n".join(out)


def _word_end(text: str, col: int) -> int:
    """End column (exclusive, 1-based) of the identifier or dotted name starting at `col`."""
    i = col - 1
    while i < len(text) and (text[i].isalnum() or text[i] in "_."):
        i += 1
    return max(i + 1, col + 1)


def _want_color(stream: object) -> bool:
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


class InternalError(Exception):
    """A bug in `pl` that its own checks caught (show_inferred verifies what it prints, see
    pl/annotate_verify.py); never the kernel author's mistake. `report()` is the one line the
    command prints before it exits 123."""

    def report(self) -> str:
        return f"internal error in pl {pl_version()}: {self}"


def pl_version() -> str:
    """The installed distribution's version (the package metadata of `pl-tile`)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("pl-tile")
    except PackageNotFoundError:
        return "(version unknown: not installed)"
