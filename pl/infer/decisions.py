"""The decision log of memory-space inference: why every tile got its space, and every move.

Guarantees: frozen data only. One `SpaceDecision` per tile value of every transformed function (its
final space, the reason, the span of the defining statement), one `MoveDecision` per inserted
`tile.move`, and the `residency` records of phase 4 (`infer.residency.apply.ResidencyDecision`).
`format()` gives one line per decision (`file:line: name -> Space (reason)`), `to_json()` a plain
dict of lists/str/int.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pl.ir.enums import MemorySpace
from pl.ir.span import Span

# Reason kinds. `annotation` (the space came from a type annotation, e.g. a loop init or an if-phi
# without recorded yields) and `unresolved` (left as annotated: while carries, tuple items)
# complete the list for values the reference leaves unrecorded. `parameter` / `parameter_default`:
# a Tile parameter keeps the space its type names, or is Vec when it names none
# (docs/tile_params.md).
EXPLICIT_KWARG = "explicit_kwarg"
DEMAND = "demand"
INHERITED = "inherited"
LOOP_BACKPROP = "loop_backprop"
ALIAS = "alias"
FIXED_OUTPUT = "fixed_output"
CALL_RESULT = "call_result"
DEFAULT = "default"
ANNOTATION = "annotation"
PARAMETER = "parameter"
PARAMETER_DEFAULT = "parameter_default"
COMPILER_LOAD = "compiler_load"  # a Mat load tensor-to-tile inserted for a matmul operand
UNRESOLVED = "unresolved"

@dataclass(frozen=True, slots=True)
class Reason:
    """Why a space was chosen. `op`/`arg_index` name a consumer (demand) or the producer op;
    `var` names the value the space came from (inherited, loop back-propagation, alias)."""

    kind: str
    op: str = ""
    arg_index: int | None = None
    var: str = ""

    def describe(self, kwarg_written: bool | None = None) -> str:
        """The reason in words. The IR cannot tell a `target_memory=` the user wrote from the
        DSL default the frontend fills in (both are a kwarg of the call): `kwarg_written`, from
        the spaces the frontend recorded as written (`Function.written_spaces`, read by
        pl/show_inferred/written_spaces.py), says which; None leaves both possible."""
        match self.kind:
            case "explicit_kwarg":
                if kwarg_written is None:
                    return f"target_memory kwarg of {self.op} (as written, or the DSL default Vec)"
                if kwarg_written:
                    return f"target_memory kwarg of {self.op}, as written"
                return f"the DSL default target_memory of {self.op} (Vec; none written)"
            case "compiler_load":
                return (f"a Mat {self.op} the compiler inserted for a tensor operand of a matmul "
                        "(none written)")
            case "demand":
                return f"demand from {self.op} argument {self.arg_index}"
            case "inherited":
                return f"inherited from input {self.var}" + (f" of {self.op}" if self.op else "")
            case "loop_backprop":
                return f"loop back-propagation from yielded {self.var}"
            case "alias":
                return f"SSA alias of {self.var}"
            case "fixed_output":
                return f"fixed output space of {self.op}"
            case "call_result":
                return f"result type of {self.op}"
            case "default":
                return "default (Vec)"
            case "annotation":
                return "type annotation" + (f" of {self.var}" if self.var else "")
            case "parameter":
                return "fixed by the parameter's type"
            case "parameter_default":
                return "parameter typed without a memory space (default Vec)"
            case _:
                return "left as annotated (" + (self.op or "not inferred") + ")"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        if self.op:
            out["op"] = self.op
        if self.arg_index is not None:
            out["arg_index"] = self.arg_index
        if self.var:
            out["var"] = self.var
        return out


def location(span: Span) -> str:
    """`file:line` of a decision, as the log prints it."""
    return f"{span.filename}:{span.line}"


def _space(space: MemorySpace | None) -> str:
    return space.name if space is not None else "None"


@dataclass(frozen=True, slots=True)
class SpaceDecision:
    function: str
    name: str
    space: MemorySpace | None
    reason: Reason
    span: Span

    def format(self) -> str:
        return f"{location(self.span)}: {self.name} -> {_space(self.space)} ({self.reason.describe()})"

    def to_json(self) -> dict[str, Any]:
        return {"function": self.function, "name": self.name, "space": _space(self.space),
                "reason": self.reason.to_json(), "file": self.span.filename, "line": self.span.line}


@dataclass(frozen=True, slots=True)
class MoveDecision:
    """An inserted `name = tile.move(producer, target_memory=target)` before a consumer."""

    function: str
    name: str
    producer: str
    target: MemorySpace
    consumer_op: str
    span: Span
    arg_index: int = 0

    def format(self) -> str:
        return (f"{location(self.span)}: {self.name} -> {self.target.name} (move of {self.producer} "
                f"for {self.consumer_op} argument {self.arg_index})")

    def to_json(self) -> dict[str, Any]:
        return {"function": self.function, "name": self.name, "producer": self.producer,
                "target": self.target.name, "consumer_op": self.consumer_op,
                "arg_index": self.arg_index, "file": self.span.filename, "line": self.span.line}


@dataclass(frozen=True, slots=True)
class DecisionLog:
    spaces: tuple[SpaceDecision, ...] = ()
    moves: tuple[MoveDecision, ...] = ()
    # Phase 4's `infer.residency.apply.ResidencyDecision` records (anything with format() / to_json()).
    residency: tuple[Any, ...] = field(default=())

    def merged(self, other: DecisionLog) -> DecisionLog:
        return DecisionLog(self.spaces + other.spaces, self.moves + other.moves,
                           self.residency + other.residency)

    def format(self) -> str:
        lines = [d.format() for d in self.spaces]
        lines += [m.format() for m in self.moves]
        lines += [r.format() if hasattr(r, "format") else str(r) for r in self.residency]
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.format()

    def to_json(self) -> dict[str, Any]:
        return {"spaces": [d.to_json() for d in self.spaces],
                "moves": [m.to_json() for m in self.moves],
                "residency": [r.to_json() if hasattr(r, "to_json") else str(r)
                              for r in self.residency]}
