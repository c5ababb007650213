"""Phase 4 (loop-invariant Mat residency) on tile-level DSL programs: pass.md 6 and the
TestLoopInvariantMatResidency catalogue of pass.md 8.

Each case parses a DSL program, converts it to SSA, stamps the bridge marker on every Mat
`tile.load` (the reference's "marked fixtures"), runs phases 0-3 on 910B, then `apply_residency`;
it asserts which statements stand before the loop and the decision + rule of each candidate.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from residency_cases.programs import (
    LEFT,
    LHS_LOAD,
    LHS_MOVE,
    LOOP_BODY,
    MAT,
    MATMUL,
    RHS_LOAD,
    RHS_MOVE,
    RIGHT,
    ROOT,
    SAFE_CALL,
    STORE,
    kernel,
    orch,
    program,
)

import pl
from pl.infer.memory_space import infer_tile_memory_space
from pl.infer.residency.apply import RULES, ResidencyDecision, apply_residency
from pl.infer.residency.ir import BRIDGE_MARKER
from pl.ir import (
    AssignStmt,
    Call,
    EvalStmt,
    Expr,
    ForStmt,
    Function,
    IfStmt,
    MemorySpace,
    Op,
    Program,
    SeqStmts,
    Stmt,
    flatten_body,
)
from pl.lowering.frontend.parse import parse
from pl.lowering.ssa.convert import convert_to_ssa

SENTINEL = ("test_sentinel", True)


# ---- harness ------------------------------------------------------------------------------------
def _stamp_expr(e: Expr, extra: tuple[tuple[str, Any], ...]) -> Expr:
    if isinstance(e, Call) and e.op_name == "tile.load" and e.kwarg("target_memory") is MemorySpace.Mat:
        return dataclasses.replace(e, attrs=e.attrs + extra)
    return e


def _stamp(s: Stmt, extra: tuple[tuple[str, Any], ...]) -> Stmt:
    """Add `extra` attrs to every Mat tile.load (top-level call of an assignment)."""
    match s:
        case SeqStmts(stmts=stmts):
            return dataclasses.replace(s, stmts=tuple(_stamp(x, extra) for x in stmts))
        case AssignStmt(value=v):
            return dataclasses.replace(s, value=_stamp_expr(v, extra))
        case ForStmt(body=b):
            return dataclasses.replace(s, body=_stamp(b, extra))
        case IfStmt():
            return dataclasses.replace(s, then_body=_stamp(s.then_body, extra),
                                       else_body=None if s.else_body is None else _stamp(s.else_body, extra))
    return s


def marked(p: Program, extra: tuple[tuple[str, Any], ...] = ((BRIDGE_MARKER, True),)) -> Program:
    return dataclasses.replace(p, functions=tuple(
        dataclasses.replace(f, body=_stamp(f.body, extra)) for f in p.functions))


def phases_0_3(src: str, mark: bool = True, backend: str | None = "910B") -> Program:
    p = convert_to_ssa(parse(src))  # type: ignore[arg-type]
    if mark:
        p = marked(p)
    out, _ = infer_tile_memory_space(p, backend, residency=lambda q, b: (q, ()))
    return out


def run(src: str, mark: bool = True, backend: str | None = "910B"
        ) -> tuple[Program, list[ResidencyDecision]]:
    return apply_residency(phases_0_3(src, mark, backend), backend)


def base(name: str) -> str:
    return name.split("__")[0]


def layout(f: Function) -> tuple[list[str], list[str]]:
    """(names assigned before the first loop, names assigned directly inside it)."""
    before: list[str] = []
    for s in flatten_body(f.body):
        if isinstance(s, ForStmt):
            inside = [base(x.var.name) for x in flatten_body(s.body) if isinstance(x, AssignStmt)]
            return before, inside
        if isinstance(s, AssignStmt):
            before.append(base(s.var.name))
    raise AssertionError("no loop")


def verdicts(ds: list[ResidencyDecision]) -> dict[str, tuple[str, str]]:
    return {base(d.load): (d.decision, d.rule) for d in ds}


def kernel_of(p: Program, name: str = "kernel") -> Function:
    f = p.get(name)
    assert f is not None
    return f


# ---- the scenario table -------------------------------------------------------------------------
KERNEL = kernel(LOOP_BODY)
H, D = "hoisted", "declined"
# A read lhs and a written out on one fresh buffer, each of its declared type: the FP32 out's first
# 64 columns reinterpreted as the BF16 [16, 128] lhs.
ALIASED_LHS = ["alias_out = pl.create_tensor([16, 256], dtype=pl.FP32)",
               "alias_half = pl.tensor.slice(alias_out, [16, 64], [0, 0])",
               "alias_lhs = pl.tensor.reinterpret_view(alias_half, [16, 128], dtype=pl.BF16)"]

CASES: list[tuple[str, str, list[str], dict[str, tuple[str, str]]]] = [
    # positive controls
    ("marked-gate-positive-control", program(KERNEL, ROOT), ["lhs_mat", "lhs_left"],
     {"lhs_mat": (H, "chain"), "rhs_mat": (D, "external-input")}),
    ("stationary-rhs-positive-control",
     program(kernel([LHS_LOAD.replace("[0, 0]", "[0, n % 128]"), LHS_MOVE,
                     RHS_LOAD.replace("[0, n]", "[0, 0]"), RHS_MOVE, MATMUL, STORE]),
             orch(["out = self.kernel(fresh_lhs, fresh_rhs, out, 0)"], creates=("fresh_lhs", "fresh_rhs"))),
     ["rhs_mat", "rhs_right"], {"lhs_mat": (D, "loop-variant-offset"), "rhs_mat": (H, "chain")}),
    ("transpose-prefix-positive-control",
     program(kernel([f"t_mat = pl.tile.load(rhs, [0, 0], [128, 16], {MAT})",
                     "t_view = pl.tile.transpose_view(t_mat)", f"lhs_left = pl.tile.move(t_view, {LEFT})",
                     RHS_LOAD, RHS_MOVE, MATMUL, STORE]),
             orch(["out = self.kernel(fresh_lhs, fresh_rhs, out, 0)"], creates=("fresh_lhs", "fresh_rhs"))),
     ["t_mat", "t_view", "lhs_left"], {"t_mat": (H, "chain"), "rhs_mat": (D, "loop-variant-offset")}),
    ("multiple-proven-safe-call-sites",
     program(KERNEL, orch([SAFE_CALL, "out = self.kernel(other_lhs, rhs, out, 1)"],
                          creates=("fresh_lhs", "other_lhs"))),
     ["lhs_mat", "lhs_left"], {"lhs_mat": (H, "chain")}),
    ("unrelated-scalar-actual", program(KERNEL, orch(["out = self.kernel(fresh_lhs, rhs, out, base + 1)"],
                                                     params="base: pl.Scalar[pl.INDEX]")),
     ["lhs_mat", "lhs_left"], {"lhs_mat": (H, "chain")}),
    ("unknown-peer-read-actual",
     program(KERNEL, orch(["rhs_v = pl.tensor.slice(rhs, [128, 256], [0, 0])",
                           "out = self.kernel(fresh_lhs, rhs_v, out, 0)"])),
     ["lhs_mat", "lhs_left"], {"lhs_mat": (H, "chain"), "rhs_mat": (D, "external-input")}),
    ("fresh-through-alias-slice-view",
     program(KERNEL, orch(["a = pl.tensor.slice(fresh_lhs, [16, 128], [0, 0])",
                           "b = pl.tensor.view(a, [16, 128])", "out = self.kernel(b, rhs, out, 0)"])),
     ["lhs_mat", "lhs_left"], {"lhs_mat": (H, "chain")}),
    # caller evidence
    ("direct-incore-entry", program(KERNEL), [], {"lhs_mat": (D, "no-root-caller")}),
    ("incore-wrapper-without-orch",
     program(KERNEL, kernel(["out = self.kernel(lhs, rhs, out, m)"], name="wrapper")),
     [], {"lhs_mat": (D, "non-root-caller")}),
    ("orch-through-incore-wrapper",
     program(KERNEL, kernel(["out = self.kernel(lhs, rhs, out, m)"], name="wrapper"),
             orch(["out = self.wrapper(fresh_lhs, rhs, out, 0)"])),
     [], {"lhs_mat": (D, "non-root-caller")}),
    ("called-orchestration-helper",
     program(KERNEL, orch([SAFE_CALL], name="helper"), orch(["out = self.helper(rhs, out)"])),
     [], {"lhs_mat": (D, "non-root-caller")}),
    ("safe-direct-call-plus-wrapper-call",
     program(KERNEL, kernel(["out = self.kernel(lhs, rhs, out, m)"], name="wrapper"),
             orch([SAFE_CALL, "out = self.wrapper(fresh_lhs, rhs, out, 0)"])),
     [], {"lhs_mat": (D, "non-root-caller")}),
    ("external-root-parameters",
     program(KERNEL, orch(["out = self.kernel(lhs, rhs, out, 0)"], params="lhs: pl.Tensor[[16, 128], pl.BF16]",
                          creates=())),
     [], {"lhs_mat": (D, "external-input")}),
    ("unknown-call-actual-root",
     program(KERNEL, orch(["s = pl.tensor.slice(big, [16, 128], [0, 0])", "out = self.kernel(s, rhs, out, 0)"],
                          params="big: pl.Tensor[[32, 128], pl.BF16]", creates=())),
     [], {"lhs_mat": (D, "external-input")}),
    ("one-aliasing-call-site",
     program(KERNEL, orch([SAFE_CALL, *ALIASED_LHS, "out = self.kernel(alias_lhs, rhs, alias_out, 0)"])),
     [], {"lhs_mat": (D, "write-alias")}),
    ("inout-source", program(kernel(LOOP_BODY, lhs_dir="InOut"), ROOT), [], {"lhs_mat": (D, "inout-source")}),
    # A tile of the chain written in place in the loop (through its Vec copy, which phase 3
    # writes back): the next trip reads what this one wrote, so neither moves out of the loop.
    ("tile-write-of-mat-in-loop", program(kernel([*LOOP_BODY, "pl.write(lhs_mat, [0, n % 16], 1.0)"]),
                                          ROOT), [], {"lhs_mat": (D, "extra-use")}),
    ("tile-write-of-left-in-loop", program(kernel([*LOOP_BODY[:5], "pl.write(lhs_left, [0, 0], 1.0)",
                                                   STORE]), ROOT), [], {"lhs_mat": (D, "extra-use")}),
    ("tensor-write-in-loop", program(kernel([*LOOP_BODY, "lhs2 = pl.write(lhs, [0, 0], 1.0)"]), ROOT),
     [], {"lhs_mat": (D, "local-write")}),
    ("tensor-write-statement-in-loop", program(kernel([*LOOP_BODY, "pl.write(lhs, [0, n % 16], 1.0)"]), ROOT),
     [], {"lhs_mat": (D, "local-write")}),
    ("assemble-into-source",
     program(kernel([*LOOP_BODY, "x = pl.tensor.slice(rhs, [16, 128], [0, 0])",
                     "lhs2 = pl.tensor.assemble(lhs, x, [0, 0])"]), ROOT),
     [], {"lhs_mat": (D, "local-write")}),
    ("write-through-view-of-view",
     program(kernel([*LOOP_BODY[:5], "v = pl.tensor.view(lhs, [128, 16])", "w = pl.tensor.view(v, [16, 128])",
                     "o2 = pl.tile.store(c, [0, 0], w)", STORE]), ROOT),
     [], {"lhs_mat": (D, "local-write")}),
    ("write-through-store-result",
     program(kernel([*LOOP_BODY[:5], "o2 = pl.tile.store(c, [0, 0], out)", "o3 = pl.tensor.write(o2, [0, 0], 1.0)",
                     STORE]), ROOT),
     ["lhs_mat", "lhs_left"], {"lhs_mat": (H, "chain")}),
    ("write-through-tensor-view",
     program(kernel([*LOOP_BODY[:5], "v = pl.tensor.view(lhs, [16, 128])", "o2 = pl.tile.store(c, [0, 0], v)",
                     STORE]), ROOT),
     [], {"lhs_mat": (D, "local-write")}),
    # loop gates
    ("zero-trip", program(kernel(LOOP_BODY, loop="pl.range(0, 0, 128)"), ROOT), [], {"lhs_mat": (D, "zero-trip")}),
    ("dynamic-trip", program(kernel(LOOP_BODY, loop="pl.range(0, m, 128)"), ROOT), [],
     {"lhs_mat": (D, "dynamic-bounds")}),
    ("pipeline", program(kernel(LOOP_BODY, loop="pl.pipeline(0, 256, 128, stage=2)"), ROOT), [],
     {"lhs_mat": (D, "not-sequential")}),
    ("conditional", program(kernel(["if n > 0:", "    " + LHS_LOAD, "    " + LHS_MOVE, "    " + RHS_LOAD,
                                    "    " + RHS_MOVE, "    " + MATMUL, "    " + STORE]), ROOT),
     [], {"lhs_mat": (D, "conditional")}),
    # SSA conversion makes the continue structured (the rest of the body moves into the else
    # branch, as the reference's CtrlFlowTransform does), so the load is conditional.
    ("preceding-continue", program(kernel(["if n > 128:", "    continue", *LOOP_BODY]), ROOT), [],
     {"lhs_mat": (D, "conditional")}),
    ("preceding-assigned-side-effect-closes-prefix",
     program(kernel([RHS_LOAD, RHS_MOVE, f"v = pl.tile.load(rhs, [0, n], [16, 128], {MAT})",
                     "out = pl.tile.store(v, [0, n], out)", LHS_LOAD, LHS_MOVE, MATMUL]), ROOT),
     [], {"lhs_mat": (D, "prefix-closed")}),
    ("preceding-sync", program(kernel(["pl.system.fence()", *LOOP_BODY]), ROOT), [],
     {"lhs_mat": (D, "ordering-boundary")}),
    ("following-sync", program(kernel([*LOOP_BODY, "pl.system.fence()"]), ROOT), [],
     {"lhs_mat": (D, "ordering-boundary")}),
    ("following-conditional-sync", program(kernel([*LOOP_BODY, "if n > 0:", "    pl.system.fence()"]), ROOT), [],
     {"lhs_mat": (D, "ordering-boundary")}),
    ("following-cross-core-op",
     program(kernel([*LOOP_BODY, "pl.tile.tpush_to_aiv(c, split=0)"]), ROOT), [],
     {"lhs_mat": (D, "ordering-boundary")}),
    ("following-helper-call",
     program(KERNEL.replace("        return out", "            out = self.helper(out)\n        return out"),
             "    @pl.function\n    def helper(self, x: pl.InOut[pl.Tensor[[16, 256], pl.FP32]]) -> "
             "pl.Tensor[[16, 256], pl.FP32]:\n        return x\n", ROOT), [],
     {"lhs_mat": (D, "ordering-boundary")}),
    # uses
    ("variant-offset", program(kernel([LHS_LOAD.replace("[0, 0]", "[0, n % 128]"), *LOOP_BODY[1:]]), ROOT), [],
     {"lhs_mat": (D, "loop-variant-offset")}),
    ("non-matmul-chain",
     program(kernel([LHS_LOAD, "v = pl.tile.move(lhs_mat, target_memory=pl.MemorySpace.Vec)",
                     "out = pl.tile.store(v, [0, 0], out)"]), ROOT), [],
     {"lhs_mat": (D, "not-matmul-chain")}),
    ("plain-alias-of-mat-panel",
     program(kernel([LHS_LOAD, "alias = lhs_mat", LHS_MOVE, RHS_LOAD, RHS_MOVE, MATMUL, STORE]), ROOT), [],
     {"lhs_mat": (D, "extra-use")}),
    ("terminal-with-second-use",
     program(kernel([*LOOP_BODY[:4], "c = pl.tile.matmul(lhs_left, rhs_right)",
                     "d = pl.tile.matmul(lhs_left, rhs_right)", STORE]), ROOT), ["lhs_mat"],
     {"lhs_mat": (H, "panel")}),
    # panels
    ("mat-panel-fanout-hoists-only-load",
     program(kernel([f"p_mat = pl.tile.load(lhs, [0, 0], [16, 128], {MAT})",
                     f"a0 = pl.tile.extract(p_mat, 0, 0, [16, 64], {LEFT})",
                     f"a1 = pl.tile.extract(p_mat, 0, 64, [16, 64], {LEFT})",
                     f"b0 = pl.tile.load(rhs, [0, n], [64, 128], {MAT})", f"b0r = pl.tile.move(b0, {RIGHT})",
                     f"b1 = pl.tile.load(rhs, [64, n], [64, 128], {MAT})", f"b1r = pl.tile.move(b1, {RIGHT})",
                     "c = pl.tile.matmul(a0, b0r)", "c2 = pl.tile.matmul_acc(c, a1, b1r)",
                     "out = pl.tile.store(c2, [0, n], out)"]), ROOT),
     ["p_mat"], {"p_mat": (H, "panel"), "b0": (D, "external-input")}),
    ("transposed-mat-panel-fanout-hoists-only-load",
     program(kernel([f"p_mat = pl.tile.load(rhs, [0, 0], [128, 16], {MAT})",
                     "p_t = pl.tile.transpose_view(p_mat)",
                     f"a0 = pl.tile.extract(p_t, 0, 0, [16, 64], {LEFT})",
                     f"a1 = pl.tile.extract(p_t, 0, 64, [16, 64], {LEFT})",
                     f"b0 = pl.tile.load(rhs, [0, n], [64, 128], {MAT})", f"b0r = pl.tile.move(b0, {RIGHT})",
                     f"b1 = pl.tile.load(rhs, [64, n], [64, 128], {MAT})", f"b1r = pl.tile.move(b1, {RIGHT})",
                     "c = pl.tile.matmul(a0, b0r)", "c2 = pl.tile.matmul_acc(c, a1, b1r)",
                     "out = pl.tile.store(c2, [0, n], out)"]),
             orch(["out = self.kernel(fresh_lhs, fresh_rhs, out, 0)"], creates=("fresh_lhs", "fresh_rhs"))),
     ["p_mat"], {"p_mat": (H, "panel"), "b0": (D, "loop-variant-offset")}),
    ("mat-panel-with-unsupported-l0-use",
     program(kernel([f"p_mat = pl.tile.load(lhs, [0, 0], [16, 128], {MAT})",
                     f"a0 = pl.tile.extract(p_mat, 0, 0, [16, 64], {LEFT})",
                     f"a1 = pl.tile.extract(p_mat, 0, 64, [16, 64], {LEFT})",
                     f"b0 = pl.tile.load(rhs, [0, n], [64, 128], {MAT})", f"b0r = pl.tile.move(b0, {RIGHT})",
                     "c = pl.tile.matmul(a0, b0r)", "c2 = pl.tile.matmul(a1, b0r)",
                     "out = pl.tile.store(c2, [0, n], out)", "o3 = pl.tile.store(a1, [0, 0], out)"]), ROOT),
     [], {"p_mat": (D, "extra-use")}),
    # yields
    ("yielded-chain",
     program(kernel([LHS_LOAD, LHS_MOVE, RHS_LOAD, RHS_MOVE, MATMUL, STORE, "keep = lhs_left"],
                    loop="pl.range(0, 256, 128)"), ROOT), [], {"lhs_mat": (D, "extra-use")}),
]


@pytest.mark.parametrize("name,src,before,expected", CASES, ids=[c[0] for c in CASES])
def test_residency_case(name: str, src: str, before: list[str], expected: dict[str, tuple[str, str]]) -> None:
    out, ds = run(src)
    got = verdicts(ds)
    for load, verdict in expected.items():
        assert got.get(load) == verdict, f"{load}: {got.get(load)} != {verdict}\n" + "\n".join(
            d.format() for d in ds)
    hoisted_before, inside = layout(kernel_of(out))
    assert hoisted_before == before
    assert not set(before) & set(inside)
    for d in ds:
        assert d.rule in RULES



# ---- every op the op table says writes an argument refuses the hoist of what it writes ----------
def _writing_ops() -> list[tuple[str, int]]:
    from pl.ops.registry import all_ops

    return [(name, i) for name, op in sorted(all_ops().items()) for i in op.written_args]


def test_the_table_declares_the_known_writers() -> None:
    writers = {name for name, _ in _writing_ops()}
    assert {"tile.store", "tile.mscatter", "tensor.write", "tensor.assemble", "tile.write"} <= writers


def _append_to_loop(p: Program, stmt: Stmt) -> Program:
    f = kernel_of(p)
    body = flatten_body(f.body)
    at = next(i for i, s in enumerate(body) if isinstance(s, ForStmt))
    loop = body[at]
    assert isinstance(loop, ForStmt)
    grown = dataclasses.replace(loop, body=SeqStmts((*flatten_body(loop.body), stmt)))
    f = dataclasses.replace(f, body=SeqStmts((*body[:at], grown, *body[at + 1:])))
    return dataclasses.replace(p, functions=tuple(f if g.name == f.name else g for g in p.functions))


def _writing_call(p: Program, name: str, index: int, target: str) -> EvalStmt:
    """A call of op `name` whose written argument `index` is the kernel's parameter `target`; the
    other arguments are the scalar parameter `m` (residency reads names, not values)."""
    from pl.ops.registry import get_op

    op = get_op(name)
    assert op is not None
    params = {v.name.split("__")[0]: v for v in kernel_of(p).params}
    args = tuple(params[target] if i == index else params["m"] for i in range(max(len(op.args), index + 1)))
    return EvalStmt(Call(Op(name), args))


@pytest.mark.parametrize(("name", "index"), _writing_ops(), ids=[f"{n}-arg{i}" for n, i in _writing_ops()])
def test_every_declared_writer_refuses_the_hoist(name: str, index: int) -> None:
    inferred = phases_0_3(program(KERNEL, ROOT))
    # control: the same call writing `out` leaves the stationary lhs chain hoistable
    _, ds = apply_residency(_append_to_loop(inferred, _writing_call(inferred, name, index, "out")), "910B")
    assert verdicts(ds)["lhs_mat"] == (H, "chain"), "\n".join(d.format() for d in ds)
    out, ds = apply_residency(_append_to_loop(inferred, _writing_call(inferred, name, index, "lhs")), "910B")
    assert verdicts(ds)["lhs_mat"] == (D, "local-write"), "\n".join(d.format() for d in ds)
    assert layout(kernel_of(out))[0] == []


# ---- capacity and reservation: a kernel with an extra `big` source -----------------------------
def big_kernel(pre: list[str], body: list[str] = LOOP_BODY, post: list[str] = ()) -> str:  # type: ignore[assignment]
    lines = ["    @pl.function(type=pl.FunctionType.InCore)",
             "    def kernel(self, lhs: pl.Tensor[[16, 128], pl.BF16], rhs: pl.Tensor[[128, 256], pl.BF16],",
             "               out: pl.Out[pl.Tensor[[16, 256], pl.FP32]],",
             "               big: pl.Tensor[[1024, 256], pl.BF16]) -> pl.Tensor[[16, 256], pl.FP32]:"]
    lines += ["        " + x for x in pre]
    lines += ["        for n in pl.range(0, 256, 128):"] + ["            " + x for x in body]
    lines += ["        " + x for x in post]
    lines.append("        return out")
    root = orch(["out = self.kernel(fresh_lhs, rhs, out, big)"], params="big: pl.Tensor[[1024, 256], pl.BF16]")
    return program("\n".join(lines) + "\n", root)


BIG_MAT = "x{i} = pl.tile.load(big, [0, 0], [{rows}, 256], target_memory=pl.MemorySpace.Mat)"
CAPACITY_CASES = [
    # 2 x 256 KiB Mat + the loop's own Mat loads > 512 KiB: the load stays.
    ("l1", [BIG_MAT.format(i=0, rows=512), BIG_MAT.format(i=1, rows=512)], (), [],
     ("declined", "capacity")),
    # one 480 KiB Mat tile live outside the loop: 480 + 4 + 32 KiB > 512 KiB.
    ("outer-live", [BIG_MAT.format(i=0, rows=960)], (), [], ("declined", "capacity")),
    # 480 KiB minus the loop's 36 KiB still fits: 448 + 4 + 32 = 484 KiB.
    ("fits", [BIG_MAT.format(i=0, rows=896)], (), ["lhs_mat", "lhs_left"], ("hoisted", "chain")),
    # 2 x 64 KiB Left owners: the load moves, lhs_left stays (Left over capacity).
    ("l0a", [BIG_MAT.format(i=0, rows=128), f"a0 = pl.tile.move(x0, {LEFT})", f"a1 = pl.tile.move(x0, {LEFT})"],
     (), ["lhs_mat"], ("hoisted", "load-only")),
    ("explicit-reserve", ['pl.system.reserve_buffer(name="buf", size=1024, base=0)'], (), [],
     ("declined", "reserved-buffer")),
    ("pipeline-space", [], ["for k in pl.pipeline(0, 2, 1, stage=2):",
                            "    " + BIG_MAT.format(i=9, rows=16)], [], ("declined", "pipeline-space")),
]


@pytest.mark.parametrize("name,pre,post,before,verdict", CAPACITY_CASES, ids=[c[0] for c in CAPACITY_CASES])
def test_capacity_and_reservation_gates(name: str, pre: list[str], post: list[str], before: list[str],
                                        verdict: tuple[str, str]) -> None:
    out, ds = run(big_kernel(pre, post=post))
    assert verdicts(ds)["lhs_mat"] == verdict, "\n".join(d.format() for d in ds)
    got_before, _ = layout(kernel_of(out))
    assert [n for n in got_before if n not in ("x0", "x1", "a0", "a1")] == before


def test_l0b_capacity_keeps_right_move_inside() -> None:
    pre = [BIG_MAT.format(i=0, rows=128), f"b0 = pl.tile.move(x0, {RIGHT})", f"b1 = pl.tile.move(x0, {RIGHT})"]
    body = [RHS_LOAD.replace("[0, n]", "[0, 0]"), RHS_MOVE, LHS_LOAD.replace("[0, 0]", "[0, n % 128]"),
            LHS_MOVE, MATMUL, STORE]
    src = big_kernel(pre, body).replace("self.kernel(fresh_lhs, rhs, out, big)",
                                        "self.kernel(fresh_lhs, fresh_rhs, out, big)")
    src = src.replace("        return out\n", "        fresh_rhs = pl.create_tensor([128, 256], dtype=pl.BF16)\n"
                      "        return out\n", 0)
    src = src.replace("fresh_lhs = pl.create_tensor([16, 128], dtype=pl.BF16)",
                      "fresh_lhs = pl.create_tensor([16, 128], dtype=pl.BF16)\n"
                      "        fresh_rhs = pl.create_tensor([128, 256], dtype=pl.BF16)")
    out, ds = run(src)
    assert verdicts(ds)["rhs_mat"] == ("hoisted", "load-only")
    before, inside = layout(kernel_of(out))
    assert "rhs_mat" in before and "rhs_right" in inside


# ---- nesting, manual loads, marker, backend ------------------------------------------------------
NESTED = program(kernel(["for k in pl.range(0, 2, 1):", *("    " + x for x in LOOP_BODY)]), ROOT)


def test_nested_chain_moves_one_lexical_level() -> None:
    out, ds = run(NESTED)
    outer_before, outer_inside = layout(kernel_of(out))
    assert outer_before == []
    assert outer_inside[:2] == ["lhs_mat", "lhs_left"]
    assert verdicts(ds)["lhs_mat"] == ("hoisted", "chain")
    # a second run finds no marker left, so the chain never bubbles further out
    again, ds2 = apply_residency(out, "910B")
    assert again == out
    assert all(d.rule != "chain" for d in ds2)


@pytest.mark.parametrize("src", [program(KERNEL, ROOT), NESTED], ids=["flat", "nested"])
def test_manual_tile_load_is_not_hoisted(src: str) -> None:
    before_pass = phases_0_3(src, mark=False)
    out, ds = apply_residency(before_pass, "910B")
    assert out == before_pass
    assert verdicts(ds)["lhs_mat"] == ("declined", "not-compiler-bridge")


def test_manual_transpose_view_chain_is_not_hoisted() -> None:
    src = CASES[2][1]
    out, ds = run(src, mark=False)
    assert layout(kernel_of(out))[0] == []
    assert verdicts(ds)["t_mat"] == ("declined", "not-compiler-bridge")


def _all_calls(p: Program) -> list[Call]:
    from pl.ir.traverse import stmt_exprs, walk_exprs, walk_stmts

    return [c for f in p.functions for s in walk_stmts(f.body) for e in stmt_exprs(s)
            for c in walk_exprs(e) if isinstance(c, Call)]


def test_marker_stripped_and_unrelated_attrs_kept() -> None:
    p = convert_to_ssa(parse(program(KERNEL, ROOT)))  # type: ignore[arg-type]
    p = marked(p, ((BRIDGE_MARKER, True), SENTINEL))
    inferred, _ = infer_tile_memory_space(p, "910B", residency=lambda q, b: (q, ()))
    out, ds = apply_residency(inferred, "910B")
    calls = _all_calls(out)
    assert not any(c.attr(BRIDGE_MARKER) is not None for c in calls)
    assert sum(1 for c in calls if c.attr("test_sentinel") is True) == 2
    assert verdicts(ds)["lhs_mat"] == ("hoisted", "chain")


def test_marker_stripped_in_non_incore_functions() -> None:
    p = phases_0_3(program(KERNEL, ROOT))
    main = p.get("main")
    assert main is not None
    body = flatten_body(main.body)
    stamped = [dataclasses.replace(s, value=dataclasses.replace(s.value, attrs=((BRIDGE_MARKER, True), SENTINEL)))
               if isinstance(s, AssignStmt) and isinstance(s.value, Call) else s for s in body]
    p = dataclasses.replace(p, functions=tuple(
        dataclasses.replace(f, body=SeqStmts(tuple(stamped))) if f.name == "main" else f for f in p.functions))
    out, _ = apply_residency(p, "910B")
    calls = [c for c in _all_calls(out)]
    assert not any(c.attr(BRIDGE_MARKER) is not None for c in calls)
    assert any(c.attr("test_sentinel") is True for c in calls)


def test_no_backend_hoists_nothing_but_strips() -> None:
    before_pass = phases_0_3(program(KERNEL, ROOT), backend=None)
    out, ds = apply_residency(before_pass, None)
    assert layout(kernel_of(out))[0] == []
    assert {d.rule for d in ds} == {"no-backend"}
    assert not any(c.attr(BRIDGE_MARKER) is not None for c in _all_calls(out))


def test_input_is_not_mutated_and_decisions_format() -> None:
    p = phases_0_3(program(KERNEL, ROOT))
    snapshot = layout(kernel_of(p))
    out, ds = apply_residency(p, "910B")
    assert layout(kernel_of(p)) == snapshot
    lines = [d.format() for d in ds]
    assert any("lhs_mat" in line and "hoisted before the loop" in line for line in lines)
    assert any("rhs_mat" in line and "kept inside" in line and "external-input" in line for line in lines)
    assert all(d.to_json()["rule"] in RULES for d in ds)


def test_loop_variant_offset_from_in_loop_if_phi() -> None:
    body = ["if n > 0:", "    off = pl.yield_(0)", "else:", "    off = pl.yield_(0)",
            LHS_LOAD.replace("[0, 0]", "[0, off]"), *LOOP_BODY[1:]]
    inferred = phases_0_3(program(kernel(body), ROOT))
    out, ds = apply_residency(inferred, "910B")
    # the `if` itself closes the hoistable prefix first ...
    assert verdicts(ds)["lhs_mat"] == ("declined", "prefix-closed")
    assert layout(kernel_of(out))[0] == []
    # ... and the phi it returns is tracked as defined inside the loop
    from pl.infer.residency.inventory import Inventory

    f = kernel_of(inferred)
    loop = next(s for s in flatten_body(f.body) if isinstance(s, ForStmt))
    phi = next(s for s in flatten_body(loop.body) if not isinstance(s, AssignStmt)).return_vars[0]  # type: ignore[attr-defined]
    assert Inventory(f.body).in_subtree(loop, phi)


def test_unknown_backend_is_a_user_error() -> None:
    from pl.errors import PlError

    with pytest.raises(PlError):
        apply_residency(phases_0_3(program(KERNEL, ROOT)), "nope")


def test_every_rule_is_documented_in_one_line() -> None:
    assert all(v and "\n" not in v for v in RULES.values())


# ---- Submit sites (pass.md 6.1: any Submit poisons; a Submit in the loop is a boundary) ---------
SUBMIT = "out, tid = pl.submit(self.kernel, fresh_lhs, rhs, out, 0)"
SUBMIT_CASES = [
    ("submit-only", program(KERNEL, orch([SUBMIT]))),
    ("direct-plus-submit", program(KERNEL, orch([SAFE_CALL, SUBMIT]))),
    ("safe-call-plus-aliasing-submit",
     program(KERNEL, orch([SAFE_CALL, *ALIASED_LHS,
                           "out, tid = pl.submit(self.kernel, alias_lhs, rhs, alias_out, 1)"]))),
]


@pytest.mark.parametrize(("name", "src"), SUBMIT_CASES, ids=[c[0] for c in SUBMIT_CASES])
def test_any_submit_site_declines_residency(name: str, src: str) -> None:
    out, ds = run(src)
    assert verdicts(ds).get("lhs_mat") == (D, "submit-site"), "\n".join(d.format() for d in ds)
    before, _ = layout(kernel_of(out))
    assert before == []


def test_submit_is_printed_as_pl_submit_and_round_trips() -> None:
    src = program(KERNEL, orch([SUBMIT]))
    p = parse(src)
    text = pl.python_print(p)  # type: ignore[union-attr]
    assert "= pl.submit(\n            self.kernel, fresh_lhs, rhs, out, 0\n        )" in text
    pl.assert_structural_equal(parse(text), p)  # type: ignore[arg-type]
