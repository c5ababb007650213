"""Tile parameters in every on-chip space, one with an explicit TileView and one with no space, in
the form the reference prints (no `self`, `pl.Mem` spelling): they read back as written, and
compile (docs/tile_params.md)."""

import pypto.language as pl


@pl.program
class TileParams:
    @pl.function(type=pl.FunctionType.InCore)
    def cube(
        lhs: pl.Tile[[16, 128], pl.BF16, pl.Mem.Left],
        rhs: pl.Tile[[128, 64], pl.BF16, pl.Mem.Mat, pl.TileView(blayout=pl.TileLayout.col_major, slayout=pl.TileLayout.row_major)],
        acc: pl.Tile[[16, 64], pl.FP32, pl.Mem.Acc],
        bias: pl.Tile[[1, 64], pl.FP32, pl.Mem.Bias],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        c = pl.tile.matmul_acc(acc, lhs, rhs)
        r = pl.tile.store(c, [0, 0], out)
        return r

    @pl.function(type=pl.FunctionType.AIV)
    def vector(
        v: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec],
        w: pl.Tile[[16, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        s = pl.tile.add(v, w)
        r = pl.tile.store(s, [0, 0], out)
        return r
