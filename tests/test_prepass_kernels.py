"""The tile pre-passes on kernels written as data: tests/prepass_kernels/*.py.

Each file starts with `# pass: NAME  backend: B` (a pass of `pl.passes` taking a backend or not).
* With `Before` and `Expected` programs (`Expected = Before`: the pass changes nothing): the pass
  on `convert_to_ssa(Before)` equals `convert_to_ssa(Expected)`, running it again changes nothing,
  `Before` compiles (verified) for B and reads back from its printed text, and the compiled program
  computes what `Before` computes (bit-exact: the interpreter sums every product in K order from
  its accumulator, so neither a K split nor an [m, n] split changes a bit).
* With a `# error: <message part>` line: compiling for B raises one PlError on that line.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from interpret_support import compare_results

import pl
from pl.errors import PlError
from pl.ir import Program
from pl.show_inferred.cli import load_programs

KERNELS = sorted((Path(__file__).resolve().parent / "prepass_kernels").glob("*.py"))
_HEADER = re.compile(r"#\s*pass:\s*(?P<pass>\w+)\s+backend:\s*(?P<backend>\w+)")
_ERROR = re.compile(r"#\s*error:\s*(?P<msg>.+?)\s*$")


def _header(path: Path) -> tuple[Any, str]:
    m = _HEADER.match(path.read_text(encoding="utf-8"))
    assert m, f"{path.name}: first line must be `# pass: NAME  backend: B`"
    factory = getattr(pl.passes, m["pass"])
    backend = m["backend"]
    try:
        return factory(backend), backend
    except TypeError:
        return factory(), backend


def _programs(path: Path) -> dict[str, Program]:
    return {p.name: p for p in load_programs(path)}


CASES = [p for p in KERNELS if "# error:" not in p.read_text(encoding="utf-8")]
ERRORS = [p for p in KERNELS if p not in CASES]


def test_there_are_cases_of_both_passes() -> None:
    texts = [p.read_text(encoding="utf-8") for p in CASES]
    assert sum("pass: auto_tile_matmul_l0" in t for t in texts) >= 6
    assert sum("pass: canonicalize_tile_slice" in t for t in texts) >= 3
    assert len(ERRORS) >= 2


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_pass_gives_the_expected_program(path: Path) -> None:
    run, _ = _header(path)
    programs = _programs(path)
    before = pl.passes.convert_to_ssa()(programs["Before"])
    expected = pl.passes.convert_to_ssa()(programs.get("Expected", programs["Before"]))
    once = run(before)
    pl.assert_structural_equal(once, expected)
    pl.assert_structural_equal(run(once), once)


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_compiled_kernel_reads_back_and_computes_the_same(path: Path) -> None:
    _, backend = _header(path)
    before = _programs(path)["Before"]
    compiled = pl.compile(before, backend=backend, verify=True)
    again = pl.parse(compiled.as_python(), filename=f"<{path.stem}-compiled>")
    pl.assert_structural_equal(again, compiled.program)
    assert compare_results(before, compiled.program) == "same"


@pytest.mark.parametrize("path", ERRORS, ids=lambda p: p.stem)
def test_compile_error_is_located(path: Path) -> None:
    _, backend = _header(path)
    text = path.read_text(encoding="utf-8")
    line, msg = next((n, m["msg"]) for n, ln in enumerate(text.splitlines(), start=1)
                     if (m := _ERROR.search(ln)))
    with pytest.raises(PlError) as info:
        pl.compile(pl.parse(text, filename=str(path)), backend=backend)
    assert msg in info.value.message, info.value.message
    assert info.value.span is not None and info.value.span.line == line
