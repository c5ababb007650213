"""An atomic assemble of a tensor into a tensor in a pl.at scope: outlined, the source is loaded
whole into Vec and stored into the destination with the atomic add (only a store into GM adds
atomically); once the scope was outlined it was refused as a copy between two tensors with no
computed tile to store (a kernel of the reference's test_outline_incore_scopes.py)."""
import pl


@pl.program
class Prog:
    @pl.function
    def main(self, src: pl.Tensor[[32], pl.FP32], dst: pl.Out[pl.Tensor[[64], pl.FP32]]) -> pl.Tensor[[64], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            dst = pl.assemble(dst, src, [32], atomic=pl.AtomicType.Add)
        return dst
