"""`python -m pl.show_inferred --html OUT.html FILE`: one self-contained HTML page per run.

Guarantees:
- the page needs nothing but itself: inline CSS, no script, no link to anything outside it;
- every text that comes from the user's file (the kernel, names, reasons, the programs after each
  pass) is HTML-escaped, so a comment holding `<script>` shows as text;
- the kernel is the regenerated file (what show_inferred prints); each tile where it is assigned
  (or declared, for a parameter) has the class `tile sp-<Space>` and, as its hover title, the very
  text `--explain` gives for it (`report.explained`: one implementation of the reasons); inserted
  moves carry `move`, hoisted loads `hoisted`, loads residency kept in their loop `kept`. A
  function left as written is also shown in its compiled form, marked the same way, so that the
  loads and moves the compiler made for tensor-level code are visible;
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

from pl.compiler import Compiled
from pl.errors import PlError, python_lines
from pl.files import FileId, write_file
from pl.infer.capacity import format_bytes
from pl.infer.footprint import footprint_and_peaks
from pl.ir.enums import MemorySpace
from pl.ir.names import user_name
from pl.ir.target import SPACES
from pl.ops.backend import capacity
from pl.printer.program import print_node
from pl.show_inferred.report import Explained, ExplainedFunction, explained
from pl.show_inferred.result import Regenerated

Stage = tuple[str, str]  # (pass name, the program's text after it)

_SPACE_TOKEN = re.compile(r"\bMemorySpace\.(\w+)")
_ASSIGNED = re.compile(r"\s*([A-Za-z_]\w*)\s*(?::|=(?!=))")  # `name: ...` / `name = ...`
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
@dataclass
class _Mark:
    """What one name on one line is: its classes and the reasons shown on hover."""

    token: re.Pattern[str]
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


def _assignments(lines: Sequence[str], region: range) -> dict[str, list[int]]:
    """Name -> the lines of `region` that assign it (or declare it, `name: T`), read once."""
    out: dict[str, list[int]] = {}
    for i in region:
        m = _ASSIGNED.match(lines[i])
        if m:
            out.setdefault(m.group(1), []).append(i)
    return out


def _find_line(lines: Sequence[str], region: range, assigned: dict[str, list[int]], name: str,
               near: int | None) -> tuple[int, re.Pattern[str]] | None:
    """The line of `region` that assigns `name` (the one nearest `near` when several do), else the
    signature line declaring it as a parameter, else (a loop's carried value) the line `near`
    naming it or, without `near` (the compiled form, in SSA), its first line naming it; and the
    pattern of the name's token there."""
    found = assigned.get(name)
    if found:
        best = min(found, key=lambda i: abs(i - near)) if near is not None else found[0]
        return best, re.compile(rf"(?<!\w){re.escape(name)}(?!\w)")
    param = re.compile(rf"(?<![\w.]){re.escape(name)}(?=\s*:)")
    for i in _header(lines, region):
        if param.search(lines[i]):
            return i, param
    named = re.compile(rf"(?<![\w.]){re.escape(name)}(?!\w)")
    for i in [near] if near is not None else region:
        if i in region and named.search(lines[i]):
            return i, named
    return None


def _mark_function(lines: Sequence[str], region: range, ef: ExplainedFunction, ir_names: bool,
                   near: Callable[[int | None], int | None], marks: dict[int, list[_Mark]]) -> None:
    assigned = _assignments(lines, region)
    for item in ef.items:
        name = item.ir_name if ir_names else item.name
        at = _find_line(lines, region, assigned, name, near(item.line))
        if at is None:
            continue  # not in this text (e.g. made by lowering): the decisions table has it
        line, token = at
        here = marks.setdefault(line, [])
        same = next((m for m in here if m.token.pattern == token.pattern), None)
        if same is None:
            here.append(_Mark(token, _item_classes(item), [item.text]))
        else:
            same.classes |= _item_classes(item)
            same.titles.append(item.text)


def _render_line(text: str, n: int, marks: list[_Mark], extra: str = "") -> str:
    spans: list[tuple[int, int, str]] = []
    taken: list[tuple[int, int]] = []
    for m in marks:
        hit = m.token.search(text)
        if hit is None:
            continue
        title = escape("\n".join(m.titles))
        spans.append((hit.start(), hit.end(),
                      f'<span class="{" ".join(sorted(m.classes))}" title="{title}">'))
        taken.append((hit.start(), hit.end()))
    for hit in _SPACE_TOKEN.finditer(text):
        if not any(a < hit.end() and hit.start() < b for a, b in taken):
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


def _pre(lines: Sequence[str], marks: dict[int, list[_Mark]], cls: str) -> str:
    body = "".join(_render_line(t, i + 1, marks.get(i, [])) for i, t in enumerate(lines))
    return f'<pre class="{cls}">{body}</pre>'


def _line_map(old: Sequence[str], new: Sequence[str]) -> dict[int, int]:
    """0-based lines of `old` -> the line of `new` they became (kept or rewritten in place)."""
    out: dict[int, int] = {}
    matcher = difflib.SequenceMatcher(None, old, new)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            out.update(zip(range(i1, i2), range(j1, j2), strict=True))
        elif tag == "replace":  # an annotated line, maybe after inserted moves: the last lines
            for k in range(1, min(i2 - i1, j2 - j1) + 1):
                out[i2 - k] = j2 - k
    return out


def _lines(text: str) -> list[str]:
    """The lines of `text` as Python numbers them (the decision log's lines are Python's)."""
    return [line.rstrip("\r\n") for line in python_lines(text)]


def _kernel(r: Regenerated, functions: list[ExplainedFunction]) -> str:
    lines = _lines(r.output)
    line_map = _line_map(_lines(r.text), lines)

    def near(line: int | None) -> int | None:
        return line_map.get(line - 1) if line is not None else None

    marks: dict[int, list[_Mark]] = {}
    for ef in functions:
        start = near(ef.function.span.line) if ef.function.span.filename == r.filename else None
        if start is not None and lines[start].lstrip().startswith(("def ", "async def ")):
            _mark_function(lines, _region(lines, start), ef, False, near, marks)
    return _pre(lines, marks, "kernel")


def _compiled_form(ef: ExplainedFunction) -> str:
    text = print_node(ef.function)
    lines = _lines(text)
    first = next((i for i, t in enumerate(lines) if t.startswith("def ")), 0)
    start = next((i for i in range(first, -1, -1) if not lines[i].startswith("@")), first)
    lines = lines[start + (0 if lines[start].startswith("def ") else 1):]
    marks: dict[int, list[_Mark]] = {}
    _mark_function(lines, range(len(lines)), ef, True, lambda _: None, marks)
    return _pre(lines, marks, "compiled")


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


def file_section(r: Regenerated, path: str, stages: dict[str, list[Stage]]) -> str:
    """One kernel file's part of the page (see the module doc)."""
    functions = explained(r)
    parts = [f'<section class="file"><h2>{escape(path)}</h2>', "<h3>regenerated kernel</h3>",
             _kernel(r, functions)]
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
                                 f"{_compiled_form(ef)}")
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
