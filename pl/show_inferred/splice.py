"""The regenerated file as text edits of the user's file, instead of rendering the whole module.

Why: LibCST's rendering of a large kernel costs about as much as parsing it, yet LibCST renders
every node it parsed back to exactly the text it was parsed from. So the rewritten module's text
is the user's text with only the changed statement lines re-rendered (and inserted ones added):
`splice(text, edits)` builds it from the `Edit`s that `_Record` (pl/show_inferred/plan.py) derives
from the same plan `_Apply` rebuilds the nodes from.

Guarantees: `SourceText` locates a statement of an indented block as the exact slice of the text
LibCST renders it to (its leading blank / comment lines, its indentation, through its newline),
or raises `NotSpliceable` when it cannot be sure (a file with `\\r` line breaks or without a final
newline, a statement that does not start its line, a backslash continuation at its end, a position
the cheap statement positions do not know). A changed line of the user's is rendered by LibCST
(`render`) at the block's own indentation, except that `x = v` gaining an annotation is the
insertion of `: T` after `x` (`with_annotation`, exactly what `annotate_small` builds renders to)
into the user's own text of the line, or into the line rendered with only its call changed. A line the compiler inserts is the printer's text, moved to the block's indentation
(`reindented`). A caller that meets `NotSpliceable` renders the whole rewritten module instead,
so the output never depends on which way it was produced.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import libcst as cst

from pl.errors import python_lines
from pl.ir.span import Span

__all__ = ["Edit", "NotSpliceable", "SourceText", "reindented", "render", "splice", "with_annotation"]

_NEWLINE = re.compile("\n")


class NotSpliceable(Exception):
    """The text edit cannot be placed with certainty: render the whole module instead."""


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace `text[start:end]` by `new`. `order` ranks edits at one offset: zero-width edits
    (appends to an ending block, deepest first, then inserts before a statement) come before the
    replacement of the statement that starts there."""

    start: int
    end: int
    order: int
    new: str


def splice(text: str, edits: list[Edit]) -> str:
    """`text` with the (non-overlapping) edits applied."""
    out: list[str] = []
    at = 0
    for e in sorted(edits, key=lambda e: (e.start, e.end, e.order)):
        if e.start < at:
            raise NotSpliceable("overlapping edits")
        out.append(text[at:e.start])
        out.append(e.new)
        at = e.end
    out.append(text[at:])
    return "".join(out)


class SourceText:
    """The user's file as lines, with the cheap statement spans of its parse (`span_of(node)`:
    1-based lines and character columns, a line <= 0 when the node has none)."""

    def __init__(self, text: str, span_of: Callable[[cst.CSTNode], Span], module: cst.Module) -> None:
        self.text = text
        self.span_of = span_of
        # Lines are counted by "\n" (as the positions are); files with other breaks, or without
        # a final one, are rendered whole by the caller (rare: editors write "\n").
        self.usable = "\r" not in text and text.endswith("\n") and module.default_newline == "\n"
        self.default_indent = module.default_indent
        self._starts: list[int] | None = None

    @property
    def starts(self) -> list[int]:
        """Offsets of the line starts (index 0 is line 1), computed once."""
        if self._starts is None:
            self._starts = [0, *(m.end() for m in _NEWLINE.finditer(self.text))]
        return self._starts

    def _span(self, node: cst.CSTNode) -> Span:
        if not self.usable:
            raise NotSpliceable("line breaks or indentation LibCST renders differently")
        span = self.span_of(node)
        if span.line <= 0:
            raise NotSpliceable("statement without a position")
        return span

    def _indent(self, span: Span) -> str:
        begin = self.starts[span.line - 1]
        ind = self.text[begin:begin + span.col - 1]
        if ind.strip(" \t"):
            raise NotSpliceable("statement does not start its line")
        return ind

    def indent_of(self, stmt: cst.CSTNode) -> str:
        """The indentation of the line a statement of an indented block starts."""
        return self._indent(self._span(stmt))

    def range_of(self, stmt: cst.BaseStatement) -> tuple[int, int]:
        """The slice of the text LibCST renders a simple statement line to (leading lines
        included)."""
        return self.start_of(stmt), self._end(stmt)

    def start_of(self, stmt: cst.BaseStatement) -> int:
        """Where LibCST's rendering of a statement of an indented block starts: its first leading
        line (blank or comment), else its own line."""
        if getattr(stmt, "decorators", None):
            raise NotSpliceable("a decorated definition starts at its decorators")
        span = self._span(stmt)
        self._indent(span)
        leading = len(getattr(stmt, "leading_lines", ()))
        first = span.line - leading
        starts = self.starts
        if first < 1:
            raise NotSpliceable("leading lines before the file")
        for ln in range(first, span.line):
            body = self.text[starts[ln - 1]:starts[ln]].strip()
            if body and not body.startswith("#"):
                raise NotSpliceable("leading lines are not blank or comments")
        return starts[first - 1]

    def _end(self, stmt: cst.BaseStatement) -> int:
        """Just after the newline of the line the statement's last token is on."""
        if not isinstance(stmt, cst.SimpleStatementLine) or not stmt.body:
            raise NotSpliceable("only simple statement lines are located to their end")
        last = self._span(stmt.body[-1]).end_line
        starts = self.starts
        if last >= len(starts):
            raise NotSpliceable("statement past the end")
        end = starts[last]
        if self.text[starts[last - 1]:end].rstrip("\n").endswith("\\"):
            raise NotSpliceable("backslash continuation")
        return end

    def render(self, stmt: cst.BaseStatement, indent: str) -> str:
        """The text LibCST renders `stmt` to inside a block indented by `indent`."""
        return render(stmt, indent, self.default_indent)


def with_annotation(text: str, line: cst.SimpleStatementLine, annotation: str) -> str | None:
    """`text` (LibCST's rendering of `line`, its leading lines included: the user's own slice of
    the file, or a rendered line) with `annotation` (`: T`) inserted after the target of `x = v`,
    exactly what `annotate_small`'s AnnAssign renders to; None when the line has another shape
    (the caller renders the annotated line)."""
    if len(line.body) != 1:
        return None
    small = line.body[0]
    if not isinstance(small, cst.Assign) or len(small.targets) != 1:
        return None
    name = small.targets[0].target
    if not isinstance(name, cst.Name) or name.lpar:
        return None
    at = 0
    for _ in line.leading_lines:  # LibCST renders each leading line as one line
        at = text.index("\n", at) + 1
    rest = text[at:]
    at += len(rest) - len(rest.lstrip(" \t"))  # the indentation: the statement starts its line
    if not text.startswith(name.value, at):
        return None
    at += len(name.value)
    return text[:at] + annotation + text[at:]


def render(stmt: cst.BaseStatement, indent: str, default_indent: str = "    ") -> str:
    """The text LibCST renders `stmt` to inside a block indented by `indent`, in a module whose
    default indentation is `default_indent` (LibCST's public rendering: the statement is rendered
    as the body of a placeholder `if` whose block is indented by `indent`, and that line dropped)."""
    module = cst.Module(body=[], default_indent=default_indent)
    if not indent:
        return module.code_for_node(stmt)
    holder = cst.If(test=cst.Name("_"), body=cst.IndentedBlock(body=[stmt], indent=indent))
    return module.code_for_node(holder).split("\n", 1)[1]


def reindented(text: str, old: str, new: str) -> str:
    """The printer's `text` (each line starting with `old`) with `new` in place of `old`."""
    if old == new:
        return text
    return "".join(new + line[len(old):] if line.strip() else line
                   for line in python_lines(text))
