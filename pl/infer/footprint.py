"""A function's on-chip footprint per memory space: the whole-function upper bound that residency's
capacity rule checks (pass.md 6, ops.md 13), and that show_inferred reports and warns about.

Guarantees:
- every value that owns an allocation counts once: a Tile parameter (it holds its space for the
  whole function) and a tile assigned from anything but a buffer view, a plain rename, or an op
  whose output reuses an input's buffer; a view or rename shares its source's buffer;
- a space's bytes are its owners' static sizes (4-bit dtypes packed) laid out one after another in
  definition order (parameters first), each end rounded up to 32 bytes, as a bump allocator that
  never frees would place them: an upper bound, since buffers whose lives do not overlap could
  share bytes;
- an owner whose shape is not static has size None, and its space is `unknown`: its bytes are then
  a lower bound;
- `Footprint.record` is the one rule; `function_footprint` walks a function with the IR's one
  traversal and feeds it, residency's inventory feeds it from its own visit of the body.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pl.ir.enums import MemorySpace
from pl.ir.expr import Call, Expr, Var
from pl.ir.function import Function
from pl.ir.stmt import AssignStmt
from pl.ir.traverse import walk_stmts
from pl.ir.types import TileType
from pl.ops.registry import get_op

ALIGN = 32  # bytes: every buffer of every space starts on a 32-byte boundary


def tile_bytes(t: TileType) -> int | None:
    """Static storage bytes of a tile (4-bit dtypes packed), None when a dim is not a constant > 0."""
    elems = 1
    for d in t.shape:
        value = getattr(d, "value", None)
        if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
            return None
        elems *= value
    return (elems * t.dtype.bits + 7) // 8


def owns_allocation(value: Expr) -> bool:
    """Whether `x = value` gives x a buffer of its own (not a rename, a view or an in-place op)."""
    if isinstance(value, Var):
        return False
    if not isinstance(value, Call):
        return True
    op = get_op(value.op_name)
    if op is None:
        return True
    return not op.is_buffer_view and op.output_reuses_input is None


@dataclass
class SpaceFootprint:
    """One space's owners (each with its static bytes, None when dynamic) and their layout."""

    owners: list[tuple[Var, int | None]] = field(default_factory=list)
    bytes: int = 0          # the end of the last owner laid out (sizes of dynamic owners left out)

    @property
    def unknown(self) -> bool:
        """Some owner's size is not static: `bytes` is a lower bound."""
        return any(size is None for _, size in self.owners)


@dataclass
class Footprint:
    """The footprint of one function, space by space (only spaces with an owner appear)."""

    spaces: dict[MemorySpace, SpaceFootprint] = field(default_factory=dict)

    def record(self, var: Var, value: Expr | None) -> MemorySpace | None:
        """Count `var = value` (`value` None: `var` is a Tile parameter) when it owns a buffer of
        a known space; return that space, or None when nothing was counted."""
        t = var.type
        if not isinstance(t, TileType) or t.memory_space is None \
                or (value is not None and not owns_allocation(value)):
            return None
        space = self.spaces.setdefault(t.memory_space, SpaceFootprint())
        size = tile_bytes(t)
        space.owners.append((var, size))
        if size is not None:
            space.bytes = -(-(space.bytes + size) // ALIGN) * ALIGN
        return t.memory_space

    def bytes_in(self, space: MemorySpace) -> int:
        found = self.spaces.get(space)
        return found.bytes if found is not None else 0


def function_footprint(func: Function) -> Footprint:
    """The footprint of `func` after inference (tiles without a memory space are not counted)."""
    out = Footprint()
    for p in func.params:
        out.record(p, None)
    for stmt in walk_stmts(func.body):
        if isinstance(stmt, AssignStmt):
            out.record(stmt.var, stmt.value)
    return out
