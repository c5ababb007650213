import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.AIV)
    def k(self, ws: pl.Tensor[[16], pl.INT32]) -> pl.Tensor[[16], pl.INT32]:
        pl.system.syncall(mode="soft", core_type="aiv_only", gm_workspace=ws)  # error: needs used_cores
        return ws
