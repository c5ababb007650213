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
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="pq"):
            p_mat = pl.load(p, [0, 0], [D, D], target_memory=pl.MemorySpace.Mat)
            q_mat = pl.load(q, [0, 0], [D, D], target_memory=pl.MemorySpace.Mat)
            prod = pl.matmul(pl.move(p_mat, target_memory=pl.MemorySpace.Left),
                             pl.move(q_mat, target_memory=pl.MemorySpace.Right))
            for _rep in pl.range(3):  # written three times over
                for lane in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):
                    mine = pl.aiv_shard(prod)  # this lane's rows
                    res = pl.store(pl.neg(mine), [lane * (D // 2), 0], res)
        return res
