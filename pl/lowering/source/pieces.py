"""`parse_in_pieces(text)`: the LibCST tree of a text, its long function bodies parsed a few
hundred statements at a time: how pl parses every file (lowering/frontend/source.py) and the IR
text `--ir` reads back (pl/show_inferred/verify.py).

Why: LibCST's parser holds the whole text's tokens and its own tree beside the tree it returns,
about 500 bytes per byte of text, for the length of one `parse_module` call (freed after it, but
by then the process's peak is reached): 554 MiB for the 700 KB of a 20,000-statement kernel,
and the printed IR of a program is five times the input's bytes (every tile typed with its
space). Parsed in pieces, the parser's memory is that of one piece; the tree itself is about a
tenth of it.

Guarantees: the tree is the one `libcst.parse_module(text)` gives (deep-equal: the tests check
it over the examples, the scope kernels and generated programs, as written, commented and as
IR, cut into pieces of 1 to 3 statements). Only where that holds by construction is a body cut:
the body of a `def` at module level or in a class at module level, indented by one indentation
string that starts each of its lines, its statements each on their own lines with no blank or
comment line between two of them (so no line is anyone's leading line or a block's footer), the
first and the last one simple statements (no block of their own to own the comment lines after
them), and no triple quote or backslash at a line's end after the first statement (so no line
break is inside a string or continued by a backslash: every line's leading whitespace is
indentation, which LibCST keeps out of the nodes; inside brackets it is marked as such). Each piece is its statements' lines with that indentation removed, parsed with the
module's indentation and line break; its statements are the body's. Anything else is parsed with
the rest of the text, whole. A text LibCST cannot parse raises LibCST's error of the whole text.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence

import libcst as cst

__all__ = ["PIECE", "parse_in_pieces"]

PIECE = 500  # statements per piece of a cut body



def _compound(s: ast.stmt) -> bool:
    """A statement with a block of its own (every such statement but `match` has a `body`)."""
    return isinstance(s, ast.Match) or hasattr(s, "body")


def _defs(body: Sequence[ast.stmt]) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    """The defs at module level and in the classes at module level, in the text's order."""
    out: list[ast.FunctionDef | ast.AsyncFunctionDef] = []
    for s in body:
        if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef):
            out.append(s)
        elif isinstance(s, ast.ClassDef):
            out.extend(d for d in s.body if isinstance(d, ast.FunctionDef | ast.AsyncFunctionDef))
    return out


def _cst_defs(module: cst.Module) -> list[cst.FunctionDef]:
    """The same defs of a LibCST tree, in the same order."""
    out: list[cst.FunctionDef] = []
    for s in module.body:
        if isinstance(s, cst.FunctionDef):
            out.append(s)
        elif isinstance(s, cst.ClassDef) and isinstance(s.body, cst.IndentedBlock):
            out.extend(d for d in s.body.body if isinstance(d, cst.FunctionDef))
    return out


def _cut(d: ast.FunctionDef | ast.AsyncFunctionDef, lines: list[str], piece: int
         ) -> tuple[int, int, str] | None:
    """The lines (0-based, end exclusive) of `d`'s body after its first statement, and the
    body's indentation, when they can be parsed apart (module doc); None otherwise."""
    stmts = d.body
    if len(stmts) <= piece or _compound(stmts[0]) or _compound(stmts[-1]):
        return None
    first = lines[stmts[0].lineno - 1]
    indent = first[: stmts[0].col_offset]
    if not indent or indent.strip() or stmts[0].lineno <= d.lineno:
        return None
    for prev, s in zip(stmts, stmts[1:], strict=False):
        if s.lineno != (prev.end_lineno or 0) + 1 or s.col_offset != len(indent):
            return None
    start, end = stmts[1].lineno - 1, stmts[-1].end_lineno or 0
    if not all(ln.startswith(indent) for ln in lines[start:end]):
        return None
    # A line's leading whitespace is the block's indentation (LibCST keeps it out of the tree)
    # except inside a string or after a backslash: a string spans lines only with a triple
    # quote or a backslash, and a backslash continues a line only before its line break.
    region = "".join(lines[start:end])
    if '"""' in region or "'''" in region or "\\\n" in region:
        return None
    return start, end, indent


def _pieces(d: ast.FunctionDef | ast.AsyncFunctionDef, lines: list[str], cut: tuple[int, int, str],
            config: cst.PartialParserConfig, piece: int) -> list[cst.BaseStatement]:
    """`d`'s statements after its first, parsed `piece` at a time (module doc)."""
    _, _, indent = cut
    out: list[cst.BaseStatement] = []
    stmts = d.body[1:]
    for i in range(0, len(stmts), piece):
        group = stmts[i: i + piece]
        text = "".join(ln[len(indent):] for ln in lines[group[0].lineno - 1: group[-1].end_lineno])
        out.extend(cst.parse_module(text, config).body)
    return out


def parse_in_pieces(text: str, tree: ast.Module | None = None, piece: int = PIECE) -> cst.Module:
    """The LibCST tree of `text` (that CPython parses, as `tree` when the caller has it, with
    `\\n` line breaks), its bodies of more than `piece` statements parsed `piece` at a time
    (module doc)."""
    lines = text.split("\n")
    lines = [ln + "\n" for ln in lines[:-1]] + ([lines[-1]] if lines[-1] else [])
    if "\r" in text:
        return cst.parse_module(text)
    defs = _defs((tree if tree is not None else ast.parse(text)).body)
    cuts = {i: c for i, d in enumerate(defs) if (c := _cut(d, lines, piece)) is not None}
    if not cuts:
        return cst.parse_module(text)
    kept: list[str] = []
    at = 0
    for start, end, _ in cuts.values():
        kept.extend(lines[at:start])
        at = end
    kept.extend(lines[at:])
    try:
        return _assembled(text, lines, defs, cuts, "".join(kept), piece)
    except cst.ParserSyntaxError:
        return cst.parse_module(text)  # LibCST's error, located in the text


def _assembled(text: str, lines: list[str], defs: list[ast.FunctionDef | ast.AsyncFunctionDef],
               cuts: dict[int, tuple[int, int, str]], kept: str, piece: int) -> cst.Module:
    """The tree of `text`: its text without the `cuts` (`kept`) parsed, then the cut bodies."""
    skeleton = cst.parse_module(kept)
    config = cst.PartialParserConfig(default_indent=skeleton.default_indent,
                                     default_newline=skeleton.default_newline)
    bodies: dict[int, list[cst.BaseStatement]] = {}
    cst_defs = _cst_defs(skeleton)
    assert len(cst_defs) == len(defs), "the defs of a text parsed in pieces are found again"
    for i, cut in cuts.items():
        block = cst_defs[i].body
        assert isinstance(block, cst.IndentedBlock) and len(block.body) == 1, \
            "a cut body is found again"
        bodies[id(cst_defs[i])] = [block.body[0], *_pieces(defs[i], lines, cut, config, piece)]

    def filled(fd: cst.FunctionDef) -> cst.FunctionDef:
        body = bodies.get(id(fd))
        if body is None:
            return fd
        assert isinstance(fd.body, cst.IndentedBlock)
        return fd.with_changes(body=fd.body.with_changes(body=body))

    top: list[cst.BaseStatement] = []
    for s in skeleton.body:
        if isinstance(s, cst.FunctionDef):
            s = filled(s)
        elif isinstance(s, cst.ClassDef) and isinstance(s.body, cst.IndentedBlock) \
                and any(id(d) in bodies for d in s.body.body):
            s = s.with_changes(body=s.body.with_changes(body=[
                filled(d) if isinstance(d, cst.FunctionDef) else d for d in s.body.body]))
        top.append(s)
    return skeleton.with_changes(body=top)
