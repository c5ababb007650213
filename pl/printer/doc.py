"""The printer's document builder: lines of text at an indentation, and the one wrapping rule.

Guarantees: `Doc` writes each line at its current indentation (4 spaces a level) and returns
them joined, each ending in a newline. The one wrapping rule (`Doc.group`): a line that ends in a
bracketed, comma-separated list (a call's arguments, a def's parameters) is written flat if it
fits in the width (WIDTH, 100 columns, unless the caller asks for another); otherwise it is broken after the open bracket, the items indented one
level further and the closing bracket (and whatever follows it) on a line of its own at the
line's indentation: all items on one line if the closing bracket ends the statement (a call's
`)`) and every line of that form fits, else one item per line, each with a trailing comma (so a
def's parameters, followed by `) -> T:`, always stand one per line). A typed binding whose line
up to that bracket does not fit because of its annotation (`x: pl.Tile[..., pl.TileView(...)] =
f(`) has the annotation's own bracketed list broken first, by the same rule, one item a line (its
`]` does not end the statement), and the rest `] = f(...)` wrapped by the rule in turn
(pl/printer/stmts.py). An item is never broken itself, and no other line is wrapped. Wrapping only adds line breaks and whitespace inside
brackets (and the trailing comma), so the text parses to the same tree.
"""

from __future__ import annotations

from collections.abc import Sequence

WIDTH = 100
INDENT = "    "

__all__ = ["INDENT", "WIDTH", "Doc", "group_lines"]


def group_lines(indent: str, head: str, items: Sequence[str], tail: str, width: int = WIDTH) -> str:
    """`<indent><head><items joined by ", "><tail>` wrapped by the one rule at `width` columns
    (see the module doc): `head` ends with the open bracket, `tail` starts with the closing one."""
    start = indent + head
    joined = ", ".join(items)
    if len(start) + len(joined) + len(tail) <= width or not items:
        return start + joined + tail + "\n"
    inner = indent + INDENT
    close = indent + tail + "\n"
    if len(tail) == 1 and len(start) <= width and len(inner) + len(joined) <= width:
        return start + "\n" + inner + joined + "\n" + close
    return start + "\n" + "".join(inner + item + ",\n" for item in items) + close


class Doc:
    """Lines being printed, at a current indentation (`push` / `pop` one level)."""

    def __init__(self, indent: str = "", width: int = WIDTH) -> None:
        self.parts: list[str] = []
        self.indent = indent
        self.width = width

    def line(self, text: str) -> None:
        """One line at the current indentation (an empty line: no indentation)."""
        self.parts.append(self.indent + text + "\n" if text else "\n")

    def group(self, head: str, items: Sequence[str], tail: str) -> None:
        """`head` + items + `tail` at the current indentation, wrapped by the one rule."""
        self.parts.append(group_lines(self.indent, head, items, tail, self.width))

    def comments(self, comments: Sequence[str]) -> None:
        """Each line of each comment as a `# text` line at the current indentation."""
        for text in comments:
            for line in text.splitlines() or [""]:
                body = line.strip()
                self.line(body if body.startswith("#") else ("# " + body if body else "#"))

    def push(self) -> None:
        """Indent the lines that follow one level further."""
        self.indent += INDENT

    def pop(self) -> None:
        """Back to the indentation before the matching `push`."""
        self.indent = self.indent[:-len(INDENT)]

    def text(self) -> str:
        return "".join(self.parts)
