"""Two loops one after another, each carrying a 48 KiB Vec accumulator and adding a 48 KiB block
to it: inside a loop the carried value, the block and the new sum are live at once (144 KiB), and
the carried value is one buffer (its initial tile's); the second loop's tiles are made after the
first loop's are dead. All six tiles add up to 288 KiB, more than Vec on 910B (184 KiB), but no
more than 144 KiB is ever live."""

import pl


@pl.program
class CarriedAccumulators:
    @pl.function(type=pl.FunctionType.InCore)
    def sums(self, x: pl.Tensor[[768, 128], pl.FP32], y: pl.Tensor[[768, 128], pl.FP32],
             out: pl.Out[pl.Tensor[[192, 128], pl.FP32]]) -> pl.Tensor[[192, 128], pl.FP32]:
        first0 = pl.load(x, [0, 0], [96, 128])
        for i, (first,) in pl.range(96, 768, 96, init_values=(first0,)):
            block = pl.load(x, [i, 0], [96, 128])
            grown = pl.add(first, block)
            first_next = pl.yield_(grown)
        out = pl.store(first_next, [0, 0], out)
        second0 = pl.load(y, [0, 0], [96, 128])
        for j, (second,) in pl.range(96, 768, 96, init_values=(second0,)):
            part = pl.load(y, [j, 0], [96, 128])
            summed = pl.add(second, part)
            second_next = pl.yield_(summed)
        out = pl.store(second_next, [96, 0], out)
        return out
