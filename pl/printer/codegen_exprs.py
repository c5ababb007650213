"""The expression half of the printer's code generator (pl.printer_codegen is the statement half).

Guarantees: each renderer below returns what LibCST's `_codegen_impl` of its node kind writes at
indentation `ind`; `_g` dispatches on the node's exact type through `_GEN`, to which
printer_codegen adds the statement kinds, and hands any kind not in the table to LibCST itself.
The memo of rendered texts by node identity (`_MEMO`) lives here, shared by both halves.
The two modules are one code generator kept in two files for size; only printer_codegen is
imported by the rest of the printer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import libcst as cst
from libcst import MaybeSentinel
from libcst._nodes.internal import CodegenState

_Gen = Callable[[object, str], str]


def libcst_code(node: cst.CSTNode, ind: str, default_indent: str = "    ", **codegen: Any) -> str:
    """LibCST's own rendering of `node` inside blocks indented by `ind`, in a module whose
    default indentation is `default_indent` (the slow, always-right path); `codegen` goes to the
    node's `_codegen` (`default_semicolon` for a small statement)."""
    state = CodegenState(default_indent=default_indent, default_newline="\n")
    if ind:
        state.indent_tokens.append(ind)
    node._codegen(state, **codegen)
    return "".join(state.tokens)


def _g(node: object, ind: str) -> str:
    f = _GEN.get(type(node))
    if f is None:
        assert isinstance(node, cst.CSTNode)
        return libcst_code(node, ind)
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
            return libcst_code(n, ind)
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
        return libcst_code(n, ind)
    return _par(n, inner, ind)


def _tuple(n: cst.Tuple, ind: str) -> str:
    try:
        return _par(n, _elements(n.elements, ind, True), ind)
    except _Fallback:
        return libcst_code(n, ind)


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
}
