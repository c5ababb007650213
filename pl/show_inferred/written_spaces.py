"""Memory spaces the user wrote that inference changed: never a silent rewrite.

`space_changes(written, log)` pairs each tile's inferred space (a `SpaceDecision` of the decision
log) with each space written in the statement that defines it, as the frontend recorded them
while reading that statement (`Function.written_spaces`, pl/ir/function.py: its annotation's,
an argument of its call such as `target_memory=`); `written_in(program)` gathers them by
statement. Where one differs the result says so, with the reason inference gave; show_inferred
turns each into a note (stderr and `--json` diagnostics) and `--explain` marks the tile. Only
what the user wrote is recorded, so a space that came from an op's default is never reported.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from pl.infer.decisions import EXPLICIT_KWARG
from pl.ir.function import Program, WrittenSpace
from pl.ir.names import user_name, user_text
from pl.ir.span import Span

# (name, file, line of the statement) -> the spaces written in the statement binding that name.
Written = dict[tuple[str, str, int], list[WrittenSpace]]


@dataclass(frozen=True)
class SpaceChange:
    """`name` was written in `written` at `span` but inference placed it in `inferred`."""

    function: str
    name: str
    written: str
    inferred: str
    reason: str
    span: Span

    def message(self, rewritten: bool = True) -> str:
        """What the note says; `rewritten`: whether the regenerated file rewrote the function (a
        function left as written keeps the space the user wrote)."""
        told = f"the regenerated file says pl.MemorySpace.{self.inferred}" if rewritten \
            else "its function is left as written"
        return (f"{self.name} is written as pl.MemorySpace.{self.written} but inference places it "
                f"in {self.inferred} ({self.reason}); {told}")


def written_in(program: Program) -> Written:
    """The spaces the frontend recorded in `program`'s functions, by the statement they are
    written in and the name it binds."""
    out: Written = {}
    for f in program.functions:
        for w in f.written_spaces:
            out.setdefault((w.name, w.stmt.filename, w.stmt.line), []).append(w)
    return out


def _written_at(written: Written, name: str, span: Span) -> list[WrittenSpace]:
    return written.get((name, span.filename, span.line), [])


def reason_text(written: Written, decision: object) -> str:
    """The reason of a `SpaceDecision` in the user's names, saying whether a `target_memory` it
    rests on was written (as the keyword, or as the space of the tile's annotation, which the
    frontend makes the keyword of a producer given none) or is the DSL default (which the
    decision log cannot know)."""
    reason = decision.reason  # type: ignore[attr-defined]
    said = None
    span = getattr(decision, "span", None)
    if reason.kind == EXPLICIT_KWARG and isinstance(span, Span):
        said = bool(_written_at(written, user_name(getattr(decision, "name", "")), span))
    return user_text(reason.describe(said))


def space_changes(written: Written, decisions: Iterable[object]) -> list[SpaceChange]:
    """Every decision whose tile the user wrote in another space than the one inferred."""
    out: list[SpaceChange] = []
    for d in decisions:
        space = getattr(d, "space", None)
        span = getattr(d, "span", None)
        if space is None or not isinstance(span, Span):
            continue
        name = user_name(getattr(d, "name", ""))
        # Both the annotation and a target_memory= keyword are the user's: either one rewritten
        # is said (the first that differs).
        found = next((w for w in _written_at(written, name, span) if w.space is not space), None)
        if found is not None:
            out.append(SpaceChange(getattr(d, "function", ""), name, found.space.name, space.name,
                                   reason_text(written, d), found.span))
    return out
