"""Memory-space inference on DSL programs: every scenario of pass.md section 8 (phases 0-3).

Each case in tests/infer_cases/cases.py is parsed twice (Before, Expected; the Before with its
nested calls flattened, as the pipeline's flatten_call_expr does before inference); the pass output must be
structurally equal to Expected, insert exactly the listed moves (by name, in order), log the listed
decisions, be idempotent, and satisfy the TileMemoryInferred verifier.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from infer_cases.cases import CASES, Case

import pl  # noqa: F401  (the package runs before any of its modules, lowering.frontend.parse included)
from pl.infer.memory_space import infer_tile_memory_space
from pl.infer.verifier import verify_tile_memory_inferred
from pl.ir import AssignStmt, Call, MemorySpace, Program, flatten_body, make_body
from pl.ir.stmt import ForStmt, IfStmt, Stmt
from pl.lowering.flatten_call import flatten_call_expr
from pl.lowering.frontend import parse as text
from pl.structural import assert_structural_equal
from pl.typecheck import verify_well_typed


def parse_program(src: str) -> Program:
    prog = text.parse(src, "<case>")
    assert isinstance(prog, Program)
    return prog


def with_dump_vars(prog: Program, names: tuple[str, ...]) -> Program:
    """Attach `dump_vars=[...]` (the named values) to the function's tile.matmul call."""
    f = prog.functions[0]
    stmts = flatten_body(f.body)
    defs = {s.var.name: s.var for s in stmts if isinstance(s, AssignStmt)}
    new = []
    for s in stmts:
        if isinstance(s, AssignStmt) and isinstance(s.value, Call) and s.value.op_name == "tile.matmul":
            attrs = (("dump_vars", tuple(defs[n] for n in names)),)
            s = replace(s, value=replace(s.value, attrs=attrs))
        new.append(s)
    return replace(prog, functions=(replace(f, body=make_body(new)),))


def assigned_names(stmt: Stmt) -> list[str]:
    out: list[str] = []
    for s in flatten_body(stmt):
        match s:
            case AssignStmt(var=v):
                out.append(v.name)
            case ForStmt(body=b):
                out += assigned_names(b)
            case IfStmt(then_body=t, else_body=e):
                out += assigned_names(t) + (assigned_names(e) if e is not None else [])
    return out


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_case(case: Case) -> None:
    before = flatten_call_expr(parse_program(case.source("Before")))
    expected = parse_program(case.source("Expected"))
    if case.dump_vars is not None:
        before = with_dump_vars(before, case.dump_vars[0])
        expected = with_dump_vars(expected, case.dump_vars[1])
    after, log = infer_tile_memory_space(before, case.backend)
    assert_structural_equal(after, expected)
    if case.dump_vars is not None:
        mm = next(s for s in flatten_body(after.functions[0].body) if isinstance(s, AssignStmt)
                  and isinstance(s.value, Call) and s.value.op_name == "tile.matmul")
        assert isinstance(mm.value, Call)
        assert [v.name for v in mm.value.attr("dump_vars")] == list(case.dump_vars[1])
    assert tuple(m.name for m in log.moves) == case.moves
    main = after.get("main")
    assert main is not None
    names = assigned_names(main.body)
    for m in case.moves:
        assert m in names or m.startswith("tile.move("), m  # (a move in place binds no name)
    for name, space, kind in case.decisions:
        decs = [d for d in log.spaces if d.name == name and d.function == "main"]
        assert decs, name
        dec = decs[-1]
        assert (dec.space.name if dec.space else "None", dec.reason.kind) == (space, kind), name
    # Idempotence: a second run changes nothing and inserts nothing.
    again, log2 = infer_tile_memory_space(after, case.backend)
    assert_structural_equal(again, after)
    assert log2.moves == ()
    # A divergent phi keeps no space, but the verifier only checks AssignStmt LHS (pass.md 5).
    assert len(verify_tile_memory_inferred(after)) == case.verifier_errors
    # the pass output re-type-checks (pl.typecheck), whatever the case's Before looked like
    assert [e.message for e in verify_well_typed(after)] == []


def test_move_decisions_name_consumer_and_span() -> None:
    case = next(c for c in CASES if c.name == "matmul_gets_acc")
    after, log = infer_tile_memory_space(parse_program(case.source("Before")))
    left = log.moves[0]
    assert (left.producer, left.target.name, left.consumer_op, left.arg_index) == \
        ("x_tile", "Left", "tile.matmul", 0)
    # The consumer is line 10 of the generated source (the matmul line).
    src_lines = case.source("Before").splitlines()
    assert "pl.matmul" in src_lines[left.span.line - 1]
    assert left.span.filename == "<case>"


SEED_BEFORE = '''import pl
# backend: none
# ssa: no

@pl.program
class Before:
    @pl.function(type=pl.FunctionType.InCore)
    def main_incore_0(
        self,
        x: pl.Tensor[[16, 128], pl.BF16],
        y: pl.Tensor[[128, 128], pl.BF16],
        out_0: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        x_tile: pl.Tile[[16, 128], pl.BF16] = pl.load(x, [0, 0], [16, 128])
        y_tile: pl.Tile[[128, 128], pl.BF16] = pl.load(y, [0, 0], [128, 128])
        z_tile: pl.Tile[[16, 128], pl.FP32] = pl.matmul(x_tile, y_tile)
        out_0: pl.Tensor[[16, 128], pl.FP32] = pl.store(z_tile, [0, 0], out_0)
        return out_0
'''

# reference-output/seed_general.after.py, with `self` and `import pl`.
SEED_AFTER = '''# pypto.program: Before
import pl

@pl.program
class Before:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def main_incore_0(self, x: pl.Tensor[[16, 128], pl.BF16], y: pl.Tensor[[128, 128], pl.BF16], out_0: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
        x_tile: pl.Tile[[16, 128], pl.BF16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 128], [16, 128], target_memory=pl.Mem.Vec)
        y_tile: pl.Tile[[128, 128], pl.BF16, pl.Mem.Vec] = pl.tile.load(y, [0, 0], [128, 128], [128, 128], target_memory=pl.Mem.Vec)
        x_tile_Left: pl.Tile[[16, 128], pl.BF16, pl.Mem.Left] = pl.tile.move(x_tile, target_memory=pl.Mem.Left)
        y_tile_Right: pl.Tile[[128, 128], pl.BF16, pl.Mem.Right] = pl.tile.move(y_tile, target_memory=pl.Mem.Right)
        z_tile: pl.Tile[[16, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(x_tile_Left, y_tile_Right)
        out_0: pl.Tensor[[16, 128], pl.FP32] = pl.tile.store(z_tile, [0, 0], out_0)
        return out_0
'''


def test_seed_general_example() -> None:
    after, log = infer_tile_memory_space(parse_program(SEED_BEFORE))
    assert_structural_equal(after, parse_program(SEED_AFTER))
    assert [m.name for m in log.moves] == ["x_tile_Left", "y_tile_Right"]
    f = after.get("main_incore_0")
    assert f is not None
    stmts = flatten_body(f.body)
    moved = [s.var.name for s in stmts if isinstance(s, AssignStmt) and isinstance(s.value, Call)
             and s.value.op_name == "tile.move"]
    assert moved == ["x_tile_Left", "y_tile_Right"]
    assert "x_tile -> Vec (target_memory kwarg of tile.load (as written, or the DSL default Vec))" in log.format()


ORCH = '''import pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, a: pl.Tensor[[16, 128], pl.FP32], b: pl.Tensor[[16, 128], pl.FP32]) -> pl.Tensor[[16, 128], pl.FP32]:
        c: pl.Tensor[[16, 128], pl.FP32] = pl.add(a, b)
        return c
'''


def test_orchestration_unchanged() -> None:
    before = parse_program(ORCH)
    after, log = infer_tile_memory_space(before)
    assert_structural_equal(after, before)
    assert after.functions[0] is before.functions[0]
    assert log.spaces == () and log.moves == ()


MAT_ADD = '''import pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.{kind})
    def main(self, x: pl.Tensor[[16, 128], pl.FP32], out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
        t: pl.Tile[[16, 128], pl.FP32] = pl.load(x, [0, 0], [16, 128], target_memory=pl.MemorySpace.Mat)
        s: pl.Tile[[16, 128], pl.FP32] = pl.add(t, t)
        r: pl.Tensor[[16, 128], pl.FP32] = pl.store(s, [0, 0], out)
        return r
'''


def _move_kwargs(prog: Program) -> dict[str, object]:
    for s in flatten_body(prog.functions[0].body):
        if isinstance(s, AssignStmt) and isinstance(s.value, Call) and s.value.op_name == "tile.move":
            return {k: (v.name if hasattr(v, "name") else v) for k, v in s.value.kwargs}
    raise AssertionError("no move")


@pytest.mark.parametrize("backend,kwargs,view", [
    (None, {"target_memory": "Vec"}, ("col_major", "row_major")),
    ("910B", {"target_memory": "Vec", "blayout": "row_major", "slayout": "none_box"}, None),
    ("950", {"target_memory": "Vec", "blayout": "row_major", "slayout": "none_box"}, None),
])
def test_backend_input_layouts_on_inserted_move(backend: str | None, kwargs: dict[str, str],
                                                view: tuple[str, str] | None) -> None:
    after, log = infer_tile_memory_space(parse_program(MAT_ADD.format(kind="InCore")), backend)
    assert _move_kwargs(after) == kwargs
    move = next(s for s in flatten_body(after.functions[0].body)
                if isinstance(s, AssignStmt) and s.var.name == "t_Vec")
    t = move.var.type
    got = None if t.view is None else (t.view.blayout.name, t.view.slayout.name)  # type: ignore[attr-defined]
    assert got == view


@pytest.mark.parametrize("kind", ["AIC", "AIV"])
def test_aic_and_aiv_functions_are_transformed(kind: str) -> None:
    after, log = infer_tile_memory_space(parse_program(MAT_ADD.format(kind=kind)))
    assert [m.name for m in log.moves] == ["t_Vec"]
    assert verify_tile_memory_inferred(after) == []


def test_opaque_function_holding_tile_ops_is_placed() -> None:
    """Inference places the tiles of every function that holds tile ops (docs/compatibility.md):
    an Opaque function's Vec add needs no move, its unplaced tiles get Vec."""
    before = parse_program(MAT_ADD.format(kind="Opaque").replace("pl.MemorySpace.Mat", "pl.MemorySpace.Vec"))
    after, log = infer_tile_memory_space(before)
    assert log.moves == () and verify_tile_memory_inferred(after) == []


def test_function_without_tile_ops_passes_through() -> None:
    plain = parse_program('''import pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 128], pl.FP32]) -> pl.Tensor[[16, 128], pl.FP32]:
        y = pl.add(x, x)
        return y
''')
    after, log = infer_tile_memory_space(plain)
    assert after.functions[0] is plain.functions[0] and log.moves == ()


@pytest.mark.parametrize("kind", ["Opaque", "Orchestration"])
def test_misplaced_operand_outside_incore_functions_gets_its_move(kind: str) -> None:
    # A Mat tile given to an op that takes Vec, in a function holding tile ops of any kind: the
    # verifier refuses it as written, and inference moves it (as in an InCore function) rather
    # than refusing the kernel.
    before = parse_program(MAT_ADD.format(kind=kind))
    errors = verify_tile_memory_inferred(before)
    assert [e.message for e in errors] == [
        f"{kind} function 'main': Op 'tile.add' input {i} ('t') requires Vec but is in Mat"
        for i in (0, 1)]
    after, log = infer_tile_memory_space(before)
    assert [m.name for m in log.moves] == ["t_Vec"]
    assert verify_tile_memory_inferred(after) == []


NESTED_API = '''import pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def main(self, x: pl.Tensor[[16, 16], pl.BF16], y: pl.Tensor[[16, 16], pl.BF16],
             out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        a = pl.load(x, [0, 0], [16, 16])
        b = pl.load(y, [0, 0], [16, 16])
        c = pl.exp(pl.matmul(a, b))
        out = pl.store(c, [0, 0], out)
        return out
'''


def test_a_call_nested_through_the_pass_level_api_gets_its_moves_where_it_stands() -> None:
    """`pl.parse` keeps `pl.exp(pl.matmul(a, b))` nested as written (as the reference's parser
    does; the pipeline's flatten_call_expr gives the matmul a statement of its own). Inference
    run on it through the pass-level API moves the matmul's operands before the statement and
    its Acc result to Vec where it stands, inside the exp call; the printed result reads back
    as the same program."""
    before = parse_program(NESTED_API)
    ex = flatten_body(before.functions[0].body)[2]
    assert isinstance(ex, AssignStmt) and isinstance(ex.value, Call)
    assert isinstance(ex.value.args[0], Call) and ex.value.args[0].op_name == "tile.matmul"
    after, log = infer_tile_memory_space(before)
    assert [m.name for m in log.moves] == ["a_Left", "b_Right", "tile.move(tile.matmul)"]
    exp = next(s for s in flatten_body(after.functions[0].body)
               if isinstance(s, AssignStmt) and isinstance(s.value, Call)
               and s.value.op_name == "tile.exp")
    assert isinstance(exp.value, Call)
    move = exp.value.args[0]
    assert isinstance(move, Call) and move.op_name == "tile.move"
    assert move.kwarg("target_memory") is MemorySpace.Vec
    assert isinstance(move.args[0], Call) and move.args[0].op_name == "tile.matmul"
    assert verify_tile_memory_inferred(after) == []
    assert [e.message for e in verify_well_typed(after, placed=True)] == []
    assert_structural_equal(parse_program(after.as_python()), after)
    again, log2 = infer_tile_memory_space(after)
    assert_structural_equal(again, after)
    assert log2.moves == ()
