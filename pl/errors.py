"""The one user-facing error type, `PlError`, and its renderer.

Every mistake in a kernel becomes a `PlError` carrying a `Span`; `render()` prints it the way the
reference does (rustc style): `Error: msg`, `--> file:line:col`, two lines of context, a caret under
the culprit, then `= help:` / `= note:` lines; `render_diagnostic` is that format, which warnings
(`Warning: msg`, pl/infer/capacity.py) share. `str(error)` is `file:line:col: msg`, so an error
that escapes uncaught still says where it is (`uncaught()` adds the rest of the rendering). `suggest` words the "did you mean" hint of an unknown
name. This module imports only the IR span.
"""

from __future__ import annotations

import difflib
import linecache
import os
import re
import sys
from collections.abc import Iterable, Mapping
from types import FrameType
from typing import Any

from pl.ir.span import Span

# pl's own package folder (pl/lowering/ and pl/infer/ included, in a checkout and when installed):
# a frame whose file lies in it is pl's, not the user's.
PL_SOURCE_FOLDERS = (os.path.dirname(os.path.realpath(__file__)) + os.sep,)


def is_pl_source(filename: str) -> bool:
    """Whether `filename` (a code object's file) is one of pl's own source files."""
    return os.path.realpath(filename).startswith(PL_SOURCE_FOLDERS)

_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


def python_lines(text: str) -> list[str]:
    """The lines of `text` with their line breaks, numbered the way Python numbers them (at `\\n`,
    `\\r\\n` and `\\r`; `str.splitlines` also breaks at form feeds and other separators)."""
    return _LINE.findall(text)


def source_lines(text: str) -> list[str]:
    """The lines of `text` without their line breaks, numbered as Python numbers them (what
    `str.splitlines` gives where no other separator occurs): line n is `source_lines(text)[n - 1]`."""
    return [line.rstrip("\r\n") for line in _LINE.findall(text)]


class PlError(Exception):
    """A located, user-facing error (bad kernel source, bad op use, unsatisfiable request)."""

    def __init__(self, message: str, span: Span | None = None, *, hint: str | None = None,
                 note: str | None = None, source: str | None = None,
                 argument: int | str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.span = span
        self.hint = hint
        self.note = note
        # Full text of the file the span points into, when it is not readable through linecache.
        self.source = source
        # Raised without a span about one argument of an op call (a 0-based positional slot, or a
        # keyword's name): the frontend then points at that argument rather than at the call.
        self.argument = argument

    def __str__(self) -> str:
        span = self.span
        if span is not None and span.line > 0:
            return f"{span}: {self.message}"
        return self.message

    def uncaught(self) -> PlError:
        """This error made ready to escape to Python's own excepthook (pl installs none): its
        traceback cut to start where it is raised again, and the rest of `render()` (location,
        source lines, caret, help) attached as a note, which Python 3.11+ prints after
        `str(self)`."""
        rest = "\n".join(self.render(color=False).splitlines()[1:])
        if rest and hasattr(self, "add_note") and rest not in getattr(self, "__notes__", ()):
            self.add_note(rest)
        return self.with_traceback(None)

    def located(self, span: Span) -> PlError:
        """Give a span to an error raised without one (e.g. from op type deduction)."""
        if self.span is None or self.span.line <= 0:
            self.span = span
        return self

    def in_text(self, filename: str, text: str) -> PlError:
        """Give `text`, the text of `filename`, to this error when it is located in that file and
        carries no text yet (so it shows its lines without `linecache` keeping the file)."""
        if self.source is None and self.span is not None and self.span.filename == filename:
            self.source = text
        return self

    def source_lines(self) -> list[str]:
        return diagnostic_lines(self.span, self.source)

    def render(self, color: bool | None = None) -> str:
        return render_diagnostic("error", self.message, self.span, self.source_lines(),
                                 hint=self.hint, note=self.note, color=color)


def diagnostic_lines(span: Span | None, source: str | None) -> list[str]:
    """The lines a diagnostic at `span` shows: of `source` (the text of the span's file) when
    given, else of the file as `linecache` reads it."""
    if source is not None:
        return [ln.rstrip("\r\n") for ln in python_lines(source)]
    if span is None:
        return []
    return [ln.rstrip("\n") for ln in linecache.getlines(span.filename)]


def render_diagnostic(severity: str, message: str, span: Span | None, lines: list[str], *,
                      hint: str | None = None, note: str | None = None,
                      color: bool | None = None) -> str:
    """The one diagnostic format (rustc style): `Error: msg` (or `Warning: msg`), `--> file:line:col`,
    two lines of context from `lines` (the file's lines), a caret under the culprit, then
    `= help:` / `= note:` lines. `severity` is "error" (red) or "warning" (yellow)."""
    if color is None:
        color = want_color(sys.stderr)
    accent = "\x1b[33m" if severity == "warning" else "\x1b[31m"  # yellow / red
    accent, blue, bold, reset = ((accent, "\x1b[34m", "\x1b[1m", "\x1b[0m") if color
                                 else ("", "", "", ""))
    out = [f"{bold}{accent}{severity.capitalize()}{reset}{bold}: {message}{reset}"]
    if span is not None and span.line > 0:
        out.append(f"  {blue}-->{reset} {span}")
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
                    label = message.split(". ")[0]
                    label = label if len(label) < 50 else ""
                    out.append(f"{pad} {blue}|{reset} {' ' * (span.col - 1)}{accent}{carets}{reset}"
                               + (f" {accent}{label}{reset}" if label else ""))
            out.append(f"{pad} {blue}|{reset}")
    if hint:
        out.append(f"   = help: {hint}")
    if note:
        out.append(f"   = note: {note}")
    return "\n".join(out)


class UnknownNameError(PlError, AttributeError):
    """An unknown `pl.X` / `pl.tile.X` name looked up at run time (a kernel file's module level).

    A PlError (rendered, with a "did you mean"), and an AttributeError too, because that is what
    Python's attribute protocol expects: `hasattr`, `getattr(obj, name, default)` keep working."""


def _spelling_key(name: str) -> str:
    """What a name is compared by: case folded, and the numpy/torch dtype words in the DSL's own
    spelling (`float32` -> `fp32`, `bfloat16` -> `bf16`), so `pl.float32` finds `pl.FP32`."""
    key = name.lower().replace("bfloat", "bf").replace("float", "fp")
    return {"half": "fp16", "double": "fp64", "int": "int32", "bool_": "bool"}.get(key, key)


def suggest(name: str, candidates: Iterable[str], prefix: str = "") -> str | None:
    """`did you mean `pl.FP32`?` for an unknown `name` among `candidates`, or None when nothing
    is close (difflib's ratio over the spelling keys above)."""
    by_key: dict[str, str] = {}
    for c in candidates:
        by_key.setdefault(_spelling_key(c), c)
    key = _spelling_key(name)
    close = [by_key[key]] if key in by_key else [
        by_key[k] for k in difflib.get_close_matches(key, list(by_key), n=3, cutoff=0.6)]
    if not close:
        return None
    return "did you mean " + " or ".join(f"`{prefix}{c}`" for c in close) + "?"


def frame_span(frame: FrameType, lasti: int | None = None) -> Span:
    """Where `frame` is executing (or was, at instruction offset `lasti`): the expression
    CPython's position table gives for that instruction, in 1-based character columns."""
    code = frame.f_code
    line, col, end_line, end_col = frame.f_lineno, 0, 0, 0
    index = (frame.f_lasti if lasti is None else lasti) // 2
    table = getattr(code, "co_positions", None)  # Python 3.11+; before it, the line only
    positions = list(table()) if table is not None else []
    if 0 <= index < len(positions):
        p_line, p_end, p_col, p_end_col = positions[index]
        if p_line is not None and p_col is not None:
            line, end_line, col, end_col = p_line, p_end or p_line, p_col, p_end_col or 0
    text = linecache.getline(code.co_filename, line).encode("utf-8")
    end_text = linecache.getline(code.co_filename, end_line or line).encode("utf-8")

    def chars(data: bytes, offset: int) -> int:  # a UTF-8 byte offset -> 1-based column
        return len(data[:offset].decode("utf-8", errors="replace")) + 1

    return Span(code.co_filename, line, chars(text, col),
                end_line, chars(end_text, end_col) if end_line else 0)


def _word_end(text: str, col: int) -> int:
    """End column (exclusive, 1-based) of the identifier or dotted name starting at `col`."""
    i = col - 1
    while i < len(text) and (text[i].isalnum() or text[i] in "_."):
        i += 1
    return max(i + 1, col + 1)


def want_color(stream: object) -> bool:
    """Colour output to `stream`: never with NO_COLOR, always with FORCE_COLOR, else on a tty."""
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def error_json(e: PlError) -> dict[str, Any]:
    """A user error as JSON data (its message, span, help, note and source text): what the
    compile cache stores of it."""
    span = None if e.span is None else [e.span.filename, e.span.line, e.span.col,
                                        e.span.end_line, e.span.end_col]
    return {"message": e.message, "span": span, "hint": e.hint, "note": e.note,
            "source": e.source}


def error_from_json(d: Mapping[str, Any]) -> PlError:
    """The error `error_json` stored; ValueError when `d` is not such data."""
    span = d.get("span")
    texts = [d.get(f) for f in ("hint", "note", "source")]
    if not isinstance(d.get("message"), str) or any(t is not None and not isinstance(t, str)
                                                    for t in texts):
        raise ValueError("not a stored error")
    if span is not None and not (isinstance(span, list) and len(span) == 5
                                 and isinstance(span[0], str)
                                 and all(type(n) is int for n in span[1:])):
        raise ValueError("not a stored span")
    hint, note, source = texts
    return PlError(d["message"], None if span is None else Span(*span), hint=hint, note=note,
                   source=source)


class InternalError(Exception):
    """A bug in `pl` that its own checks caught (a pass's output that fails verification,
    pl/passes.py; show_inferred's check of what it prints, pl/show_inferred/verify.py; a node kind
    a dispatch does not know); never the kernel author's mistake. The one exception type of pl's
    internal gaps: `show_inferred` exits 123 on it, with a reproducer (pl/show_inferred/cli.py)."""


def package_version(distribution: str = "pl-tile") -> str:
    """An installed distribution's version (by default pl's own, `pl-tile`), from its package
    metadata; "0+unknown" when it is not installed as a distribution."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(distribution)
    except PackageNotFoundError:
        return "0+unknown"
