"""`with pl.at(level=pl.Level.CORE_GROUP):` scopes of Opaque and Orchestration functions are
outlined into InCore functions before conversion and inference (pl/lowering/outline.py), so
their tiles are placed as an InCore function's are; a tile op left outside them is checked all
the same (pl/infer/verifier.py).

Kernels as data: examples/scoped_matmul.py (the reference's quick-start form; its golden is
tests/golden/scoped_matmul.expected.py) and tests/scope_kernels/*.py, each compiled for every
backend with the per-pass verifier on, read back, compiled idempotently, and interpreted to the
same results as its source.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from test_equivalence import assert_same_results

import pl
from pl.compiler import default_passes
from pl.errors import PlError
from pl.infer.verifier import verify_tile_memory_inferred
from pl.ir import Program, ScopeStmt
from pl.ir.enums import FunctionType, MemorySpace
from pl.ir.expr import Call, GlobalVar
from pl.ir.function import Function
from pl.ir.traverse import stmt_exprs, walk_exprs, walk_stmts
from pl.ir.types import TileType
from pl.passes import PassManager
from pl.show_inferred import cli
from pl.show_inferred.cli import load_programs
from pl.show_inferred.run import run_text

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "scoped_matmul.py"
KERNELS = sorted((ROOT / "tests" / "scope_kernels").glob("*.py"))
BACKENDS = [None, "910B", "950"]


def _program(path: Path) -> Program:
    (program,) = load_programs(path)
    return program


def _calls(f: Function) -> list[Call]:
    return [e for s in walk_stmts(f.body) for r in stmt_exprs(s) for e in walk_exprs(r)
            if isinstance(e, Call)]


def _space(e: object) -> MemorySpace | None:
    t = getattr(e, "type", None)
    return t.memory_space if isinstance(t, TileType) else None


@pytest.mark.parametrize("backend", BACKENDS)
def test_scope_matmul_gets_its_operands_moved(backend: str | None) -> None:
    source = _program(EXAMPLE)
    compiled = pl.compile(source, backend=backend, verify=True).program
    made = [f for f in compiled.functions if source.get(f.name) is None]
    assert [(f.name, f.func_type) for f in made] == [
        ("main_incore_0", FunctionType.InCore), ("main_incore_1", FunctionType.InCore),
        ("main_incore_2", FunctionType.InCore)]
    matmuls = [c for c in _calls(made[0]) if c.op_name == "tile.matmul"]
    assert len(matmuls) == 1
    (mm,) = matmuls
    assert [_space(a) for a in mm.args] == [MemorySpace.Left, MemorySpace.Right]
    assert _space(mm) is MemorySpace.Acc
    moves = [c for c in _calls(made[0]) if c.op_name == "tile.move"]
    assert sorted(dict(c.kwargs)["target_memory"].name for c in moves) == ["Left", "Right"]
    # The parent keeps its scopes (level, deps, task id), each holding the call and no op.
    main = compiled.get("main")
    assert main is not None
    scopes = [s for s in walk_stmts(main.body) if isinstance(s, ScopeStmt)]
    assert len(scopes) == 3 and scopes[1].task_id is not None
    for scope in scopes:
        ops = [e for s in walk_stmts(scope.body) for r in stmt_exprs(s) for e in walk_exprs(r)
               if isinstance(e, Call)]
        assert [type(c.op) for c in ops] == [GlobalVar]


def test_explain_names_the_scope_moves() -> None:
    out, err = io.StringIO(), io.StringIO()
    assert cli.main(["--explain", str(EXAMPLE)], stdout=out, stderr=err) == 0, err.getvalue()
    text = out.getvalue()
    assert "ScopedMatmul.main_incore_0 (InCore, outlined from the scope at line 26)" in text
    assert ":29: ta_Left -> Left: inserted move of ta, because tile.matmul argument 0 must be " \
           "in Left" in text
    assert ":29: tb_Right -> Right: inserted move of tb, because tile.matmul argument 1 must " \
           "be in Right" in text
    assert ":29: acc -> Acc: fixed output space of tile.matmul" in text


def test_show_inferred_types_the_scope_in_place() -> None:
    r = run_text(EXAMPLE.read_text(encoding="utf-8"), str(EXAMPLE))  # verified: it reads back
    assert not r.notes, [n.message for n in r.notes]
    lines = r.output.splitlines()
    at = lines.index("            with pl.at(level=pl.Level.CORE_GROUP):")
    block = "\n".join(lines[at + 1:at + 16])  # wrapped loads and moves, then the matmul
    assert "acc: pl.Tile[[64, 64], pl.FP32, pl.MemorySpace.Acc] = pl.matmul(ta_Left, tb_Right)" \
        in block
    assert "ta_Left: pl.Tile[[64, 64], pl.FP16, pl.MemorySpace.Left] = pl.move(" in block
    assert "    with pl.at(level=pl.Level.CORE_GROUP) as scaled:\n            first: pl.Tile[" \
        "[64, 64], pl.FP32, pl.MemorySpace.Vec] = pl.load(c, [0, 0], [64, 64])" in r.output
    assert "def main_incore" not in r.output  # the outlined functions are the scopes' bodies


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("path", [EXAMPLE, *KERNELS], ids=lambda p: p.stem)
def test_scope_kernel_compiles_verified_and_computes_the_same(path: Path,
                                                             backend: str | None) -> None:
    source = _program(path)
    compiled = pl.compile(source, backend=backend, verify=True)
    program = compiled.program
    assert verify_tile_memory_inferred(program) == []
    assert len(program.functions) > len(source.functions)  # each scope became a function
    text = compiled.as_python()
    again = pl.parse(text)
    pl.assert_structural_equal(again, program)
    assert isinstance(again, Program)
    pl.assert_structural_equal(pl.compile(again, backend=backend).program, program)
    assert_same_results(source, program)


def test_a_pipeline_without_outlining_lets_no_tile_escape() -> None:
    """Without the outline pass the scope's matmul stays in the Orchestration function, which
    holds tile ops: inference places its tiles there too (Left/Right moves of its Mat operands),
    so the per-pass verifier accepts it; before the outline pass, it kept Vec operands."""
    passes = [p for p in default_passes("910B") if p.name != "outline_incore_scopes"]
    program = PassManager(passes, verify=True).run(_program(EXAMPLE))
    assert verify_tile_memory_inferred(program) == []
    main = program.get("main")
    assert main is not None
    (mm,) = [c for c in _calls(main) if c.op_name == "tile.matmul"]
    assert [_space(a) for a in mm.args] == [MemorySpace.Left, MemorySpace.Right]


# A hand-written program: an Orchestration function's matmul reads two Vec tiles, with no scope
# around it (nothing outlines it, nothing moves its operands).
HAND_WRITTEN = """import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]
             ) -> pl.Tensor[[16, 16], pl.FP32]:
        t: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Vec] = pl.tile.load(
            a, [0, 0], [16, 16], [16, 16], target_memory=pl.MemorySpace.Vec)
        m: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Acc] = pl.tile.matmul(t, t)
        out = pl.tile.store(m, [0, 0], out)
        return out
"""


def test_verify_rejects_a_misplaced_tile_op_outside_incore() -> None:
    program = pl.parse(HAND_WRITTEN)
    assert isinstance(program, Program)
    errors = verify_tile_memory_inferred(program)
    assert [(e.span.line if e.span else 0, e.message) for e in errors] == [
        (11, f"Orchestration function 'main': Op 'tile.matmul' input {i} ('t') requires "
             f"{space} but is in Vec") for i, space in ((0, "Left"), (1, "Right"))]
    with pytest.raises(PlError, match="'tile.matmul' input 0 .'t'. requires Left but is in Vec"):
        pl.passes.verify_tile_memory_inferred(program)
    # Compiling places them: inference transforms every function that holds tile ops
    # (docs/compatibility.md), so the matmul reads Left/Right moves of t.
    compiled = pl.compile(program, backend="910B", verify=True).program
    main = compiled.get("main")
    assert main is not None
    (mm,) = [c for c in _calls(main) if c.op_name == "tile.matmul"]
    assert [_space(a) for a in mm.args] == [MemorySpace.Left, MemorySpace.Right]
