"""Tests of `pl.interpret`: kernels parsed from DSL source, run on NumPy, compared with NumPy
computations written here (each expected value is derived from the op's definition in ops.md)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from interpret_support import assert_product_close, k_order_matmul

from pl.errors import PlError
from pl.interpreter.run import entry_function, interpret
from pl.interpreter.values import round_bf16, scalar_binary, scalar_unary
from pl.ir.enums import DType
from pl.ir.function import Program
from pl.ir.operators import BinaryOp, UnaryOp
from pl.lowering.frontend.parse import parse
from pl.lowering.ssa.convert import convert_to_ssa

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
RNG = np.random.default_rng(7)


def _program(src: str) -> Program:
    p = parse(src)
    assert isinstance(p, Program)
    return p


def _both(src: str) -> list[Program]:
    """The parsed program and its SSA form: both must compute the same thing."""
    p = _program(src)
    return [p, convert_to_ssa(p)]


def _rand(*shape: int, lo: float = 0.5, hi: float = 2.0) -> np.ndarray[Any, Any]:
    return RNG.uniform(lo, hi, size=shape).astype(np.float32)


# ---- elementwise / scalar / reduction kernels ---------------------------------------------------

KERNEL = """
import pl

@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 64], pl.FP32],
        y: pl.Tensor[[16, 64], pl.FP32],
        out: pl.Out[pl.Tensor[{out_shape}, pl.{out_dtype}]],
    ) -> pl.Tensor[{out_shape}, pl.{out_dtype}]:
        a = pl.load(x, [0, 0], [16, 64])
        b = pl.load(y, [0, 0], [16, 64])
        tmp = pl.create_tile([16, 64], dtype=pl.FP32)
        r = {expr}
        out = pl.store(r, [0, 0], out)
        return out
"""

Ref = Callable[[np.ndarray[Any, Any], np.ndarray[Any, Any]], np.ndarray[Any, Any]]

FULL = "[16, 64]"
ELEMENTWISE: list[tuple[str, str, Ref]] = [
    ("pl.add(a, b)", FULL, lambda a, b: a + b),
    ("pl.sub(a, b)", FULL, lambda a, b: a - b),
    ("pl.mul(a, b)", FULL, lambda a, b: a * b),
    ("pl.div(a, b)", FULL, lambda a, b: a / b),
    ("pl.maximum(a, b)", FULL, np.maximum),
    ("pl.minimum(a, b)", FULL, np.minimum),
    ("pl.exp(a)", FULL, lambda a, b: np.exp(a)),
    ("pl.neg(a)", FULL, lambda a, b: -a),
    ("pl.abs(pl.sub(a, b))", FULL, lambda a, b: np.abs(a - b)),
    ("pl.sqrt(a)", FULL, lambda a, b: np.sqrt(a)),
    ("pl.rsqrt(a)", FULL, lambda a, b: 1 / np.sqrt(a)),
    ("pl.recip(a)", FULL, lambda a, b: 1 / a),
    ("pl.log(a)", FULL, lambda a, b: np.log(a)),
    ("pl.relu(pl.sub(a, b))", FULL, lambda a, b: np.maximum(a - b, 0)),
    ("pl.add(a, 1.5)", FULL, lambda a, b: a + 1.5),
    ("pl.sub(a, 2.0)", FULL, lambda a, b: a - 2.0),
    ("pl.mul(a, 0.5)", FULL, lambda a, b: a * 0.5),
    ("pl.div(a, 4.0)", FULL, lambda a, b: a / 4.0),
    ("pl.maximum(a, 1.0)", FULL, lambda a, b: np.maximum(a, 1.0)),
    ("pl.row_sum(a, tmp)", "[16, 1]", lambda a, b: a.sum(axis=1, keepdims=True)),
    ("pl.row_max(a, tmp)", "[16, 1]", lambda a, b: a.max(axis=1, keepdims=True)),
    ("pl.row_min(a, tmp)", "[16, 1]", lambda a, b: a.min(axis=1, keepdims=True)),
    ("pl.col_sum(a)", "[1, 64]", lambda a, b: a.sum(axis=0, keepdims=True)),
    ("pl.col_max(a)", "[1, 64]", lambda a, b: a.max(axis=0, keepdims=True)),
    ("pl.row_expand_sub(a, pl.row_max(a, tmp))", FULL, lambda a, b: a - a.max(axis=1, keepdims=True)),
    ("pl.row_expand_mul(a, pl.row_sum(b, tmp))", FULL, lambda a, b: a * b.sum(axis=1, keepdims=True)),
    ("pl.row_expand_expdif(a, pl.row_max(a, tmp))", FULL,
     lambda a, b: np.exp(a - a.max(axis=1, keepdims=True))),
    ("pl.col_expand_div(a, pl.col_sum(b))", FULL, lambda a, b: a / b.sum(axis=0, keepdims=True)),
    ("pl.row_expand(a, pl.row_min(b, tmp))", FULL,
     lambda a, b: np.broadcast_to(b.min(axis=1, keepdims=True), a.shape)),
    ("pl.tile.transpose(pl.tile.slice(a, [16, 16], [0, 8]), 0, 1)", "[16, 16]",
     lambda a, b: a[:, 8:24].T),
    ("pl.tile.extract(a, 4, 16, [8, 32], target_memory=pl.MemorySpace.Vec)", "[8, 32]",
     lambda a, b: a[4:12, 16:48]),
    ("pl.tile.full([16, 64], 3.0, dtype=pl.FP32)", FULL, lambda a, b: np.full((16, 64), 3.0)),
    ("pl.move(a, target_memory=pl.MemorySpace.Mat)", FULL, lambda a, b: a),
    ("pl.assemble(pl.create_tile([16, 64], dtype=pl.FP32), pl.tile.slice(a, [8, 32], [0, 0]), [8, 32])",
     FULL, lambda a, b: np.pad(a[:8, :32], ((8, 0), (32, 0)))),
    ("pl.tile.reshape(pl.tile.slice(b, [16, 32], [0, 32]), [32, 16])", "[32, 16]",
     lambda a, b: b[:, 32:].reshape(32, 16)),
]


@pytest.mark.parametrize("expr,out_shape,ref", ELEMENTWISE, ids=[c[0] for c in ELEMENTWISE])
def test_vector_kernels(expr: str, out_shape: str, ref: Ref) -> None:
    program = _program(KERNEL.format(expr=expr, out_shape=out_shape, out_dtype="FP32"))
    x, y = _rand(16, 64), _rand(16, 64)
    want = np.asarray(ref(x, y), dtype=np.float32)
    out = np.zeros(want.shape, dtype=np.float32)
    got = interpret(program, x, y, out)
    assert got is out  # the Out parameter is the caller's array, written in place
    np.testing.assert_allclose(out, want, rtol=1e-5, atol=1e-6)


CASTS: list[tuple[str, str, Callable[[np.ndarray[Any, Any]], np.ndarray[Any, Any]]]] = [
    ("FP16", "pl.cast(a, target_type=pl.FP16)", lambda a: a.astype(np.float16)),
    # mode 'round' (the default) rounds half away from zero
    ("INT32", "pl.cast(pl.mul(a, 4.0), target_type=pl.INT32)",
     lambda a: (np.sign(a * 4) * np.floor(np.abs(a * 4) + 0.5)).astype(np.int32)),
    ("INT32", "pl.cast(pl.mul(a, 4.0), target_type=pl.INT32, mode='floor')",
     lambda a: np.floor(a * 4).astype(np.int32)),
]


@pytest.mark.parametrize("dtype,expr,ref", CASTS, ids=[c[1] for c in CASTS])
def test_cast(dtype: str, expr: str, ref: Callable[[np.ndarray[Any, Any]], np.ndarray[Any, Any]]) -> None:
    program = _program(KERNEL.format(expr=expr, out_shape=FULL, out_dtype=dtype))
    x = np.round(_rand(16, 64) * 8) / 8  # exact quarters and eighths: ties are exercised
    want = ref(x)
    out = np.zeros((16, 64), dtype=want.dtype)
    interpret(program, x, x, out)
    np.testing.assert_array_equal(out, want)


def test_partial_valid_load_reduces_only_the_valid_region() -> None:
    src = KERNEL.replace("a = pl.load(x, [0, 0], [16, 64])", "a = pl.load(x, [0, 0], [16, 64], [16, 40])")
    program = _program(src.format(expr="pl.row_sum(pl.exp(a), tmp)", out_shape="[16, 1]", out_dtype="FP32"))
    x = _rand(16, 64)
    out = np.zeros((16, 1), np.float32)
    interpret(program, x, x, out)
    np.testing.assert_allclose(out, np.exp(x[:, :40]).sum(axis=1, keepdims=True), rtol=1e-5)


# ---- the examples -------------------------------------------------------------------------------

def _example(name: str) -> str:
    return (EXAMPLES / f"{name}.py").read_text()


def test_matmul_k_loop_accumulates_in_fp32() -> None:
    a = RNG.standard_normal((64, 256)).astype(np.float16)
    b = RNG.standard_normal((256, 64)).astype(np.float16)
    for program in _both(_example("matmul_k_loop")):
        c = np.zeros((64, 64), np.float32)
        got = interpret(program, a, b, c)
        assert got is c
        assert_product_close(c, a, b)
        # Four K blocks chained through matmul_acc sum in K order, as the whole product does.
        np.testing.assert_array_equal(c, k_order_matmul(a, b))


@pytest.mark.parametrize("flag", [1, 0, -3])
def test_branch_select_phi(flag: int) -> None:
    x = RNG.standard_normal((16, 128)).astype(np.float32)
    want = np.exp(x) if flag > 0 else -x
    for program in _both(_example("branch_select")):
        out = np.zeros_like(x)
        interpret(program, x, flag, out)
        np.testing.assert_allclose(out, want, rtol=1e-6)


def test_orchestration_calls_two_kernels_through_a_created_tensor() -> None:
    a, b = _rand(16, 128), _rand(16, 128)
    program = _program(_example("orchestrated_add"))
    assert entry_function(program).name == "main"
    out = np.zeros_like(a)
    assert interpret(program, a, b, out) is out
    np.testing.assert_allclose(out, (a + b) * 2.0, rtol=1e-6)


def test_vector_rowsum_example() -> None:
    x, y = _rand(16, 128, lo=-1, hi=1), _rand(16, 128, lo=-1, hi=1)
    out = np.zeros((16, 1), np.float32)
    interpret(_program(_example("vector_rowsum")), x, y, out)
    np.testing.assert_allclose(out, np.exp(x * y * 0.5).sum(axis=1, keepdims=True), rtol=1e-5)


def test_bf16_inputs_are_rounded_and_matmul_result_is_fp32() -> None:
    x = _rand(16, 128)
    y = _rand(128, 128)
    out = np.zeros((16, 128), np.float32)
    interpret(_program(_example("seed_general")), x, y, out)
    assert_product_close(out, round_bf16(x), round_bf16(y))
    with pytest.raises(AssertionError):  # BF16 precision is really applied
        assert_product_close(out, x, y)


# ---- tensors alias their root ---------------------------------------------------------------------

ALIASING = """
import pl

@pl.program
class Alias:
    @pl.function(type=pl.FunctionType.InCore)
    def fill(
        self,
        x: pl.Tensor[[16, 64], pl.FP32],
        o: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 64])
        t2 = pl.add(t, 1.0)
        o = pl.store(t2, [0, 0], o)
        return o

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[16, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[32, 128], pl.FP32]],
    ) -> pl.Tensor[[32, 128], pl.FP32]:
        corner = pl.slice(out, [16, 64], [16, 64])
        corner = self.fill(x, corner)
        tmp = pl.create_tensor([16, 64], dtype=pl.FP32)
        tmp = self.fill(x, tmp)
        out = pl.assemble(out, tmp, [0, 0])
        return out
"""


def test_slice_of_an_out_tensor_writes_through_to_the_root() -> None:
    x = _rand(16, 64)
    for program in _both(ALIASING):
        out = np.full((32, 128), -7.0, np.float32)
        assert interpret(program, x, out) is out
        np.testing.assert_allclose(out[16:, 64:], x + 1)   # through tensor.slice
        np.testing.assert_allclose(out[:16, :64], x + 1)   # through tensor.assemble
        assert (out[:16, 64:] == -7).all() and (out[16:, :64] == -7).all()


def test_an_array_of_another_dtype_is_refused_naming_the_parameter() -> None:
    x = _rand(16, 64).astype(np.float64)
    out = np.zeros((32, 128), np.float32)
    with pytest.raises(PlError) as err:
        interpret(_program(ALIASING), x, out)
    assert "argument 'x' is a float64 array, but its parameter is declared pl.FP32 " \
        "(stored as float32)" in err.value.message
    assert err.value.span is not None and err.value.span.line > 0
    assert not out.any()  # nothing ran


READ_TWO = """
import pl

@pl.program
class R:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        h: pl.Tensor[[4], pl.FP16],
        i: pl.Tensor[[4], pl.INT32],
        s: pl.Scalar[pl.FP16],
    ) -> pl.Scalar[pl.INT32]:
        r = pl.read(i, [1])
        return r
"""


@pytest.mark.parametrize(("h", "i", "needle"), [
    (np.zeros(4, np.float64), np.zeros(4, np.int32), "'h' is a float64 array, but its parameter is declared pl.FP16"),
    (np.zeros(4, np.float32), np.zeros(4, np.int32), "'h' is a float32 array, but its parameter is declared pl.FP16"),
    (np.zeros(4, np.float16), np.zeros(4, np.int64), "'i' is a int64 array, but its parameter is declared pl.INT32"),
    (np.zeros(4, np.float16), np.zeros(4, np.int16), "'i' is a int16 array, but its parameter is declared pl.INT32"),
])
def test_other_widths_are_refused_too(h: Any, i: Any, needle: str) -> None:
    with pytest.raises(PlError, match=needle):
        interpret(_program(READ_TWO), h, i, 1.5)


def test_exact_dtypes_lists_and_python_scalars_are_accepted() -> None:
    i = np.array([3, 7, 0, 0], np.int32)
    assert interpret(_program(READ_TWO), np.zeros(4, np.float16), i, 1.5) == 7
    assert interpret(_program(READ_TWO), [0.0] * 4, [3, 7, 0, 0], np.float64(1.5)) == 7


def test_tensor_write_through_a_slice_changes_the_root() -> None:
    src = """
import pl

@pl.program
class W:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        t: pl.InOut[pl.Tensor[[8, 8], pl.FP32]],
        v: pl.Scalar[pl.FP32],
    ) -> pl.Scalar[pl.FP32]:
        s = pl.slice(t, [4, 4], [2, 3])
        pl.write(s, [1, 2], v)
        r = pl.read(t, [3, 5])
        return r
"""
    t = np.zeros((8, 8), np.float32)
    got = interpret(_program(src), t, 2.5)
    assert got == 2.5 and t[3, 5] == 2.5 and np.count_nonzero(t) == 1


# ---- scalar control flow ----------------------------------------------------------------------------

SCALAR_LOOPS = """
import pl

@pl.program
class S:
    @pl.function
    def skip_and_stop(self, n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
        s = 0
        for i in pl.range(n):
            if i % 3 == 0:
                continue
            if i > 10:
                break
            s = s + i
        return s

    @pl.function
    def collatz(self, n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
        steps = 0
        while n != 1:
            if n % 2 == 0:
                n = n // 2
            else:
                n = 3 * n + 1
            steps = steps + 1
        return steps

    @pl.function
    def pair(self, a: pl.Scalar[pl.INDEX], b: pl.Scalar[pl.INDEX]) -> tuple[pl.Scalar[pl.INDEX], pl.Scalar[pl.INDEX]]:
        return a // b, a % b

    @pl.function
    def use_pair(self, a: pl.Scalar[pl.INDEX], b: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
        q, r = self.pair(a, b)
        return q * 100 + r
"""


def _collatz(n: int) -> int:
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


@pytest.mark.parametrize("fn,args,want", [
    ("skip_and_stop", (20,), sum(i for i in range(20) if i % 3 and i <= 10)),
    ("skip_and_stop", (0,), 0),
    ("collatz", (27,), _collatz(27)),
    ("pair", (-7, 2), (-4, 1)),          # FloorDiv / FloorMod round toward minus infinity
    ("use_pair", (17, 5), 302),
])
def test_scalar_functions(fn: str, args: tuple[int, ...], want: Any) -> None:
    for program in _both(SCALAR_LOOPS):
        assert interpret(program, *args, entry=fn) == want


SCALAR_OPS: list[tuple[str, Any, Any, DType, Any]] = [
    ("FloorDiv", -7, 2, DType.INDEX, -4),
    ("FloorMod", -7, 2, DType.INDEX, 1),
    ("FloorDiv", 7.5, 2.0, DType.FP32, 3.0),
    ("FloatDiv", 7, 2, DType.FP32, 3.5),
    ("Min", 3, -2, DType.INDEX, -2),
    ("Max", 3, -2, DType.INDEX, 3),
    ("Lt", 1, 2, DType.BOOL, True),
    ("Ge", 1, 2, DType.BOOL, False),
    ("And", True, False, DType.BOOL, False),
    ("Or", True, False, DType.BOOL, True),
    ("Add", 2**31 - 1, 1, DType.INT32, -(2**31)),  # fixed-width integers wrap
]


@pytest.mark.parametrize("op,a,b,dtype,want", SCALAR_OPS)
def test_scalar_binary(op: str, a: Any, b: Any, dtype: DType, want: Any) -> None:
    assert scalar_binary(BinaryOp[op], a, b, dtype) == want


@pytest.mark.parametrize("op,a,dtype,want", [
    ("Cast", 2.7, DType.INT32, 2), ("Cast", -2.7, DType.INDEX, -2), ("Cast", 3, DType.FP32, 3.0),
    ("Not", True, DType.BOOL, False), ("Neg", 4, DType.INDEX, -4), ("Abs", -1.5, DType.FP32, 1.5),
])
def test_scalar_unary(op: str, a: Any, dtype: DType, want: Any) -> None:
    got = scalar_unary(UnaryOp[op], a, dtype)
    assert got == want and type(got) is type(want)


def test_round_bf16_keeps_eight_mantissa_bits() -> None:
    vals = np.array([1.0, 1.0 + 2**-8, 1.0 + 2**-7, 1.0 + 3 * 2**-9, -3.0], np.float32)
    # 1+2^-8 is a tie between 1 and 1+2^-7: ties go to even (1.0); 1+3*2^-9 rounds up to 1+2^-7.
    np.testing.assert_array_equal(round_bf16(vals), [1.0, 1.0, 1.0 + 2**-7, 1.0 + 2**-7, -3.0])


# ---- errors and coverage ------------------------------------------------------------------------------

def test_uncovered_op_raises_a_clear_error() -> None:
    # mrgsort format2's `exhausted` flag and result tail are the instruction's: refused, with why.
    program = _program(KERNEL.format(expr="pl.tile.mrgsort_format2(a, b, tmp)", out_shape="[16, 64]",
                                     out_dtype="FP32"))
    x = _rand(16, 64)
    with pytest.raises(PlError, match=re.escape(
            "pl.interpret: op 'tile.mrgsort_format2' is not supported by the interpreter: what its "
            "`exhausted` flag does")) as info:
        interpret(program, x, x, np.zeros((16, 64), np.float32))
    assert info.value.span is not None and info.value.span.line > 0


# Operands an op cannot compute on: each gets one located PlError, never a NumPy exception.
BAD_OPERANDS = [
    # tile.ci fills only the first row, so the other rows would be undefined.
    ("pl.tile.ci(0, [16, 64], dtype=pl.INT32)", "INT32", "fills only the first row"),
    # the destination row 16 lies past the [16, 64] tile.
    ("pl.tile.gather_row(a, y, [16, 0], [0, 0], [1, 64])", "FP32", "leaves the destination"),
    # the source window leaves the [16, 64] tensor.
    ("pl.tile.gather_row(a, y, [0, 0], [16, 0], [1, 64])", "FP32", "leaves the source"),
    # rows 14..17 of a 16-row tile.
    ("pl.tile.scatter_update(a, pl.tile.ci(14, [1, 4], dtype=pl.INT32), "
     "pl.load(x, [0, 0], [4, 64]), dim=-2)", "FP32", "an index outside [0, 16)"),
]


@pytest.mark.parametrize(("expr", "dtype", "message"), BAD_OPERANDS)
def test_bad_operands_get_a_located_error(expr: str, dtype: str, message: str) -> None:
    program = _program(KERNEL.format(expr=expr, out_shape=FULL, out_dtype=dtype))
    x = _rand(16, 64)
    with pytest.raises(PlError, match=re.escape(message)) as info:
        interpret(program, x, x, np.zeros((16, 64), np.float32 if dtype == "FP32" else np.int32))
    assert info.value.span is not None and info.value.span.line == 16  # the `r = ...` line


def test_wrong_argument_shape_is_rejected() -> None:
    program = _program(KERNEL.format(expr="pl.add(a, b)", out_shape=FULL, out_dtype="FP32"))
    with pytest.raises(PlError, match="has shape \\[8, 64\\]"):
        interpret(program, _rand(8, 64), _rand(16, 64), np.zeros((16, 64), np.float32))


def test_ambiguous_entry_needs_a_name() -> None:
    with pytest.raises(PlError, match="cannot choose the entry") as err:
        interpret(_program(SCALAR_LOOPS), 3)
    # the error names the candidates (functions nothing calls) and how to choose one
    assert "'collatz'" in err.value.message and "'use_pair'" in err.value.message
    assert "'pair'" not in err.value.message  # use_pair calls it: not a candidate
    assert "entry=" in (err.value.hint or "")


TWO_KERNELS = """
import pl

@pl.program
class Two:
    @pl.function(type=pl.FunctionType.InCore)
    def double(self, x: pl.Tensor[[8, 16], pl.FP32],
               out: pl.Out[pl.Tensor[[8, 16], pl.FP32]]) -> pl.Tensor[[8, 16], pl.FP32]:
        t = pl.load(x, [0, 0], [8, 16])
        out = pl.store(pl.add(t, t), [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.InCore)
    def negate(self, x: pl.Tensor[[8, 16], pl.FP32],
               out: pl.Out[pl.Tensor[[8, 16], pl.FP32]]) -> pl.Tensor[[8, 16], pl.FP32]:
        t = pl.load(x, [0, 0], [8, 16])
        out = pl.store(pl.neg(t), [0, 0], out)
        return out
"""


@pytest.mark.parametrize(("entry", "expected"), [("double", lambda x: x + x), ("negate", np.negative)])
def test_the_caller_names_the_entry_among_uncalled_functions(entry: str, expected: Any) -> None:
    for program in _both(TWO_KERNELS):
        x = _rand(8, 16)
        out = np.zeros((8, 16), np.float32)
        interpret(program, x, out, entry=entry)
        np.testing.assert_array_equal(out, expected(x))


def test_function_is_the_older_name_of_entry() -> None:
    program = _program(TWO_KERNELS)
    x, out = _rand(8, 16), np.zeros((8, 16), np.float32)
    interpret(program, x, out, function="negate")
    np.testing.assert_array_equal(out, -x)
    with pytest.raises(PlError, match="give the entry once"):
        interpret(program, x, out, entry="double", function="negate")


def test_several_uncalled_functions_without_a_name_list_the_candidates() -> None:
    with pytest.raises(PlError, match="'double', 'negate'"):
        interpret(_program(TWO_KERNELS), _rand(8, 16), np.zeros((8, 16), np.float32))


def test_an_unknown_entry_lists_the_functions() -> None:
    with pytest.raises(PlError, match="no function 'main' \\(it has double, negate\\)"):
        interpret(_program(TWO_KERNELS), _rand(8, 16), np.zeros((8, 16), np.float32), entry="main")


def test_a_single_uncalled_function_is_the_entry_whatever_its_type() -> None:
    text = TWO_KERNELS.replace("        out = pl.store(pl.neg(t), [0, 0], out)",
                               "        out = self.double(x, out)")
    program = _program(text)
    assert entry_function(program).name == "negate"


# ---- tensor-level ops and padding -------------------------------------------------------------------

TENSOR_OPS = """
import pl

@pl.program
class T:
    @pl.function
    def f(
        self,
        a: pl.Tensor[[32, 16], pl.FP32],
        b: pl.Tensor[[16, 32], pl.FP32],
    ) -> tuple[pl.Tensor[[16, 1], pl.FP32], pl.Tensor[[16, 16], pl.FP32]]:
        c = pl.matmul(a, b, a_trans=True, b_trans=True)
        d = pl.add(c, 1.0)
        e = pl.exp(pl.neg(d))
        t = pl.transpose(e, 0, 1)
        s = pl.row_sum(t)
        return s, c
"""


def test_tensor_ops_with_transposed_matmul() -> None:
    a, b = _rand(32, 16), _rand(16, 32)
    for program in _both(TENSOR_OPS):
        s, c = interpret(program, a, b)
        assert_product_close(c, a.T, b.T)
        # From the product the kernel computed: exp and a 16-term sum of positives, a few ulps.
        np.testing.assert_allclose(s, np.exp(-(c + 1)).T.sum(axis=1, keepdims=True), rtol=1e-5)


PAD = """
import pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(
        self,
        x: pl.Tensor[[16, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> tuple[pl.Tensor[[16, 64], pl.FP32], pl.Scalar[pl.FP32]]:
        a = pl.load(x, [0, 0], [16, 64], [10, 40])
        p = pl.fillpad(a, pad_value=pl.PadValue.{pad})
        w = pl.tile.write(p, [0, 0], 5.0)
        v = pl.tile.read(p, [0, 0])
        out = pl.store(w, [0, 0], out)
        return out, v
"""


@pytest.mark.parametrize("pad,fill", [("zero", 0.0), ("min", -np.inf), ("max", np.inf)])
def test_fillpad_fills_outside_the_valid_region(pad: str, fill: float) -> None:
    x = _rand(16, 64)
    want = np.full((16, 64), fill, np.float32)
    want[:10, :40] = x[:10, :40]
    want[0, 0] = 5.0
    out = np.zeros((16, 64), np.float32)
    _, v = interpret(_program(PAD.format(pad=pad)), x, out)
    np.testing.assert_array_equal(out, want)
    assert v == 5.0  # tile.write writes its target tile (ops.md: arg0 ReadWrite)


def test_partial_store_writes_only_the_valid_region() -> None:
    src = PAD.format(pad="zero").replace("out = pl.store(w, [0, 0], out)", "out = pl.store(a, [0, 0], out)")
    x = _rand(16, 64)
    out = np.full((16, 64), -1.0, np.float32)
    interpret(_program(src), x, out)
    np.testing.assert_array_equal(out[:10, :40], x[:10, :40])
    assert (out[10:] == -1).all() and (out[:, 40:] == -1).all()


TENSOR_KERNEL = """
import pl

@pl.program
class K:
    @pl.function(type=pl.FunctionType.Orchestration)
    def kernel(
        self,
        x: pl.Tensor[[4, 16], pl.FP32],
        ix: pl.Tensor[[4, 8], pl.INT32],
        out: pl.Out[pl.Tensor[[4, 16], pl.FP32]],
    ) -> pl.Tensor[[4, 16], pl.FP32]:
        r = {expr}
        out = pl.assemble(out, r, [0, 0])
        return out
"""

# Indices the hardware would not wrap, and writes whose order is not defined: located errors.
BAD_INDICES = [
    ("pl.tensor.gather(x, dim=-1, index=ix)", -1, "an index outside [0, 16)"),
    ("pl.tensor.gather(x, dim=-1, index=ix)", 16, "an index outside [0, 16)"),
    ("pl.tensor.scatter(x, dim=-1, index=ix, src=x)", 3, "writes one element twice"),
]


@pytest.mark.parametrize(("expr", "index", "message"), BAD_INDICES)
def test_bad_indices_get_a_located_error(expr: str, index: int, message: str) -> None:
    program = _program(TENSOR_KERNEL.format(expr=expr))
    ix = np.full((4, 8), index, np.int32)
    with pytest.raises(PlError, match=re.escape(message)) as info:
        interpret(program, _rand(4, 16), ix, np.zeros((4, 16), np.float32))
    assert info.value.span is not None and info.value.span.line == 13  # the `r = ...` line


ARRAY_KERNEL = """
import pl

@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[16, 64], pl.INT32], n: pl.Scalar[pl.INDEX],
               out: pl.Out[pl.Tensor[[16, 64], pl.INT32]]) -> pl.Tensor[[16, 64], pl.INT32]:
        arr = pl.array.create(4, dtype=pl.INT32)
        arr = pl.array.update_element(arr, 0, 5)
        v = pl.array.get_element(arr, n)
        t = pl.tile.adds(pl.load(x, [0, 0], [16, 64]), v)
        out = pl.store(t, [0, 0], out)
        return out
"""


def test_a_new_array_holds_zeros() -> None:
    """The reference declares an on-core array `dtype name[N] = {0};`: unwritten elements are 0."""
    for program in _both(ARRAY_KERNEL):
        out = np.zeros((16, 64), np.int32)
        interpret(program, np.ones((16, 64), np.int32), 1, out)
        np.testing.assert_array_equal(out, np.ones((16, 64), np.int32))


@pytest.mark.parametrize(("n", "message"), [
    (4, "index 4 is out of range for an array of 4 elements"),  # a dynamic index past the end
    (-1, "index -1 is out of range"),  # never wrapped
])
def test_array_reads_outside_what_was_written_are_errors(n: int, message: str) -> None:
    program = _program(ARRAY_KERNEL)
    x = np.ones((16, 64), np.int32)
    with pytest.raises(PlError, match=re.escape(message)) as info:
        interpret(program, x, n, np.zeros((16, 64), np.int32))
    assert info.value.span is not None and info.value.span.line == 11  # the get_element line


def test_array_update_is_functional() -> None:
    """`update_element` gives a new array; the old value still reads its own elements."""
    src = ARRAY_KERNEL.replace("v = pl.array.get_element(arr, n)",
                               "arr2 = pl.array.update_element(arr, 0, 9)\n"
                               "        v = pl.array.get_element(arr, 0) + pl.array.get_element(arr2, 0)")
    for program in _both(src):
        out = np.zeros((16, 64), np.int32)
        interpret(program, np.ones((16, 64), np.int32), 0, out)
        np.testing.assert_array_equal(out, np.full((16, 64), 1 + 5 + 9, np.int32))


def test_task_scopes_example_runs_each_block_and_waits_by_task_id() -> None:
    x = _rand(64, 128, lo=-1, hi=1)
    for program in _both(_example("task_scopes")):
        scaled, out = np.zeros_like(x), np.zeros((16, 128), np.float32)
        interpret(program, x, scaled, out)
        np.testing.assert_allclose(scaled, 2 * x, rtol=1e-6)  # every one of the 4 blocks ran
        np.testing.assert_allclose(out, np.exp(2 * x[:16]) + 2 * x[48:], rtol=1e-5)


# Before convert_to_ssa a name assigned in both branches of an `if` is two Vars (one per
# branch), and a branch may rebind a name bound before the `if`: after the `if` (and after a loop
# around it) the name has the value of the branch that ran last, as convert_to_ssa's phis give it.
BRANCH_KERNEL = """
import pl

@pl.program
class K:
    @pl.function
    def main(self, x: pl.Tensor[[4, 8], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[4, 8], pl.FP32]:
        z = pl.mul(x, 3.0)
        for i in pl.range(n):
            if i % 2 == 0:
                y = pl.add(x, x)
                z = pl.add(z, y)
            else:
                y = pl.mul(x, x)
        if n > 2:
            w = pl.add(y, z)
        else:
            w = pl.sub(y, z)
        return w
"""


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_names_assigned_in_branches_join_after_the_if(n: int) -> None:
    x = _rand(4, 8)
    z = x * 3
    y = x
    for i in range(n):
        if i % 2 == 0:
            y = x + x
            z = z + y
        else:
            y = x * x
    want = y + z if n > 2 else y - z
    for program in _both(BRANCH_KERNEL):
        np.testing.assert_allclose(interpret(program, x, n), want, rtol=1e-6)


# ---- a product's bits do not depend on how it is blocked --------------------------------------

BLOCKED = """
import pl

@pl.program
class Blocked:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, a: pl.Tensor[[48, 256], pl.{dt}], b: pl.Tensor[[256, 80], pl.{dt}],
               c: pl.Out[pl.Tensor[[{m}, {n}], pl.FP32]]) -> pl.Tensor[[{m}, {n}], pl.FP32]:
        a0 = pl.load(a, [{r}, 0], [{m}, {kb}], target_memory=pl.MemorySpace.Mat)
        b0 = pl.load(b, [0, {q}], [{kb}, {n}], target_memory=pl.MemorySpace.Mat)
        acc0 = pl.matmul(a0, b0)
        for k, (acc,) in pl.range({kb}, 256, {kb}, init_values=(acc0,)):
            a_k = pl.load(a, [{r}, k], [{m}, {kb}], target_memory=pl.MemorySpace.Mat)
            b_k = pl.load(b, [k, {q}], [{kb}, {n}], target_memory=pl.MemorySpace.Mat)
            nxt = pl.matmul_acc(acc, a_k, b_k)
            total = pl.yield_(nxt)
        c = pl.store(total, [0, 0], c)
        return c
"""


def _blocked(dt: str, kb: int, window: tuple[int, int, int, int] = (0, 0, 48, 80)) -> Program:
    """rows r..r+m, columns q..q+n of a [48, 256] x [256, 80] product, K in blocks of `kb`
    (matmul, then matmul_acc; kb = 256: the whole product in one call)."""
    r, q, m, n = window
    return _program(BLOCKED.format(dt=dt, kb=kb, r=r, q=q, m=m, n=n))


@pytest.mark.parametrize("dt", ["FP32", "BF16", "FP16"])
@pytest.mark.parametrize("kb", [16, 32, 64, 128])
def test_a_product_split_into_k_blocks_computes_the_whole_products_bits(dt: str, kb: int) -> None:
    """K blocks chained through matmul_acc (what auto_tile_matmul_l0 writes) sum each element in
    K order from the accumulator, as the whole product does: bit for bit, on any CPU (never BLAS,
    whose order depends on the CPU and the sizes). Signed data, so the order shows."""
    rng = np.random.default_rng(kb)
    a = rng.standard_normal((48, 256)).astype(np.float16 if dt == "FP16" else np.float32)
    b = rng.standard_normal((256, 80)).astype(a.dtype)
    whole, split = np.zeros((48, 80), np.float32), np.zeros((48, 80), np.float32)
    interpret(_blocked(dt, 256), a, b, whole)
    interpret(_blocked(dt, kb), a, b, split)
    np.testing.assert_array_equal(split, whole)
    rounded = round_bf16(a) if dt == "BF16" else a, round_bf16(b) if dt == "BF16" else b
    np.testing.assert_array_equal(whole, k_order_matmul(*rounded))
    assert_product_close(whole, *rounded)


@pytest.mark.parametrize("window", [(0, 0, 16, 16), (16, 32, 32, 48), (32, 64, 16, 16)])
def test_a_block_of_a_product_computes_that_part_of_the_whole_products_bits(
        window: tuple[int, int, int, int]) -> None:
    """An [m, n] block of a product (what M/N L0 tiling computes) is that part of the whole one,
    bit for bit: BLAS sums a [16, 16] product in another order than a [48, 80] one."""
    rng = np.random.default_rng(5)
    a, b = rng.standard_normal((48, 256)).astype(np.float32), rng.standard_normal((256, 80)).astype(np.float32)
    r, q, m, n = window
    whole, part = np.zeros((48, 80), np.float32), np.zeros((m, n), np.float32)
    interpret(_blocked("FP32", 256), a, b, whole)
    interpret(_blocked("FP32", 256, window), a, b, part)
    np.testing.assert_array_equal(part, whole[r:r + m, q:q + n])


INDEXED = """
import pl

@pl.program
class W:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, t: pl.InOut[pl.Tensor[[8, 8], pl.FP32]], i: pl.Scalar[pl.INDEX],
             v: pl.Scalar[pl.FP32]) -> pl.Scalar[pl.FP32]:
        {stmt}
        return v
"""

# A run-time index the compiled program would use as written: never counted from the end as
# NumPy counts a negative one (nor clipped). `r = pl.read(t, [i, 0])` with i = -1 read t[7, 0].
NEGATIVE_AT_RUN_TIME = [
    ("v = pl.read(t, [i, 0])", "outside the [8, 8] tensor"),
    ("pl.write(t, [0, i], v)", "outside the [8, 8] tensor"),
    ("s = pl.slice(t, [4, 4], [i, 0])", "negative offsets [-1, 0]"),
    ("t = pl.assemble(t, pl.slice(t, [2, 2], [0, 0]), [i, 0])", "offset -1"),
]


@pytest.mark.parametrize(("stmt", "message"), NEGATIVE_AT_RUN_TIME)
def test_a_negative_index_at_run_time_is_refused_not_wrapped(stmt: str, message: str) -> None:
    program = _program(INDEXED.format(stmt=stmt))
    t = np.arange(64, dtype=np.float32).reshape(8, 8)
    with pytest.raises(PlError, match=re.escape(message)) as info:
        interpret(program, t, -1, 2.5)
    assert info.value.span is not None and info.value.span.line == 9  # the statement's line
    assert t[7, 0] == 56 and t[0, 7] == 7  # nothing was written through a wrapped index
