"""Every pass of the project, reached the same way: `pl.passes.NAME(options)` returns a callable
`Program -> Program` (as in the reference), plus the property verifiers.

A `Pass` is pure: it never mutates its input. `PassManager` runs a list of them and can write the
program after each one to a numbered file (`00_frontend.py`, `01_after_convert_to_ssa.py`, ...).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pl.errors import PlError
from pl.ir.function import Program


@dataclass(frozen=True)
class Pass:
    """A named pure transformation. `run_logged` also returns what the pass has to say."""

    name: str
    run_logged: Callable[[Program], tuple[Program, Any]]

    def __call__(self, program: Program) -> Program:
        return self.run_logged(program)[0]


def convert_to_ssa() -> Pass:
    """Version every definition (`x__ssa_v0`, `i__idx_v0`, ...) and add loop carries and phis."""
    from lowering.ssa import convert_to_ssa as run

    return Pass("convert_to_ssa", lambda p: (run(p), None))


def infer_tile_memory_space(backend: str | None = None) -> Pass:
    """Place every tile of InCore/AIC/AIV functions in a memory space and insert `tile.move`s."""
    from infer.backend import check_backend
    from infer.memory_space import infer_tile_memory_space as run

    check_backend(backend)
    return Pass("infer_tile_memory_space", lambda p: run(p, backend))


def verify_tile_memory_inferred(program: Program) -> None:
    """Raise the first violation of the TileMemoryInferred property, if any."""
    from infer.verifier import verify_tile_memory_inferred as verify

    errors = verify(program)
    if errors:
        raise errors[0]


@dataclass
class PassManager:
    """Runs passes in order; collects each pass's log; optionally dumps every stage as DSL source."""

    passes: Sequence[Pass]
    dump_dir: Path | None = None
    logs: dict[str, Any] = field(default_factory=dict)

    def run(self, program: Program) -> Program:
        self._dump(0, "frontend", program)
        for index, p in enumerate(self.passes, start=1):
            program, log = p.run_logged(program)
            if log is not None:
                self.logs[p.name] = log
            self._dump(index, f"after_{p.name}", program)
        return program

    def _dump(self, index: int, label: str, program: Program) -> None:
        if self.dump_dir is None:
            return
        self.dump_dir.mkdir(parents=True, exist_ok=True)
        (self.dump_dir / f"{index:02d}_{label}.py").write_text(program.as_python() + "\n",
                                                               encoding="utf-8")


__all__ = ["Pass", "PassManager", "PlError", "convert_to_ssa", "infer_tile_memory_space",
           "verify_tile_memory_inferred"]
