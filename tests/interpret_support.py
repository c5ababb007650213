"""Running a program under `pl.interpret` on random inputs, and comparing two programs' results.

Guarantees: `random_inputs(program, seed)` is a pure function of the program's entry signature and
the seed (random arrays for tensor parameters, small positive numbers for scalars);
`run_interpreted` interprets on copies and returns the return value(s) and every argument array
afterwards (Out / InOut parameters are written through); `compare_results(before, after)` says
"same", "skipped: <why>" (the BEFORE program cannot run: an op the interpreter does not cover, no
single entry, a dynamic shape) or "differs: <what>", bit-exact (the same dtype math); Out
parameters compiling added to the entry (`added_outputs`) get zero arrays and are not compared.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pl.errors import PlError
from pl.interpreter.run import entry_function, interpret
from pl.interpreter.values import np_dtype
from pl.ir import DType, ParamDirection, Program, ScalarType, TensorType, TileType, static_shape


def random_inputs(program: Program, seed: int) -> list[Any]:
    """Random arrays for tensor parameters, small positive numbers for scalars."""
    rng = np.random.default_rng(seed)
    f = entry_function(program)
    out: list[Any] = []
    for p in f.params:
        t = p.type
        if isinstance(t, TensorType | TileType):
            shape = static_shape(t.shape)
            if shape is None:
                raise PlError(f"{p.name}: dynamic shapes need explicit inputs")
            if t.dtype.is_float():
                arr = rng.standard_normal(shape).astype(np.float32)
            else:
                arr = rng.integers(-8, 8, size=shape).astype(np.int32)
            # pl.interpret takes an array only in its parameter's storage dtype.
            out.append(arr.astype(np_dtype(t.dtype)))
        elif isinstance(t, ScalarType):
            out.append(True if t.dtype is DType.BOOL else 1)
        else:
            out.append(None)
    return out


def run_interpreted(program: Program, args: list[Any]) -> list[np.ndarray[Any, Any]]:
    """Interpret on copies of `args`: the return value(s), then every argument array afterwards."""
    copies = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    result = interpret(program, *copies)
    results = result if isinstance(result, tuple) else (result,)
    return [np.asarray(r) for r in results if r is not None] + \
        [a for a in copies if isinstance(a, np.ndarray)]


def run_compiled(before: Program, after: Program, args: list[Any]) -> list[np.ndarray[Any, Any]]:
    """`run_interpreted(after, args)` for the inputs `args` of `before`: the Out parameters
    compiling added to the entry get zero arrays (`added_outputs`), which are not returned."""
    added = added_outputs(before, after)
    got = run_interpreted(after, args + added)
    return got[:len(got) - len(added)]  # the added outputs' arrays come last


def added_outputs(before: Program, after: Program) -> list[Any]:
    """Zero arrays for the Out parameters compiling added to the entry function (an InCore
    function returning a tensor gets a `ret0__out` to store it into, as in the reference),
    which the source has not. None are added for other signatures."""
    b, a = entry_function(before), entry_function(after)
    extra = a.params[len(b.params):]
    if not extra or a.name != b.name or \
            any(d is not ParamDirection.Out for d in a.directions[len(b.params):]):
        return []
    zeros: list[Any] = []
    for p in extra:
        shape = static_shape(p.type.shape) if isinstance(p.type, TensorType) else None
        if shape is None:
            return []
        zeros.append(np.zeros(shape, np_dtype(p.type.dtype)))
    return zeros


def compare_results(before: Program, after: Program, seeds: int = 2,
                    cannot_run: tuple[type[Exception], ...] = (PlError,)) -> str:
    """"same", "skipped: ..." or "differs: ..." (see the module doc). `cannot_run`: what the
    BEFORE program may raise to be skipped (the fuzzer's mutants also break the interpreter's
    own assumptions, like a negative extent, without being refused by the compiler)."""
    for seed in range(seeds):
        try:
            args = random_inputs(before, seed)
            expected = run_interpreted(before, args)
        except cannot_run as e:
            return f"skipped: source program does not run: {e}"
        got = run_compiled(before, after, args)
        if len(got) != len(expected):
            return f"differs: {len(got)} results instead of {len(expected)}"
        for i, (g, e) in enumerate(zip(got, expected, strict=True)):
            if not same_values(g, e):
                return f"differs: result {i} (seed {seed}): {g!r} instead of {e!r}"
    return "same"


def same_values(got: Any, expected: Any) -> bool:
    """The same shape and elements, a NaN equal to a NaN. Only a float result can hold a NaN; a
    task-id result (an object array of `TaskId`s) is compared element by element."""
    nan_is_a_value = got.dtype.kind in "fc" and expected.dtype.kind in "fc"
    return bool(got.shape == expected.shape
                and np.array_equal(got, expected, equal_nan=nan_is_a_value))


# ---- matmul references that do not depend on how BLAS orders a sum ---------------------------------

def k_order_matmul(a: Any, b: Any, start: Any = None) -> np.ndarray[Any, Any]:
    """The interpreter's documented matmul numerics, written here without BLAS: `start` (zeros
    when None) plus a @ b, each element summed in K order in float32 (`out += a[:, k] * b[k, :]`,
    the product rounded to float32, then the sum). Bit-exact on any CPU."""
    a32, b32 = np.asarray(a, np.float32), np.asarray(b, np.float32)
    out = np.zeros((a32.shape[0], b32.shape[1]), np.float32)
    if start is not None:
        out = out + np.asarray(start, np.float32)
    for k in range(a32.shape[1]):
        out = out + np.multiply.outer(a32[:, k], b32[k])
    return out


def assert_product_close(got: Any, a: Any, b: Any, start: Any = None) -> None:
    """`got` is `start + a @ b` summed in float32 in SOME order: within the bound every order keeps,
    |got - exact| <= gamma_n * (|start| + |a| @ |b|), gamma_n = n*u / (1 - n*u), u = 2**-24, n = K + 1
    terms (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., eq. 3.5; a product of
    fp32, fp16 or bf16 values is exact in float64, whose own summation error is added)."""
    a64, b64 = np.asarray(a, np.float64), np.asarray(b, np.float64)
    s64 = np.zeros(1) if start is None else np.asarray(start, np.float64)
    n = a64.shape[-1] + 1
    exact = s64 + a64 @ b64
    scale = np.abs(s64) + np.abs(a64) @ np.abs(b64)
    gamma = sum(n * u / (1 - n * u) for u in (2.0 ** -24, 2.0 ** -53))
    err = np.abs(np.asarray(got, np.float64) - exact)
    worst = float(np.max(err - gamma * scale))
    assert worst <= 0, f"a product is {worst:g} past the float32 error bound"
