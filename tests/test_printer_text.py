"""The printer writes text, and that text is right: it parses back to the same program and prints
the same again (over every example and every pass's output of it, the programs the tests hold as
data and the benchmark kernel; generated programs: tests/test_properties.py), it is wrapped by the one rule of
pl/printer/doc.py wherever that rule can shorten a line and nowhere else, and nothing in the
project reaches into LibCST's private modules (the printer does not import LibCST at all).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from test_perf_printer import IDS, PROGRAMS
from wrap_check import check_wrapping

import pl
from pl.compiler import default_passes
from pl.ir import Program
from pl.lowering.frontend.parse import parse
from pl.printer import print_node
from pl.printer.doc import WIDTH, group_lines
from pl.show_inferred.annotate import load_programs

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))


def _round_trips(program: Program, label: str, mem_alias: bool = False) -> str:
    text = print_node(program, mem_alias=mem_alias)
    again = parse(text, filename=f"<{label}>")
    assert isinstance(again, Program)
    pl.assert_structural_equal(again, program)
    assert print_node(again, mem_alias=mem_alias) == text  # idempotent
    assert print_node(program, mem_alias=mem_alias) == text  # pure
    return text


@pytest.mark.parametrize("mem_alias", [False, True])
@pytest.mark.parametrize(("label", "program"), PROGRAMS, ids=IDS)
def test_printed_programs_round_trip(label: str, program: Program, mem_alias: bool) -> None:
    _round_trips(program, label, mem_alias)


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_every_pass_output_round_trips(path: Path) -> None:
    for i, program in enumerate(load_programs(path.read_text(encoding="utf-8"), str(path))):
        for p in default_passes("910B"):
            program = p(program)
            _round_trips(program, f"{path.stem}:{i}:{p.name}")


# ---- the one wrapping rule ------------------------------------------------------------------


@pytest.mark.parametrize(("label", "program"), PROGRAMS, ids=IDS)
def test_printer_wraps_every_line_it_can(label: str, program: Program) -> None:
    check_wrapping(print_node(program))


def test_the_wrapping_check_sees_lines() -> None:
    bench = dict(PROGRAMS)["bench:compiled"]
    assert check_wrapping(print_node(bench)) > 100
    boundaries = dict(PROGRAMS)["wrap-boundaries"]
    text = print_node(boundaries)
    assert check_wrapping(text) > 10
    assert any(len(line) == WIDTH and line.endswith(")") for line in text.splitlines())  # flat up to it


def test_group_lines_forms() -> None:
    head, items = "x = pl.f(", ["a" * 40, "b" * 40]
    assert group_lines("", head, items, ")") == "x = pl.f(" + "a" * 40 + ", " + "b" * 40 + ")\n"
    ind = " " * 10
    assert group_lines(ind, head, items, ")") == \
        f"{ind}x = pl.f(\n{ind}    {'a' * 40}, {'b' * 40}\n{ind})\n"
    ind = " " * 20
    assert group_lines(ind, head, items, ")") == \
        f"{ind}x = pl.f(\n{ind}    {'a' * 40},\n{ind}    {'b' * 40},\n{ind})\n"
    # A def's parameters, followed by more than the bracket, stand one per line.
    assert group_lines("    ", "def f(", ["self", "a" * 90], ") -> T:") == \
        f"    def f(\n        self,\n        {'a' * 90},\n    ) -> T:\n"
    assert group_lines("", "f(", [], ")") == "f()\n"


# ---- no LibCST internals --------------------------------------------------------------------


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.append(node.module)
            out += [f"{node.module}.{a.name}" for a in node.names]
    return out


def test_nothing_imports_libcst_internals() -> None:
    sources = [p for folder in ("pl",) for p in (ROOT / folder).rglob("*.py")]
    assert len(sources) > 50
    private = [(str(p.relative_to(ROOT)), m) for p in sources for m in _imports(p)
               if m.startswith("libcst.") and any(part.startswith("_") for part in m.split(".")[1:])]
    assert private == []


def test_the_printer_does_not_import_libcst() -> None:
    printer = sorted((ROOT / "pl" / "printer").glob("*.py"))
    assert printer
    assert [(p.name, m) for p in printer for m in _imports(p) if m.split(".")[0] == "libcst"] == []


def test_the_width_option_moves_the_wrapping_and_keeps_the_program() -> None:
    """`as_python(width=N)` (the reference formats at 200 columns) wraps by the same rule at N:
    no line the rule can shorten is longer than N, and the text reads back to the same program."""
    program = pl.parse(WIDE_KERNEL, filename="<wide>")
    narrow, default, wide = (program.as_python(width=w) for w in (60, 100, 200))
    assert default == program.as_python() == pl.python_print(program)
    assert len(narrow.splitlines()) > len(default.splitlines()) > len(wide.splitlines())
    assert max(len(line) for line in wide.splitlines()) > 100
    for text in (narrow, default, wide):
        pl.assert_structural_equal(pl.parse(text), program)
    aliased = program.as_python(width=200, mem_alias=True)
    assert "pl.Mem.Vec" in aliased and "pl.MemorySpace" not in aliased
    with pytest.raises(ValueError, match="positive"):
        program.as_python(width=0)


WIDE_KERNEL = """import pl


@pl.program
class Wide:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel_with_a_long_name(self, first_input: pl.Tensor[[128, 128], pl.FP32],
                                second_input: pl.Tensor[[128, 128], pl.FP32],
                                out: pl.Out[pl.Tensor[[128, 128], pl.FP32]]) -> pl.Tensor[[128, 128], pl.FP32]:
        a: pl.Tile[[128, 128], pl.FP32, pl.MemorySpace.Vec] = pl.load(first_input, [0, 0], [128, 128])
        b: pl.Tile[[128, 128], pl.FP32, pl.MemorySpace.Vec] = pl.load(second_input, [0, 0], [128, 128])
        c = pl.add(a, b)
        out = pl.store(c, [0, 0], out)
        return out
"""
