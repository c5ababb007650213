"""Phase 0 of memory-space inference: demand collection (pass.md section 1).

Guarantees: `collect_demands(body)` returns, for every plain Var consumed in a constrained slot of a
top-level Call, the first allowed space of that slot ("demand") and where it came from; collisions
keep the first demand unless it is Vec and the newcomer is not; one reverse sweep over the
inherit-input edges (result -> first Var-only Tile/Tensor arg) pushes demands back through view
chains. Demands are only read by phase 1 for retargetable producers without `target_memory`.
"""

from __future__ import annotations

from dataclasses import dataclass

from pl.infer.common import CallSite, call_sites, var_only
from pl.ir.enums import MemorySpace
from pl.ir.expr import Var
from pl.ir.stmt import AssignStmt, Stmt
from pl.ir.types import TensorType, TileType


@dataclass(frozen=True, slots=True)
class Demand:
    """A space some consumer wants a value in: `op` argument `arg_index` asked for `space`."""

    space: MemorySpace
    op: str
    arg_index: int


def should_override(existing: MemorySpace, incoming: MemorySpace) -> bool:
    """A specialised demand beats the permissive Vec; otherwise the first demand stays."""
    return existing is MemorySpace.Vec and incoming is not MemorySpace.Vec


def _offer(demands: dict[Var, Demand], var: Var, demand: Demand) -> None:
    old = demands.get(var)
    if old is None or should_override(old.space, demand.space):
        demands[var] = demand


def collect_demands(body: Stmt, sites: list[CallSite] | None = None) -> dict[Var, Demand]:
    """Phase 0 over `body` (`sites`: its `call_sites`, when the caller has them already)."""
    demands: dict[Var, Demand] = {}
    edges: list[tuple[Var, Var]] = []
    for stmt, call, op, constraints in call_sites(body) if sites is None else sites:
        for i, allowed in enumerate(constraints[: len(call.args)]):
            arg = call.args[i]
            if allowed and type(arg) is Var:  # var_only: an IterArg does not match
                old = demands.get(arg)
                if old is None or should_override(old.space, allowed[0]):
                    demands[arg] = Demand(allowed[0], call.op.name, i)
        if isinstance(stmt, AssignStmt) and op is not None and op.inherits_input:
            # IterArgs are skipped on purpose: assemble(iter_target, src, off) links to src.
            src = next((a for a in call.args
                        if var_only(a) is not None and isinstance(a.type, (TileType, TensorType))),
                       None)
            if isinstance(src, Var):
                edges.append((stmt.var, src))
    # SSA: a view is defined after its source, so one reverse sweep reaches the fixpoint.
    for dst, src in reversed(edges):
        d = demands.get(dst)
        if d is not None:
            _offer(demands, src, d)
    return demands
