"""The quick-start form: a plain `@pl.function` whose core work sits in `pl.at` scopes.

- Each `with pl.at(level=pl.Level.CORE_GROUP):` block runs on a core group. Compilation outlines
  its body into an InCore function (`--ir` shows it) and infers its tiles' memory spaces there,
  as in an InCore function: show_inferred types the statements in place, inside the block, and
  writes the moves a matmul needs (its operands in Left and Right, its result in Acc).
- The scopes sit in a loop: block j of the output is its own task, reading column block j of b.
- `as scaled` names the second stage's task: the last scope waits for it (`deps=[scaled]`). A
  task's tiles live in its core's buffers only while it runs: what the next task reads goes
  through a tensor (`c`).
"""

import pl


@pl.program
class ScopedMatmul:
    @pl.function
    def main(
        self,
        a: pl.Tensor[[64, 64], pl.FP16],
        b: pl.Tensor[[64, 256], pl.FP16],
        c: pl.Out[pl.Tensor[[64, 256], pl.FP32]],
    ) -> pl.Tensor[[64, 256], pl.FP32]:
        for j in pl.range(4):
            with pl.at(level=pl.Level.CORE_GROUP):
                ta: pl.Tile[[64, 64], pl.FP16, pl.MemorySpace.Mat] = pl.load(
                    a, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat
                )
                tb: pl.Tile[[64, 64], pl.FP16, pl.MemorySpace.Mat] = pl.load(
                    b, [0, j * 64], [64, 64], target_memory=pl.MemorySpace.Mat
                )
                ta_Left: pl.Tile[[64, 64], pl.FP16, pl.MemorySpace.Left] = pl.move(
                    ta, target_memory=pl.MemorySpace.Left
                )
                tb_Right: pl.Tile[[64, 64], pl.FP16, pl.MemorySpace.Right] = pl.move(
                    tb, target_memory=pl.MemorySpace.Right
                )
                acc: pl.Tile[[64, 64], pl.FP32, pl.MemorySpace.Acc] = pl.matmul(ta_Left, tb_Right)
                c = pl.store(acc, [0, j * 64], c)
        with pl.at(level=pl.Level.CORE_GROUP) as scaled:
            first: pl.Tile[[64, 64], pl.FP32, pl.MemorySpace.Vec] = pl.load(c, [0, 0], [64, 64])
            halved: pl.Tile[[64, 64], pl.FP32, pl.MemorySpace.Vec] = pl.mul(first, 0.5)
            c = pl.store(halved, [0, 0], c)
        with pl.at(level=pl.Level.CORE_GROUP, deps=[scaled]):
            block: pl.Tile[[64, 64], pl.FP32, pl.MemorySpace.Vec] = pl.load(c, [0, 0], [64, 64])
            shifted: pl.Tile[[64, 64], pl.FP32, pl.MemorySpace.Vec] = pl.add(block, 1.0)
            c = pl.store(shifted, [0, 64], c)
        return c
