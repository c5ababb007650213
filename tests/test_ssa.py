"""SSA conversion (lowering/ssa/convert.py) against the reference's ConvertToSSA.

Non-SSA IR is built by hand the way the frontend emits it (dsl.md 2: a rebound name re-uses its
Var object; loops and ifs rebind outer names without init_values/yields). Expected names follow
convert_to_ssa_pass.cpp: one counter per source Var; for a loop the counters advance for the
carried iter args and return vars (sorted by name), then escaping ones, then the loop var, then
the body.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import pl
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
    IfStmt,
    IterArg,
    Op,
    ParamDirection,
    Program,
    ReturnStmt,
    ScalarType,
    ScopeKind,
    ScopeStmt,
    SeqStmts,
    Stmt,
    TensorType,
    Var,
    WhileStmt,
    YieldStmt,
    flatten_body,
    make_body,
)
from pl.ir.operators import BinaryOp
from pl.ir.span import UNKNOWN_SPAN
from pl.lowering.ssa.convert import convert_to_ssa, verify_ssa
from pl.lowering.ssa.support import parse_auto_name, versioned_name
from pl.structural import structural_equal

# ── builders ─────────────────────────────────────────────────────────────────────────────────────

T = TensorType((ConstInt(16), ConstInt(16)), DType.FP32)
IDX = ScalarType(DType.INDEX)
BOOL = ScalarType(DType.BOOL)
IN, OUT = ParamDirection.In, ParamDirection.Out


# The IR's keyword-only span/comments fields are invisible to mypy, so the builders name them.
def assign(v: Var, e: Expr) -> AssignStmt:
    return AssignStmt(v, e, span=UNKNOWN_SPAN, comments=())


def ret(values: tuple[Expr, ...]) -> ReturnStmt:
    return ReturnStmt(values, span=UNKNOWN_SPAN, comments=())


def yld(values: tuple[Expr, ...]) -> YieldStmt:
    return YieldStmt(values, span=UNKNOWN_SPAN, comments=())


def ev(e: Expr) -> EvalStmt:
    return EvalStmt(e, span=UNKNOWN_SPAN, comments=())


def if_stmt(cond: Expr, then: Stmt, other: Stmt | None = None) -> IfStmt:
    return IfStmt(cond, then, other, (), span=UNKNOWN_SPAN, comments=())


def while_stmt(ias: tuple[IterArg, ...], cond: Expr, body: Stmt) -> WhileStmt:
    return WhileStmt(ias, cond, body, (), span=UNKNOWN_SPAN, comments=())


def scope(kind: ScopeKind, body: Stmt) -> ScopeStmt:
    return ScopeStmt(kind, body, (), span=UNKNOWN_SPAN, comments=())


def for_stmt(i: Var, start: Expr, stop: Expr, step: Expr, ias: tuple[IterArg, ...], body: Stmt,
             rvs: tuple[Var, ...]) -> ForStmt:
    return ForStmt(i, start, stop, step, ias, body, rvs, ForKind.Sequential, (), span=UNKNOWN_SPAN,
                   comments=())


def c(v: int) -> ConstInt:
    return ConstInt(v)


def add(a: Expr, b: Expr) -> Call:
    return Call(Op("tensor.add"), (a, b), result_type=T)


def create() -> Call:
    return Call(Op("tensor.create"), (), result_type=T)


def lt(a: Expr, b: Expr) -> BinaryExpr:
    return BinaryExpr(BinaryOp.Lt, a, b, DType.BOOL)


def for_(i: Var, stop: Expr, body: list[Stmt], iter_args: tuple[IterArg, ...] = (),
         return_vars: tuple[Var, ...] = ()) -> ForStmt:
    return for_stmt(i, c(0), stop, c(1), iter_args, make_body(body), return_vars)


def fn(params: list[tuple[Var, ParamDirection]], body: list[Stmt], name: str = "f") -> Function:
    return Function(name, tuple(p for p, _ in params), tuple(d for _, d in params), (T,),
                    make_body(body))


def prog(*fns: Function) -> Program:
    return Program("P", tuple(fns))


def stmts(s: Stmt | None) -> list[Stmt]:
    return flatten_body(s)


def equal(a: Program, b: Program) -> bool:
    return structural_equal(a, b, auto_mapping=True)


# ── cases: (name, builder of non-SSA program) ────────────────────────────────────────────────────


def straight_line() -> Program:
    a, x = Var("a", T), Var("x", T)
    return prog(fn([(a, IN)], [assign(x, a), assign(x, add(x, a)), ret((x,))]))


def param_reassigned() -> Program:
    t, out = Var("t", T), Var("out", T)
    store = Call(Op("tile.store"), (t, out), result_type=T)
    return prog(fn([(t, IN), (out, OUT)], [assign(out, store), ret((out,))]))


def loop_rebinding() -> Program:
    x, acc, i = Var("x", T), Var("acc", T), Var("i", IDX)
    return prog(fn([(x, IN)], [
        assign(acc, create()),
        for_(i, c(4), [assign(acc, add(acc, x))]),
        ret((acc,)),
    ]))


def loop_explicit() -> Program:
    x, acc0, i = Var("x", T), Var("acc", T), Var("i", IDX)
    ia, nxt, r = IterArg("acc", T, init=acc0), Var("acc", T), Var("acc", T)
    return prog(fn([(x, IN)], [
        assign(acc0, create()),
        for_(i, c(4), [assign(nxt, add(ia, x)), yld((nxt,))], (ia,), (r,)),
        ret((r,)),
    ]))


def loop_escaping() -> Program:
    a, cc, i, tc, out = Var("a", T), Var("c", T), Var("i", IDX), Var("tile_c", T), Var("out", T)
    store = Call(Op("tile.store"), (tc, cc), result_type=T)
    return prog(fn([(a, IN), (cc, OUT)], [
        for_(i, c(4), [assign(tc, add(a, a)), assign(out, store)]),
        ret((out,)),
    ]))


def if_then_only() -> Program:
    a, cnd, x = Var("a", T), Var("cnd", BOOL), Var("x", T)
    return prog(fn([(a, IN), (cnd, IN)], [
        assign(x, a),
        if_stmt(cnd, assign(x, add(x, x))),
        ret((x,)),
    ]))


def if_both_define() -> Program:
    a, cnd, y = Var("a", T), Var("cnd", BOOL), Var("y", T)
    return prog(fn([(a, IN), (cnd, IN)], [
        if_stmt(cnd, assign(y, add(a, a)), assign(y, a)),
        ret((y,)),
    ]))


def while_rebinding() -> Program:
    n, k = Var("n", IDX), Var("k", IDX)
    body = assign(k, BinaryExpr(BinaryOp.Add, k, c(1), DType.INDEX))
    return prog(fn([(n, IN)], [assign(k, c(0)), while_stmt((), lt(k, n), body), ret((k,))]))


def nested_loops() -> Program:
    x, acc, i, j = Var("x", T), Var("acc", T), Var("i", IDX), Var("j", IDX)
    inner = for_(j, c(2), [assign(acc, add(acc, x))])
    return prog(fn([(x, IN)], [assign(acc, x), for_(i, c(3), [inner]), ret((acc,))]))


def runtime_scope_in_loop() -> Program:
    x, acc, i = Var("x", T), Var("acc", T), Var("i", IDX)
    wrapped = scope(ScopeKind.Runtime, assign(acc, add(acc, x)))
    return prog(fn([(x, IN)], [assign(acc, x), for_(i, c(3), [wrapped]), ret((acc,))]))


def seed_kernel() -> Program:
    """The shape of reference-output/seed_residency (explicit init_values + yield)."""
    lhs, out, n = Var("lhs", T), Var("out", T), Var("n", IDX)
    acc, nxt, result = IterArg("acc", T, init=out), Var("acc_next", T), Var("result", T)
    body = [assign(nxt, add(acc, lhs)), yld((nxt,))]
    return prog(fn([(lhs, IN), (out, OUT)], [
        for_stmt(n, c(0), c(256), c(128), (acc,), make_body(body), (result,)),
        ret((result,)),
    ], name="kernel"))


CASES: list[tuple[str, Callable[[], Program]]] = [
    ("straight_line", straight_line), ("param_reassigned", param_reassigned),
    ("loop_rebinding", loop_rebinding), ("loop_explicit", loop_explicit),
    ("loop_escaping", loop_escaping), ("if_then_only", if_then_only),
    ("if_both_define", if_both_define), ("while_rebinding", while_rebinding),
    ("nested_loops", nested_loops), ("runtime_scope_in_loop", runtime_scope_in_loop),
    ("seed_kernel", seed_kernel),
]
IDS = [n for n, _ in CASES]
BUILDERS = [b for _, b in CASES]


def names(node: Any) -> list[str]:
    return [v.name for v in node]


# ── properties over every case ───────────────────────────────────────────────────────────────────


@pytest.mark.parametrize("build", BUILDERS, ids=IDS)
def test_output_is_ssa(build: Callable[[], Program]) -> None:
    assert verify_ssa(convert_to_ssa(build())) == []


@pytest.mark.parametrize("build", BUILDERS, ids=IDS)
def test_idempotent(build: Callable[[], Program]) -> None:
    once = convert_to_ssa(build())
    assert equal(convert_to_ssa(once), once)


@pytest.mark.parametrize("build", BUILDERS, ids=IDS)
def test_input_untouched(build: Callable[[], Program]) -> None:
    p = build()
    f = p.functions[0]
    convert_to_ssa(p)
    assert all("__" not in v.name for v in f.params)
    assert p.functions[0] is f and p.functions[0].body is f.body


@pytest.mark.parametrize("build,expected_errors", [
    (straight_line, ["f: 'x' is assigned 2 times"]),
    (loop_escaping, ["f: 'out' is used in a return outside the scope that defines it"]),
    (nested_loops, ["f: 'acc' is assigned 2 times"]),
])
def test_verify_flags_non_ssa_input(build: Callable[[], Program], expected_errors: list[str]) -> None:
    assert verify_ssa(build()) == expected_errors


def test_verify_flags_missing_and_wrong_yields() -> None:
    x, i, ia, r = Var("x", T), Var("i", IDX), IterArg("a", T), Var("r", T)
    ia = IterArg("a", T, init=x)
    no_yield = prog(fn([(x, IN)], [for_(i, c(2), [ev(add(ia, x))], (ia,), (r,)),
                                   ret((r,))]))
    assert verify_ssa(no_yield) == ["f: a for loop has return vars but its body does not end in a yield"]
    wrong = prog(fn([(x, IN)], [for_(i, c(2), [yld((x, x))], (ia,), (r,)), ret((r,))]))
    assert verify_ssa(wrong) == ["f: a for loop yields 2 values for 1 return vars"]


# ── names and structure, case by case ────────────────────────────────────────────────────────────


def test_straight_line_versions_every_definition() -> None:
    f = convert_to_ssa(straight_line()).functions[0]
    a0 = f.params[0]
    s0, s1, ret = stmts(f.body)
    assert isinstance(s0, AssignStmt) and isinstance(s1, AssignStmt) and isinstance(ret, ReturnStmt)
    assert (a0.name, s0.var.name, s1.var.name) == ("a__ssa_v0", "x__ssa_v0", "x__ssa_v1")
    assert s0.value is a0
    assert s1.value == add(s0.var, a0)
    assert ret.values == (s1.var,)


def test_param_reassignment_gets_a_new_version() -> None:
    f = convert_to_ssa(param_reassigned()).functions[0]
    (s0, ret) = stmts(f.body)
    assert names(f.params) == ["t__ssa_v0", "out__ssa_v0"]
    assert isinstance(s0, AssignStmt) and s0.var.name == "out__ssa_v1"
    assert isinstance(s0.value, Call) and s0.value.args == f.params
    assert isinstance(ret, ReturnStmt) and ret.values == (s0.var,)


def test_loop_rebinding_becomes_iter_arg() -> None:
    f = convert_to_ssa(loop_rebinding()).functions[0]
    init, loop, ret = stmts(f.body)
    assert isinstance(init, AssignStmt) and isinstance(loop, ForStmt) and isinstance(ret, ReturnStmt)
    assert loop.loop_var.name == "i__idx_v0"
    (ia,) = loop.iter_args
    (rv,) = loop.return_vars
    # Counter of `acc`: v0 before the loop, iter arg v1, return var v2, body v3.
    assert (ia.name, rv.name) == ("acc__iter_v1", "acc__rv_v2")
    assert ia.init is init.var
    body_assign, y = stmts(loop.body)
    assert isinstance(body_assign, AssignStmt) and body_assign.var.name == "acc__ssa_v3"
    assert body_assign.value == add(ia, f.params[0])
    assert y == yld((body_assign.var,))
    assert ret.values == (rv,)
    assert rv.type == T and ia.type == T


def test_both_loop_forms_agree() -> None:
    assert equal(convert_to_ssa(loop_rebinding()), convert_to_ssa(loop_explicit()))


def test_rebinding_and_explicit_forms_differ_before_conversion() -> None:
    # Guards the test above: the stand-in equality must be able to tell the inputs apart.
    assert not equal(loop_rebinding(), loop_explicit())


def test_explicit_form_keeps_user_names() -> None:
    f = convert_to_ssa(seed_kernel()).functions[0]
    (loop, ret) = stmts(f.body)
    assert isinstance(loop, ForStmt) and isinstance(ret, ReturnStmt)
    assert names(f.params) == ["lhs__ssa_v0", "out__ssa_v0"]
    assert loop.loop_var.name == "n__idx_v0"
    assert names(loop.iter_args) == ["acc"] and names(loop.return_vars) == ["result"]
    assert loop.iter_args[0].init is f.params[1]
    nxt, y = stmts(loop.body)
    assert isinstance(nxt, AssignStmt) and nxt.var.name == "acc_next__ssa_v0"
    assert nxt.value == add(loop.iter_args[0], f.params[0])
    assert y == yld((nxt.var,))
    assert ret.values == loop.return_vars


def test_escaping_value_is_carried_from_the_out_param() -> None:
    f = convert_to_ssa(loop_escaping()).functions[0]
    loop, ret = stmts(f.body)
    assert isinstance(loop, ForStmt) and isinstance(ret, ReturnStmt)
    (ia,) = loop.iter_args
    (rv,) = loop.return_vars
    assert (ia.name, rv.name) == ("out__iter_v0", "out__rv_v1")
    assert ia.init is f.params[1]  # the Out param `c`, same type
    tc, out, y = stmts(loop.body)
    assert isinstance(tc, AssignStmt) and isinstance(out, AssignStmt)
    assert (tc.var.name, out.var.name) == ("tile_c__ssa_v0", "out__ssa_v2")
    assert y == yld((out.var,))  # tile_c is loop-local: not carried
    assert ret.values == (rv,)


def test_if_rebinding_gets_phi_and_synthesized_else() -> None:
    f = convert_to_ssa(if_then_only()).functions[0]
    x0, if_, ret = stmts(f.body)
    assert isinstance(x0, AssignStmt) and isinstance(if_, IfStmt) and isinstance(ret, ReturnStmt)
    (phi,) = if_.return_vars
    assert phi.name == "x__phi_v2"
    x1, then_y = stmts(if_.then_body)
    assert isinstance(x1, AssignStmt) and x1.var.name == "x__ssa_v1"
    assert then_y == yld((x1.var,))
    assert if_.else_body == yld((x0.var,))
    assert ret.values == (phi,)


def test_if_new_name_in_both_branches_merges() -> None:
    f = convert_to_ssa(if_both_define()).functions[0]
    if_, ret = stmts(f.body)
    assert isinstance(if_, IfStmt) and isinstance(ret, ReturnStmt)
    assert names(if_.return_vars) == ["y__phi_v2"]
    t_assign, t_y = stmts(if_.then_body)
    e_assign, e_y = stmts(if_.else_body)
    assert isinstance(t_assign, AssignStmt) and isinstance(e_assign, AssignStmt)
    assert (t_assign.var.name, e_assign.var.name) == ("y__ssa_v0", "y__ssa_v1")
    assert (t_y, e_y) == (yld((t_assign.var,)), yld((e_assign.var,)))
    assert ret.values == if_.return_vars


def test_while_carries_rebound_counter() -> None:
    f = convert_to_ssa(while_rebinding()).functions[0]
    k0, loop, ret = stmts(f.body)
    assert isinstance(k0, AssignStmt) and isinstance(loop, WhileStmt) and isinstance(ret, ReturnStmt)
    (ia,) = loop.iter_args
    assert (ia.name, names(loop.return_vars)) == ("k__iter_v1", ["k__rv_v2"])
    assert loop.condition == lt(ia, f.params[0])
    k3, y = stmts(loop.body)
    assert isinstance(k3, AssignStmt) and k3.var.name == "k__ssa_v3"
    assert y == yld((k3.var,))
    assert ret.values == loop.return_vars


def test_nested_loops_carry_through_both_levels() -> None:
    f = convert_to_ssa(nested_loops()).functions[0]
    _, outer, ret = stmts(f.body)
    assert isinstance(outer, ForStmt) and isinstance(ret, ReturnStmt)
    assert names(outer.iter_args) == ["acc__iter_v1"] and names(outer.return_vars) == ["acc__rv_v2"]
    inner, outer_y = stmts(outer.body)
    assert isinstance(inner, ForStmt)
    assert names(inner.iter_args) == ["acc__iter_v3"] and names(inner.return_vars) == ["acc__rv_v4"]
    assert inner.iter_args[0].init is outer.iter_args[0]
    assert outer_y == yld(inner.return_vars)
    assert ret.values == outer.return_vars


def test_runtime_scope_is_transparent_for_the_yield() -> None:
    f = convert_to_ssa(runtime_scope_in_loop()).functions[0]
    _, loop, _ = stmts(f.body)
    assert isinstance(loop, ForStmt)
    assert isinstance(loop.body, ScopeStmt)  # the yield went inside the scope, not after it
    inner, y = stmts(loop.body.body)
    assert isinstance(inner, AssignStmt)
    assert y == yld((inner.var,))


def test_types_with_var_dims_follow_renamed_params() -> None:
    m = Var("m", IDX)
    tm = TensorType((m, c(16)), DType.FP32)
    x, y = Var("x", tm), Var("y", tm)
    f = convert_to_ssa(prog(fn([(m, IN), (x, IN)], [assign(y, x), ret((y,))]))).functions[0]
    m0, x0 = f.params
    assert isinstance(x0.type, TensorType) and x0.type.shape[0] is m0
    (copy, _) = stmts(f.body)
    assert isinstance(copy, AssignStmt) and copy.var.type == x0.type


def test_sequence_stays_normalised() -> None:
    f = convert_to_ssa(if_then_only()).functions[0]
    for s in [f.body, *stmts(f.body)]:
        if isinstance(s, SeqStmts):
            assert len(s.stmts) >= 2 and not any(isinstance(x, SeqStmts) for x in s.stmts)


# ── naming helper ────────────────────────────────────────────────────────────────────────────────


@pytest.mark.parametrize("name,role,version,expected", [
    ("x", "ssa", 0, "x__ssa_v0"),
    ("i", "idx", 3, "i__idx_v3"),
    ("x__iter_v1", "rv", 2, "x__rv_v2"),
    ("x__ssa_v0", "ssa", 0, "x__ssa_v0"),
    ("x__co_iter_v1", "phi", 4, "x__co_phi_v4"),
    ("a__b", "ssa", 0, "a__ssa_v0"),
    ("rhs_n__tile", "ssa", 1, "rhs_n__ssa_v1"),  # a role-only suffix is replaced
])
def test_versioned_name(name: str, role: str, version: int, expected: str) -> None:
    assert versioned_name(name, role, version) == expected


@pytest.mark.parametrize("name,parsed", [
    ("x", ("x", "", None, None)),
    ("x__ssa_v12", ("x", "", "ssa", 12)),
    ("x__co_l0_rv_v3", ("x", "co_l0", "rv", 3)),
    ("x__v2", ("x", "", None, 2)),
    ("x__tile", ("x", "", "tile", None)),
])
def test_parse_auto_name(name: str, parsed: tuple[str, str, str | None, int | None]) -> None:
    assert parse_auto_name(name) == parsed


def test_a_name_first_bound_in_both_branches_gets_one_phi() -> None:
    """`off` is a new name in each branch (two source Vars); its use after the if reads a phi."""
    from pl.lowering.frontend.parse import parse

    src = '''
import pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[16, 128], pl.FP32]) -> pl.Tensor[[16, 128], pl.FP32]:
        for i in pl.range(0, 4):
            if i > 1:
                off = i * 2
            else:
                off = i
            t = pl.load(x, [0, off], [16, 16])
        return x
'''
    program = parse(src)
    assert isinstance(program, Program)
    out = convert_to_ssa(program)
    assert verify_ssa(out) == []
    text = pl.python_print(out)
    assert "__FREE_VAR" not in text
    assert "off__ssa_v0" in text and "off__ssa_v1" in text and "[0, off__phi_v2]" in text
