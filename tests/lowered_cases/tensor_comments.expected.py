"""A tensor-level kernel with a comment on every line: shown as it compiles, every comment kept."""

import pl  # the DSL


@pl.program  # one program
class TensorComments:  # its class
    # the kernel, written with tensors
    @pl.function(type=pl.FunctionType.InCore)  # runs on a core
    def kernel(  # its signature, kept as written
        self,  # the program
        a: pl.Tensor[[16, 128], pl.FP32],  # first input
        b: pl.Tensor[[16, 128], pl.FP32],  # second input
        out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],  # the result
    ) -> pl.Tensor[[16, 128], pl.FP32]:  # returns it
        """Adds, then scales the sum (its docstring stays)."""
        a_vec: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.tile.load(
            a, [0, 0], [16, 128], [16, 128], target_memory=pl.MemorySpace.Vec
        )
        b_vec: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.tile.load(
            b, [0, 0], [16, 128], [16, 128], target_memory=pl.MemorySpace.Vec
        )
        # a comment before the sum

        s_vec: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.tile.add(a_vec, b_vec)  # elementwise: a load of each operand, the add
        # a comment before the scaling
        t_vec: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.tile.muls(s_vec, 2.0)  # scaled
        out_tensor: pl.Tensor[[16, 128], pl.FP32] = pl.tile.store(t_vec, [0, 0], out)  # stored into out
        # a comment before the return
        return out_tensor  # the written tensor
        # a comment at the end of the body
