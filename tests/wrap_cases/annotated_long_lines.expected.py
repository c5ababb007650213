import pl


@pl.program
class LongLines:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        activations: pl.Tensor[[16, 128], pl.FP32],
        weights: pl.Tensor[[16, 128], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        # Annotated, these lines grow past 100 columns: they are broken as the printer breaks
        # the statements it inserts (the arguments on a line of their own, else one a line).
        activation_rows: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.load(
            activations, [0, 0], [16, 128]
        )
        weight_rows: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.load(
            weights, [0, 0], [16, 128]
        )  # a trailing comment stays on the line
        for _i in pl.range(2):
            scaled_activation_rows: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.add(
                activation_rows, weight_rows
            )
            very_long_name_for_a_product_of_rows: pl.Tile[
                [16, 128],
                pl.FP32,
                pl.MemorySpace.Vec,
            ] = pl.maximum(scaled_activation_rows, weight_rows)
            out = pl.store(very_long_name_for_a_product_of_rows, [0, 0], out)
        return out
