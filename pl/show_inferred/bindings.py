"""Which binding (one Var) each decision of the inference log is about, and the name the shown
text gives each binding: one implementation for `--explain`, `--json` and the HTML report.

Guarantees: `bindings(f)` lists every binding of `f` in program order (parameters first), the
same order for two structurally equal functions; `decision_bindings` ties each log entry to one
binding, never to a name (the compiled program may name two values alike: the loads of one
operand for two matmuls, both `lhs__ssa_v0_mat`); `shown_names` is the name the regenerated
text spells each binding by, in `bindings` order, recorded when the text is made
(`FunctionInfo.names`), so the reports name each value as the text does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pl.ir.expr import Var
from pl.ir.function import Function
from pl.ir.names import user_name
from pl.ir.stmt import Stmt
from pl.ir.traverse import stmt_defs, walk_stmts

__all__ = ["Entry", "bindings", "decision_bindings", "shown_names"]

# A log entry: (kind, its compiled name, its line in the user's file).
Entry = tuple[str, str, int | None]


def bindings(f: Function) -> list[tuple[Var, Stmt | None]]:
    """Every binding of `f` in program order, with the statement that makes it (None: a
    parameter). Two structurally equal functions list their bindings in the same order."""
    return [*((v, None) for v in f.params),
            *((v, s) for s in walk_stmts(f.body) for v in stmt_defs(s))]


def decision_bindings(f: Function, entries: Sequence[Entry]) -> list[Var | None]:
    """The binding each entry of `f`'s decision log is about. The log names a value by its
    compiled name, which two values may share: among them, the one made by a statement of the
    entry's line, and the k-th entry of a kind about that name and line is about the k-th such
    value."""
    by_name: dict[str, list[tuple[Var, int]]] = {}
    for v, s in bindings(f):
        by_name.setdefault(v.name, []).append((v, (s or f).span.line))
    seen: dict[Entry, int] = {}
    out: list[Var | None] = []
    for entry in entries:
        _, name, line = entry
        found = by_name.get(name, [])
        here = [v for v, at in found if at == line] or [v for v, _ in found]
        k = seen.get(entry, 0)
        seen[entry] = k + 1
        out.append(here[min(k, len(here) - 1)] if here else None)
    return out


def shown_names(f: Function, name_of: Callable[[Var], str]) -> tuple[str, ...]:
    """The name the shown text gives each binding of `f` (`bindings` order); "" where it is the
    compiled name's user part (`user_name`), kept short for the compile cache."""
    return tuple("" if (n := name_of(v)) == user_name(v.name) else n for v, _ in bindings(f))
