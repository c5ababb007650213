"""Our pipeline against the reference's own printed output for the seed's two examples.

shared/spec/reference-output holds what hw-native-sys/pypto prints for them; `pl.parse` reads
the reference's format, so the comparison is structural (names aside), and the move and hoisted
names are checked on the printed text.
"""

from __future__ import annotations

from pathlib import Path

import pl
from pl.ir import ForStmt, Function, Program, flatten_body

REF = Path(__file__).resolve().parent / "reference_output"  # copied from shared/spec/reference-output
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"



def _parse_file(path: Path) -> Program:
    program = pl.parse(path.read_text(encoding="utf-8"), filename=str(path))
    assert isinstance(program, Program)
    return program


def test_seed_general_matches_reference() -> None:
    before = _parse_file(REF / "seed_general.py")
    expected = _parse_file(REF / "seed_general.after.py")
    after = pl.passes.infer_tile_memory_space(None)(before)
    pl.assert_structural_equal(after, expected)
    text = pl.python_print(after)
    assert "x_tile_Left: pl.Tile[[16, 128], pl.BF16, pl.MemorySpace.Left]" in text
    assert "y_tile_Right: pl.Tile[[128, 128], pl.BF16, pl.MemorySpace.Right]" in text


def test_seed_general_example_file_gives_the_same_program() -> None:
    ours = _parse_file(EXAMPLES / "seed_general.py")
    ref = _parse_file(REF / "seed_general.py")
    pl.assert_structural_equal(ours, ref)


def _kernel(program: Program) -> Function:
    f = program.get("kernel")
    assert f is not None
    return f


def test_seed_residency_matches_reference() -> None:
    source = _parse_file(REF / "seed_residency.py")
    expected = _parse_file(REF / "seed_residency.after.py")
    compiled = pl.compile(source, backend="910B")
    pl.assert_structural_equal(compiled.program, expected)
    # The stationary LHS bridge and its Left move stand before the loop; the RHS stays inside.
    body = flatten_body(_kernel(compiled.program).body)
    loop_at = next(i for i, s in enumerate(body) if isinstance(s, ForStmt))
    before_loop = [s.var.name for s in body[:loop_at]]
    assert before_loop == ["lhs__ssa_v0_mat", "lhs__ssa_v0_mat_Left"]
    text = compiled.as_python()
    assert "__compiler_tensor_to_tile_mat_bridge" not in text
    assert "rhs_n__tile_Right" in text
    hoisted = [d for d in compiled.decisions.residency if d.decision == "hoisted"]
    assert [d.load for d in hoisted] == ["lhs__ssa_v0_mat"]


def test_seed_residency_without_residency_keeps_the_load_in_the_loop() -> None:
    source = _parse_file(REF / "seed_residency.py")
    compiled = pl.compile(source, backend="910B", residency=False)
    body = flatten_body(_kernel(compiled.program).body)
    assert isinstance(body[0], ForStmt)


def test_seed_nested_yield_form_compiles_to_the_same_program() -> None:
    text = (REF / "seed_residency.py").read_text(encoding="utf-8")
    nested = text.replace(
        "            acc_next = pl.assemble(acc, c_n, [0, n])\n"
        "            result = pl.yield_(acc_next)\n",
        "            result = pl.yield_(pl.assemble(acc, c_n, [0, n]))\n")
    assert nested != text
    a = pl.compile(pl.parse(text), backend="910B").program
    b = pl.compile(pl.parse(nested), backend="910B").program
    pl.assert_structural_equal(a, b)
