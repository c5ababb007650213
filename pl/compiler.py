"""`pl.compile`: the default pipeline, run on a Program, with the decision log kept.

The default pipeline is the reference's tensor path: unroll_loops, flatten_call_expr, convert_to_ssa,
outline_incore_scopes, convert_tensor_to_tile_ops,
flatten_tile_nd_to_2d, auto_tile_matmul_l0, canonicalize_tile_slice, infer_tile_memory_space
(phases 0-4). It runs on tile-level and tensor-level programs alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pl import passes
from pl.deep_stack import on_deep_stack
from pl.errors import PlError
from pl.gc_pause import gc_paused
from pl.infer.capacity import CapacityWarning, capacity_warnings
from pl.ir.function import Program
from pl.ir.target import DEFAULT_BACKEND
from pl.ops.backend import check_backend
from pl.printer.program import print_node


@dataclass(frozen=True)
class Compiled:
    """The result of `pl.compile`: the compiled program, why every tile is where it is, and the
    tiles that do not fit the backend's on-chip capacities (`warnings`, pl/infer/capacity.py;
    empty without a backend)."""

    source: Program
    program: Program
    decisions: Any
    backend: str | None
    warnings: tuple[CapacityWarning, ...] = ()

    def as_python(self, **options: Any) -> str:
        return print_node(self.program, **options)

    def __str__(self) -> str:
        return self.as_python()


def default_passes(backend: str | None, residency: bool = True) -> list[passes.Pass]:
    return [
        passes.unroll_loops(),
        passes.flatten_call_expr(),
        passes.convert_to_ssa(),
        passes.outline_incore_scopes(),
        passes.convert_tensor_to_tile_ops(),
        passes.flatten_tile_nd_to_2d(),
        passes.auto_tile_matmul_l0(backend),
        passes.canonicalize_tile_slice(),
        passes.infer_tile_memory_space(backend, residency=residency),
    ]


def compile_program(program: Program, backend: str | None = DEFAULT_BACKEND, *, residency: bool = True,
                    dump_passes: str | Path | None = None, verify: bool = False) -> Compiled:
    """Run the default pipeline. `backend` names a backend of pl/ir/target.py
    (default "910B") or is None (no backend configured); an unknown name is a PlError.

    `residency=False` turns phase 4 (loop-invariant Mat residency) off. `dump_passes` names a
    folder that receives the program after every pass as DSL source (`00_frontend.py`, ...).
    `verify=True` checks every pass's output (`pl.passes.verify_pass_output`).
    """
    if not isinstance(program, Program):
        raise PlError(f"pl.compile expects a program made by @pl.program, got {type(program).__name__}")
    check_backend(backend)
    manager = passes.PassManager(default_passes(backend, residency),
                                 Path(dump_passes) if dump_passes is not None else None,
                                 verify=verify)

    def run() -> Compiled:
        out = manager.run(program)
        if not verify:  # with verify, the manager checked it after inference already
            passes.check_memory_inferred("the compiled program", out)
        return Compiled(program, out, manager.logs.get("infer_tile_memory_space"), backend,
                        capacity_warnings(out, backend))

    # The entry's one collector pause (pl.gc_pause), written as a block: as a decorator, mypy
    # cannot type pl/__init__.py's `compile = _compile_program` (an import cycle with pl).
    with gc_paused():
        return on_deep_stack(run)
