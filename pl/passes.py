"""Every pass of the project, reached the same way: `pl.passes.NAME(options)` returns a callable
`Program -> Program` (as in the reference), plus the property verifiers.

A `Pass` is pure: it never mutates its input. `PassManager` runs a list of them and can write the
program after each one to a numbered file (`00_frontend.py`, `01_after_unroll_loops.py`, ...).
Each pass declares the `Property`s it requires of its input and those it establishes (as xDSL's
and the reference's passes do); a property, once established, holds for every later pass. With
`verify=True` the manager checks, after every pass, each property that holds by then: `SSA`
(well-typed, `pl.typecheck.verify_well_typed`, and in SSA form, `lowering.ssa.verify`) and
`TILE_MEMORY_INFERRED` (`infer.verifier`); and before a pass, a property it requires that no
earlier pass established is checked on its input. A violation is an internal error naming the
pass. Before SSA nothing is checked: a program before SSA may rebind a name to a value of
another type, which only SSA makes well-typed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

from pl.deep_stack import on_deep_stack
from pl.errors import InternalError, PlError
from pl.gc_pause import gc_paused
from pl.infer.memory_space import infer_tile_memory_space as run_infer_tile_memory_space
from pl.infer.residency.apply import apply_residency
from pl.infer.residency.hook import strip_bridge_markers
from pl.infer.verifier import verify_tile_memory_inferred as memory_violations
from pl.ir.function import Program
from pl.lowering.auto_tile_l0 import auto_tile_matmul_l0 as run_auto_tile_matmul_l0
from pl.lowering.flatten_call import flatten_call_expr as run_flatten_call_expr
from pl.lowering.flatten_nd import flatten_tile_nd_to_2d as run_flatten_tile_nd_to_2d
from pl.lowering.outline import outline_incore_scopes as run_outline_incore_scopes
from pl.lowering.ssa.convert import convert_to_ssa as run_convert_to_ssa
from pl.lowering.ssa.verify import verify_ssa
from pl.lowering.tensor_to_tile.rewrite import convert_tensor_to_tile_ops as run_convert_tensor_to_tile_ops
from pl.lowering.tile_slice import canonicalize_tile_slice as run_canonicalize_tile_slice
from pl.lowering.unroll import unroll_loops as run_unroll_loops
from pl.ops.backend import check_backend
from pl.printer.program import print_node
from pl.typecheck import verify_well_typed


class Property(Enum):
    """A property of a program a pass may require of its input or establish in its output."""

    SSA = "SSA form"  # every variable defined once, and well-typed (lowering.ssa.verify, typecheck)
    TILE_MEMORY_INFERRED = "TileMemoryInferred"  # every tile placed, operands in allowed spaces


_NONE: frozenset[Property] = frozenset()
_SSA: frozenset[Property] = frozenset({Property.SSA})  # the passes written for SSA input


@dataclass(frozen=True)
class Pass:
    """A named pure transformation, with the properties it requires of its input and those it
    establishes in its output. `run_logged` also returns what the pass has to say.

    Every run, however it is reached (`pl.passes.NAME(...)(program)`, `PassManager`,
    `pl.compile`), keeps the cyclic GC paused (pl.gc_pause): a pass allocates a new program of
    acyclic objects, and the collector would rescan the caller's growing heap for cycles that
    are not there (the time of a pass called on its own grew faster than its input)."""

    name: str
    transform: Callable[[Program], tuple[Program, Any]]
    requires: frozenset[Property] = _NONE
    establishes: frozenset[Property] = _NONE

    @gc_paused()
    def run_logged(self, program: Program) -> tuple[Program, Any]:
        return on_deep_stack(lambda: self.transform(program))

    def __call__(self, program: Program) -> Program:
        return self.run_logged(program)[0]


def unroll_loops() -> Pass:
    """Replace every `pl.unroll` loop by its body, once per iteration, the index a constant."""
    return Pass("unroll_loops", lambda p: (run_unroll_loops(p), None))


def flatten_call_expr() -> Pass:
    """Give each op call of a tile or tensor nested in another op call (or returned, yielded, or an
    in-place write in a tuple) a statement of its own before the one it is nested in."""
    return Pass("flatten_call_expr", lambda p: (run_flatten_call_expr(p), None))


def convert_to_ssa() -> Pass:
    """Version every definition (`x__ssa_v0`, `i__idx_v0`, ...) and add loop carries and phis."""
    return Pass("convert_to_ssa", lambda p: (run_convert_to_ssa(p), None),
                establishes=frozenset({Property.SSA}))


def outline_incore_scopes() -> Pass:
    """Make the body of each `pl.at(level=pl.Level.CORE_GROUP)` (and per-block `pl.spmd`) scope
    of Opaque/Orchestration functions an InCore function the scope calls."""
    return Pass("outline_incore_scopes", lambda p: (run_outline_incore_scopes(p), None), requires=_SSA)


def convert_tensor_to_tile_ops() -> Pass:
    """Turn the tensor ops of InCore functions into tile ops (matmul operands -> marked Mat loads)."""
    return Pass("convert_tensor_to_tile_ops", lambda p: (run_convert_tensor_to_tile_ops(p), None), requires=_SSA)


def flatten_tile_nd_to_2d() -> Pass:
    """Merge the leading dims of tiles of rank > 2 into 2-D tiles."""
    return Pass("flatten_tile_nd_to_2d", lambda p: (run_flatten_tile_nd_to_2d(p), None), requires=_SSA)


def auto_tile_matmul_l0(backend: str | None = None) -> Pass:
    """Split a Mat-resident matmul whose operands overflow L0A/L0B into a pipelined K loop."""
    check_backend(backend)
    return Pass("auto_tile_matmul_l0", lambda p: (run_auto_tile_matmul_l0(p, backend), None), requires=_SSA)


def canonicalize_tile_slice() -> Pass:
    """A Mat slice feeding an extract or a matmul becomes a `tile.extract` into Left/Right."""
    return Pass("canonicalize_tile_slice", lambda p: (run_canonicalize_tile_slice(p), None), requires=_SSA)


def infer_tile_memory_space(backend: str | None = None, *, residency: bool = True) -> Pass:
    """Place every tile of InCore/AIC/AIV functions in a memory space, insert `tile.move`s
    (phases 0-3) and, with a backend and `residency`, keep invariant Mat operands resident
    across loops (phase 4). The log is an `infer.decisions.DecisionLog`."""
    check_backend(backend)
    phase4 = apply_residency if residency else strip_bridge_markers
    return Pass("infer_tile_memory_space",
                lambda p: run_infer_tile_memory_space(p, backend, residency=phase4), requires=_SSA,
                establishes=frozenset({Property.TILE_MEMORY_INFERRED}))


def verify_tile_memory_inferred(program: Program) -> None:
    """Raise the first violation of the TileMemoryInferred property, if any."""
    errors = memory_violations(program)
    if errors:
        raise errors[0]


@dataclass
class PassManager:
    """Runs passes in order; collects each pass's log; optionally dumps every stage as DSL source."""

    passes: Sequence[Pass]
    dump_dir: Path | None = None
    logs: dict[str, Any] = field(default_factory=dict)
    verify: bool = False

    def run(self, program: Program) -> Program:
        self._dump(0, "frontend", program)
        holds: frozenset[Property] = _NONE
        for index, p in enumerate(self.passes, start=1):
            if self.verify and p.requires - holds:
                _verify(f"the input of pass {p.name}", program, holds | p.requires)
            holds |= p.requires
            program, log = p.run_logged(program)
            if log is not None:
                self.logs[p.name] = log
            self._dump(index, f"after_{p.name}", program)
            holds |= p.establishes
            if self.verify and holds:
                _verify(f"the output of pass {p.name}", program, holds)
        return program

    def _dump(self, index: int, label: str, program: Program) -> None:
        if self.dump_dir is None:
            return
        from pl.files import write_file  # only a dump writes files

        self.dump_dir.mkdir(parents=True, exist_ok=True)
        # Only over a regular file (a FIFO there would be waited on, a device written to).
        write_file(self.dump_dir / f"{index:02d}_{label}.py",
                   (print_node(program) + "\n").encode("utf-8"), sync=False)


def verify_pass_output(name: str, program: Program, *, ssa: bool, placed: bool = False) -> None:
    """Raise InternalError (a bug in pl, not in the kernel: `show_inferred` exits 123 on it) when
    `program`, the output of pass `name`, is ill-typed, (with `ssa`) not in SSA form or (with
    `placed`: memory-space inference has run) violates TileMemoryInferred: a pass must never hand
    on such a program."""
    holds = (_SSA if ssa else _NONE) | (
        frozenset({Property.TILE_MEMORY_INFERRED}) if placed else _NONE)
    _verify(f"the output of pass {name}", program, holds)


def _verify(what: str, program: Program, holds: frozenset[Property]) -> None:
    """Raise InternalError when `program` (`what` it is) is ill-typed or lacks a property of
    `holds`."""
    placed = Property.TILE_MEMORY_INFERRED in holds
    errors = verify_well_typed(program, placed=placed)
    if errors:
        first = errors[0]
        raise InternalError(f"{what} is ill-typed ({len(errors)} "
                            f"violation(s)); first, at {first.span}: {first.message}")
    ssa_errors = verify_ssa(program) if Property.SSA in holds else []
    if ssa_errors:
        raise InternalError(f"{what} is not in SSA form "
                            f"({len(ssa_errors)} violation(s)); first: {ssa_errors[0]}")
    if placed:
        check_memory_inferred(what, program)


def check_memory_inferred(what: str, program: Program) -> None:
    """Raise InternalError when `program` (`what` it is, for the message) has a tile not
    placed or a constrained operand outside its allowed spaces: inference inserts the moves, so
    a violation is a bug in pl, never the kernel's."""
    errors = memory_violations(program)
    if errors:
        raise InternalError(f"{what} violates TileMemoryInferred ({len(errors)} violation(s)); "
                            f"first, at {errors[0].span}: {errors[0].message}")


__all__ = ["Pass", "InternalError", "PassManager", "PlError", "Property", "auto_tile_matmul_l0", "canonicalize_tile_slice",
           "check_memory_inferred",
           "convert_tensor_to_tile_ops", "convert_to_ssa", "flatten_call_expr", "flatten_tile_nd_to_2d",
           "infer_tile_memory_space", "outline_incore_scopes", "unroll_loops", "verify_pass_output", "verify_tile_memory_inferred"]
