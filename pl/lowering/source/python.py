"""A kernel file's text as CPython reads it, and the regenerated text stored back the same way.

Guarantees:
- `decode(data, filename)` decodes a file's bytes as the interpreter does: a UTF-8 BOM, else a
  PEP 263 coding cookie on line 1 or 2, else UTF-8. It returns the text (without the BOM) and a
  `Stored` saying how to store text back; undecodable bytes or a bad cookie are one `PlError`
  located at the offending line. Line breaks are kept as they are (no newline translation).
- `encode(text, stored, filename)` is its inverse: the same encoding, the BOM again if there was
  one; a character the encoding cannot hold is a located `PlError`, never a partial write.
- `python_view(text)` is the text the way CPython's tokenizer sees it, with everything the
  frontend's parser (LibCST) would read differently made explicit: a leading BOM character is
  dropped, a form feed in a line's indentation is dropped with the whitespace before it (CPython
  resets the indentation count at a form feed), and every identifier is NFKC-normalised (CPython
  normalises identifiers, so `ｔ` and `t` are one name), and every line break is `\n` (CPython
  reads `\r\n` and `\r` as `\n`, in strings too). The line count is unchanged, strings and
  comments are otherwise never touched, and a text that is ASCII with `\n` breaks only, without
  form feeds or BOM, is returned as is (the common case costs three scans).
- `UserLines(user, view).span(span)` is where a place found in `view = python_view(user)` is in
  the user's text: the same column on every line the view leaves alone, and on a changed line the
  columns of the characters the view kept (a changed stretch maps to its start).
- `restore(original, view, output)` maps a regeneration of the view back onto the user's text:
  every output line that is an unchanged line of the view is the user's original line again,
  the BOM character comes back, a changed or added line takes the line break of the user's line
  it stands for (else of the line before it), and in changed lines every name the regeneration
  kept from a line of the user's (found by a token diff) is spelled as the user spelled that very
  token; a name it wrote itself is spelled the one way the user spells it, or in NFKC form when
  the user spells it several ways. What Python reads of the result is the regeneration itself.
- `compile_python(text, filename, tree)` compiles the text (or its parse `tree`) with CPython,
  `parse_python` only parses it and returns the `ast.Module` (both cheaper than LibCST's parse;
  the frontend keeps that tree: every position comes from it, lowering/frontend/positions.py),
  so that only text Python accepts reaches LibCST, whose native parser crashes the process,
  beyond any exception handler, on nesting CPython refuses (thousands of brackets or operators);
  what Python refuses (syntax, `return` outside a function, too deep) is one located `PlError`.
- `python_lines` (from pl.errors) splits text into lines where Python numbers them.
- `kernel_folder(filename)` is the folder Python resolves a script's absolute imports in (its
  own folder; the current one for `<stdin>`).
"""

from __future__ import annotations

import ast
import codecs
import contextlib
import difflib
import io
import os
import re
import tokenize
import types
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from pl.errors import PlError, python_lines
from pl.ir.span import Span

__all__ = ["INSTALLED", "Stored", "UserLines", "compile_python", "content_hash", "decode", "encode",
           "installed", "kernel_folder", "parse_python", "python_lines", "python_view", "restore",
           "syntax_error"]


def content_hash(data: bytes) -> str:
    """The fingerprint of a file's bytes: what a compile records of each file its load read, and
    what the compile cache (pl/show_inferred/cache.py) compares them with."""
    import hashlib  # only a load that reads project files, and the cache, need it (start-up)

    return hashlib.sha256(data).hexdigest()


# A key of a load's `reads` (no path begins so) that records, for the top-level module named
# after it, what `installed` answered: a third-party import's outcome depends on the environment.
INSTALLED = "installed module: "


def installed(top: str) -> str | None:
    """"installed" when the import system finds the top-level module `top` (its finders read no
    module), else None: what a load records under `INSTALLED + top`, and what the compile cache
    asks again before it serves a result."""
    import importlib.util

    try:
        return "installed" if importlib.util.find_spec(top) is not None else None
    except (ImportError, ValueError):
        return None


_BOM = "\ufeff"
# The part of an indentation that CPython ignores: everything up to its last form feed.
_FF_INDENT = re.compile(r"^[ \t\f]*\f(?=[ \t]*\S)")
_COOKIE = re.compile(r"[ \t\f]*#.*?coding[:=]")


@dataclass(frozen=True)
class Stored:
    """How a file's text is stored: its encoding's canonical name, and whether it starts with a BOM."""

    encoding: str = "utf-8"
    bom: bool = False


def _position(before: str) -> tuple[int, int]:
    """The 1-based line and character column of the character that follows `before`."""
    lines = python_lines(before + "x")
    return len(lines), len(lines[-1])


def _located(filename: str, text: str, line: int, col: int, message: str, hint: str) -> PlError:
    return PlError(message, Span(filename, line, col, line, col + 1), source=text, hint=hint)


def syntax_error(e: SyntaxError, filename: str, text: str | None = None) -> PlError:
    """CPython's syntax error about `filename` as a located `PlError`."""
    return PlError(f"invalid Python syntax: {e.msg}", Span(filename, e.lineno or 1, e.offset or 1),
                   source=text)


def compile_python(text: str, filename: str, tree: ast.Module | None = None) -> types.CodeType:
    """`text` compiled by CPython (from `tree`, its `parse_python`, when given: no second parse),
    or a located `PlError` (see the module doc)."""
    with _python_errors(text, filename):
        return compile(text if tree is None else tree, filename, "exec", dont_inherit=True)


def parse_python(text: str, filename: str) -> ast.Module:
    """CPython's parse of `text`, or a located `PlError`: the parser's checks only (the frontend
    words the compiler's own, like `break` outside a loop, in its terms)."""
    with _python_errors(text, filename):
        tree = compile(text, filename, "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
    assert isinstance(tree, ast.Module)
    return tree


@contextlib.contextmanager
def _python_errors(text: str, filename: str) -> Iterator[None]:
    try:
        yield
    except SyntaxError as e:
        raise syntax_error(e, filename, text) from None
    except ValueError as e:  # a NUL byte (Python 3.11): CPython gives no position
        raise PlError(f"invalid Python source: {e}", Span(filename, 1, 1), source=text) from None
    except (RecursionError, MemoryError):  # CPython gives up on the depth, without a location
        lines = python_lines(text)
        longest = max(range(len(lines)), key=lambda i: len(lines[i]), default=0)
        raise PlError("this code nests too deeply for Python's parser",
                      Span(filename, longest + 1, 1), source=text,
                      hint="split the expression into several statements") from None


def kernel_folder(filename: str) -> Path:
    """The folder a kernel's absolute imports are resolved in (the cwd for `<stdin>`)."""
    if filename.startswith("<"):
        return Path(os.getcwd())
    return Path(os.path.realpath(filename)).parent


def decode(data: bytes, filename: str) -> tuple[str, Stored]:
    """The text of a source file's bytes, decoded as CPython decodes them (see the module doc)."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as e:  # an unknown cookie, or a cookie that contradicts the BOM
        shown = data.decode("utf-8", errors="replace")
        first = python_lines(shown)[:2]
        line = next((n for n, ln in enumerate(first, 1) if _COOKIE.match(ln)), 1)
        raise _located(filename, shown, line, 1, f"{filename}: {e.msg or e}",
                       "name an encoding Python knows in the coding comment, or remove it") from None
    bom = encoding == "utf-8-sig"
    name = "utf-8" if bom else codecs.lookup(encoding).name
    body = data[3:] if bom else data
    try:
        return body.decode(name), Stored(name, bom)
    except UnicodeDecodeError as e:
        # Point at the first byte that cannot be decoded: its line, and its column in characters.
        line, col = _position(body[:e.start].decode(name, errors="replace"))
        shown = body.decode(name, errors="replace")
        raise _located(filename, shown, line, col,
                       f"{filename} is not {name} text: byte 0x{body[e.start]:02x} cannot be decoded",
                       "save the file as UTF-8 (Python source files are UTF-8 by default), or "
                       "declare its encoding in a `# -*- coding: NAME -*-` comment") from None


def encode(text: str, stored: Stored, filename: str) -> bytes:
    """`text` as the bytes of a file stored like `stored` (see the module doc)."""
    try:
        data = text.encode(stored.encoding)
    except UnicodeEncodeError as e:
        line, col = _position(text[:e.start])
        raise _located(filename, text, line, col,
                       f"the regenerated {filename} cannot be stored in its encoding "
                       f"{stored.encoding}: {text[e.start]!r} has no code there",
                       "declare an encoding that holds every character, such as utf-8") from None
    return codecs.BOM_UTF8 + data if stored.bom else data


def python_view(text: str) -> str:
    """`text` as CPython's tokenizer sees it (see the module doc)."""
    if text.startswith(_BOM):
        text = text[1:]
    if text.isascii() and "\f" not in text:
        return _lf(text)
    try:
        toks = _tokens(text)
    except (tokenize.TokenError, SyntaxError):
        return _lf(text)  # not Python: the parser reports it, located, on the text as written
    lines = python_lines(text)
    renames = [(t, norm) for t in toks if t.type == tokenize.NAME
               and (norm := unicodedata.normalize("NFKC", t.string)) != t.string]
    _rename(lines, renames)
    in_string = {row for t in toks if t.type == tokenize.STRING  # 0-based rows after the first
                 for row in range(t.start[0], t.end[0])}  # start inside a string: data
    for row, ln in enumerate(lines):
        if "\f" in ln and row not in in_string:
            lines[row] = _FF_INDENT.sub("", ln, count=1)
    return _lf("".join(lines))


def _lf(text: str) -> str:
    """`text` with every line break `\n`, as CPython reads `\r\n` and `\r` (in strings too)."""
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


class UserLines:
    """The lines of a user's text and of its `python_view`: `span(place)` is a place found in the
    view, in the coordinates of the user's text (see the module doc)."""

    def __init__(self, user: str, view: str) -> None:
        self._theirs = [ln.rstrip("\r\n") for ln in python_lines(user.removeprefix(_BOM))]
        self._seen = [ln.rstrip("\r\n") for ln in python_lines(view)]

    def span(self, span: Span) -> Span:
        if span.line <= 0 or len(self._theirs) != len(self._seen):
            return span
        return Span(span.filename, span.line, self.column(span.line, span.col), span.end_line,
                    self.column(span.end_line, span.end_col))

    def column(self, line: int, col: int) -> int:
        """The 1-based column in the user's line `line` of column `col` of the view's."""
        if not 0 < line <= len(self._seen):
            return col
        theirs, seen = self._theirs[line - 1], self._seen[line - 1]
        if theirs == seen:
            return col
        at = col - 1
        matcher = difflib.SequenceMatcher(None, seen, theirs, autojunk=False)
        for op, i1, i2, j1, _ in matcher.get_opcodes():
            if i1 <= at < i2:
                return j1 + (at - i1 if op == "equal" else 0) + 1
        return len(theirs) + at - len(seen) + 1  # at or past the end of the line


def restore(original: str, view: str, output: str) -> str:
    """`output`, a regeneration of `view = python_view(original)`, with the user's own lines
    back, the user's line breaks, and in the changed lines the user's spelling of every name
    (see the module doc)."""
    if view == original:
        return output
    if view == output:
        return original
    bom = _BOM if original.startswith(_BOM) else ""
    original = original.removeprefix(_BOM)
    theirs, seen, out = python_lines(original), python_lines(view), python_lines(output)
    assert len(theirs) == len(seen), "python_view keeps every line"
    opcodes = difflib.SequenceMatcher(None, seen, out, autojunk=False).get_opcodes()
    changed = [(i1, i2, j1, j2) for op, i1, i2, j1, j2 in opcodes if op != "equal"]
    if changed and _lf(original) != view:  # names (or indentation) spelled otherwise than read
        _respell(original, view, output, changed, out)
    first_break = _line_break(theirs[0]) if theirs else ""
    kept: list[str] = []
    for op, i1, i2, j1, j2 in opcodes:
        if op == "equal":
            kept.extend(theirs[i1:i2])
            continue
        for k, line in enumerate(out[j1:j2]):
            # The break of the user's line this one stands for: the replaced line at its
            # place, else the last line before it; the file's first break for a line past
            # the user's last, unbroken, line.
            row = i1 + k if i1 + k < i2 else (i2 - 1 if i2 > i1 else i1 - 1)
            brk = _line_break(theirs[row]) if 0 <= row < len(theirs) else first_break
            if line.endswith("\n"):
                line = line[:-1] + (brk or first_break or "\n")
            kept.append(line)
    return bom + "".join(kept)


def _line_break(line: str) -> str:
    return line[len(line.rstrip("\r\n")):]


_LAYOUT = frozenset({tokenize.NEWLINE, tokenize.NL, tokenize.INDENT, tokenize.DEDENT,
                     tokenize.COMMENT, tokenize.ENDMARKER})


def _respell(original: str, view: str, output: str, changed: list[tuple[int, int, int, int]],
             out: list[str]) -> None:
    """Respell, in place, the names of the changed lines `out` (`changed`: the view's rows i1:i2
    that became the output's rows j1:j2) the way the user's text does: a name the regeneration
    kept from a line of the user's (the same token, found by aligning the changed lines, then a
    token diff of each aligned stretch; a statement moved elsewhere is looked for among the
    lines removed) has the user's spelling of that very token; a name it wrote (an annotation, a
    move) has the one spelling the user gives that name, where the user gives only one, else its
    NFKC form. Any spelling reads the same, so an imperfect alignment costs only a spelling.
    Linear in the changed lines but for the token diffs, each bounded (`_DIFF_BOUND`)."""
    try:
        theirs, seen, made = _tokens(original), _tokens(view), _tokens(output)
    except (tokenize.TokenError, SyntaxError):
        return
    # The view renames tokens and moves nothing: token k of the view is token k of the user's.
    user_of = {v.start: u.string for u, v in zip(theirs, seen, strict=False)
               if v.type == tokenize.NAME and u.string != v.string} \
        if len(theirs) == len(seen) else {}
    seen_rows, made_rows = _by_row(seen), _by_row(made)
    renames: dict[tuple[int, int], str] = {}
    used: set[tuple[int, int]] = set()

    def pair(vs: list[tokenize.TokenInfo], os_: list[tokenize.TokenInfo]) -> None:
        if len(vs) * len(os_) > _DIFF_BOUND:
            return
        matcher = difflib.SequenceMatcher(None, [(t.type, t.string) for t in vs],
                                          [(t.type, t.string) for t in os_], autojunk=False)
        for a, b, size in matcher.get_matching_blocks():
            for v, o in zip(vs[a:a + size], os_[b:b + size], strict=True):
                used.add(v.start)
                if o.type == tokenize.NAME:
                    renames[o.start] = user_of.get(v.start, o.string)

    def stretch(rows: list[int], index: dict[int, list[tokenize.TokenInfo]]
                ) -> list[tokenize.TokenInfo]:
        return [t for row in rows for t in index.get(row, ())]

    def align(vrows: list[int], orows: list[int], level: int) -> None:
        """Pairs the lines whose key (`_line_key` at `level`) is the same, in order, and
        aligns what lies between them one level finer; at the last level, by tokens."""
        if not vrows or not orows:
            return
        if level == len(_KEY_LEVELS):
            pair(stretch(vrows, seen_rows), stretch(orows, made_rows))
            return
        vk = [_line_key(seen_rows.get(r, []), level) for r in vrows]
        ok = [_line_key(made_rows.get(r, []), level) for r in orows]
        va = oa = 0
        for a, b, size in difflib.SequenceMatcher(None, vk, ok, autojunk=False).get_matching_blocks():
            align(vrows[va:a], orows[oa:b], level + 1)
            for k in range(size):
                pair(seen_rows.get(vrows[a + k], []), made_rows.get(orows[b + k], []))
            va, oa = a + size, b + size

    for i1, i2, j1, j2 in changed:
        align(list(range(i1 + 1, i2 + 1)), list(range(j1 + 1, j2 + 1)), 0)
    out_rows = [row for _, _, j1, j2 in changed for row in range(j1 + 1, j2 + 1)]
    # A statement moved out of its block (a hoisted load): removed in one place, added in another.
    left = [t for t in stretch(out_rows, made_rows) if t.start not in renames]
    if any(t.type == tokenize.NAME for t in left):
        view_rows = [row for i1, i2, _, _ in changed for row in range(i1 + 1, i2 + 1)]
        pair([t for t in stretch(view_rows, seen_rows) if t.start not in used], left)
    spelling = _spellings(original)
    edits = [(t, renames.get(t.start) or spelling.get(t.string, t.string))
             for t in stretch(out_rows, made_rows) if t.type == tokenize.NAME]
    _rename(out, [(t, new) for t, new in edits if new != t.string])


# The most tokens-squared one token diff compares (a few long lines): beyond it, names keep the
# spelling the user gives the name throughout, if one.
_DIFF_BOUND = 40_000
# How finely `_respell` keys a line when it aligns changed lines: its tokens without an
# annotation (`x: T = v` is keyed as `x = v`), then only those before its first bracket (a
# call whose arguments changed is still the same statement).
_KEY_LEVELS = ("statement", "head")


def _by_row(toks: list[tokenize.TokenInfo]) -> dict[int, list[tokenize.TokenInfo]]:
    rows: dict[int, list[tokenize.TokenInfo]] = {}
    for t in toks:
        if t.type not in _LAYOUT:
            rows.setdefault(t.start[0], []).append(t)
    return rows


def _line_key(toks: list[tokenize.TokenInfo], level: int) -> tuple[str, ...]:
    words = [t.string for t in toks]
    if len(words) > 2 and words[1] == ":" and toks[0].type == tokenize.NAME:
        depth = 0
        for i, w in enumerate(words[2:], 2):
            depth += (w in "([{") - (w in ")]}") if len(w) == 1 else 0
            if w == "=" and depth == 0:
                words = words[:1] + words[i:]
                break
    if _KEY_LEVELS[level] == "head":
        words = words[:next((i for i, w in enumerate(words) if w == "("), len(words))]
    return tuple(words)


def _tokens(text: str) -> list[tokenize.TokenInfo]:
    """Python's tokens of `text`, every identifier one NAME token. The `tokenize` module reads a
    name as a run of `\\w` characters, CPython as a run of ASCII word characters and any non-ASCII
    ones (then NFKC-normalised): `e` + U+0301 (a decomposed `é`), or `℘`, is one name to
    CPython and a NAME plus an ERRORTOKEN to `tokenize`; such runs are joined here."""
    # newline="": rows are counted at the same line breaks as `python_lines`.
    out: list[tokenize.TokenInfo] = []
    for t in tokenize.generate_tokens(io.StringIO(text, newline="").readline):
        if t.type == tokenize.ERRORTOKEN and not t.string.isascii() and t.string.strip():
            t = t._replace(type=tokenize.NAME)
        if t.type in (tokenize.NAME, tokenize.NUMBER) and out and out[-1].type == tokenize.NAME \
                and out[-1].end == t.start and (t.type == tokenize.NAME or t.string.isalnum()):
            prev = out.pop()
            t = tokenize.TokenInfo(tokenize.NAME, prev.string + t.string, prev.start, t.end, prev.line)
        out.append(t)
    return out


def _rename(lines: list[str], renames: list[tuple[tokenize.TokenInfo, str]]) -> None:
    """Each token (one line each) replaced by its new text, in place."""
    for t, new in reversed(renames):  # right to left: the columns of the rest stay valid
        row = t.start[0] - 1
        lines[row] = lines[row][:t.start[1]] + new + lines[row][t.end[1]:]


def _spellings(text: str) -> dict[str, str]:
    """Normalised name -> the user's spelling, for the names the user spells only one way, and
    not in NFKC form (`ｔ` everywhere: `t` -> `ｔ`; `ｔ` and `t` both: no entry)."""
    try:
        toks = _tokens(text)
    except (tokenize.TokenError, SyntaxError):
        return {}
    seen: dict[str, set[str]] = {}
    for t in toks:
        if t.type == tokenize.NAME:
            seen.setdefault(unicodedata.normalize("NFKC", t.string), set()).add(t.string)
    return {norm: spelled.pop() for norm, spelled in seen.items()
            if len(spelled) == 1 and norm not in spelled}
