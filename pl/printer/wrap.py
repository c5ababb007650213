"""Deterministic line wrapping of printed statements (black / ruff-format look, 100 columns).

Guarantees: a node that fits in LIMIT columns is returned unchanged. A too-long simple statement
whose value is a call is broken after the call's open paren, with all arguments on one indented
line, or - if that line still does not fit - one argument per line with a trailing comma; the
closing paren sits on its own line at the statement's indentation. A too-long `def` line gets one
parameter per line with a trailing comma and `) -> T:` on its own line. Wrapping only changes
whitespace, so the code still parses to the same tree.

Speed: each statement is rendered once. Its flat text decides whether it fits; the text of the
arguments-on-one-line form is derived from it (the two differ only in the two breaks around the
arguments) and remembered by printer_codegen for the module's rendering, so a wrapped statement
is never rendered twice (tests/test_perf_printer.py checks LibCST's own rendering of the tree
against the printed text). `wrapped_call` goes further for a line whose parts' texts are known:
it composes the line's text from them and builds the call once, directly in its final form.
Copies of valid nodes skip LibCST's validation.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import libcst as cst

from pl.printer.codegen import code, forget, line_code, remember, rendered, small_line_code
from pl.printer.nodes import ann_assign, call_node_of, replace_unchecked, simple_line

DEFAULT = cst.MaybeSentinel.DEFAULT
LIMIT = 100
INDENT = "    "

@lru_cache(maxsize=64)
def _break(last_line: str) -> cst.ParenthesizedWhitespace:
    """A newline, then the enclosing statement's indentation, then `last_line`."""
    return cst.ParenthesizedWhitespace(first_line=cst.TrailingWhitespace(), empty_lines=[],
                                       indent=True, last_line=cst.SimpleWhitespace(last_line))


# Wrapping only swaps whitespace and commas of nodes that are valid, so copies skip validation.
_replace = replace_unchecked


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
        args[-1] = _closing(args[-1])
    return _replace(c, whitespace_before_args=_break(INDENT), args=args)


# The printer shares one Arg node per Var / keyword value, so the last argument of many wrapped
# calls is the same node: its copy with the closing break is shared too (bounded; an entry keeps
# its node alive, so an id is never reused while cached).
_CLOSING: dict[int, tuple[cst.Arg, cst.Arg]] = {}


def _closing(a: cst.Arg) -> cst.Arg:
    """`a` followed by a newline and the statement's indentation (the closing paren's line)."""
    hit = _CLOSING.get(id(a))
    if hit is not None and hit[0] is a:
        return hit[1]
    if len(_CLOSING) >= 4096:
        _CLOSING.clear()
    closing = _replace(a, whitespace_after_arg=_break(""))
    _CLOSING[id(a)] = (a, closing)
    return closing


def _value_call(small: cst.BaseSmallStatement) -> cst.Call | None:
    value = getattr(small, "value", None)
    if type(value) is not cst.Call:
        return None  # the common case below, without matching every class pattern
    match small:
        case cst.Assign(value=cst.Call() as c) | cst.AnnAssign(value=cst.Call() as c):
            return c
        case cst.Expr(value=cst.Call() as c) | cst.Return(value=cst.Call() as c):
            return c
        case _:
            return None


def wrap_statement(line: cst.SimpleStatementLine, indent: int) -> cst.SimpleStatementLine:
    """`line` as printed at `indent` columns, wrapped if it is longer than LIMIT."""
    if len(line.body) != 1:
        return line
    bare = _replace(line, leading_lines=[]) if line.leading_lines else line
    ind = " " * indent
    flat = line_code(bare, ind)
    if _fits(flat):
        return line
    small = line.body[0]
    c = _value_call(small)
    if c is None:
        return line
    candidate = _replace(line, body=[_replace(small, value=_explode_call(c, False))])
    bare_candidate = _replace(candidate, leading_lines=[]) if line.leading_lines else candidate
    text = _arguments_on_one_line(flat, small, line.trailing_whitespace, c, ind)
    if text is None:
        text = line_code(bare_candidate, ind)
    else:
        remember(bare_candidate, ind, text)  # the module's rendering reuses it
    if _fits(text):
        return candidate
    return _replace(line, body=[_replace(small, value=_explode_call(c, True))])


def wrap_small(small: cst.BaseSmallStatement, indent: int) -> cst.SimpleStatementLine:
    """`wrap_statement(SimpleStatementLine([small]), indent)`, without building the unwrapped
    line when it does not fit (the printer's statements; the text of the line returned is
    remembered for the module's rendering)."""
    ind = " " * indent
    flat = small_line_code(small, ind)
    c = None if _fits(flat) else _value_call(small)
    if c is None:
        line = simple_line(small)
        remember(line, ind, flat)
        return line
    candidate = simple_line(_replace(small, value=_explode_call(c, False)))
    text = _arguments_on_one_line(flat, small, candidate.trailing_whitespace, c, ind)
    forget(c)  # the unwrapped call is not printed: free it now, not at the end of the module
    if text is None:
        text = line_code(candidate, ind)
    else:
        remember(candidate, ind, text)
    if _fits(text):
        return candidate
    return simple_line(_replace(small, value=_explode_call(c, True)))


def wrapped_call(head: str, func: cst.BaseExpression, func_text: str, args: Sequence[cst.Arg],
                 arg_texts: Sequence[str], ind: str) -> tuple[cst.Call, str]:
    """The call ending a statement line `<ind><head><func>(<args>)`, built once in the form
    `wrap_small` gives it, and the text of the whole line, composed from the parts' texts
    (`func_text`, `arg_texts`: each argument without its comma; none holds a line break)."""
    start = ind + head + func_text + "("
    joined = ", ".join(arg_texts)
    if len(start) + len(joined) + 1 <= LIMIT or not args:
        # One line, `)` included (wrapping a call without arguments gains nothing).
        return call_node_of(func, args), start + joined + ")\n"
    before_args, after_args = _break_texts(ind)
    if len(start) <= LIMIT and len(ind) + len(INDENT) + len(joined) <= LIMIT:
        # The arguments on one line of their own (`_explode_call(c, False)`); the closing
        # paren's line, at the statement's indentation, is shorter than the first.
        text = start + before_args + joined + after_args + ")\n"
        return call_node_of(func, [*args[:-1], _closing(args[-1])], _break(INDENT)), text
    # One argument per line, each with a trailing comma (`_explode_call(c, True)`).
    text = start + before_args + ("," + before_args).join(arg_texts) + "," + after_args + ")\n"
    last = len(args) - 1
    one_per_line = [_replace(a, comma=_comma(INDENT if i < last else "")) for i, a in enumerate(args)]
    return call_node_of(func, one_per_line, _break(INDENT)), text


def annotated_call_line(target: cst.Name, ann: cst.Annotation, ann_text: str, func: cst.BaseExpression,
                        func_text: str, args: Sequence[cst.Arg], arg_texts: Sequence[str],
                        ind: str) -> cst.SimpleStatementLine:
    """`target: T = func(args)` as a line indented by `ind`, wrapped by `wrapped_call`, its text
    remembered for the module's rendering (`ann_text`: the annotation's text, `: T`; the other
    texts as `wrapped_call` takes them)."""
    call, text = wrapped_call(target.value + ann_text + " = ", func, func_text, args, arg_texts, ind)
    line = simple_line(ann_assign(target, ann, call))
    remember(line, ind, text)
    return line


def _fits(text: str) -> bool:
    """Whether every line of a rendered statement fits in LIMIT columns."""
    # The text ends with its newline, so no line of a text this short can be too long.
    return len(text) <= LIMIT + 1 or max(map(len, text.splitlines())) <= LIMIT


def _arguments_on_one_line(flat: str, small: cst.BaseSmallStatement, trailing: cst.TrailingWhitespace,
                           c: cst.Call, ind: str) -> str | None:
    """The text of the line holding `small` (rendered as `flat` at `ind`, its last part the call
    `c`, then `trailing`) with `c`'s arguments moved to a line of their own
    (`_explode_call(c, False)`), derived from `flat` instead of rendered again; None for a shape
    where the two differ in more than whitespace this function knows (then the wrapped line is
    rendered)."""
    call_text = rendered(c, ind)
    args = c.args
    if call_text is None or not args or c.lpar or c.rpar or not _is_empty(c.whitespace_after_func) \
            or not _is_empty(c.whitespace_before_args) or not _is_empty(args[-1].whitespace_after_arg) \
            or small.semicolon is not DEFAULT or not _is_empty(trailing.whitespace) \
            or trailing.comment is not None or trailing.newline.value is not None:
        return None
    # flat = <statement up to the call> <func> "(" <arguments> ")" "\n"
    func_text = rendered(c.func, ind) or line_code(c.func, ind)
    open_paren = len(flat) - 1 - len(call_text) + len(func_text)
    before_args, after_args = _break_texts(ind)
    return flat[:open_paren + 1] + before_args + flat[open_paren + 1:-2] + after_args + ")\n"


@lru_cache(maxsize=64)
def _break_texts(ind: str) -> tuple[str, str]:
    """How `_explode_call(c, False)`'s two breaks render at a statement indented by `ind`."""
    return line_code(_break(INDENT), ind), line_code(_break(""), ind)


def _is_empty(ws: object) -> bool:
    return type(ws) is cst.SimpleWhitespace and ws.value == ""


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
