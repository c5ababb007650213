"""Annotations longer than a line: a transposed view's type spells its layouts, and a long name
takes a move's line past the width; the annotation's own brackets break first."""

import pl


@pl.program
class LongAnnotation:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        q: pl.Tensor[[16, 64], pl.FP16],
        k: pl.Tensor[[64, 64], pl.FP16],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        query_rows_staged_in_the_matrix_buffer = pl.load(
            q, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat
        )
        k_mat = pl.load(k, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        # The transposed view keeps Mat; its layouts are spelled in its annotation.
        k_transposed_view = pl.tile.transpose_view(k_mat)
        s = pl.matmul(query_rows_staged_in_the_matrix_buffer, k_transposed_view)
        out = pl.store(s, [0, 0], out)
        return out
