"""Before/Expected DSL programs for memory-space inference, one `Case` per scenario of pass.md 8.

Each case gives the parameters and return type of one InCore function `main`, its body before the
pass and its body as the pass must leave it, the inserted move names in insertion order, and a few
decision-log entries `(value name, space, reason kind)`. Expected bodies were derived from pass.md
sections 1-4 and ops.md 5 (implicit views), not from our own output.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field

V = "pl.MemorySpace.Vec"
M = "pl.MemorySpace.Mat"
L = "pl.MemorySpace.Left"
R = "pl.MemorySpace.Right"
A = "pl.MemorySpace.Acc"
COLROW = "pl.TileView(blayout=pl.TileLayout.col_major, slayout=pl.TileLayout.row_major)"
# The keywords of a move of an Acc tile to Vec.
MOVE_VEC = f"target_memory={V}, blayout=pl.TileLayout.row_major, slayout=pl.TileLayout.none_box"


@dataclass(frozen=True)
class Case:
    name: str
    params: str
    ret: str
    before: str
    expected: str
    moves: tuple[str, ...] = ()
    decisions: tuple[tuple[str, str, str], ...] = ()
    backend: str | None = None
    extra: str = field(default="")  # more functions, same in Before and Expected
    # `dump_vars` attr of the matmul (names in Before, names in Expected). Our frontend does not
    # take `attrs={...}` on op calls, so the test attaches it to the parsed IR.
    dump_vars: tuple[tuple[str, ...], tuple[str, ...]] | None = None
    verifier_errors: int = 0  # violations the TileMemoryInferred verifier must still find

    def source(self, which: str) -> str:
        body = self.before if which == "Before" else self.expected
        head = ("import pl\n\n\n@pl.program\nclass " + which + ":\n"
                "    @pl.function(type=pl.FunctionType.InCore)\n"
                f"    def main(self, {self.params}) -> {self.ret}:\n")
        text = head + textwrap.indent(textwrap.dedent(body).strip("\n"), " " * 8) + "\n"
        if self.extra:
            text += "\n" + textwrap.indent(textwrap.dedent(self.extra).strip("\n"), " " * 4) + "\n"
        return text


T16 = "pl.Tensor[[16, 128], pl.FP32]"
P_VEC = f"x: {T16}, out: pl.Out[{T16}]"
P_MM = ("x: pl.Tensor[[16, 128], pl.BF16], y: pl.Tensor[[128, 128], pl.BF16], "
        f"out: pl.Out[{T16}]")
P_MM_N = P_MM + ", n: pl.Scalar[pl.INDEX]"

# The matmul operands as explicit Mat loads moved to Left / Right (no inference needed).
MM_OPERANDS_BEFORE = """
    a: pl.Tile[[16, 128], pl.BF16] = pl.load(x, [0, 0], [16, 128], target_memory=pl.MemorySpace.Mat)
    b: pl.Tile[[128, 128], pl.BF16] = pl.load(y, [0, 0], [128, 128], target_memory=pl.MemorySpace.Mat)
    a_l: pl.Tile[[16, 128], pl.BF16] = pl.move(a, target_memory=pl.MemorySpace.Left)
    b_r: pl.Tile[[128, 128], pl.BF16] = pl.move(b, target_memory=pl.MemorySpace.Right)
"""
MM_OPERANDS_EXPECTED = f"""
    a: pl.Tile[[16, 128], pl.BF16, {M}] = pl.tile.load(x, [0, 0], [16, 128], [16, 128], target_memory={M})
    b: pl.Tile[[128, 128], pl.BF16, {M}] = pl.tile.load(y, [0, 0], [128, 128], [128, 128], target_memory={M})
    a_l: pl.Tile[[16, 128], pl.BF16, {L}] = pl.tile.move(a, target_memory={L})
    b_r: pl.Tile[[128, 128], pl.BF16, {R}] = pl.tile.move(b, target_memory={R})
"""
VEC_LOADS_BEFORE = """
    x_tile: pl.Tile[[16, 128], pl.BF16] = pl.load(x, [0, 0], [16, 128])
    y_tile: pl.Tile[[128, 128], pl.BF16] = pl.load(y, [0, 0], [128, 128])
"""
VEC_LOADS_EXPECTED = f"""
    x_tile: pl.Tile[[16, 128], pl.BF16, {V}] = pl.tile.load(x, [0, 0], [16, 128], [16, 128], target_memory={V})
    y_tile: pl.Tile[[128, 128], pl.BF16, {V}] = pl.tile.load(y, [0, 0], [128, 128], [128, 128], target_memory={V})
"""
LR_MOVES = f"""
    x_tile_Left: pl.Tile[[16, 128], pl.BF16, {L}] = pl.tile.move(x_tile, target_memory={L})
    y_tile_Right: pl.Tile[[128, 128], pl.BF16, {R}] = pl.tile.move(y_tile, target_memory={R})
"""


def _nine(text: str) -> str:
    """Indent a shared body fragment like the case bodies below (9 spaces) so they concatenate."""
    return "\n" + textwrap.indent(textwrap.dedent(text).strip("\n"), " " * 9) + "\n"


MM_OPERANDS_BEFORE, MM_OPERANDS_EXPECTED = _nine(MM_OPERANDS_BEFORE), _nine(MM_OPERANDS_EXPECTED)
VEC_LOADS_BEFORE, VEC_LOADS_EXPECTED = _nine(VEC_LOADS_BEFORE), _nine(VEC_LOADS_EXPECTED)
LR_MOVES = _nine(LR_MOVES)
T32 = "pl.Tensor[[32, 128], pl.FP32]"
P_MM32 = P_MM + f", o32: pl.Out[{T32}]"
CREATE_VEC_BEFORE = _nine(
    f"init: pl.Tile[[16, 128], pl.FP32] = pl.tile.create([16, 128], dtype=pl.FP32, target_memory={V})")
CREATE_ACC_EXPECTED = _nine(
    f"init: pl.Tile[[16, 128], pl.FP32, {A}] = pl.tile.create([16, 128], dtype=pl.FP32, "
    f"target_memory={A})")


def acc_loop(init: str, placed: bool) -> str:
    """`acc_out`, matmul_acc(acc, a_l, b_r) accumulated from `init` over 4 trips: as written
    (Before) or with every tile in Acc (`placed`, Expected)."""
    t = f"pl.Tile[[16, 128], pl.FP32, {A}]" if placed else "pl.Tile[[16, 128], pl.FP32]"
    mm = "pl.tile.matmul_acc" if placed else "pl.matmul_acc"
    return _nine(f"""
        for i, (acc,) in pl.range(4, init_values=({init},)):
            c: {t} = {mm}(acc, a_l, b_r)
            acc_out: {t} = pl.yield_(c)
        """)


CASES: list[Case] = [
    # -- TestInferTileMemorySpaceKwargOps -------------------------------------------------------
    Case("load_default_vec", "x: pl.Tensor[[64], pl.FP32], out: pl.Out[pl.Tensor[[64], pl.FP32]]",
         "pl.Tensor[[64], pl.FP32]",
         """
         t: pl.Tile[[64], pl.FP32] = pl.load(x, [0], [64])
         r: pl.Tensor[[64], pl.FP32] = pl.store(t, [0], out)
         return r
         """,
         f"""
         t: pl.Tile[[64], pl.FP32, {V}] = pl.tile.load(x, [0], [64], [64], target_memory={V})
         r: pl.Tensor[[64], pl.FP32] = pl.tile.store(t, [0], out)
         return r
         """, decisions=(("t", "Vec", "explicit_kwarg"),)),
    Case("load_with_mat_kwarg", P_VEC, T16,
         f"""
         x_tile: pl.Tile[[16, 128], pl.FP32] = pl.load(x, [0, 0], [16, 128], target_memory={M})
         r: {T16} = pl.store(x_tile, [0, 0], out)
         return r
         """,
         f"""
         x_tile: pl.Tile[[16, 128], pl.FP32, {M}] = pl.tile.load(x, [0, 0], [16, 128], [16, 128], target_memory={M})
         x_tile_Vec: pl.Tile[[16, 128], pl.FP32, {V}, {COLROW}] = pl.tile.move(x_tile, target_memory={V})
         r: {T16} = pl.tile.store(x_tile_Vec, [0, 0], out)
         return r
         """, moves=("x_tile_Vec",), decisions=(("x_tile", "Mat", "explicit_kwarg"),)),
    Case("move_with_left_kwarg", P_VEC, T16,
         f"""
         a: pl.Tile[[16, 128], pl.FP32] = pl.load(x, [0, 0], [16, 128], target_memory={M})
         b: pl.Tile[[16, 128], pl.FP32] = pl.move(a, target_memory={L})
         r: {T16} = pl.store(b, [0, 0], out)
         return r
         """,
         f"""
         a: pl.Tile[[16, 128], pl.FP32, {M}] = pl.tile.load(x, [0, 0], [16, 128], [16, 128], target_memory={M})
         b: pl.Tile[[16, 128], pl.FP32, {L}] = pl.tile.move(a, target_memory={L})
         b_Vec: pl.Tile[[16, 128], pl.FP32, {V}, {COLROW}] = pl.tile.move(b, target_memory={V})
         r: {T16} = pl.tile.store(b_Vec, [0, 0], out)
         return r
         """, moves=("b_Vec",), decisions=(("b", "Left", "explicit_kwarg"),)),
    Case("create_default_vec", P_VEC, T16,
         f"""
         c: pl.Tile[[16, 128], pl.FP32] = pl.tile.create([16, 128], dtype=pl.FP32)
         t: pl.Tile[[16, 128], pl.FP32] = pl.load(x, [0, 0], [16, 128])
         s: pl.Tile[[16, 128], pl.FP32] = pl.add(c, t)
         r: {T16} = pl.store(s, [0, 0], out)
         return r
         """,
         f"""
         c: pl.Tile[[16, 128], pl.FP32, {V}] = pl.tile.create([16, 128], dtype=pl.FP32, target_memory={V})
         t: pl.Tile[[16, 128], pl.FP32, {V}] = pl.tile.load(x, [0, 0], [16, 128], [16, 128], target_memory={V})
         s: pl.Tile[[16, 128], pl.FP32, {V}] = pl.tile.add(c, t)
         r: {T16} = pl.tile.store(s, [0, 0], out)
         return r
         """, decisions=(("c", "Vec", "explicit_kwarg"), ("s", "Vec", "fixed_output"))),
    # -- TestInferTileMemorySpaceCubeOps ---------------------------------------------------------
    Case("matmul_gets_acc", P_MM, T16,
         VEC_LOADS_BEFORE + f"""
         z_tile: pl.Tile[[16, 128], pl.FP32] = pl.matmul(x_tile, y_tile)
         r: {T16} = pl.store(z_tile, [0, 0], out)
         return r
         """,
         VEC_LOADS_EXPECTED + LR_MOVES + f"""
         z_tile: pl.Tile[[16, 128], pl.FP32, {A}] = pl.tile.matmul(x_tile_Left, y_tile_Right)
         r: {T16} = pl.tile.store(z_tile, [0, 0], out)
         return r
         """, moves=("x_tile_Left", "y_tile_Right"),
         decisions=(("z_tile", "Acc", "fixed_output"), ("x_tile", "Vec", "explicit_kwarg"))),
    Case("inserted_matmul_move_remaps_dump_vars_attr", P_MM, T16,
         VEC_LOADS_BEFORE + f"""
         z_tile: pl.Tile[[16, 128], pl.FP32] = pl.matmul(x_tile, y_tile)
         r: {T16} = pl.store(z_tile, [0, 0], out)
         return r
         """,
         VEC_LOADS_EXPECTED + LR_MOVES + f"""
         z_tile: pl.Tile[[16, 128], pl.FP32, {A}] = pl.tile.matmul(x_tile_Left, y_tile_Right)
         r: {T16} = pl.tile.store(z_tile, [0, 0], out)
         return r
         """, moves=("x_tile_Left", "y_tile_Right"), dump_vars=(("x_tile",), ("x_tile_Left",))),
    Case("distinct_inserted_moves_expand_dump_vars_attr",
         "x: pl.Tensor[[128, 128], pl.BF16], out: pl.Out[pl.Tensor[[128, 128], pl.FP32]]",
         "pl.Tensor[[128, 128], pl.FP32]",
         """
         x_tile: pl.Tile[[128, 128], pl.BF16] = pl.load(x, [0, 0], [128, 128])
         z: pl.Tile[[128, 128], pl.FP32] = pl.matmul(x_tile, x_tile)
         r: pl.Tensor[[128, 128], pl.FP32] = pl.store(z, [0, 0], out)
         return r
         """,
         f"""
         x_tile: pl.Tile[[128, 128], pl.BF16, {V}] = pl.tile.load(x, [0, 0], [128, 128], [128, 128], target_memory={V})
         x_tile_Left: pl.Tile[[128, 128], pl.BF16, {L}] = pl.tile.move(x_tile, target_memory={L})
         x_tile_Right: pl.Tile[[128, 128], pl.BF16, {R}] = pl.tile.move(x_tile, target_memory={R})
         z: pl.Tile[[128, 128], pl.FP32, {A}] = pl.tile.matmul(x_tile_Left, x_tile_Right)
         r: pl.Tensor[[128, 128], pl.FP32] = pl.tile.store(z, [0, 0], out)
         return r
         """, moves=("x_tile_Left", "x_tile_Right"),
         dump_vars=(("x_tile",), ("x_tile_Left", "x_tile_Right"))),
    Case("matmul_full_pipeline", P_MM, T16,
         MM_OPERANDS_BEFORE + f"""
         c: pl.Tile[[16, 128], pl.FP32] = pl.matmul(a_l, b_r)
         r: {T16} = pl.store(c, [0, 0], out)
         return r
         """,
         MM_OPERANDS_EXPECTED + f"""
         c: pl.Tile[[16, 128], pl.FP32, {A}] = pl.tile.matmul(a_l, b_r)
         r: {T16} = pl.tile.store(c, [0, 0], out)
         return r
         """),
    # -- TestInferTileMemorySpaceOtherOps --------------------------------------------------------
    Case("elementwise_inherits_vec", P_VEC, T16,
         f"""
         a: pl.Tile[[16, 128], pl.FP32] = pl.load(x, [0, 0], [16, 128])
         b: pl.Tile[[16, 128], pl.FP32] = pl.load(x, [0, 0], [16, 128])
         c: pl.Tile[[16, 128], pl.FP32] = pl.add(a, b)
         r: {T16} = pl.store(c, [0, 0], out)
         return r
         """,
         f"""
         a: pl.Tile[[16, 128], pl.FP32, {V}] = pl.tile.load(x, [0, 0], [16, 128], [16, 128], target_memory={V})
         b: pl.Tile[[16, 128], pl.FP32, {V}] = pl.tile.load(x, [0, 0], [16, 128], [16, 128], target_memory={V})
         c: pl.Tile[[16, 128], pl.FP32, {V}] = pl.tile.add(a, b)
         r: {T16} = pl.tile.store(c, [0, 0], out)
         return r
         """),
    Case("elementwise_after_matmul_gets_vec", P_MM, T16,
         VEC_LOADS_BEFORE + f"""
         z_tile: pl.Tile[[16, 128], pl.FP32] = pl.matmul(x_tile, y_tile)
         w: pl.Tile[[16, 128], pl.FP32] = pl.add(z_tile, z_tile)
         r: {T16} = pl.store(w, [0, 0], out)
         return r
         """,
         VEC_LOADS_EXPECTED + LR_MOVES + f"""
         z_tile: pl.Tile[[16, 128], pl.FP32, {A}] = pl.tile.matmul(x_tile_Left, y_tile_Right)
         z_tile_Vec: pl.Tile[[16, 128], pl.FP32, {V}] = pl.tile.move(z_tile, target_memory={V}, blayout=pl.TileLayout.row_major, slayout=pl.TileLayout.none_box)
         w: pl.Tile[[16, 128], pl.FP32, {V}] = pl.tile.add(z_tile_Vec, z_tile_Vec)
         r: {T16} = pl.tile.store(w, [0, 0], out)
         return r
         """, moves=("x_tile_Left", "y_tile_Right", "z_tile_Vec")),
    Case("chained_elementwise_inherits", P_VEC, T16,
         f"""
         a: pl.Tile[[16, 128], pl.FP32] = pl.load(x, [0, 0], [16, 128])
         b: pl.Tile[[16, 128], pl.FP32] = pl.add(a, a)
         c: pl.Tile[[16, 128], pl.FP32] = pl.mul(b, a)
         r: {T16} = pl.store(c, [0, 0], out)
         return r
         """,
         f"""
         a: pl.Tile[[16, 128], pl.FP32, {V}] = pl.tile.load(x, [0, 0], [16, 128], [16, 128], target_memory={V})
         b: pl.Tile[[16, 128], pl.FP32, {V}] = pl.tile.add(a, a)
         c: pl.Tile[[16, 128], pl.FP32, {V}] = pl.tile.mul(b, a)
         r: {T16} = pl.tile.store(c, [0, 0], out)
         return r
         """),
    # -- TestInferTileMemorySpaceEdgeCases -------------------------------------------------------
    Case("multiple_incore_functions", P_VEC, T16,
         f"""
         a: pl.Tile[[16, 128], pl.FP32] = pl.load(x, [0, 0], [16, 128])
         r: {T16} = pl.store(a, [0, 0], out)
         return r
         """,
         f"""
         a: pl.Tile[[16, 128], pl.FP32, {V}] = pl.tile.load(x, [0, 0], [16, 128], [16, 128], target_memory={V})
         r: {T16} = pl.tile.store(a, [0, 0], out)
         return r
         """,
         extra=f"""
         @pl.function(type=pl.FunctionType.InCore)
         def second(self, x: {T16}, out: pl.Out[{T16}]) -> {T16}:
             b: pl.Tile[[16, 128], pl.FP32] = pl.load(x, [0, 0], [16, 128])
             c: pl.Tile[[16, 128], pl.FP32] = pl.exp(b)
             r: {T16} = pl.store(c, [0, 0], out)
             return r
         """),
    # -- TestInferTileMemorySpaceInheritOps ------------------------------------------------------
    Case("reshape_inherits_vec", P_VEC, T16,
         f"""
         t: pl.Tile[[16, 128], pl.FP32] = pl.load(x, [0, 0], [16, 128])
         r1: pl.Tile[[128, 16], pl.FP32] = pl.reshape(t, [128, 16])
         r2: pl.Tile[[16, 128], pl.FP32] = pl.reshape(r1, [16, 128])
         r: {T16} = pl.store(r2, [0, 0], out)
         return r
         """,
         f"""
         t: pl.Tile[[16, 128], pl.FP32, {V}] = pl.tile.load(x, [0, 0], [16, 128], [16, 128], target_memory={V})
         r1: pl.Tile[[128, 16], pl.FP32, {V}] = pl.tile.reshape(t, [128, 16])
         r2: pl.Tile[[16, 128], pl.FP32, {V}] = pl.tile.reshape(r1, [16, 128])
         r: {T16} = pl.tile.store(r2, [0, 0], out)
         return r
         """, decisions=(("r1", "Vec", "inherited"),)),
    Case("slice_inherits_vec", P_VEC, T16,
         f"""
         t: pl.Tile[[16, 128], pl.FP32] = pl.load(x, [0, 0], [16, 128])
         s: pl.Tile[[8, 128], pl.FP32] = pl.slice(t, [8, 128], [0, 0])
         r: {T16} = pl.store(s, [0, 0], out)
         return r
         """,
         f"""
         t: pl.Tile[[16, 128], pl.FP32, {V}] = pl.tile.load(x, [0, 0], [16, 128], [16, 128], target_memory={V})
         s: pl.Tile[[8, 128], pl.FP32, {V}] = pl.tile.slice(t, [8, 128], [0, 0])
         r: {T16} = pl.tile.store(s, [0, 0], out)
         return r
         """, decisions=(("s", "Vec", "inherited"),)),
    Case("reshape_inherits_mat", P_VEC, T16,
         f"""
         t: pl.Tile[[16, 128], pl.FP32] = pl.load(x, [0, 0], [16, 128], target_memory={M})
         r1: pl.Tile[[128, 16], pl.FP32] = pl.reshape(t, [128, 16])
         r2: pl.Tile[[16, 128], pl.FP32] = pl.reshape(r1, [16, 128])
         r: {T16} = pl.store(r2, [0, 0], out)
         return r
         """,
         f"""
         t: pl.Tile[[16, 128], pl.FP32, {M}] = pl.tile.load(x, [0, 0], [16, 128], [16, 128], target_memory={M})
         r1: pl.Tile[[128, 16], pl.FP32, {M}] = pl.tile.reshape(t, [128, 16])
         r2: pl.Tile[[16, 128], pl.FP32, {M}] = pl.tile.reshape(r1, [16, 128])
         r2_Vec: pl.Tile[[16, 128], pl.FP32, {V}, {COLROW}] = pl.tile.move(r2, target_memory={V})
         r: {T16} = pl.tile.store(r2_Vec, [0, 0], out)
         return r
         """, moves=("r2_Vec",), decisions=(("r2", "Mat", "inherited"),)),
    Case("slice_inherits_mat", P_VEC, T16,
         f"""
         t: pl.Tile[[16, 128], pl.FP32] = pl.load(x, [0, 0], [16, 128], target_memory={M})
         s: pl.Tile[[8, 128], pl.FP32] = pl.slice(t, [8, 128], [0, 0])
         r: {T16} = pl.store(s, [0, 0], out)
         return r
         """,
         f"""
         t: pl.Tile[[16, 128], pl.FP32, {M}] = pl.tile.load(x, [0, 0], [16, 128], [16, 128], target_memory={M})
         s: pl.Tile[[8, 128], pl.FP32, {M}] = pl.tile.slice(t, [8, 128], [0, 0])
         s_Vec: pl.Tile[[8, 128], pl.FP32, {V}, {COLROW}] = pl.tile.move(s, target_memory={V})
         r: {T16} = pl.tile.store(s_Vec, [0, 0], out)
         return r
         """, moves=("s_Vec",)),
    Case("chained_view_ops_inherit", P_VEC, T16,
         f"""
         t: pl.Tile[[16, 128], pl.FP32] = pl.load(x, [0, 0], [16, 128], target_memory={M})
         s: pl.Tile[[8, 128], pl.FP32] = pl.slice(t, [8, 128], [0, 0])
         q: pl.Tile[[16, 64], pl.FP32] = pl.reshape(s, [16, 64])
         r: {T16} = pl.store(q, [0, 0], out)
         return r
         """,
         f"""
         t: pl.Tile[[16, 128], pl.FP32, {M}] = pl.tile.load(x, [0, 0], [16, 128], [16, 128], target_memory={M})
         s: pl.Tile[[8, 128], pl.FP32, {M}] = pl.tile.slice(t, [8, 128], [0, 0])
         q: pl.Tile[[16, 64], pl.FP32, {M}] = pl.tile.reshape(s, [16, 64])
         q_Vec: pl.Tile[[16, 64], pl.FP32, {V}, {COLROW}] = pl.tile.move(q, target_memory={V})
         r: {T16} = pl.tile.store(q_Vec, [0, 0], out)
         return r
         """, moves=("q_Vec",)),
    # -- TestAutoMoveInsertion -------------------------------------------------------------------
    Case("matmul_auto_moves_from_mat", P_MM, T16,
         f"""
         x_tile: pl.Tile[[16, 128], pl.BF16] = pl.load(x, [0, 0], [16, 128], target_memory={M})
         y_tile: pl.Tile[[128, 128], pl.BF16] = pl.load(y, [0, 0], [128, 128], target_memory={M})
         z_tile: pl.Tile[[16, 128], pl.FP32] = pl.matmul(x_tile, y_tile)
         r: {T16} = pl.store(z_tile, [0, 0], out)
         return r
         """,
         f"""
         x_tile: pl.Tile[[16, 128], pl.BF16, {M}] = pl.tile.load(x, [0, 0], [16, 128], [16, 128], target_memory={M})
         y_tile: pl.Tile[[128, 128], pl.BF16, {M}] = pl.tile.load(y, [0, 0], [128, 128], [128, 128], target_memory={M})
         """ + LR_MOVES + f"""
         z_tile: pl.Tile[[16, 128], pl.FP32, {A}] = pl.tile.matmul(x_tile_Left, y_tile_Right)
         r: {T16} = pl.tile.store(z_tile, [0, 0], out)
         return r
         """, moves=("x_tile_Left", "y_tile_Right")),
    Case("matmul_moves_are_inserted_at_first_consumer",
         P_MM + ", y2: pl.Tensor[[128, 128], pl.BF16]", T16,
         VEC_LOADS_BEFORE + f"""
         y2_tile: pl.Tile[[128, 128], pl.BF16] = pl.load(y2, [0, 0], [128, 128])
         c1: pl.Tile[[16, 128], pl.FP32] = pl.matmul(x_tile, y_tile)
         r1: {T16} = pl.store(c1, [0, 0], out)
         c2: pl.Tile[[16, 128], pl.FP32] = pl.matmul(x_tile, y2_tile)
         r2: {T16} = pl.store(c2, [0, 0], r1)
         return r2
         """,
         VEC_LOADS_EXPECTED + f"""
         y2_tile: pl.Tile[[128, 128], pl.BF16, {V}] = pl.tile.load(y2, [0, 0], [128, 128], [128, 128], target_memory={V})
         """ + LR_MOVES + f"""
         c1: pl.Tile[[16, 128], pl.FP32, {A}] = pl.tile.matmul(x_tile_Left, y_tile_Right)
         r1: {T16} = pl.tile.store(c1, [0, 0], out)
         y2_tile_Right: pl.Tile[[128, 128], pl.BF16, {R}] = pl.tile.move(y2_tile, target_memory={R})
         c2: pl.Tile[[16, 128], pl.FP32, {A}] = pl.tile.matmul(x_tile_Left, y2_tile_Right)
         r2: {T16} = pl.tile.store(c2, [0, 0], r1)
         return r2
         """, moves=("x_tile_Left", "y_tile_Right", "y2_tile_Right")),
    Case("no_move_when_already_correct_store_acc", P_MM, T16,
         f"""
         x_tile: pl.Tile[[16, 128], pl.BF16] = pl.load(x, [0, 0], [16, 128])
         y_tile: pl.Tile[[128, 128], pl.BF16] = pl.load(y, [0, 0], [128, 128])
         a_l: pl.Tile[[16, 128], pl.BF16] = pl.move(x_tile, target_memory={L})
         b_r: pl.Tile[[128, 128], pl.BF16] = pl.move(y_tile, target_memory={R})
         c: pl.Tile[[16, 128], pl.FP32] = pl.matmul(a_l, b_r)
         r: {T16} = pl.store(c, [0, 0], out)
         return r
         """,
         VEC_LOADS_EXPECTED + f"""
         a_l: pl.Tile[[16, 128], pl.BF16, {L}] = pl.tile.move(x_tile, target_memory={L})
         b_r: pl.Tile[[128, 128], pl.BF16, {R}] = pl.tile.move(y_tile, target_memory={R})
         c: pl.Tile[[16, 128], pl.FP32, {A}] = pl.tile.matmul(a_l, b_r)
         r: {T16} = pl.tile.store(c, [0, 0], out)
         return r
         """, decisions=(("c", "Acc", "fixed_output"),)),
    Case("eval_stmt_consumer_collects_and_inserts_move", P_VEC, T16,
         f"""
         t: pl.Tile[[16, 128], pl.FP32] = pl.load(x, [0, 0], [16, 128], target_memory={M})
         pl.write(t, [0, 0], 1.0)
         return out
         """,
         f"""
         t: pl.Tile[[16, 128], pl.FP32, {M}] = pl.tile.load(x, [0, 0], [16, 128], [16, 128], target_memory={M})
         t_Vec: pl.Tile[[16, 128], pl.FP32, {V}, {COLROW}] = pl.tile.move(t, target_memory={V})
         pl.tile.write(t_Vec, [0, 0], 1.0)
         pl.tile.assemble(t, t_Vec, [0, 0])
         return out
         """, moves=("t_Vec",)),
    Case("cast_of_if_phi_acc_operand_gets_move", P_MM_N.replace(f"out: pl.Out[{T16}]",
         "out: pl.Out[pl.Tensor[[16, 128], pl.FP16]]"), "pl.Tensor[[16, 128], pl.FP16]",
         VEC_LOADS_BEFORE + """
         c0: pl.Tile[[16, 128], pl.FP32] = pl.matmul(x_tile, y_tile)
         if n == 0:
             c1: pl.Tile[[16, 128], pl.FP32] = pl.matmul(x_tile, y_tile)
             acc: pl.Tile[[16, 128], pl.FP32] = pl.yield_(c1)
         else:
             c2: pl.Tile[[16, 128], pl.FP32] = pl.matmul_acc(c0, x_tile, y_tile)
             acc: pl.Tile[[16, 128], pl.FP32] = pl.yield_(c2)
         d: pl.Tile[[16, 128], pl.FP16] = pl.cast(acc, target_type=pl.FP16)
         r: pl.Tensor[[16, 128], pl.FP16] = pl.store(d, [0, 0], out)
         return r
         """,
         VEC_LOADS_EXPECTED + LR_MOVES + f"""
         c0: pl.Tile[[16, 128], pl.FP32, {A}] = pl.tile.matmul(x_tile_Left, y_tile_Right)
         if n == 0:
             c1: pl.Tile[[16, 128], pl.FP32, {A}] = pl.tile.matmul(x_tile_Left, y_tile_Right)
             acc: pl.Tile[[16, 128], pl.FP32, {A}] = pl.yield_(c1)
         else:
             c2: pl.Tile[[16, 128], pl.FP32, {A}] = pl.tile.matmul_acc(c0, x_tile_Left, y_tile_Right)
             acc: pl.Tile[[16, 128], pl.FP32, {A}] = pl.yield_(c2)
         acc_Vec: pl.Tile[[16, 128], pl.FP32, {V}] = pl.tile.move(acc, target_memory={V}, blayout=pl.TileLayout.row_major, slayout=pl.TileLayout.none_box)
         d: pl.Tile[[16, 128], pl.FP16, {V}] = pl.cast(acc_Vec, target_type=pl.FP16)
         r: pl.Tensor[[16, 128], pl.FP16] = pl.tile.store(d, [0, 0], out)
         return r
         """, moves=("x_tile_Left", "y_tile_Right", "acc_Vec"),
         decisions=(("acc", "Acc", "alias"),)),
    Case("divergent_branch_spaces_leave_the_phi_unrecorded", P_MM_N + f", x2: {T16}", T16,
         MM_OPERANDS_BEFORE + """
         if n == 0:
             a2: pl.Tile[[16, 128], pl.FP32] = pl.matmul(a_l, b_r)
             p: pl.Tile[[16, 128], pl.FP32] = pl.yield_(a2)
         else:
             b2: pl.Tile[[16, 128], pl.FP32] = pl.load(x2, [0, 0], [16, 128])
             p: pl.Tile[[16, 128], pl.FP32] = pl.yield_(b2)
         r: pl.Tensor[[16, 128], pl.FP32] = pl.store(p, [0, 0], out)
         return r
         """,
         MM_OPERANDS_EXPECTED + f"""
         if n == 0:
             a2: pl.Tile[[16, 128], pl.FP32, {A}] = pl.tile.matmul(a_l, b_r)
             p: pl.Tile[[16, 128], pl.FP32] = pl.yield_(a2)
         else:
             b2: pl.Tile[[16, 128], pl.FP32, {V}] = pl.tile.load(x2, [0, 0], [16, 128], [16, 128], target_memory={V})
             p: pl.Tile[[16, 128], pl.FP32] = pl.yield_(b2)
         r: pl.Tensor[[16, 128], pl.FP32] = pl.tile.store(p, [0, 0], out)
         return r
         """, decisions=(("p", "None", "unresolved"), ("a2", "Acc", "fixed_output"))),
    # -- TestInferTileMemorySpaceSSAAlias --------------------------------------------------------
    Case("ssa_alias_inherits_memory_space_from_source", P_MM, T16,
         f"""
         x_tile: pl.Tile[[16, 128], pl.BF16] = pl.load(x, [0, 0], [16, 128], target_memory={M})
         x_alias: pl.Tile[[16, 128], pl.BF16] = x_tile
         y_tile: pl.Tile[[128, 128], pl.BF16] = pl.load(y, [0, 0], [128, 128])
         z: pl.Tile[[16, 128], pl.FP32] = pl.matmul(x_alias, y_tile)
         r: {T16} = pl.store(z, [0, 0], out)
         return r
         """,
         f"""
         x_tile: pl.Tile[[16, 128], pl.BF16, {M}] = pl.tile.load(x, [0, 0], [16, 128], [16, 128], target_memory={M})
         x_alias: pl.Tile[[16, 128], pl.BF16, {M}] = x_tile
         y_tile: pl.Tile[[128, 128], pl.BF16, {V}] = pl.tile.load(y, [0, 0], [128, 128], [128, 128], target_memory={V})
         x_alias_Left: pl.Tile[[16, 128], pl.BF16, {L}] = pl.tile.move(x_alias, target_memory={L})
         y_tile_Right: pl.Tile[[128, 128], pl.BF16, {R}] = pl.tile.move(y_tile, target_memory={R})
         z: pl.Tile[[16, 128], pl.FP32, {A}] = pl.tile.matmul(x_alias_Left, y_tile_Right)
         r: {T16} = pl.tile.store(z, [0, 0], out)
         return r
         """, moves=("x_alias_Left", "y_tile_Right"), decisions=(("x_alias", "Mat", "alias"),)),
    Case("ssa_alias_chain_feeds_matmul", P_MM, T16,
         f"""
         x_tile: pl.Tile[[16, 128], pl.BF16] = pl.load(x, [0, 0], [16, 128], target_memory={M})
         alias_1: pl.Tile[[16, 128], pl.BF16] = x_tile
         alias_2: pl.Tile[[16, 128], pl.BF16] = alias_1
         y_tile: pl.Tile[[128, 128], pl.BF16] = pl.load(y, [0, 0], [128, 128])
         z: pl.Tile[[16, 128], pl.FP32] = pl.matmul(alias_2, y_tile)
         r: {T16} = pl.store(z, [0, 0], out)
         return r
         """,
         f"""
         x_tile: pl.Tile[[16, 128], pl.BF16, {M}] = pl.tile.load(x, [0, 0], [16, 128], [16, 128], target_memory={M})
         alias_1: pl.Tile[[16, 128], pl.BF16, {M}] = x_tile
         alias_2: pl.Tile[[16, 128], pl.BF16, {M}] = alias_1
         y_tile: pl.Tile[[128, 128], pl.BF16, {V}] = pl.tile.load(y, [0, 0], [128, 128], [128, 128], target_memory={V})
         alias_2_Left: pl.Tile[[16, 128], pl.BF16, {L}] = pl.tile.move(alias_2, target_memory={L})
         y_tile_Right: pl.Tile[[128, 128], pl.BF16, {R}] = pl.tile.move(y_tile, target_memory={R})
         z: pl.Tile[[16, 128], pl.FP32, {A}] = pl.tile.matmul(alias_2_Left, y_tile_Right)
         r: {T16} = pl.tile.store(z, [0, 0], out)
         return r
         """, moves=("alias_2_Left", "y_tile_Right"), decisions=(("alias_2", "Mat", "alias"),)),
    # -- TestInferTileMemorySpaceLoopCarried -----------------------------------------------------
    Case("forstmt_accumulator_backprops_acc_to_create_init", P_MM, T16,
         MM_OPERANDS_BEFORE + f"""
         init: pl.Tile[[16, 128], pl.FP32] = pl.tile.create([16, 128], dtype=pl.FP32, target_memory={V})
         for i, (acc,) in pl.range(4, init_values=(init,)):
             c: pl.Tile[[16, 128], pl.FP32] = pl.matmul_acc(acc, a_l, b_r)
             acc_out: pl.Tile[[16, 128], pl.FP32] = pl.yield_(c)
         r: {T16} = pl.store(acc_out, [0, 0], out)
         return r
         """,
         MM_OPERANDS_EXPECTED + f"""
         init: pl.Tile[[16, 128], pl.FP32, {A}] = pl.tile.create([16, 128], dtype=pl.FP32, target_memory={A})
         for i, (acc,) in pl.range(4, init_values=(init,)):
             c: pl.Tile[[16, 128], pl.FP32, {A}] = pl.tile.matmul_acc(acc, a_l, b_r)
             acc_out: pl.Tile[[16, 128], pl.FP32, {A}] = pl.yield_(c)
         r: {T16} = pl.tile.store(acc_out, [0, 0], out)
         return r
         """, decisions=(("init", "Acc", "loop_backprop"), ("acc", "Acc", "loop_backprop"),
                         ("acc_out", "Acc", "loop_backprop"))),
    Case("ifstmt_return_var_init_backprops_acc", P_MM_N + f", x2: {T16}", T16,
         MM_OPERANDS_BEFORE + f"""
         if n == 0:
             m1: pl.Tile[[16, 128], pl.FP32] = pl.load(x2, [0, 0], [16, 128], target_memory={M})
             p: pl.Tile[[16, 128], pl.FP32] = pl.yield_(m1)
         else:
             m2: pl.Tile[[16, 128], pl.FP32] = pl.load(x2, [0, 0], [16, 128], target_memory={M})
             p: pl.Tile[[16, 128], pl.FP32] = pl.yield_(m2)
         for i, (acc,) in pl.range(4, init_values=(p,)):
             c: pl.Tile[[16, 128], pl.FP32] = pl.matmul_acc(acc, a_l, b_r)
             acc_out: pl.Tile[[16, 128], pl.FP32] = pl.yield_(c)
         r: {T16} = pl.store(acc_out, [0, 0], out)
         return r
         """,
         MM_OPERANDS_EXPECTED + f"""
         if n == 0:
             m1: pl.Tile[[16, 128], pl.FP32, {M}] = pl.tile.load(x2, [0, 0], [16, 128], [16, 128], target_memory={M})
             p: pl.Tile[[16, 128], pl.FP32, {A}] = pl.yield_(m1)
         else:
             m2: pl.Tile[[16, 128], pl.FP32, {M}] = pl.tile.load(x2, [0, 0], [16, 128], [16, 128], target_memory={M})
             p: pl.Tile[[16, 128], pl.FP32, {A}] = pl.yield_(m2)
         for i, (acc,) in pl.range(4, init_values=(p,)):
             c: pl.Tile[[16, 128], pl.FP32, {A}] = pl.tile.matmul_acc(acc, a_l, b_r)
             acc_out: pl.Tile[[16, 128], pl.FP32, {A}] = pl.yield_(c)
         r: {T16} = pl.tile.store(acc_out, [0, 0], out)
         return r
         """, decisions=(("p", "Acc", "loop_backprop"), ("m1", "Mat", "explicit_kwarg"))),
    # -- TestInferTileMemorySpaceDemandBackprop --------------------------------------------------
    Case("load_slice_matmul_demand_clamps_to_vec_then_moves",
         "x: pl.Tensor[[16, 128], pl.BF16], y: pl.Tensor[[64, 128], pl.BF16], "
         f"out: pl.Out[{T16}]", T16,
         f"""
         x_tile: pl.Tile[[16, 128], pl.BF16] = pl.load(x, [0, 0], [16, 128])
         x_sl: pl.Tile[[16, 64], pl.BF16] = pl.slice(x_tile, [16, 64], [0, 0])
         y_tile: pl.Tile[[64, 128], pl.BF16] = pl.load(y, [0, 0], [64, 128])
         z: pl.Tile[[16, 128], pl.FP32] = pl.matmul(x_sl, y_tile)
         r: {T16} = pl.store(z, [0, 0], out)
         return r
         """,
         f"""
         x_tile: pl.Tile[[16, 128], pl.BF16, {V}] = pl.tile.load(x, [0, 0], [16, 128], [16, 128], target_memory={V})
         x_sl: pl.Tile[[16, 64], pl.BF16, {V}] = pl.tile.slice(x_tile, [16, 64], [0, 0])
         y_tile: pl.Tile[[64, 128], pl.BF16, {V}] = pl.tile.load(y, [0, 0], [64, 128], [64, 128], target_memory={V})
         x_sl_Left: pl.Tile[[16, 64], pl.BF16, {L}] = pl.tile.move(x_sl, target_memory={L})
         y_tile_Right: pl.Tile[[64, 128], pl.BF16, {R}] = pl.tile.move(y_tile, target_memory={R})
         z: pl.Tile[[16, 128], pl.FP32, {A}] = pl.tile.matmul(x_sl_Left, y_tile_Right)
         r: {T16} = pl.tile.store(z, [0, 0], out)
         return r
         """, moves=("x_sl_Left", "y_tile_Right"), decisions=(("x_sl", "Vec", "inherited"),)),
    # -- TestInferTileMemorySpaceIterArgInherit (Ascend910B) -------------------------------------
    Case("assemble_into_mat_iter_arg_keeps_scratch_mat", P_MM32, T32,
         MM_OPERANDS_BEFORE + f"""
         scratch: pl.Tile[[32, 128], pl.FP32] = pl.tile.create([32, 128], dtype=pl.FP32, target_memory={M})
         for i, (buf,) in pl.range(2, init_values=(scratch,)):
             c: pl.Tile[[16, 128], pl.FP32] = pl.matmul(a_l, b_r)
             nb: pl.Tile[[32, 128], pl.FP32] = pl.assemble(buf, c, [i * 16, 0])
             res: pl.Tile[[32, 128], pl.FP32] = pl.yield_(nb)
         r: {T32} = pl.store(res, [0, 0], o32)
         return r
         """,
         MM_OPERANDS_EXPECTED + f"""
         scratch: pl.Tile[[32, 128], pl.FP32, {M}] = pl.tile.create([32, 128], dtype=pl.FP32, target_memory={M})
         for i, (buf,) in pl.range(2, init_values=(scratch,)):
             c: pl.Tile[[16, 128], pl.FP32, {A}] = pl.tile.matmul(a_l, b_r)
             nb: pl.Tile[[32, 128], pl.FP32, {M}] = pl.tile.assemble(buf, c, [i * 16, 0])
             res: pl.Tile[[32, 128], pl.FP32, {M}] = pl.yield_(nb)
         res_Vec: pl.Tile[[32, 128], pl.FP32, {V}, {COLROW}] = pl.tile.move(res, target_memory={V})
         r: {T32} = pl.tile.store(res_Vec, [0, 0], o32)
         return r
         """, moves=("res_Vec",), backend="910B", decisions=(("nb", "Mat", "inherited"), ("scratch", "Mat", "loop_backprop"))),
    Case("assemble_into_mat_iter_arg_keeps_scratch_mat_nested", P_MM32, T32,
         MM_OPERANDS_BEFORE + f"""
         scratch: pl.Tile[[32, 128], pl.FP32] = pl.tile.create([32, 128], dtype=pl.FP32, target_memory={M})
         for j, (ob,) in pl.range(2, init_values=(scratch,)):
             for i, (ib,) in pl.range(2, init_values=(ob,)):
                 c: pl.Tile[[16, 128], pl.FP32] = pl.matmul(a_l, b_r)
                 nb: pl.Tile[[32, 128], pl.FP32] = pl.assemble(ib, c, [i * 16, 0])
                 ib_out: pl.Tile[[32, 128], pl.FP32] = pl.yield_(nb)
             ob_out: pl.Tile[[32, 128], pl.FP32] = pl.yield_(ib_out)
         r: {T32} = pl.store(ob_out, [0, 0], o32)
         return r
         """,
         MM_OPERANDS_EXPECTED + f"""
         scratch: pl.Tile[[32, 128], pl.FP32, {M}] = pl.tile.create([32, 128], dtype=pl.FP32, target_memory={M})
         for j, (ob,) in pl.range(2, init_values=(scratch,)):
             for i, (ib,) in pl.range(2, init_values=(ob,)):
                 c: pl.Tile[[16, 128], pl.FP32, {A}] = pl.tile.matmul(a_l, b_r)
                 nb: pl.Tile[[32, 128], pl.FP32, {M}] = pl.tile.assemble(ib, c, [i * 16, 0])
                 ib_out: pl.Tile[[32, 128], pl.FP32, {M}] = pl.yield_(nb)
             ob_out: pl.Tile[[32, 128], pl.FP32, {M}] = pl.yield_(ib_out)
         ob_out_Vec: pl.Tile[[32, 128], pl.FP32, {V}, {COLROW}] = pl.tile.move(ob_out, target_memory={V})
         r: {T32} = pl.tile.store(ob_out_Vec, [0, 0], o32)
         return r
         """, moves=("ob_out_Vec",), backend="910B", decisions=(("nb", "Mat", "inherited"), ("ob_out", "Mat", "loop_backprop"))),
    # -- scoping and the global-key quirk (pass.md 3 and 4) -------------------------------------
    Case("global_move_key_gives_store_the_vec_copy", P_MM, T16,
         VEC_LOADS_BEFORE + f"""
         z: pl.Tile[[16, 128], pl.FP32] = pl.matmul(x_tile, y_tile)
         w: pl.Tile[[16, 128], pl.FP32] = pl.add(z, z)
         r1: {T16} = pl.store(w, [0, 0], out)
         r2: {T16} = pl.store(z, [0, 0], r1)
         return r2
         """,
         VEC_LOADS_EXPECTED + LR_MOVES + f"""
         z: pl.Tile[[16, 128], pl.FP32, {A}] = pl.tile.matmul(x_tile_Left, y_tile_Right)
         z_Vec: pl.Tile[[16, 128], pl.FP32, {V}] = pl.tile.move(z, target_memory={V}, blayout=pl.TileLayout.row_major, slayout=pl.TileLayout.none_box)
         w: pl.Tile[[16, 128], pl.FP32, {V}] = pl.tile.add(z_Vec, z_Vec)
         r1: {T16} = pl.tile.store(w, [0, 0], out)
         r2: {T16} = pl.tile.store(z_Vec, [0, 0], r1)
         return r2
         """, moves=("x_tile_Left", "y_tile_Right", "z_Vec")),
    Case("branch_moves_do_not_leak", P_VEC + ", n: pl.Scalar[pl.INDEX]", T16,
         f"""
         t: pl.Tile[[16, 128], pl.FP32] = pl.load(x, [0, 0], [16, 128], target_memory={M})
         if n == 0:
             s1: pl.Tile[[16, 128], pl.FP32] = pl.add(t, t)
             p: pl.Tile[[16, 128], pl.FP32] = pl.yield_(s1)
         else:
             s2: pl.Tile[[16, 128], pl.FP32] = pl.exp(t)
             p: pl.Tile[[16, 128], pl.FP32] = pl.yield_(s2)
         s3: pl.Tile[[16, 128], pl.FP32] = pl.mul(p, t)
         r: {T16} = pl.store(s3, [0, 0], out)
         return r
         """,
         f"""
         t: pl.Tile[[16, 128], pl.FP32, {M}] = pl.tile.load(x, [0, 0], [16, 128], [16, 128], target_memory={M})
         if n == 0:
             t_Vec: pl.Tile[[16, 128], pl.FP32, {V}, {COLROW}] = pl.tile.move(t, target_memory={V})
             s1: pl.Tile[[16, 128], pl.FP32, {V}, {COLROW}] = pl.tile.add(t_Vec, t_Vec)
             p: pl.Tile[[16, 128], pl.FP32, {V}, {COLROW}] = pl.yield_(s1)
         else:
             t_Vec: pl.Tile[[16, 128], pl.FP32, {V}, {COLROW}] = pl.tile.move(t, target_memory={V})
             s2: pl.Tile[[16, 128], pl.FP32, {V}, {COLROW}] = pl.tile.exp(t_Vec)
             p: pl.Tile[[16, 128], pl.FP32, {V}, {COLROW}] = pl.yield_(s2)
         t_Vec: pl.Tile[[16, 128], pl.FP32, {V}, {COLROW}] = pl.tile.move(t, target_memory={V})
         s3: pl.Tile[[16, 128], pl.FP32, {V}, {COLROW}] = pl.tile.mul(p, t_Vec)
         r: {T16} = pl.tile.store(s3, [0, 0], out)
         return r
         """, moves=("t_Vec", "t_Vec", "t_Vec")),
    # (The phi takes its then-branch yield's placed type, view included, as the frontend and
    # tensor-to-tile type a phi: the program reads back as placed, so compiling is idempotent.)
    # The reference inserts no move into a body that is one bare statement (pass.md 4), leaving
    # the call reading the wrong space; here a bare body is a move scope like any other.
    Case("single_statement_body_gets_its_move", P_VEC, T16,
         f"""
         t: pl.Tile[[16, 128], pl.FP32] = pl.load(x, [0, 0], [16, 128], target_memory={M})
         for i in pl.range(2):
             pl.write(t, [0, 0], 1.0)
         return out
         """,
         f"""
         t: pl.Tile[[16, 128], pl.FP32, {M}] = pl.tile.load(x, [0, 0], [16, 128], [16, 128], target_memory={M})
         for i in pl.range(2):
             t_Vec: pl.Tile[[16, 128], pl.FP32, {V}, {COLROW}] = pl.tile.move(t, target_memory={V})
             pl.tile.write(t_Vec, [0, 0], 1.0)
             pl.tile.assemble(t, t_Vec, [0, 0])
         return out
         """, moves=("t_Vec",)),
    # An alias keeps no view of its own: the SSA pass's `c_next = c` before a `continue` takes
    # the placed type of what it copies (and, unlike the reference, an iter arg's alias is
    # recorded: it shares the carry's space, re-placed with it by the loop's back-propagation). Before placement `v` (relu of a Mat tile) carries the
    # col_major view of a Mat-derived Vec tile; on 910B relu's input moves to Vec row_major, so
    # `v`, the carry `c`, the alias, the phi and the loop's result are all plain Vec tiles.
    Case("alias_of_loop_carry_takes_its_placed_view", P_VEC + ", n: pl.Scalar[pl.INDEX]", T16,
         f"""
         t: pl.Tile[[16, 128], pl.FP32] = pl.load(x, [0, 0], [16, 128], target_memory={M})
         v: pl.Tile[[16, 128], pl.FP32] = pl.relu(t)
         for i, (c,) in pl.range(2, init_values=(v,)):
             c_next: pl.Tile[[16, 128], pl.FP32] = c
             if n == 0:
                 p: pl.Tile[[16, 128], pl.FP32] = pl.yield_(c_next)
             else:
                 s: pl.Tile[[16, 128], pl.FP32] = pl.add(c, 0.5)
                 p: pl.Tile[[16, 128], pl.FP32] = pl.yield_(s)
             c_out: pl.Tile[[16, 128], pl.FP32] = pl.yield_(p)
         r: {T16} = pl.store(c_out, [0, 0], out)
         return r
         """,
         f"""
         t: pl.Tile[[16, 128], pl.FP32, {M}] = pl.tile.load(x, [0, 0], [16, 128], [16, 128], target_memory={M})
         t_Vec: pl.Tile[[16, 128], pl.FP32, {V}] = pl.tile.move(t, target_memory={V}, blayout=pl.TileLayout.row_major, slayout=pl.TileLayout.none_box)
         v: pl.Tile[[16, 128], pl.FP32, {V}] = pl.tile.relu(t_Vec)
         for i, (c,) in pl.range(2, init_values=(v,)):
             c_next: pl.Tile[[16, 128], pl.FP32, {V}] = c
             if n == 0:
                 p: pl.Tile[[16, 128], pl.FP32, {V}] = pl.yield_(c_next)
             else:
                 s: pl.Tile[[16, 128], pl.FP32, {V}] = pl.tile.adds(c, 0.5)
                 p: pl.Tile[[16, 128], pl.FP32, {V}] = pl.yield_(s)
             c_out: pl.Tile[[16, 128], pl.FP32, {V}] = pl.yield_(p)
         r: {T16} = pl.tile.store(c_out, [0, 0], out)
         return r
         """, moves=("t_Vec",), backend="910B", decisions=(("c_next", "Vec", "loop_backprop"),
                                                        ("c_out", "Vec", "loop_backprop"))),
    # An alias and its source are one value with one space (infer/analysis.py, alias groups):
    # when a loop's back-propagation re-places a carry or its initial value after an alias of it
    # was recorded, the alias moves with it. The reference leaves an iter arg's alias unrecorded
    # and an earlier alias in the space it had then: its output assigns an Acc tile to a Vec
    # variable (and reads the Vec alias in matmul_acc's Acc slot).
    Case("alias_of_carry_follows_loop_backprop", P_MM, T16,
         MM_OPERANDS_BEFORE + f"""
         init: pl.Tile[[16, 128], pl.FP32] = pl.tile.create([16, 128], dtype=pl.FP32, target_memory={V})
         for i, (acc,) in pl.range(4, init_values=(init,)):
             w: pl.Tile[[16, 128], pl.FP32] = acc
             c: pl.Tile[[16, 128], pl.FP32] = pl.matmul_acc(w, a_l, b_r)
             acc_out: pl.Tile[[16, 128], pl.FP32] = pl.yield_(c)
         r: {T16} = pl.store(acc_out, [0, 0], out)
         return r
         """,
         MM_OPERANDS_EXPECTED + f"""
         init: pl.Tile[[16, 128], pl.FP32, {A}] = pl.tile.create([16, 128], dtype=pl.FP32, target_memory={A})
         for i, (acc,) in pl.range(4, init_values=(init,)):
             w: pl.Tile[[16, 128], pl.FP32, {A}] = acc
             c: pl.Tile[[16, 128], pl.FP32, {A}] = pl.tile.matmul_acc(w, a_l, b_r)
             acc_out: pl.Tile[[16, 128], pl.FP32, {A}] = pl.yield_(c)
         r: {T16} = pl.tile.store(acc_out, [0, 0], out)
         return r
         """, decisions=(("w", "Acc", "loop_backprop"), ("init", "Acc", "loop_backprop"))),
    Case("alias_group_of_loop_init_follows_loop_backprop", P_MM, T16,
         MM_OPERANDS_BEFORE + CREATE_VEC_BEFORE + """
         init2: pl.Tile[[16, 128], pl.FP32] = init
         """ + acc_loop("init2", False) + f"""
         s: pl.Tile[[16, 128], pl.FP32] = pl.add(init, acc_out)
         r: {T16} = pl.store(s, [0, 0], out)
         return r
         """,
         MM_OPERANDS_EXPECTED + CREATE_ACC_EXPECTED + f"""
         init2: pl.Tile[[16, 128], pl.FP32, {A}] = init
         """ + acc_loop("init2", True) + f"""
         init_Vec: pl.Tile[[16, 128], pl.FP32, {V}] = pl.tile.move(init, target_memory={V}, blayout=pl.TileLayout.row_major, slayout=pl.TileLayout.none_box)
         acc_out_Vec: pl.Tile[[16, 128], pl.FP32, {V}] = pl.tile.move(acc_out, target_memory={V}, blayout=pl.TileLayout.row_major, slayout=pl.TileLayout.none_box)
         s: pl.Tile[[16, 128], pl.FP32, {V}] = pl.tile.add(init_Vec, acc_out_Vec)
         r: {T16} = pl.tile.store(s, [0, 0], out)
         return r
         """, moves=("init_Vec", "acc_out_Vec"),
         decisions=(("init", "Acc", "loop_backprop"), ("init2", "Acc", "loop_backprop"))),
    # An if-phi whose branches yield one value (a carry, directly or through an alias) is one more
    # alias of it: it follows the carry to Acc, so compiling the output again changes nothing.
    Case("phi_of_one_carry_follows_loop_backprop", P_MM_N, T16,
         MM_OPERANDS_BEFORE + f"""
         init: pl.Tile[[16, 128], pl.FP32] = pl.tile.create([16, 128], dtype=pl.FP32, target_memory={V})
         for i, (acc,) in pl.range(4, init_values=(init,)):
             if n == 0:
                 w: pl.Tile[[16, 128], pl.FP32] = acc
                 p: pl.Tile[[16, 128], pl.FP32] = pl.yield_(w)
             else:
                 p: pl.Tile[[16, 128], pl.FP32] = pl.yield_(acc)
             c: pl.Tile[[16, 128], pl.FP32] = pl.matmul_acc(p, a_l, b_r)
             acc_out: pl.Tile[[16, 128], pl.FP32] = pl.yield_(c)
         r: {T16} = pl.store(acc_out, [0, 0], out)
         return r
         """,
         MM_OPERANDS_EXPECTED + f"""
         init: pl.Tile[[16, 128], pl.FP32, {A}] = pl.tile.create([16, 128], dtype=pl.FP32, target_memory={A})
         for i, (acc,) in pl.range(4, init_values=(init,)):
             if n == 0:
                 w: pl.Tile[[16, 128], pl.FP32, {A}] = acc
                 p: pl.Tile[[16, 128], pl.FP32, {A}] = pl.yield_(w)
             else:
                 p: pl.Tile[[16, 128], pl.FP32, {A}] = pl.yield_(acc)
             c: pl.Tile[[16, 128], pl.FP32, {A}] = pl.tile.matmul_acc(p, a_l, b_r)
             acc_out: pl.Tile[[16, 128], pl.FP32, {A}] = pl.yield_(c)
         r: {T16} = pl.tile.store(acc_out, [0, 0], out)
         return r
         """, decisions=(("p", "Acc", "loop_backprop"), ("w", "Acc", "loop_backprop"))),
    # Back-propagation places a carry in Acc while its initial value comes from a producer that
    # cannot make Acc. The reference re-places that value anyway (a tile.exp or tile.load typed
    # Acc, an ill-typed program); here it stays and the loop starts from a copy of it in the
    # carry's space, moved right before the loop.
    *(Case(f"{name}_init_is_moved_into_its_carry_space", P_MM + f", x2: {T16}", T16,
           MM_OPERANDS_BEFORE + _nine(before) + acc_loop("init", False)
           + _nine(f"r: {T16} = pl.store(acc_out, [0, 0], out)\nreturn r"),
           MM_OPERANDS_EXPECTED + _nine(expected)
           + _nine(f"init_Acc: pl.Tile[[16, 128], pl.FP32, {A}] = pl.tile.move(init, target_memory={A})")
           + acc_loop("init_Acc", True)
           + _nine(f"r: {T16} = pl.tile.store(acc_out, [0, 0], out)\nreturn r"),
           moves=("init_Acc",), decisions=(("init", "Vec", kind), ("acc", "Acc", "loop_backprop")))
      for name, before, expected, kind in (
          # tile.exp's output space is fixed (Vec)
          ("fixed_space", """
           t: pl.Tile[[16, 128], pl.FP32] = pl.load(x2, [0, 0], [16, 128])
           init: pl.Tile[[16, 128], pl.FP32] = pl.exp(t)
           """, f"""
           t: pl.Tile[[16, 128], pl.FP32, {V}] = pl.tile.load(x2, [0, 0], [16, 128], [16, 128], target_memory={V})
           init: pl.Tile[[16, 128], pl.FP32, {V}] = pl.tile.exp(t)
           """, "fixed_output"),
          # a load reads GM into Vec or Mat only (ops.md, tile.load target_memory)
          ("loaded", """
           init: pl.Tile[[16, 128], pl.FP32] = pl.load(x2, [0, 0], [16, 128])
           """, f"""
           init: pl.Tile[[16, 128], pl.FP32, {V}] = pl.tile.load(x2, [0, 0], [16, 128], [16, 128], target_memory={V})
           """, "explicit_kwarg"))),
    # Likewise when the initial value is an earlier loop's result (its loop placed it in Acc):
    # re-placing it alone would leave that loop's result a Vec tile its Acc yield flows into.
    Case("loop_result_init_is_moved_into_its_carry_space", P_MM, T16,
         MM_OPERANDS_BEFORE + CREATE_VEC_BEFORE + acc_loop("init", False) + f"""
         for j, (v,) in pl.range(2, init_values=(acc_out,)):
             w: pl.Tile[[16, 128], pl.FP32] = pl.add(v, v)
             v_out: pl.Tile[[16, 128], pl.FP32] = pl.yield_(w)
         r: {T16} = pl.store(v_out, [0, 0], out)
         return r
         """,
         MM_OPERANDS_EXPECTED + CREATE_ACC_EXPECTED + acc_loop("init", True) + f"""
         acc_out_Vec: pl.Tile[[16, 128], pl.FP32, {V}] = pl.tile.move(acc_out, target_memory={V}, blayout=pl.TileLayout.row_major, slayout=pl.TileLayout.none_box)
         for j, (v,) in pl.range(2, init_values=(acc_out_Vec,)):
             w: pl.Tile[[16, 128], pl.FP32, {V}] = pl.tile.add(v, v)
             v_out: pl.Tile[[16, 128], pl.FP32, {V}] = pl.yield_(w)
         r: {T16} = pl.tile.store(v_out, [0, 0], out)
         return r
         """, moves=("acc_out_Vec",),
         decisions=(("acc_out", "Acc", "loop_backprop"), ("v", "Vec", "loop_backprop"))),
    # An on-core array lives in no memory space: its ops have no memory rule (pass.md), so the
    # pass leaves their types and statements alone, and a tile op reading an element is placed
    # as it would be with any scalar.
    # IR after memory allocation: a tile bound to allocated memory (a MemRef) stays in the space
    # it was allocated in. The carry it starts is still back-propagated to Acc, from a move
    # before the loop (its Vec allocation is not re-placed into Acc, as an unallocated create is).
    Case("allocated_loop_init_is_never_re_placed", P_MM, T16,
         MM_OPERANDS_BEFORE + _nine(f"""
         buf: pl.Ptr = pl.tile.alloc({V}, 8192)
         init: pl.Tile[[16, 128], pl.FP32, pl.MemRef(buf, 0, 8192), {V}] = pl.tile.create([16, 128], dtype=pl.FP32, target_memory={V})
         """) + acc_loop("init", False) + f"""
         r: {T16} = pl.store(acc_out, [0, 0], out)
         return r
         """,
         MM_OPERANDS_EXPECTED + _nine(f"""
         buf: pl.Ptr = pl.tile.alloc({V}, 8192)
         init: pl.Tile[[16, 128], pl.FP32, pl.MemRef(buf, 0, 8192), {V}] = pl.tile.create([16, 128], dtype=pl.FP32, target_memory={V})
         init_Acc: pl.Tile[[16, 128], pl.FP32, {A}] = pl.tile.move(init, target_memory={A})
         """) + acc_loop("init_Acc", True) + f"""
         r: {T16} = pl.tile.store(acc_out, [0, 0], out)
         return r
         """, moves=("init_Acc",),
         decisions=(("init", "Vec", "explicit_kwarg"), ("acc_out", "Acc", "loop_backprop"))),
    Case("array_ops_stay_out_of_memory_spaces", P_VEC, T16,
         """
         arr: pl.Array[4, pl.INT32] = pl.array.create(4, dtype=pl.INT32)
         arr2: pl.Array[4, pl.INT32] = pl.array.update_element(arr, 1, 3)
         v: pl.Scalar[pl.INT32] = pl.array.get_element(arr2, 1)
         t: pl.Tile[[16, 128], pl.FP32] = pl.load(x, [0, 0], [16, 128])
         s: pl.Tile[[16, 128], pl.FP32] = pl.tile.adds(t, v)
         r: pl.Tensor[[16, 128], pl.FP32] = pl.store(s, [0, 0], out)
         return r
         """,
         f"""
         arr: pl.Array[4, pl.INT32] = pl.array.create(4, dtype=pl.INT32)
         arr2: pl.Array[4, pl.INT32] = pl.array.update_element(arr, 1, 3)
         v: pl.Scalar[pl.INT32] = pl.array.get_element(arr2, 1)
         t: pl.Tile[[16, 128], pl.FP32, {V}] = pl.tile.load(x, [0, 0], [16, 128], [16, 128], target_memory={V})
         s: pl.Tile[[16, 128], pl.FP32, {V}] = pl.tile.adds(t, v)
         r: pl.Tensor[[16, 128], pl.FP32] = pl.tile.store(s, [0, 0], out)
         return r
         """),
    # -- tile ops the frontend leaves nested (issue 30 item 6) ----------------------------------
    # A tile op in an if's condition is computed once, before the if, by a statement of its own
    # (the frontend flattens the header, as the reference's flatten_call_expr does): its
    # operands, and its result that the scalar read in the condition needs in Vec, are moved
    # before the if as for any statement.
    Case("tile_op_in_if_condition", P_MM, T16,
         VEC_LOADS_BEFORE + f"""
         c: pl.Tile[[16, 128], pl.FP32] = pl.matmul(x_tile, y_tile)
         if pl.tile.read(pl.matmul(x_tile, y_tile), [0, 0]) > 0.0:
             e: pl.Tile[[16, 128], pl.FP32] = pl.exp(c)
             d: pl.Tile[[16, 128], pl.FP32] = pl.yield_(e)
         else:
             f: pl.Tile[[16, 128], pl.FP32] = pl.neg(c)
             d: pl.Tile[[16, 128], pl.FP32] = pl.yield_(f)
         r: {T16} = pl.store(d, [0, 0], out)
         return r
         """,
         VEC_LOADS_EXPECTED + LR_MOVES + f"""
         c: pl.Tile[[16, 128], pl.FP32, {A}] = pl.tile.matmul(x_tile_Left, y_tile_Right)
         matmul: pl.Tile[[16, 128], pl.FP32, {A}] = pl.tile.matmul(x_tile_Left, y_tile_Right)
         matmul_Vec: pl.Tile[[16, 128], pl.FP32, {V}] = pl.tile.move(matmul, MOVE_VEC)
         if pl.tile.read(matmul_Vec, [0, 0]) > 0.0:
             c_Vec: pl.Tile[[16, 128], pl.FP32, {V}] = pl.tile.move(c, MOVE_VEC)
             e: pl.Tile[[16, 128], pl.FP32, {V}] = pl.tile.exp(c_Vec)
             d: pl.Tile[[16, 128], pl.FP32, {V}] = pl.yield_(e)
         else:
             c_Vec: pl.Tile[[16, 128], pl.FP32, {V}] = pl.tile.move(c, MOVE_VEC)
             f: pl.Tile[[16, 128], pl.FP32, {V}] = pl.tile.neg(c_Vec)
             d: pl.Tile[[16, 128], pl.FP32, {V}] = pl.yield_(f)
         r: {T16} = pl.tile.store(d, [0, 0], out)
         return r
         """.replace("MOVE_VEC", MOVE_VEC), moves=("x_tile_Left", "y_tile_Right", "matmul_Vec", "c_Vec", "c_Vec")),
    # A while's condition is evaluated before every iteration: what it reads is moved where it
    # stands (the carry `c` is a new value each time), never once before the loop.
    Case("tile_op_in_while_condition", P_MM, T16,
         VEC_LOADS_BEFORE + f"""
         c0: pl.Tile[[16, 128], pl.FP32] = pl.matmul(x_tile, y_tile)
         for (c,) in pl.while_(init_values=(c0,)):
             pl.cond(pl.tile.read(c, [0, 0]) < pl.tile.read(pl.matmul(x_tile, y_tile), [0, 0]))
             c2: pl.Tile[[16, 128], pl.FP32] = pl.matmul_acc(c, x_tile, y_tile)
             c_out: pl.Tile[[16, 128], pl.FP32] = pl.yield_(c2)
         r: {T16} = pl.store(c_out, [0, 0], out)
         return r
         """,
         VEC_LOADS_EXPECTED + LR_MOVES + f"""
         c0: pl.Tile[[16, 128], pl.FP32, {A}] = pl.tile.matmul(x_tile_Left, y_tile_Right)
         for (c,) in pl.while_(init_values=(c0,)):
             pl.cond(pl.tile.read(pl.tile.move(c, target_memory={V}, blayout=pl.TileLayout.row_major, slayout=pl.TileLayout.none_box), [0, 0]) < pl.tile.read(pl.tile.move(pl.tile.matmul(x_tile_Left, y_tile_Right), target_memory={V}, blayout=pl.TileLayout.row_major, slayout=pl.TileLayout.none_box), [0, 0]))
             c2: pl.Tile[[16, 128], pl.FP32, {A}] = pl.tile.matmul_acc(c, x_tile_Left, y_tile_Right)
             c_out: pl.Tile[[16, 128], pl.FP32, {A}] = pl.yield_(c2)
         r: {T16} = pl.tile.store(c_out, [0, 0], out)
         return r
         """, moves=("x_tile_Left", "y_tile_Right", "tile.move(c)", "tile.move(tile.matmul)")),
    # A tile op in a loop bound and in init_values is computed once, before the loop, by a
    # statement of its own (the initial value's bound to a name by the frontend, the bound's by
    # flatten_call_expr, right before the loop): the bound's read and the Vec carry get its Acc
    # result moved to Vec (the initial value, which a matmul cannot make in Vec, from a move
    # right before the loop).
    Case("tile_op_in_range_bound_and_init_values", P_MM, T16,
         VEC_LOADS_BEFORE + f"""
         c0: pl.Tile[[16, 128], pl.FP32] = pl.matmul(x_tile, y_tile)
         for i, (c,) in pl.range(pl.cast(pl.tile.read(pl.matmul(x_tile, y_tile), [0, 0]), pl.INDEX), init_values=(pl.matmul(x_tile, y_tile),)):
             c2: pl.Tile[[16, 128], pl.FP32] = pl.add(c, c0)
             c_out: pl.Tile[[16, 128], pl.FP32] = pl.yield_(c2)
         r: {T16} = pl.store(c_out, [0, 0], out)
         return r
         """,
         VEC_LOADS_EXPECTED + LR_MOVES + f"""
         c0: pl.Tile[[16, 128], pl.FP32, {A}] = pl.tile.matmul(x_tile_Left, y_tile_Right)
         matmul: pl.Tile[[16, 128], pl.FP32, {A}] = pl.tile.matmul(x_tile_Left, y_tile_Right)
         matmul_1: pl.Tile[[16, 128], pl.FP32, {A}] = pl.tile.matmul(x_tile_Left, y_tile_Right)
         matmul_1_Vec: pl.Tile[[16, 128], pl.FP32, {V}] = pl.tile.move(matmul_1, MOVE_VEC)
         matmul_Vec: pl.Tile[[16, 128], pl.FP32, {V}] = pl.tile.move(matmul, MOVE_VEC)
         for i, (c,) in pl.range(pl.cast(pl.tile.read(matmul_1_Vec, [0, 0]), pl.INDEX), init_values=(matmul_Vec,)):
             c0_Vec: pl.Tile[[16, 128], pl.FP32, {V}] = pl.tile.move(c0, MOVE_VEC)
             c2: pl.Tile[[16, 128], pl.FP32, {V}] = pl.tile.add(c, c0_Vec)
             c_out: pl.Tile[[16, 128], pl.FP32, {V}] = pl.yield_(c2)
         r: {T16} = pl.tile.store(c_out, [0, 0], out)
         return r
         """.replace("MOVE_VEC", MOVE_VEC), moves=("x_tile_Left", "y_tile_Right", "matmul_Vec", "matmul_Vec",
                                                   "c0_Vec")),
    # A tile op under scalar arithmetic and in an offset list: its operand is moved before the
    # statement, as for a top-level call (one move serves both).
    Case("tile_op_in_scalar_expression_and_offsets", P_MM, T16,
         VEC_LOADS_BEFORE + f"""
         c: pl.Tile[[16, 128], pl.FP32] = pl.matmul(x_tile, y_tile)
         s: pl.Scalar[pl.FP32] = pl.tile.read(c, [0, 0]) + 1.0
         d: pl.Tile[[16, 128], pl.BF16] = pl.load(x, [pl.cast(pl.tile.read(c, [1, 0]), pl.INDEX) * 0, 0], [16, 128])
         e: pl.Tile[[16, 128], pl.FP32] = pl.add(pl.cast(d, pl.FP32), s)
         r: {T16} = pl.store(e, [0, 0], out)
         return r
         """,
         VEC_LOADS_EXPECTED + LR_MOVES + f"""
         c: pl.Tile[[16, 128], pl.FP32, {A}] = pl.tile.matmul(x_tile_Left, y_tile_Right)
         c_Vec: pl.Tile[[16, 128], pl.FP32, {V}] = pl.tile.move(c, target_memory={V}, blayout=pl.TileLayout.row_major, slayout=pl.TileLayout.none_box)
         s: pl.Scalar[pl.FP32] = pl.tile.read(c_Vec, [0, 0]) + 1.0
         d: pl.Tile[[16, 128], pl.BF16, {V}] = pl.tile.load(x, [pl.cast(pl.tile.read(c_Vec, [1, 0]), pl.INDEX) * 0, 0], [16, 128], [16, 128], target_memory={V})
         cast: pl.Tile[[16, 128], pl.FP32, {V}] = pl.tile.cast(d, target_type=pl.FP32, mode='round')
         e: pl.Tile[[16, 128], pl.FP32, {V}] = pl.tile.adds(cast, s)
         r: {T16} = pl.tile.store(e, [0, 0], out)
         return r
         """, moves=("x_tile_Left", "y_tile_Right", "c_Vec")),
    # A tile op in a tuple assignment: its operands are moved before the statement.
    Case("tile_op_in_tuple_assignment", P_MM, T16,
         VEC_LOADS_BEFORE + f"""
         c, d = pl.matmul(x_tile, y_tile), y_tile
         r: {T16} = pl.store(c, [0, 0], out)
         return r
         """,
         VEC_LOADS_EXPECTED + LR_MOVES + f"""
         c, d = pl.tile.matmul(x_tile_Left, y_tile_Right), y_tile
         r: {T16} = pl.tile.store(c, [0, 0], out)
         return r
         """, moves=("x_tile_Left", "y_tile_Right")),
    # -- a space written in a tile's annotation (issue 30 item 7) --------------------------------
    # It is the user's, as a target_memory= is: a load given none loads into it, and the vector
    # op reading the tile gets a move (the Mat view goes with the move to Vec, as ops.md says).
    Case("annotated_mat_load_is_kept_for_a_vector_consumer", P_VEC, T16,
         f"""
         m: pl.Tile[[16, 128], pl.FP32, {M}] = pl.load(x, [0, 0], [16, 128])
         e: pl.Tile[[16, 128], pl.FP32] = pl.exp(m)
         r: {T16} = pl.store(e, [0, 0], out)
         return r
         """,
         f"""
         m: pl.Tile[[16, 128], pl.FP32, {M}] = pl.tile.load(x, [0, 0], [16, 128], [16, 128], target_memory={M})
         m_Vec: pl.Tile[[16, 128], pl.FP32, {V}, {COLROW}] = pl.tile.move(m, target_memory={V})
         e: pl.Tile[[16, 128], pl.FP32, {V}, {COLROW}] = pl.tile.exp(m_Vec)
         r: {T16} = pl.tile.store(e, [0, 0], out)
         return r
         """, moves=("m_Vec",), decisions=(("m", "Mat", "explicit_kwarg"),)),
    Case("annotated_acc_create_is_kept_for_a_vector_consumer", P_VEC, T16,
         f"""
         t: pl.Tile[[16, 128], pl.FP32, {A}] = pl.create_tile([16, 128], dtype=pl.FP32)
         e: pl.Tile[[16, 128], pl.FP32] = pl.exp(t)
         r: {T16} = pl.store(e, [0, 0], out)
         return r
         """,
         f"""
         t: pl.Tile[[16, 128], pl.FP32, {A}] = pl.tile.create([16, 128], dtype=pl.FP32, target_memory={A})
         t_Vec: pl.Tile[[16, 128], pl.FP32, {V}] = pl.tile.move(t, target_memory={V}, blayout=pl.TileLayout.row_major, slayout=pl.TileLayout.none_box)
         e: pl.Tile[[16, 128], pl.FP32, {V}] = pl.tile.exp(t_Vec)
         r: {T16} = pl.tile.store(e, [0, 0], out)
         return r
         """, moves=("t_Vec",), decisions=(("t", "Acc", "explicit_kwarg"),)),
    # A while's carries merge as a for's do (the reference records none of them): the carry
    # takes its yield's space, and an initial value its producer cannot make there is moved
    # before the loop. Left unplaced, the loop's result was an Acc tile receiving a Vec one.
    Case("while_carry_takes_its_yields_space", P_MM, T16,
         VEC_LOADS_BEFORE + f"""
         c0: pl.Tile[[16, 128], pl.FP32] = pl.matmul(x_tile, y_tile)
         for (c,) in pl.while_(init_values=(c0,)):
             pl.cond(pl.tile.read(c, [0, 0]) < 100.0)
             c2: pl.Tile[[16, 128], pl.FP32] = pl.add(c, 1.0)
             c_out: pl.Tile[[16, 128], pl.FP32] = pl.yield_(c2)
         r: {T16} = pl.store(c_out, [0, 0], out)
         return r
         """,
         VEC_LOADS_EXPECTED + LR_MOVES + f"""
         c0: pl.Tile[[16, 128], pl.FP32, {A}] = pl.tile.matmul(x_tile_Left, y_tile_Right)
         c0_Vec: pl.Tile[[16, 128], pl.FP32, {V}] = pl.tile.move(c0, MOVE_VEC)
         for (c,) in pl.while_(init_values=(c0_Vec,)):
             pl.cond(pl.tile.read(c, [0, 0]) < 100.0)
             c2: pl.Tile[[16, 128], pl.FP32, {V}] = pl.tile.adds(c, 1.0)
             c_out: pl.Tile[[16, 128], pl.FP32, {V}] = pl.yield_(c2)
         r: {T16} = pl.tile.store(c_out, [0, 0], out)
         return r
         """.replace("MOVE_VEC", MOVE_VEC), moves=("x_tile_Left", "y_tile_Right", "c0_Vec"),
         decisions=(("c", "Vec", "loop_backprop"),)),
]
