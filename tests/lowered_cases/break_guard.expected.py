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
        ret0_out: pl.Out[pl.Tensor[[32, 64], pl.FP32]],
    ) -> pl.Tensor[[32, 64], pl.FP32]:
        x_vec: pl.Tile[[32, 64], pl.FP32, pl.MemorySpace.Vec] = pl.tile.load(
            x, [0, 0], [32, 64], [32, 64], target_memory=pl.MemorySpace.Vec
        )
        # halve until the trip count reaches the limit, skipping the even trips
        break_flag: pl.Scalar[pl.BOOL] = False
        for k, (break_flag, x_2) in pl.range(16, init_values=(break_flag, x_vec)):
            if not break_flag:
                # past the limit: stop
                if k > limit:
                    break_flag: pl.Scalar[pl.BOOL] = True  # leave the loop
                else:
                    # even trips change nothing
                    if k % 2 == 0:
                        pass
                    # the odd trips halve
                    else:  # an odd trip
                        x_2: pl.Tile[[32, 64], pl.FP32, pl.MemorySpace.Vec] = pl.tile.muls(x_2, 0.5)  # halved
            break_flag, x_1 = pl.yield_(break_flag, x_2)
        ret0_store: pl.Tensor[[32, 64], pl.FP32] = pl.tile.store(x_1, [0, 0], ret0_out)
        return ret0_store
