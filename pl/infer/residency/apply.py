"""Phase 4 of InferTileMemorySpace: loop-invariant Mat residency (pass.md section 6).

`apply_residency(program, backend)` runs on a program whose tile spaces are all explicit (after
phases 0-3) and returns the rewritten program with one `ResidencyDecision` per candidate load.

Guarantees:
- pure: the input program is never mutated; functions keep their order;
- caller evidence is computed once for the whole program (`infer.residency.evidence`), the inventory
  once per function (`infer.residency.inventory`), and each loop is decided once on its original
  body (`infer.residency.hoist`), so a chain moves at most one lexical loop level per run;
- only InCore / AIC / AIV functions are rewritten; with `backend=None` nothing is hoisted;
- afterwards the private marker `__compiler_tensor_to_tile_mat_bridge` is gone from every Call of
  every function (other attrs kept), and every InCore-kind body is normalised with `make_body`, so a
  second run never hoists again;
- every candidate (a marked Mat `tile.load` in a loop body, or an unmarked one feeding a matmul
  chain / panel) gets exactly one decision: `hoisted` with the kind of motion, or `declined` with the
  rule that stopped it (the keys of `RULES`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any, Final

from pl.infer.decisions import location
from pl.infer.residency.evidence import caller_evidence
from pl.infer.residency.hoist import Hoister, Verdict
from pl.infer.residency.ir import BRIDGE_MARKER, strip_and_normalise
from pl.ir.function import Program
from pl.ir.span import Span
from pl.ir.stmt import ForStmt, Stmt, make_body
from pl.ir.traverse import walk_stmts
from pl.ops.backend import check_backend

__all__ = ["BRIDGE_MARKER", "RULES", "ResidencyDecision", "apply_residency"]

RULES: Final[Mapping[str, str]] = MappingProxyType({
    # hoisted
    "chain": "the whole load -> transpose_view* -> move/extract prefix moved before the loop",
    "load-only": "the load moved before the loop; a later chain step stayed inside (see detail)",
    "panel": "a retained Mat panel: only the load moved, its L0 staging stays in the loop",
    # declined: no backend / provenance
    "no-backend": "no backend configured: residency needs capacities, nothing is hoisted",
    "not-compiler-bridge": "a user-written Mat load (no compiler bridge marker) is never hoisted",
    # declined: caller evidence (pass.md 6.1)
    "no-root-caller": "the kernel is not called from any root orchestration function",
    "submit-site": "the kernel is launched by a Submit, which proves nothing about aliasing",
    "non-root-caller": "a call site is in an InCore wrapper or a called orchestration helper",
    "external-input": "a caller passes storage that is not a fresh tensor.create of its own",
    "write-alias": "a caller's writable (Out/InOut) actual is unknown or aliases the source",
    "local-write": "the kernel writes the source's storage: an op the op table says writes it, or a callee Out",
    "inout-source": "the source parameter is Out or InOut, not In",
    "local-source": "the source is not a Tensor parameter of the kernel",
    # declined: loop gates (pass.md 6.3)
    "not-sequential": "the loop is not a Sequential loop (parallel, unroll, pipeline)",
    "dynamic-bounds": "the loop's start, stop or step is not a constant",
    "non-positive-step": "the loop's step is zero or negative",
    "zero-trip": "the loop runs no iteration, so hoisting would add a load",
    "ordering-boundary": "a sync, cross-core op, Submit or function call in the loop or its header",
    # declined: position and uses
    "conditional": "the load is inside an if, not a top-level statement of the loop body",
    "not-top-level": "the load is nested in a while, scope or block, not a top-level statement",
    "prefix-closed": "an earlier statement (control flow or an effect) closes the hoistable prefix",
    "yielded": "a value of the chain is yielded (loop-carried)",
    "extra-use": "a value of the chain has a use outside the exact chain / panel",
    "not-matmul-chain": "the load does not end in a matching matmul operand slot",
    "loop-variant-offset": "an offset, shape or other operand is defined inside the loop",
    "source-stays": "the chain step's source was not hoisted",
    "not-chain-op": "the statement is not a residency chain op into Mat / Left / Right",
    # declined: capacity (ops.md 13)
    "capacity": "the whole-function footprint of the space exceeds its capacity (or is unknown)",
    "unknown-size": "an allocation in the space has a dynamic shape",
    "pipeline-space": "the space has allocations inside a pipeline loop (they may be replicated)",
    "reserved-buffer": "the function reserves a cross-core buffer the footprint cannot account for",
})


@dataclass(frozen=True, slots=True)
class ResidencyDecision:
    """One candidate load: `hoisted` or `declined`, and the rule (a `RULES` key) that says why."""

    function: str
    load: str
    load_span: Span
    loop_span: Span
    decision: str
    rule: str
    detail: str = ""

    @property
    def hoisted(self) -> bool:
        return self.decision == "hoisted"

    def format(self) -> str:
        where = f"the loop at line {self.loop_span.line}"
        verb = f"hoisted before {where}" if self.hoisted else f"kept inside {where}"
        tail = f"; {self.detail}" if self.detail else ""
        return f"{location(self.load_span)}: {self.function}.{self.load} {verb} ({self.rule}: " \
               f"{RULES.get(self.rule, self.rule)}{tail})"

    def to_json(self) -> dict[str, Any]:
        return {"function": self.function, "load": self.load, "decision": self.decision,
                "rule": self.rule, "detail": self.detail, "file": self.load_span.filename,
                "line": self.load_span.line, "loop_line": self.loop_span.line}


def _decision(function: str, v: Verdict) -> ResidencyDecision:
    return ResidencyDecision(function, v.load.name, v.load_span, v.loop.span,
                             "hoisted" if v.hoisted else "declined", v.rule, v.detail)


def _has_for(body: Stmt) -> bool:
    return any(type(s) is ForStmt for s in walk_stmts(body))


def apply_residency(program: Program, backend: str | None) -> tuple[Program, list[ResidencyDecision]]:
    """Hoist loop-invariant Mat operands of InCore-kind functions (see the module docstring)."""
    check_backend(backend)
    # Caller evidence walks every call of every function: only gather it when some InCore-kind
    # function has a loop, i.e. when there is a candidate to plan at all.
    looping = {f.name for f in program.functions if f.func_type.is_incore_kind() and _has_for(f.body)}
    evidence = caller_evidence(program) if looping else {}
    decisions: list[ResidencyDecision] = []
    functions = []
    for f in program.functions:
        if not f.func_type.is_incore_kind():
            functions.append(strip_and_normalise(f, normalise=False))
            continue
        if f.name not in looping:
            # Only loop-invariant loads inside loops are candidates: nothing to plan or hoist.
            functions.append(strip_and_normalise(f, normalise=True))
            continue
        hoister = Hoister(program, f, backend, evidence)
        body = hoister.rewrite(f.body)
        decisions.extend(_decision(f.name, v) for v in hoister.verdicts)
        rewritten = f if len(body) == 1 and body[0] is f.body else replace(f, body=make_body(body))
        functions.append(strip_and_normalise(rewritten, normalise=True))
    return replace(program, functions=tuple(functions)), decisions
