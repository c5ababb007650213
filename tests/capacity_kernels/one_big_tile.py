"""One 1 MiB Vec tile: more than Vec holds on either backend (184 KiB on 910B, 240 KiB on 950)."""

import pl


@pl.program
class OneBigTile:
    @pl.function(type=pl.FunctionType.InCore)
    def scale(self, x: pl.Tensor[[512, 512], pl.FP32],
              out: pl.Out[pl.Tensor[[512, 512], pl.FP32]]) -> pl.Tensor[[512, 512], pl.FP32]:
        # The whole matrix in one tile.
        whole = pl.load(x, [0, 0], [512, 512])
        out = pl.store(whole, [0, 0], out)
        return out
