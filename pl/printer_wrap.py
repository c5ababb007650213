"""Deterministic line wrapping of printed statements (black / ruff-format look, 100 columns).

Guarantees: a node that fits in LIMIT columns is returned unchanged. A too-long simple statement
whose value is a call is broken after the call's open paren, with all arguments on one indented
line, or - if that line still does not fit - one argument per line with a trailing comma; the
closing paren sits on its own line at the statement's indentation. A too-long `def` line gets one
parameter per line with a trailing comma and `) -> T:` on its own line. Wrapping only changes
whitespace, so the code still parses to the same tree.
"""

from __future__ import annotations

import libcst as cst

LIMIT = 100
INDENT = "    "

_EMPTY = cst.Module(body=[])


def _break(last_line: str) -> cst.ParenthesizedWhitespace:
    """A newline, then the enclosing statement's indentation, then `last_line`."""
    return cst.ParenthesizedWhitespace(first_line=cst.TrailingWhitespace(), empty_lines=[],
                                       indent=True, last_line=cst.SimpleWhitespace(last_line))


def _fits(code: str, indent: int) -> bool:
    return all(indent + len(line) <= LIMIT for line in code.splitlines())


def _explode_call(c: cst.Call, one_per_line: bool) -> cst.Call:
    args = list(c.args)
    if not args:
        return c
    if one_per_line:
        args = [a.with_changes(comma=cst.Comma(whitespace_after=_break(INDENT if i < len(args) - 1 else "")))
                for i, a in enumerate(args)]
    else:
        args[-1] = args[-1].with_changes(whitespace_after_arg=_break(""))
    return c.with_changes(whitespace_before_args=_break(INDENT), args=args)


def _value_call(small: cst.BaseSmallStatement) -> cst.Call | None:
    match small:
        case cst.Assign(value=cst.Call() as c) | cst.AnnAssign(value=cst.Call() as c):
            return c
        case cst.Expr(value=cst.Call() as c) | cst.Return(value=cst.Call() as c):
            return c
        case _:
            return None


def wrap_statement(line: cst.SimpleStatementLine, indent: int) -> cst.SimpleStatementLine:
    """`line` as printed at `indent` columns, wrapped if it is longer than LIMIT."""
    bare = line.with_changes(leading_lines=[])
    if _fits(_EMPTY.code_for_node(bare), indent) or len(line.body) != 1:
        return line
    small = line.body[0]
    c = _value_call(small)
    if c is None:
        return line
    candidate = line
    for one_per_line in (False, True):
        candidate = line.with_changes(body=[small.with_changes(value=_explode_call(c, one_per_line))])
        if _fits(_EMPTY.code_for_node(candidate.with_changes(leading_lines=[])), indent):
            break
    return candidate


def def_header(fd: cst.FunctionDef) -> str:
    """The `def ...:` line of a function, without decorators or body."""
    stub = fd.with_changes(decorators=[], leading_lines=[],
                           body=cst.SimpleStatementSuite([cst.Pass()]))
    return _EMPTY.code_for_node(stub).rsplit(" pass", 1)[0]


def wrap_def(fd: cst.FunctionDef, indent: int) -> cst.FunctionDef:
    """`fd` with its parameters one per line if its `def` line is longer than LIMIT."""
    if indent + len(def_header(fd)) <= LIMIT or not fd.params.params:
        return fd
    ps = list(fd.params.params)
    ps = [p.with_changes(comma=cst.Comma(whitespace_after=_break(INDENT if i < len(ps) - 1 else "")))
          for i, p in enumerate(ps)]
    return fd.with_changes(whitespace_before_params=_break(INDENT),
                           params=fd.params.with_changes(params=ps))
