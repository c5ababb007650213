"""The order in which `pl.interpret` runs the statements of a Group function.

A Group function launches its cube and vector functions together: on the device they run at
once and meet at the cross-core pipes. The interpreter runs one call after the other, so it
picks an order in which every pop finds its tile: `group_order(program, stmts)` returns the
statements with each one that pops a pipe direction (`tpop_from_aic`: cube -> vector,
`tpop_from_aiv`: vector -> cube; found in the called function and the functions it calls) after
the statements that push that direction, and never before a statement that binds a variable it
reads. Among the statements free to run it keeps the written order, and a Return stays last.
Where no such order exists (each side pops what the other pushes later: a two-way exchange) the
written order stays, and the first pop on an empty pipe is the located error the run reports.
Pure: nothing is changed; the statements are only reordered.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Final

from pl.ir.expr import Call, GlobalVar, Var
from pl.ir.function import Program
from pl.ir.stmt import AssignStmt, ReturnStmt, Stmt
from pl.ir.traverse import stmt_exprs, walk_exprs, walk_stmts

# The pipe direction each op pushes to or pops from.
_PUSHES: Final[Mapping[str, str]] = MappingProxyType(
    {"tile.tpush_to_aiv": "cube -> vector", "tile.tpush_to_aic": "vector -> cube"})
_POPS: Final[Mapping[str, str]] = MappingProxyType(
    {"tile.tpop_from_aic": "cube -> vector", "tile.tpop_from_aiv": "vector -> cube"})


def _pipe_use(program: Program, stmt: Stmt) -> tuple[frozenset[str], frozenset[str]]:
    """(directions pushed, directions popped) by `stmt` and every function it calls."""
    pushes: set[str] = set()
    pops: set[str] = set()
    seen: set[str] = set()
    todo: list[Stmt] = [stmt]
    while todo:
        for s in walk_stmts(todo.pop()):
            for root in stmt_exprs(s):
                for e in walk_exprs(root):
                    if not isinstance(e, Call):
                        continue
                    if isinstance(e.op, GlobalVar):
                        callee = program.get(e.op.name)
                        if callee is not None and callee.name not in seen:
                            seen.add(callee.name)
                            todo.append(callee.body)
                    elif e.op_name in _PUSHES:
                        pushes.add(_PUSHES[e.op_name])
                    elif e.op_name in _POPS:
                        pops.add(_POPS[e.op_name])
    return frozenset(pushes), frozenset(pops)


def _reads(stmt: Stmt) -> set[Var]:
    return {e for root in stmt_exprs(stmt) for e in walk_exprs(root) if isinstance(e, Var)}


def group_order(program: Program, stmts: Sequence[Stmt]) -> tuple[Stmt, ...]:
    """`stmts` (a Group function's body) in the order the module docstring describes."""
    use = [_pipe_use(program, s) for s in stmts]
    bound = [s.var if isinstance(s, AssignStmt) else None for s in stmts]
    reads = [_reads(s) for s in stmts]

    def conflict(i: int, j: int) -> bool:
        """Running `i` before the earlier `j` would change a variable one of them reads."""
        return (bound[j] is not None and bound[j] in reads[i]) \
            or (bound[i] is not None and (bound[i] in reads[j] or bound[i] is bound[j]))

    left = list(range(len(stmts)))

    def ready(i: int) -> bool:
        if isinstance(stmts[i], ReturnStmt) and len(left) > 1:
            return False
        waits = use[i][1] - use[i][0]  # a statement popping what it pushes itself runs as is
        return not any(j != i and (waits & use[j][0] or (j < i and conflict(i, j))) for j in left)

    order: list[int] = []
    while left:
        chosen = next((i for i in left if ready(i)), None)
        if chosen is None:  # no order lets every pop find its tile: keep the written one
            return tuple(stmts)
        order.append(chosen)
        left.remove(chosen)
    return tuple(stmts[i] for i in order)
