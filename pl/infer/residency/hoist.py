"""The hoisting rewrite of phase 4 (pass.md 6.3) for one InCore-kind function, with a verdict per
candidate.

Guarantees:
- each For loop is decided once, on its ORIGINAL direct body, before its children are rewritten; the
  hoisted statements keep their order and land immediately before the loop (so a chain moves one
  lexical level per run); the rest of the loop is rewritten recursively;
- a loop hoists nothing unless: a backend is set, kind Sequential, constant bounds, step > 0, at
  least one trip, no ordering boundary in its subtree or header;
- the scan of the direct body stops at the first non-assignment or at an effect that is not a
  candidate; a load moves only when marked, Mat, read from a proven-safe Tensor-In parameter whose
  root this function does not write, loop-invariant, and within capacity; a transpose_view / move /
  extract moves only behind its hoisted source;
- one `Verdict` per candidate: every Mat `tile.load` inside a loop that carries the bridge marker,
  plus unmarked Mat loads whose uses would form a chain or panel (declined `not-compiler-bridge`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from typing_extensions import assert_never

from pl.infer.residency.effects import closes_prefix
from pl.infer.residency.evidence import ParamEvidence, storage_roots, write_roots
from pl.infer.residency.inventory import MAT_L0, Inventory
from pl.infer.residency.ir import BRIDGE_MARKER, direct_statements, expr_var_likes
from pl.ir.enums import ForKind, MemorySpace, ParamDirection
from pl.ir.expr import Call, ConstInt, Var, space_of
from pl.ir.function import Function, Program
from pl.ir.span import Span
from pl.ir.stmt import (
    AssignStmt,
    BreakStmt,
    ContinueStmt,
    EvalStmt,
    ForStmt,
    IfStmt,
    ReturnStmt,
    ScopeStmt,
    SeqStmts,
    Stmt,
    WhileStmt,
    YieldStmt,
    make_body,
    stmt_kind,
)
from pl.ir.traverse import child_bodies, expr_children, map_stmt
from pl.ir.types import TensorType
from pl.ops.backend import capacity

_EVIDENCE_ORDER = ("submit-site", "non-root-caller", "external-input", "write-alias")
_CHAIN_OPS = ("tile.transpose_view", "tile.move", "tile.extract")


@dataclass(frozen=True)
class Verdict:
    """What happened to one candidate load (rule: a RULES key)."""

    load: Var
    load_span: Span
    loop: ForStmt
    hoisted: bool
    rule: str
    detail: str = ""


def _marked(call: Call) -> bool:
    return any(k == BRIDGE_MARKER for k, _ in call.attrs)


def _is_mat_load(s: Stmt) -> bool:
    return (isinstance(s, AssignStmt) and isinstance(s.value, Call) and s.value.op_name == "tile.load"
            and space_of(s.var) is MemorySpace.Mat)


def _describe(s: Stmt) -> str:
    if isinstance(s, AssignStmt) and isinstance(s.value, Call):
        return f"{s.var.name} = {s.value.op_name}"
    return type(s).__name__


class Hoister:
    def __init__(self, program: Program, func: Function, backend: str | None,
                 evidence: dict[Var, ParamEvidence]) -> None:
        self.backend = backend
        self.evidence = evidence
        self.inv = Inventory(func.body, func.params)
        storage = storage_roots(program, func)
        self.roots = storage.roots
        self.writes = write_roots(program, func, storage.roots)
        self.directions = dict(zip(func.params, func.directions, strict=True))
        self.candidates: dict[int, list[tuple[AssignStmt, str]]] = {}
        self._collect(func.body, None, "direct")
        self.verdicts: list[Verdict] = []

    # ---- candidates ----------------------------------------------------------------------------
    def _collect(self, stmt: Stmt, loop: ForStmt | None, context: str) -> None:
        s = stmt_kind(stmt)
        match s:
            case AssignStmt():
                if loop is not None and _is_mat_load(s):
                    assert isinstance(s.value, Call)
                    if _marked(s.value) or not self.inv.why_not_chain(s.var, loop):
                        self.candidates.setdefault(id(loop), []).append((s, context))
            case ForStmt():
                self._collect(s.body, s, "direct")
            case SeqStmts(stmts=stmts):
                nested = loop is not None and context == "direct" and s is not loop.body
                inner = "not-top-level" if nested else context
                for x in stmts:
                    self._collect(x, loop, inner)
            case IfStmt():
                for b in child_bodies(s):
                    self._collect(b, loop, "conditional" if context == "direct" else context)
            case WhileStmt() | ScopeStmt():
                self._collect(s.body, loop, "not-top-level" if context == "direct" else context)
            case EvalStmt() | ReturnStmt() | YieldStmt() | BreakStmt() | ContinueStmt():
                pass  # no candidate
            case _:
                assert_never(s)

    # ---- the rewrite ---------------------------------------------------------------------------
    def rewrite(self, stmt: Stmt) -> list[Stmt]:
        s = stmt_kind(stmt)
        match s:
            case SeqStmts(stmts=stmts):
                return [y for x in stmts for y in self.rewrite(x)]
            case ForStmt():
                stmts = direct_statements(s.body)
                hoist = self._plan(s, stmts)
                rest = [y for i, x in enumerate(stmts) if i not in hoist for y in self.rewrite(x)]
                return [stmts[i] for i in sorted(hoist)] + [replace(s, body=make_body(rest))]
            case IfStmt() | WhileStmt() | ScopeStmt():
                return [map_stmt(s, body=lambda b: make_body(self.rewrite(b)))]
            case AssignStmt() | EvalStmt() | ReturnStmt() | YieldStmt() | BreakStmt() | ContinueStmt():
                return [s]
            case _:
                assert_never(s)

    def _gate(self, loop: ForStmt) -> tuple[str, str] | None:
        if self.backend is None:
            return "no-backend", ""
        if loop.kind is not ForKind.Sequential:
            return "not-sequential", f"loop kind {loop.kind.name}"
        bounds = (loop.start, loop.stop, loop.step)
        if not all(isinstance(b, ConstInt) for b in bounds):
            return "dynamic-bounds", ""
        start, stop, step = (b.value for b in bounds)  # type: ignore[attr-defined]
        if step <= 0:
            return "non-positive-step", f"step {step}"
        if start >= stop:
            return "zero-trip", f"range({start}, {stop}, {step}) runs no iteration"
        info = self.inv.loop_info(loop)
        if info is not None and info.boundary:
            return "ordering-boundary", f"{info.boundary} in the loop"
        return None

    def _plan(self, loop: ForStmt, stmts: tuple[Stmt, ...]) -> set[int]:
        cands = self.candidates.get(id(loop), [])
        gate = self._gate(loop)
        if gate is not None:
            for assign, _ in cands:
                self._verdict(assign, loop, False, *gate)
            return set()
        hoist: set[int] = set()
        invariant: set[Var] = set()
        skipped: dict[Var, str] = {}
        stop, stop_reason = len(stmts), ""
        for i, s in enumerate(stmts):
            if not isinstance(s, AssignStmt):
                stop, stop_reason = i, _describe(s)
                break
            var = s.var
            if not (self.inv.is_chain_var(var) or var in self.inv.panels) or self.inv.yielded(loop, var):
                if closes_prefix(s):
                    stop, stop_reason = i, _describe(s)
                    break
                continue
            reason = self._problem(s, loop, invariant)
            if reason is None:
                hoist.add(i)
                invariant.add(var)
            else:
                skipped[var] = reason
        position = {id(s): i for i, s in enumerate(stmts)}
        for assign, context in cands:
            self._judge(assign, context, loop, position.get(id(assign)), stop, stop_reason,
                        invariant, skipped)
        return hoist

    def _judge(self, assign: AssignStmt, context: str, loop: ForStmt, index: int | None, stop: int,
               stop_reason: str, invariant: set[Var], skipped: dict[Var, str]) -> None:
        var = assign.var
        assert isinstance(assign.value, Call)
        if assign.value.attr(BRIDGE_MARKER) is not True:
            return self._verdict(assign, loop, False, "not-compiler-bridge",
                                 "a user-written Mat load is never hoisted")
        if index is None:
            return self._verdict(assign, loop, False, context, "")
        if index > stop:
            return self._verdict(assign, loop, False, "prefix-closed", f"after {stop_reason}")
        if var in invariant:
            if var not in self.inv.chain_load:
                return self._verdict(assign, loop, True, "panel", "")
            stays = [f"{v.name}: {skipped.get(v, 'after the prefix')}"
                     for v, load in self.inv.chain_load.items() if load is var and v not in invariant]
            if stays:
                return self._verdict(assign, loop, True, "load-only", "; ".join(stays) + " (stays)")
            return self._verdict(assign, loop, True, "chain", "")
        if var in skipped:
            rule, _, detail = skipped[var].partition(": ")
            return self._verdict(assign, loop, False, rule, detail)
        rule = self.inv.why_not_chain(var, loop) or "extra-use"
        return self._verdict(assign, loop, False, rule, "")

    def _verdict(self, assign: AssignStmt, loop: ForStmt, hoisted: bool, rule: str, detail: str) -> None:
        self.verdicts.append(Verdict(assign.var, assign.span, loop, hoisted, rule, detail))

    # ---- eligibility ---------------------------------------------------------------------------
    def _problem(self, s: AssignStmt, loop: ForStmt, invariant: set[Var]) -> str | None:
        call = s.value
        if not isinstance(call, Call):
            return "not-chain-op"
        if call.op_name == "tile.load":
            reason = self._load_problem(call, s.var)
        elif call.op_name in _CHAIN_OPS:
            src = call.args[0] if call.args else None
            if not isinstance(src, Var) or src not in invariant:
                reason = "source-stays"
            elif space_of(s.var) not in MAT_L0:
                reason = "not-chain-op"
            else:
                reason = None
        else:
            reason = "not-chain-op"
        if reason is None and self._variant(call, loop, invariant):
            reason = "loop-variant-offset"
        return reason or self._capacity_problem(space_of(s.var))

    def _load_problem(self, call: Call, var: Var) -> str | None:
        if space_of(var) is not MemorySpace.Mat or call.attr(BRIDGE_MARKER) is not True:
            return "not-compiler-bridge"
        src = call.args[0] if call.args else None
        if not isinstance(src, Var) or not isinstance(src.type, TensorType) or src not in self.directions:
            return "local-source"
        if self.directions[src] is not ParamDirection.In:
            return f"inout-source: {src.name} is {self.directions[src].name}"
        ev = self.evidence.get(src)
        if ev is None or ev.call_sites == 0:
            return "no-root-caller"
        if ev.reasons:
            first = min(ev.reasons, key=_EVIDENCE_ORDER.index)
            return f"{first}: {', '.join(ev.reasons)} at {ev.call_sites} call site(s)"
        root = self.roots.get(src)
        if root is None:
            return "local-source"
        if self.writes.covers(root):
            what = root.name if root in self.writes.roots else "a tensor whose storage is unknown"
            return f"local-write: the function writes {what}"
        return None

    def _variant(self, call: Call, loop: ForStmt, invariant: set[Var]) -> bool:
        return any(v not in invariant and self.inv.in_subtree(loop, v)
                   for e in expr_children(call) for v in expr_var_likes(e))

    def _capacity_problem(self, space: MemorySpace | None) -> str | None:
        if space is None:
            return "capacity: no memory space"
        if self.inv.reservation:
            return "reserved-buffer: system.reserve_buffer in the function"
        if space in self.inv.pipeline_spaces:
            return f"pipeline-space: {space.name} owners inside a pipeline loop"
        cap = capacity(self.backend, space) if space in MAT_L0 else 0
        if cap == 0:
            return f"capacity: no {space.name} capacity"
        found = self.inv.footprint.spaces.get(space)
        if found is not None and found.unknown:
            return f"unknown-size: a {space.name} owner has a dynamic shape"
        used = self.inv.footprint.bytes_in(space)
        if used > cap:
            return f"capacity: {space.name} needs {used} bytes, {cap} available"
        return None
