"""Capacity warnings: a compiled program's tiles against the backend's on-chip capacities.

Guarantees:
- the footprint is the one rule residency's capacity check uses (`function_footprint`,
  pl/infer/footprint.py) and the capacities are the backend table's (`capacity`,
  pl/infer/backend.py); nothing here sizes a tile or lays out a space itself;
- no backend (None), no capacities, no warning; a space whose capacity the table does not give
  (0: unchecked, e.g. DDR) is never warned about;
- a "tile" warning for each tile whose own static size exceeds its space's capacity, located at
  the statement that defines it (a Tile parameter: the parameter);
- a "space" warning for a function whose tiles in one space exceed its capacity together while
  none does alone (that case is the tile warnings'), located at the function and naming the
  biggest owners. The total is residency's whole-function upper bound (every tile counted for the
  whole function), and a lower bound of that when some tile's shape is dynamic; a space whose
  only doubt is a dynamic shape is not warned about;
- a warning is data: it never changes what is compiled, printed or written, nor an exit status.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pl.errors import diagnostic_lines, render_diagnostic
from pl.infer.backend import KIB, capacity
from pl.ir.names import user_name
from pl.ir.span import Span

if TYPE_CHECKING:
    from pl.ir.function import Function, Program

BIGGEST = 3  # owners a space warning names


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
    owners: tuple[Owner, ...]   # "tile": the tile; "space": the biggest owners, biggest first
    lower_bound: bool = False   # some owner's shape is dynamic: `bytes` leaves it out

    @property
    def message(self) -> str:
        where = f"{self.space} on {self.backend}"
        if self.kind == "tile":
            return (f"tile `{self.owners[0].name}` takes {_size(self.bytes)}, more than the "
                    f"{_size(self.capacity)} of {where}")
        amount = (f"{_size(self.bytes)} or more (some shapes are dynamic)" if self.lower_bound
                  else f"up to {_size(self.bytes)}")
        return (f"the {self.space} tiles of {self.program}.{self.function} may take {amount} "
                f"together, more than the {_size(self.capacity)} of {where}")

    @property
    def note(self) -> str:
        if self.kind == "tile":
            return "a tile must fit in its memory space on its own"
        biggest = ", ".join(f"`{o.name}` {_size(o.bytes)} (line {o.line})" for o in self.owners)
        bound = ("every tile is counted for the whole function (an upper bound: tiles whose lives "
                 "do not overlap may share bytes)")
        if self.lower_bound:
            bound += "; tiles of dynamic shape are not counted, so the total is a lower bound"
        return f"biggest: {biggest}; {bound}"

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
                "lower_bound": self.lower_bound,
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
                   _int(d["capacity"]), _str(d["backend"]), owners, lower)


def capacity_warnings(program: Program, backend: str | None) -> tuple[CapacityWarning, ...]:
    """The capacity warnings of a compiled program (memory spaces inferred), function by
    function in program order; none without a backend."""
    if backend is None:
        return ()
    return tuple(w for f in program.functions
                 for w in _function_warnings(program.name, f, backend))


def _function_warnings(program: str, func: Function, backend: str) -> list[CapacityWarning]:
    # Imported here: a compile-cache hit rebuilds warnings from JSON without the compiler's modules.
    from pl.infer.footprint import function_footprint

    out = []
    for space, fp in function_footprint(func).spaces.items():
        cap = capacity(backend, space)
        if cap <= 0:
            continue
        sized = [(v, size) for v, size in fp.owners if size is not None]
        too_big = [(v, size) for v, size in sized if size > cap]
        for v, size in too_big:
            out.append(CapacityWarning("tile", v.span, program, func.name, space.name, size, cap,
                                       backend, (Owner(user_name(v.name), v.span.line, size),)))
        if not too_big and fp.bytes > cap:
            biggest = sorted(sized, key=lambda vs: -vs[1])[:BIGGEST]
            out.append(CapacityWarning(
                "space", func.span, program, func.name, space.name, fp.bytes, cap, backend,
                tuple(Owner(user_name(v.name), v.span.line, size) for v, size in biggest),
                lower_bound=fp.unknown))
    return out


def _size(n: int) -> str:
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
