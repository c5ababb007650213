"""`python -m pl.show_inferred kernel.py [...]`: print each kernel file's programs, compiled.

Loads each file the way Python imports it (its folder on sys.path, module-level names resolved as
in the user's code), compiles every `@pl.program` in it and prints the result as typed source in
which every tile carries its memory space. Exit status: 0 success, 2 a user error (shown as a
located diagnostic on stderr, never a traceback).
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from collections.abc import Sequence
from pathlib import Path

from pl.errors import PlError
from pl.ir.function import Program
from pl.compiler import compile_program

_BACKENDS = {"910B": "910B", "950": "950", "none": None}


def load_programs(path: Path) -> list[Program]:
    """Import the file as a fresh module and return its programs, in definition order."""
    if not path.is_file():
        raise PlError(f"no such file: {path}")
    name = f"_pl_kernel_{abs(hash(str(path.resolve())))}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise PlError(f"cannot load {path} as a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(path.resolve().parent))
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except PlError:
        raise
    except SyntaxError as e:
        from pl.ir.span import Span

        raise PlError(f"invalid Python syntax: {e.msg}",
                      Span(str(path), e.lineno or 1, e.offset or 1)) from None
    finally:
        sys.path.remove(str(path.resolve().parent))
        sys.modules.pop(name, None)
    programs = [v for v in vars(module).values() if isinstance(v, Program)]
    if not programs:
        raise PlError(f"{path}: no @pl.program found in this file")
    return programs


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m pl.show_inferred",
        description="Print kernel files with every tile's inferred memory space.")
    parser.add_argument("files", nargs="+", type=Path, help="kernel files (Python source)")
    parser.add_argument("--backend", choices=sorted(_BACKENDS), default="910B",
                        help="target backend (default 910B); 'none' configures no backend")
    parser.add_argument("--mem-alias", action="store_true",
                        help="spell memory spaces pl.Mem.X instead of pl.MemorySpace.X")
    args = parser.parse_args(argv)
    status = 0
    for path in args.files:
        try:
            for program in load_programs(path):
                compiled = compile_program(program, _BACKENDS[args.backend])
                print(compiled.program.as_python(mem_alias=args.mem_alias))
        except PlError as e:
            print(e.render(), file=sys.stderr)
            status = 2
    return status


if __name__ == "__main__":
    sys.exit(main())
