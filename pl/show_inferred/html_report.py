"""`python -m pl.show_inferred --html OUT.html FILE`: one self-contained HTML page per run.

Guarantees:
- the page needs nothing but itself: inline CSS, no script, no link to anything outside it;
- every text that comes from the user's file (the kernel, names, reasons, the programs after each
  pass) is HTML-escaped, so a comment holding `<script>` shows as text;
- the kernel is the regenerated file (what show_inferred prints, every function as it is shown
  there); each tile's name where the file binds it (its assignment, its parameter, its loop
  header, the yield that gives it back) has the class `tile sp-<Space>` and, as its hover title,
  the text `--explain` gives for it (`report.explained`: one implementation of the reasons),
  naming the value as the file does; inserted moves carry `move`, hoisted loads `hoisted`, loads
  residency kept in their loop `kept`. A mark is one binding, never a name: the shown text is
  compiled again (it is the same program, pl/show_inferred/verify.py), and the k-th binding of
  that compile is the k-th of the program the decisions are about, so a rebound name shows each
  binding's own decisions and two values the compiled program names alike (the loads of one
  operand for two matmuls) are each marked. A value the text does not spell (an iter arg SSA
  added) is only in the function's decision log. A function left as written is also shown in
  its compiled form (the `--ir` text), marked the same way;
- per function, one bar per memory space: the bytes its tiles hold by
  `pl.infer.footprint.function_footprint` (the bound residency's capacity rule checks) against
  `pl.ops.backend.capacity`; `over` when above it; with no backend, the bytes alone; where
  fewer bytes are live at once (`peak_live_bytes`, what capacity warnings check), the text says
  so, so a red bar without a warning explains itself;
- per program, the program after each pass (what `--dump-passes` writes, read back), with the
  lines that pass added or changed marked `chg` and the lines it removed shown as `del`;
- the page is written atomically (`write_page`): OUT is either the old file or the whole new page,
  and only over a regular file that is none of the kernel files read (pl/files.py).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path

from typing_extensions import assert_never

from pl.compiler import Compiled
from pl.errors import PlError, python_lines
from pl.files import FileId, write_file
from pl.infer.capacity import format_bytes
from pl.infer.footprint import footprint_and_peaks
from pl.ir.enums import MemorySpace
from pl.ir.expr import Call, Var
from pl.ir.function import Function
from pl.ir.names import user_name
from pl.ir.stmt import (
    AssignStmt,
    BreakStmt,
    ContinueStmt,
    EvalStmt,
    ForStmt,
    IfStmt,
    ReturnStmt,
    ScopeStmt,
    SeqStmts,
    Stmt,
    WhileStmt,
    YieldStmt,
    stmt_kind,
)
from pl.ir.target import SPACES
from pl.ir.traverse import walk_stmts
from pl.ops.backend import capacity
from pl.printer.program import print_node
from pl.show_inferred.bindings import bindings
from pl.show_inferred.report import Explained, ExplainedFunction, explained
from pl.show_inferred.result import Regenerated
from pl.show_inferred.verify import ir_text

Stage = tuple[str, str]  # (pass name, the program's text after it)
# Loads, compiles and regenerates a text with the run's options, unverified
# (pl/show_inferred/annotate.py's `rerun`): what the page compiles the texts it shows with.
Reread = Callable[[str, str], Regenerated]

_SPACE_TOKEN = re.compile(r"\bMemorySpace\.(\w+)")
_DUMPED = re.compile(r"^(\d+)_(?:after_)?(\w+)\.py$")

# A tile's background says its space (pl/ir/target.py's colours).
_SPACE_CSS = "".join(f".sp-{space.name}{{background:{facts.colour}}}" for space, facts in SPACES.items())
_CSS = _SPACE_CSS + """
body{font:14px/1.45 system-ui,sans-serif;margin:16px 24px;color:#1b1f24;background:#fff}
h1{font-size:20px;margin:0 0 4px} h2{font-size:17px;margin:22px 0 6px;border-bottom:1px solid #ddd}
h3{font-size:15px;margin:14px 0 4px} .meta{color:#555;margin:0 0 10px}
pre{font:12.5px/1.5 ui-monospace,Menlo,Consolas,monospace;background:#f7f8fa;border:1px solid #e2e4e8;
padding:8px 0;overflow-x:auto;margin:4px 0 10px}
pre .ln{display:block;padding:0 10px;white-space:pre;border-left:4px solid transparent}
pre .ln::before{content:attr(data-n);display:inline-block;width:3.2em;color:#999;text-align:right;
margin-right:12px}
.tile{border-radius:3px;padding:0 2px;cursor:help}
.sp-unplaced{background:#eee;outline:1px dashed #999}
.ms{font-weight:600}
.move{outline:2px solid #2f7d32} .hoisted{outline:2px solid #b8590b} .kept{text-decoration:underline dotted}
.ln.move-line{border-left-color:#2f7d32;background:#eef8ee}
.ln.hoisted-line{border-left-color:#b8590b;background:#fff4e8}
.ln.move-line::after{content:"  \\2190 inserted move";color:#2f7d32;font-style:italic}
.ln.hoisted-line::after{content:"  \\2190 hoisted before its loop";color:#b8590b;font-style:italic}
.legend span{margin-right:8px}
.bars{margin:4px 0 12px} .bar-row{display:flex;align-items:center;gap:10px;margin:3px 0}
.bar-label{width:7em;font-weight:600} .bar{position:relative;width:420px;height:14px;
background:#eceef1;border:1px solid #c9ccd1;border-radius:3px;overflow:hidden}
.fill{position:absolute;left:0;top:0;bottom:0;filter:saturate(2.5) brightness(.85)} .fill.over{background:#d32f2f;filter:none}
.bar-row.over .bar-text{color:#c62828;font-weight:600} .bar-row.nocap .bar{display:none}
details.pass{margin:3px 0} details.pass summary{cursor:pointer}
.chg{background:#e6ffec} .del{background:#ffebe9;text-decoration:line-through;color:#8a1c1c}
.same{color:#777}
table.decisions{border-collapse:collapse;font-size:13px;margin:4px 0 10px}
table.decisions td{border-top:1px solid #e5e5e5;padding:2px 8px;vertical-align:top}
"""


def read_stages(folder: Path, programs: list[str]) -> dict[str, list[Stage]]:
    """The program after each pass, by program name, from the folder `--dump-passes` wrote
    (the command line compiles into a temporary one for the page)."""
    # `compile_program` dumps straight into the folder for one program, into a folder per
    # program name for several (pl/show_inferred/annotate.py).
    where = {programs[0]: folder} if len(programs) == 1 else {p: folder / p for p in programs}
    out: dict[str, list[Stage]] = {}
    for program, sub in where.items():
        found = sorted((int(m.group(1)), m.group(2), f) for f in sub.glob("*.py")
                       if (m := _DUMPED.match(f.name)))
        out[program] = [(name, f.read_text(encoding="utf-8")) for _, name, f in found]
    return out


# -- the kernel, marked ----------------------------------------------------------------------------
# A binding's place in a shown text: (0-based line, start column, end column) of its name.
Place = tuple[int, int, int]


@dataclass
class _Mark:
    """What one binding's name in the shown text is: its classes and the reasons shown on hover."""

    start: int
    end: int
    classes: set[str]
    titles: list[str]


def _item_classes(item: Explained) -> set[str]:
    if item.kind == "residency":
        return {"hoisted" if item.space == "hoisted" else "kept"}
    return {"tile", f"sp-{item.space}"} | ({"move"} if item.kind == "move" else set())


def _region(lines: Sequence[str], start: int) -> range:
    """The lines of the `def` at index `start`: up to the next non-blank line indented no deeper."""
    depth = len(lines[start]) - len(lines[start].lstrip())
    end = start + 1
    while end < len(lines):
        text = lines[end]
        if text.strip() and len(text) - len(text.lstrip()) <= depth and \
                not text.lstrip().startswith((")", "#")):
            break
        end += 1
    return range(start, end)


def _header(lines: Sequence[str], region: range) -> range:
    """The lines of the signature of the `def` that starts `region` (parameters are marked there)."""
    for i in region:
        if lines[i].rstrip().endswith(":") and not lines[i].lstrip().startswith(("#", "@")):
            return range(region.start, i + 1)
    return range(region.start, region.start + 1)


_EQUALS = re.compile(r"(?<![=!<>:])=(?!=)")  # an assignment's `=` (not `==`, `<=`, `:=`, a kwarg's)
_IN = re.compile(r"\sin\s")
_MOVE_OF = re.compile(r"(: inserted move of )(\w+)(, because )")  # report.explained's words


def _in_part(lines: Sequence[str], line: int, col: int, end: re.Pattern[str] | None,
             name: str) -> Place | None:
    """The name (`name`, a `|` of escaped spellings) on `lines[line]` from `col` up to `end`
    (a statement's targets)."""
    text = lines[line]
    stop = end.search(text, col) if end is not None else None
    m = re.compile(rf"(?<![\w.])(?:{name})(?!\w)").search(
        text, col, stop.start() if stop is not None else len(text))
    return (line, m.start(), m.end()) if m is not None else None


def _place(lines: Sequence[str], g: Function, v: Var, spelled: str, s: Stmt | None,
           filename: str) -> Place | None:
    """Where the text `lines` (the file `filename`, which compiled to `g`) binds `v`, spelled
    `spelled` (a `|` of escaped spellings): a
    parameter in its signature, an assignment's value among the statement's targets, a loop's
    variables before its `in`, a value a loop or an if gives back on the line of the body that
    yields it (`result = pl.yield_(...)`); None where the text does not spell it (a value its
    compile made)."""
    span = g.span if s is None else s.span
    if span.filename != filename or not 0 < span.line <= len(lines):
        return None
    name, first, col = spelled, span.line - 1, max(span.col - 1, 0)
    if s is None:
        param = re.compile(rf"(?<![\w.])(?:{name})(?=\s*:)")
        for i in _header(lines, range(first, len(lines))):
            if m := param.search(lines[i]):
                return i, m.start(), m.end()
        return None
    kind = stmt_kind(s)
    match kind:
        case AssignStmt():
            return _in_part(lines, first, col, _EQUALS, name)
        case ForStmt() | WhileStmt() | IfStmt():
            if v not in kind.return_vars:  # the loop variable and the iter args: the header's
                return _in_part(lines, first, col, _IN, name)
            for y in walk_stmts(s):
                if isinstance(y, YieldStmt) and y.span.filename == filename \
                        and 0 < y.span.line <= len(lines):
                    yline = y.span.line - 1
                    at = _in_part(lines, yline, len(lines[yline]) - len(lines[yline].lstrip()),
                                  _EQUALS, name)
                    if at is not None:
                        return at
            return None
        case ScopeStmt():
            return _in_part(lines, first, col, None, name)  # `with pl.at(...) as tid:`
        case SeqStmts() | EvalStmt() | ReturnStmt() | YieldStmt() | BreakStmt() | ContinueStmt():
            return None  # (they bind nothing)
        case _:
            assert_never(kind)


def _places(f: Function, g: Function, lines: Sequence[str], filename: str) -> dict[Var, Place]:
    """Each binding of the compiled function `f`, where the shown text binds it: `g` is what that
    text compiles to, structurally equal to `f` (pl/show_inferred/verify.py checks it), so the
    k-th binding of one is the k-th of the other."""
    mine, theirs = bindings(f), bindings(g)
    if len(mine) != len(theirs):
        return {}
    out: dict[Var, Place] = {}
    for (v, _), (w, s) in zip(mine, theirs, strict=True):
        # The text spells a value by the name it compiled to without its SSA version (a
        # regenerated file) or by the compiled name itself (the IR, which reading renames).
        spelled = "|".join(re.escape(n) for n in dict.fromkeys((user_name(w.name), v.name)))
        at = _place(lines, g, w, spelled, s, filename)
        if at is not None:
            out[v] = at
    return out


def _mark_function(lines: Sequence[str], ef: ExplainedFunction, g: Function, filename: str,
                   marks: dict[int, list[_Mark]]) -> None:
    """Marks each entry of `ef` on the name of the binding it is about, where `lines` (which
    compiled to a program holding `g`) binds it: one mark per binding, never per name, so a
    rebound name shows each binding's own decisions, and every hoisted load is marked."""
    places = _places(ef.function, g, lines, filename)
    made = dict(bindings(ef.function))

    def spelled(v: Var) -> str | None:
        at = places.get(v)
        return lines[at[0]][at[1]:at[2]] if at is not None else None

    for item in ef.items:
        v = item.binding
        at = places.get(v) if v is not None else None
        if v is None or at is None:
            continue  # not spelled in this text (made by compiling it): the decision log has it
        line, start, end = at
        # The entry's words, with the names this text gives the binding and, for a move, the
        # value it moves (two values the compiled program names alike are apart in the text).
        text = item.text
        if text.startswith(item.name):
            text = lines[line][start:end] + text[len(item.name):]
        s = made.get(v)
        if item.kind == "move" and isinstance(s, AssignStmt) and isinstance(s.value, Call) \
                and s.value.args and isinstance(s.value.args[0], Var):
            producer = spelled(s.value.args[0])
            if producer is not None:
                text = _MOVE_OF.sub(rf"\g<1>{producer}\g<3>", text, count=1)  # (an identifier)
        here = marks.setdefault(line, [])
        same = next((m for m in here if m.start == start), None)
        if same is None:
            here.append(_Mark(start, end, _item_classes(item), [text]))
        else:
            same.classes |= _item_classes(item)
            if text not in same.titles:
                same.titles.append(text)


def _render_line(text: str, n: int, marks: Sequence[_Mark], extra: str = "") -> str:
    spans: list[tuple[int, int, str]] = []
    for m in marks:
        title = escape("\n".join(m.titles))
        spans.append((m.start, m.end, f'<span class="{" ".join(sorted(m.classes))}" title="{title}">'))
    for hit in _SPACE_TOKEN.finditer(text):
        if not any(m.start < hit.end() and hit.start() < m.end for m in marks):
            spans.append((hit.start(), hit.end(), f'<span class="ms sp-{escape(hit.group(1))}">'))
    out, at = [], 0
    for start, end, opening in sorted(spans):
        if start < at:
            continue
        out += [escape(text[at:start]), opening, escape(text[start:end]), "</span>"]
        at = end
    out.append(escape(text[at:]))
    classes = {c for m in marks for c in m.classes}
    line_classes = ["ln"] + (["move-line"] if "move" in classes else []) \
        + (["hoisted-line"] if "hoisted" in classes else []) + ([extra] if extra else [])
    return f'<span class="{" ".join(line_classes)}" data-n="{n}">{"".join(out)}</span>'


def _pre(lines: Sequence[str], marks: dict[int, list[_Mark]], cls: str,
         rows: range | None = None) -> str:
    shown = range(len(lines)) if rows is None else rows
    body = "".join(_render_line(lines[i], i - shown.start + 1, marks.get(i, [])) for i in shown)
    return f'<pre class="{cls}">{body}</pre>'


def _lines(text: str) -> list[str]:
    """The lines of `text` as Python numbers them (the decision log's lines are Python's)."""
    return [line.rstrip("\r\n") for line in python_lines(text)]


def _shadow(filename: str) -> str:
    """The name a shown text is compiled under, so it never stands in for the user's file."""
    return f"{filename} (shown)"


def _compiled_again(r: Regenerated, text: str, reread: Reread) -> tuple[str, tuple[Compiled, ...]]:
    """What `text`, a text the page shows of `r`'s file, compiles to, and the name it was
    compiled under: programs structurally equal to `r.compiled`, whose spans are in `text`."""
    if text == r.text:
        return r.filename, r.compiled
    name = _shadow(r.filename)
    return name, reread(text, name).compiled


def _kernel(r: Regenerated, functions: list[ExplainedFunction], reread: Reread) -> str:
    lines = _lines(r.output)
    filename, again = _compiled_again(r, r.output, reread)
    programs = {c.source.name: c.program for c in again}
    marks: dict[int, list[_Mark]] = {}
    for ef in functions:
        g = programs.get(ef.program)
        g_function = g.get(ef.function.name) if g is not None else None
        if g_function is not None:
            _mark_function(lines, ef, g_function, filename, marks)
    return _pre(lines, marks, "kernel")


def _compiled_form(r: Regenerated, c: Compiled, ef: ExplainedFunction, reread: Reread) -> str:
    """The compiled function as `--ir` prints it, marked as the kernel is (its text, the
    program's IR, read back, is the same program: `--ir` checks it)."""
    text = ir_text(c)
    lines = _lines(text)
    filename, again = _shadow(r.filename), reread(text, _shadow(r.filename)).compiled
    g = next((a.program.get(ef.function.name) for a in again if a.source.name == c.source.name),
             None)
    if g is None or g.span.filename != filename or not 0 < g.span.line <= len(lines):
        return _pre(_lines(print_node(ef.function)), {}, "compiled")
    marks: dict[int, list[_Mark]] = {}
    _mark_function(lines, ef, g, filename, marks)
    return _pre(lines, marks, "compiled", _region(lines, g.span.line - 1))


def _decisions(ef: ExplainedFunction) -> str:
    rows = "".join(
        f'<tr class="decision {escape(item.kind)}"><td>{item.line or ""}</td>'
        f'<td><span class="{" ".join(sorted(_item_classes(item)))}">{escape(item.name)}</span></td>'
        f"<td>{escape(item.text)}</td></tr>" for item in ef.items)
    return (f"<details><summary>decision log ({len(ef.items)} entries, as --explain)</summary>"
            f'<table class="decisions">{rows}</table></details>')


# -- memory bars -------------------------------------------------------------------------------
def _bars(c: Compiled, function_name: str) -> str:
    f = c.program.get(function_name)
    if f is None:
        return ""
    footprint, peaks = footprint_and_peaks(f)
    if not footprint.spaces:
        return '<p class="bars none">no tile holds on-chip memory</p>'
    rows = []
    for space in MemorySpace:
        held = footprint.spaces.get(space)
        if held is None:
            continue
        cap = capacity(c.backend, space)
        at_least = "at least " if held.unknown else ""
        owners = ", ".join(f"{user_name(v.name)} ({format_bytes(size) if size is not None else 'dynamic'})"
                           for v, size in held.owners)
        state, width = "nocap", 0.0
        if cap > 0:
            state = "over" if held.bytes > cap else "ok"
            width = min(100.0, 100.0 * held.bytes / cap)
            text = f"{at_least}{format_bytes(held.bytes)} of {format_bytes(cap)} ({100.0 * held.bytes / cap:.1f}%)"
        elif c.backend is None:
            text = f"{at_least}{format_bytes(held.bytes)} (no backend: no capacity to compare with)"
        else:
            text = f"{at_least}{format_bytes(held.bytes)} (no capacity known for {space.name} on {c.backend})"
        peak = peaks.get(space)
        if peak is not None and peak.bytes < held.bytes:  # the capacity warnings' measure
            text += f"; at most {format_bytes(peak.bytes)} live at once (line {peak.span.line})"
        fill = "fill over" if state == "over" else f"fill sp-{space.name}"
        rows.append(
            f'<div class="bar-row {state}" data-space="{space.name}" data-bytes="{held.bytes}" '
            f'data-capacity="{cap}" title="{escape("tiles: " + owners)}">'
            f'<span class="bar-label">{space.name}</span>'
            f'<span class="bar"><span class="{fill}" style="width:{width:.2f}%"></span></span>'
            f'<span class="bar-text">{escape(text)}</span></div>')
    return f'<div class="bars">{"".join(rows)}</div>'


# -- the pass trace ----------------------------------------------------------------------------
def _stage(n: int, name: str, before: str | None, after: str) -> str:
    new = _lines(after)
    if before is None:
        body = "".join(_render_line(t, i + 1, []) for i, t in enumerate(new))
        return (f'<details class="pass" data-pass="{escape(name)}" data-changed="0">'
                f"<summary>{n:02d} {escape(name)}: the program as captured</summary>"
                f"<pre>{body}</pre></details>")
    old = _lines(before)
    parts, changed, removed = [], 0, 0
    # difflib's default heuristic (lines frequent in a long text match nothing by themselves)
    # keeps a large program's diff fast; a short one is diffed exactly.
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new).get_opcodes():
        for i in range(i1, i2) if tag in ("replace", "delete") else ():
            parts.append(_render_line(old[i], i + 1, [], "del"))
            removed += 1
        for j in range(j1, j2):
            parts.append(_render_line(new[j], j + 1, [], "" if tag == "equal" else "chg"))
            changed += tag != "equal"
    what = f"{changed} line(s) added or changed, {removed} removed" if changed or removed \
        else "no change"
    cls = "pass" if changed or removed else "pass same"
    return (f'<details class="{cls}" data-pass="{escape(name)}" data-changed="{changed}" '
            f'data-removed="{removed}"><summary>{n:02d} after {escape(name)}: {what}</summary>'
            f"<pre>{''.join(parts)}</pre></details>")


def _trace(stages: list[Stage]) -> str:
    parts, before = [], None
    for n, (name, text) in enumerate(stages):
        parts.append(_stage(n, name, before, text))
        before = text
    if parts:  # the last pass, memory-space inference, is shown open: what it inserted and moved
        parts[-1] = parts[-1].replace("<details ", "<details open ", 1)
    return f'<div class="trace">{"".join(parts)}</div>'


# -- the page ----------------------------------------------------------------------------------
def _legend() -> str:
    spaces = "".join(f'<span class="tile sp-{s.name}">{s.name}</span>'
                     for s, facts in SPACES.items() if facts.in_legend)
    return (f'<p class="legend">{spaces} <span class="tile move">inserted move</span>'
            '<span class="hoisted">hoisted load</span><span class="kept">load kept in its loop'
            "</span> hover a name for the reason</p>")


def file_section(r: Regenerated, path: str, stages: dict[str, list[Stage]], reread: Reread) -> str:
    """One kernel file's part of the page (see the module doc); `reread` compiles the texts it
    shows (to find where each binding is)."""
    functions = explained(r)
    parts = [f'<section class="file"><h2>{escape(path)}</h2>', "<h3>regenerated kernel</h3>",
             _kernel(r, functions, reread)]
    by_name = {(ef.program, ef.function.name): ef for ef in functions}
    for c in r.compiled:
        backend = c.backend or "none"
        parts.append(f'<section class="program" data-program="{escape(c.source.name)}">'
                     f"<h2>program {escape(c.source.name)} (backend {escape(backend)})</h2>")
        for f in c.program.functions:
            ef = by_name.get((c.source.name, f.name))
            bars = _bars(c, f.name)
            if ef is None and "bar-row" not in bars:
                continue
            parts.append(f'<section class="function" data-function="{escape(f.name)}">'
                         f"<h3>{escape(c.source.name)}.{escape(f.name)} "
                         f"({escape(f.func_type.name)})</h3>{bars}")
            if ef is not None:
                if ef.kept_reason:
                    parts.append(f'<p class="kept-note">left as written in the file '
                                 f"({escape(ef.kept_reason)}); its compiled form:</p>"
                                 f"{_compiled_form(r, c, ef, reread)}")
                parts.append(_decisions(ef))
            parts.append("</section>")
        parts.append(f"<h3>the program after each pass</h3>{_trace(stages.get(c.source.name, []))}"
                     "</section>")
    parts.append("</section>")
    return "".join(parts)


def page(sections: Iterable[str], paths: Sequence[str]) -> str:
    title = "memory spaces: " + ", ".join(paths)
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{escape(title)}</title><style>{_CSS}</style></head><body>"
            f"<h1>{escape(title)}</h1><p class=\"meta\">python -m pl.show_inferred --html</p>"
            f"{_legend()}{''.join(sections)}</body></html>\n")


def write_page(out: Path, text: str, inputs: Collection[FileId] = ()) -> None:
    """Write `text` to `out` (pl/files.py: atomically, only over a regular file, never over one
    of `inputs`)."""
    try:
        write_file(out, text.encode("utf-8"), inputs=inputs)
    except OSError as e:
        raise PlError(f"cannot write {out}: {e.strerror or e}; the report was not written",
                      hint="give --html a path in a writable folder") from None
