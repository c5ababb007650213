"""A specialised code generator for the LibCST trees the printer builds.

Guarantees: `code(node)` equals `libcst.Module([]).code_for_node(node)` and `module_code(m)` equals
`m.code`, for every node. The node kinds the printer builds in bulk (simple statements, calls,
names, subscripts, lists, whitespace, indented blocks, functions and classes) are rendered by the
small functions below, which mirror LibCST's `_codegen_impl` of each kind without its per-node
context managers; any other kind (and any `MaybeSentinel` spelling not mirrored here) is handed
to LibCST itself with the same indentation, so the text is LibCST's by construction. Statement
lists are rendered by loops, so a 20,000-statement body does not deepen the Python stack; a
compound statement's header is rendered by LibCST around a placeholder body, then the real body
is rendered here and spliced in.

Texts of nodes the printer shares (annotations, attributes, subscripts, keyword arguments, line
breaks), of calls and of statement lines are remembered by node identity while a module is
printed, so no shared part is rendered twice and the line wrapper's measured (or derived, see
`remember`) texts are reused by the module's rendering; the memo is emptied when the module is
rendered.
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst
from libcst import MaybeSentinel
from libcst._nodes.internal import CodegenState

__all__ = ["code", "forget", "forget_rendered", "line_code", "module_code", "remember", "rendered", "small_line_code"]

_Gen = Callable[[object, str], str]


def _libcst(node: cst.CSTNode, ind: str) -> str:
    """LibCST's own rendering of `node` at indentation `ind` (the slow, always-right path)."""
    state = CodegenState(default_indent="    ", default_newline="\n")
    if ind:
        state.indent_tokens.append(ind)
    node._codegen(state)
    return "".join(state.tokens)


def _g(node: object, ind: str) -> str:
    f = _GEN.get(type(node))
    if f is None:
        assert isinstance(node, cst.CSTNode)
        return _libcst(node, ind)
    return f(node, ind)


_SW = cst.SimpleWhitespace
_NAME = cst.Name


def _ws(n: object, ind: str) -> str:
    """Whitespace: almost always a SimpleWhitespace, whose text is its value."""
    if type(n) is _SW:
        return n.value
    return _g(n, ind)


def _par(node: cst.BaseExpression, inner: str, ind: str) -> str:
    if not node.lpar and not node.rpar:
        return inner
    return ("".join(_g(p, ind) for p in node.lpar) + inner + "".join(_g(p, ind) for p in node.rpar))


def _sw(n: cst.SimpleWhitespace, ind: str) -> str:
    return n.value


def _pw(n: cst.ParenthesizedWhitespace, ind: str) -> str:
    # The line wrapper shares one node per continuation indentation: render each once.
    hit = _MEMO.get(id(n))
    if hit is not None and hit[0] is n and hit[1] == ind:
        return hit[2]
    out = _trailing(n.first_line, ind) + "".join(_g(e, ind) for e in n.empty_lines)
    return _remember(n, ind, out + (ind if n.indent else "") + _ws(n.last_line, ind))


def _newline(n: cst.Newline, ind: str) -> str:
    return "\n" if n.value is None else n.value


def _trailing(n: cst.TrailingWhitespace, ind: str) -> str:
    comment = "" if n.comment is None else _g(n.comment, ind)
    newline = n.newline
    return _ws(n.whitespace, ind) + comment + ("\n" if newline.value is None else newline.value)


def _empty_line(n: cst.EmptyLine, ind: str) -> str:
    comment = "" if n.comment is None else _g(n.comment, ind)
    return (ind if n.indent else "") + _ws(n.whitespace, ind) + comment + _g(n.newline, ind)


def _comment(n: cst.Comment, ind: str) -> str:
    return n.value


def _comma(n: cst.Comma, ind: str) -> str:
    return _ws(n.whitespace_before, ind) + "," + _ws(n.whitespace_after, ind)


def _dot(n: cst.Dot, ind: str) -> str:
    return _ws(n.whitespace_before, ind) + "." + _ws(n.whitespace_after, ind)


def _assign_equal(n: cst.AssignEqual, ind: str) -> str:
    return _ws(n.whitespace_before, ind) + "=" + _ws(n.whitespace_after, ind)


def _lpar(n: cst.LeftParen | cst.LeftSquareBracket, ind: str) -> str:
    return ("(" if isinstance(n, cst.LeftParen) else "[") + _ws(n.whitespace_after, ind)


def _rpar(n: cst.RightParen | cst.RightSquareBracket, ind: str) -> str:
    return _ws(n.whitespace_before, ind) + (")" if isinstance(n, cst.RightParen) else "]")


def _value_token(n: cst.Name | cst.Integer | cst.Float | cst.SimpleString, ind: str) -> str:
    return _par(n, n.value, ind)


def _attribute(n: cst.Attribute, ind: str) -> str:
    hit = _MEMO.get(id(n))
    if hit is not None and hit[0] is n and hit[1] == ind:
        return hit[2]
    return _remember(n, ind, _par(n, _g(n.value, ind) + _dot(n.dot, ind) + _g(n.attr, ind), ind))


def _arg(n: cst.Arg, default_comma: bool, ind: str) -> str:
    value = n.value
    if type(value) is _NAME and not n.star and n.keyword is None:
        # A plain name passed positionally: the printer's most common argument.
        out = _ws(n.whitespace_after_star, ind) + _par(value, value.value, ind)
    else:
        out = _arg_body(n, ind)
    comma = n.comma
    if comma is MaybeSentinel.DEFAULT:
        if default_comma:
            out += ", "
    elif isinstance(comma, cst.Comma):
        out += _comma(comma, ind)
    ws = n.whitespace_after_arg
    return out + (ws.value if type(ws) is _SW else _g(ws, ind))


def _arg_body(n: cst.Arg, ind: str) -> str:
    """An argument up to its comma; memoised, as the printer shares keyword arguments."""
    hit = _MEMO.get(id(n))
    if hit is not None and hit[0] is n and hit[1] == ind:
        return hit[2]
    out = n.star + _ws(n.whitespace_after_star, ind)
    if n.keyword is not None:
        out += _g(n.keyword, ind)
    if n.equal is MaybeSentinel.DEFAULT and n.keyword is not None:
        out += " = "
    elif isinstance(n.equal, cst.AssignEqual):
        out += _assign_equal(n.equal, ind)
    return _remember(n, ind, out + _g(n.value, ind))


def _call(n: cst.Call, ind: str) -> str:
    args = n.args
    last = len(args) - 1
    parts = [_g(n.func, ind), _ws(n.whitespace_after_func, ind), "(", _ws(n.whitespace_before_args, ind)]
    for i, a in enumerate(args):
        parts.append(_arg(a, i != last, ind))
    parts.append(")")
    # Remembered for the line wrapper, which derives a call's wrapped text from its flat text.
    return _remember(n, ind, _par(n, "".join(parts), ind))


# Rendered texts by node id: of nodes the printer shares across statements (subscripts of type
# annotations, annotations, attributes, keyword arguments, line breaks), of calls and of statement
# lines (measured, or derived, by the line wrapper, then reused by the module's rendering). An entry
# keeps its node alive, so an id is never reused while it is cached. Bounded: when full it is
# emptied, which only costs rendering the forgotten nodes again (about 3 entries per statement).
_MEMO: dict[int, tuple[cst.CSTNode, str, str]] = {}
_MEMO_LIMIT = 1 << 18


def _remember(n: cst.CSTNode, ind: str, text: str) -> str:
    if len(_MEMO) >= _MEMO_LIMIT:
        _MEMO.clear()
    _MEMO[id(n)] = (n, ind, text)
    return text


def _subscript(n: cst.Subscript, ind: str) -> str:
    hit = _MEMO.get(id(n))
    if hit is not None and hit[0] is n and hit[1] == ind:
        return hit[2]
    return _remember(n, ind, _subscript_text(n, ind))


def _subscript_text(n: cst.Subscript, ind: str) -> str:
    last = len(n.slice) - 1
    parts = []
    for i, el in enumerate(n.slice):
        if not isinstance(el.slice, cst.Index):
            return _libcst(n, ind)
        parts.append(_index(el.slice, ind))
        if el.comma is MaybeSentinel.DEFAULT and i != last:
            parts.append(", ")
        elif isinstance(el.comma, cst.Comma):
            parts.append(_comma(el.comma, ind))
    inner = (_g(n.value, ind) + _ws(n.whitespace_after_value, ind) + _lpar(n.lbracket, ind)
             + "".join(parts) + _rpar(n.rbracket, ind))
    return _par(n, inner, ind)


def _index(n: cst.Index, ind: str) -> str:
    out: str = "" if n.star is None else n.star
    if n.whitespace_after_star is not None:
        out += _ws(n.whitespace_after_star, ind)
    return out + _g(n.value, ind)


def _elements(elements: object, ind: str, single_bare_comma: bool) -> str:
    assert isinstance(elements, (list, tuple))
    parts = []
    last = len(elements) - 1
    for i, el in enumerate(elements):
        if not isinstance(el, cst.Element):
            raise _Fallback
        parts.append(_g(el.value, ind))
        if el.comma is MaybeSentinel.DEFAULT:
            if single_bare_comma and last == 0:
                parts.append(",")
            elif i < last:
                parts.append(", ")
        elif isinstance(el.comma, cst.Comma):
            parts.append(_comma(el.comma, ind))
    return "".join(parts)


class _Fallback(Exception):
    """Raised inside a fast renderer that met a shape it does not mirror."""


def _list(n: cst.List, ind: str) -> str:
    try:
        inner = _lpar(n.lbracket, ind) + _elements(n.elements, ind, False) + _rpar(n.rbracket, ind)
    except _Fallback:
        return _libcst(n, ind)
    return _par(n, inner, ind)


def _tuple(n: cst.Tuple, ind: str) -> str:
    try:
        return _par(n, _elements(n.elements, ind, True), ind)
    except _Fallback:
        return _libcst(n, ind)


def _annotation(n: cst.Annotation, indicator: str, ind: str) -> str:
    # The printer shares one Annotation node per type: rendered once per indentation.
    hit = _MEMO.get(id(n))
    if hit is not None and hit[0] is n and hit[1] == ind + indicator:
        return hit[2]
    return _remember(n, ind + indicator, _annotation_text(n, indicator, ind))


def _annotation_text(n: cst.Annotation, indicator: str, ind: str) -> str:
    before = n.whitespace_before_indicator
    if isinstance(before, MaybeSentinel):
        out = " " if indicator == "->" else ""
    else:
        out = _g(before, ind)
    return out + indicator + _ws(n.whitespace_after_indicator, ind) + _g(n.annotation, ind)


def _semicolon(n: cst.BaseSmallStatement, default_semicolon: bool, ind: str) -> str:
    semi = n.semicolon
    if isinstance(semi, MaybeSentinel):
        return "; " if default_semicolon else ""
    return _g(semi, ind)


def _small(n: cst.BaseSmallStatement, default_semicolon: bool, ind: str) -> str:
    match n:
        case cst.AnnAssign():
            target = n.target
            if type(target) is _NAME:
                out = _par(target, target.value, ind) + _annotation(n.annotation, ":", ind)
            else:
                out = _g(target, ind) + _annotation(n.annotation, ":", ind)
            if n.equal is MaybeSentinel.DEFAULT and n.value is not None:
                out += " = "
            elif isinstance(n.equal, cst.AssignEqual):
                out += _assign_equal(n.equal, ind)
            if n.value is not None:
                out += _g(n.value, ind)
        case cst.Assign():
            out = "".join(_g(t.target, ind) + _ws(t.whitespace_before_equal, ind) + "="
                          + _ws(t.whitespace_after_equal, ind) for t in n.targets)
            out += _g(n.value, ind)
        case cst.Expr():
            out = _g(n.value, ind)
        case cst.Return():
            out = "return"
            if isinstance(n.whitespace_after_return, MaybeSentinel):
                out += " " if n.value is not None else ""
            else:
                out += _ws(n.whitespace_after_return, ind)
            if n.value is not None:
                out += _g(n.value, ind)
        case cst.Pass():
            out = "pass"
        case cst.Break():
            out = "break"
        case cst.Continue():
            out = "continue"
        case _:
            # Mirrors nothing else; LibCST renders the statement and its own semicolon.
            state = CodegenState(default_indent="    ", default_newline="\n")
            if ind:
                state.indent_tokens.append(ind)
            n._codegen(state, default_semicolon=default_semicolon)
            return "".join(state.tokens)
    return out + _semicolon(n, default_semicolon, ind)


def _simple_line(n: cst.SimpleStatementLine, ind: str) -> str:
    hit = _MEMO.get(id(n))
    if hit is not None and hit[0] is n and hit[1] == ind:
        return hit[2]
    return _remember(n, ind, _simple_line_text(n, ind))


def _simple_line_text(n: cst.SimpleStatementLine, ind: str) -> str:
    body = n.body
    if len(body) == 1 and not n.leading_lines:
        # The printer's lines: one statement, comments (if any) on lines of their own.
        return ind + _small(body[0], False, ind) + _trailing(n.trailing_whitespace, ind)
    out = "".join(_g(ll, ind) for ll in n.leading_lines) + ind
    if body:
        last = len(body) - 1
        out += "".join(_small(s, i != last, ind) for i, s in enumerate(body))
    else:
        out += "pass"
    return out + _g(n.trailing_whitespace, ind)


_MARK = "__pl_codegen_body_{}__"


def _block_body(block: cst.IndentedBlock, ind: str) -> str:
    """The statements of an indented block at its inner indentation, by a loop."""
    inner = ind + ("    " if block.indent is None else block.indent)
    parts = []
    for s in block.body:
        # The printer's statement lines were rendered (or their text derived) when it wrapped them.
        hit = _MEMO.get(id(s))
        parts.append(hit[2] if hit is not None and hit[0] is s and hit[1] == inner else _g(s, inner))
    return "".join(parts)


def _compound(n: cst.BaseCompoundStatement, ind: str) -> str:
    """LibCST renders the header around placeholder bodies; the real bodies are spliced in."""
    blocks: list[cst.IndentedBlock] = []

    def stub(block: cst.BaseSuite) -> cst.BaseSuite:
        if not isinstance(block, cst.IndentedBlock) or not block.body:
            return block
        mark = cst.SimpleStatementLine([cst.Expr(cst.Name(_MARK.format(len(blocks))))])
        blocks.append(block)
        return block.with_changes(body=[mark])

    changes: dict[str, object] = {"body": stub(n.body)}
    orelse = getattr(n, "orelse", None)
    if isinstance(orelse, cst.Else):
        changes["orelse"] = orelse.with_changes(body=stub(orelse.body))
    elif orelse is not None:
        return _libcst(n, ind)  # elif chains: rare, and LibCST's own rendering is exact
    text = _libcst(n.with_changes(**changes), ind)
    for i, block in enumerate(blocks):
        inner = ind + ("    " if block.indent is None else block.indent)
        text = text.replace(f"{inner}{_MARK.format(i)}\n", _block_body(block, ind), 1)
    return text


def _class_or_def(n: cst.FunctionDef | cst.ClassDef, ind: str) -> str:
    return _compound(n, ind)


_GEN: dict[type, _Gen] = {
    cst.SimpleWhitespace: _sw,  # type: ignore[dict-item]
    cst.ParenthesizedWhitespace: _pw,  # type: ignore[dict-item]
    cst.Newline: _newline,  # type: ignore[dict-item]
    cst.TrailingWhitespace: _trailing,  # type: ignore[dict-item]
    cst.EmptyLine: _empty_line,  # type: ignore[dict-item]
    cst.Comment: _comment,  # type: ignore[dict-item]
    cst.Comma: _comma,  # type: ignore[dict-item]
    cst.Dot: _dot,  # type: ignore[dict-item]
    cst.AssignEqual: _assign_equal,  # type: ignore[dict-item]
    cst.LeftParen: _lpar,  # type: ignore[dict-item]
    cst.RightParen: _rpar,  # type: ignore[dict-item]
    cst.Name: _value_token,  # type: ignore[dict-item]
    cst.Integer: _value_token,  # type: ignore[dict-item]
    cst.Float: _value_token,  # type: ignore[dict-item]
    cst.SimpleString: _value_token,  # type: ignore[dict-item]
    cst.Attribute: _attribute,  # type: ignore[dict-item]
    cst.Call: _call,  # type: ignore[dict-item]
    cst.Subscript: _subscript,  # type: ignore[dict-item]
    cst.Index: _index,  # type: ignore[dict-item]
    cst.List: _list,  # type: ignore[dict-item]
    cst.Tuple: _tuple,  # type: ignore[dict-item]
    cst.SimpleStatementLine: _simple_line,  # type: ignore[dict-item]
    cst.FunctionDef: _class_or_def,  # type: ignore[dict-item]
    cst.ClassDef: _class_or_def,  # type: ignore[dict-item]
    cst.For: _compound,  # type: ignore[dict-item]
    cst.While: _compound,  # type: ignore[dict-item]
    cst.If: _compound,  # type: ignore[dict-item]
    cst.With: _compound,  # type: ignore[dict-item]
}


def rendered(node: cst.CSTNode, ind: str) -> str | None:
    """The text `node` was last rendered to at indentation `ind`, if it is still remembered
    (calls, attributes, subscripts, statement lines)."""
    hit = _MEMO.get(id(node))
    if hit is not None and hit[0] is node and hit[1] == ind:
        return hit[2]
    return None


def remember(node: cst.CSTNode, ind: str, text: str) -> None:
    """Records `text` as the rendering of `node` at `ind`, for a caller that derived the text of
    a node it built from the rendering of a node that differs only in whitespace (the line
    wrapper); `line_code(node, ind)` then returns it without rendering the node again."""
    _remember(node, ind, text)


def small_line_code(small: cst.BaseSmallStatement, ind: str) -> str:
    """The text of `SimpleStatementLine([small])` (no comment lines, the default trailing newline)
    inside blocks indented by `ind`, without building that line."""
    return ind + _small(small, False, ind) + "\n"


def forget(node: cst.CSTNode) -> None:
    """Drops the remembered text of `node` (a node that is not part of the printed tree, so the
    memo does not keep it alive)."""
    hit = _MEMO.get(id(node))
    if hit is not None and hit[0] is node:
        del _MEMO[id(node)]


def forget_rendered() -> None:
    """Drops every remembered text (and the nodes the memo keeps alive)."""
    _MEMO.clear()


def code(node: cst.CSTNode) -> str:
    """`libcst.Module([]).code_for_node(node)`, fast."""
    return _g(node, "")


def line_code(node: cst.CSTNode, indent: str) -> str:
    """The text of a statement as LibCST renders it inside blocks indented by `indent`."""
    return _g(node, indent)


def module_code(m: cst.Module) -> str:
    """`m.code`, fast, for a module with LibCST's default header, footer and newline."""
    if m.header or m.footer or m.default_newline != "\n" or m.default_indent != "    " \
            or not m.has_trailing_newline or not m.body:
        return m.code
    try:
        return "".join(_g(s, "") for s in m.body)
    finally:
        forget_rendered()  # the printed tree is done with; do not keep it alive
