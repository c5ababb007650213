"""Kernels as data for SSA conversion's merges (tests/ssa_cases/NAME.py): a name bound in both
branches of an if, a swap in a branch, an alias rebound, an iter arg rebound in a branch or in a
nested loop, a name first bound in a loop's if. Each file's `# interpret:` line gives results of
`main` computed by hand (as Python runs the kernel's text); the source program and the compiled
one must both give them, and the program after convert_to_ssa must print as NAME.expected.py
(regenerate with `PL_REGEN=1`; review the diff)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

import pl
from pl import passes
from pl.ir import Program

CASES = Path(__file__).parent / "ssa_cases"
KERNELS = sorted(p for p in CASES.glob("*.py") if not p.name.endswith(".expected.py"))


def _expectations(text: str) -> list[tuple[int, int]]:
    line = next(ln for ln in text.splitlines() if ln.startswith("# interpret:"))
    return [(int(a), int(r)) for a, r in re.findall(r"main\((-?\d+)\) == (-?\d+)", line)]


def _ssa(program: Program) -> Program:
    manager = passes.PassManager([passes.unroll_loops(), passes.flatten_call_expr(),
                                  passes.convert_to_ssa()], verify=True)
    return manager.run(program)


@pytest.mark.parametrize("path", KERNELS, ids=lambda p: p.stem)
def test_ssa_case(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    program = pl.parse(text, filename=path.name)
    assert isinstance(program, Program)
    printed = pl.python_print(_ssa(program)) + "\n"
    expected = path.with_name(path.stem + ".expected.py")
    if os.environ.get("PL_REGEN"):
        expected.write_text(printed, encoding="utf-8")
    assert printed == expected.read_text(encoding="utf-8")
    compiled = pl.compile(program).program
    for arg, result in _expectations(text):
        assert pl.interpret(program, arg) == result, ("source", arg)
        assert pl.interpret(compiled, arg) == result, ("compiled", arg)
