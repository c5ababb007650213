import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.AIV)
    def k(self, ws: pl.Tensor[[16], pl.INT32]) -> pl.Tensor[[16], pl.INT32]:
        pl.system.syncall(core_type="aiv_only", gm_workspace=ws)  # error: takes no gm_workspace / used_cores
        return ws
