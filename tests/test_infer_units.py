"""Memory-space inference on hand-built IR: what the DSL cannot express, the verifier's two rules,
the decision log's forms, the residency hook and parameter errors."""

from __future__ import annotations

import json
from typing import Any

import pytest

from pl.errors import PlError
from pl.infer.decisions import DecisionLog, MoveDecision, Reason, SpaceDecision
from pl.infer.memory_space import infer_tile_memory_space
from pl.infer.residency.hook import BRIDGE_MARKER
from pl.infer.verifier import verify_tile_memory_inferred
from pl.ir import (
    AssignStmt,
    Call,
    DType,
    EvalStmt,
    Expr,
    Function,
    FunctionType,
    MakeTuple,
    MemorySpace,
    Op,
    ParamDirection,
    Program,
    ReturnStmt,
    SeqStmts,
    Span,
    Stmt,
    TensorType,
    TileLayout,
    TileType,
    Var,
    const_index,
    flatten_body,
)
from pl.ops.backend import capacity, check_backend, input_layouts

S16 = (const_index(16), const_index(128))
S128 = (const_index(128), const_index(128))


def tup(*v: int) -> MakeTuple:
    return MakeTuple(tuple(const_index(x) for x in v))


def span(line: int) -> Span:
    return Span("k.py", line, 9)


def tensor(name: str, shape: tuple[Expr, ...] = S16, dt: DType = DType.BF16) -> Var:
    return Var(name, TensorType(shape, dt), span=span(1))


def load(lhs: Var, src: Var, kwargs: tuple[tuple[str, Any], ...] = (),
         attrs: tuple[tuple[str, Any], ...] = (), line: int = 2) -> AssignStmt:
    t = lhs.type
    assert isinstance(t, TileType)
    space = dict(kwargs).get("target_memory")
    call = Call(Op("tile.load"), (src, tup(0, 0), MakeTuple(t.shape), MakeTuple(t.shape)), kwargs, attrs,
                TileType(t.shape, t.dtype, space), span=span(line))
    return AssignStmt(lhs, call, span=span(line))


def function(body: list[Stmt], params: tuple[Var, ...], kind: FunctionType = FunctionType.InCore) -> Program:
    f = Function("k", params, tuple(ParamDirection.In for _ in params), (), SeqStmts(tuple(body)), kind)
    return Program("P", (f,))


def matmul_program(kwargs: tuple[tuple[str, Any], ...]) -> tuple[Program, Var]:
    x, y, o = tensor("x"), tensor("y", S128), tensor("o", dt=DType.FP32)
    xt = Var("x_tile", TileType(S16, DType.BF16), span=span(2))
    yt = Var("y_tile", TileType(S128, DType.BF16), span=span(3))
    z = Var("z", TileType(S16, DType.FP32), span=span(4))
    r = Var("r", o.type, span=span(5))
    body = [load(xt, x, kwargs, line=2), load(yt, y, kwargs, line=3),
            AssignStmt(z, Call(Op("tile.matmul"), (xt, yt), (), (), TileType(S16, DType.FP32, MemorySpace.Acc),
                                span=span(4)), span=span(4)),
            AssignStmt(r, Call(Op("tile.store"), (z, tup(0, 0), o), (), (), o.type, span=span(5)), span=span(5)),
            ReturnStmt((r,))]
    return function(body, (x, y, o)), xt


def test_retargetable_load_without_kwarg_clamps_left_demand_to_vec() -> None:
    prog, _ = matmul_program(())
    after, log = infer_tile_memory_space(prog)
    stmts = flatten_body(after.functions[0].body)
    first = stmts[0]
    assert isinstance(first, AssignStmt) and isinstance(first.value, Call)
    # Left is not a DDR-facing space: the load stays Vec (appended kwarg) and a move follows.
    assert first.value.kwargs == (("target_memory", MemorySpace.Vec),)
    assert first.var.type == TileType(S16, DType.BF16, MemorySpace.Vec)
    assert [m.name for m in log.moves] == ["x_tile_Left", "y_tile_Right"]
    assert [d.reason.kind for d in log.spaces if d.name == "x_tile"] == ["default"]


def test_bridge_marker_stripped_other_attrs_kept() -> None:
    kwargs = (("target_memory", MemorySpace.Mat),)
    x, o = tensor("x"), tensor("o", dt=DType.FP32)
    xt = Var("x_tile", TileType(S16, DType.BF16), span=span(2))
    prog = function([load(xt, x, kwargs, ((BRIDGE_MARKER, True), ("sentinel", 7))),
                     ReturnStmt((o,))], (x, o))
    after, _ = infer_tile_memory_space(prog)
    first = flatten_body(after.functions[0].body)[0]
    assert isinstance(first, AssignStmt) and isinstance(first.value, Call)
    assert first.value.attrs == (("sentinel", 7),)
    # Non-InCore functions are stripped too.
    opaque = function([EvalStmt(Call(Op("tile.load"), (x,), (), ((BRIDGE_MARKER, True),)))], (x,),
                      FunctionType.Opaque)
    after2, _ = infer_tile_memory_space(opaque)
    only = flatten_body(after2.functions[0].body)[0]
    assert isinstance(only, EvalStmt) and isinstance(only.expr, Call) and only.expr.attrs == ()


def test_tile_parameter_keeps_its_space_or_becomes_vec() -> None:
    # docs/tile_params.md: a named space is kept as it is; none means Vec, in the signature too.
    mat = Var("m", TileType(S16, DType.FP32, MemorySpace.Mat), span=span(3))
    bare = Var("t", TileType(S16, DType.FP32), span=span(3))
    after, log = infer_tile_memory_space(function([ReturnStmt(())], (mat, bare), FunctionType.AIV))
    placed = after.functions[0].params
    assert placed[0] is mat
    assert isinstance(placed[1].type, TileType) and placed[1].type.memory_space is MemorySpace.Vec
    assert [(s.name, s.reason.kind) for s in log.spaces] == [("m", "parameter"),
                                                              ("t", "parameter_default")]


def test_tile_parameter_in_ddr_is_a_located_error() -> None:
    p = Var("t", TileType(S16, DType.FP32, MemorySpace.DDR), span=span(3))
    prog = function([ReturnStmt(())], (p,), FunctionType.AIV)
    with pytest.raises(PlError) as info:
        infer_tile_memory_space(prog)
    assert info.value.span == span(3)
    assert "'t'" in info.value.message and "DDR" in info.value.message


def test_unknown_backend_rejected() -> None:
    with pytest.raises(PlError):
        check_backend("910C")
    prog, _ = matmul_program(())
    with pytest.raises(PlError):
        infer_tile_memory_space(prog, "a5")


@pytest.mark.parametrize("backend,op,expected", [
    (None, "tile.add", {}),
    ("910B", "tile.add", {0: TileLayout.row_major, 1: TileLayout.row_major}),
    ("950", "tile.sel", {i: TileLayout.row_major for i in range(4)}),
    ("910B", "tile.cast", {0: TileLayout.row_major}),
    ("910B", "tile.neg", {}),
    ("910B", "tile.matmul", {}),
])
def test_input_layout_table(backend: str | None, op: str, expected: dict[int, TileLayout]) -> None:
    assert input_layouts(backend, op) == expected


@pytest.mark.parametrize("backend,space,size", [
    ("910B", MemorySpace.Acc, 131072), ("950", MemorySpace.Acc, 262144),
    ("910B", MemorySpace.LeftScale, 0), ("950", MemorySpace.Vec, 245760), (None, MemorySpace.Mat, 0),
])
def test_capacities(backend: str | None, space: MemorySpace, size: int) -> None:
    assert capacity(backend, space) == size


# -- verifier -------------------------------------------------------------------------------------

def test_verifier_rule_1_tile_without_space() -> None:
    x = tensor("x")
    xt = Var("x_tile", TileType(S16, DType.BF16), span=span(4))
    prog = function([load(xt, x, (), line=4), ReturnStmt(())], (x,))
    errors = verify_tile_memory_inferred(prog)
    assert [e.message for e in errors] == [
        "InCore function 'k': TileType variable 'x_tile' has no memory_space set"]
    assert errors[0].span == span(4)


def test_verifier_rule_2_space_not_allowed() -> None:
    x, y = tensor("x"), tensor("y", S128)
    xt = Var("x_tile", TileType(S16, DType.BF16, MemorySpace.Vec), span=span(2))
    yt = Var("y_tile", TileType(S128, DType.BF16, MemorySpace.Right), span=span(3))
    z = Var("z", TileType(S16, DType.FP32, MemorySpace.Acc), span=span(6))
    call = Call(Op("tile.matmul"), (xt, yt), (), (), z.type, span=Span("k.py", 6, 13))
    prog = function([load(xt, x, (("target_memory", MemorySpace.Vec),)),
                     load(yt, y, (("target_memory", MemorySpace.Vec),)),
                     AssignStmt(z, call, span=span(6)), ReturnStmt(())], (x, y))
    errors = verify_tile_memory_inferred(prog)
    assert [e.message for e in errors] == [
        "InCore function 'k': Op 'tile.matmul' input 0 ('x_tile') requires Left but is in Vec"]
    assert errors[0].span == Span("k.py", 6, 13)


def test_verifier_store_lists_all_allowed_spaces_in_every_function_kind() -> None:
    x, o = tensor("x"), tensor("o", dt=DType.BF16)
    xt = Var("x_tile", TileType(S16, DType.BF16, MemorySpace.Mat), span=span(2))
    store = Call(Op("tile.store"), (xt, tup(0, 0), o), (), (), o.type, span=span(3))
    body = [load(xt, x, (("target_memory", MemorySpace.Mat),)), EvalStmt(store, span=span(3))]
    errors = verify_tile_memory_inferred(function(body, (x, o)))
    assert [e.message for e in errors] == [
        "InCore function 'k': Op 'tile.store' input 0 ('x_tile') requires Vec/Acc but is in Mat"]
    # Outside the functions inference places nothing moves the tile: checked all the same.
    errors = verify_tile_memory_inferred(function(body, (x, o), FunctionType.Orchestration))
    assert [e.message for e in errors] == [
        "Orchestration function 'k': Op 'tile.store' input 0 ('x_tile') requires Vec/Acc but is "
        "in Mat"]


def test_verifier_accepts_the_pass_output() -> None:
    prog, _ = matmul_program(())
    assert len(verify_tile_memory_inferred(prog)) == 3  # three unplaced tiles
    after, _ = infer_tile_memory_space(prog)
    assert verify_tile_memory_inferred(after) == []


# -- decision log ---------------------------------------------------------------------------------

def test_decision_log_format_and_json() -> None:
    prog, _ = matmul_program((("target_memory", MemorySpace.Vec),))
    _, log = infer_tile_memory_space(prog)
    lines = log.format().splitlines()
    assert lines == [
        "k.py:2: x_tile -> Vec (target_memory kwarg of tile.load (as written, or the DSL default Vec))",
        "k.py:3: y_tile -> Vec (target_memory kwarg of tile.load (as written, or the DSL default Vec))",
        "k.py:4: z -> Acc (fixed output space of tile.matmul)",
        "k.py:4: x_tile_Left -> Left (move of x_tile for tile.matmul argument 0)",
        "k.py:4: y_tile_Right -> Right (move of y_tile for tile.matmul argument 1)",
    ]
    data = json.loads(json.dumps(log.to_json()))
    assert data["moves"][1] == {"function": "k", "name": "y_tile_Right", "producer": "y_tile",
                                "target": "Right", "consumer_op": "tile.matmul", "arg_index": 1,
                                "file": "k.py", "line": 4}
    assert data["spaces"][2]["reason"] == {"kind": "fixed_output", "op": "tile.matmul"}
    assert data["residency"] == [] and log.residency == ()


@pytest.mark.parametrize("reason,text", [
    (Reason("demand", op="tile.matmul", arg_index=0), "demand from tile.matmul argument 0"),
    (Reason("inherited", op="tile.slice", var="t"), "inherited from input t of tile.slice"),
    (Reason("loop_backprop", var="c"), "loop back-propagation from yielded c"),
    (Reason("alias", var="x"), "SSA alias of x"),
    (Reason("call_result", op="tile.tpop"), "result type of tile.tpop"),
    (Reason("default"), "default (Vec)"),
])
def test_reason_descriptions(reason: Reason, text: str) -> None:
    d = SpaceDecision("f", "v", MemorySpace.Vec, reason, span(7))
    assert d.format() == f"k.py:7: v -> Vec ({text})"
    log = DecisionLog((d,), (MoveDecision("f", "v_Left", "v", MemorySpace.Left, "tile.matmul", span(8)),))
    assert log.format().splitlines()[0] == d.format()
