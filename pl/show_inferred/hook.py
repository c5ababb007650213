"""The pre-commit hook `pl-show-inferred-hook FILE...` (`.pre-commit-hooks.yaml`; also `python -m pl.show_inferred.hook`).

It runs `show_inferred --check` on the given files that are kernel files, and passes the others:
pre-commit hands a hook every staged Python file, and a project's ordinary modules (its tests,
its `shapes.py`, a helper of `@pl.inline` functions) are no concern of `show_inferred`, which
would stop on each with "no @pl.program found". A kernel file is one that defines a class
decorated `@...program` or `@...program(...)` at any depth, judged from CPython's parse of
the file (a fraction of the LibCST parse a check costs, so a whole repository costs little); a
file Python cannot parse, or cannot decode, is handed to the check, which reports it located.
Nothing runs: the check reads files as `show_inferred` always does.

The options `--check` honours that run nothing (`--backend`, `--no-residency`, `--program`,
`--no-cache`, `--cache-dir`) are passed through (a hook's `args:` in `.pre-commit-config.yaml`);
`--exec`, which runs the kernels' top-level code, is no option of the hook. pre-commit appends
the staged files' names to the arguments, and a file may be named like an option (`--no-cache`,
or `--exec`): the manifest's `args: [--]` ends the options before them, option names are never
abbreviated, and without a `--` an argument that is spelled as an option and names an existing
file is refused (status 2) rather than taken for either. The exit status and messages are
`--check`'s: 0 all kernel files are in their inferred form, 1 `would regenerate FILE` on stderr
for each that is not, 2 a user error.
"""

from __future__ import annotations

import argparse
import ast
import os
import sys
from collections.abc import Sequence

from pl.errors import PlError
from pl.lowering.source.python import parse_python
from pl.show_inferred.cli import EXIT_OK, read_input
from pl.show_inferred.cli import main as show_inferred_main


def _is_program_class(node: ast.AST) -> bool:
    """A class decorated `@...program` (called or not): the name-based guess static loading
    makes too (pl/lowering/source/static_module.py), since a kernel file may spell `pl` as
    any name it imports it under."""
    if not isinstance(node, ast.ClassDef):
        return False
    for d in node.decorator_list:
        target = d.func if isinstance(d, ast.Call) else d
        name = target.attr if isinstance(target, ast.Attribute) else \
            target.id if isinstance(target, ast.Name) else None
        if name == "program":
            return True
    return False


def is_kernel_file(path: str) -> bool:
    """Whether `show_inferred --check` has something to check in the file `path`: it defines a
    `@...program` class (module doc), or cannot be read as Python (the check says why)."""
    try:
        source = read_input(path, sys.stdin)
        tree = parse_python(source.text, source.filename)
    except PlError:
        return True
    return any(_is_program_class(node) for node in ast.walk(tree))


_VALUED = ("--backend", "--program", "--cache-dir")
_FLAGS = ("--no-residency", "--no-cache")


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="pl-show-inferred-hook", allow_abbrev=False,
        description="The pre-commit hook: show_inferred --check on the files given that define "
                    "a @pl.program class; other files pass.")
    p.add_argument("files", nargs="*", metavar="FILE")
    # Passed through as given: show_inferred checks their values and explains a bad one.
    for option in _VALUED:
        p.add_argument(option, help=f"as show_inferred's {option}")
    for flag in _FLAGS:
        p.add_argument(flag, action="store_true", help=f"as show_inferred's {flag}")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Check the kernel files among `argv`'s files; the exit status of `show_inferred --check`."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--" not in argv:
        named = [a for a in argv if a.startswith("-") and os.path.lexists(a)]
        if named:
            print(f"pl-show-inferred-hook: error: {named[0]!r} is a file's name spelled as an "
                  "option; end the hook's args: with '--' (as `.pre-commit-hooks.yaml` does) so "
                  "that file names are never read as options", file=sys.stderr)
            return 2
    try:
        args = vars(_parser().parse_args(argv))
    except SystemExit as e:  # argparse printed its usage error (status 2) or --help (0)
        return int(e.code) if isinstance(e.code, int) else 2

    def given(option: str) -> object:
        return args[option.lstrip("-").replace("-", "_")]

    options = ["--check"]
    for option in _VALUED:
        if given(option) is not None:
            options += [option, str(given(option))]
    options += [flag for flag in _FLAGS if given(flag)]
    # A file named `-` is that file, not standard input (show_inferred's `-`).
    files = [f"./{f}" if f == "-" else f for f in args["files"]]
    kernels = [f for f in files if is_kernel_file(f)]
    if not kernels:
        return EXIT_OK
    return show_inferred_main([*options, "--", *kernels])


if __name__ == "__main__":
    sys.exit(main())
