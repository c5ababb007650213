"""`infer_tile_memory_space`: place every tile of InCore/AIC/AIV functions in a memory space.

Guarantees: pure (the input program is never mutated). For each function of kind InCore, AIC or AIV
(pass.md decision 1) it runs phase 0 (demands), phase 1 (forward analysis), phase 2 (move keys)
and phase 3 (rewrite with inserted `tile.move`s); other functions pass through unchanged. A
tile-typed parameter of such a function is a PlError located at the parameter. Then the residency
hook (phase 4; today it only strips the private bridge marker and normalises bodies) runs on the
whole program. The second result explains every tile's space and every inserted move. A tile bound
to allocated memory (a MemRef, IR printed after memory allocation) keeps the space it was
allocated in: it is never re-placed, consumers get moves (docs/memory_allocation.md).
"""

from __future__ import annotations

from dataclasses import replace

from infer import decisions as d
from infer.analysis import analyze, collect_moves
from infer.backend import check_backend
from infer.common import call_sites
from infer.demand import collect_demands
from infer.mutate import MakeCall, Mutator
from infer.residency.hook import Residency, strip_bridge_markers
from pl.errors import PlError
from pl.ir.function import Function, Program
from pl.ir.stmt import ReturnStmt, Stmt, flatten_body
from pl.ir.types import TileType, Type
from pl.ops.deduce import CallBuilder


def _check_params(f: Function) -> None:
    for p in f.params:
        if isinstance(p.type, TileType):
            raise PlError(
                f"{f.func_type.name} function '{f.name}': parameter '{p.name}' has a Tile type, "
                f"but {f.func_type.name} parameters must be Tensors", p.span,
                hint="pass a pl.Tensor and load it with pl.load inside the function")


def infer_function(f: Function, backend: str | None = None, make_call: MakeCall | None = None
                   ) -> tuple[Function, d.DecisionLog]:
    """Phases 0-3 on one function (unchanged when it is not InCore/AIC/AIV or has no tiles)."""
    if not f.func_type.is_incore_kind():
        return f, d.DecisionLog()
    _check_params(f)
    sites = call_sites(f.body)
    demands = collect_demands(f.body, sites)
    result = analyze(f.body, demands)
    mutator = None
    body = f.body
    if result.var_memory:
        mutator = Mutator(f.name, result.var_memory, collect_moves(f.body, result.var_memory, sites),
                          backend, make_call)
        body = mutator.stmt(f.body)
    spaces = []
    unresolved = d.Reason(d.UNRESOLVED)
    reasons, spans = result.reasons, result.spans
    for v in result.order:
        final = mutator.var(v) if mutator is not None else v
        t = final.type
        space = t.memory_space if isinstance(t, TileType) else None
        spaces.append(d.SpaceDecision(f.name, v.name, space, reasons.get(v, unresolved), spans[v]))
    log = d.DecisionLog(tuple(spaces), tuple(mutator.log) if mutator is not None else ())
    if body is f.body:
        return f, log
    return replace(f, body=body, return_types=_returned_types(f.return_types, body)), log


def _returned_types(declared: tuple[Type, ...], body: Stmt) -> tuple[Type, ...]:
    """The function's result types after placement: a tile result takes its returned value's
    placed type when they agree on shape and dtype. Tensor-to-tile types a result that way, so
    a result left unplaced would read back placed: compiling the printed program must give the
    same program."""
    stmts = flatten_body(body)
    ret = stmts[-1] if stmts and isinstance(stmts[-1], ReturnStmt) else None
    if ret is None:
        return declared
    out = list(declared)
    for i, (t, v) in enumerate(zip(declared, ret.values, strict=False)):
        vt = v.type
        if isinstance(t, TileType) and isinstance(vt, TileType) and vt != t \
                and vt.shape == t.shape and vt.dtype == t.dtype:
            out[i] = vt
    return declared if all(a is b for a, b in zip(out, declared, strict=True)) else tuple(out)


def infer_tile_memory_space(program: Program, backend: str | None = None,
                            residency: Residency = strip_bridge_markers,
                            ) -> tuple[Program, d.DecisionLog]:
    check_backend(backend)
    log = d.DecisionLog()
    funcs = []
    calls = CallBuilder()  # one memo of deduced call types for this run, dropped at its end
    for f in program.functions:
        new_f, f_log = infer_function(f, backend, calls.make_call)
        funcs.append(new_f)
        log = log.merged(f_log)
    out, residency_log = residency(replace(program, functions=tuple(funcs)), backend)
    return out, replace(log, residency=tuple(residency_log))
