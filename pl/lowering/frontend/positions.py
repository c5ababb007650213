"""Where each LibCST node of a file is: the frontend's one position system, read off CPython's `ast`.

Guarantees: `Positions(filename, text, module, tree)` locates the nodes of `module` (LibCST's parse
of `text`) with `tree` (CPython's parse of the same text, lowering/source/python.py), by walking
the two trees in step: no codegen, no tokenizer, no second parse.
- `statement(node)` is the span of a statement (a small statement, a simple statement line, a
  compound statement from its keyword to the end of its last body statement, an `elif`), or
  UNKNOWN_SPAN for any other node. The statements are paired on the first request, in one walk
  of the statement trees (the happy path: every IR statement gets its span from here).
- `node(node)` is the span of any node: statements as above; expressions, arguments, parameters,
  decorators, `else` clauses, operators, names of defs and classes where `ast` or the text next to
  them gives the place (what LibCST's own position metadata would give, except that a
  parenthesised expression starts at its first token inside the brackets); any other node gets
  the span of the nearest enclosing node that has one. Paired on the first request for a node that
  is not a statement (the error path, and a memory space a statement writes), in one walk of the
  statements and their parts; the nodes left without a span are given their parent's on the
  first request for one of them, in one walk of the whole tree.
- Spans are in the coordinates of the user's text: 1-based line, 1-based character column
  (`ast`'s UTF-8 byte offsets are converted), end exclusive. Lines are numbered where Python
  numbers them (`\\n`, `\\r\\n`, `\\r`); a form feed or a tab is one column. `text` is what
  was parsed, `python_view(user)` (lowering/source/python.py); where a line of it differs from
  the user's (a form feed in the indentation, a name NFKC changes), columns are mapped back.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from typing import Any

import libcst as cst
from typing_extensions import assert_never

from pl.errors import python_lines
from pl.ir.span import UNKNOWN_SPAN, Span
from pl.lowering.source.python import UserLines

# Between two tokens there are only spaces, brackets, line continuations and comments (no strings).
_COMMENT = re.compile(r"#[^\r\n]*")
_DEF_NAME = re.compile(r"(?:async[ \t\f\\\r\n]+)?(?:def|class)[ \t\f\\\r\n]+(\w+)")

# The ast fields holding a compound statement's clauses of statements, by LibCST's name for them.
_CLAUSE_BODIES = ("body", "orelse", "finalbody")

# LibCST's compound statements, closed: a `match` over `compound_kind(node)` ending in
# `case _: assert_never(...)` names each one (tests/test_exhaustive.py checks that this union lists
# every subclass of cst.BaseCompoundStatement of the installed LibCST).
CompoundKind = (cst.If | cst.For | cst.While | cst.With | cst.Try | cst.TryStar | cst.FunctionDef
                | cst.ClassDef | cst.Match)


def compound_kind(node: cst.BaseCompoundStatement) -> CompoundKind:
    """`node` typed as the union of LibCST's compound statements."""
    return node  # type: ignore[return-value]


class Positions:
    """The spans of one file's LibCST nodes (see the module doc)."""

    def __init__(self, filename: str, text: str, module: cst.Module, tree: ast.Module,
                 user: str | None = None) -> None:
        """`user`: the user's text when `text`, its python_view, differs from it."""
        self.filename = filename
        self.text = text
        self.module = module
        self.tree = tree
        self._lines = [ln.rstrip("\r\n") for ln in python_lines(text)]
        self._ascii = text.isascii()  # then a byte offset is a character offset on every line
        self._user = None if user is None else UserLines(user, text)
        self._statements: dict[int, Span] | None = None
        self._nodes: dict[int, Span] | None = None
        self._filled = False  # whether `_nodes` holds every node (`node`)
        self._starts: list[int] = []  # offset of each line in `text` (the error path only)

    # -- queries ---------------------------------------------------------------------------------
    def statement(self, node: cst.CSTNode) -> Span:
        if self._statements is None:
            self._statements = {}
            _Pairing(self, self._statements, deep=False).statements(self.module.body,
                                                                     self.tree.body)
        span = self._statements.get(id(node), UNKNOWN_SPAN)
        return span if self._user is None else self._user.span(span)

    def node(self, node: cst.CSTNode) -> Span:
        span = self.statement(node)
        if span.line > 0:
            return span
        if self._nodes is None:
            self._nodes = {}
            offset = 0
            for ln in python_lines(self.text):
                self._starts.append(offset)
                offset += len(ln)
            _Pairing(self, self._nodes, deep=True).statements(self.module.body, self.tree.body)
        found = self._nodes.get(id(node))
        if found is None and not self._filled:
            # A node the pairing gave no span of its own (the rarer error path): every such
            # node of the tree takes its parent's, in one walk (LibCST's `children` is dear:
            # the spaces a statement writes ask only for nodes the pairing places).
            self._filled = True
            _Pairing(self, self._nodes, deep=True).fill(self.module)
            found = self._nodes.get(id(node))
        span = UNKNOWN_SPAN if found is None else found
        return span if self._user is None else self._user.span(span)

    # -- coordinates -----------------------------------------------------------------------------
    def col(self, line: int, byte_offset: int) -> int:
        """The 1-based character column of a UTF-8 byte offset in `line`."""
        text = self._lines[line - 1] if 0 < line <= len(self._lines) else ""
        if text.isascii():
            return byte_offset + 1
        return len(text.encode()[:byte_offset].decode(errors="ignore")) + 1

    def span(self, a: Any) -> Span:
        """The span `ast` gives node `a` (a statement, expression, argument, keyword or alias)."""
        line = a.lineno
        end_line = a.end_lineno or line
        if self._ascii:
            return Span(self.filename, line, a.col_offset + 1, end_line,
                        (a.end_col_offset or 0) + 1)
        return Span(self.filename, line, self.col(line, a.col_offset), end_line,
                    self.col(end_line, a.end_col_offset or 0))

    def offset(self, line: int, col: int) -> int:
        return self._starts[line - 1] + col - 1 if 0 < line <= len(self._starts) else len(self.text)

    def at(self, offset: int, length: int) -> Span:
        """The span of `length` characters from `offset` (one token: no line break inside)."""
        line = max(1, _bisect(self._starts, offset))
        col = offset - self._starts[line - 1] + 1
        return Span(self.filename, line, col, line, col + length)

    def find(self, token: str, start: Span, end: Span, last: bool = False) -> Span | None:
        """The first (or `last`) `token` between the end of `start` and the start of `end`, where
        only spaces, brackets, continuations, comments, keywords and names can be (a word is
        found as a whole word)."""
        lo, hi = self.offset(start.end_line, start.end_col), self.offset(end.line, end.col)
        gap = _COMMENT.sub(lambda m: " " * len(m.group(0)), self.text[lo:hi])
        pattern = rf"\b{re.escape(token)}\b" if token.isidentifier() else re.escape(token)
        found = list(re.finditer(pattern, gap)) if last else [re.search(pattern, gap)]
        at = found[-1] if found else None
        return None if at is None else self.at(lo + at.start(), len(token))


def _bisect(starts: list[int], offset: int) -> int:
    """The 1-based number of the line holding `offset`."""
    lo, hi = 0, len(starts)
    while lo < hi:
        mid = (lo + hi) // 2
        if starts[mid] <= offset:
            lo = mid + 1
        else:
            hi = mid
    return lo


def _join(first: Span, last: Span) -> Span:
    return Span(first.filename, first.line, first.col, last.end_line, last.end_col)


def _suite(body: cst.BaseSuite) -> Sequence[cst.CSTNode]:
    # `if c: a; b` is a SimpleStatementSuite of small statements: they pair one by one.
    return body.body if isinstance(body, cst.IndentedBlock | cst.SimpleStatementSuite) else ()


class _Pairing:
    """One walk of a LibCST tree in step with CPython's tree of the same text, filling `spans`
    (id of a LibCST node -> span). `deep`: also the parts of statements (the error path)."""

    def __init__(self, pos: Positions, spans: dict[int, Span], deep: bool) -> None:
        self.pos = pos
        self.spans = spans
        self.deep = deep

    def put(self, c: cst.CSTNode | None, span: Span | None) -> None:
        if c is not None and span is not None:
            self.spans[id(c)] = span

    def dotted_name(self, pos: Positions, node: cst.BaseExpression, span: Span) -> None:
        """`a.b.c` of an import, at `span`: each name where the text has it, each attribute from
        the first name to its own last one (ast keeps the dotted name as one string)."""
        self.put(node, span)
        chain: list[cst.Attribute] = []
        while isinstance(node, cst.Attribute):
            chain.append(node)
            node = node.value
        if not isinstance(node, cst.Name):
            return
        after, end = _start(span), _end(span)
        first = None
        for name, attr in [(node, None), *((a.attr, a) for a in reversed(chain))]:
            found = pos.find(name.value, after, end)
            if found is None:
                return
            first = first or found
            self.put(name, found)
            if attr is not None:
                self.put(attr, Span(span.filename, first.line, first.col, found.end_line, found.end_col))
            after = found

    def fill(self, root: cst.CSTNode) -> None:
        """Every node under `root` that the pairing gave no span gets its parent's span."""
        spans = self.spans
        stack: list[tuple[cst.CSTNode, Span]] = [(root, spans.get(id(root), UNKNOWN_SPAN))]
        while stack:
            node, inherited = stack.pop()
            own = spans.setdefault(id(node), inherited)
            stack.extend((child, own) for child in node.children)

    # -- statements ------------------------------------------------------------------------------
    def statements(self, stmts: Sequence[cst.CSTNode], asts: Sequence[ast.stmt]) -> None:
        i, n = 0, len(asts)
        for s in stmts:
            if i >= n:
                return
            if type(s) is cst.SimpleStatementLine:
                assert isinstance(s, cst.SimpleStatementLine)
                # The line's span is its first statement's. A small statement is never compound:
                # it has no clauses to pair (`statement` would find none).
                span = line = self.pos.span(asts[i])
                self.spans[id(s)] = line
                for k, small in enumerate(s.body):
                    if i >= n:
                        return
                    if k:
                        span = self.pos.span(asts[i])
                    self.spans[id(small)] = span
                    if self.deep:
                        self.parts(small, asts[i], span)
                    i += 1
                continue
            self.statement(s, asts[i])
            i += 1

    def statement(self, c: cst.CSTNode, a: ast.stmt) -> None:
        span = self.pos.span(a)
        self.spans[id(c)] = span
        if self.deep:
            self.parts(c, a, span)
        if not isinstance(c, cst.BaseCompoundStatement):
            return
        kind = compound_kind(c)
        match kind:
            case cst.If():
                if isinstance(a, ast.If):
                    self.if_(kind, a, span)
                else:
                    self.clauses(kind, a, span)
            case cst.For() | cst.While() | cst.With() | cst.FunctionDef() | cst.ClassDef() \
                    | cst.TryStar():
                self.clauses(kind, a, span)
            case cst.Try():
                self.clauses(kind, a, span)
                if isinstance(a, ast.Try):
                    self.handlers(kind, a)
            case cst.Match():
                self.clauses(kind, a, span)
                if isinstance(a, ast.Match):
                    for cc, ac in zip(kind.cases, a.cases, strict=False):
                        self.statements(_suite(cc.body), ac.body)
            case _:
                assert_never(kind)

    def clauses(self, c: cst.BaseCompoundStatement, a: ast.stmt, span: Span) -> None:
        for field in _CLAUSE_BODIES:
            self.clause(getattr(c, field, None), getattr(a, field, None), span)

    def handlers(self, c: cst.Try, a: ast.Try) -> None:
        for ch, ah in zip(c.handlers, a.handlers, strict=False):
            self.put(ch, self.pos.span(ah))
            self.statements(_suite(ch.body), ah.body)
            if self.deep and ch.type is not None and ah.type is not None:
                self.expr(ch.type, ah.type)
                if ch.name is not None and ah.name is not None and ah.body:
                    name = self.pos.find(ah.name, self.pos.span(ah.type),
                                         self.pos.span(ah.body[0]))
                    self.put(ch.name.name, name)

    def if_(self, c: cst.If, a: ast.If, span: Span) -> None:
        self.statements(_suite(c.body), a.body)
        if isinstance(c.orelse, cst.If) and len(a.orelse) == 1 and isinstance(a.orelse[0], ast.If):
            self.statement(c.orelse, a.orelse[0])  # `elif`
        else:
            self.clause(c.orelse, a.orelse, span)

    def clause(self, c: Any, a: Any, span: Span) -> None:
        """A clause of statements: a suite, an `else:` or a `finally:` with its ast list."""
        if not isinstance(a, list) or not a:
            return
        if isinstance(c, cst.BaseSuite):
            self.statements(_suite(c), a)
        elif isinstance(c, cst.Else | cst.Finally):
            self.statements(_suite(c.body), a)
            if self.deep:  # from its keyword, found before its first statement
                first = self.pos.span(a[0])
                keyword = "else" if isinstance(c, cst.Else) else "finally"
                head = self.pos.find(keyword, _start(span), first, last=True)
                last = self.pos.span(a[-1])
                self.put(c, _join(head, last) if head is not None else _join(first, last))

    # -- the parts of a statement (error path) ---------------------------------------------------
    def parts(self, c: cst.CSTNode, a: ast.stmt, span: Span) -> None:
        pos = self.pos
        if isinstance(c, cst.Expr) and isinstance(a, ast.Expr):
            self.expr(c.value, a.value)
        elif isinstance(c, cst.Assign) and isinstance(a, ast.Assign):
            for ct, at in zip(c.targets, a.targets, strict=False):
                self.put(ct, pos.span(at))
                self.expr(ct.target, at)
            self.expr(c.value, a.value)
        elif isinstance(c, cst.AnnAssign) and isinstance(a, ast.AnnAssign):
            self.expr(c.target, a.target)
            self.annotation(c.annotation, a.annotation)
            if c.value is not None and a.value is not None:
                self.expr(c.value, a.value)
        elif isinstance(c, cst.AugAssign) and isinstance(a, ast.AugAssign):
            self.expr(c.target, a.target)
            self.expr(c.value, a.value)
            self.operator(c.operator, pos.span(a.target), pos.span(a.value))
        elif isinstance(c, cst.Return) and isinstance(a, ast.Return):
            if c.value is not None and a.value is not None:
                self.expr(c.value, a.value)
        elif isinstance(c, cst.Raise) and isinstance(a, ast.Raise):
            if c.exc is not None and a.exc is not None:
                self.expr(c.exc, a.exc)
            if c.cause is not None and a.cause is not None:
                self.expr(c.cause.item, a.cause)
        elif isinstance(c, cst.Del) and isinstance(a, ast.Delete):
            if len(a.targets) == 1:
                self.expr(c.target, a.targets[0])
        elif isinstance(c, cst.Global | cst.Nonlocal) and isinstance(a, ast.Global | ast.Nonlocal):
            after = _start(span)
            for name in c.names:  # ast keeps the names as strings: found in turn in the text
                found = pos.find(name.name.value, after, Span(span.filename, span.end_line,
                                                                span.end_col))
                if found is not None:
                    self.put(name, found)
                    self.put(name.name, found)
                    after = found
        elif isinstance(c, cst.Assert) and isinstance(a, ast.Assert):
            self.expr(c.test, a.test)
            if c.msg is not None and a.msg is not None:
                self.expr(c.msg, a.msg)
        elif isinstance(c, cst.Import | cst.ImportFrom) and isinstance(a, ast.Import | ast.ImportFrom):
            if not isinstance(c.names, cst.ImportStar):
                for ca, aa in zip(c.names, a.names, strict=False):
                    self.put(ca, pos.span(aa))
                    whole, dotted = pos.span(aa), _prefix(pos.span(aa), len(aa.name))
                    self.dotted_name(pos, ca.name, dotted)
                    if ca.asname is not None and isinstance(ca.asname.name, cst.Name):
                        self.put(ca.asname.name, pos.find(ca.asname.name.value, dotted, _end(whole)))
        elif isinstance(c, cst.FunctionDef | cst.ClassDef) and \
                isinstance(a, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            self.definition(c, a, span)
        elif isinstance(c, cst.If | cst.While) and isinstance(a, ast.If | ast.While):
            self.expr(c.test, a.test)
        elif isinstance(c, cst.Match) and isinstance(a, ast.Match):
            self.expr(c.subject, a.subject)
        elif isinstance(c, cst.For) and isinstance(a, ast.For | ast.AsyncFor):
            self.expr(c.target, a.target)
            self.expr(c.iter, a.iter)
        elif isinstance(c, cst.With) and isinstance(a, ast.With | ast.AsyncWith):
            for ci, ai in zip(c.items, a.items, strict=False):
                self.expr(ci.item, ai.context_expr)
                item = pos.span(ai.context_expr)
                if ci.asname is not None and ai.optional_vars is not None:
                    target = pos.span(ai.optional_vars)
                    self.expr(ci.asname.name, ai.optional_vars)
                    head = pos.find("as", item, target)
                    self.put(ci.asname, _join(head or target, target))
                    item = _join(item, target)
                self.put(ci, item)

    def definition(self, c: cst.FunctionDef | cst.ClassDef,
                   a: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef, span: Span) -> None:
        pos = self.pos
        m = _DEF_NAME.match(pos.text, pos.offset(span.line, span.col))
        if m is not None:
            self.put(c.name, pos.at(m.start(1), len(m.group(1))))
        if isinstance(c, cst.FunctionDef) and c.asynchronous is not None:
            self.put(c.asynchronous, _prefix(span, len("async")))
        for cd, ad in zip(c.decorators, a.decorator_list, strict=False):
            self.expr(cd.decorator, ad)
            expr = pos.span(ad)
            at = pos.find("@", _line_start(expr), expr, last=True)
            self.put(cd, _join(at or expr, expr))
        if isinstance(c, cst.ClassDef) and isinstance(a, ast.ClassDef):
            self.arguments([*c.bases, *c.keywords], [*a.bases, *a.keywords])
            return
        assert isinstance(c, cst.FunctionDef) and not isinstance(a, ast.ClassDef)
        if c.returns is not None and a.returns is not None:
            self.annotation(c.returns, a.returns)
        self.parameters(c.params, a.args)

    def parameters(self, c: cst.Parameters, a: ast.arguments) -> None:
        star_arg = c.star_arg if isinstance(c.star_arg, cst.Param) else None
        cparams = [*c.posonly_params, *c.params, *([star_arg] if star_arg else []), *c.kwonly_params,
                   *([c.star_kwarg] if c.star_kwarg else [])]
        aparams = [*a.posonlyargs, *a.args, *([a.vararg] if a.vararg else []), *a.kwonlyargs,
                   *([a.kwarg] if a.kwarg else [])]
        extent: list[Span] = []  # every part of the parameter list
        for cp, ap in zip(cparams, aparams, strict=False):
            whole = self.pos.span(ap)
            name = _prefix(whole, len(ap.arg))
            star = self.pos.find(cp.star, _line_start(name), name, last=True) \
                if isinstance(cp.star, str) and cp.star else None  # `*args`, `**kwargs`
            self.put(cp, _join(star, name) if star is not None else name)
            self.put(cp.name, name)
            extent += [name, whole]
            if cp.annotation is not None and ap.annotation is not None:
                self.annotation(cp.annotation, ap.annotation)
        cdefaults = [p.default for p in [*c.posonly_params, *c.params] if p.default is not None]
        kw_defaults = [(ck.default, ak) for ck, ak in zip(c.kwonly_params, a.kw_defaults,
                                                           strict=False)]
        for cd, ad in [*zip(cdefaults, a.defaults, strict=False), *kw_defaults]:
            if cd is not None and ad is not None:
                self.expr(cd, ad)
                extent.append(self.pos.span(ad))
        if extent:
            first = min(extent, key=lambda s: (s.line, s.col))
            last = max(extent, key=lambda s: (s.end_line, s.end_col))
            self.put(c, _join(first, last))

    def annotation(self, c: cst.Annotation, a: ast.expr) -> None:
        self.put(c, self.pos.span(a))
        self.expr(c.annotation, a)

    def arguments(self, cargs: Sequence[cst.Arg], aargs: Sequence[ast.expr | ast.keyword]) -> None:
        """A call's (or class's) arguments, in source order on both sides."""
        ordered = sorted(aargs, key=lambda x: (x.lineno, x.col_offset))
        for ca, aa in zip(cargs, ordered, strict=False):
            self.put(ca, self.pos.span(aa))
            if isinstance(aa, ast.keyword):
                self.expr(ca.value, aa.value)
                if ca.keyword is not None and aa.arg is not None:
                    self.put(ca.keyword, _prefix(self.pos.span(aa), len(aa.arg)))
            elif isinstance(aa, ast.Starred):
                self.expr(ca.value, aa.value)
            else:
                self.expr(ca.value, aa)

    def operator(self, c: cst.CSTNode, left: Span, right: Span) -> None:
        """An operator between two operands (ast gives operators no place): from its first word
        to its last (`not in`, `is not`), found between them."""
        words = _words(c)
        first = self.pos.find(words[0], left, right) if words else None
        if first is None:
            return
        last = self.pos.find(words[-1], first, right) if len(words) > 1 else first
        self.put(c, _join(first, last or first))

    # -- expressions -----------------------------------------------------------------------------
    def expr(self, c: cst.CSTNode, a: ast.expr) -> None:
        pos = self.pos
        span = pos.span(a)
        self.put(c, span)
        if isinstance(c, cst.Attribute) and isinstance(a, ast.Attribute):
            self.expr(c.value, a.value)
            self.put(c.attr, Span(span.filename, span.end_line, span.end_col - len(a.attr),
                                  span.end_line, span.end_col))
        elif isinstance(c, cst.Call) and isinstance(a, ast.Call):
            self.expr(c.func, a.func)
            self.arguments(c.args, [*a.args, *a.keywords])
        elif isinstance(c, cst.Subscript) and isinstance(a, ast.Subscript):
            self.expr(c.value, a.value)
            one = len(c.slice) == 1 and c.slice[0].comma is cst.MaybeSentinel.DEFAULT
            if one:
                self.subscript(c.slice[0], a.slice)
            elif isinstance(a.slice, ast.Tuple):
                for ce, ae in zip(c.slice, a.slice.elts, strict=False):
                    self.subscript(ce, ae)
        elif isinstance(c, cst.BinaryOperation) and isinstance(a, ast.BinOp):
            self.expr(c.left, a.left)
            self.expr(c.right, a.right)
            self.operator(c.operator, pos.span(a.left), pos.span(a.right))
        elif isinstance(c, cst.UnaryOperation) and isinstance(a, ast.UnaryOp):
            self.expr(c.expression, a.operand)
            words = _words(c.operator)
            if words:
                self.put(c.operator, _prefix(span, len(words[0])))
        elif isinstance(c, cst.BooleanOperation) and isinstance(a, ast.BoolOp):
            self.boolean(c, a)
        elif isinstance(c, cst.Comparison) and isinstance(a, ast.Compare):
            self.expr(c.left, a.left)
            before = pos.span(a.left)
            for ct, ac in zip(c.comparisons, a.comparators, strict=False):
                self.expr(ct.comparator, ac)
                after = pos.span(ac)
                self.operator(ct.operator, before, after)
                op = self.spans.get(id(ct.operator))
                self.put(ct, _join(op or after, after))
                before = after
        elif isinstance(c, cst.Tuple | cst.List | cst.Set) and isinstance(a, ast.Tuple | ast.List | ast.Set):
            for item, ae in zip(c.elements, a.elts, strict=False):
                self.element(item, ae)
        elif isinstance(c, cst.Dict) and isinstance(a, ast.Dict):
            for entry, ak, av in zip(c.elements, a.keys, a.values, strict=False):
                if isinstance(entry, cst.DictElement) and ak is not None:
                    self.expr(entry.key, ak)
                    self.expr(entry.value, av)
                    self.put(entry, _join(pos.span(ak), pos.span(av)))
                elif isinstance(entry, cst.StarredDictElement):
                    self.expr(entry.value, av)
        elif isinstance(c, cst.IfExp) and isinstance(a, ast.IfExp):
            self.expr(c.body, a.body)
            self.expr(c.test, a.test)
            self.expr(c.orelse, a.orelse)
        elif isinstance(c, cst.NamedExpr) and isinstance(a, ast.NamedExpr):
            self.expr(c.target, a.target)
            self.expr(c.value, a.value)
        elif isinstance(c, cst.Lambda) and isinstance(a, ast.Lambda):
            self.parameters(c.params, a.args)
            self.expr(c.body, a.body)
        elif isinstance(c, cst.ListComp | cst.SetComp | cst.GeneratorExp) and \
                isinstance(a, ast.ListComp | ast.SetComp | ast.GeneratorExp):
            self.expr(c.elt, a.elt)
            self.comprehension(c.for_in, a.generators)
        elif isinstance(c, cst.DictComp) and isinstance(a, ast.DictComp):
            self.expr(c.key, a.key)
            self.expr(c.value, a.value)
            self.comprehension(c.for_in, a.generators)
        elif isinstance(c, cst.Yield) and isinstance(a, ast.Yield | ast.YieldFrom):
            value = c.value.item if isinstance(c.value, cst.From) else c.value
            if value is not None and a.value is not None:
                self.expr(value, a.value)
        elif isinstance(c, cst.Await) and isinstance(a, ast.Await):
            self.expr(c.expression, a.value)
        elif isinstance(c, cst.StarredElement) and isinstance(a, ast.Starred):
            self.expr(c.value, a.value)

    def comprehension(self, c: cst.CompFor | None, generators: list[ast.comprehension]) -> None:
        """`for target in iter if cond ...` clauses: LibCST chains them, ast lists them."""
        for g in generators:
            if c is None:
                return
            self.expr(c.target, g.target)
            self.expr(c.iter, g.iter)
            for ci, ai in zip(c.ifs, g.ifs, strict=False):
                self.expr(ci.test, ai)
                self.put(ci, self.pos.span(ai))
            self.put(c, _join(self.pos.span(g.target), self.pos.span(g.ifs[-1] if g.ifs else g.iter)))
            c = c.inner_for_in

    def element(self, c: cst.BaseElement, a: ast.expr) -> None:
        """An element of a tuple, list or set (`*x` pairs with ast's Starred)."""
        self.put(c, self.pos.span(a))
        if isinstance(c, cst.StarredElement) and isinstance(a, ast.Starred):
            self.expr(c.value, a.value)
        else:
            self.expr(c.value, a)

    def subscript(self, c: cst.SubscriptElement, a: ast.expr) -> None:
        self.put(c, self.pos.span(a))
        self.put(c.slice, self.pos.span(a))
        if isinstance(c.slice, cst.Index):
            self.expr(c.slice.value, a)
        elif isinstance(c.slice, cst.Slice) and isinstance(a, ast.Slice):
            for cpart, apart in ((c.slice.lower, a.lower), (c.slice.upper, a.upper),
                                 (c.slice.step, a.step)):
                if cpart is not None and apart is not None:
                    self.expr(cpart, apart)

    def boolean(self, c: cst.BooleanOperation, a: ast.BoolOp) -> None:
        """LibCST nests `a and b and c` to the left; ast lists its operands: `values`."""
        chain = [c]
        while isinstance(chain[-1].left, cst.BooleanOperation) and not chain[-1].left.lpar \
                and type(chain[-1].left.operator) is type(c.operator):
            chain.append(chain[-1].left)
        chain.reverse()  # innermost first: chain[k] joins values[0 .. k + 1]
        if len(chain) + 1 != len(a.values):
            return
        self.expr(chain[0].left, a.values[0])
        first = self.pos.span(a.values[0])
        for k, node in enumerate(chain):
            right = a.values[k + 1]
            self.expr(node.right, right)
            self.put(node, _join(first, self.pos.span(right)))
            self.operator(node.operator, self.pos.span(a.values[k]), self.pos.span(right))


def _words(operator: cst.CSTNode) -> list[str]:
    """The words of an operator as written (`+`, `not in`), without its spaces and comments."""
    return _COMMENT.sub(" ", cst.Module([]).code_for_node(operator)).split()


def _prefix(span: Span, length: int) -> Span:
    """The first `length` characters of `span` (a name at its start)."""
    return Span(span.filename, span.line, span.col, span.line, span.col + length)


def _line_start(span: Span) -> Span:
    """The empty span where `span`'s first line starts."""
    return Span(span.filename, span.line, 1, span.line, 1)


def _end(span: Span) -> Span:
    """The empty span where `span` ends."""
    return Span(span.filename, span.end_line, span.end_col, span.end_line, span.end_col)


def _start(span: Span) -> Span:
    """The empty span where `span` starts."""
    return Span(span.filename, span.line, span.col, span.line, span.col)
