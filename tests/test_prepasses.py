"""Tile-level pre-passes: FlattenTileNdTo2D, CanonicalizeTileSlice, AutoTileMatmulL0 (pass.md 7).

Kernels are built from `pl.ops.deduce.make_call` so every type is the registry's; checks inspect
op names, kwargs, the private bridge marker and the `<c>_l0_*` names of pass.md section 7.
"""

from __future__ import annotations

from typing import Any

import pytest

from pl.ir import (
    AssignStmt,
    Call,
    ConstInt,
    DType,
    ForKind,
    ForStmt,
    Function,
    FunctionType,
    IfStmt,
    MakeTuple,
    MemorySpace,
    ParamDirection,
    Program,
    ReturnStmt,
    Span,
    TensorType,
    TileType,
    Var,
    make_body,
)
from pl.ir.target import BACKENDS
from pl.ir.traverse import walk_stmts
from pl.lowering.auto_tile_l0 import auto_tile_matmul_l0
from pl.lowering.flatten_nd import flatten_tile_nd_to_2d
from pl.lowering.l0_tile_chooser import Problem, choose_l0_tile
from pl.lowering.tile_slice import canonicalize_tile_slice
from pl.ops.deduce import make_call

BRIDGE = "__compiler_tensor_to_tile_mat_bridge"
MAT, VEC = MemorySpace.Mat, MemorySpace.Vec


def idx(v: int) -> ConstInt:
    return ConstInt(v, DType.INDEX)


def tup(*vals: int) -> MakeTuple:
    return MakeTuple(tuple(idx(v) for v in vals))


class Builder:
    """Collects the statements of one InCore kernel."""

    def __init__(self) -> None:
        self.params: list[Var] = []
        self.stmts: list[Any] = []

    def param(self, name: str, shape: list[int], dtype: DType) -> Var:
        v = Var(name, TensorType(tuple(idx(d) for d in shape), dtype))
        self.params.append(v)
        return v

    def let(self, name: str, op: str, *args: Any, attrs: tuple[tuple[str, Any], ...] = (),
            span: Span | None = None, **kwargs: Any) -> Var:
        call = make_call(op, list(args), list(kwargs.items()), attrs,
                         span or Span("<test>", 0, 0))
        v = Var(name, call.type)
        self.stmts.append(AssignStmt(v, call))
        return v

    def load(self, name: str, src: Var, shape: list[int], space: MemorySpace,
             marked: bool = True) -> Var:
        attrs = ((BRIDGE, True),) if marked and space is MAT else ()
        zero = tup(*[0] * len(shape))
        return self.let(name, "tile.load", src, zero, tup(*shape), tup(*shape),
                        attrs=attrs, target_memory=space)

    def program(self, *ret: Var) -> Program:
        body = make_body([*self.stmts, ReturnStmt(tuple(ret))])
        f = Function("k", tuple(self.params), tuple(ParamDirection.In for _ in self.params),
                     tuple(r.type for r in ret), body, FunctionType.InCore)
        return Program("P", (f,))


def assigns(p: Program) -> dict[str, AssignStmt]:
    return {s.var.name: s for s in walk_stmts(p.functions[0].body) if isinstance(s, AssignStmt)}


def call_of(s: AssignStmt) -> Call:
    assert isinstance(s.value, Call)
    return s.value


def matmul_program(m: int, k: int, n: int, dtype: DType, lhs_space: MemorySpace = MAT,
                   acc: bool = False) -> Program:
    b = Builder()
    a_t, b_t = b.param("a", [m, k], dtype), b.param("b", [k, n], dtype)
    a = b.load("a_mat", a_t, [m, k], lhs_space)
    bm = b.load("b_mat", b_t, [k, n], MAT)
    if acc:
        c0 = b.let("c0", "tile.create", tup(m, n), dtype=DType.FP32, target_memory=MemorySpace.Acc)
        c = b.let("c", "tile.matmul_acc", c0, a, bm)
    else:
        c = b.let("c", "tile.matmul", a, bm)
    return b.program(c)


# ---- AutoTileMatmulL0 ---------------------------------------------------------------------------

@pytest.mark.parametrize("m,k,n,dtype,backend,expected", [
    (128, 512, 64, DType.BF16, "910B", 128),
    (128, 1024, 192, DType.BF16, "910B", 64),
    (32, 64, 128, DType.FP16, "910B", 64),      # fits: not tiled
    (128, 512, 64, DType.BF16, "950", 128),
    (64, 256, 64, DType.FP32, "910B", 128),     # 2*64*k*4 <= 64 KiB -> k <= 128; divides 256
])
def test_k_block_choice(m: int, k: int, n: int, dtype: DType, backend: str,
                        expected: int) -> None:
    size = dtype.bits // 8
    tile = choose_l0_tile(Problem(m, n, k, size, size, 4, 16), BACKENDS[backend])
    assert tile is not None and (tile.m, tile.n) == (m, n)
    assert tile.k == expected or (expected == k and (tile.m, tile.n, tile.k) == (m, n, k))
    out = auto_tile_matmul_l0(matmul_program(m, k, n, dtype), backend)
    loops = [s for s in walk_stmts(out.functions[0].body) if isinstance(s, ForStmt)]
    if expected == k:
        assert loops == []
    else:
        assert len(loops) == 1 and isinstance(loops[0].step, ConstInt)
        assert loops[0].step.value == expected and loops[0].stop.value == k  # type: ignore


def test_k_loop_shape_and_names() -> None:
    out = auto_tile_matmul_l0(matmul_program(128, 512, 64, DType.BF16), "910B")
    f = out.functions[0]
    stmts = assigns(out)
    init = call_of(stmts["c_l0_init"])
    assert init.op_name == "tile.create" and init.kwarg("target_memory") is MemorySpace.Acc
    assert [d.value for d in init.args[0].elements] == [128, 64]  # type: ignore[attr-defined]
    loop = next(s for s in walk_stmts(f.body) if isinstance(s, ForStmt))
    assert loop.kind is ForKind.Pipeline and dict(loop.attrs)["pipeline_stages"] == 2
    assert loop.loop_var.name == "c_l0_ko" and loop.iter_args[0].name == "c_l0_c"
    assert loop.iter_args[0].init is stmts["c_l0_init"].var
    a, b = call_of(stmts["c_l0_a"]), call_of(stmts["c_l0_b"])
    assert a.op_name == b.op_name == "tile.extract"
    assert a.kwarg("target_memory") is MemorySpace.Left
    assert b.kwarg("target_memory") is MemorySpace.Right
    assert a.args[2] is loop.loop_var and b.args[1] is loop.loop_var
    assert [d.value for d in a.args[3].elements] == [128, 128]  # type: ignore[attr-defined]
    assert [d.value for d in b.args[3].elements] == [128, 64]  # type: ignore[attr-defined]
    branch = next(s for s in walk_stmts(loop.body) if isinstance(s, IfStmt))
    assert branch.return_vars[0].name == "c_l0_c_phi"
    assert call_of(stmts["c_l0_c_first"]).op_name == "tile.matmul"
    acc = call_of(stmts["c_l0_c_acc"])
    assert acc.op_name == "tile.matmul_acc" and acc.args[0] is loop.iter_args[0]
    # the function now returns the loop's result
    ret = f.body.stmts[-1]  # type: ignore[attr-defined]
    assert isinstance(ret, ReturnStmt) and ret.values[0] is loop.return_vars[0]
    assert "c" not in stmts


def test_matmul_acc_uses_the_caller_accumulator_uniformly() -> None:
    out = auto_tile_matmul_l0(matmul_program(128, 512, 64, DType.BF16, acc=True), "910B")
    stmts = assigns(out)
    loop = next(s for s in walk_stmts(out.functions[0].body) if isinstance(s, ForStmt))
    assert loop.iter_args[0].init is stmts["c0"].var
    assert "c_l0_init" not in stmts and not any(isinstance(s, IfStmt)
                                                for s in walk_stmts(loop.body))
    assert call_of(stmts["c_l0_c_acc"]).op_name == "tile.matmul_acc"


def test_vec_lhs_is_staged_into_mat_before_the_loop() -> None:
    out = auto_tile_matmul_l0(matmul_program(128, 512, 64, DType.BF16, lhs_space=VEC), "910B")
    stmts = assigns(out)
    move = call_of(stmts["c_l0_lmat"])
    assert move.op_name == "tile.move" and move.kwarg("target_memory") is MAT
    assert call_of(stmts["c_l0_a"]).args[0] is stmts["c_l0_lmat"].var


def test_backend_none_is_a_no_op() -> None:
    prog = matmul_program(128, 512, 64, DType.BF16)
    assert auto_tile_matmul_l0(prog, None) is prog


def test_accumulator_over_l0c_without_a_store_is_left_alone() -> None:
    """M/N tiling folds into the one store that consumes the product; a product returned (or
    read twice) is left as it is, as the reference leaves it."""
    b = Builder()
    a_t, b_t = b.param("a", [256, 64], DType.FP16), b.param("b", [64, 256], DType.FP16)
    a, bm = b.load("a_mat", a_t, [256, 64], MAT), b.load("b_mat", b_t, [64, 256], MAT)
    c = b.let("c", "tile.matmul", a, bm, span=Span("k.py", 7, 9))
    prog = b.program(c)
    assert auto_tile_matmul_l0(prog, "910B") is prog  # 256*256*4 = 256 KiB > 128 KiB
    assert auto_tile_matmul_l0(prog, "950") is prog  # 256 KiB L0C: fits


# ---- FlattenTileNdTo2D --------------------------------------------------------------------------

def test_flatten_merges_leading_dims_and_keeps_the_marker() -> None:
    b = Builder()
    x = b.param("x", [2, 16, 64], DType.FP32)
    o = b.param("o", [2, 16, 64], DType.FP32)
    t = b.load("t", x, [2, 16, 64], MAT)
    v = b.load("v", x, [2, 16, 64], VEC)
    e = b.let("e", "tile.exp", v)
    s = b.let("s", "tile.store", e, tup(0, 0, 0), o)
    out = flatten_tile_nd_to_2d(b.program(s))
    stmts = assigns(out)
    for name in ("t", "v", "e"):
        ty = stmts[name].var.type
        assert isinstance(ty, TileType) and [d.value for d in ty.shape] == [32, 64]  # type: ignore
    assert call_of(stmts["t"]).attr(BRIDGE) is True
    assert stmts["t"].var.type.memory_space is MAT  # type: ignore[attr-defined]
    store = call_of(stmts["s"])
    assert store.args[0] is stmts["e"].var and len(store.args) == 4
    assert [d.value for d in store.args[3].elements] == [2, 16, 64]  # type: ignore[attr-defined]
    assert t is not stmts["t"].var  # flattened values are new vars


def test_flatten_leaves_2d_tiles_alone() -> None:
    prog = matmul_program(32, 64, 128, DType.FP16)
    out = flatten_tile_nd_to_2d(prog)
    assert [s.var for s in assigns(out).values()] == [s.var for s in assigns(prog).values()]


# ---- CanonicalizeTileSlice ----------------------------------------------------------------------

@pytest.mark.parametrize("slot,space", [(0, MemorySpace.Left), (1, MemorySpace.Right)])
def test_mat_slice_feeding_matmul_becomes_extract(slot: int, space: MemorySpace) -> None:
    b = Builder()
    a_t, b_t = b.param("a", [64, 64], DType.BF16), b.param("b", [64, 64], DType.BF16)
    a, bm = b.load("a_mat", a_t, [64, 64], MAT), b.load("b_mat", b_t, [64, 64], MAT)
    src = (a, bm)[slot]
    sl = b.let("sl", "tile.slice", src, tup(32, 64) if slot == 0 else tup(64, 32),
               tup(32, 0) if slot == 0 else tup(0, 32))
    args = (sl, bm) if slot == 0 else (a, sl)
    c = b.let("c", "tile.matmul", *args)
    out = canonicalize_tile_slice(b.program(c))
    stmts = assigns(out)
    ext = call_of(stmts["sl"])
    assert ext.op_name == "tile.extract" and ext.kwarg("target_memory") is space
    assert ext.args[0] is src
    assert call_of(stmts["c"]).args[slot] is stmts["sl"].var


def test_mat_slice_feeding_extract_is_folded() -> None:
    b = Builder()
    a_t = b.param("a", [64, 64], DType.BF16)
    a = b.load("a_mat", a_t, [64, 64], MAT)
    sl = b.let("sl", "tile.slice", a, tup(32, 64), tup(32, 0))
    e = b.let("e", "tile.extract", sl, idx(0), idx(16), tup(16, 16),
              target_memory=MemorySpace.Left)
    out = canonicalize_tile_slice(b.program(e))
    stmts = assigns(out)
    assert "sl" not in stmts
    ext = call_of(stmts["e"])
    assert ext.args[0] is a and [x.value for x in ext.args[1:3]] == [32, 16]  # type: ignore


CHAINED_SLICES = """import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, lhs: pl.Tensor[[32, 256], pl.BF16], rhs: pl.Tensor[[256, 64], pl.BF16],
               out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        lhs_mat = pl.load(lhs, [0, 0], [32, 256], target_memory=pl.MemorySpace.Mat)
        rhs_mat = pl.load(rhs, [0, 0], [256, 64], target_memory=pl.MemorySpace.Mat)
        s1 = pl.tile.slice(lhs_mat, [28, 256], [4, 0])
        s2 = pl.tile.slice(s1, [24, 256], [3, 0])
        s3 = pl.tile.slice(s2, [16, 256], [2, 0])
        a = pl.tile.extract(s3, 0, 0, shape=[16, 256], target_memory=pl.MemorySpace.Left)
        b = pl.tile.extract(rhs_mat, 0, 0, shape=[256, 64], target_memory=pl.MemorySpace.Right)
        c = pl.matmul(a, b)
        out = pl.store(c, [0, 0], out)
        return out
"""


def test_chained_mat_slices_peel_to_the_root_in_one_run() -> None:
    """Three slices deep: one extract of the root at the summed offset (4 + 3 + 2 = 9),
    and the pass is a fixed point (else compiling the printed program folds again)."""
    import pl

    prog = pl.passes.convert_to_ssa()(pl.parse(CHAINED_SLICES))
    out = canonicalize_tile_slice(prog)
    stmts = assigns(out)
    assert not any(call_of(st).op_name == "tile.slice" for st in stmts.values())
    ext = call_of(next(st for n, st in stmts.items() if n.startswith("a__")))
    assert ext.args[0].name.startswith("lhs_mat")  # type: ignore[attr-defined]
    assert [x.value for x in ext.args[1:3]] == [9, 0]  # type: ignore[attr-defined]
    assert canonicalize_tile_slice(out) is out
    for backend in (None, "910B", "950"):
        compiled = pl.compile(pl.parse(CHAINED_SLICES), backend=backend,
                              verify=True)
        again = pl.compile(pl.parse(compiled.as_python()), backend=backend, verify=True)
        pl.assert_structural_equal(again.program, compiled.program)


def test_vec_slice_is_left_alone() -> None:
    b = Builder()
    a_t = b.param("a", [64, 64], DType.FP32)
    a = b.load("a_v", a_t, [64, 64], VEC)
    sl = b.let("sl", "tile.slice", a, tup(32, 64), tup(32, 0))
    e = b.let("e", "tile.exp", sl)
    prog = b.program(e)
    assert call_of(assigns(canonicalize_tile_slice(prog))["sl"]).op_name == "tile.slice"
