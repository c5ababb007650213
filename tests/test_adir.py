"""`pl.adir`: per-argument runtime directions on a program call, as the reference spells and prints
them. The IR keeps the ints (`ArgDirection` is an IntEnum), the printer writes `pl.adir.<name>`
back, and the text reads back to the same program before and after compiling."""

from __future__ import annotations

import pytest

import pl
from pl.ir.enums import ARG_DIRECTION_NAMES, ArgDirection
from pl.ir.expr import Call, GlobalVar
from pl.ir.stmt import AssignStmt
from pl.ir.traverse import walk_stmts

CALLER = '''import pl


@pl.program
class Directions:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[64], pl.FP32], out: pl.Out[pl.Tensor[[64], pl.FP32]]) -> pl.Tensor[[64], pl.FP32]:
        t = pl.tile.load(x, [0], [64], [64], target_memory=pl.Mem.Vec)
        ret = pl.tile.store(t, [0], out)
        return ret

    @pl.function
    def main(self, x: pl.Tensor[[64], pl.FP32], dst: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        r = self.kernel(x, dst, attrs={"arg_directions": [pl.adir.input, pl.adir.DIR]})
        return r
'''


def _directions(program: pl.ir.Program) -> tuple[object, ...]:
    main = program.get("main")
    assert main is not None
    calls = [s.value for s in walk_stmts(main.body)
             if isinstance(s, AssignStmt) and isinstance(s.value, Call) and isinstance(s.value.op, GlobalVar)]
    return tuple(dict(calls[0].attrs)["arg_directions"])


@pytest.mark.parametrize("name", sorted(ARG_DIRECTION_NAMES.values()))
def test_directions_are_kept_printed_and_read_back(name: str) -> None:
    program = pl.parse(CALLER.replace("DIR", name), filename="<adir>")
    assert isinstance(program, pl.ir.Program)
    member = next(m for m, n in ARG_DIRECTION_NAMES.items() if n == name)
    assert _directions(program) == (0, int(member))
    assert all(type(d) is int for d in _directions(program))  # the IR keeps ints
    text = program.as_python()
    assert f"[pl.adir.input, pl.adir.{name}]" in text
    pl.assert_structural_equal(pl.parse(text), program)
    compiled = pl.compile(program, backend="910B")
    pl.assert_structural_equal(pl.parse(compiled.as_python()), compiled.program)
    assert f"pl.adir.{name}]" in compiled.as_python()


def test_every_direction_has_its_dsl_name() -> None:
    assert set(ARG_DIRECTION_NAMES) == set(ArgDirection)
    for member, name in ARG_DIRECTION_NAMES.items():
        assert getattr(pl.adir, name) is member


def test_an_unknown_direction_is_a_located_error() -> None:
    with pytest.raises(pl.PlError) as info:
        pl.parse(CALLER.replace("DIR", "outptu"), filename="<adir>")
    assert info.value.span is not None and info.value.span.line == 14
    assert "pl.adir.outptu" in info.value.message
