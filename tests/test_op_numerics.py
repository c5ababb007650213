"""Each op's numerics, as data: every kernel in tests/op_kernels/ is checked against NumPy.

A kernel file starts with `# expect: <name> = <NumPy expression>`: after `pl.interpret` runs the
program on random inputs (the entry's parameters, by name), parameter <name> must hold the
expression's value computed from the inputs (`np` is NumPy, `k_order_matmul(a, b, start)` the
interpreter's matmul numerics written without BLAS: a float product compared bit for bit must not
depend on how BLAS orders its sums on the CPU running the test). The check runs on the parsed program
and on the program compiled for every backend, so compiling must keep the op's numerics too.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from interpret_support import k_order_matmul, random_inputs

import pl
from pl.interpreter.run import entry_function, interpret
from pl.ir import Program
from pl.show_inferred.cli import load_programs

KERNELS = sorted((Path(__file__).resolve().parent / "op_kernels").glob("*.py"))
_EXPECT = re.compile(r"^# expect: (?P<name>\w+) = (?P<expr>.+)$", re.M)


def _expectation(path: Path) -> tuple[str, str]:
    m = _EXPECT.search(path.read_text(encoding="utf-8"))
    assert m, f"{path.name}: no `# expect: name = expression` line"
    return m.group("name"), m.group("expr")


def _arguments_after(program: Program, inputs: list[Any]) -> list[Any]:
    """The entry's arguments after interpreting `program` on copies of `inputs` (compiling may
    rename parameters, so they are read by position)."""
    args = [a.copy() if isinstance(a, np.ndarray) else a for a in inputs]
    interpret(program, *args)
    return args


def test_there_are_op_kernels() -> None:
    assert KERNELS


@pytest.mark.parametrize("backend", [None, "910B", "950"])
@pytest.mark.parametrize("path", KERNELS, ids=lambda p: p.stem)
def test_op_kernel_computes_what_numpy_computes(path: Path, backend: str | None) -> None:
    name, expr = _expectation(path)
    for program in load_programs(path):
        for seed in (0, 1):
            inputs = random_inputs(program, seed)
            names = [p.name for p in entry_function(program).params]
            want = eval(expr, {"np": np, "k_order_matmul": k_order_matmul}, dict(zip(names, inputs, strict=True)))  # the file's own
            for variant in (program, pl.compile(program, backend=backend, verify=True).program):
                got = _arguments_after(variant, inputs)[names.index(name)]
                np.testing.assert_array_equal(got, np.asarray(want, dtype=got.dtype))
