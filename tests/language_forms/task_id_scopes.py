# printed: with pl.at(level=pl.Level.CORE_GROUP, name_hint='first') as
import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.Orchestration)
    def kernel(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
               m: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.manual_scope():
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="first") as first:
                t: pl.Tile[[4, 16], pl.FP32] = pl.load(x, [0, 0], [4, 16])
                out = pl.store(t, [0, 0], out)
            tids = pl.array.create(2, pl.TASK_ID)
            tids = pl.array.update_element(tids, 0, first)
            # The task id each step binds is carried to the next step's deps.
            for i, (prev,) in pl.range(1, 4, init_values=(first,)):
                with pl.at(level=pl.Level.CORE_GROUP, deps=[prev]) as step:
                    u: pl.Tile[[4, 16], pl.FP32] = pl.load(x, [i * 4, 0], [4, 16])
                    out = pl.store(pl.mul(u, u), [i * 4, 0], out)
                tids[1] = step
                nxt = pl.yield_(step)
            with pl.spmd(1, deps=[nxt, tids]) as last:
                j = pl.tile.get_block_idx()
                v: pl.Tile[[4, 16], pl.FP32] = pl.load(out, [j * 4, 0], [4, 16])
                out = pl.store(pl.add(v, v), [j * 4, 0], out)
            never = None  # the id of no task: invalid
            if pl.system.task_is_valid(never):
                z: pl.Tile[[4, 16], pl.FP32] = pl.load(out, [8, 0], [4, 16])
                out = pl.store(pl.neg(z), [8, 0], out)
            if pl.system.task_is_valid(last):
                w: pl.Tile[[4, 16], pl.FP32] = pl.load(out, [4, 0], [4, 16])
                out = pl.store(pl.neg(w), [4, 0], out)
        return out
