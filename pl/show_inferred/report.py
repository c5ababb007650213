"""Reports of a regenerated file for `python -m pl.show_inferred`: `--explain` text and `--json`.

Guarantees: names are the user's (`x_tile`, not `x_tile__ssa_v0`); each entry is about one
binding (pl/show_inferred/bindings.py) and names it, and a move the value it moves, as the
regenerated file spells that binding (two values the compiled program names alike are apart), lines are 1-based lines of the user's file, and a JSON field that does not apply is
omitted, never null. The JSON shape is `{"version": 1, "files": [...], "diagnostics": [...],
"warnings": [...]}` (the capacity warnings, `CapacityWarning.as_json()` with the file's path).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pl.errors import source_lines
from pl.ir.expr import Call, Var
from pl.ir.names import user_name, user_text
from pl.ir.stmt import AssignStmt
from pl.show_inferred.bindings import Entry, bindings, decision_bindings
from pl.show_inferred.result import FunctionInfo, Regenerated
from pl.show_inferred.written_spaces import Written, reason_text, space_changes, written_in

if TYPE_CHECKING:
    from pl.compiler import Compiled
    from pl.ir.function import Function

class _Log:
    """One compiled program's decision log grouped by function, read in one pass (a per-function
    filter of the whole log would make the reports quadratic in the number of functions)."""

    def __init__(self, c: Compiled) -> None:
        self.items: dict[tuple[str, str], list[Any]] = {}
        log = c.decisions
        if log is None:
            return
        for kind in ("spaces", "moves", "residency"):
            for d in getattr(log, kind):
                self.items.setdefault((kind, getattr(d, "function", "")), []).append(d)

    def get(self, kind: str, function: str) -> list[Any]:
        return self.items.get((kind, function), [])


def _infos(r: Regenerated) -> dict[tuple[str, str], FunctionInfo]:
    """(program, function) -> how it was regenerated, looked up once per file."""
    return {(i.program, i.name): i for i in r.functions}


def _line(span: Any) -> int | None:
    line = getattr(span, "line", 0)
    return line if isinstance(line, int) and line > 0 else None


def _put(d: dict[str, Any], key: str, value: Any) -> None:
    if value is not None and value != "":
        d[key] = value


def _function_json(c: Compiled, f: Function, info: FunctionInfo | None, log: _Log,
                   written: Written) -> dict[str, Any]:
    # Each entry named as `explained` names it: its binding as the shown text spells it.
    spaces, moves_log, res_log = (log.get(k, f.name) for k in ("spaces", "moves", "residency"))
    name_of = _Namer(f, info, _entries(spaces, moves_log, res_log))
    vs = name_of.vars
    tiles = []
    changed = {(ch.name, ch.inferred): ch.written for ch in space_changes(written, spaces)}
    for d, v in zip(spaces, vs, strict=False):
        t: dict[str, Any] = {"name": name_of(v, d.name)}
        _put(t, "line", _line(d.span))
        _put(t, "memory_space", d.space.name if d.space is not None else None)
        if d.space is not None:
            _put(t, "written_memory_space", changed.get((user_name(d.name), d.space.name)))
        _put(t, "reason", reason_text(written, d))
        tiles.append(t)
    moves = []
    for m, v in zip(moves_log, vs[len(spaces):], strict=False):
        mv: dict[str, Any] = {"name": name_of(v, m.name),
                              "source": name_of.moved(v, m.producer),
                              "target": m.target.name}
        _put(mv, "line", _line(m.span))
        _put(mv, "consumer", m.consumer_op)
        moves.append(mv)
    residency = []
    for rd, v in zip(res_log, vs[len(spaces) + len(moves_log):], strict=False):
        item: dict[str, Any] = {"load": name_of(v, rd.load)}
        _put(item, "loop_line", _line(rd.loop_span))
        _put(item, "decision", rd.decision)
        _put(item, "rule", rd.rule)
        residency.append(item)
    out: dict[str, Any] = {"name": f.name, "type": f.func_type.name, "tiles": tiles,
                           "moves": moves, "residency": residency}
    if info is not None and info.kept_reason:
        out["left_as_written"] = info.kept_reason
    return out


def file_json(r: Regenerated, path: str) -> dict[str, Any]:
    infos = _infos(r)
    programs = []
    for c in r.compiled:
        log = _Log(c)
        written = written_in(c.source)
        programs.append({"name": c.source.name,
                         "functions": [_function_json(c, f, infos.get((c.source.name, f.name)),
                                                      log, written)
                                       for f in c.program.functions]})
    return {"path": path, "programs": programs}


def _residency_reason(rd: Any) -> str:
    # Imported here: only a report that explains residency needs its rules.
    from pl.infer.residency.apply import RULES

    rule, detail = getattr(rd, "rule", ""), getattr(rd, "detail", "")
    text = f"{rule}: {RULES.get(rule, rule)}" if rule else "no rule recorded"
    # The detail only adds what the rule's one-line description does not already say.
    said = set(text.lower().replace("(", " ").replace(")", " ").split())
    if detail and not set(detail.lower().split()) <= said:
        text += f"; {detail}"
    return user_text(text)


def _source_line(lines: list[str], line: int | None) -> str:
    if line is None or not 0 < line <= len(lines):
        return ""
    return f"\n    | {lines[line - 1].strip()}"


@dataclass(frozen=True)
class Explained:
    """One entry of `--explain`: a tile value, an inserted move or a residency candidate."""

    kind: str          # "tile", "move" or "residency"
    name: str          # as the regenerated file spells it
    ir_name: str       # as the compiled program (`--ir`) spells it
    line: int | None   # the line of the user's file it is about
    space: str         # tile: its space ("unplaced"); move: its target; residency: the decision
    text: str          # what `--explain` says of it after `path:line: `
    source: str = ""   # a move: the value it moves, as the regenerated file spells it
    binding: Var | None = field(default=None, compare=False)  # the value it is about


@dataclass(frozen=True)
class ExplainedFunction:
    """The entries of one function that has any, and why it was left as written ("": it was not)."""

    program: str
    function: Function
    kept_reason: str
    items: tuple[Explained, ...]
    outlined: bool = False  # made by compilation of a `pl.at` scope's body (its span)


def _entries(tiles: list[Any], moves: list[Any], res: list[Any]) -> list[Entry]:
    return [*(("tile", d.name, _line(d.span)) for d in tiles),
            *(("move", m.name, _line(m.span)) for m in moves),
            *(("residency", rd.load, _line(getattr(rd, "load_span", None))) for rd in res)]


class _Namer:
    """The binding each entry of `f`'s log (`entries`) is about, and the name the shown text
    gives a binding (by compiled name where none is known: a function left as written)."""

    def __init__(self, f: Function, info: FunctionInfo | None, entries: list[Entry]) -> None:
        defs = bindings(f)
        names = info.names if info is not None and len(info.names) == len(defs) else ()
        self.shown = {v: n for (v, _), n in zip(defs, names, strict=False) if n}
        self.made = dict(defs)
        self.vars = decision_bindings(f, entries)

    def __call__(self, v: Var | None, ir_name: str) -> str:
        return (self.shown.get(v) if v is not None else None) or user_name(ir_name)

    def moved(self, v: Var | None, ir_name: str) -> str:
        """The name of the value the move binding `v` moves (`ir_name`: its compiled name)."""
        s = self.made.get(v) if v is not None else None
        if isinstance(s, AssignStmt) and isinstance(s.value, Call) and s.value.args \
                and isinstance(s.value.args[0], Var):
            return self(s.value.args[0], ir_name)
        return self(None, ir_name)


def explained(r: Regenerated) -> list[ExplainedFunction]:
    """Every tile value, inserted move and residency candidate of each function, with its reason
    (what `--explain` prints and the HTML report shows on hover), each about one binding
    (pl/show_inferred/bindings.py) and naming it as the shown text does. Linear in the size of the
    program: the log is grouped by function once, the spaces the user wrote by statement once."""
    out: list[ExplainedFunction] = []
    infos = _infos(r)
    for c in r.compiled:
        log = _Log(c)
        written = written_in(c.source)
        for f in c.program.functions:
            tiles = log.get("spaces", f.name)
            moves = log.get("moves", f.name)
            res = log.get("residency", f.name)
            if not (tiles or moves or res):
                continue
            info = infos.get((c.source.name, f.name))
            name_of = _Namer(f, info, _entries(tiles, moves, res))
            vs = name_of.vars
            items: list[Explained] = []
            changed = {(ch.name, ch.inferred): ch.written for ch in space_changes(written, tiles)}
            for d, v in zip(tiles, vs, strict=False):
                space = d.space.name if d.space is not None else "unplaced"
                name = name_of(v, d.name)
                was = changed.get((user_name(d.name), space))
                note = f" (written {was}, changed by inference)" if was else ""
                items.append(Explained("tile", name, d.name, _line(d.span), space,
                                       f"{name} -> {space}{note}: {reason_text(written, d)}",
                                       binding=v))
            for m, v in zip(moves, vs[len(tiles):], strict=False):
                name = name_of(v, m.name)
                source = name_of.moved(v, m.producer)
                items.append(Explained(
                    "move", name, m.name, _line(m.span), m.target.name,
                    f"{name} -> {m.target.name}: inserted move of {source}, "
                    f"because {m.consumer_op} argument {m.arg_index} must be in {m.target.name}",
                    source, v))
            for rd, v in zip(res, vs[len(tiles) + len(moves):], strict=False):
                verb = "hoisted before" if rd.decision == "hoisted" else "kept inside"
                load = name_of(v, rd.load)
                items.append(Explained(
                    "residency", load, rd.load, _line(getattr(rd, "load_span", None)),
                    rd.decision, f"{load} {verb} the loop at line {_line(rd.loop_span)}: "
                                 f"{_residency_reason(rd)}", binding=v))
            out.append(ExplainedFunction(c.source.name, f, info.kept_reason if info else "",
                                         tuple(items), c.source.get(f.name) is None))
    return out


def explain(r: Regenerated, path: str) -> str:
    """One entry per tile value, inserted move and residency candidate (`explained`), each with
    its reason and the source line it is about; a tile whose written space inference changed
    says so."""
    out: list[str] = []
    lines = source_lines(r.text)
    for ef in explained(r):
        f = ef.function
        kind = f.func_type.name if not ef.outlined else \
            f"{f.func_type.name}, outlined from the scope at line {f.span.line}"
        out.append(f"{path}: {ef.program}.{f.name} ({kind})")
        if ef.kept_reason:
            out.append(f"  left as written (--ir shows the compiled form): {ef.kept_reason}")
        out.extend(f"  {path}:{item.line}: {item.text}" + _source_line(lines, item.line)
                   for item in ef.items)
    return "\n".join(out) + ("\n" if out else "")
