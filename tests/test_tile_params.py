"""Functions with Tile parameters (docs/tile_params.md): placement, calls, residency, interpreter.

Each file in tests/tile_param_cases/ holds a `Before` program and the `Expected` program memory-space
inference must turn it into (written from the rules of docs/tile_params.md), with the inserted
moves (`# moves:`) and some decisions (`# decisions: function.value=Space:reason`). Every case
must also compile for 910B, print and read back equal, and compute the same as its source under
`pl.interpret`. The located errors of the section live in tests/bad_inputs/ (tile_param_*.py) and
tests/error_fixtures/ (tile_param_*.py).
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from interpret_support import compare_results
from residency_cases.programs import LEFT, LOOP_BODY, MATMUL, RHS_LOAD, RHS_MOVE, STORE, orch, program
from test_residency import kernel_of, layout, run, verdicts
from wrap_check import unbroken

import pl
from pl.infer.memory_space import infer_tile_memory_space
from pl.infer.verifier import verify_tile_memory_inferred
from pl.ir import Program
from pl.show_inferred.cli import load_programs, main
from pl.structural import assert_structural_equal
from pl.typecheck import verify_well_typed

CASES = sorted((Path(__file__).resolve().parent / "tile_param_cases").glob("*.py"))
_DECISION = re.compile(r"(\w+)\.(\w+)=(\w+):(\w+)")


def _case(path: Path) -> tuple[Program, Program, list[str], list[tuple[str, str, str, str]]]:
    progs = {p.name: p for p in load_programs(path)}
    text = path.read_text(encoding="utf-8")
    moves = re.search(r"^# moves:(.*)$", text, re.M)
    decisions = re.search(r"^# decisions:(.*)$", text, re.M)
    assert moves is not None and decisions is not None, "a case names its moves and decisions"
    return (progs["Before"], progs["Expected"], moves.group(1).split(),
            [m.groups() for m in _DECISION.finditer(decisions.group(1))])


def test_there_are_cases() -> None:
    assert len(CASES) >= 7


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_inference_places_tile_parameters(path: Path) -> None:
    before, expected, moves, decisions = _case(path)
    after, log = infer_tile_memory_space(before)
    assert_structural_equal(after, expected)
    assert [m.name for m in log.moves] == moves
    got = {(d.function, d.name): (d.space.name if d.space else "None", d.reason.kind)
           for d in log.spaces}
    for function, name, space, kind in decisions:
        assert got[(function, name)] == (space, kind), (function, name)
    again, log2 = infer_tile_memory_space(after)
    assert_structural_equal(again, after)
    assert log2.moves == ()
    assert verify_tile_memory_inferred(after) == []
    assert [e.message for e in verify_well_typed(after)] == []


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_compiles_round_trips_and_computes_the_same(path: Path) -> None:
    before = _case(path)[0]
    compiled = pl.compile(before, backend="910B", verify=True).program
    assert_structural_equal(pl.parse(pl.python_print(compiled)), compiled)
    assert compare_results(before, compiled) == "same"


def test_interpreter_takes_arrays_for_tile_parameters() -> None:
    before = _case(CASES[0].parent / "unplaced_param_is_vec.py")[0]
    b = np.arange(16 * 128, dtype=np.float32).reshape(16, 128) / 100
    out = np.zeros((16, 128), np.float32)
    pl.interpret(before, b, out)
    np.testing.assert_array_equal(out, b * b)


OUT_TILE = """
import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def main(self, x: pl.Tensor[[64, 64], pl.FP32],
             a: pl.Out[pl.Tile[[64, 64], pl.FP32, pl.MemorySpace.Vec]]
             ) -> pl.Tile[[64, 64], pl.FP32, pl.MemorySpace.Vec]:
        t: pl.Tile[[32, 64], pl.FP32] = pl.load(x, [0, 0], [32, 64])
        s: pl.Tile[[64, 64], pl.FP32] = pl.tile.assemble(a, t, [32, 0])
        return s
"""


def test_out_tile_parameter_is_written_back_to_the_callers_array() -> None:
    prog = pl.parse(OUT_TILE)
    assert isinstance(prog, Program)
    x = np.random.default_rng(0).standard_normal((64, 64)).astype(np.float32)
    a = np.ones((64, 64), np.float32)
    pl.interpret(prog, x, a)
    np.testing.assert_array_equal(a[32:], x[:32])
    np.testing.assert_array_equal(a[:32], np.ones((32, 64), np.float32))
    compiled = pl.compile(prog, backend="910B", verify=True).program
    assert compare_results(prog, compiled) == "same"


# ---- residency: a Tile parameter holds its space for the whole kernel, and is never hoisted -----
def _kernel_with_tile_param(rows: int, body: list[str] = LOOP_BODY) -> str:
    """The residency scenarios' kernel, given a Mat Tile parameter `res` of `rows` x 256 bf16 that
    the root orchestration loads and passes."""
    lines = ["    @pl.function(type=pl.FunctionType.InCore)",
             "    def kernel(self, lhs: pl.Tensor[[16, 128], pl.BF16], rhs: pl.Tensor[[128, 256], pl.BF16],",
             "               out: pl.Out[pl.Tensor[[16, 256], pl.FP32]],",
             f"               res: pl.Tile[[{rows}, 256], pl.BF16, pl.MemorySpace.Mat]"
             ") -> pl.Tensor[[16, 256], pl.FP32]:",
             "        for n in pl.range(0, 256, 128):"]
    lines += ["            " + x for x in body]
    lines.append("        return out")
    root = orch([f"t = pl.load(big, [0, 0], [{rows}, 256], target_memory=pl.MemorySpace.Mat)",
                 "out = self.kernel(fresh_lhs, rhs, out, t)"],
                params="big: pl.Tensor[[1024, 256], pl.BF16]")
    return program("\n".join(lines) + "\n", root)


@pytest.mark.parametrize(("rows", "verdict"), [(960, ("declined", "capacity")),
                                               (896, ("hoisted", "chain"))])
def test_a_mat_tile_parameter_counts_against_mat_capacity(rows: int, verdict: tuple[str, str]
                                                          ) -> None:
    # 512 KiB of Mat (910B): 480 KiB of parameter + the loop's 36 KiB does not fit, 448 KiB does.
    _, ds = run(_kernel_with_tile_param(rows))
    assert verdicts(ds)["lhs_mat"] == verdict, "\n".join(d.format() for d in ds)


def test_a_tile_parameter_is_never_hoisted() -> None:
    # The Mat parameter feeds the matmul through a move inside the loop: no load, no candidate.
    body = [f"lhs_left = pl.tile.move(res, {LEFT})", RHS_LOAD, RHS_MOVE, MATMUL, STORE]
    src = _kernel_with_tile_param(16, body).replace("[16, 256], pl.BF16, pl.MemorySpace.Mat]",
                                                    "[16, 128], pl.BF16, pl.MemorySpace.Mat]")
    src = src.replace("[0, 0], [16, 256], target_memory", "[0, 0], [16, 128], target_memory")
    out, ds = run(src)
    assert "res" not in verdicts(ds) and "lhs_left" not in verdicts(ds)
    before, inside = layout(kernel_of(out))
    assert "lhs_left" in inside and "lhs_left" not in before


CALL = """
import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.AIV)
    def f(self, a: pl.Tile[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]
          ) -> pl.Tensor[[64, 64], pl.FP32]:
        r: pl.Tensor[[64, 64], pl.FP32] = pl.store(a, [0, 0], out)
        return r

    @pl.function(type=pl.FunctionType.CALLER)
    def main(self, x: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]
             ) -> pl.Tensor[[64, 64], pl.FP32]:
        t: pl.Tile[[64, 64], pl.FP32] = pl.load(x, [0, 0], [64, 64]SPACE)
        r: pl.Tensor[[64, 64], pl.FP32] = self.f(t, out)
        return r
"""


def _call_program(caller: str, space: str) -> Program:
    src = CALL.replace("CALLER", caller).replace(
        "SPACE", f", target_memory=pl.MemorySpace.{space}" if space else "")
    prog = pl.parse(src)
    assert isinstance(prog, Program)
    return prog


def test_verifier_checks_tile_parameters_and_program_function_calls() -> None:
    # Not inferred: f's parameter has no space, and main hands f a Mat tile where f wants Vec.
    messages = [e.message for e in verify_tile_memory_inferred(_call_program("InCore", "Mat"))]
    assert messages == ["InCore function 'f': Tile parameter 'a' has no memory_space set",
                        "InCore function 'main': Function 'f' input 0 ('t') requires Vec but is "
                        "in Mat"]


@pytest.mark.parametrize("caller", ["Orchestration", "Opaque"])
def test_a_caller_of_another_kind_holding_tile_ops_is_placed(caller: str) -> None:
    # A tile whose space is the callee's, or that has none written, needs no move; a Mat one is
    # given as a Vec move (the caller holds a tile op, so inference places its tiles: it was a
    # located error while only InCore, AIC and AIV functions got moves). All compute the same.
    for space in ("", "Vec", "Mat"):
        prog = _call_program(caller, space)
        compiled = pl.compile(prog, backend="910B", verify=True).program
        assert compare_results(prog, compiled) == "same"


# ---- generated programs ---------------------------------------------------------------------------
@st.composite
def tile_param_programs(draw: st.DrawFn) -> str:
    """A kernel whose Tile parameter `p` (a drawn space, or none) flows through a drawn chain of
    vector ops and, maybe, a loop carried from it; maybe called by an InCore `main` that hands it
    a tile loaded in a drawn space."""
    space = draw(st.sampled_from(("", "Vec", "Mat", "Acc")))
    kind = draw(st.sampled_from(("InCore", "AIV")))
    tile = "pl.Tile[[16, 64], pl.FP32" + (f", pl.MemorySpace.{space}]" if space else "]")
    tensor = "pl.Tensor[[16, 64], pl.FP32]"
    body = ["x_tile = pl.load(x, [0, 0], [16, 64])"]
    prev = "p"
    for n in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(("pl.add({a}, p)", "pl.mul({a}, x_tile)", "pl.exp({a})",
                                   "pl.neg({a})", "pl.sub(p, {a})", "pl.maximum({a}, x_tile)")))
        body.append(f"v{n} = " + op.format(a=prev))
        prev = f"v{n}"
    if draw(st.booleans()):
        body += [f"for _i, (acc,) in pl.range({draw(st.integers(1, 3))}, init_values=(p,)):",
                 f"    nxt = pl.add(acc, {prev})", "    acc_out = pl.yield_(nxt)"]
        prev = "acc_out"
    body += [f"r = pl.store({prev}, [0, 0], out)", "return r"]
    lines = ["import pl", "", "", "@pl.program", "class Generated:",
             f"    @pl.function(type=pl.FunctionType.{kind})",
             f"    def kernel(self, p: {tile}, x: {tensor}, out: pl.Out[{tensor}]) -> {tensor}:",
             *("        " + b for b in body)]
    caller = draw(st.sampled_from(("", "Vec", "Mat")))
    if caller:
        lines += ["", "    @pl.function(type=pl.FunctionType.InCore)",
                  f"    def main(self, x: {tensor}, out: pl.Out[{tensor}]) -> {tensor}:",
                  f"        t = pl.load(x, [0, 0], [16, 64], target_memory=pl.MemorySpace.{caller})",
                  "        r = self.kernel(t, x, out)", "        return r"]
    return "\n".join(lines) + "\n"


@settings(max_examples=25, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(source=tile_param_programs())
def test_generated_tile_parameter_programs_compile_and_keep_results(source: str) -> None:
    prog = pl.parse(source)
    assert isinstance(prog, Program)
    for backend in (None, "910B", "950"):
        compiled = pl.compile(prog, backend=backend, verify=True).program
        assert_structural_equal(pl.parse(pl.python_print(compiled)), compiled)
        assert verify_tile_memory_inferred(compiled) == []
        assert compare_results(prog, compiled) == "same", source


def test_show_inferred_shows_a_loop_started_from_a_moved_parameter_as_it_compiles(
        capsys: pytest.CaptureFixture[str]) -> None:
    # Its header's init_values would need the edit, so it cannot be annotated in place: the
    # function is shown as it compiles (it was left as written before the lowered form), with a
    # note, never an internal error; the loop starts from the inserted move.
    path = CASES[0].parent / "loop_carry_from_param.py"
    assert main([str(path)]) == 0
    captured = capsys.readouterr()
    assert "Before.main is shown as it compiles, below the level it is written at (the loop at " \
        "line 12 starts from an inserted move)" in captured.err
    before = unbroken(captured.out.split("class Expected")[0])
    assert "init_values=(p_Vec,)" in before and "p_Vec: pl.Tile[[16, 128], pl.FP32, " \
        "pl.MemorySpace.Vec" in before
