"""The reference's int-coded enums and layout constants: `pl.AtomicType`, `pl.PipeType`,
`pl.SplitMode`, `pl.tile.MaskPattern`, and `pl.ND` / `pl.DN` / `pl.NZ` / `pl.MX_A_ZZ` / `pl.MX_B_NN`.

The IR keeps an int-coded kwarg or attr as the plain int, whichever spelling the kernel used (the
member or the number), so the two spellings build equal programs; the printer spells the int back
as the reference's printer does (`atomic=pl.AtomicType.Add`, `set_pipe=pl.PipeType.MTE2`, a
function's `"split": pl.SplitMode.UP_DOWN`, but `mask_pattern=1` and an op's `split=1`); the text
parses back to an equal program, before and after compiling. Misuse is one located error (see
tests/error_fixtures/unknown_atomic_type.py, unknown_mask_pattern.py, pipe_type_as_memory_space.py).
"""

from __future__ import annotations

import numpy as np
import pytest

import pl
from pl.ir.enums import AtomicType, MaskPattern, PipeType, SplitMode, TensorLayout
from pl.ir.expr import Call
from pl.ir.traverse import stmt_exprs, walk_exprs, walk_stmts
from pl.ops.registry import all_ops

SYNC = '''import pl


@pl.program
class Sync:
    @pl.function(type=pl.FunctionType.AIV, attrs={"split": @SPLIT@})
    def k(self, x: pl.Tensor[[16, 128], pl.FP32], out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
        t: pl.Tile[[16, 128], pl.FP32] = pl.load(x, [0, 0], [16, 128])
        pl.system.sync_src(set_pipe=@MTE2@, wait_pipe=@V@, event_id=0)
        pl.system.sync_dst(set_pipe=@MTE2@, wait_pipe=@V@, event_id=0)
        pl.system.sync_set(pipe=@MTE3@, event_id=3, ffts_mode=1)
        pl.system.sync_wait(pipe=@MTE3@, event_id=3)
        g: pl.Tile[[16, 64], pl.FP32] = pl.tile.gather_mask(t, @MASK@)
        out = pl.store(t, [0, 0], out, atomic=@ATOMIC@)
        return out
'''

MEMBERS = {"SPLIT": "pl.SplitMode.UP_DOWN", "MTE2": "pl.PipeType.MTE2", "V": "pl.PipeType.V",
           "MTE3": "pl.PipeType.MTE3", "MASK": "pl.tile.MaskPattern.P1010", "ATOMIC": "pl.AtomicType.Add"}
NUMBERS = {"SPLIT": "1", "MTE2": "1", "V": "4", "MTE3": "2", "MASK": "2", "ATOMIC": "1"}


def _text(spellings: dict[str, str]) -> str:
    text = SYNC
    for hole, spelling in spellings.items():
        text = text.replace(f"@{hole}@", spelling)
    return text


def _program(spellings: dict[str, str]) -> pl.ir.Program:
    program = pl.parse(_text(spellings), filename="<sync>")
    assert isinstance(program, pl.ir.Program)
    return program


def _kwargs(program: pl.ir.Program) -> dict[str, list[object]]:
    found: dict[str, list[object]] = {}
    calls = [e for s in walk_stmts(program.functions[0].body) for top in stmt_exprs(s)
             for e in walk_exprs(top) if isinstance(e, Call)]
    for e in calls:
        for key, value in e.kwargs:
            found.setdefault(key, []).append(value)
    return found


def test_the_ir_keeps_plain_ints_whichever_spelling_the_kernel_used() -> None:
    by_member, by_number = _program(MEMBERS), _program(NUMBERS)
    pl.assert_structural_equal(by_member, by_number)
    kwargs = _kwargs(by_member)
    for key in ("set_pipe", "wait_pipe", "pipe", "mask_pattern", "atomic"):
        assert kwargs[key] and all(type(v) is int for v in kwargs[key]), (key, kwargs[key])
    assert kwargs["atomic"] == [1] and kwargs["mask_pattern"] == [2] and kwargs["pipe"] == [2, 2]
    assert dict(by_member.functions[0].attrs) == {"split": 1}
    assert type(dict(by_member.functions[0].attrs)["split"]) is int


@pytest.mark.parametrize("spellings", [MEMBERS, NUMBERS], ids=["members", "numbers"])
def test_the_printer_spells_them_as_the_reference_does(spellings: dict[str, str]) -> None:
    text = pl.python_print(_program(spellings))
    for line in ('pl.func_attr({"split": pl.SplitMode.UP_DOWN})',
                 "pl.system.sync_src(set_pipe=pl.PipeType.MTE2, wait_pipe=pl.PipeType.V, event_id=0)",
                 "pl.system.sync_dst(set_pipe=pl.PipeType.MTE2, wait_pipe=pl.PipeType.V, event_id=0)",
                 "pl.system.sync_set(pipe=pl.PipeType.MTE3, event_id=3, ffts_mode=1)",
                 "pl.system.sync_wait(pipe=pl.PipeType.MTE3, event_id=3)",
                 "pl.tile.gather_mask(t, mask_pattern=2)",
                 "pl.tile.store(t, [0, 0], out, atomic=pl.AtomicType.Add)"):
        assert line in text, (line, text)


@pytest.mark.parametrize("backend", [None, "910B"])
@pytest.mark.parametrize("spellings", [MEMBERS, NUMBERS], ids=["members", "numbers"])
def test_they_round_trip_before_and_after_compiling(spellings: dict[str, str], backend: str | None) -> None:
    program = _program(spellings)
    text = pl.python_print(program)
    again = pl.parse(text)
    pl.assert_structural_equal(again, program)
    assert pl.python_print(again) == text
    compiled = pl.compile(program, backend=backend)
    pl.assert_structural_equal(pl.parse(compiled.as_python()), compiled.program)


def test_a_value_that_is_no_member_prints_as_the_int() -> None:
    text = pl.python_print(_program({**NUMBERS, "SPLIT": "9", "ATOMIC": "0"}))
    assert '{"split": 9}' in text
    assert "atomic=pl.AtomicType.None_" in text


def test_an_op_split_kwarg_stays_an_int() -> None:
    """The reference spells only a function's `"split"` attr as a SplitMode, never an op's
    `split=` kwarg (`tpush_to_aiv(t, split=1)`)."""
    source = '''import pl


@pl.program
class Push:
    @pl.function(type=pl.FunctionType.AIC)
    def k(self, x: pl.Tensor[[16, 128], pl.FP32]):
        t: pl.Tile[[16, 128], pl.FP32] = pl.load(x, [0, 0], [16, 128])
        pl.tpush_to_aiv(t, split=pl.SplitMode.UP_DOWN)
'''
    text = pl.python_print(pl.parse(source))
    assert "split=1" in text and "SplitMode" not in text


def test_the_int_coded_kwargs_are_typed_by_their_records() -> None:
    """Which kwarg is an int-coded enum is its record's type (`KwargType.coded`), which the
    printer reads per op: the kwargs the reference prints as members, and no other (a kwarg of
    another op that happens to be named `pipe` stays an int)."""
    from pl.ops.registry import KWARG_TYPES
    from pl.printer.exprs import _kwarg_text as kwarg_text
    from pl.printer.exprs import default_ctx
    coded = sorted((name, k.name, KWARG_TYPES[k.type_name].coded.__name__)
                   for name, op in all_ops().items() for k in op.kwargs
                   if KWARG_TYPES[k.type_name].coded is not None)
    assert coded == [
        ("pld.tensor.put", "atomic", "AtomicType"), ("pld.tensor.remote_store", "atomic", "AtomicType"),
        ("pld.tile.put", "atomic", "AtomicType"), ("pld.tile.remote_store", "atomic", "AtomicType"),
        ("system.sync_dst", "set_pipe", "PipeType"), ("system.sync_dst", "wait_pipe", "PipeType"),
        ("system.sync_set", "pipe", "PipeType"), ("system.sync_src", "set_pipe", "PipeType"),
        ("system.sync_src", "wait_pipe", "PipeType"), ("system.sync_wait", "pipe", "PipeType"),
        ("tensor.assemble", "atomic", "AtomicType"), ("tile.store", "atomic", "AtomicType")]
    ctx = default_ctx()
    assert kwarg_text("system.sync_set", "pipe", 2, ctx) == "pl.PipeType.MTE3"
    assert kwarg_text("tile.store", "pipe", 2, ctx) == "2"  # not a kwarg of that op: the int


def test_layout_constants_are_the_tensor_layouts() -> None:
    assert (pl.ND, pl.DN, pl.NZ, pl.MX_A_ZZ, pl.MX_B_NN) == tuple(TensorLayout)
    source = '''import pl


@pl.program
class Mx:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, s: pl.Tensor[[16, 2], pl.FP8E8M0, pl.MX_A_ZZ], n: pl.Tensor[[16, 16], pl.FP16, pl.NZ],
          out: pl.Out[pl.Tensor[[16, 16], pl.FP16]]) -> pl.Tensor[[16, 16], pl.FP16]:
        t: pl.Tile[[16, 16], pl.FP16] = pl.load(n, [0, 0], [16, 16])
        out = pl.store(t, [0, 0], out)
        return out
'''
    program = pl.parse(source)
    spelled = pl.parse(source.replace("pl.MX_A_ZZ", "pl.TensorLayout.MX_A_ZZ")
                       .replace("pl.NZ", "pl.TensorLayout.NZ"))
    pl.assert_structural_equal(program, spelled)
    text = pl.python_print(program)
    pl.assert_structural_equal(pl.parse(text), program)


def test_the_enums_have_the_reference_members_and_values() -> None:
    assert {m.name: m.value for m in AtomicType} == {"None_": 0, "Add": 1}
    assert {m.name: m.value for m in PipeType} == {"MTE1": 0, "MTE2": 1, "MTE3": 2, "M": 3, "V": 4,
                                                   "S": 5, "FIX": 6, "ALL": 7}
    assert {m.name: m.value for m in MaskPattern} == {"P0101": 1, "P1010": 2, "P0001": 3, "P0010": 4,
                                                      "P0100": 5, "P1000": 6, "P1111": 7}
    assert {m.name: m.value for m in SplitMode} == {"NONE": 0, "UP_DOWN": 1, "LEFT_RIGHT": 2}
    assert pl.tile.MaskPattern is MaskPattern and pl.AtomicType is AtomicType
    assert pl.AUTO == pl.system.AUTO == -1  # reserve_buffer(base=pl.AUTO): the compiler's choice


def test_an_atomic_add_store_adds_in_the_interpreter_too() -> None:
    source = '''import pl


@pl.program
class Acc:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t: pl.Tile[[16, 16], pl.FP32] = pl.load(x, [0, 0], [16, 16])
        out = pl.store(t, [0, 0], out, atomic=pl.AtomicType.Add)
        return out
'''
    program = pl.parse(source)
    x = np.arange(256, dtype=np.float32).reshape(16, 16)
    for p in (program, pl.compile(program, backend="910B").program):
        out = np.ones((16, 16), np.float32)
        pl.interpret(p, x, out)
        np.testing.assert_array_equal(out, x + 1)
