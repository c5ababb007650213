"""The passes before inference hand on what they do not change, and are fixed points.

Data-driven over the examples, the inference cases' Before programs and the benchmark kernel: a pass
that changes nothing must hand on the very same Program (so later passes stay cheap), and a second
run of each pass changes nothing it did not change the first time.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest
from infer_cases.cases import CASES

import pl
from bench.generate import kernel_source
from pl.compiler import default_passes
from pl.ir import (
    AssignStmt,
    Call,
    Expr,
    Program,
    Type,
)
from pl.ir.enums import DType
from pl.ir.traverse import walk_stmts
from pl.ir.types import ScalarType, TileType
from pl.lowering.frontend.parse import parse
from pl.lowering.ssa import support as ssa_support
from pl.show_inferred.cli import load_programs

EXAMPLES = sorted((Path(__file__).resolve().parent.parent / "examples").glob("*.py"))


def _programs() -> list[tuple[str, Program]]:
    out = [(f"{p.stem}:{prog.name}", prog) for p in EXAMPLES for prog in load_programs(p)]
    out += [(f"case:{c.name}", parse(c.source("Before"), filename=f"<{c.name}>")) for c in CASES]
    out.append(("bench:40", parse(kernel_source(40), filename="<bench40>")))
    return out


PROGRAMS = _programs()
IDS = [label for label, _ in PROGRAMS]


def _before_inference(backend: str | None) -> list[pl.passes.Pass]:
    return [p for p in default_passes(backend) if p.name != "infer_tile_memory_space"]


def _stages(program: Program, backend: str | None) -> list[Program]:
    """The program after each pass before inference (`[0]` is the input)."""
    out = [program]
    for p in _before_inference(backend):
        out.append(p(out[-1]))
    return out


def _after_ssa(backend: str | None) -> int:
    """The index in `_stages` of the program convert_to_ssa made."""
    return [p.name for p in _before_inference(backend)].index("convert_to_ssa") + 1


def test_no_op_passes_hand_on_the_same_program() -> None:
    stages = _stages(parse(kernel_source(30), filename="<bench30>"), "910B")
    assert stages[1] is stages[0]  # no pl.unroll loop: unroll_loops changes nothing
    after_ssa = stages[_after_ssa("910B"):]
    for before, after in zip(after_ssa, after_ssa[1:], strict=False):
        assert after is before
        assert all(a is b for a, b in zip(after.functions, before.functions, strict=True))


@pytest.mark.parametrize(("label", "program"), PROGRAMS, ids=IDS)
def test_a_second_run_of_each_pass_changes_nothing_it_did_not_change(
        label: str, program: Program) -> None:
    stages = _stages(program, "910B")
    for p, out in zip(_before_inference("910B"), stages[1:], strict=True):
        if p.name == "convert_to_ssa":
            continue  # a second SSA conversion versions the versions again, by design
        again = p(out)
        assert pl.python_print(again) == pl.python_print(out)
        if again is not out:  # only a pass that rebuilt something may return a new program
            assert any(a is not b for a, b in zip(again.functions, out.functions, strict=True))


def _assigned_pairs(program: Program) -> Iterator[tuple[Type, Expr]]:
    for f in program.functions:
        for s in walk_stmts(f.body):
            if isinstance(s, AssignStmt):
                yield s.var.type, s.value


def test_assignment_type_is_the_values_and_keeps_a_declared_memref() -> None:
    program = parse(kernel_source(2), filename="<bench2>")
    pairs = [(lhs, value) for lhs, value in _assigned_pairs(program)
             if isinstance(value, Call) and isinstance(value.result_type, TileType)]
    assert pairs
    for lhs, value in pairs:
        declared = dataclasses.replace(lhs, memref="mem0")
        for decl in (lhs, ScalarType(DType.INDEX)):
            got = ssa_support.assignment_type(decl, value)
            assert got is value.result_type  # an informative value type wins, as it is
        kept = ssa_support.assignment_type(declared, value)
        assert kept == dataclasses.replace(value.result_type, memref="mem0")  # type: ignore[type-var]
        assert kept.memref == "mem0"  # type: ignore[attr-defined]
        with_own = dataclasses.replace(value, result_type=dataclasses.replace(value.result_type, memref="own"))
        assert ssa_support.assignment_type(declared, with_own).memref == "own"  # type: ignore[attr-defined]


@pytest.mark.parametrize(("label", "program"), PROGRAMS[:len(EXAMPLES) + 8], ids=IDS[:len(EXAMPLES) + 8])
def test_inference_hands_back_the_loops_and_ifs_it_does_not_change(label: str,
                                                                   program: Program) -> None:
    """Memory-space inference (phases 0-3) run again on its own output changes nothing, and
    rebuilds nothing: every loop and if comes back as the very same object."""
    from pl.ir.stmt import ForStmt, IfStmt, WhileStmt

    infer = pl.passes.infer_tile_memory_space("910B", residency=False)
    placed = infer(pl.passes.PassManager(_before_inference("910B")).run(program))
    again = infer(placed)
    for f, g in zip(placed.functions, again.functions, strict=True):
        kinds = (ForStmt, WhileStmt, IfStmt)
        old = [s for s in walk_stmts(f.body) if isinstance(s, kinds)]
        new = [s for s in walk_stmts(g.body) if isinstance(s, kinds)]
        assert len(old) == len(new) and all(a is b for a, b in zip(old, new, strict=True)), f.name
