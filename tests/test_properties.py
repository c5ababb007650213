"""Property-based tests: generated kernels (tests/kernel_strategies.py) against the compiler's invariants.

For every generated program and every backend (None, "910B", "950"):
* `pl.compile` raises nothing but `PlError` (and, as the generators only make well-formed programs,
  the other properties require it to succeed), with every pass's output verified well-typed and
  in SSA form (`verify=True`);
* the output satisfies TileMemoryInferred (`pl.passes.verify_tile_memory_inferred`);
* the output round-trips: `pl.parse(compiled.as_python())` is structurally equal to it and prints to
  the same text;
* running memory-space inference again on the output changes nothing;
* `pl.interpret` gives identical results on the source and the compiled program for the same random
  inputs, with residency on and off (so no move or residency hoist changes what the program
  computes, aliasing included, and control flow - early returns, break, continue - survives).

Profiles: CI runs `HYPOTHESIS_PROFILE=ci` (the default here: fixed seed, few examples); the long run is
`HYPOTHESIS_PROFILE=long /work/venv/bin/pytest tests/test_properties.py` (see bench/properties_long.py).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from kernel_strategies import (
    GeneratedProgram,
    matmul_programs,
    nd_programs,
    scoped_programs,
    tensor_programs,
    tile_programs,
)
from wrap_check import check_wrapping

import pl
from pl.errors import PlError
from pl.interpreter.run import entry_function, interpret
from pl.interpreter.values import np_dtype
from pl.ir.enums import DType
from pl.ir.function import Program
from pl.ir.types import ScalarType, TensorType, static_shape

BACKENDS: tuple[str | None, ...] = (None, "910B", "950")

_COMMON: dict[str, Any] = {
    "deadline": None,
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large],
}
# CI skips shrinking: it keeps a red run bounded (shrinking these programs can take minutes); the
# long profile shrinks.
settings.register_profile("ci", max_examples=12, derandomize=True, database=None,
                          phases=[Phase.explicit, Phase.generate], **_COMMON)
settings.register_profile("long", max_examples=400, **_COMMON)
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
if PROFILE not in ("ci", "long"):  # another profile of the suite: keep this file bounded anyway
    PROFILE = "ci"
SETTINGS = settings.get_profile(PROFILE)

FAMILIES = {"tile": tile_programs(), "tensor": tensor_programs(), "nd": nd_programs(),
            "matmul": matmul_programs(), "scoped": scoped_programs()}


def _parse(g: GeneratedProgram) -> Program:
    program = pl.parse(g.source)
    assert isinstance(program, Program), g.source
    return program


def _compiled(g: GeneratedProgram, residency: tuple[bool, ...] = (True,),
              ) -> list[tuple[str | None, Program, pl.Compiled]]:
    """The program compiled for every backend (and each `residency` setting that means something
    for it), every pass's output verified (well-typed, SSA)."""
    source = _parse(g)
    return [(b, source, pl.compile(source, backend=b, residency=r, verify=True))
            for b in BACKENDS for r in residency if b is not None or r]


# Properties known to fail on a program family (none at present: BUG-3, an iter arg whose type
# differed from its initial value's after inference, is fixed in infer/mutate.py).
KNOWN_BAD: dict[tuple[str, str], str] = {}


def _families(check: Callable[[GeneratedProgram], None]) -> list[Any]:
    marks = {f: KNOWN_BAD.get((check.__name__, f)) for f in sorted(FAMILIES)}
    return [pytest.param(f, marks=pytest.mark.xfail(strict=False, reason=r)) if r else f
            for f, r in marks.items()]


def _for_each_family(check: Callable[[GeneratedProgram], None]) -> Any:
    """One hypothesis test per program family, running `check` on each drawn program."""

    @pytest.mark.parametrize("family", _families(check))
    @SETTINGS
    @given(data=st.data())
    def test(family: str, data: st.DataObject) -> None:
        check(data.draw(FAMILIES[family], label=family))

    test.__name__ = check.__name__.replace("check_", "test_")
    return test


# ---- the properties -------------------------------------------------------------------------------


def check_compile_raises_only_pl_error(g: GeneratedProgram) -> None:
    source = _parse(g)
    for b in BACKENDS:
        try:
            pl.compile(source, backend=b, verify=True)
        except PlError:
            pass  # a user-facing diagnostic is an allowed outcome; any other exception is a bug


def check_output_is_tile_memory_inferred(g: GeneratedProgram) -> None:
    from pl.infer.verifier import verify_tile_memory_inferred

    for b, _, compiled in _compiled(g):
        errors = verify_tile_memory_inferred(compiled.program)
        assert errors == [], f"backend {b}: {[e.message for e in errors]}"
        pl.passes.verify_tile_memory_inferred(compiled.program)


def check_output_round_trips(g: GeneratedProgram) -> None:
    for b, _, compiled in _compiled(g):
        text = compiled.as_python()
        again = pl.parse(text)
        assert isinstance(again, Program)
        pl.assert_structural_equal(again, compiled.program)
        assert pl.python_print(again) == text, f"backend {b}: printing the re-parsed program differs"
        check_wrapping(text)  # every line the printer's one rule can shorten is wrapped


def check_inference_is_idempotent(g: GeneratedProgram) -> None:
    for b, _, compiled in _compiled(g):
        rerun = pl.passes.infer_tile_memory_space(b)(compiled.program)
        pl.assert_structural_equal(rerun, compiled.program)


def check_compiling_is_idempotent(g: GeneratedProgram) -> None:
    """Compiling the printed compiled program again gives that program back (what show_inferred's
    verification relies on: every non-idempotence is an exit 123 on a valid kernel)."""
    for b, _, compiled in _compiled(g):
        again = pl.compile(pl.parse(compiled.as_python()), backend=b, verify=True)
        pl.assert_structural_equal(again.program, compiled.program)


def _inputs(program: Program, seed: int) -> list[Any]:
    """Random arguments for the entry function: arrays for tensors, small ints for scalars."""
    rng = np.random.default_rng(seed)
    args: list[Any] = []
    # Any: stubs/pl (the typed-tile stubs on mypy_path) shadow pl.ir for mypy and omit Function.params
    entry: Any = entry_function(program)
    for param in entry.params:
        t = param.type
        if isinstance(t, TensorType):
            args.append(rng.uniform(-2.0, 2.0, static_shape(t.shape)).astype(np_dtype(t.dtype)))
        elif isinstance(t, ScalarType) and t.dtype in (DType.INDEX, DType.INT32, DType.INT64):
            args.append(int(rng.integers(0, 6)))
        else:
            raise AssertionError(f"no input generator for parameter {param.name}: {t}")
    return args


def _run(program: Program, args: list[Any]) -> list[Any]:
    """The entry's results followed by every argument array after the run (Outs are written in place)."""
    mine = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    result = interpret(program, *mine)
    results = list(result) if isinstance(result, tuple) else [result]
    return results + mine


def check_interpretation_is_preserved(g: GeneratedProgram) -> None:
    # Residency on and off: a hoist across a write in the loop shows up as a difference.
    source = _parse(g)
    for b, residency in ((b, r) for b in BACKENDS for r in (True, False) if b is not None or r):
        compiled = pl.compile(source, backend=b, residency=residency, verify=True)
        args = _inputs(source, seed=len(g.source))
        try:
            expected = _run(source, args)
        except pl.PlError as e:
            # The frontend's non-SSA IR binds a fresh Var when a branch rebinds an iter-arg name;
            # run straight, the other path reads it unset. SSA conversion gives those rebindings
            # their meaning (a phi), so the meaning of the source is its SSA form.
            assert "used before it has a value" in e.message, e.message
            expected = _run(pl.passes.convert_to_ssa()(source), args)
        got = _run(compiled.program, args)
        assert len(expected) == len(got)
        for index, (want, have) in enumerate(zip(expected, got, strict=True)):
            assert np.array_equal(np.asarray(want), np.asarray(have), equal_nan=True), (
                f"backend {b}, residency {residency}: output {index} differs between the source "
                "and the compiled program")


test_compile_raises_only_pl_error = _for_each_family(check_compile_raises_only_pl_error)
test_output_is_tile_memory_inferred = _for_each_family(check_output_is_tile_memory_inferred)
test_output_round_trips = _for_each_family(check_output_round_trips)
test_inference_is_idempotent = _for_each_family(check_inference_is_idempotent)
test_compiling_is_idempotent = _for_each_family(check_compiling_is_idempotent)
test_interpretation_is_preserved = _for_each_family(check_interpretation_is_preserved)


# ---- the generators themselves --------------------------------------------------------------------


@pytest.mark.parametrize("family", sorted(FAMILIES))
@settings(SETTINGS, max_examples=min(SETTINGS.max_examples, 8))
@given(data=st.data())
def test_generated_programs_parse(family: str, data: st.DataObject) -> None:
    g = data.draw(FAMILIES[family], label=family)
    program = _parse(g)
    # A scoped program is `main` alone until compilation outlines its scopes into functions.
    assert {f.name for f in program.functions} >= ({"main"} if family == "scoped" else
                                                   {"kernel", "main"})
    assert entry_function(program).name == "main"
