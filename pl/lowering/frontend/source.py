"""Source files for the frontend: a `SourceFile` is one file parsed once by CPython and once by LibCST.

Guarantees: a `SourceFile` holds the text, its LibCST tree (what the frontend lowers) and CPython's
tree of it (where positions come from: lowering/frontend/positions.py); statement spans are paired
on first use, the spans of other nodes only when an error asks for one. Nothing is cached beyond
the `SourceFile`: the caller holds it for one load or compile and it dies with the caller's
reference. Every error is a located `PlError`: what CPython refuses never reaches LibCST, and a line
with too many operators (MAX_LINE_OPERATORS) is refused before either parses it. All spans are in
the text's own coordinates (1-based line, 1-based character column).
"""

from __future__ import annotations

import ast
import re

import libcst as cst
from libcst.metadata import CodePosition, CodeRange

from pl.errors import PlError
from pl.ir.span import Span
from pl.lowering.frontend.positions import Positions
from pl.lowering.source.pieces import parse_in_pieces
from pl.lowering.source.python import compile_python, parse_python, python_view

# LibCST parses a long expression in superlinear time (and its native parser, like CPython's
# compiler, recurses on nesting until the stack runs out), so a line with more operators than this
# is refused, located, before either parses it. Only lines of at least as many characters can
# exceed it, and those are found by one regular-expression search.
MAX_LINE_OPERATORS = 200
_LONG_LINE = re.compile(rf"[^\n]{{{MAX_LINE_OPERATORS},}}")
_LINE_TOKEN = re.compile(r"""#.*|[rRbBuUfF]{0,2}(?:'(?:\\.|[^'\\])*'|"(?:\\.|[^"\\])*")"""
                         r"""|\*\*|//|<<|>>|[-+*/%@&|^~<>.\[(]|\b(?:not|and|or|if)\b""")


def check_expression_size(filename: str, text: str) -> None:
    """Refuse (PlError at the line) a line with more than MAX_LINE_OPERATORS operators, brackets
    and attribute dots outside strings and comments."""
    for m in _LONG_LINE.finditer(text):
        line = m.group(0)
        count = sum(1 for t in _LINE_TOKEN.finditer(line) if t.group(0)[0] not in "#'\"rRbBuUfF")
        if count > MAX_LINE_OPERATORS:
            number = text.count("\n", 0, m.start()) + 1
            col = len(line) - len(line.lstrip()) + 1
            raise PlError(f"This line is too long an expression for pl: {count} operators "
                          f"(at most {MAX_LINE_OPERATORS})", Span(filename, number, col, number,
                                                                  len(line.rstrip()) + 1),
                          source=text, hint="split it into several statements")


def _syntax_error(filename: str, text: str, e: cst.ParserSyntaxError) -> PlError:
    """CPython's own message and position when it rejects the text too (LibCST's can point a
    line past the culprit); LibCST's otherwise."""
    try:
        compile_python(text, filename)
    except PlError as err:
        return err
    return PlError(f"Syntax error: {e.message}", Span(filename, e.raw_line, e.raw_column + 1),
                   source=text)


class SourceFile:
    """A parsed file: its text, its LibCST tree, CPython's tree, and the positions of its nodes.

    The caller holds it for one load or compile; nothing keeps it beyond that."""

    def __init__(self, filename: str, text: str,
                 parsed: tuple[cst.Module, ast.Module] | None = None,
                 module: cst.Module | None = None) -> None:
        """Parse `text` as Python reads it, its `python_view` (CPython first: LibCST never sees
        what CPython refuses); errors show `text` and every span is in its coordinates.
        `parsed`, when given, is the caller's own parses of that view, LibCST's
        (`libcst.parse_module`) and CPython's (`parse_python`), used instead of parsing again.
        `module`, when given, is the LibCST tree of that view the caller holds already (the
        tree show_inferred assembled for its output and checked to render to exactly that
        text, which makes it the tree `libcst.parse_module` gives of it,
        pl/show_inferred/verify.py): only LibCST's parse is skipped, every check of the text
        and CPython's parse run as for any file."""
        self.filename = filename
        self.text = text
        view = python_view(text)
        if parsed is not None:
            self.module, self.tree = parsed
        else:
            check_expression_size(filename, view)
            # Both parses build only acyclic trees, run with the collector paused by the API
            # entry that reads the file (pl.gc_pause).
            self.tree = parse_python(view, filename)
            if module is not None:
                self.module = module
            else:
                try:  # long bodies a piece at a time (LibCST's parser's memory)
                    self.module = parse_in_pieces(view, self.tree)
                except cst.ParserSyntaxError as e:
                    raise _syntax_error(filename, view, e) from None
        self.positions = Positions(filename, view, self.module, self.tree,
                                   None if view == text else text)

    def statement_positions(self) -> StatementPositions:
        """Positions of STATEMENTS only, with the `.get(node)` / `[node]` interface of LibCST's
        position metadata."""
        return StatementPositions(self)

    def stmt_span(self, node: cst.CSTNode) -> Span:
        """The span of a statement node (UNKNOWN_SPAN for any other): the happy path's spans."""
        return self.positions.statement(node)

    def span_of(self, node: cst.CSTNode) -> Span:
        """The span of any node (the error path: see lowering/frontend/positions.py)."""
        return self.positions.node(node)

    def error(self, node: cst.CSTNode | None, message: str, *, hint: str | None = None,
              note: str | None = None) -> PlError:
        span = self.span_of(node) if node is not None else None
        return PlError(message, span, hint=hint, note=note, source=self.text)

    def locate(self, err: PlError, node: cst.CSTNode, cheap: Span | None = None) -> PlError:
        """Give `err` the precise span of `node` unless it already has a better one."""
        if err.span is None or err.span.line <= 0 or (cheap is not None and err.span == cheap):
            err.span = self.span_of(node)
        if err.source is None and err.span is not None and err.span.filename == self.filename:
            err.source = self.text
        return err


class StatementPositions:
    """LibCST-style positions (`CodeRange`, 0-based columns) of the statements of one file."""

    def __init__(self, src: SourceFile) -> None:
        self._src = src

    def get(self, node: cst.CSTNode, default: CodeRange | None = None) -> CodeRange | None:
        span = self._src.stmt_span(node)
        if span.line <= 0:
            return default
        return CodeRange(CodePosition(span.line, span.col - 1),
                         CodePosition(span.end_line, span.end_col - 1))

    def __getitem__(self, node: cst.CSTNode) -> CodeRange:
        rng = self.get(node)
        if rng is None:
            raise KeyError(node)
        return rng
