"""`infer_tile_memory_space`: place every tile of InCore/AIC/AIV functions (and of any other
function that holds a tile op: `common.inferred`) in a memory space.

Guarantees: pure (the input program is never mutated). For each function of kind InCore, AIC or AIV
(pass.md decision 1), and each function of another kind that holds a tile op itself (an Opaque
function written at tile level; the reference leaves it as written, pl moves its tiles rather
than refusing the kernel: docs/compatibility.md), it runs phase 0 (demands), phase 1 (forward analysis), phase 2 (move keys)
and phase 3 (rewrite with inserted `tile.move`s); other functions pass through unchanged. Then the
residency hook (phase 4) runs on the whole program. The second result explains every tile's space
and every inserted move.

Tile parameters (docs/tile_params.md; this replaces pass.md decision 2, which rejected them): a
parameter is a value fixed in the space its type names; one whose type names none is Vec, and the
function's signature says so afterwards. No parameter is ever re-placed: a consumer that needs
another space reads a `tile.move` of it. A Tile parameter in DDR is a located PlError (a tile is
an on-chip buffer). A call `self.f(t)` from an InCore/AIC/AIV function gives `t` in the space of
`f`'s parameter, moved there when it is elsewhere - unless the parameter is Out/InOut, where the
callee's writes would reach only the copy: then it is a located PlError. A call (of an op or a program
function) in a function inference does not transform (one holding no tile op: its
`pl.at` scopes were outlined into InCore functions before) with a tile placed elsewhere than it
takes is a PlError located at the call, since nothing there could move it. Such a caller's calls of a function
whose tile results inference retyped follow the new types (pl/infer/callers.py).
A tile bound to allocated memory (a MemRef, IR printed after memory allocation) keeps the space
it was allocated in: it is never re-placed, consumers get moves (docs/memory_allocation.md).
"""

from __future__ import annotations

from dataclasses import replace

from pl.errors import PlError
from pl.infer import decisions as d
from pl.infer.analysis import analyze, collect_moves
from pl.infer.callers import follow_returned_types
from pl.infer.common import NO_CALLEES, Callees, CallSite, call_sites, callee_spaces, inferred
from pl.infer.demand import collect_demands
from pl.infer.mutate import MakeCall, Mutator
from pl.infer.residency.hook import Residency, strip_bridge_markers
from pl.infer.verifier import misplaced_arguments
from pl.infer.writes import CalleeWrites, callee_writes, in_place_writes
from pl.ir.enums import MemorySpace, ParamDirection
from pl.ir.expr import GlobalVar, Var
from pl.ir.function import Function, Program
from pl.ir.names import user_name
from pl.ir.stmt import ReturnStmt, Stmt, flatten_body
from pl.ir.traverse import walk_stmts
from pl.ir.types import TileType, Type
from pl.ops.backend import check_backend
from pl.ops.deduce import CallBuilder


def _check_params(f: Function) -> None:
    for p in f.params:
        if isinstance(p.type, TileType) and p.type.memory_space is MemorySpace.DDR:
            name = user_name(p.name)
            raise PlError(
                f"{f.func_type.name} function '{f.name}': Tile parameter '{name}' is in DDR, but a "
                f"tile is an on-chip buffer (DDR holds tensors)", p.span,
                hint=f"declare {name} as a pl.Tensor and pl.load it, or give the tile an on-chip "
                     f"space such as pl.MemorySpace.Vec")


def _check_written_args(program: Program, f: Function, sites: list[CallSite],
                        var_memory: dict[Var, MemorySpace]) -> None:
    """Refuse a move for a callee's Out/InOut Tile parameter: it would hand the callee a copy,
    whose writes would never reach the caller's tile (the program would compute something
    else)."""
    for _, call, _, constraints in sites:
        callee = program.get(call.op.name) if type(call.op) is GlobalVar else None
        if callee is None:
            continue
        for i, allowed in enumerate(constraints[: len(call.args)]):
            arg = call.args[i]
            if not isinstance(arg, Var):
                continue
            space = var_memory.get(arg)
            if not allowed or space is None or space in allowed \
                    or callee.directions[i] is ParamDirection.In:
                continue
            raise PlError(
                f"{f.func_type.name} function '{f.name}': argument {i} of '{callee.name}' is its "
                f"{callee.directions[i].name} Tile parameter '{user_name(callee.params[i].name)}' "
                f"in {allowed[0].name}, but '{user_name(arg.name)}' is in {space.name}: a "
                f"tile.move would give '{callee.name}' a copy, and its writes would not reach "
                f"the caller", call.span,
                hint=f"produce {user_name(arg.name)} in {allowed[0].name}, or make the parameter In")


def infer_function(f: Function, backend: str | None = None, make_call: MakeCall | None = None,
                   program: Program | None = None, callees: Callees | None = None,
                   writers: CalleeWrites | None = None) -> tuple[Function, d.DecisionLog]:
    """Phases 0-3 on one function (unchanged when it is not InCore/AIC/AIV or has no tiles);
    `program`: the one `f` belongs to, whose functions `f` may call; `callees`, `writers`: its
    `callee_spaces` and `callee_writes`, when the caller has them already."""
    if callees is None:
        callees = callee_spaces(program) if program is not None else NO_CALLEES
    if writers is None:
        writers = callee_writes(program) if program is not None else {}
    if not inferred(f):
        return f, d.DecisionLog()
    _check_params(f)
    sites = call_sites(f.body, callees)
    demands = collect_demands(f.body, sites)
    result = analyze(f.body, demands, f.params)
    if program is not None:
        _check_written_args(program, f, sites, result.var_memory)
    mutator = None
    body, params = f.body, f.params
    if result.var_memory:
        mutator = Mutator(f.name, result.var_memory, collect_moves(f.body, result.var_memory, sites, callees),
                          backend, make_call, callees,
                          in_place_writes(f.body, sites, writers))
        params = tuple(mutator.var(p) for p in f.params)  # before the body: its uses share them
        body = mutator.body(f.body)
    spaces = []
    unresolved = d.Reason(d.UNRESOLVED)
    reasons, spans = result.reasons, result.spans
    for v in result.order:
        final = mutator.var(v) if mutator is not None else v
        t = final.var_type
        space = t.memory_space if isinstance(t, TileType) else None
        spaces.append(d.SpaceDecision(f.name, v.name, space, reasons.get(v, unresolved), spans[v]))
    log = d.DecisionLog(tuple(spaces), tuple(mutator.log) if mutator is not None else ())
    if body is f.body and all(a is b for a, b in zip(params, f.params, strict=True)):
        return f, log
    return replace(f, params=params, body=body,
                   return_types=_returned_types(f.return_types, body)), log


def _check_unplaced(f: Function, callees: Callees) -> None:
    """Raise the first misplaced tile argument of a call in `f` when inference does not
    transform `f` (an InCore-kind caller gets a move instead): an op or a program function
    given a tile in a space it does not take, where nothing could move it."""
    if inferred(f):
        return
    for stmt in walk_stmts(f.body):
        errors = misplaced_arguments(f, stmt, callees)
        if errors:
            e = errors[0]
            raise PlError(e.message, e.span, hint="only InCore, AIC and AIV functions and "
                          "`with pl.at(level=pl.Level.CORE_GROUP)` scopes get a tile.move "
                          "inserted; put the statement in such a scope, or give the tile in the "
                          "space the op or callee takes")


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
    callees, writers = callee_spaces(program), callee_writes(program)
    for f in program.functions:
        _check_unplaced(f, callees)
        new_f, f_log = infer_function(f, backend, calls.make_call, program, callees, writers)
        funcs.append(new_f)
        log = log.merged(f_log)
    funcs = follow_returned_types(funcs, program.functions)
    out, residency_log = residency(replace(program, functions=tuple(funcs)), backend)
    return out, replace(log, residency=tuple(residency_log))
