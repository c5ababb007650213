"""A tensor-level loop that leaves early: compiled, its break and continue become flags and
guards whose carries the regenerated file leaves to the read-back, as the user's loop does."""

import pl


@pl.program
class BreakGuard:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[32, 64], pl.FP32],
        limit: pl.Scalar[pl.INDEX],
    ) -> pl.Tensor[[32, 64], pl.FP32]:
        # halve until the trip count reaches the limit, skipping the even trips
        for k in pl.range(16):
            # past the limit: stop
            if k > limit:
                break  # leave the loop
            # even trips change nothing
            elif k % 2 == 0:
                continue
            # the odd trips halve
            else:  # an odd trip
                x = pl.mul(x, 0.5)  # halved
        return x
