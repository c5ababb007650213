"""ConvertTensorToTileOps: tensor kernels become the tile IR inference consumes (pass.md 7).

Programs are built by hand (and parsed from DSL text when `pl.parse` is available), run
through convert_to_ssa and then the pass, and checked by node inspection against the reference's
printed result (reference-output/seed_residency.after.py) and pass.md / ops.md section 10."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

import pl
from pl.errors import PlError
from pl.ir import (
    AssignStmt,
    Call,
    ConstInt,
    DType,
    Expr,
    ForStmt,
    Function,
    FunctionType,
    GlobalVar,
    IterArg,
    MakeTuple,
    MemorySpace,
    Op,
    ParamDirection,
    Program,
    ReturnStmt,
    Stmt,
    TensorType,
    TileType,
    Type,
    Var,
    YieldStmt,
    make_body,
)
from pl.ir.span import Span


def idx(v: int) -> ConstInt:
    return ConstInt(v, DType.INDEX)


def tup(*vals: int | Expr) -> MakeTuple:
    return MakeTuple(tuple(idx(v) if isinstance(v, int) else v for v in vals))


def tensor(shape: Sequence[int], dtype: DType) -> TensorType:
    return TensorType(tuple(idx(d) for d in shape), dtype)


def tcall(name: str, args: Sequence[Expr], result: Type, **kwargs: Any) -> Call:
    return Call(Op(name), tuple(args), tuple(kwargs.items()), (), result)


def seed_residency(nested: bool = False) -> Program:
    """The seed's residency example (reference-output/seed_residency.py), built by hand."""
    bf16, fp32 = DType.BF16, DType.FP32
    lhs = Var("lhs", tensor([16, 128], bf16))
    rhs = Var("rhs", tensor([128, 256], bf16))
    out = Var("out", tensor([16, 256], fp32))
    n = Var("n", idx(0).type)
    acc = IterArg("acc", out.type, init=out)
    rhs_n = Var("rhs_n", tensor([128, 128], bf16))
    c_n = Var("c_n", tensor([16, 128], fp32))
    result = Var("result", out.type)
    s_slice = AssignStmt(rhs_n, tcall("tensor.slice", [rhs, tup(128, 128), tup(0, n)],
                                      rhs_n.type))
    s_mm = AssignStmt(c_n, tcall("tensor.matmul", [lhs, rhs_n], c_n.type, out_dtype=fp32))
    assemble = tcall("tensor.assemble", [acc, c_n, tup(0, n)], out.type)
    if nested:
        tail: list[Stmt] = [YieldStmt((assemble,))]
    else:
        acc_next = Var("acc_next", out.type)
        tail = [AssignStmt(acc_next, assemble), YieldStmt((acc_next,))]
    loop = ForStmt(n, idx(0), idx(256), idx(128), (acc,), make_body([s_slice, s_mm, *tail]),
                   (result,))
    kernel = Function("kernel", (lhs, rhs, out),
                      (ParamDirection.In, ParamDirection.In, ParamDirection.Out), (out.type,),
                      make_body([loop, ReturnStmt((result,))]), FunctionType.InCore)
    m_rhs = Var("rhs", rhs.type)
    m_out = Var("out", out.type)
    fresh = Var("fresh_lhs", lhs.type)
    m_res = Var("result", out.type)
    main = Function(
        "main", (m_rhs, m_out), (ParamDirection.In, ParamDirection.Out), (out.type,),
        make_body([
            AssignStmt(fresh, tcall("tensor.create", [tup(16, 128)], lhs.type, dtype=bf16)),
            AssignStmt(m_res, Call(GlobalVar("kernel"), (fresh, m_rhs, m_out), (), (),
                                   out.type)),
            ReturnStmt((m_res,)),
        ]), FunctionType.Orchestration)
    return Program("SeedResidency", (kernel, main))


def space_of(t: Type) -> MemorySpace | None:
    return t.memory_space if isinstance(t, TileType) else None


# ---- helpers over converted programs -------------------------------------------------------------

def run(program: Program) -> Program:
    from pl.lowering.ssa.convert import convert_to_ssa
    from pl.lowering.tensor_to_tile.rewrite import convert_tensor_to_tile_ops

    return convert_tensor_to_tile_ops(convert_to_ssa(program))


def assigns(body: Any) -> list[AssignStmt]:
    from pl.ir.traverse import walk_stmts

    return [s for s in walk_stmts(body) if isinstance(s, AssignStmt)]


def by_name(f: Function) -> dict[str, AssignStmt]:
    return {s.var.name: s for s in assigns(f.body)}


def call_of(s: AssignStmt) -> Call:
    assert isinstance(s.value, Call)
    return s.value


def kernel_of(fn: str, params: Sequence[tuple[str, Type]], body: list[Any],
              ret_types: Sequence[Type], ft: FunctionType = FunctionType.InCore) -> Function:
    vs = tuple(Var(n, t) for n, t in params)
    return Function(fn, vs, tuple(ParamDirection.In for _ in vs), tuple(ret_types),
                    make_body(body), ft)


BRIDGE = "__compiler_tensor_to_tile_mat_bridge"


# ---- the seed residency example ----------------------------------------------------------------

def test_seed_residency_converts_like_the_reference() -> None:
    out = run(seed_residency())
    kernel = out.get("kernel")
    assert kernel is not None
    loop = next(s for s in kernel.body.stmts if isinstance(s, ForStmt))  # type: ignore[attr-defined]
    names = [s.var.name for s in assigns(loop.body)]
    # reference-output/seed_residency.after.py before inference: loads stay in the loop.
    assert names == ["rhs_n__tile", "lhs__ssa_v0_mat", "c_n__tile", "acc_next__tile"]
    stmts = by_name(kernel)
    rhs_load, lhs_load = call_of(stmts["rhs_n__tile"]), call_of(stmts["lhs__ssa_v0_mat"])
    for load in (rhs_load, lhs_load):
        assert load.op_name == "tile.load"
        assert load.kwarg("target_memory") is MemorySpace.Mat
        assert load.attr(BRIDGE) is True
        assert space_of(load.type) is MemorySpace.Mat
    assert [e.value for e in lhs_load.args[1].elements] == [0, 0]  # type: ignore[attr-defined]
    assert [e.value for e in lhs_load.args[2].elements] == [16, 128]  # type: ignore[attr-defined]
    assert rhs_load.args[1].elements[1] is loop.loop_var  # type: ignore[attr-defined]
    mm = call_of(stmts["c_n__tile"])
    assert mm.op_name == "tile.matmul" and mm.kwargs == ()  # out_dtype dropped
    assert mm.args == (stmts["lhs__ssa_v0_mat"].var, stmts["rhs_n__tile"].var)
    assert space_of(mm.type) is MemorySpace.Acc
    store = call_of(stmts["acc_next__tile"])
    assert store.op_name == "tile.store"
    assert store.args[0] is stmts["c_n__tile"].var and store.args[2] is loop.iter_args[0]
    assert isinstance(store.type, TensorType)
    # returns a tensor: no synthesized Out param, call site untouched
    assert len(kernel.params) == 3
    main = out.get("main")
    assert main is not None and len(by_name(main)) == 2


def test_nested_assemble_in_yield_equals_unnested_form() -> None:
    from pl.structural import assert_structural_equal

    assert_structural_equal(run(seed_residency(nested=True)), run(seed_residency()))


def test_orchestration_functions_keep_tensor_ops() -> None:
    main = run(seed_residency()).get("main")
    assert main is not None
    ops = {call_of(s).op.name for s in assigns(main.body)}
    assert ops == {"tensor.create", "kernel"}


# ---- elementwise, entry loads, returned tiles --------------------------------------------------

def _add_program() -> Program:
    t = tensor([16, 128], DType.FP32)
    k = kernel_of("k", [("x", t), ("y", t)], [], [t])
    x, y = k.params
    z = Var("z", t)
    k = Function("k", k.params, k.directions, k.return_types,
                 make_body([AssignStmt(z, tcall("tensor.add", [x, y], t)), ReturnStmt((z,))]),
                 FunctionType.InCore)
    a, b, r = Var("a", t), Var("b", t), Var("r", t)
    main = Function("main", (a, b), (ParamDirection.In, ParamDirection.In), (t,),
                    make_body([AssignStmt(r, Call(GlobalVar("k"), (a, b), (), (), t)),
                               ReturnStmt((r,))]), FunctionType.Orchestration)
    return Program("P", (k, main))


def test_params_get_entry_vec_loads_and_returned_tile_gets_out_param() -> None:
    out = run(_add_program())
    k = out.get("k")
    assert k is not None
    stmts = by_name(k)
    assert list(stmts) == ["x__tile", "y__tile", "z__tile", "ret0__store"]
    for name in ("x__tile", "y__tile"):
        load = call_of(stmts[name])
        assert load.op_name == "tile.load" and load.kwarg("target_memory") is MemorySpace.Vec
        assert load.attr(BRIDGE) is None  # entry loads are not bridge-marked
    add = call_of(stmts["z__tile"])
    assert add.op_name == "tile.add" and add.args == (stmts["x__tile"].var, stmts["y__tile"].var)
    assert k.params[-1].name == "ret0__out" and k.directions[-1] is ParamDirection.Out
    store = call_of(stmts["ret0__store"])
    assert store.op_name == "tile.store" and store.args[2] is k.params[-1]
    assert isinstance(k.return_types[0], TensorType)


def test_call_sites_get_tensor_create_actuals() -> None:
    main = run(_add_program()).get("main")
    assert main is not None
    stmts = by_name(main)
    create = call_of(stmts["ret0__out"])
    assert create.op_name == "tensor.create" and create.kwarg("dtype") is DType.FP32
    call = next(call_of(s) for s in stmts.values() if isinstance(call_of(s).op, GlobalVar))
    assert len(call.args) == 3 and call.args[2] is stmts["ret0__out"].var


# ---- matmul bridging ----------------------------------------------------------------------------

def _matmul_kernel(**kwargs: Any) -> Program:
    a_t, b_t = tensor([64, 32], DType.BF16), tensor([64, 32], DType.BF16)
    c_t = tensor([64, 64], DType.FP32)
    k = kernel_of("k", [("a", a_t), ("b", b_t), ("o", c_t)], [], [c_t])
    a, b, o = k.params
    c, r = Var("c", c_t), Var("r", c_t)
    body = [AssignStmt(c, tcall("tensor.matmul", [a, b], c_t, **kwargs)),
            AssignStmt(r, tcall("tensor.assemble", [o, c, tup(0, 0)], c_t)), ReturnStmt((r,))]
    return Program("P", (Function("k", k.params, k.directions, k.return_types, make_body(body),
                                  FunctionType.InCore),))


def test_b_trans_operand_gets_transpose_view() -> None:
    k = run(_matmul_kernel(b_trans=True)).get("k")
    assert k is not None
    stmts = by_name(k)
    assert list(stmts) == ["a__ssa_v0_mat", "b__ssa_v0_mat", "b__ssa_v0_mat_t", "c__tile",
                           "r__tile"]
    view = call_of(stmts["b__ssa_v0_mat_t"])
    assert view.op_name == "tile.transpose_view" and view.args == (stmts["b__ssa_v0_mat"].var,)
    assert call_of(stmts["c__tile"]).args[1] is stmts["b__ssa_v0_mat_t"].var
    assert [d.value for d in stmts["c__tile"].var.type.shape] == [64, 64]  # type: ignore


def test_slice_without_mat_consumer_is_a_plain_vec_load() -> None:
    t = tensor([32, 64], DType.FP32)
    s_t = tensor([16, 64], DType.FP32)
    k = kernel_of("k", [("x", t), ("o", s_t)], [], [s_t])
    x, o = k.params
    s, e, r = Var("s", s_t), Var("e", s_t), Var("r", s_t)
    body = [AssignStmt(s, tcall("tensor.slice", [x, tup(16, 64), tup(16, 0)], s_t)),
            AssignStmt(e, tcall("tensor.exp", [s], s_t)),
            AssignStmt(r, tcall("tensor.assemble", [o, e, tup(0, 0)], s_t)), ReturnStmt((r,))]
    prog = Program("P", (Function("k", k.params, k.directions, k.return_types, make_body(body),
                                  FunctionType.InCore),))
    stmts = by_name(run(prog).get("k"))  # type: ignore[arg-type]
    assert list(stmts) == ["s__tile", "e__tile", "r__tile"]
    load = call_of(stmts["s__tile"])
    assert load.kwarg("target_memory") is MemorySpace.Vec and load.attr(BRIDGE) is None
    assert [d.value for d in load.args[1].elements] == [16, 0]  # type: ignore[attr-defined]
    assert call_of(stmts["e__tile"]).op_name == "tile.exp"


def test_unconvertible_tensor_op_is_a_located_error() -> None:
    import pytest


    t = tensor([16, 128], DType.FP32)
    k = kernel_of("k", [("x", t)], [], [t])
    (x,) = k.params
    y = Var("y", t)
    call = Call(Op("tensor.scatter_update"), (x, x, x), (("dim", 0),), (), t,
                span=Span("k.py", 3, 5))
    prog = Program("P", (Function("k", k.params, k.directions, k.return_types,
                                  make_body([AssignStmt(y, call), ReturnStmt((y,))]),
                                  FunctionType.InCore),))
    with pytest.raises(PlError) as err:
        run(prog)
    assert "tensor.scatter_update" in str(err.value) and err.value.span is not None


# ---- from DSL text (reference-output/seed_residency.py) ----------------------------------------

# The repository's copy of shared/spec/reference-output (tests/test_reference_outputs.py reads it too):
# an absolute path outside the clone holds only on the machine the suite was written on.
SEED_DIR = Path(__file__).resolve().parent / "reference_output"

# seed_residency.after.py before inference and residency: no Left/Right moves, loads in the loop.
EXPECTED_SEED_KERNEL = '''
import pl

@pl.function(type=pl.FunctionType.InCore)
def kernel(lhs: pl.Tensor[[16, 128], pl.BF16], rhs: pl.Tensor[[128, 256], pl.BF16],
           out: pl.Out[pl.Tensor[[16, 256], pl.FP32]]) -> pl.Tensor[[16, 256], pl.FP32]:
    for n, (acc,) in pl.range(0, 256, 128, init_values=(out,)):
        rhs_n__tile: pl.Tile[[128, 128], pl.BF16, pl.Mem.Mat] = pl.tile.load(
            rhs, [0, n], [128, 128], [128, 128], target_memory=pl.Mem.Mat)
        lhs_mat: pl.Tile[[16, 128], pl.BF16, pl.Mem.Mat] = pl.tile.load(
            lhs, [0, 0], [16, 128], [16, 128], target_memory=pl.Mem.Mat)
        c_n__tile: pl.Tile[[16, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(lhs_mat, rhs_n__tile)
        acc_next__tile: pl.Tensor[[16, 256], pl.FP32] = pl.tile.store(c_n__tile, [0, n], acc)
        result: pl.Tensor[[16, 256], pl.FP32] = pl.yield_(acc_next__tile)
    return result
'''


def _parse(text: str) -> Any:
    import pytest

    import pl  # noqa: F401  (initialises the DSL package before its parser)

    text_mod = pytest.importorskip("pl.lowering.frontend.parse")
    return text_mod.parse(text)


def _stamp_marker(f: Function) -> Function:
    """Give every Mat tile.load the bridge marker (as the reference's marked fixtures do)."""
    from pl.ir.rewriter import Rewriter
    from pl.lowering.tensor_to_tile.common import is_op_call, rededuce_call, with_attrs

    class Stamp(Rewriter):
        def assign(self, s: AssignStmt) -> list[Any]:
            v = s.value
            if is_op_call(v, "tile.load") and isinstance(v, Call) \
                    and v.kwarg("target_memory") is MemorySpace.Mat:
                return [AssignStmt(s.var, with_attrs(v, ((BRIDGE, True),)))]
            return [s]

    return Stamp(rededuce_call).function(f)


def _seed_source(nested: bool) -> str:
    with open(f"{SEED_DIR}/seed_residency.py", encoding="utf-8") as fh:
        src = fh.read()
    if nested:
        flat = ("            acc_next = pl.assemble(acc, c_n, [0, n])\n"
                "            result = pl.yield_(acc_next)")
        assert flat in src
        src = src.replace(flat, "            result = pl.yield_(pl.assemble(acc, c_n, [0, n]))")
    return src


def test_seed_from_dsl_text_matches_expected_program() -> None:
    from pl.structural import assert_structural_equal

    out = run(_parse(_seed_source(nested=False)))
    expected = _stamp_marker(_parse(EXPECTED_SEED_KERNEL))
    kernel = out.get("kernel")
    assert kernel is not None
    assert_structural_equal(kernel.body, expected.body, auto_mapping=True)
    assert [p.type for p in kernel.params] == [p.type for p in expected.params]


def test_seed_nested_dsl_form_compiles_to_the_same_program() -> None:
    from pl.structural import assert_structural_equal

    assert_structural_equal(run(_parse(_seed_source(nested=True))),
                            run(_parse(_seed_source(nested=False))))


DYNAMIC_CALLEE = '''
import pl

M = pl.dynamic("M")
N = pl.dynamic("N")


@pl.program
class DynShape:
    @pl.function(type=pl.FunctionType.InCore)
    def add_kernel(self, a: pl.Tensor[[M, N], pl.FP32],
                   b: pl.Tensor[[M, N], pl.FP32]) -> pl.Tensor[[M, N], pl.FP32]:
        result: pl.Tensor[[M, N], pl.FP32] = pl.add(a, b)
        return result

    @pl.function(type=pl.FunctionType.Orchestration)
    def orchestrator(self, a: pl.Tensor[[128, 64], pl.FP32],
                     b: pl.Tensor[[128, 64], pl.FP32]) -> pl.Tensor[[128, 64], pl.FP32]:
        c: pl.Tensor[[128, 64], pl.FP32] = self.add_kernel(a, b)
        return c
'''


@pytest.mark.parametrize(("backend", "residency"), [(None, True), ("910B", True), ("910B", False),
                                                     ("950", True)])
def test_an_out_param_of_a_dynamic_callee_is_created_with_the_callers_extents(
        backend: str | None, residency: bool) -> None:
    """The caller's fresh tensor for a callee's new Out param binds the callee's dynamic dims from
    the call's arguments ([M, N] called with [128, 64] tensors: a [128, 64] tensor), and the
    interpreter binds a parameter's dynamic dims from its argument's shape."""
    import numpy as np

    program = pl.parse(DYNAMIC_CALLEE)
    compiled = pl.compile(program, backend=backend, residency=residency, verify=True)
    assert "pl.tensor.create(\n            [128, 64]" in compiled.as_python() or \
        "pl.tensor.create([128, 64]" in compiled.as_python()
    rng = np.random.default_rng(0)
    a, b = (rng.standard_normal((128, 64)).astype(np.float32) for _ in range(2))
    want = pl.interpret(program, a, b, entry="orchestrator")
    got = pl.interpret(compiled.program, a, b, entry="orchestrator")
    assert np.array_equal(np.asarray(want), a + b) and np.array_equal(np.asarray(got), a + b)


# A returned tile is stored into an Out tensor of the declared return type, so a value of
# another shape is refused where it is returned (the store's offsets would not fit that tensor:
# found by the fuzzer, returning a [16, 16] parameter from a function declaring a rank-4 tensor).
@pytest.mark.parametrize(("returned", "declared"), [
    ("[16, 16]", "[8, 4, 16, 32]"),
    ("[16, 16]", "[16, 32]"),
])
def test_a_returned_tile_of_another_shape_than_declared_is_a_located_error(
        returned: str, declared: str) -> None:
    text = ("import pl\n\n\n@pl.program\nclass P:\n    @pl.function(type=pl.FunctionType.InCore)\n"
            f"    def f(self, x: pl.Tensor[{returned}, pl.FP32]) -> pl.Tensor[{declared}, pl.FP32]:\n"
            "        y = pl.add(x, x)\n"
            "        return y\n")
    with pytest.raises(PlError) as info:
        pl.compile(pl.parse(text, filename="k.py"), backend=None)
    assert f"this returns a {returned} tensor where the function declares {declared}" \
        in info.value.message
    assert info.value.span is not None and info.value.span.line == 9


# `tensor.assemble(..., atomic=pl.AtomicType.Add)` adds only as a store into GM. Into an
# on-chip tile (a `pl.create_tensor` of the InCore function), the conversion made a plain
# `tile.assemble` and dropped the atomic: two such assembles in a loop computed 2x where the
# source computes 4x (found by fuzzing the corpus kernels). The reference refuses both cases.
_ATOMIC = """import pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, x: pl.Tensor[[16, 64], pl.FP32],
          out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
BODY
        return out
"""


@pytest.mark.parametrize(("body", "what"), [
    ("        t = pl.create_tensor([16, 128], dtype=pl.FP32)\n"
     "        for _ in pl.range(2):\n"
     "            s = pl.add(x, x)\n"
     "            t = pl.assemble(t, s, [0, 64], atomic=pl.AtomicType.Add)\n"
     "        out = pl.assemble(out, t, [0, 0])", "assembles into an on-chip tile"),
], ids=["into_a_tile"])
def test_an_atomic_assemble_that_is_not_a_store_into_gm_is_a_located_error(
        body: str, what: str) -> None:
    text = _ATOMIC.replace("BODY", body)
    with pytest.raises(PlError) as info:
        pl.compile(pl.parse(text, filename="k.py"), backend=None)
    assert "atomic=pl.AtomicType.Add" in info.value.message and what in info.value.message
    culprit = next(n for n, line in enumerate(text.splitlines(), 1) if "atomic=" in line)
    assert info.value.span is not None and info.value.span.line == culprit


@pytest.mark.parametrize(("value", "times"), [("pl.add(x, x)", 4), ("x", 2)],
                         ids=["computed_tile", "tensor"])
def test_an_atomic_assemble_into_gm_adds(value: str, times: int) -> None:
    """A computed tile is stored with the atomic add; so is a tensor, loaded whole first (it was
    refused as a copy between two tensors, which the tensor op makes without adding; a kernel of
    the reference's outliner tests writes one in a pl.at scope)."""
    import numpy as np

    text = _ATOMIC.replace("BODY", "        for _ in pl.range(2):\n"
                                   f"            s = {value}\n"
                                   "            out = pl.assemble(out, s, [0, 64], "
                                   "atomic=pl.AtomicType.Add)")
    program = pl.parse(text)
    compiled = pl.compile(program, backend="910B", verify=True).program
    x = np.random.default_rng(0).standard_normal((16, 64)).astype(np.float32)
    for variant in (program, compiled):
        out = np.ones((16, 128), np.float32)
        pl.interpret(variant, x, out)
        assert np.array_equal(out[:, :64], np.ones((16, 64), np.float32))
        assert np.allclose(out[:, 64:], 1 + times * x)


def test_every_converted_op_gives_a_tile_of_its_tensor_level_dtype() -> None:
    """Each tensor op with a conversion, on operands of mixed dtypes (tiles, a tile with a
    [16, 1] one, FP32 / INT32 scalars), converts to a tile of the dtype its tensor-level type rule
    deduces, or the conversion is a located PlError; never a tile of another dtype."""
    from pl.ir.enums import DType, MemorySpace
    from pl.ir.expr import ConstFloat, ConstInt, Var
    from pl.ir.span import UNKNOWN_SPAN
    from pl.ir.types import TensorType, TileType
    from pl.lowering.tensor_to_tile.common import mk
    from pl.lowering.tensor_to_tile.convert import CONVERTERS
    from pl.lowering.tensor_to_tile.rewrite import convert_in_dtype

    full = (ConstInt(16, DType.INDEX), ConstInt(16, DType.INDEX))
    col = (ConstInt(16, DType.INDEX), ConstInt(1, DType.INDEX))
    dtypes = (DType.FP32, DType.BF16, DType.INT32, DType.INT8)
    scalars = (ConstFloat(0.5, DType.FP32), ConstInt(3, DType.INT32))

    def operands(dt: DType, shape: tuple[Any, ...]) -> tuple[Var, Var]:
        return Var("t", TensorType(shape, dt)), Var("t", TileType(shape, dt, MemorySpace.Vec))

    checked = set()
    for name, conv in sorted(CONVERTERS.items()):
        cases: list[tuple[list[Any], list[Any]]] = []
        for a in dtypes:
            ta, xa = operands(a, full)
            cases.append(([ta], [xa]))
            cases += [([ta, s], [xa, s]) for s in scalars]
            for b in dtypes:
                for shape in (full, col):
                    tb, xb = operands(b, shape)
                    cases += [([ta, tb], [xa, xb]), ([ta, tb, tb], [xa, xb, xb])]
        for tensor_args, tile_args in cases:
            try:
                want = mk(name, tensor_args).type
            except PlError:
                continue  # the tensor op itself refuses these operands
            try:
                _, result = convert_in_dtype(name, conv, tuple(tile_args), {}, UNKNOWN_SPAN, want)
            except PlError:
                continue
            if isinstance(want, TensorType) and isinstance(result.type, TileType):
                assert result.type.dtype is want.dtype, (name, [a.type for a in tensor_args])
                checked.add(name)
    assert len(checked) >= 40
