from typing import Final

from pl.ir.enums import ArgDirection as ArgDirection

input: Final = ArgDirection.Input
output: Final = ArgDirection.Output
output_existing: Final = ArgDirection.OutputExisting
inout: Final = ArgDirection.InOut
no_dep: Final = ArgDirection.NoDep
scalar: Final = ArgDirection.Scalar
