"""Deterministic line wrapping of printed statements (black / ruff-format look, 100 columns).

Guarantees: a node that fits in LIMIT columns is returned unchanged. A too-long simple statement
whose value is a call is broken after the call's open paren, with all arguments on one indented
line, or - if that line still does not fit - one argument per line with a trailing comma; the
closing paren sits on its own line at the statement's indentation. A too-long `def` line gets one
parameter per line with a trailing comma and `) -> T:` on its own line. Wrapping only changes
whitespace, so the code still parses to the same tree.
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache
from typing import Any, TypeVar

import libcst as cst

from pl.printer_codegen import code, line_code

LIMIT = 100
INDENT = "    "

@lru_cache(maxsize=64)
def _break(last_line: str) -> cst.ParenthesizedWhitespace:
    """A newline, then the enclosing statement's indentation, then `last_line`."""
    return cst.ParenthesizedWhitespace(first_line=cst.TrailingWhitespace(), empty_lines=[],
                                       indent=True, last_line=cst.SimpleWhitespace(last_line))


_FIELDS: dict[type, tuple[str, ...]] = {}
N = TypeVar("N", bound=cst.CSTNode)


def _replace(node: N, **changes: Any) -> N:
    """`node.with_changes(**changes)` without LibCST's re-validation of the copy: wrapping only
    swaps whitespace and commas of nodes that were validated when they were built."""
    cls = type(node)
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls))
    new = object.__new__(cls)
    for name in names:
        object.__setattr__(new, name, changes[name] if name in changes else getattr(node, name))
    return new


@lru_cache(maxsize=64)
def _comma(last_line: str) -> cst.Comma:
    return cst.Comma(whitespace_after=_break(last_line))


def _fits_at(line: cst.SimpleStatementLine, indent: int) -> bool:
    """Whether every line of `line` fits in LIMIT columns, rendered at `indent` columns where it
    will be printed (so the printer's module rendering reuses this very text; continuation lines
    of a wrapped call carry the statement's indentation there too)."""
    text = line_code(line, " " * indent) if indent else code(line)
    return all(len(ln) <= LIMIT for ln in text.splitlines())


def _explode_call(c: cst.Call, one_per_line: bool) -> cst.Call:
    args = list(c.args)
    if not args:
        return c
    if one_per_line:
        args = [_replace(a, comma=_comma(INDENT if i < len(args) - 1 else "")) for i, a in enumerate(args)]
    else:
        args[-1] = _replace(args[-1], whitespace_after_arg=_break(""))
    return _replace(c, whitespace_before_args=_break(INDENT), args=args)


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
    bare = line.with_changes(leading_lines=[]) if line.leading_lines else line
    if len(line.body) != 1 or _fits_at(bare, indent):
        return line
    small = line.body[0]
    c = _value_call(small)
    if c is None:
        return line
    candidate = line
    for one_per_line in (False, True):
        candidate = _replace(line, body=[_replace(small, value=_explode_call(c, one_per_line))])
        if _fits_at(candidate.with_changes(leading_lines=[]) if line.leading_lines else candidate, indent):
            break
    return candidate


def def_header(fd: cst.FunctionDef) -> str:
    """The `def ...:` line of a function, without decorators or body."""
    stub = fd.with_changes(decorators=[], leading_lines=[],
                           body=cst.SimpleStatementSuite([cst.Pass()]))
    return code(stub).rsplit(" pass", 1)[0]


def wrap_def(fd: cst.FunctionDef, indent: int) -> cst.FunctionDef:
    """`fd` with its parameters one per line if its `def` line is longer than LIMIT."""
    if indent + len(def_header(fd)) <= LIMIT or not fd.params.params:
        return fd
    ps = list(fd.params.params)
    ps = [p.with_changes(comma=cst.Comma(whitespace_after=_break(INDENT if i < len(ps) - 1 else "")))
          for i, p in enumerate(ps)]
    return fd.with_changes(whitespace_before_params=_break(INDENT),
                           params=fd.params.with_changes(params=ps))
