import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.AIV)
    def k(self, ws: pl.Tensor[[16], pl.INT32]) -> pl.Tensor[[16], pl.INT32]:
        pl.system.cacheinvalid(ws)  # error: takes all of its arguments or none
        return ws
