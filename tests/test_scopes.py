"""Scopes that run a task or a grid of blocks (issue 17): `with pl.at(...) as tid`, `with
pl.spmd(...) as tid`, `for i in pl.spmd(n)`, `for aiv_id in pl.split_aiv(2, mode=...)` and
`optimizations=[pl.split(..), pl.cross_core_slot(..)]`.

The kernels are the files of tests/language_forms/ (which also check that they print back to the
same text and compute the same after compiling); here: what they compute (a spmd body runs once per
block, a NONE split_aiv region once per lane, block ids outside any spmd are block 0 of 1, task ids
are opaque handles), that the compiled program reads back structurally equal, and the IR the
frontend builds for the loop forms.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

import pl
from pl.errors import PlError
from pl.ir import Program, ScopeKind, ScopeStmt
from pl.ir.enums import SplitMode
from pl.ir.expr import Call
from pl.ir.stmt import SeqStmts, make_body
from pl.ir.traverse import stmt_exprs, walk_exprs, walk_stmts
from pl.printer.exprs import default_ctx
from pl.printer.stmts import statement_text

FORMS = Path(__file__).resolve().parent / "language_forms"
SCOPE_FORMS = ["spmd_loop_blocks", "spmd_with_block_idx", "task_id_scopes", "split_aiv_lanes"]


def _program(name: str) -> Program:
    p = pl.parse((FORMS / f"{name}.py").read_text())
    assert isinstance(p, Program)
    return p


def _x() -> np.ndarray:
    return np.random.default_rng(7).standard_normal((16, 16)).astype(np.float32)


def _run(p: Program) -> np.ndarray:
    x, out = _x(), np.zeros((16, 16), np.float32)
    pl.interpret(p, x, out, 0)
    return out


@pytest.mark.parametrize("compiled", [False, True])
def test_spmd_loop_runs_its_body_once_per_block(compiled: bool) -> None:
    p = _program("spmd_loop_blocks")
    if compiled:
        p = pl.compile(p, backend="910B").program
    x = _x()
    want = np.concatenate([x[4 * i:4 * i + 4] * (i + 4) for i in range(4)])
    np.testing.assert_allclose(_run(p), want, rtol=1e-6)


def test_block_index_outside_spmd_is_block_0_of_1() -> None:
    x = _x()
    got = _run(_program("spmd_with_block_idx"))
    np.testing.assert_allclose(got[8:16], x[0:8])
    np.testing.assert_allclose(got[0:8], 2 * x[0:8])


def test_split_aiv_none_runs_both_lanes() -> None:
    np.testing.assert_allclose(_run(_program("split_aiv_lanes")), np.exp(_x()), rtol=1e-6)


def test_split_aiv_halving_is_not_interpretable() -> None:
    text = (FORMS / "split_aiv_lanes.py").read_text().replace("SplitMode.NONE", "SplitMode.UP_DOWN")
    p = pl.parse(text)
    assert isinstance(p, Program)
    with pytest.raises(PlError, match="split_aiv region of mode .* is not interpretable"):
        pl.interpret(p, _x(), np.zeros((16, 16), np.float32), 0)


@pytest.mark.parametrize("compiled", [False, True])
def test_task_ids_are_passed_along_and_tested(compiled: bool) -> None:
    p = _program("task_id_scopes")
    if compiled:
        p = pl.compile(p, backend="910B").program
    x = _x()
    got = _run(p)
    np.testing.assert_allclose(got[0:4], 2 * x[0:4])
    np.testing.assert_allclose(got[4:8], -(x[4:8] * x[4:8]))  # task_is_valid(last): True
    np.testing.assert_allclose(got[8:16], x[8:16] * x[8:16])  # task_is_valid(None): False


@pytest.mark.parametrize("name", SCOPE_FORMS)
def test_compiled_scopes_read_back_structurally_equal(name: str) -> None:
    compiled = pl.compile(_program(name), backend="910B")
    pl.assert_structural_equal(pl.parse(compiled.as_python()), compiled.program)
    source = _program(name)
    pl.assert_structural_equal(pl.parse(source.as_python()), source)


def _scopes(p: Program) -> list[ScopeStmt]:
    return [s for f in p.functions for s in walk_stmts(f.body) if isinstance(s, ScopeStmt)]


def test_spmd_loop_is_a_spmd_scope_around_an_incore_scope() -> None:
    spmd, incore = _scopes(_program("spmd_loop_blocks"))
    assert spmd.kind is ScopeKind.Spmd and spmd.body is incore
    assert incore.kind is ScopeKind.InCore and ("slot_num", 4) in incore.args
    first = [x for x in walk_stmts(incore.body)][1]
    assert isinstance(first.value, Call) and first.value.op_name == "tile.get_block_idx"


def test_split_none_is_no_split() -> None:
    """As in the reference, `pl.split(pl.SplitMode.NONE)` keeps no split: one IR for both."""
    text = (FORMS / "spmd_with_block_idx.py").read_text()
    none = pl.parse(text.replace("SplitMode.UP_DOWN", "SplitMode.NONE"))
    bare = pl.parse(text.replace(", optimizations=[pl.split(pl.SplitMode.UP_DOWN)]", ""))
    assert isinstance(none, Program)
    pl.assert_structural_equal(none, bare)
    assert "optimizations" not in none.as_python()


def test_aiv_shard_splits_as_its_split_aiv_region() -> None:
    p = pl.parse("""
import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, a: pl.Tensor[[64, 64], pl.FP32], b: pl.Tensor[[64, 64], pl.FP32],
               out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        a_l = pl.move(pl.load(a, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat),
                      target_memory=pl.MemorySpace.Left)
        b_r = pl.move(pl.load(b, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat),
                      target_memory=pl.MemorySpace.Right)
        acc = pl.matmul(a_l, b_r)
        for lane in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):
            half = pl.aiv_shard(acc)
            out = pl.store(pl.mul(half, 2.0), [lane * 32, 0], out)
        return out
""")
    assert isinstance(p, Program)
    shards = [e for f in p.functions for s in walk_stmts(f.body) for r in stmt_exprs(s)
              for e in walk_exprs(r) if isinstance(e, Call) and e.op_name.endswith("aiv_shard")]
    assert [dict(c.kwargs)["split"] for c in shards] == [int(SplitMode.UP_DOWN)]
    pl.assert_structural_equal(pl.parse(p.as_python()), p)
    with pytest.raises(PlError, match="splits as the loop does"):
        pl.parse(p.as_python().replace("split=1", "split=2"))


def test_split_aiv_region_without_its_lane_binding_still_prints_as_a_loop() -> None:
    """A region whose `aiv_id = tile.get_subblock_idx()` is gone (a hand-built IR) prints its
    whole body under a fresh `aiv_id`, as the reference prints it (a `with pl.split_aiv(...)`
    would not parse)."""
    p = _program("split_aiv_lanes")
    (region,) = [s for s in _scopes(p) if s.kind is ScopeKind.SplitAiv]
    body = [x for x in walk_stmts(region.body)][2:]  # the SeqStmts, then the lane binding
    assert isinstance(region.body, SeqStmts)
    stripped = replace(region, body=make_body(body))
    text = statement_text(stripped, default_ctx())
    assert "\nfor aiv_id in pl.split_aiv(2, mode=pl.SplitMode.NONE):\n" in text
    assert "get_subblock_idx" not in text


# A pl.spmd body that rebinds the names it passes to the kernel. The blocks run side by side, so
# each one calls the kernel with the tensors bound at scope entry; the interpreter ran the blocks
# as a loop carrying the names from block to block, so from the second block on it passed `out0`
# as both outputs (res1 is returned first) and the source computed another result than its
# compiled program, whose SSA names each block reads from scope entry (found by the fuzzer on a
# corpus kernel).
SPMD_REBIND = """import pl


@pl.program
class SpmdRebind:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 16], pl.FP32],
        b: pl.Tensor[[16, 16], pl.FP32],
        out0: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
        out1: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> tuple[pl.Tensor[[16, 16], pl.FP32], pl.Tensor[[16, 16], pl.FP32]]:
        ta: pl.Tile[[16, 16], pl.FP32] = pl.load(a, [0, 0], [16, 16])
        tb: pl.Tile[[16, 16], pl.FP32] = pl.load(b, [0, 0], [16, 16])
        res0: pl.Tensor[[16, 16], pl.FP32] = pl.store(pl.add(ta, tb), [0, 0], out0)
        res1: pl.Tensor[[16, 16], pl.FP32] = pl.store(pl.sub(ta, tb), [0, 0], out1)
        return res1, res0

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        a: pl.Tensor[[16, 16], pl.FP32],
        b: pl.Tensor[[16, 16], pl.FP32],
        out0: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
        out1: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> tuple[pl.Tensor[[16, 16], pl.FP32], pl.Tensor[[16, 16], pl.FP32]]:
        with pl.spmd(4):
            out0, out1 = self.kernel(a, b, out0, out1)
        return out0, out1
"""


@pytest.mark.parametrize("compiled", [False, True])
def test_spmd_blocks_read_the_names_bound_at_scope_entry(compiled: bool) -> None:
    p = pl.parse(SPMD_REBIND)
    assert isinstance(p, Program)
    if compiled:
        p = pl.compile(p, backend="910B").program
    rng = np.random.default_rng(3)
    a, b = (rng.standard_normal((16, 16)).astype(np.float32) for _ in range(2))
    out0, out1 = np.zeros((16, 16), np.float32), np.zeros((16, 16), np.float32)
    got0, got1 = pl.interpret(p, a, b, out0, out1)
    # Every block writes a + b into out0 and a - b into out1, and returns (res1, res0).
    np.testing.assert_allclose(np.asarray(got0), a - b, rtol=1e-6)
    np.testing.assert_allclose(np.asarray(got1), a + b, rtol=1e-6)
    np.testing.assert_allclose(out0, a + b, rtol=1e-6)
    np.testing.assert_allclose(out1, a - b, rtol=1e-6)
