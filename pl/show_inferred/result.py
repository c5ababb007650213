"""What regenerating one kernel file gives (`Regenerated`), the options it depends on, and the
JSON form the compile cache keeps of it.

Guarantees: this module imports neither LibCST nor the compiler (a compile-cache hit is answered
with it alone, see pl/show_inferred/run.py). `to_json` keeps text and JSON data only; `from_json`
rebuilds the same `output`, `functions` and `notes`, and raises ValueError (or KeyError /
TypeError) on data it did not write.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pl.errors import PlError, error_from_json, error_json
from pl.infer.capacity import CapacityWarning
from pl.lowering.source.python import kernel_folder

if TYPE_CHECKING:
    import libcst as cst

    from pl.compiler import Compiled

__all__ = ["FunctionInfo", "Regenerated", "from_json", "kernel_options", "to_json"]


# The JSON report's format version and one diagnostic in it: here, where a compile-cache hit
# (which imports neither LibCST nor the compiler) reports its errors too.
JSON_VERSION = 1


def diagnostic_json(e: PlError, path: str, severity: str) -> dict[str, Any]:
    d: dict[str, Any] = {"path": path}
    if e.span is not None and e.span.line > 0:
        d["line"] = e.span.line
        if e.span.col > 0:
            d["column"] = e.span.col
    d["severity"] = severity
    d["message"] = e.message if hasattr(e, "message") else str(e)
    return d
@dataclass(frozen=True)
class FunctionInfo:
    """How one function was regenerated: the name its shown text gives each of its bindings
    (pl/show_inferred/bindings.py's `shown_names`: in `bindings` order, "" for the compiled
    name's user part; empty when the function was left as written), and whether it was left
    as written (`kept_reason` then says why)."""

    program: str
    name: str
    names: tuple[str, ...]
    kept_reason: str = ""


@dataclass(frozen=True)
class Regenerated:
    """One file's result: the input text, the regenerated text, what was compiled, and its
    notes and capacity warnings (pl/infer/capacity.py; never part of the text).

    Answered from the compile cache, the compiled programs are not stored (the cache holds text
    and JSON only): `compiled` then compiles the file again, once, when it is first read (the
    plain regeneration an editor asks for on every save reads only `output` and `notes`).

    `tree`, until the regenerated text is verified (pl/show_inferred/verify.py), is the LibCST
    tree of what Python reads of `output` (its `python_view`), assembled from the input's parse
    and the statements `pl` changed or inserted (pl/show_inferred/annotate.py): what the
    verification reads back instead of parsing the text again. None once verified (a result
    keeps no tree), and for a result that shows no text (`verify=False`) or came from the
    cache."""

    filename: str
    text: str
    output: str
    _compiled: tuple[Compiled, ...] | Callable[[], tuple[Compiled, ...]] = field(compare=False)
    functions: tuple[FunctionInfo, ...] = ()
    notes: tuple[PlError, ...] = field(default=())
    warnings: tuple[CapacityWarning, ...] = field(default=())
    tree: cst.Module | None = field(default=None, compare=False, repr=False)

    @property
    def compiled(self) -> tuple[Compiled, ...]:
        value = self._compiled
        if callable(value):
            value = value()
            object.__setattr__(self, "_compiled", value)
        return value

    def info(self, program: str, function: str) -> FunctionInfo | None:
        return next((i for i in self.functions if i.program == program and i.name == function), None)


def kernel_options(filename: str, backend: str | None, residency: bool, program: str | None,
                   execute: bool, shapes: Sequence[str] = ()) -> dict[str, Any]:
    """Everything besides the text that a file's result depends on (part of its cache key);
    `shapes`: the `--shape NAME=16x128:FP16` options (the shapes of `@pl.jit` parameters)."""
    return {"backend": backend, "residency": residency, "program": program,
            "execute": execute, "folder": str(kernel_folder(filename)), "shapes": list(shapes)}


def to_json(r: Regenerated) -> dict[str, Any]:
    """What the cache keeps of a result: text and JSON data only (pl.show_inferred.cache)."""
    return {"output": r.output,
            "functions": [[i.program, i.name, list(i.names), i.kept_reason]
                          for i in r.functions],
            "notes": [error_json(n) for n in r.notes],
            "warnings": [w.as_json() for w in r.warnings]}


def from_json(data: Any, text: str, filename: str,
              compile_again: Callable[[], tuple[Compiled, ...]]) -> Regenerated:
    """The result `to_json` stored, for `text`; `compile_again` gives its compiled programs."""
    functions = []
    for program, name, names, reason in data["functions"]:
        if not (isinstance(program, str) and isinstance(name, str) and isinstance(reason, str)
                and isinstance(names, list) and all(isinstance(n, str) for n in names)):
            raise ValueError("not a stored function")
        functions.append(FunctionInfo(program, name, tuple(names), reason))
    if not isinstance(data["output"], str):
        raise ValueError("not a stored output")
    return Regenerated(filename, text, data["output"], compile_again, tuple(functions),
                       tuple(error_from_json(n) for n in data["notes"]),
                       tuple(CapacityWarning.from_json(w) for w in data["warnings"]))
