"""Compiling is idempotent: the printed compiled program compiles to itself (data tests).

show_inferred verifies its output by reading it back and compiling it again
(pl/show_inferred/verify.py), so every compiler non-idempotence is an exit 123 on a valid kernel.
Each kernel below is one class the reference corpus showed; each must compile with every pass
checked, and compile again from its printed form to the same program, on every backend, and go
through show_inferred verified.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_show_verify import check_every_mode
from wrap_check import unbroken

import pl

KERNELS = {
    # An AIV function whose tile result is declared without a space: inference places the
    # returned tile, and the result type follows it (tensor-to-tile types it that way on the
    # second compile).
    "tile_result_takes_the_placed_type": '''import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.AIV)
    def kernel(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tile[[64], pl.FP32]:
        t: pl.Tile[[64], pl.FP32] = pl.load(x, [0], [64], target_memory=pl.MemorySpace.Mat)
        e: pl.Tile[[64], pl.FP32] = pl.exp(t)
        return e
''',
    # A valid shape given by a scalar parameter: the shown annotations (and the inserted move's)
    # spell the parameter as the user names it, not its SSA name.
    "dynamic_valid_shape_in_an_annotation": '''import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[16, 128], pl.BF16], y: pl.Tensor[[128, 128], pl.BF16],
               n: pl.Scalar[pl.INDEX],
               out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
        a = pl.load(x, [0, 0], [16, 128], valid_shape=[16, n])
        b = pl.load(y, [0, 0], [128, 128], valid_shape=[n, 128])
        c = pl.matmul(a, b)
        out = pl.store(c, [0, 0], out)
        return out
''',
    # A cross-core pop has no result rule: its annotation types it, space and view. Inference
    # keeps that space (the reference stores the annotation on the call and reads it there), and
    # the shown annotation keeps the view written for it.
    "cross_core_pop_keeps_its_annotated_space": '''import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.AIC)
    def cube(self, y: pl.Tensor[[128, 128], pl.BF16]):
        p: pl.Tile[[16, 128], pl.BF16, pl.MemorySpace.Left,
                   pl.TileView(blayout=pl.TileLayout.col_major, slayout=pl.TileLayout.row_major),
                   ] = pl.tpop_from_aiv(split=0)  # popped straight into Left
        b = pl.load(y, [0, 0], [128, 128], target_memory=pl.MemorySpace.Mat)
        c = pl.matmul(p, b)
        pl.tpush_to_aiv(c, split=0)
''',
    # A matmul whose operands overflow L0 and that AutoTileMatmulL0 leaves alone (its result is
    # not stored): inference moves its Mat operands to Left and Right, and compiling that again
    # must not reject those moves as hand-placed operands too large to retile.
    "untiled_matmul_keeps_its_inferred_l0_moves": '''import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, a: pl.Tensor[[128, 512], pl.FP16], b: pl.Tensor[[512, 256], pl.FP16],
               out: pl.Out[pl.Tensor[[128, 256], pl.FP32]]) -> pl.Tensor[[128, 256], pl.FP32]:
        a_mat = pl.load(a, [0, 0], [128, 512], target_memory=pl.MemorySpace.Mat)
        b_mat = pl.load(b, [0, 0], [512, 256], target_memory=pl.MemorySpace.Mat)
        c = pl.matmul(a_mat, b_mat)
        return out
''',
    # A loop's result is typed like its iter arg, not by the yield's annotation (INT64 for an
    # INDEX start here): once SSA carries `o` too the yield prints `n_out, o_rv = pl.yield_(..)`,
    # which has no annotation to carry another type.
    "loop_result_typed_like_its_iter_arg": '''import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def step(self, a: pl.Tensor[[16, 16], pl.FP32],
             o: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(a, [0, 0], [16, 16])
        o = pl.store(pl.add(t, t), [0, 0], o)
        return o

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[16, 16], pl.FP32],
             o: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        for _i, (n,) in pl.range(3, init_values=(2,)):
            o = self.step(a, o)
            n_out: pl.Scalar[pl.INT64] = pl.yield_(n)
        for _j in pl.range(n_out):
            o = self.step(a, o)
        return o
''',
    # The if's twin: its result keeps the yield's annotation (as in the reference), so the
    # literal it yields is written with that dtype, which a tuple-form yield still carries.
    "if_result_literal_takes_the_declared_dtype": '''import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def step(self, a: pl.Tensor[[16, 16], pl.FP32],
             o: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(a, [0, 0], [16, 16])
        o = pl.store(pl.add(t, t), [0, 0], o)
        return o

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[16, 16], pl.FP32], c: pl.Scalar[pl.BOOL],
             o: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        if c:
            o = self.step(a, o)
            n: pl.Scalar[pl.INT64] = pl.yield_(2)
        else:
            o = self.step(a, o)
            n: pl.Scalar[pl.INT64] = pl.yield_(3)
        for _j in pl.range(n):
            o = self.step(a, o)
        return o
''',
    # A loop carries an if's result into an accumulator: inference retypes the result Acc while
    # its branches yield Vec tiles (pass.md, as in the reference). SSA adds `out` to the if, so
    # the yield prints as `out_phi, p = pl.yield_(..)`, and the result's type prints as a
    # declaration `p: pl.Tile[..., Acc]` before the if.
    "if_result_retyped_by_a_loop_accumulator": '''import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
               m: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 16], pl.FP32]:
        a = pl.load(x, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        if m < 0:
            u = pl.load(x, [0, 0], [16, 16])
            out = pl.store(u, [0, 0], out)
            p = pl.yield_(u)
        else:
            v = pl.load(x, [0, 0], [16, 16])
            p = pl.yield_(v)
        for _i, (c,) in pl.range(2, init_values=(p,)):
            n = pl.matmul_acc(c, a, a)
            r = pl.yield_(n)
        out = pl.store(r, [0, 0], out)
        return out
''',
    # The same with two results written by the user: the retyped one is declared, the other not.
    "if_tuple_result_retyped_by_a_loop_accumulator": '''import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
               m: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 16], pl.FP32]:
        a = pl.load(x, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        if m < 0:
            u = pl.load(x, [0, 0], [16, 16])
            p, q = pl.yield_(u, u)
        else:
            v = pl.load(x, [0, 0], [16, 16])
            w = pl.neg(v)
            p, q = pl.yield_(v, w)
        for _i, (c,) in pl.range(2, init_values=(p,)):
            n = pl.matmul_acc(c, a, a)
            r = pl.yield_(n)
        out = pl.store(pl.add(q, r), [0, 0], out)
        return out
''',
    # The scalar twin: a non-literal yielded under an annotation of another dtype. SSA adds `o`,
    # so `n`'s INT64 prints as a declaration before the if.
    "if_result_annotated_with_another_dtype": '''import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def step(self, a: pl.Tensor[[16, 16], pl.FP32],
             o: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(a, [0, 0], [16, 16])
        o = pl.store(pl.add(t, t), [0, 0], o)
        return o

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[16, 16], pl.FP32], c: pl.Scalar[pl.BOOL],
             k: pl.Scalar[pl.INDEX],
             o: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        if c:
            o = self.step(a, o)
            n: pl.Scalar[pl.INT64] = pl.yield_(k)
        else:
            o = self.step(a, o)
            n: pl.Scalar[pl.INT64] = pl.yield_(k + 1)
        for _j in pl.range(n):
            o = self.step(a, o)
        return o
''',
    # A matmul result rebound in its block to a Vec tile: show_inferred annotates the first
    # binding Acc and the second Vec. Reading that back, `twice` took its layout from the first
    # binding (the Acc tile's col-major box), where the unannotated source gave it none.
    "tile_rebound_in_its_block_with_another_space": '''import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, lhs: pl.Tensor[[64, 64], pl.FP16], rhs: pl.Tensor[[64, 64], pl.FP16],
               out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
               out2: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
               ) -> tuple[pl.Tensor[[64, 64], pl.FP32], pl.Tensor[[64, 64], pl.FP32]]:
        a = pl.load(lhs, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        b = pl.load(rhs, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        c = pl.matmul(a, b)
        out = pl.store(c, [0, 0], out)
        c = pl.add(c, c)
        twice = pl.add(c, c)
        out2 = pl.store(twice, [0, 0], out2)
        return out, out2
''',
    # A one-iteration pl.unroll loop is unrolled away: its statement was taken for one moved
    # out of a loop, so the loop was left with an empty body and the output was not Python.
    "single_iteration_unroll": '''import pl


@pl.program
class K:
    @pl.function
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        for i in pl.unroll(1):
            x = pl.add(x, 1.0)
        return x
''',
    # A dynamic dimension the file binds under another name than its own: the inferred
    # annotation spelled it `N`, which the file does not bind.
    "dynamic_dimension_bound_under_another_name": '''import pl

n = pl.dynamic("N")


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, a: pl.Tensor[[n, 64], pl.FP32],
               out: pl.Out[pl.Tensor[[n, 64], pl.FP32]]) -> pl.Tensor[[n, 64], pl.FP32]:
        t = pl.load(a, [0, 0], [n, 64], valid_shape=[n - 1, 64])
        out = pl.store(t, [0, 0], out)
        return out
''',
    # A matmul operand loaded into Vec is left alone by AutoTileMatmulL0, and inference moves
    # it to Right: compiling that again refused the move as a hand-placed oversized operand.
    "vec_operand_moved_to_right_by_inference": '''import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, lhs: pl.Tensor[[16, 2048], pl.BF16], rhs: pl.Tensor[[2048, 64], pl.BF16],
               out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        a = pl.load(lhs, [0, 0], [16, 2048], target_memory=pl.MemorySpace.Mat)
        b = pl.load(rhs, [0, 0], [2048, 64])
        c = pl.matmul(a, b)
        out = pl.store(c, [0, 0], out)
        return out
''',
    # A matmul result too large for L0 fed to another matmul: inference moves it from Acc to
    # Left and Right, which compiling again refused as a hand-placed oversized operand (found
    # by the fuzzer).
    "acc_result_moved_to_left_by_inference": '''import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, lhs: pl.Tensor[[256, 64], pl.FP16], rhs: pl.Tensor[[64, 256], pl.FP16],
               out: pl.Out[pl.Tensor[[256, 256], pl.FP32]]) -> pl.Tensor[[256, 256], pl.FP32]:
        a = pl.load(lhs, [0, 0], [256, 64], target_memory=pl.MemorySpace.Mat)
        b = pl.load(rhs, [0, 0], [64, 256], target_memory=pl.MemorySpace.Mat)
        c = pl.matmul(a, b)
        twice = pl.matmul(c, c)
        out = pl.store(twice, [0, 0], out)
        return out
''',
}

SPACES = {"cross_core_pop_keeps_its_annotated_space": ("p", "Left")}


@pytest.mark.parametrize("backend", [None, "910B", "950"])
@pytest.mark.parametrize("name", sorted(KERNELS))
def test_compiling_the_printed_program_gives_it_back(name: str, backend: str | None,
                                                      tmp_path: Path) -> None:
    text = KERNELS[name]
    compiled = pl.compile(pl.parse(text), backend=backend, verify=True)
    again = pl.compile(pl.parse(compiled.as_python()), backend=backend, verify=True)
    pl.assert_structural_equal(again.program, compiled.program)
    if name in SPACES:
        var, space = SPACES[name]
        placed = [d.space.name for d in compiled.decisions.spaces if d.name.startswith(var + "__")]
        assert placed == [space]
    check_every_mode(text, tmp_path, backend=backend or "none")


def test_a_one_name_yield_shows_the_result_it_binds_also_when_ssa_adds_results() -> None:
    # SSA adds `out` to the if (the then branch rebinds it), so the compiled yield gives two
    # values; the user's line `p = pl.yield_(u)` still binds only `p`, which a loop retypes Acc.
    shown = pl.show_inferred(KERNELS["if_result_retyped_by_a_loop_accumulator"], backend="910B")
    acc = "pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Acc]"
    assert f"p: {acc} = pl.yield_(u)" in shown
    assert f"p: {acc} = pl.yield_(v)" in shown
    assert "out = pl.store(u, [0, 0], out)" in shown  # the other result's line, as written


def test_a_declared_if_result_shows_its_inferred_space(tmp_path: Path) -> None:
    # The user declares `p` Vec; a loop carries it into an accumulator, so inference places it
    # in Acc, and the declaration shows Acc as an annotated assignment would.
    text = (Path(__file__).parent / "language_forms" / "if_result_declared_before_the_if.py"
            ).read_text().replace("pl.MemorySpace.Acc]\n", "pl.MemorySpace.Vec]\n", 1)
    assert "        p: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Vec]\n" in text
    shown = pl.show_inferred(text, backend="910B")
    assert "        p: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Acc]\n        if m > 2:" in shown
    check_every_mode(text, tmp_path, backend="910B")


def test_a_dynamic_dimension_is_spelled_as_the_file_binds_it() -> None:
    text = KERNELS["dynamic_dimension_bound_under_another_name"]
    shown = pl.show_inferred(text, backend="910B")
    assert "t: pl.Tile[[n, 64], pl.FP32, pl.MemorySpace.Vec" in unbroken(shown)


def test_a_function_whose_loop_is_unrolled_away_is_left_as_written() -> None:
    text = KERNELS["single_iteration_unroll"]
    assert pl.show_inferred(text, backend="910B") == text
