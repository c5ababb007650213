"""`show_inferred`: kernel files regenerated with their inferred memory spaces.

Entry points: `python -m pl.show_inferred` (`cli.main`) and the library call
`pl.show_inferred(path_or_text, ...)` (`run.show_inferred`; this package is callable).
Modules: `run` (`run_text`: the compile cache in front of `annotate`), `result` (what a run
returns, and its JSON form for the cache), `annotate` (load, compile, regenerate), `plan` / `edit` (which lines change and
how), `imports` (the `pl` spelling), `verify` (the output reads back to the same programs),
`report` (`--explain` / `--json`), `html_report` (`--html`), `written_spaces` (spaces the user
wrote that inference changed), `cache` (the JSON-only compile cache), `cli` (the command line),
`hook` (the pre-commit hook: `--check` on the files that define a `@pl.program`).
"""

from __future__ import annotations

import sys
import types
from typing import TYPE_CHECKING, Any

from pl.show_inferred.cli import main, read_input, write_back

if TYPE_CHECKING:
    from pl.show_inferred.run import show_inferred

__all__ = ["main", "read_input", "show_inferred", "write_back"]


def __getattr__(name: str) -> object:
    # `show_inferred` loads on first use: `python -m pl.show_inferred --help` needs only the
    # command line (cli.py), which imports what runs a file once its arguments are parsed.
    if name == "show_inferred":
        from pl.show_inferred.run import show_inferred

        return show_inferred
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class _CallableModule(types.ModuleType):
    """Lets `pl.show_inferred(...)` call the library function although it names this package."""

    def __call__(self, path_or_text: Any, **kwargs: Any) -> str:
        from pl.show_inferred.run import show_inferred

        return show_inferred(path_or_text, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
