"""`pl.adir`: the per-argument runtime directions of a program call, as the reference spells them
(`self.kernel(x, dst, attrs={"arg_directions": [pl.adir.input, pl.adir.output_existing]})`).

Guarantees: each name is an `ArgDirection` member (an `IntEnum`: the IR keeps the int), named as
`pl.ir.enums.ARG_DIRECTION_NAMES` says, which the printer writes back (tests/test_adir.py).
"""

from __future__ import annotations

from typing import Final

from pl.ir.enums import ArgDirection

input: Final = ArgDirection.Input  # noqa: A001  (the reference's name; shadows only in this module)
output: Final = ArgDirection.Output
output_existing: Final = ArgDirection.OutputExisting
inout: Final = ArgDirection.InOut
no_dep: Final = ArgDirection.NoDep
scalar: Final = ArgDirection.Scalar

__all__ = ["ArgDirection", "inout", "input", "no_dep", "output", "output_existing", "scalar"]
