"""What the language server shows of one kernel file, computed without any LSP machinery: its
diagnostics, inlay hints and hovers (`analyze`), and the text `--write` would give it (`written`).

Guarantees: the file is read statically (never run), from the text given (unsaved edits
included), and nothing is written. Diagnostics carry the command's text and span: a located error
(`PlError`), each capacity warning and each note of `python -m pl.show_inferred`; hovers carry
`--explain`'s words (pl/show_inferred/report.py, `explained`). Lines and columns here are 0-based,
as LSP counts them (the spans of pl are 1-based).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pl.errors import InternalError, PlError, source_lines
from pl.ir.expr import ConstInt
from pl.ir.names import source_variable, user_name
from pl.ir.span import Span
from pl.ir.traverse import stmt_defs, walk_stmts
from pl.ir.types import TileType
from pl.show_inferred.report import explained
from pl.show_inferred.run import run_text

if TYPE_CHECKING:
    from pl.ir.function import Function

__all__ = ["Analysis", "Diagnostic", "Hint", "Hover", "analyze", "written"]

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class Diagnostic:
    line: int
    col: int
    end_line: int
    end_col: int
    severity: str  # "error", "warning" or "note"
    message: str


@dataclass(frozen=True)
class Hint:
    line: int
    col: int
    label: str
    kind: str  # "type" (after a tile's name), "move" (before its consumer), "residency" (on a loop)


@dataclass(frozen=True)
class Hover:
    line: int
    names: frozenset[str]  # the words of the line this entry is about (a tile's name)
    text: str              # `--explain`'s words


@dataclass(frozen=True)
class Analysis:
    """One compile's answer: `ok` False when the file did not compile (then only diagnostics)."""

    ok: bool
    diagnostics: tuple[Diagnostic, ...]
    hints: tuple[Hint, ...] = ()
    hovers: tuple[Hover, ...] = ()


def _range(span: Span | None, filename: str, lines: list[str]) -> tuple[int, int, int, int]:
    """The 0-based range of a 1-based span; a span of another file (or none) is the file's start."""
    if span is None or span.line <= 0 or span.filename != filename:
        return 0, 0, 0, 0
    line, col = span.line - 1, max(span.col - 1, 0)
    if span.end_line >= span.line and (span.end_line > span.line or span.end_col > span.col):
        return line, col, span.end_line - 1, max(span.end_col - 1, col)
    text = lines[line] if line < len(lines) else ""
    m = _WORD.match(text, col)
    return line, col, line, m.end() if m else min(col + 1, max(len(text), col + 1))


def _error(e: PlError, filename: str, lines: list[str], severity: str) -> Diagnostic:
    message = e.message
    if e.hint:
        message += f"\nhelp: {e.hint}"
    if e.note:
        message += f"\nnote: {e.note}"
    return Diagnostic(*_range(e.span, filename, lines), severity, message)


def _dim(e: object) -> str:
    return str(e.value) if isinstance(e, ConstInt) else user_name(str(getattr(e, "name", e)))


def type_text(t: TileType) -> str:
    """`Tile[[16, 128], BF16, Vec]`: a tile's shape, element type and memory space."""
    space = t.memory_space.name if t.memory_space is not None else "unplaced"
    return f"Tile[[{', '.join(_dim(d) for d in t.shape)}], {t.dtype.name}, {space}]"


def _tile_types(f: Function) -> dict[str, TileType]:
    return {v.name: v.type for s in walk_stmts(f.body) for v in stmt_defs(s)
            if isinstance(v.type, TileType)}


def _written_name(name: str) -> str:
    """The name the user wrote for a tile lowering made of their value (`s__tile` -> `s`)."""
    return name.removesuffix("__tile")


def _word_at(lines: list[str], line: int, word: str, start: int = 0) -> re.Match[str] | None:
    if not 0 <= line < len(lines) or not word:
        return None
    return re.compile(rf"\b{re.escape(word)}\b").search(lines[line], start)


def _call_start(text: str, col: int) -> int:
    """The start of the dotted call whose last name starts at `col` (`pl.matmul`, not `matmul`)."""
    while col > 0 and text[col - 1] == ".":
        m = re.search(r"[A-Za-z_][A-Za-z0-9_]*$", text[:col - 1])
        if m is None:
            break
        col = m.start()
    return col


def analyze(text: str, filename: str) -> Analysis:
    """Compile `text` (the file `filename`, read statically) and say what an editor shows of it."""
    lines = source_lines(text)
    try:
        r = run_text(text, filename, verify=False)
        compiled = r.compiled
    except InternalError:
        raise
    except PlError as e:
        return Analysis(False, (_error(e, filename, lines, "error"),))
    diagnostics = [_error(n, filename, lines, "note") for n in r.notes]
    for w in r.warnings:
        diagnostics.append(Diagnostic(*_range(w.span, filename, lines), "warning",
                                      f"{w.message}\nnote: {w.note}"))
    hints: list[Hint] = []
    hovers: list[Hover] = []
    moves = {(m.function, m.name): m for c in compiled if c.decisions is not None
             for m in c.decisions.moves}
    loops = {(rd.function, rd.load): rd for c in compiled if c.decisions is not None
             for rd in c.decisions.residency}
    for ef in explained(r):
        types = _tile_types(ef.function)
        for item in ef.items:
            line = item.line - 1 if item.line is not None else -1
            if not 0 <= line < len(lines):
                continue
            # The name in the user's text (a function shown as it compiles names its values
            # otherwise in the regenerated file, which `item.name` follows).
            written = _written_name(user_name(item.ir_name))
            names = {item.name, written}
            if item.kind == "tile":
                t = types.get(item.ir_name)
                label = type_text(t) if t is not None else item.space
                m = _word_at(lines, line, written)
                if m is not None:
                    hints.append(Hint(line, m.end(), f": {label}", "type"))
                else:
                    hints.append(Hint(line, len(lines[line].rstrip()), f"  {item.name}: {label}",
                                      "type"))
            elif item.kind == "move":
                md = moves.get((ef.function.name, item.ir_name))
                producer = source_variable(md.producer) if md is not None else item.name
                names.add(producer)
                col = md.span.col - 1 if md is not None and md.span.line == item.line else 0
                m = _word_at(lines, line, md.consumer_op.split(".")[-1]) if md is not None else None
                col = _call_start(lines[line], m.start()) if m is not None else \
                    max(col, len(lines[line]) - len(lines[line].lstrip()))
                hints.append(Hint(line, col, f"<- move {producer} to {item.space} ", "move"))
            elif item.kind == "residency":
                rd = loops.get((ef.function.name, item.ir_name))
                if rd is not None and rd.hoisted and rd.loop_span.line > 0:
                    loop = rd.loop_span.line - 1
                    if loop < len(lines):
                        hints.append(Hint(loop, len(lines[loop].rstrip()),
                                          f"  hoists the load of {source_variable(item.ir_name)}",
                                          "residency"))
            hovers.append(Hover(line, frozenset(names), item.text))
    return Analysis(True, tuple(diagnostics), tuple(hints), tuple(hovers))


def hover_text(a: Analysis, lines: list[str], line: int, col: int) -> str | None:
    """What hovering the word at (line, col) shows: the entries about that tile, or on a call,
    every entry of its line."""
    if not 0 <= line < len(lines):
        return None
    word = next((m for m in _WORD.finditer(lines[line]) if m.start() <= col <= m.end()), None)
    if word is None:
        return None
    on_line = [h for h in a.hovers if h.line == line]
    about = [h.text for h in on_line if word.group() in h.names]
    if not about and lines[line][word.end():].lstrip().startswith("("):  # a call
        about = [h.text for h in on_line]
    return "\n\n".join(about) if about else None


def written(text: str, filename: str) -> str:
    """What `python -m pl.show_inferred --write` would make of the file: its verified output."""
    return run_text(text, filename).output
