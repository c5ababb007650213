"""A loop inside a scope that carries the tensor its lanes write: compiled, the task's loop
carries it under the user's name (its start value, the value it carries and its result alike),
and the file regenerated from it names it so again (a fixed point)."""

import pl

D = 32


@pl.program
class ScopeLoopCarry:
    @pl.function(type=pl.FunctionType.Opaque)
    def main(
        self,
        p: pl.Tensor[[D, D], pl.FP32],
        q: pl.Tensor[[D, D], pl.FP32],
        res: pl.Out[pl.Tensor[[D, D], pl.FP32]],
    ) -> pl.Tensor[[D, D], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, name_hint='pq'):
            p_mat: pl.Tile[[D, D], pl.FP32, pl.MemorySpace.Mat] = pl.tile.load(
                p, [0, 0], [D, D], [D, D], target_memory=pl.MemorySpace.Mat
            )
            q_mat: pl.Tile[[D, D], pl.FP32, pl.MemorySpace.Mat] = pl.tile.load(
                q, [0, 0], [D, D], [D, D], target_memory=pl.MemorySpace.Mat
            )
            move_left: pl.Tile[[D, D], pl.FP32, pl.MemorySpace.Left] = pl.tile.move(
                p_mat, target_memory=pl.MemorySpace.Left
            )
            move_right: pl.Tile[[D, D], pl.FP32, pl.MemorySpace.Right] = pl.tile.move(
                q_mat, target_memory=pl.MemorySpace.Right
            )
            prod: pl.Tile[[D, D], pl.FP32, pl.MemorySpace.Acc] = pl.tile.matmul(
                move_left, move_right
            )
            for _rep, (res,) in pl.range(3, init_values=(res,)):  # written three times over
                for lane in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):
                    mine: pl.Tile[[16, D], pl.FP32, pl.MemorySpace.Vec] = pl.tile.aiv_shard(
                        prod, split=1
                    )  # this lane's rows
                    neg: pl.Tile[[16, D], pl.FP32, pl.MemorySpace.Vec] = pl.tile.neg(mine)
                    res: pl.Tensor[[D, D], pl.FP32] = pl.tile.store(neg, [lane * 16, 0], res)
                res: pl.Tensor[[D, D], pl.FP32] = pl.yield_(res)
        return res
