"""Capacity warnings: a compiled program's tiles against the backend's on-chip capacities.

Guarantees:
- tiles are sized, and their lives found, by the one footprint module (pl/infer/footprint.py) and
  the capacities are the backend table's (`capacity`, pl/ops/backend.py reading pl/ir/target.py); nothing here sizes a
  tile, lays out a space or follows a tile's life itself;
- no backend (None), no capacities, no warning; a space whose capacity the table does not give
  (0: unchecked, e.g. DDR) is never warned about;
- a "tile" warning for each tile whose own static size exceeds its space's capacity, located at
  the statement that defines it (a Tile parameter: the parameter);
- a "space" warning for a function whose tiles in one space that are live at the same time exceed
  its capacity while none does alone (that case is the tile warnings'), located at the function,
  saying at which line, and naming the tiles live there, biggest first. The total is the peak of
  live bytes (`peak_live_bytes`), not residency's whole-function upper bound: tiles used one after
  another (the blocks of an auto-tiled matmul) share bytes and are not added up, so a warning
  means the tiles live together overflow whatever allocator places them. When some tile's shape
  is dynamic the peak is a lower bound; a space whose only doubt is a dynamic shape is not warned
  about;
- a warning is data: it never changes what is compiled, printed or written, nor an exit status.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pl.errors import diagnostic_lines, render_diagnostic
from pl.ir.names import user_name
from pl.ir.span import Span
from pl.ir.target import KIB

if TYPE_CHECKING:
    from pl.ir.function import Function, Program

BIGGEST = 3  # owners a space warning's note names (its `owners` holds all)


@dataclass(frozen=True)
class Owner:
    """A tile holding bytes of a space: the user's name for it, its line, its static bytes."""

    name: str
    line: int
    bytes: int


@dataclass(frozen=True)
class CapacityWarning:
    """One tile ("tile") or one function's tiles in one space ("space") over the capacity."""

    kind: str
    span: Span
    program: str
    function: str
    space: str
    bytes: int
    capacity: int
    backend: str
    owners: tuple[Owner, ...]   # "tile": the tile; "space": the tiles live at the peak, biggest first
    lower_bound: bool = False   # some owner's shape is dynamic: `bytes` leaves it out
    peak_line: int = 0          # "space": the line where the tiles are live together

    @property
    def message(self) -> str:
        where = f"{self.space} on {self.backend}"
        if self.kind == "tile":
            return (f"tile `{self.owners[0].name}` takes {format_bytes(self.bytes)}, more than the "
                    f"{format_bytes(self.capacity)} of {where}")
        amount = (f"{format_bytes(self.bytes)} or more (some shapes are dynamic)" if self.lower_bound
                  else format_bytes(self.bytes))
        return (f"the {self.space} tiles of {self.program}.{self.function} hold {amount} at once "
                f"at line {self.peak_line}, more than the {format_bytes(self.capacity)} of {where}")

    @property
    def note(self) -> str:
        if self.kind == "tile":
            return "a tile must fit in its memory space on its own"
        live = ", ".join(f"`{o.name}` {format_bytes(o.bytes)} (line {o.line})"
                         for o in self.owners[:BIGGEST])
        more = len(self.owners) - BIGGEST
        if more > 0:
            live += f" and {more} more"
        rule = ("a tile counts from its definition to its last use, through any loop that uses "
                "it again")
        if self.lower_bound:
            rule += "; tiles of dynamic shape are not counted, so the total is a lower bound"
        return f"live at line {self.peak_line}: {live}; {rule}"

    @property
    def hint(self) -> str:
        if self.kind == "tile":
            return "work on it in smaller blocks (load, compute and store a slice at a time)"
        return "use smaller tiles, or fewer at once"

    def render(self, color: bool | None = None, source: str | None = None) -> str:
        """The warning in the diagnostic format of errors (`Warning: ...`, location, source
        lines, caret); `source` is the text of the span's file (else `linecache` reads it)."""
        return render_diagnostic("warning", self.message, self.span,
                                 diagnostic_lines(self.span, source), hint=self.hint,
                                 note=self.note, color=color)

    def as_json(self) -> dict[str, Any]:
        """JSON data: the fields, the message, and the location (file, line, column, end)."""
        s = self.span
        return {"kind": self.kind, "message": self.message, "file": s.filename, "line": s.line,
                "column": s.col, "end_line": s.end_line, "end_column": s.end_col,
                "program": self.program, "function": self.function, "space": self.space,
                "bytes": self.bytes, "capacity": self.capacity, "backend": self.backend,
                "lower_bound": self.lower_bound, "peak_line": self.peak_line,
                "owners": [{"name": o.name, "line": o.line, "bytes": o.bytes}
                           for o in self.owners]}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> CapacityWarning:
        """The warning `as_json` gave (ValueError, KeyError or TypeError when `d` is not one)."""
        owners = tuple(Owner(_str(o["name"]), _int(o["line"]), _int(o["bytes"]))
                       for o in d["owners"])
        lower = d["lower_bound"]
        if d["kind"] not in ("tile", "space") or not isinstance(lower, bool):
            raise ValueError("not a stored capacity warning")
        return cls(d["kind"], Span(_str(d["file"]), _int(d["line"]), _int(d["column"]),
                                   _int(d["end_line"]), _int(d["end_column"])),
                   _str(d["program"]), _str(d["function"]), _str(d["space"]), _int(d["bytes"]),
                   _int(d["capacity"]), _str(d["backend"]), owners, lower, _int(d["peak_line"]))


def capacity_warnings(program: Program, backend: str | None) -> tuple[CapacityWarning, ...]:
    """The capacity warnings of a compiled program (memory spaces inferred), function by
    function in program order; none without a backend."""
    if backend is None:
        return ()
    return tuple(w for f in program.functions
                 for w in _function_warnings(program.name, f, backend))


def _function_warnings(program: str, func: Function, backend: str) -> list[CapacityWarning]:
    # Imported here: a compile-cache hit rebuilds warnings from JSON without the compiler's modules
    # (pl.ops.backend's package loads the op tables).
    from pl.infer.footprint import footprint_and_peaks
    from pl.ops.backend import capacity

    out = []
    footprint, peaks = footprint_and_peaks(func)
    for space, fp in footprint.spaces.items():
        cap = capacity(backend, space)
        if cap <= 0:
            continue
        too_big = [(v, size) for v, size in fp.owners if size is not None and size > cap]
        for v, size in too_big:
            out.append(CapacityWarning("tile", v.span, program, func.name, space.name, size, cap,
                                       backend, (Owner(user_name(v.name), v.span.line, size),)))
        peak = peaks[space]
        if not too_big and peak.bytes > cap:
            # Biggest first; a stable sort keeps equal sizes in definition order.
            live = sorted(((v, size) for v, size in peak.owners if size is not None),
                          key=lambda vs: -vs[1])
            out.append(CapacityWarning(
                "space", func.span, program, func.name, space.name, peak.bytes, cap, backend,
                tuple(Owner(user_name(v.name), v.span.line, size) for v, size in live),
                lower_bound=peak.unknown, peak_line=peak.span.line))
    return out


def format_bytes(n: int) -> str:
    """`184 KiB`, `1 MiB`, exact bytes beside a size that is not a whole number of KiB."""
    if n % (KIB * KIB) == 0 and n > 0:
        return f"{n // (KIB * KIB)} MiB"
    if n % KIB == 0 and n > 0:
        return f"{n // KIB} KiB"
    return f"{n} bytes" if n < KIB else f"{n / KIB:.1f} KiB ({n} bytes)"


def _int(value: Any) -> int:
    if type(value) is not int:
        raise ValueError("not a stored integer")
    return value


def _str(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError("not a stored string")
    return value
