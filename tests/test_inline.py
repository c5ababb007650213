"""Calls of functions defined outside the program (issue 17): `@pl.inline` helpers and
module-level `@pl.function`s, read as the reference reads them, in every way pl loads a kernel.

The kernels are data in tests/inline_cases/ (and tests/language_forms/inline_functions.py,
tests/error_fixtures/inline_*.py): a two-file case (uses_helpers.py imports helpers.py) loaded by
importing it (the decorators run) and by reading it statically (show_inferred), which must give
the same program; it parses back from its printed text, compiles, and computes what NumPy
computes before and after compiling. A file marking a line `# error: MESSAGE` is refused there.
"""

from __future__ import annotations

import importlib
import re
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

import pl
from pl.errors import PlError
from pl.ir import Program
from pl.ir.expr import Call, GlobalVar
from pl.ir.stmt import AssignStmt
from pl.ir.traverse import walk_stmts
from pl.show_inferred.cli import load_programs
from pl.show_inferred.run import run_text

CASES = Path(__file__).resolve().parent / "inline_cases"
_MARK = re.compile(r"#\s*error:\s*(?P<msg>.*?)\s*$")


@pytest.fixture
def helper_files(tmp_path: Path) -> Iterator[Path]:
    """The two-file case copied to a folder of its own, importable while the test runs."""
    for name in ("helpers.py", "uses_helpers.py"):
        shutil.copy(CASES / name, tmp_path / name)
    sys.path.insert(0, str(tmp_path))
    try:
        yield tmp_path
    finally:
        sys.path.remove(str(tmp_path))
        for name in ("helpers", "uses_helpers"):
            sys.modules.pop(name, None)


def _imported(folder: Path) -> Program:
    module = importlib.import_module("uses_helpers")
    assert Path(module.__file__ or "").parent == folder
    program = module.UsesHelpers
    assert isinstance(program, Program)
    return program


def _expected(x: np.ndarray) -> np.ndarray:
    t = (x * np.float32(2.0)).astype(np.float32)
    for _ in range(2):  # softplus_like's loop, whose rebound parameter carries the value
        t = (np.exp(t) + np.float32(1.0)).astype(np.float32)
    return t


def test_imported_and_read_statically_give_one_program(helper_files: Path) -> None:
    imported = _imported(helper_files)
    (static,) = load_programs(helper_files / "uses_helpers.py")
    pl.assert_structural_equal(static, imported)
    # The module-level kernel joined the program, after its own functions; the inline helper did
    # not (its statements are in `soft`).
    assert [f.name for f in imported.functions] == ["soft", "main", "scale_kernel"]
    text = pl.python_print(imported)
    again = pl.parse(text)
    pl.assert_structural_equal(again, imported)
    assert pl.python_print(again) == text


def test_inlined_statements_point_into_the_helper_file(helper_files: Path) -> None:
    soft = _imported(helper_files).get("soft")
    assert soft is not None
    files = {Path(s.span.filename).name for s in walk_stmts(soft.body)
             if s.span.line > 0 and type(s).__name__ != "SeqStmts"}
    assert files == {"uses_helpers.py", "helpers.py"}


@pytest.mark.parametrize("backend", [None, "910B"])
def test_compiles_and_computes_the_same(helper_files: Path, backend: str | None) -> None:
    program = _imported(helper_files)
    compiled = pl.compile(program, backend=backend, verify=True)
    text = compiled.as_python()
    pl.assert_structural_equal(pl.parse(text), compiled.program)
    x = (np.random.default_rng(7).standard_normal((16, 16)) * 0.25).astype(np.float32)
    for p in (program, compiled.program):
        out = np.zeros((16, 16), np.float32)
        pl.interpret(p, x.copy(), out)
        np.testing.assert_allclose(out, _expected(x), rtol=1e-6)


def test_show_inferred_shows_inlined_code_as_it_compiles(helper_files: Path) -> None:
    """Inlined statements come from another file (lines that may coincide with the caller's):
    the caller is shown as it compiles, the helper's statements typed at its call's place (it was
    left as written before the lowered form), with a note; the other file is not edited."""
    path = helper_files / "uses_helpers.py"
    helpers = (helper_files / "helpers.py").read_text()
    result = run_text(path.read_text(), str(path))
    assert "e: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Vec] = pl.tile.exp(t)" in result.output
    assert any("UsesHelpers.soft is shown as it compiles" in n.message for n in result.notes)
    assert (helper_files / "helpers.py").read_text() == helpers


@pytest.mark.parametrize("name", ["external_conflict", "external_arguments"])
def test_refused_external_calls_are_located(tmp_path: Path, name: str) -> None:
    path = tmp_path / f"{name}.py"
    text = (CASES / f"{name}.py").read_text()
    path.write_text(text)
    line, msg = next((n, m.group("msg")) for n, ln in enumerate(text.splitlines(), 1)
                     if (m := _MARK.search(ln)))
    with pytest.raises(PlError) as info:
        load_programs(path)
    assert msg in info.value.message
    assert info.value.span is not None and info.value.span.line == line


def test_recursive_functions_parse_compile_and_round_trip() -> None:
    """The reference's parser accepts functions calling each other; so does pl, and running a
    call that never returns is pl.interpret's located error, not a crash."""
    program = pl.parse((CASES / "recursive_functions.py").read_text())
    assert isinstance(program, Program)
    compiled = pl.compile(program, backend="910B", verify=True)
    pl.assert_structural_equal(pl.parse(compiled.as_python()), compiled.program)
    x = np.ones(16, np.float32)
    with pytest.raises(PlError, match="call depth"):
        pl.interpret(program, x, x.copy())


@pytest.mark.parametrize("m", [0, 1, 3, 5])
def test_a_name_bound_on_every_path_of_nested_ifs_is_one_value(m: int) -> None:
    """`r` is bound in both branches of ifs nested in both branches of an if (as in the
    reference's paged-attention kernel): SSA conversion merges the four into one value."""
    program = pl.parse((CASES / "nested_if_same_name.py").read_text())
    compiled = pl.compile(program, backend="910B", verify=True).program
    pl.assert_structural_equal(pl.parse(pl.python_print(compiled)), compiled)
    x = np.random.default_rng(m).standard_normal((16, 16)).astype(np.float32)
    out = np.zeros((16, 16), np.float32)
    pl.interpret(compiled, x, out, m)
    want = {0: np.exp(x), 1: x - 1.0, 3: x * x, 5: x + x}[m]
    np.testing.assert_allclose(out, want.astype(np.float32), rtol=1e-6)


def test_a_deps_comprehension_is_unrolled_while_compiling() -> None:
    """`deps=[[tids[k] for k in range(SLOTS) if k != SKIP], tids[3]]`: the reference's parser
    unrolls the comprehension (constant iterable and filter) into one entry per kept value."""
    program = pl.parse((CASES / "deps_comprehension.py").read_text())
    text = pl.python_print(program)
    slots = [f"pl.array.get_element(tids, {k})" for k in (0, 2, 3, 3)]
    assert f"deps=[{', '.join(slots)}]" in text, text


def test_a_submit_may_leave_out_its_outputs() -> None:
    """`pl.submit(self.kernel, x)` of a kernel with an Out parameter: the reference's parser
    accepts it (the runtime allocates the output); it compiles and reads back the same."""
    program = pl.parse((CASES / "submit_without_outputs.py").read_text())
    compiled = pl.compile(program, backend="910B", verify=True)
    pl.assert_structural_equal(pl.parse(compiled.as_python()), compiled.program)
    main = program.get("main")
    assert main is not None
    calls = [s.value for s in walk_stmts(main.body) if isinstance(s, AssignStmt)
             and isinstance(s.value, Call) and s.value.op == GlobalVar("kernel")]
    assert [len(c.args) for c in calls] == [1]
