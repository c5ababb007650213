"""Statement spans read off the text, walking the CST in step: no second parse of the file.

Guarantees: `text_statement_spans(filename, text, module)` returns, keyed by `id` of the CST node,
the span CPython's `ast` gives every statement that `SourceFile`'s ast pairing gives one to (a
simple statement line and its one small statement; `def` / `class` / `if` / `elif` / `for` /
`while` / `with`, from their keyword to the end of their last body statement; 1-based lines and
character columns, end exclusive, trailing comments excluded), or None when the file uses a form
this walk does not follow (`;`-separated statements, one-line suites, backslash continuations,
try / match / async blocks, line breaks other than `\\n`, ...). The caller then uses `ast`.

How: LibCST gives every physical line to exactly one owner, in order: a blank or comment line is
an `EmptyLine` node (leading lines, block footers, ...), every other line belongs to the logical
line of a statement or compound header, whose extent a small tokenizer finds (brackets, strings,
comments; a simple statement that is one plain line, the common case, is read with one regex
match instead). The walk consumes the text in that order and must end exactly at its end, and every
compound header must start with its keyword: a miscount cannot go unnoticed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import libcst as cst

from pl.ir.span import Span

# Tokens that decide where a logical line ends; everything else (names, operators) is skipped.
_TOKEN = re.compile(r"""
    (?P<str> \"\"\"(?:[^"\\]|\\.|"(?!""))*\"\"\" | '''(?:[^'\\]|\\.|'(?!''))*'''
           | "(?:[^"\\\n]|\\.)*" | '(?:[^'\\\n]|\\.)*' )
  | (?P<comment> \#[^\n]* )
  | (?P<open> [(\[{] )
  | (?P<close> [)\]}] )
  | (?P<nl> \n )
  | (?P<other> ["'\\;] )
""", re.VERBOSE | re.DOTALL)

_INDENT = re.compile(r"[ \t]*")

# Characters after which a line needs the tokenizer (strings, comments, `;`, continuations).
_SPECIAL = re.compile(r"[\"'#;\\]")

# Line breaks `ast` or `str.splitlines` count differently from a bare `\n` (and form feeds).
_ODD_BREAKS = re.compile("[\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")

_KEYWORD_END = re.compile(r"[^\w]|$")

# A whole simple statement on one line with none of the `_SPECIAL` characters: its indent, then its
# code up to the line break (possessive indent, so a blank line never matches).
_PLAIN_LINE = re.compile(r"[ \t]*+([^\s\"'#;\\][^\n\"'#;\\]*)(?:\n|\Z)")


def _balanced(segment: str) -> bool:
    """Brackets close on this line (it holds no strings or comments)."""
    return segment.count("(") == segment.count(")") and segment.count("[") == segment.count("]") \
        and segment.count("{") == segment.count("}")


class _Unsupported(Exception):
    """A form the walk does not follow: the caller falls back to `ast`."""


def text_statement_spans(filename: str, text: str, module: cst.Module) -> dict[int, Span] | None:
    """The statement spans of `module` (parsed from `text`), or None (see the module docstring)."""
    if _ODD_BREAKS.search(text):
        return None
    walk = _Walk(filename, text)
    try:
        walk.skip(module.header)
        for s in module.body:
            walk.statement(s)
        walk.skip(module.footer)
    except _Unsupported:
        return None
    if walk.pos != len(text):
        return None
    return walk.spans


class _Walk:
    def __init__(self, filename: str, text: str) -> None:
        self.filename = filename
        self.text = text
        self.pos = 0    # offset of the first character not yet consumed (a line start)
        self.line = 1   # its line number
        self.spans: dict[int, Span] = {}

    # -- lines ----------------------------------------------------------------------------------
    def skip(self, lines: Sequence[cst.EmptyLine]) -> None:
        """Consume one blank or comment line per EmptyLine node."""
        text = self.text
        for _ in range(len(lines)):
            if self.pos >= len(text):
                raise _Unsupported
            nl = text.find("\n", self.pos)
            self.pos = len(text) if nl < 0 else nl + 1
            self.line += 1

    def plain_line(self) -> Span | None:
        """Consume a simple statement that is one plain line (the common case: no strings,
        comments, `;`, continuations or open brackets); its span. None (nothing consumed) for any
        other line: `logical_line` handles it."""
        m = _PLAIN_LINE.match(self.text, self.pos)
        if m is None:
            return None
        code = m.group(1)
        if "[" in code or "{" in code:
            if not _balanced(code):
                return None
        elif code.count("(") != code.count(")"):  # `_balanced` for a line of parentheses only
            return None
        line, col = self.line, m.start(1) - self.pos + 1
        self.pos = m.end()
        self.line += 1
        return Span(self.filename, line, col, line, col + len(code.rstrip(" \t")))

    def logical_line(self, keyword: str | None) -> Span:
        """Consume one logical line; its span, without the comment. `keyword`: what it must start
        with (a compound header), or None for a simple statement."""
        text = self.text
        first = _INDENT.match(text, self.pos).end()  # type: ignore[union-attr]
        if keyword is not None:
            if not text.startswith(keyword, first) or (
                    keyword != "@" and not _KEYWORD_END.match(text, first + len(keyword))):
                raise _Unsupported
        elif first >= len(text) or text[first] in "#\n":
            raise _Unsupported
        line, col = self.line, first - self.pos + 1
        nl = text.find("\n", first)
        if nl < 0:
            nl = len(text)
        if not _SPECIAL.search(text, first, nl):
            segment = text[first:nl]
            if _balanced(segment):  # the common one-line statement: no tokenizing
                self.pos = min(nl + 1, len(text))
                self.line += 1
                return Span(self.filename, line, col, line, col + len(segment.rstrip(" \t")))
        depth = 0
        line_start = self.pos
        comment_at = -1
        end = len(text)
        for m in _TOKEN.finditer(text, first):
            kind = m.lastgroup
            if kind == "nl":
                if depth == 0:
                    end = m.start()
                    break
                self.line += 1
                line_start = m.end()
                comment_at = -1
            elif kind == "open":
                depth += 1
            elif kind == "close":
                depth -= 1
                if depth < 0:
                    raise _Unsupported
            elif kind == "comment":
                comment_at = m.start()
            elif kind == "str":
                breaks = text.count("\n", m.start(), m.end())
                if breaks:
                    self.line += breaks
                    line_start = text.rfind("\n", 0, m.end()) + 1
            else:  # `;`, a backslash continuation, or a quote that opens no complete string
                raise _Unsupported
        code = text[line_start:comment_at if comment_at >= 0 else end].rstrip(" \t")
        end_line, end_col = self.line, len(code) + 1
        self.pos = min(end + 1, len(text))
        self.line += 1
        return Span(self.filename, line, col, end_line, end_col)

    # -- statements -----------------------------------------------------------------------------
    def statement(self, s: cst.CSTNode) -> Span:
        kind = type(s)
        if kind is cst.SimpleStatementLine:
            assert isinstance(s, cst.SimpleStatementLine)
            if s.leading_lines:
                self.skip(s.leading_lines)
            if len(s.body) != 1:
                raise _Unsupported
            span = self.plain_line() or self.logical_line(None)
            self.spans[id(s.body[0])] = span
        elif kind is cst.FunctionDef or kind is cst.ClassDef:
            assert isinstance(s, cst.FunctionDef | cst.ClassDef)
            if isinstance(s, cst.FunctionDef) and s.asynchronous is not None:
                raise _Unsupported
            self.skip(s.leading_lines)
            for dec in s.decorators:
                self.skip(dec.leading_lines)
                self.logical_line("@")
            self.skip(s.lines_after_decorators)
            span = self.compound(s, "def" if kind is cst.FunctionDef else "class")
        elif kind is cst.If:
            assert isinstance(s, cst.If)
            span = self.if_chain(s, "if")
        elif kind is cst.For or kind is cst.While or kind is cst.With:
            assert isinstance(s, cst.For | cst.While | cst.With)
            if not isinstance(s, cst.While) and s.asynchronous is not None:
                raise _Unsupported
            self.skip(s.leading_lines)
            keyword = "for" if kind is cst.For else "while" if kind is cst.While else "with"
            span = self.compound(s, keyword)
        else:
            raise _Unsupported
        self.spans[id(s)] = span
        return span

    def compound(self, s: cst.FunctionDef | cst.ClassDef | cst.For | cst.While | cst.With,
                 keyword: str) -> Span:
        head = self.logical_line(keyword)
        last = self.block(s.body)
        orelse = getattr(s, "orelse", None)
        if orelse is not None:
            last = self.else_(orelse)
        return Span(self.filename, head.line, head.col, last.end_line, last.end_col)

    def if_chain(self, s: cst.If, keyword: str) -> Span:
        self.skip(s.leading_lines)
        head = self.logical_line(keyword)
        last = self.block(s.body)
        if isinstance(s.orelse, cst.If):
            last = self.if_chain(s.orelse, "elif")
            self.spans[id(s.orelse)] = last
        elif s.orelse is not None:
            last = self.else_(s.orelse)
        return Span(self.filename, head.line, head.col, last.end_line, last.end_col)

    def else_(self, node: cst.Else) -> Span:
        self.skip(node.leading_lines)
        self.logical_line("else")
        return self.block(node.body)

    def block(self, body: cst.BaseSuite) -> Span:
        """Consume an indented block; the span of its last statement."""
        if type(body) is not cst.IndentedBlock:
            raise _Unsupported
        assert isinstance(body, cst.IndentedBlock)
        last = None
        for s in body.body:
            last = self.statement(s)
        if last is None:
            raise _Unsupported
        self.skip(body.footer)
        return last
