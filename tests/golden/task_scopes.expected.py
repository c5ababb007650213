"""Tasks and their ids: four blocks scale a tensor, then one task, waiting for them, takes exp.

- `with pl.spmd(4) as scaled:` runs its body once per block, 4 blocks in all, as one task;
  `pl.tile.get_block_idx()` says which block is running (0 to 3). `as scaled` binds the id of
  that task (a `pl.Scalar[pl.TASK_ID]`, an opaque handle: no arithmetic on it).
- `with pl.at(level=pl.Level.CORE_GROUP, deps=[scaled]) as done:` runs its body as one task
  on a core group, started only after the task `scaled` names has finished.
- Inside `pl.manual_scope()` the runtime orders tasks only by the ids given in `deps=[...]`:
  a task that reads what another wrote must list that task's id.
"""

import pl


@pl.program
class TaskScopes:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[64, 128], pl.FP32],
        scaled_x: pl.Out[pl.Tensor[[64, 128], pl.FP32]],
        out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        with pl.scope(mode=pl.ScopeMode.MANUAL):
            # Stage 1: block b scales rows 16*b .. 16*b+15 of x into scaled_x.
            with pl.spmd(4, name_hint='scale') as scaled:
                b: pl.Scalar[pl.INDEX] = pl.tile.get_block_idx()
                rows: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.tile.load(
                    x, [b * 16, 0], [16, 128], [16, 128], target_memory=pl.MemorySpace.Vec
                )
                muls: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.tile.muls(rows, 2.0)
                scaled_x: pl.Tensor[[64, 128], pl.FP32] = pl.tile.store(muls, [b * 16, 0], scaled_x)
            # Stage 2 reads what stage 1 wrote, so it waits for that task: deps=[scaled].
            with pl.at(level=pl.Level.CORE_GROUP, name_hint='exp', deps=[scaled]) as done:
                first: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.tile.load(
                    scaled_x, [0, 0], [16, 128], [16, 128], target_memory=pl.MemorySpace.Vec
                )
                exp: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.tile.exp(first)
                out: pl.Tensor[[16, 128], pl.FP32] = pl.tile.store(exp, [0, 0], out)
            # A task id can be tested: a task that ran is valid (`None` stands for "no task").
            if pl.system.task_is_valid(done):
                last: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.tile.load(
                    scaled_x, [48, 0], [16, 128], [16, 128], target_memory=pl.MemorySpace.Vec
                )
                total: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.tile.load(
                    out, [0, 0], [16, 128], [16, 128], target_memory=pl.MemorySpace.Vec
                )
                add: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.tile.add(total, last)
                out: pl.Tensor[[16, 128], pl.FP32] = pl.tile.store(add, [0, 0], out)
        return out
