"""Source files for the frontend: one LibCST parse per file, spans computed lazily.

Guarantees: a file's text is parsed once (cached by filename and text); precise node positions are
computed only when asked for (the error path), by one metadata resolution per file; the happy path
gets statement-level spans read off the text in step with the CST (lowering/frontend/spans.py), or,
for files that walk declines, from CPython's `ast` matched to the CST statements by walking both
trees in step (the two agree: tests/test_perf_lower.py). All spans are in the file's own coordinates (1-based line, 1-based
character column).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from typing import Any

import libcst as cst
from libcst.metadata import CodePosition, CodeRange, MetadataWrapper, PositionProvider

from lowering.frontend.spans import text_statement_spans
from lowering.source.python import compile_python, parse_python, python_lines
from pl.errors import PlError
from pl.ir.span import UNKNOWN_SPAN, Span

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
    """A parsed file: its text, its CST, and lazily its positions."""

    def __init__(self, filename: str, text: str, module: cst.Module | None = None) -> None:
        self.filename = filename
        self.text = text
        if module is None:
            check_expression_size(filename, text)
            parse_python(text, filename)  # LibCST must never see what CPython refuses
        try:
            self.module = module if module is not None else cst.parse_module(text)
        except cst.ParserSyntaxError as e:
            raise _syntax_error(filename, text, e) from None
        self._positions: Any = None
        self._stmt_spans: dict[int, Span] | None = None
        self._lines = [ln.rstrip("\r\n") for ln in python_lines(text)]

    # -- precise positions (error path) ---------------------------------------------------------
    def positions(self) -> Any:
        """Position metadata of every node of the module, resolved once, on first request."""
        if self._positions is None:
            wrapper = MetadataWrapper(self.module, unsafe_skip_copy=True)
            self._positions = wrapper.resolve(PositionProvider)
        return self._positions

    def statement_positions(self) -> StatementPositions:
        """Cheap positions of STATEMENTS only (from CPython's `ast`), with the `.get(node)` /
        `[node]` interface of LibCST's position metadata; no full-tree resolution."""
        return StatementPositions(self)

    def span_of(self, node: cst.CSTNode) -> Span:
        rng: CodeRange | None = self.positions().get(node)
        if rng is None:
            return self.stmt_span(node)
        return Span(self.filename, rng.start.line, rng.start.column + 1, rng.end.line,
                    rng.end.column + 1)

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

    # -- cheap statement spans (happy path) -----------------------------------------------------
    def stmt_span(self, node: cst.CSTNode) -> Span:
        spans = self._stmt_spans
        if spans is None:
            # Read off the text when the walk follows the file (no second parse), else from `ast`.
            spans = text_statement_spans(self.filename, self.text, self.module)
            if spans is None:
                spans = self.ast_statement_spans()
            self._stmt_spans = spans
        return spans.get(id(node), UNKNOWN_SPAN)

    def ast_statement_spans(self) -> dict[int, Span]:
        """Statement spans from CPython's `ast`, paired with the CST statements (the reference
        the text walk of lowering/frontend/spans.py must agree with)."""
        self._stmt_spans = {}
        try:
            tree = ast.parse(self.text)
        except SyntaxError:
            return self._stmt_spans
        self._pair(list(self.module.body), tree.body)
        return self._stmt_spans

    def _span(self, a: ast.stmt) -> Span:
        line = a.lineno
        text = self._lines[line - 1] if 0 < line <= len(self._lines) else ""
        col = len(text.encode()[:a.col_offset].decode(errors="ignore")) + 1
        end_line = a.end_lineno or line
        etext = self._lines[end_line - 1] if 0 < end_line <= len(self._lines) else ""
        end_col = len(etext.encode()[:a.end_col_offset or 0].decode(errors="ignore")) + 1
        return Span(self.filename, line, col, end_line, end_col)

    def _pair(self, stmts: Sequence[cst.CSTNode], asts: list[ast.stmt]) -> None:
        spans = self._stmt_spans
        assert spans is not None
        i = 0
        for s in stmts:
            if isinstance(s, cst.SimpleStatementLine):
                if i < len(asts):
                    spans[id(s)] = self._span(asts[i])
                for small in s.body:
                    if i >= len(asts):
                        return
                    spans[id(small)] = self._span(asts[i])
                    i += 1
                continue
            if i >= len(asts):
                return
            a = asts[i]
            i += 1
            spans[id(s)] = self._span(a)
            self._pair_compound(s, a)

    def _pair_compound(self, s: cst.CSTNode, a: ast.stmt) -> None:
        body = getattr(s, "body", None)
        ab = getattr(a, "body", None)
        if isinstance(body, cst.BaseSuite) and isinstance(ab, list):
            self._pair(_suite(body), ab)
        orelse = getattr(s, "orelse", None)
        ao = getattr(a, "orelse", None)
        if orelse is not None and isinstance(ao, list):
            if isinstance(orelse, cst.If):
                self._pair([orelse], ao)
            elif isinstance(orelse, cst.Else):
                self._pair(_suite(orelse.body), ao)


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


def _suite(body: cst.BaseSuite) -> list[cst.CSTNode]:
    if isinstance(body, cst.IndentedBlock):
        return list(body.body)
    if isinstance(body, cst.SimpleStatementSuite):
        # `if c: a; b` has no SimpleStatementLine: pair the small statements one by one.
        return list(body.body)
    return []


_CACHE: dict[tuple[str, int], SourceFile] = {}


def source_file(filename: str, text: str, module: cst.Module | None = None) -> SourceFile:
    """The parsed file, parsed once per (filename, text). `module`, when given, is the caller's
    own `libcst.parse_module(text)`, used instead of parsing again when the file is not cached
    (the benchmark lowers the trees its timed parse made)."""
    key = (filename, hash(text))
    src = _CACHE.get(key)
    if src is None or src.text != text:
        src = SourceFile(filename, text, module)
        if len(_CACHE) > 64:
            _CACHE.clear()
        _CACHE[key] = src
    return src


def forget_sources() -> None:
    """Drop every cached parse (their LibCST trees are large; the next lowering re-parses)."""
    _CACHE.clear()
