"""Structural equality and hashing (pl/structural.py) against dsl.md section 5.

Each difference case builds two programs from one builder with one knob turned, and checks the
reported path (reference format: `['fn'].body[i].field...`, SeqStmts transparent) and reason.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from pl.ir import (
    AssignStmt,
    BinaryExpr,
    Call,
    ConstInt,
    DType,
    EvalStmt,
    Expr,
    ForKind,
    ForStmt,
    Function,
    FunctionType,
    IfStmt,
    IterArg,
    MakeTuple,
    MemorySpace,
    Op,
    ParamDirection,
    Program,
    ReturnStmt,
    ScalarType,
    SeqStmts,
    Span,
    Stmt,
    TensorType,
    TileType,
    TileView,
    UnknownType,
    Var,
    YieldStmt,
    make_body,
)
from pl.ir.operators import BinaryOp
from pl.structural import assert_structural_equal, structural_equal, structural_hash

INDEX, FP32 = DType.INDEX, DType.FP32


def c(v: int, dt: DType = INDEX) -> ConstInt:
    return ConstInt(v, dt)


@dataclass
class Knobs:
    """What the builder varies; the defaults build the reference program."""

    names: str = ""                       # suffix for every Var name (renaming must not matter)
    const: int = 0
    const_dtype: DType = INDEX
    op: str = "tile.add"
    second_arg_const: bool = False
    offsets: tuple[int, ...] = (0, 0)
    kwargs_order: bool = False
    target: MemorySpace = MemorySpace.Vec
    space: MemorySpace | None = MemorySpace.Vec
    view: TileView | None = None
    kind: ForKind = ForKind.Sequential
    param_dtype: DType = INDEX
    fname: str = "main"
    swap_use: bool = False
    with_else: bool = True
    direction: ParamDirection = ParamDirection.Out
    comments: tuple[str, ...] = ()
    span: Span = field(default_factory=lambda: Span("<k>", 1, 1))
    extra_kwarg: bool = False


def build(k: Knobs) -> Program:
    n = k.names
    tt = TileType((c(16), c(16)), FP32, k.space, k.view)
    src = Var("src" + n, TensorType((c(16), c(16)), FP32))
    out = Var("out" + n, TensorType((c(16), c(16)), FP32))
    s = Var("s" + n, ScalarType(k.param_dtype))
    t0, t1 = Var("t0" + n, tt), Var("t1" + n, tt)
    kwargs: list[tuple[str, Any]] = [("target_memory", k.target), ("clamp", False)]
    if k.kwargs_order:
        kwargs.reverse()
    if k.extra_kwarg:
        kwargs.append(("extra", 1))
    load = Call(Op("tile.load"), (src, MakeTuple(tuple(c(o) for o in k.offsets)), MakeTuple((c(16), c(16)))),
                tuple(kwargs), result_type=tt)
    second: Expr = c(1) if k.second_arg_const else (s if k.swap_use else t0)
    i = Var("i" + n, ScalarType(INDEX))
    acc = IterArg("acc" + n, tt, init=t0)
    acc_out = Var("acc_out" + n, tt)
    loop = ForStmt(i, c(k.const, k.const_dtype), c(4), c(1), (acc,),
                   make_body([AssignStmt(t1, Call(Op(k.op), (acc, second), result_type=tt)), YieldStmt((t1,))]),
                   (acc_out,), k.kind)
    cond = BinaryExpr(BinaryOp.Lt, s, c(2), DType.BOOL)
    branch = IfStmt(cond, EvalStmt(Call(Op("system.fence"), ())), ReturnStmt() if k.with_else else None)
    body: list[Stmt] = [
        AssignStmt(t0, load, comments=k.comments, span=k.span),
        loop,
        branch,
        AssignStmt(out, Call(Op("tile.store"), (acc_out, MakeTuple((c(0), c(0))), out), result_type=out.type)),
        ReturnStmt((out,)),
    ]
    f = Function(k.fname, (src, out, s), (ParamDirection.In, k.direction, ParamDirection.In), (out.type,),
                 make_body(body), FunctionType.InCore)
    return Program("P" + n, (f,))


def test_equal_under_renaming_spans_comments_and_kwarg_order() -> None:
    a = build(Knobs())
    b = build(Knobs(names="_other", comments=("note",), span=Span("<x>", 9, 9), kwargs_order=True))
    assert structural_equal(a, b)
    assert_structural_equal(a, b)
    assert structural_hash(a) == structural_hash(b)
    assert structural_equal(a, a)


def test_index_and_int64_constants_compare_equal() -> None:
    assert structural_equal(build(Knobs()), build(Knobs(const_dtype=DType.INT64)))
    assert structural_hash(build(Knobs())) == structural_hash(build(Knobs(const_dtype=DType.INT64)))


DIFFERENCES: list[tuple[str, Knobs, str, str]] = [
    ("const", Knobs(const=1), "['main'].body[1].start", "Integer value mismatch (0 != 1)"),
    ("op", Knobs(op="tile.sub"), "['main'].body[1].body[0].value",
     "Operator name mismatch ('tile.add' != 'tile.sub')"),
    ("node-type", Knobs(second_arg_const=True), "['main'].body[1].body[0].value.args[1]",
     "Node type mismatch (Var != ConstInt)"),
    ("vector-size", Knobs(offsets=(0, 0, 0)), "['main'].body[0].value.args[1].elements",
     "Vector size mismatch (2 items != 3 items)"),
    ("kwarg", Knobs(target=MemorySpace.Mat), "['main'].body[0].value.kwargs['target_memory']",
     "Kwargs value mismatch for key 'target_memory'"),
    ("kwarg-key", Knobs(extra_kwarg=True), "['main'].body[0].value.kwargs", "Kwargs key mismatch"),
    ("memory-space", Knobs(space=MemorySpace.Mat), "['main'].body[0].var.type",
     "TileType memory_space mismatch"),
    ("view", Knobs(view=TileView(valid_shape=(c(8), c(16)))), "['main'].body[0].var.type.view",
     "TileType tile_view presence mismatch"),
    ("for-kind", Knobs(kind=ForKind.Parallel), "['main'].body[1]", "ForKind mismatch (Sequential != Parallel)"),
    ("dtype", Knobs(param_dtype=FP32), "['main'].params[2].type", "ScalarType dtype mismatch (index != fp32)"),
    ("map-key", Knobs(fname="other"), "", "Map key mismatch ('main' != 'other')"),
    ("use-mapping", Knobs(swap_use=True), "['main'].body[1].body[0].value.args[1]",
     "Variable mapping mismatch"),
    ("else", Knobs(with_else=False), "['main'].body[2].else_body", "IfStmt else_body presence mismatch"),
    ("direction", Knobs(direction=ParamDirection.InOut), "['main'].directions[1]",
     "ParamDirection mismatch (Out != InOut)"),
]


@pytest.mark.parametrize(("knobs", "path", "reason"), [d[1:] for d in DIFFERENCES], ids=[d[0] for d in DIFFERENCES])
def test_difference_reports_path_and_reason(knobs: Knobs, path: str, reason: str) -> None:
    a, b = build(Knobs()), build(knobs)
    assert not structural_equal(a, b)
    with pytest.raises(AssertionError) as info:
        assert_structural_equal(a, b)
    msg = str(info.value)
    head, _, rest = msg.partition("\n\n")
    assert head == f"Structural equality assertion failed at: {path or '<root>'}"
    lines = rest.splitlines()
    assert lines[0].startswith("Left: ") and lines[1].startswith("Right: ")
    assert lines[2].startswith(f"Reason: {reason}")


def test_message_shows_both_sides() -> None:
    with pytest.raises(AssertionError) as info:
        assert_structural_equal(build(Knobs()), build(Knobs(const=1)))
    assert str(info.value) == ("Structural equality assertion failed at: ['main'].body[1].start\n\n"
                               "Left: 0\nRight: 1\nReason: Integer value mismatch (0 != 1)")


def test_use_mapped_to_a_different_var_is_a_mismatch() -> None:
    # Both sides use a Var of the same type, but the left uses param x where the right uses param y.
    def prog(swap: bool) -> Function:
        x, y = Var("x", ScalarType(INDEX)), Var("y", ScalarType(INDEX))
        return Function("f", (x, y), (ParamDirection.In,) * 2, (ScalarType(INDEX),),
                        ReturnStmt((y if swap else x,)))
    with pytest.raises(AssertionError, match=r"(?s)at: body.values\[0\].*Variable mapping mismatch"):
        assert_structural_equal(prog(False), prog(True))


FREE = Var("free", ScalarType(INDEX))


def _free_user(free: Var) -> Function:
    r = Var("r", ScalarType(INDEX))
    return Function("f", (), (), (ScalarType(INDEX),),
                    make_body([AssignStmt(r, BinaryExpr(BinaryOp.Add, free, c(1), INDEX)), ReturnStmt((r,))]))


def test_free_vars_need_identity_unless_auto_mapping() -> None:
    other = Var("free", ScalarType(INDEX))
    assert structural_equal(_free_user(FREE), _free_user(FREE))
    assert not structural_equal(_free_user(FREE), _free_user(other))
    with pytest.raises(AssertionError, match="Variable pointer mismatch \\(without auto-mapping\\)"):
        assert_structural_equal(_free_user(FREE), _free_user(other))
    assert structural_equal(_free_user(FREE), _free_user(other), auto_mapping=True)


def test_dynamic_dims_map_bijectively() -> None:
    def prog(m: Var, n: Var) -> Function:
        p = Var("p", TensorType((m, n), FP32))
        return Function("f", (p,), (ParamDirection.In,), (UnknownType(),), ReturnStmt((p,)))
    m1, n1, m2, n2 = (Var(s, ScalarType(INDEX)) for s in "MNMN")
    assert structural_equal(prog(m1, n1), prog(m2, n2))
    assert not structural_equal(prog(m1, m1), prog(m2, n2))


def _long_body(n: int, last: int) -> Function:
    x = Var("x", ScalarType(INDEX))
    stmts: list[Stmt] = [AssignStmt(x, BinaryExpr(BinaryOp.Add, x, c(1), INDEX)) for _ in range(n - 1)]
    stmts.append(AssignStmt(x, c(last)))
    return Function("f", (x,), (ParamDirection.In,), (), make_body(stmts))


def test_twenty_thousand_statements() -> None:
    a, b = _long_body(20000, 0), _long_body(20000, 0)
    assert isinstance(a.body, SeqStmts)
    last = a.body.stmts[-1]
    assert isinstance(last, AssignStmt)
    changed = SeqStmts((*a.body.stmts[:-1], AssignStmt(last.var, c(1))))
    last_differs = Function("f", a.params, a.directions, (), changed)
    start = time.perf_counter()
    assert structural_equal(a, b)
    assert structural_hash(a) == structural_hash(b)
    with pytest.raises(AssertionError, match=r"at: body\[19999\].value"):
        assert_structural_equal(a, last_differs)
    assert time.perf_counter() - start < 10


HASH_DIFFERS: list[Callable[[], tuple[Any, Any]]] = [
    lambda: (build(Knobs()), build(Knobs(const=1))),
    lambda: (build(Knobs()), build(Knobs(op="tile.sub"))),
    lambda: (build(Knobs()), build(Knobs(space=MemorySpace.Mat))),
]


@pytest.mark.parametrize("pair", HASH_DIFFERS)
def test_hash_tells_these_apart(pair: Callable[[], tuple[Any, Any]]) -> None:
    a, b = pair()
    assert structural_hash(a) != structural_hash(b)
