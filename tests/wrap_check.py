"""`check_wrapping(text)`: the printer's text is wrapped by the one rule of pl/printer/doc.py
wherever that rule can shorten a line, by the rule's first form that fits, and nowhere else.
`unbroken(text)`: the text with every broken bracketed list joined back onto one line, so a test
can look for a statement's annotation wherever the rule broke it."""

from __future__ import annotations

import ast
import re

from pl.printer.doc import INDENT, WIDTH, group_lines


def _breakable(line: str) -> bool:
    """Whether the one rule applies to this flat line: a simple statement whose value is a
    call with arguments, or a def with parameters."""
    body = line.strip()
    if body.startswith("def "):
        return "()" not in body
    try:
        tree = ast.parse(body)
    except SyntaxError:
        return False  # a compound statement's header: never wrapped
    stmt = tree.body[0]
    value = getattr(stmt, "value", None)
    return isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.Expr, ast.Return)) \
        and isinstance(value, ast.Call) and bool(value.args or value.keywords)


def check_wrapping(text: str) -> int:
    """Asserts that every line of `text` the rule can shorten is wrapped, by the rule's first
    form that fits, and that no line that fits is; returns how many groups were broken."""
    lines = text.splitlines()
    broken = 0
    i = 0
    while i < len(lines):
        line = lines[i]
        body = line.lstrip()
        if not line.endswith("(") or body.startswith("#"):
            assert len(line) <= WIDTH or not _breakable(line), f"not wrapped: {line!r}"
            i += 1
            continue
        indent = line[:len(line) - len(body)]
        j = i + 1
        while not lines[j].startswith(indent + ")"):
            assert lines[j].startswith(indent + INDENT), lines[j]
            j += 1
        item_lines = [ln[len(indent + INDENT):] for ln in lines[i + 1:j]]
        tail = lines[j][len(indent):]
        one_per_line = all(ln.endswith(",") for ln in item_lines)
        items = [ln[:-1] for ln in item_lines] if one_per_line else item_lines
        # What the rule gives is exactly what was printed, and the flat line did not fit.
        assert group_lines(indent, body, items, tail) == "\n".join(lines[i:j + 1]) + "\n"
        assert len(indent + body + ", ".join(items) + tail) > WIDTH
        if one_per_line and tail == ")":
            assert len(line) > WIDTH or len(indent + INDENT + ", ".join(items)) > WIDTH
        broken += 1
        i = j + 1
    return broken


def unbroken(text: str) -> str:
    """`text` with each list the rule broke one item a line (`pl.Tile[` / items / `]`, or a call's
    arguments) joined back: `[`/`(` then a line break, an item's `,` then a line break, and the
    trailing `,` before the closing bracket."""
    text = re.sub(r",\n[ \t]*([\])])", r"\1", text)
    text = re.sub(r"([\[(])\n[ \t]*", r"\1", text)
    text = re.sub(r"\n[ \t]*([\])])", r"\1", text)
    return re.sub(r",\n[ \t]*", ", ", text)
