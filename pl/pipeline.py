"""`pl.compile`: the default pipeline, run on a Program, with the decision log kept.

The pipeline grows with the project: today it is convert_to_ssa then infer_tile_memory_space
(phases 0-3); the tensor pre-passes and residency join it in place, in the reference's order.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pl import passes
from pl.errors import PlError
from pl.ir.function import Program

BACKENDS = (None, "910B", "950")


@dataclass(frozen=True)
class Compiled:
    """The result of `pl.compile`: the compiled program and why every tile is where it is."""

    source: Program
    program: Program
    decisions: Any
    backend: str | None

    def as_python(self, **options: Any) -> str:
        return self.program.as_python(**options)

    def __str__(self) -> str:
        return self.as_python()


def default_passes(backend: str | None) -> list[passes.Pass]:
    return [passes.convert_to_ssa(), passes.infer_tile_memory_space(backend)]


def compile_program(program: Program, backend: str | None = "910B", *, residency: bool = True,
                    dump_passes: str | Path | None = None) -> Compiled:
    """Run the default pipeline. `backend` is "910B", "950" or None (no backend configured).

    `residency` switches phase 4 (loop-invariant Mat residency) once it exists; with phases 0-3
    only, it has no effect yet.
    """
    if not isinstance(program, Program):
        raise PlError(f"pl.compile expects a program made by @pl.program, got {type(program).__name__}")
    if backend not in BACKENDS:
        raise PlError(f"unknown backend {backend!r}; choose one of 910B, 950 or None")
    manager = passes.PassManager(default_passes(backend),
                                 Path(dump_passes) if dump_passes is not None else None)
    out = manager.run(program)
    passes.verify_tile_memory_inferred(out)
    return Compiled(program, out, manager.logs.get("infer_tile_memory_space"), backend)
