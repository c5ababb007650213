"""Mutation fuzzing of kernel files: seeded edits an attacker could make, run through the CLI in-process.

Guarantees: `mutate(text, rng)` (token-level edits, op and keyword swaps, injected statements,
statements enclosed in a loop or a branch) and
`mutate_file(text, rng)` (whole-file changes: a BOM, CRLF line ends, deep nesting, huge numbers,
module-level side effects) are pure functions of the text and the generator's state (same seed,
same mutant); every mutant differs from its source. `run_cli(text, folder, name)` writes the
mutant to its own file (fresh names keep linecache and the frontend's per-file caches honest) and
runs `pl.show_inferred.main([path])` with stdout/stderr captured, never letting an exception out.
`classify` sorts an outcome into "ok" (exit 0), "diagnostic" (exit 2, one located error, no
traceback, no exception class name) or a failure kind; `verify` checks a successful run's
output: it re-parses, is a fixed point, compiles to the same programs, and each program computes
the same under `pl.interpret` before and after compilation. `signature` names a failure so that
repeats of one bug collapse. `fuzz(...)` ties these together and `shrink` reduces a failing
mutant line by line.
"""

from __future__ import annotations

import ast
import contextlib
import difflib
import io
import keyword
import random
import re
import signal
import tokenize
import traceback
import warnings
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

OK_KINDS = ("ok", "diagnostic")
_ROOT = Path(__file__).resolve().parent.parent
_LOC = re.compile(r"^\s*--> .+:\d+:\d+\s*$", re.M)
_FRAME = re.compile(r'File "(?P<file>[^"]+)", line (?P<line>\d+), in (?P<fn>\S+)')
_OPERATORS = ["+", "-", "*", "/", "//", "%", "<", ">", "==", "!=", "<=", ">=", "**", "&", "|",
              "=", ":", ",", "."]
_NUMBERS = ["0", "-1", "2147483648", "1e30", "0.5"]
# DSL ops an op swap picks from (tests/test_fuzz.py checks that each exists in `pl`).
OPS = ["add", "sub", "mul", "div", "maximum", "minimum", "exp", "neg", "abs", "sqrt", "log",
       "recip", "relu", "row_max", "row_sum", "row_expand_sub", "row_expand_div", "row_expand_mul",
       "matmul", "cast", "load", "store", "move", "slice", "assemble", "create_tile",
       "create_tensor", "full", "transpose", "reshape", "range", "yield_", "xor"]
_KEYWORDS = ["if", "elif", "else", "for", "while", "in", "not", "and", "or", "is", "return",
             "yield", "pass", "break", "continue", "def", "class", "with", "as", "lambda", "None",
             "True", "False", "del", "global", "import", "from", "raise", "assert", "async", "await"]
_KWARGS = ["type", "init_values", "b_trans", "a_trans", "out_dtype", "target_type", "dtype",
           "target_memory", "strict_ssa", "level", "role"]
# Keyword arguments an "add_kwarg" edit gives a pl call: each changes what the op computes (or
# refuses), so a conversion or a pass that drops it changes the result silently.
_SEMANTIC_KWARGS = ["clamp=True", "atomic=pl.AtomicType.Add", "init_value=1.5", "init_value=0",
                    "pad_value=pl.PadValue.max", "pad_value=pl.PadValue.min", "keep_dim=False",
                    "keep_dim=True", "high_precision=True", "a_trans=True", "b_trans=True",
                    "out_dtype=pl.FP16", "mode='floor'", "transpose=True", "descending=True",
                    "exhausted=True", "cmp_type=2", "target_memory=pl.MemorySpace.Mat"]
# Statements an attacker injects into a block ({n}, {m}: names of the file).
_INJECTED = ["{n} = pl.add({n}, {m})", "return {n}", "pass", "break", "continue", "{n} = {m}",
             "del {n}", "print({n})", "assert {n}", "{n} += 1", "global {n}", "yield {n}",
             "import os", "{n} = lambda: {m}", "{n} = pl.yield_({m})", "raise ValueError({n})",
             "with open({n}) as {m}: pass", "{n}: pl.Tile[[16, 16], pl.FP32] = {m}",
             "if {n}: pass", "for {n} in pl.range(4): pass", "while {n}: break",
             "{n}, {m} = {m}, {n}", "{n} = {n}[0]", "{n}.x = {m}", "nonlocal {n}"]
# Whole-file mutations (`mutate_file`), and what each does.
# The in-place writes a "write_between" edit puts between a value's definition and a later
# statement reading it ({n}: the value, {m}: a value defined before): the reader must see the
# write whatever space compiling moves the value to, and whatever copy or view it reads.
_INPLACE_WRITES = ["pl.write({n}, [0, 0], 0.5)", "pl.write({n}, [1, 3], -2.0)",
                   "{n} = pl.write({n}, [0, 1], 3.0)", "pl.tile.fillpad_inplace({n})",
                   "pl.assemble({n}, {m}, [0, 0])", "{n} = pl.assemble({n}, {m}, [0, 0])"]
FILE_KINDS = ("bom", "crlf", "deep_parens", "deep_blocks", "huge_number", "side_effect")
# Module-level statements with effects; `{marker}` runs are detected by the file they create.
SIDE_EFFECTS = ['open(__file__ + ".ran", "w").close()',
                '__import__("os").system("touch \'" + __file__ + ".ran\'")',
                "raise SystemExit(3)", '__import__("sys").exit(0)', 'print("side effect")',
                'raise ValueError("boom")', "1 / 0", "import no_such_module_for_pl_fuzz"]
_HUGE = ["9" * 5000, "1e999", "0x" + "F" * 80, "2**64", "10**100", "-2**63",
         "1_000_000_000_000_000_000", "1" * 40]
# The invariants beyond "exit 0, or exit 2 with one located error and no traceback", each of which
# `fuzz` can check or not: no exception class name in what pl says, no module code run while
# compiling, and `verify`'s checks of a successful run's output.
CHECKS = ("exception_names", "side_effects", "outputs")
EDIT_KINDS = ("delete", "duplicate", "swap", "name", "number", "operator", "drop_line", "indent",
              "op_swap", "keyword_swap", "inject", "enclose", "add_kwarg", "write_between",
              "nest_tile_op", "annotate_space", "scope", "diverge")
# Where a "nest_tile_op" edit writes the value `{e}` of a line `{n} = {e}` again, nested outside a
# statement's top-level call (an if's or while's condition, a loop bound, init_values, scalar
# arithmetic, a tuple): each computes what the line did, so a missing move shows as an error or
# as another result. "after": a line inserted after it; else the line itself is rewritten.
_NESTINGS = (
    ("if", "after", "if pl.tile.read({e}, [0, 0]) < pl.tile.read({e}, [0, 0]): {n} = {e}"),
    ("while", "after", "while pl.tile.read({e}, [0, 0]) < pl.tile.read({e}, [0, 0]): {n} = {e}"),
    ("range", "after",
     "for _nest in pl.range(pl.cast(pl.tile.read({e}, [0, 0]) * 0.0, pl.INDEX) + 1): {n} = {e}"),
    ("init_values", "after",
     "for _nest, (_nest_c,) in pl.range(1, init_values=({e},)): {n} = pl.yield_(_nest_c)"),
    ("scalar", "line", "{n} = pl.add({e}, pl.tile.read({e}, [0, 0]) * 0.0)"),
    ("tuple", "line", "{n}, _nest = {e}, {e}"),
)
# The if a "diverge" edit merges value `{n}` with another tile through (`_div`), before writing
# `_div` in place: the other tile is a copy of `{n}` in `{space}` or another value `{m}`.
_DIVERGING = (
    ["if pl.tile.read({n}, [0, 0]) < 0.0:", "    _div = {n}", "else:",
     "    _div = pl.tile.move({n}, target_memory=pl.MemorySpace.{space})"],
    ["if pl.tile.read({n}, [0, 0]) < 0.0:", "    _div = {m}", "else:", "    _div = {n}"],
)
# The memory spaces an "annotate_space" edit writes into a tile annotation.
_SPACES = ("Vec", "Mat", "Left", "Right", "Acc", "Bias")
# What an "enclose" edit puts around a run of statements: loops and branches are where values
# merge (loop carries, if results), which token edits rarely make.
_ENCLOSERS = (["for _e in pl.range(1):"], ["for _e in pl.range(2):"], ["for _e in pl.range(3):"],
              ["for _e in pl.unroll(2):"], ["for _e in pl.range(2):", "    if _e == 0:"],
              ["for _e in pl.range(2):", "    if _e == 1:"])

_SCOPES = (["with pl.at(level=pl.Level.CORE_GROUP):"],)


@dataclass(frozen=True)
class Tok:
    kind: int
    text: str
    line: int  # 0-based line index
    col: int  # 0-based character column
    end: int  # exclusive end column on the same line


@dataclass(frozen=True)
class Mutant:
    text: str
    edits: tuple[str, ...]
    kind: str = "edit"  # "edit" (token-level), or the whole-file kind of `FILE_KINDS`


@dataclass(frozen=True)
class Outcome:
    kind: str  # "ok", "diagnostic", or a failure: "crash", "status", "traceback", "unlocated", "timeout"
    status: int | None
    out: str
    err: str
    detail: str = ""

    @property
    def failed(self) -> bool:
        return self.kind not in OK_KINDS


@dataclass
class Failure:
    signature: str
    source: str  # the example file the mutant came from
    mutant: Mutant
    outcome: Outcome
    count: int = 1


@dataclass
class Report:
    cases: int = 0
    kinds: dict[str, int] = field(default_factory=dict)  # outcomes by kind, and "unmutable" files
    mutations: dict[str, int] = field(default_factory=dict)  # mutants by `Mutant.kind`
    failures: dict[str, Failure] = field(default_factory=dict)


# -- tokens and edits -------------------------------------------------------------------------

def tokens(text: str) -> list[Tok]:
    """The single-line, non-layout tokens of `text` (empty if Python cannot tokenize it)."""
    out: list[Tok] = []
    skip = {tokenize.NEWLINE, tokenize.NL, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER,
            tokenize.COMMENT, tokenize.ENCODING}
    try:
        for t in tokenize.generate_tokens(io.StringIO(text).readline):
            if t.type in skip or t.start[0] != t.end[0]:
                continue
            out.append(Tok(t.type, t.string, t.start[0] - 1, t.start[1], t.end[1]))
    except (tokenize.TokenError, SyntaxError):
        pass
    return out


def _replace(lines: list[str], tok: Tok, new: str) -> None:
    s = lines[tok.line]
    lines[tok.line] = s[:tok.col] + new + s[tok.end:]


def _edit(lines: list[str], toks: list[Tok], rng: random.Random,
          kinds: Sequence[str] = EDIT_KINDS) -> str | None:
    """Apply one random edit (of `kinds`) to `lines` in place; its description, or None if it did
    not apply."""
    op = rng.choice(list(kinds))
    if op == "inject":
        return _inject(lines, toks, rng)
    if op == "enclose":
        return _enclose(lines, rng)
    if op == "scope":
        # A run of statements made a task of its own: outlined into an InCore function in an
        # Opaque or Orchestration function (an error where a scope does not belong).
        return _enclose(lines, rng, _SCOPES)
    if op == "add_kwarg":
        return _add_kwarg(lines, toks, rng)
    if op == "write_between":
        return _write_between(lines, toks, rng)
    if op == "diverge":
        return _write_between(lines, toks, rng, diverge=True)
    if op == "nest_tile_op":
        return _nest_tile_op(lines, rng)
    if op == "annotate_space":
        return _annotate_space(lines, rng)
    if op in ("drop_line", "indent") or not toks:
        code = [i for i, ln in enumerate(lines) if ln.strip()]
        if not code:
            return None
        i = rng.choice(code)
        if op == "drop_line":
            desc = f"line {i + 1}: drop {lines[i].strip()!r}"
            del lines[i]
            return desc
        body = lines[i].lstrip(" \t")
        indent = len(lines[i]) - len(body)
        width = max(0, indent + rng.choice([-8, -4, -1, 1, 4]))
        lines[i] = " " * width + body
        return f"line {i + 1}: indent {indent} -> {width}"
    t = rng.choice(toks)
    where = f"line {t.line + 1}:{t.col + 1}"
    if op == "delete":
        _replace(lines, t, "")
        return f"{where}: delete {t.text!r}"
    if op == "duplicate":
        _replace(lines, t, f"{t.text} {t.text}")
        return f"{where}: duplicate {t.text!r}"
    if op == "swap":
        pairs = [(a, b) for a, b in zip(toks, toks[1:], strict=False) if a.line == b.line]
        if not pairs:
            return None
        a, b = rng.choice(pairs)
        s = lines[a.line]
        lines[a.line] = s[:a.col] + b.text + s[a.end:b.col] + a.text + s[b.end:]
        return f"line {a.line + 1}:{a.col + 1}: swap {a.text!r} and {b.text!r}"
    if op == "name":
        names = [x for x in toks if x.kind == tokenize.NAME and not keyword.iskeyword(x.text)]
        vocab = sorted({x.text for x in names})
        return _respell(lines, names if len(vocab) > 1 else [], rng, lambda _: vocab,
                        "name {!r} -> {!r}")
    if op == "number":
        nums = [x for x in toks if x.kind == tokenize.NUMBER]
        return _respell(lines, nums, rng, lambda _: _NUMBERS, "number {} -> {}")
    if op == "op_swap":
        calls = [b for a, dot, b in zip(toks, toks[1:], toks[2:], strict=False)
                 if a.text == "pl" and dot.text == "." and b.kind == tokenize.NAME and b.text in OPS]
        return _respell(lines, calls, rng, lambda _: OPS, "op pl.{} -> pl.{}")
    if op == "keyword_swap":
        kwargs = [b for a, b, c in zip(toks, toks[1:], toks[2:], strict=False)
                  if a.text in ("(", ",") and b.kind == tokenize.NAME and c.text == "="]
        words = [x for x in toks if keyword.iskeyword(x.text)]
        return _respell(lines, kwargs + words, rng,
                        lambda t: _KWARGS if t in kwargs else _KEYWORDS, "keyword {!r} -> {!r}")
    ops = [x for x in toks if x.kind == tokenize.OP and x.text in _OPERATORS]
    return _respell(lines, ops, rng, lambda _: _OPERATORS, "operator {!r} -> {!r}")


def _respell(lines: list[str], candidates: list[Tok], rng: random.Random,
             vocab: Callable[[Tok], Sequence[str]], what: str) -> str | None:
    """Replace one of `candidates` by another word of its `vocab`; the edit's description (`what`
    formatted with the old and the new text), or None if there is no candidate."""
    if not candidates:
        return None
    t = rng.choice(candidates)
    new = rng.choice([v for v in vocab(t) if v != t.text])
    _replace(lines, t, new)
    return f"line {t.line + 1}:{t.col + 1}: " + what.format(t.text, new)


def _inject(lines: list[str], toks: list[Tok], rng: random.Random) -> str | None:
    """Insert one statement before a random indented code line, at its indentation."""
    code = [i for i, ln in enumerate(lines) if ln.strip() and ln[:1] in " \t"
            and not ln.lstrip().startswith(("#", ")", "]", "@"))]
    names = sorted({x.text for x in toks if x.kind == tokenize.NAME and not keyword.iskeyword(x.text)})
    if not code or not names:
        return None
    i = rng.choice(code)
    stmt = rng.choice(_INJECTED).format(n=rng.choice(names), m=rng.choice(names))
    indent = lines[i][:len(lines[i]) - len(lines[i].lstrip(" \t"))]
    lines.insert(i, indent + stmt)
    return f"line {i + 1}: inject {stmt!r}"


def _write_between(lines: list[str], toks: list[Tok], rng: random.Random,
                   diverge: bool = False) -> str | None:
    """Insert an in-place write (`_INPLACE_WRITES`) of a value assigned in a function body right
    before a later one-line statement that reads it, at that statement's indentation.
    `diverge`: the write goes through an if result that is the value on one path and another
    tile on the other (`_DIVERGING`: often in another space, so compiling copies one of them)."""
    defs: dict[str, int] = {}  # name -> the line first assigning it
    uses: list[tuple[str, int]] = []
    for i, t in enumerate(toks):
        if t.kind != tokenize.NAME or keyword.iskeyword(t.text):
            continue
        after = toks[i + 1] if i + 1 < len(toks) else None
        line = lines[t.line]
        if not line[:t.col].strip() and t.col >= 8 and after is not None \
                and after.line == t.line and after.text in ("=", ":"):
            defs.setdefault(t.text, t.line)
        elif t.text in defs and t.line > defs[t.text] and _simple_statement(lines, t.line):
            uses.append((t.text, t.line))
    if not uses:
        return None
    name, i = rng.choice(sorted(set(uses)))
    other = rng.choice(sorted(n for n, at in defs.items() if at < i))
    indent = lines[i][:len(lines[i]) - len(lines[i].lstrip(" "))]
    if diverge:
        stmt = rng.choice(_INPLACE_WRITES).format(n="_div", m=other)
        merge = [ln.format(n=name, m=other, space=rng.choice(_SPACES[:2]))
                 for ln in rng.choice(_DIVERGING)]
        lines[i:i] = [indent + ln for ln in (*merge, stmt)]
        return f"line {i + 1}: write through an if result {' / '.join(merge)!r}: {stmt!r}"
    stmt = rng.choice(_INPLACE_WRITES).format(n=name, m=other)
    lines.insert(i, indent + stmt)
    return f"line {i + 1}: inject in-place write {stmt!r}"


def _add_kwarg(lines: list[str], toks: list[Tok], rng: random.Random) -> str | None:
    """Give a `pl.<op>(...)` call that closes on its own line one more keyword argument."""
    closes: list[tuple[Tok, Tok]] = []
    for i, t in enumerate(toks[:-3]):
        if t.text != "pl" or toks[i + 1].text != "." or toks[i + 2].kind != tokenize.NAME:
            continue
        j = i + 3
        while j + 1 < len(toks) and toks[j].text == "." and toks[j + 1].kind == tokenize.NAME:
            j += 2  # pl.tile.add, pl.tensor.slice
        if j >= len(toks) or toks[j].text != "(":
            continue
        depth = 0
        for k in range(j, len(toks)):
            if toks[k].line != toks[j].line:
                break
            depth += {"(": 1, "[": 1, ")": -1, "]": -1}.get(toks[k].text, 0)
            if depth == 0:
                closes.append((toks[i + 2], toks[k]))
                break
    if not closes:
        return None
    name, close = rng.choice(closes)
    # Mostly a keyword the op takes (else nearly every mutant is an "unknown keyword" error).
    taken = _op_kwargs().get(name.text, set())
    fitting = [k for k in _SEMANTIC_KWARGS if k.split("=")[0] in taken]
    kwarg = rng.choice(fitting if fitting and rng.random() < 0.9 else _SEMANTIC_KWARGS)
    line = lines[close.line]
    opened = line[:close.col].rstrip().endswith("(")
    lines[close.line] = line[:close.col] + ("" if opened else ", ") + kwarg + line[close.col:]
    return f"line {close.line + 1}: pl.{name.text}(..., {kwarg})"


_ASSIGNED_CALL = re.compile(r"^(\s+)(\w+)(?:\s*:\s*[^=]+)?\s*=\s*(pl\.[\w.]+\(.*\))\s*(?:#.*)?$")


def _nest_tile_op(lines: list[str], rng: random.Random) -> str | None:
    """Write the pl call a one-line assignment `n = pl.op(...)` binds again, nested where the
    frontend leaves it (`_NESTINGS`): in a condition, a loop bound, init_values, scalar
    arithmetic or a tuple."""
    sites = [(i, m) for i in range(len(lines)) if _simple_statement(lines, i)
             for m in [_ASSIGNED_CALL.match(lines[i])] if m is not None and not _unbalanced(m[3])]
    if not sites:
        return None
    i, m = rng.choice(sites)
    indent, name, value = m[1], m[2], m[3]
    kind, where, template = rng.choice(_NESTINGS)
    text = template.format(n=name, e=value)
    if where == "after":
        lines.insert(i + 1, indent + text)
    else:
        lines[i] = indent + text
    return f"line {i + 1}: nest {kind} {text!r}"


_TILE_ANNOTATION = re.compile(r":\s*pl\.Tile\[")


def _annotate_space(lines: list[str], rng: random.Random) -> str | None:
    """Give a tile annotation `pl.Tile[shape, dtype(, space...)]` a random memory space (written
    after its dtype, or in place of the one it names)."""
    sites = [(i, m.end()) for i, ln in enumerate(lines) for m in [_TILE_ANNOTATION.search(ln)]
             if m is not None]
    if not sites:
        return None
    i, start = rng.choice(sites)
    line = lines[i]
    depth, items, at = 1, [start], start
    while at < len(line) and depth:
        c = line[at]
        depth += {"[": 1, "(": 1, "]": -1, ")": -1}.get(c, 0)
        if c == "," and depth == 1:
            items.append(at + 1)
        at += 1
    if depth or len(items) < 2:
        return None  # a multi-line annotation, or one without a dtype
    end = at - 1  # the closing bracket
    space = f"pl.MemorySpace.{rng.choice(_SPACES)}"
    if len(items) == 2:
        lines[i] = line[:end] + f", {space}" + line[end:]
    else:
        third_end = items[3] - 1 if len(items) > 3 else end
        if not re.search(r"\b(?:MemorySpace|Mem)\.", line[items[2]:third_end]):
            return None  # its third item is a view or a MemRef, not a space
        lines[i] = line[:items[2]] + f" {space}" + line[third_end:]
    return f"line {i + 1}: annotate {space}"


def _op_kwargs() -> dict[str, set[str]]:
    """The keyword names each DSL op name takes (`add` -> those of tile.add and tensor.add...)."""
    from pl.ops.registry import all_ops

    out: dict[str, set[str]] = {}
    for op in all_ops().values():
        for spelling in op.spellings:
            out.setdefault(spelling.rsplit(".", 1)[-1], set()).update(k.name for k in op.kwargs)
    return out


def _simple_statement(lines: list[str], i: int) -> bool:
    """Whether line `i` is a whole one-line simple statement inside a function body, other than
    a return or a yield (which a loop around them only makes a diagnostic)."""
    line = lines[i]
    body = line.lstrip(" ")
    if len(line) - len(body) < 8 or not body or body.startswith(("#", "@", "return")) \
            or "yield_(" in body:
        return False
    previous = lines[i - 1].rstrip() if i else ""
    if previous.endswith(("(", "[", ",", "\\")) or _unbalanced(previous):
        return False  # a continuation line
    try:
        tree = ast.parse(body)
    except SyntaxError:
        return False
    return len(tree.body) == 1 and not isinstance(
        tree.body[0], (ast.If, ast.For, ast.While, ast.With, ast.FunctionDef, ast.ClassDef))


def _unbalanced(line: str) -> bool:
    code = line.split("#", 1)[0]
    return sum(code.count(c) for c in "([{") != sum(code.count(c) for c in ")]}")


def _enclose(lines: list[str], rng: random.Random,
             enclosers: Sequence[list[str]] = _ENCLOSERS) -> str | None:
    """Enclose a run of 1..3 one-line statements of one block in a loop or a branch (or one of
    `enclosers`)."""
    starts = [i for i in range(len(lines)) if _simple_statement(lines, i)]
    if not starts:
        return None
    i = rng.choice(starts)
    indent = lines[i][:len(lines[i]) - len(lines[i].lstrip(" "))]
    end, length = i + 1, rng.randint(1, 3)
    while end - i < length and end < len(lines) and _simple_statement(lines, end) \
            and len(lines[end]) - len(lines[end].lstrip(" ")) == len(indent):
        end += 1
    header = rng.choice(enclosers)
    deeper = indent + "    " * len(header)
    lines[i:end] = [indent + h for h in header] + [deeper + ln.lstrip(" ") for ln in lines[i:end]]
    return f"lines {i + 1}-{end}: enclose in {' / '.join(h.strip() for h in header)!r}"


def mutate(text: str, rng: random.Random, max_edits: int = 2,
           kinds: Sequence[str] = EDIT_KINDS) -> Mutant:
    """A mutant of `text` with 1..max_edits random token-level edits (always different)."""
    for _ in range(100):
        lines = text.split("\n")
        edits: list[str] = []
        for _ in range(rng.randint(1, max_edits)):
            desc = _edit(lines, tokens("\n".join(lines)), rng, kinds)
            if desc is not None:
                edits.append(desc)
        new = "\n".join(lines)
        if edits and new != text:
            return Mutant(new, tuple(edits))
    raise ValueError("text cannot be mutated")


def mutate_file(text: str, rng: random.Random, kinds: Sequence[str] = FILE_KINDS) -> Mutant:
    """One whole-file mutation of `text` (a kind of `FILE_KINDS`), always different from it."""
    kind = rng.choice(list(kinds))
    lines = text.split("\n")
    code = [i for i, ln in enumerate(lines) if ln.strip() and not ln.lstrip().startswith("#")]
    if kind == "bom":
        return Mutant("\ufeff" + text, ("BOM at the start",), kind)
    if kind == "crlf":
        return Mutant(text.replace("\n", "\r\n"), ("CRLF line ends",), kind)
    if kind == "deep_parens":
        assigns = [i for i in code if re.match(r"\s+\w+(: [^=]+)? = [^=]", lines[i])
                   and lines[i].count("(") == lines[i].count(")")]
        if assigns:
            i, n = rng.choice(assigns), rng.choice([3, 60, 199, 250, 3000])
            head, _, value = lines[i].partition(" = ")
            lines[i] = f"{head} = {'(' * n}{value}{')' * n}"
            return Mutant("\n".join(lines), (f"line {i + 1}: value in {n} parentheses",), kind)
        kind = "deep_blocks"
    if kind == "deep_blocks":
        body = [i for i in code if lines[i].startswith("        ") and lines[i].rstrip()[-1] not in "(,[:"]
        if body:
            i, n = rng.choice(body), rng.choice([1, 3, 25, 101])
            header = rng.choice(["if True:", "for _ in pl.range(1):", "with open(__file__):"])
            indent = lines[i][:len(lines[i]) - len(lines[i].lstrip())]
            nested = [indent + "    " * k + header for k in range(n)]
            lines[i:i + 1] = nested + ["    " * n + lines[i]]
            return Mutant("\n".join(lines), (f"line {i + 1}: in {n} x {header!r}",), kind)
        kind = "huge_number"
    if kind == "huge_number":
        nums = [t for t in tokens(text) if t.kind == tokenize.NUMBER]
        if nums:
            t, new = rng.choice(nums), rng.choice(_HUGE)
            _replace(lines, t, new)
            return Mutant("\n".join(lines), (f"line {t.line + 1}:{t.col + 1}: number {t.text} -> "
                                              f"{new[:12]}{'...' if len(new) > 12 else ''}",), kind)
    effect = rng.choice(SIDE_EFFECTS)
    imports = [i for i, ln in enumerate(lines) if ln.startswith(("import ", "from "))]
    at = imports[-1] + 1 if imports else 0
    lines.insert(at, effect)
    return Mutant("\n".join(lines), (f"line {at + 1}: module-level {effect!r}",), "side_effect")


# -- running and classifying ------------------------------------------------------------------

class _Timeout(BaseException):
    """Raised by the alarm; a BaseException so that `except Exception` in pl cannot eat it."""


# How much more address space interpreting one mutant may take: a mutated shape can ask numpy for
# tens of GiB, which the kernel grants lazily and then kills this whole process for.
INTERPRET_MEMORY = 4 << 30


@contextlib.contextmanager
def memory_limit(extra: int) -> Iterator[None]:
    """Allocations past `extra` more bytes of address space fail with MemoryError (Linux; a
    no-op where the limit cannot be read or set). The previous limit comes back afterwards."""
    try:
        import resource

        with open("/proc/self/statm", encoding="ascii") as f:
            in_use = int(f.read().split()[0]) * resource.getpagesize()
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    except (ImportError, OSError, ValueError):
        yield
        return
    limit = in_use + extra
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    if soft != resource.RLIM_INFINITY and soft <= limit:
        yield  # already limited at least as tightly
        return
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


@contextlib.contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    def fire(_sig: int, _frame: object) -> None:
        raise _Timeout()

    if not hasattr(signal, "setitimer") or seconds <= 0:
        yield
        return
    previous = signal.signal(signal.SIGALRM, fire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def run_cli(text: str, folder: Path, name: str, timeout: float = 20.0,
            checks: Collection[str] = CHECKS) -> Outcome:
    """Write `text` to folder/name.py and run the CLI's main on it in-process."""
    from pl.show_inferred.cli import main

    path = folder / f"{name}.py"
    path.write_bytes(text.encode("utf-8", errors="surrogatepass"))  # the text's own line ends
    out, err = io.StringIO(), io.StringIO()
    status: int | None = None
    detail = ""
    try:
        with _time_limit(timeout), contextlib.redirect_stdout(out), \
                contextlib.redirect_stderr(err), warnings.catch_warnings():
            # Mutants like `[0, 0,] [64]` draw CPython's SyntaxWarning; not the CLI's business.
            warnings.simplefilter("ignore", SyntaxWarning)
            status = main([str(path), "--backend", "910B", "--no-cache"])
    except _Timeout:
        return Outcome("timeout", None, out.getvalue(), err.getvalue(), f"over {timeout}s")
    except BaseException as e:  # noqa: BLE001 - anything escaping main is the failure we look for
        if isinstance(e, KeyboardInterrupt):
            raise
        detail = "".join(traceback.format_exception(e))
        return Outcome("crash", None, out.getvalue(), err.getvalue(), detail)
    finally:
        ran = Path(f"{path}.ran")
        effect = ran.exists()
        ran.unlink(missing_ok=True)
    if effect and "side_effects" in checks:
        return Outcome("side_effect", status, out.getvalue(), err.getvalue(),
                       "compiling the kernel ran its module-level code")
    return classify(status, out.getvalue(), err.getvalue(), checks)


# An exception's class name (`KeyError`, `SystemExit`, ...), in what pl says rather than in the
# user's source lines that a diagnostic quotes (`12 | raise ValueError(...)`).
_EXCEPTION_NAME = re.compile(r"\b[A-Z]\w*(?:Error|Exception|Exit|Interrupt)\b")
_QUOTED = re.compile(r"^\s*\d*\s*\|")


def exception_names(err: str) -> list[str]:
    """Exception class names in pl's own words on stderr (headers, help, notes)."""
    return [m.group(0) for ln in err.splitlines() if not _QUOTED.match(ln)
            for m in _EXCEPTION_NAME.finditer(re.sub(r"'[^']*'", "", ln))]  # not the user's names


def classify(status: int | None, out: str, err: str, checks: Collection[str] = CHECKS) -> Outcome:
    if "Traceback" in out or "Traceback" in err:
        return Outcome("traceback", status, out, err, err)
    if "exception_names" in checks and exception_names(err):
        return Outcome("exception_name", status, out, err, err)
    if status == 0:
        return Outcome("ok", status, out, err)
    if status != 2:
        return Outcome("status", status, out, err, err)
    headers = [ln for ln in err.splitlines() if ln.startswith("Error:")]
    if len(headers) != 1 or not _LOC.search(err):
        return Outcome("unlocated", status, out, err, err)
    return Outcome("diagnostic", status, out, err)


def verify(outcome: Outcome, folder: Path, name: str, timeout: float = 20.0) -> Outcome:
    """The invariants of a successful run (`outcome.kind == "ok"`) on folder/name.py: its output
    re-parses, regenerates to itself, compiles to the same programs, and every program computes
    the same under `pl.interpret` before and after compilation (where the interpreter runs it).
    The outcome itself when they hold, else a failure of kind "reparse", "not_fixed_point",
    "compile_differs" or "results_differ" (or "timeout")."""
    from pl.errors import PlError
    from pl.printer.program import print_node
    from pl.show_inferred.cli import read_input
    from pl.show_inferred.run import run_text
    from pl.structural import structural_equal

    if outcome.kind != "ok":
        return outcome

    def fail(kind: str, detail: str) -> Outcome:
        return Outcome(kind, outcome.status, outcome.out, outcome.err, detail)

    output = outcome.out
    try:
        compile(output, f"{name}_output.py", "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as e:
        return fail("reparse", f"the output does not parse: {e}")
    again = folder / f"{name}_output.py"
    again.write_bytes(output.encode("utf-8", errors="surrogatepass"))
    try:
        with _time_limit(timeout), warnings.catch_warnings():
            warnings.simplefilter("ignore", SyntaxWarning)
            source = read_input(str(folder / f"{name}.py"), io.StringIO())
            first = run_text(source.text, source.filename)
            try:
                second = run_text(output, str(again))
            except PlError as e:
                return fail("not_fixed_point", f"the output is refused: {e.render(color=False)}")
            if second.output != output:
                return fail("not_fixed_point", "regenerating the output changes it:\n"
                            + diff(output, second.output))
            if len(first.compiled) != len(second.compiled) or not all(
                    structural_equal(a.program, b.program, auto_mapping=True)
                    for a, b in zip(first.compiled, second.compiled, strict=False)):
                shown = [diff(print_node(a.program), print_node(b.program)) for a, b
                         in zip(first.compiled, second.compiled, strict=False)]
                return fail("compile_differs", "the output compiles to other programs:\n"
                            + "\n".join(shown))
    except _Timeout:
        return fail("timeout", f"verifying took over {timeout}s")
    except Exception as e:  # noqa: BLE001 - a crash while checking is a failure, shown whole
        return fail("crash", "".join(traceback.format_exception(e)))
    with memory_limit(INTERPRET_MEMORY):
        return _compare_compiled(outcome, first.compiled, timeout, fail)


def _compare_compiled(outcome: Outcome, compiled: Sequence[Any], timeout: float,
                      fail: Callable[[str, str], Outcome]) -> Outcome:
    """`outcome` when every compiled program computes what its source does (see `verify`)."""
    from interpret_support import compare_results

    for c in compiled:
        try:
            with _time_limit(timeout):
                try:
                    verdict = compare_results(c.source, c.program, seeds=1,
                                              cannot_run=(Exception,))
                except Exception as e:  # noqa: BLE001 - the compiled program fails to run
                    verdict = "differs: " + "".join(traceback.format_exception(e))
        except _Timeout:
            if not _interprets_within(c.source, timeout):
                continue  # the source itself runs too long to compare (`pl.spmd(2**31)`)
            return fail("timeout", f"{c.source.name}: the compiled program runs over {timeout}s "
                                   "where the source does not")
        except Exception as e:  # noqa: BLE001 - a crash while checking is a failure, shown whole
            return fail("crash", "".join(traceback.format_exception(e)))
        if verdict.startswith("differs"):
            return fail("results_differ", f"{c.source.name}: {verdict}")
    return outcome


def _interprets_within(program: Any, seconds: float) -> bool:
    """`pl.interpret` of `program` on random data ends (with results or an error) in time."""
    from interpret_support import random_inputs, run_interpreted

    try:
        with _time_limit(seconds):
            run_interpreted(program, random_inputs(program, 0))
    except _Timeout:
        return False
    except Exception:  # noqa: BLE001 - it ended, by refusing the data
        return True
    return True


def signature(outcome: Outcome) -> str:
    """A short name for a failure: its kind, the exception, and the innermost pl frame."""
    text = outcome.detail or outcome.err
    frames = [m for m in _FRAME.finditer(text) if m["file"].startswith(str(_ROOT))
              and "/tests/" not in m["file"]]  # pl's own frames: not the mutant's, not ours
    where = ""
    if frames:
        last = frames[-1]
        where = f" at {Path(last['file']).name}:{last['line']} in {last['fn']}"
    exc = ""
    for ln in reversed(text.strip().splitlines()):
        m = re.match(r"^(\w+(?:\.\w+)*(?:Error|Exception|Interrupt|Exit))\b", ln.strip())
        if m:
            exc = " " + m.group(1)
            break
    if outcome.kind == "exception_name":
        exc = " " + ",".join(sorted(set(exception_names(outcome.err))))
    elif outcome.kind in ("reparse", "not_fixed_point", "compile_differs", "results_differ"):
        first = next((ln for ln in outcome.detail.splitlines() if ln.strip()), "")
        exc = " " + re.sub(r"\d+|'[^']*'", "_", first)[:80]
    if outcome.kind == "unlocated":
        first = next((ln for ln in outcome.err.splitlines() if ln.startswith("Error:")), "")
        exc = " " + re.sub(r"\d+|'[^']*'", "_", first)[:80]
    return f"{outcome.kind}{exc}{where}"


def diff(original: str, mutant: str) -> str:
    return "".join(difflib.unified_diff(original.splitlines(keepends=True),
                                        mutant.splitlines(keepends=True), "original", "mutant", n=1))


def shrink(text: str, still_fails: Callable[[str], bool], budget: int = 200) -> str:
    """Greedily drop lines (then blocks of lines) while `still_fails` holds; at most `budget` tries."""
    lines = text.split("\n")
    tries = 0
    for size in (8, 4, 2, 1):
        i = 0
        while i < len(lines) and tries < budget:
            cand = lines[:i] + lines[i + size:]
            tries += 1
            if cand and still_fails("\n".join(cand)):
                lines = cand
            else:
                i += size
    return "\n".join(lines)


def fuzz(sources: Sequence[Path], count: int, seed: int, folder: Path,
         timeout: float = 20.0, progress: Callable[[int], None] | None = None, *,
         file_kinds: Sequence[str] = FILE_KINDS, file_share: float = 0.3,
         edit_kinds: Sequence[str] = EDIT_KINDS, checks: Collection[str] = CHECKS) -> Report:
    """Run `count` mutants spread evenly over `sources`; deterministic for a given seed. A share
    `file_share` of them are whole-file mutations of `file_kinds`, the rest token-level edits of
    `edit_kinds`; `checks` (of `CHECKS`) are the invariants checked beyond the exit status."""
    report = Report()
    texts = [(p, p.read_text(encoding="utf-8")) for p in sources]
    for i in range(count):
        path, text = texts[i % len(texts)]
        rng = random.Random(f"{seed}:{i}:{path.name}")
        whole = bool(file_kinds) and rng.random() < file_share
        try:
            mutant = mutate_file(text, rng, file_kinds) if whole else mutate(text, rng, kinds=edit_kinds)
        except ValueError:  # no edit of `edit_kinds` applies (no one-line statement to enclose)
            report.kinds["unmutable"] = report.kinds.get("unmutable", 0) + 1
            continue
        name = f"m{seed}_{i}_{path.stem}"
        outcome = run_cli(mutant.text, folder, name, timeout, checks)
        if "outputs" in checks:
            outcome = verify(outcome, folder, name, timeout)
        report.cases += 1
        report.mutations[mutant.kind] = report.mutations.get(mutant.kind, 0) + 1
        report.kinds[outcome.kind] = report.kinds.get(outcome.kind, 0) + 1
        if outcome.failed:
            sig = signature(outcome)
            if sig in report.failures:
                report.failures[sig].count += 1
            else:
                report.failures[sig] = Failure(sig, path.name, mutant, outcome)
        if progress is not None:
            progress(i + 1)
    return report


def describe(failure: Failure, original: str, reduced: str | None = None) -> str:
    """A failure as a reproduction: the edits, the diff against the example, and what happened."""
    parts = [f"{failure.signature}  (x{failure.count}, from {failure.source})",
             "edits: " + "; ".join(failure.mutant.edits),
             diff(original, failure.mutant.text).rstrip()]
    if reduced is not None:
        parts += ["reduced reproduction:", reduced.rstrip()]
    tail = (failure.outcome.detail or failure.outcome.err).strip().splitlines()[-6:]
    parts += ["outcome tail:", *("    " + ln for ln in tail)]
    return "\n".join(parts)
