"""Memory spaces the user wrote that inference changed: never a silent rewrite.

`space_changes(lines, log)` pairs each tile's inferred space (a `SpaceDecision` of the decision
log) with each space written in the statement that defines it: every `MemorySpace.X` /
`Mem.X` of that statement outside comments (its annotation's, a `target_memory=` keyword's).
Where one differs the result says so, with the reason inference gave; show_inferred
turns each into a note (stderr and `--json` diagnostics) and `--explain` marks the tile. Only
the user's own text is read, so a space that came from an op's default is never reported.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pl.infer.decisions import EXPLICIT_KWARG
from pl.ir.names import user_name, user_text
from pl.ir.span import Span

_SPACE = re.compile(r"\b(?:MemorySpace|Mem)\.(\w+)")
_TARGET_MEMORY = re.compile(r"\btarget_memory\s*=")


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


def written_spaces(lines: Sequence[str], name: str, span: Span) -> list[tuple[str, Span]]:
    """Each space written in the statement at `span` that assigns `name` (its annotation's, a
    `target_memory=` keyword's), and where; none when the statement is not that assignment."""
    if span.line <= 0 or span.line > len(lines):
        return []
    last = min(max(span.end_line, span.line), len(lines))
    if not _assigns(lines[span.line - 1], name):
        return []
    return [(m.group(1), Span(span.filename, n, m.start() + 1, n, m.end() + 1))
            for n in range(span.line, last + 1)
            for m in _SPACE.finditer(lines[n - 1].split("#", 1)[0])]


def writes_target_memory(lines: Sequence[str], span: Span) -> bool | None:
    """Whether the statement at `span` writes a `target_memory=` keyword (outside comments);
    None when the span is not a line of `lines`."""
    if span.line <= 0 or span.line > len(lines):
        return None
    last = min(max(span.end_line, span.line), len(lines))
    return any(_TARGET_MEMORY.search(lines[n - 1].split("#", 1)[0])
               for n in range(span.line, last + 1))


def reason_text(lines: Sequence[str], decision: object) -> str:
    """The reason of a `SpaceDecision` in the user's names, saying whether a `target_memory` it
    rests on was written (as the keyword, or as the space of the tile's annotation, which the
    frontend makes the keyword of a producer given none) or is the DSL default (which the
    decision log cannot know)."""
    reason = decision.reason  # type: ignore[attr-defined]
    written = None
    span = getattr(decision, "span", None)
    if reason.kind == EXPLICIT_KWARG and isinstance(span, Span):
        # A space written in the annotation is the target_memory of a producer given none.
        written = writes_target_memory(lines, span) or bool(
            written_spaces(lines, user_name(getattr(decision, "name", "")), span))
    return user_text(reason.describe(written))


def _assigns(text: str, name: str) -> bool:
    """Whether the line starts `name:` or `name =` (no pattern compiled per name: a file has
    thousands)."""
    stripped = text.lstrip()
    if not stripped.startswith(name):
        return False
    rest = stripped[len(name):].lstrip()
    return rest[:1] == ":" or (rest[:1] == "=" and rest[:2] != "==")


def space_changes(lines: Sequence[str], decisions: Iterable[object]) -> list[SpaceChange]:
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
        found = next((w for w in written_spaces(lines, name, span) if w[0] != space.name), None)
        if found is not None:
            reason = reason_text(lines, d)
            out.append(SpaceChange(getattr(d, "function", ""), name, found[0], space.name,
                                   reason, found[1]))
    return out
