"""The master invariants on every program the tests hold as data (examples are in test_examples):
printing then parsing gives a structurally equal program that prints the same text, and the
compiled program does too; compiling is idempotent."""

from __future__ import annotations

import io
import struct
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from infer_cases.cases import CASES as INFER_CASES
from test_residency import CASES as RESIDENCY_CASES

import pl
import pl.show_inferred as cli
from pl.ir import (
    AssignStmt,
    Call,
    ConstFloat,
    ConstInt,
    DType,
    Function,
    FunctionType,
    Program,
    ReturnStmt,
    ScalarType,
    Var,
    make_body,
)
from pl.printer.exprs import float_text
from pl.show_inferred.run import run_text

REFERENCE = sorted((Path(__file__).resolve().parent / "reference_output").glob("*.py"))
# Kernels for forms whose printed text reads back only through a rule of the parser.
KERNELS = sorted((Path(__file__).resolve().parent / "round_trip_kernels").glob("*.py"))
OP_KERNELS = sorted((Path(__file__).resolve().parent / "op_kernels").glob("*.py"))


def _sources() -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for c in INFER_CASES:
        out += [(f"infer:{c.name}:Before", c.source("Before")),
                (f"infer:{c.name}:Expected", c.source("Expected"))]
    out += [(f"residency:{c[0]}", c[1]) for c in RESIDENCY_CASES]
    out += [(f"reference:{p.name}", p.read_text(encoding="utf-8")) for p in REFERENCE]
    out += [(f"kernel:{p.name}", p.read_text(encoding="utf-8")) for p in KERNELS]
    out += [(f"op_kernel:{p.name}", p.read_text(encoding="utf-8")) for p in OP_KERNELS]
    return out


SOURCES = _sources()


def _round_trip(program: Program, label: str) -> None:
    text = pl.python_print(program)
    again = pl.parse(text, filename=f"<{label}>")
    pl.assert_structural_equal(again, program)
    assert pl.python_print(again) == text


@pytest.mark.parametrize(("label", "source"), SOURCES, ids=[s[0] for s in SOURCES])
def test_program_and_its_compiled_form_round_trip(label: str, source: str) -> None:
    program = pl.parse(source, filename=f"<{label}>")
    assert isinstance(program, Program)
    _round_trip(program, label)
    try:
        compiled = pl.compile(program, backend="910B")
    except pl.PlError as e:
        # Scenarios that reproduce a reference quirk keep a constraint violation on purpose.
        assert "requires" in e.message, e.message
        return
    _round_trip(compiled.program, label + ":compiled")
    infer = pl.passes.infer_tile_memory_space("910B")
    pl.assert_structural_equal(infer(compiled.program), compiled.program)


def test_there_are_many_programs() -> None:
    assert len(SOURCES) > 100


def test_nested_calls_are_parsed_and_printed_as_written() -> None:
    """pl.parse keeps op calls nested where they are written, and the printer prints them so (the
    round trip above reads them back); the compiled program has them flattened."""
    path = Path(__file__).resolve().parent / "round_trip_kernels" / "nested_calls.py"
    program = pl.parse(path.read_text(encoding="utf-8"))
    printed = pl.python_print(program)
    for nested in ("pl.tile.mul(pl.tile.mul(xt, xt), xt)", "pl.tile.read(pl.tile.exp(inner), [0, 0])",
                   "pl.tile.exp(pl.tile.neg(inner))", "return pl.tile.store(pl.tile.muls(y, 0.5)",
                   "pl.tensor.exp(pl.tensor.muls(a, 0.5))"):
        assert nested in printed, nested
    compiled = pl.python_print(pl.compile(program).program)
    assert "(pl.tile." not in compiled


def test_a_dispatch_keeps_its_device() -> None:
    """`device=` on an orchestrator's call is kept on the call and printed back as written."""
    path = Path(__file__).resolve().parent / "round_trip_kernels" / "dispatch_to_a_device.py"
    printed = pl.python_print(pl.parse(path.read_text(encoding="utf-8")))
    assert "self.orch(x, device=d)" in printed and "self.orch(x, device=1)" in printed


@pytest.mark.parametrize("path", KERNELS, ids=[p.stem for p in KERNELS])
def test_round_trip_kernels_compute_the_same_compiled(path: Path) -> None:
    """Compiling keeps what each of these kernels computes (interpreted where it has numerics)."""
    from interpret_support import compare_results

    program = pl.parse(path.read_text(encoding="utf-8"), filename=str(path))
    assert isinstance(program, Program)
    for backend in (None, "910B"):
        verdict = compare_results(program, pl.compile(program, backend=backend).program)
        assert not verdict.startswith("differs"), verdict


# -- every constant the printer can print reads back (pl/printer/exprs.py, the frontend's consts) --

_INT_RANGES = {dt: ((-(1 << (dt.bits - 1)), (1 << (dt.bits - 1)) - 1) if dt.is_signed_int()
                    else (0, (1 << dt.bits) - 1)) for dt in DType if dt.is_int()}
_FLOAT_DTYPES = [dt for dt in DType if dt.is_float()]


def _bits(v: float) -> bytes:
    """A float's sign, exponent and mantissa; a NaN as the one quiet NaN with its sign (the DSL
    spells no payload)."""
    if v != v:
        v = -float("nan") if struct.pack(">d", v)[0] & 0x80 else float("nan")
    return struct.pack(">d", v)


def _const_program(value: ConstInt | ConstFloat) -> Program:
    x = Var("x", ScalarType(value.dtype))
    body = make_body([AssignStmt(x, value), ReturnStmt((x,))])
    return Program("P", (Function("f", (), (), (x.type,), body, FunctionType.Opaque, None, None,
                                  ()),))


def _read_back(value: ConstInt | ConstFloat) -> ConstInt | ConstFloat:
    program = _const_program(value)
    text = pl.python_print(program)
    again = pl.parse(text)
    assert isinstance(again, Program) and pl.python_print(again) == text
    pl.assert_structural_equal(again, program)  # every constant equals itself (a NaN too)
    stmt = again.functions[0].body
    first = stmt.stmts[0] if hasattr(stmt, "stmts") else stmt
    assert isinstance(first, AssignStmt)
    got = first.value
    assert isinstance(got, ConstInt | ConstFloat) and got.dtype == value.dtype, text
    return got


@settings(max_examples=300, deadline=None)
@given(st.floats(allow_nan=True, allow_infinity=True, allow_subnormal=True),
       st.sampled_from(_FLOAT_DTYPES))
def test_every_float_constant_reads_back_as_printed(v: float, dtype: DType) -> None:
    got = _read_back(ConstFloat(v, dtype))
    assert isinstance(got, ConstFloat) and _bits(got.value) == _bits(v), (v, got.value)


def _full_kernel(v: float) -> str:
    return ("import pl\n\n\n@pl.program\nclass P:\n    @pl.function(type=pl.FunctionType.InCore)\n"
            "    def f(self, out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:\n"
            f"        t = pl.tile.full([16, 16], dtype=pl.FP32, value={float_text(v)})\n"
            "        out = pl.store(t, [0, 0], out)\n        return out\n")


def _full_value_reads_back(v: float) -> None:
    """A float keyword of an op (tile.full's value=) reads back to the same value, printed the
    same."""
    program = pl.parse(_full_kernel(v))
    assert isinstance(program, Program)
    printed = pl.python_print(program)
    assert f"value={float_text(v)}" in printed and pl.python_print(pl.parse(printed)) == printed
    body = program.functions[0].body
    first = body.stmts[0] if hasattr(body, "stmts") else body
    assert isinstance(first, AssignStmt) and isinstance(first.value, Call)
    value = first.value.args[1]  # tile.full keeps its fill value as an argument
    assert isinstance(value, ConstFloat) and _bits(value.value) == _bits(v), (v, value)


@settings(max_examples=200, deadline=None)
@given(st.floats(allow_nan=True, allow_infinity=True, allow_subnormal=True))
def test_every_float_keyword_reads_back_as_printed(v: float) -> None:
    _full_value_reads_back(v)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(_INT_RANGES, key=lambda d: d.name)).flatmap(
    lambda dt: st.tuples(st.just(dt), st.integers(*_INT_RANGES[dt]))))
def test_every_int_constant_of_its_dtype_range_reads_back(case: tuple[DType, int]) -> None:
    dtype, v = case
    got = _read_back(ConstInt(v, dtype))
    assert isinstance(got, ConstInt) and got.value == v


@pytest.mark.parametrize("v", [float("inf"), -float("inf"), float("nan"), -float("nan"), -0.0, 0.0,
                               5e-324, -5e-324, 2.2250738585072014e-308, 1.7976931348623157e308,
                               -1.7976931348623157e308, 1e400])
def test_edge_floats_read_back_in_kwargs_and_expressions(v: float) -> None:
    got = _read_back(ConstFloat(v))
    assert isinstance(got, ConstFloat) and _bits(got.value) == _bits(v)
    _full_value_reads_back(v)
    text = _full_kernel(v)
    # show_inferred verifies what it prints (the file and --ir) by compiling it again
    run_text(text, "<edge_float>", backend="910B")
    out, err = io.StringIO(), io.StringIO()
    assert cli.main(["--ir", "--no-cache", "-"], stdin=io.StringIO(text), stdout=out,
                    stderr=err) == 0, err.getvalue()


def test_a_float_is_structurally_itself_and_not_its_negative_zero() -> None:
    nan = ConstFloat(float("nan"))
    assert pl.structural_equal(nan, ConstFloat(float("nan")))
    assert not pl.structural_equal(ConstFloat(0.0), ConstFloat(-0.0))
    assert pl.structural_hash(nan) == pl.structural_hash(ConstFloat(float("nan")))
