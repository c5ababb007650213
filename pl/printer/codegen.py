"""A specialised code generator for the LibCST trees the printer builds.

Guarantees: `code(node)` equals `libcst.Module([]).code_for_node(node)` and `module_code(m)` equals
`m.code`, for every node. The node kinds the printer builds in bulk (simple statements, calls,
names, subscripts, lists, whitespace, indented blocks, functions and classes) are rendered by the
small functions below (statements) and in printer_codegen_exprs (expressions, whitespace, the
dispatch table and the memo), which mirror LibCST's `_codegen_impl` of each kind without its per-node
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

import libcst as cst
from libcst import MaybeSentinel

from pl.printer.codegen_exprs import (
    _GEN,
    _MEMO,
    _NAME,
    _arg,
    _assign_equal,
    _g,
    _par,
    _remember,
    _trailing,
    _ws,
    libcst_code,
)

__all__ = ["annotation_code", "arg_code", "code", "forget", "forget_rendered", "libcst_code", "line_code", "module_code", "remember",
           "rendered", "small_line_code"]


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
            return libcst_code(n, ind, default_semicolon=default_semicolon)
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
        return libcst_code(n, ind)  # elif chains: rare, and LibCST's own rendering is exact
    text = libcst_code(n.with_changes(**changes), ind)
    for i, block in enumerate(blocks):
        inner = ind + ("    " if block.indent is None else block.indent)
        text = text.replace(f"{inner}{_MARK.format(i)}\n", _block_body(block, ind), 1)
    return text


def _class_or_def(n: cst.FunctionDef | cst.ClassDef, ind: str) -> str:
    return _compound(n, ind)


# The statement kinds, added to the dispatch table the expression half holds.
_GEN.update({
    cst.SimpleStatementLine: _simple_line,  # type: ignore[dict-item]
    cst.FunctionDef: _class_or_def,  # type: ignore[dict-item]
    cst.ClassDef: _class_or_def,  # type: ignore[dict-item]
    cst.For: _compound,  # type: ignore[dict-item]
    cst.While: _compound,  # type: ignore[dict-item]
    cst.If: _compound,  # type: ignore[dict-item]
    cst.With: _compound,  # type: ignore[dict-item]
})


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


def arg_code(a: cst.Arg, ind: str) -> str:
    """The text of argument `a` inside a call, without the comma its position would add."""
    return _arg(a, False, ind)


def annotation_code(a: cst.Annotation, ind: str) -> str:
    """The text of `a` as the annotation of an assignment (`: T`)."""
    return _annotation(a, ":", ind)


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
