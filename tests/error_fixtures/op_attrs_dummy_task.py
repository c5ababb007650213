import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, a: pl.Tensor[[32, 32], pl.FP16], out: pl.Out[pl.Tensor[[32, 32], pl.FP16]]
               ) -> pl.Tensor[[32, 32], pl.FP16]:
        # Only pl.system.task_dummy is a dummy task, and that follows from the op itself.
        t: pl.Tile[[32, 32], pl.FP16] = pl.load(a, [0, 0], [32, 32], attrs={"dummy_task": True})  # error: attrs={'dummy_task': ...} is not accepted on a call  # error-col: 77
        out = pl.store(t, [0, 0], out)
        return out
