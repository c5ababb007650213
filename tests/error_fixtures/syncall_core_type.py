import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.AIV)
    def k(self, ws: pl.Tensor[[16], pl.INT32]) -> pl.Tensor[[16], pl.INT32]:
        pl.system.syncall(core_type="vector")  # error: core_type must be one of 'aiv_only', 'aic_only', 'mix'
        return ws
