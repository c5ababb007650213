"""A kernel written with its own carries: a pl.while_ loop and ifs that yield their values. The
flag a branch sets is carried by compilation beside the user's yields; the regenerated file
keeps the user's yields as written and lets the read-back carry the flag again."""

import pl


@pl.program
class OwnYields:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[16, 64], pl.FP32]) -> pl.Tensor[[16, 64], pl.FP32]:
        trips: pl.Scalar[pl.INDEX] = 0
        done: pl.Scalar[pl.BOOL] = False
        # doubles x until done, counting the trips
        for (step, acc) in pl.while_(init_values=(trips, x)):
            pl.cond(step < 8 and not done)
            if step > 4:
                done = True  # no more trips
                step_out, acc_out = pl.yield_(step, acc)  # unchanged
            else:
                twice = pl.add(acc, acc)
                step_out, acc_out = pl.yield_(step + 1, twice)
            # a branch that only sets the flag, with no values of its own
            if step_out == 3:
                done = True
                pl.yield_()
            else:
                pl.yield_()  # nothing to carry
            step, acc = pl.yield_(step_out, acc_out)
        return acc
