"""`@pl.jit` (pl/jit): kernels in tests/jit_kernels specialised on several shapes (static and
pl.dynamic dims), run on NumPy arrays and compared with NumPy's own result."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import pl
from pl.errors import PlError

KERNELS = Path(__file__).parent / "jit_kernels" / "kernels.py"


@pytest.fixture(scope="module")
def k() -> Any:
    spec = importlib.util.spec_from_file_location("jit_test_kernels", KERNELS)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["jit_test_kernels"] = module
    spec.loader.exec_module(module)
    return module


def _rand(rng: np.random.Generator, shape: tuple[int, ...], dtype: Any = np.float32) -> Any:
    return rng.standard_normal(shape).astype(dtype)


# Element-wise fp32 ops: the interpreter computes in float32 as NumPy does, one rounding per op.
@pytest.mark.parametrize("shape", [(16, 32), (48, 16), (64, 128)])
def test_incore_callee_specialised_per_shape(k: Any, shape: tuple[int, int]) -> None:
    rng = np.random.default_rng(0)
    x, y = _rand(rng, shape), _rand(rng, shape)
    out = np.zeros_like(x)
    k.twice_plus(x, y, out)  # written in place
    np.testing.assert_allclose(out, 2 * x + y, rtol=1e-6, atol=1e-6)


def test_each_shape_compiles_once_and_is_held_by_the_function(k: Any) -> None:
    rng = np.random.default_rng(1)
    k.row_exp._compiled.clear()
    for rows in (16, 32, 16):
        x = _rand(rng, (rows, 8))
        out = np.zeros_like(x)
        k.row_exp(x, out)
        # exp in float32: a few ulps apart from NumPy's
        np.testing.assert_allclose(out, np.exp(x), rtol=1e-5)
    assert len(k.row_exp._compiled) == 2


def test_dynamic_dim_serves_every_extent_with_one_compilation(k: Any) -> None:
    rng = np.random.default_rng(2)
    k.dyn_rows._compiled.clear()
    for rows in (1, 5, 12):
        x = _rand(rng, (rows, 32))
        out = np.zeros_like(x)
        k.dyn_rows(x, out)
        np.testing.assert_allclose(out, x - np.float32(1.0), rtol=1e-6)
    assert len(k.dyn_rows._compiled) == 1


def test_bind_dynamic_makes_the_bound_dim_dynamic(k: Any) -> None:
    rng = np.random.default_rng(4)
    x = _rand(rng, (3, 32))
    text = pl.python_print(k.bound_rows.lower(x, np.zeros_like(x)))
    assert "x: pl.Tensor[[ROWS, 32], pl.FP32]" in text, text
    for rows in (3, 7):
        x = _rand(rng, (rows, 32))
        out = np.zeros_like(x)
        k.bound_rows(x, out)
        np.testing.assert_allclose(out, x + np.float32(3.0), rtol=1e-6)


@pytest.mark.parametrize("m,kk,n", [(16, 32, 16), (32, 16, 64)])
def test_matmul_specialised_on_fp16_inputs(k: Any, m: int, kk: int, n: int) -> None:
    rng = np.random.default_rng(3)
    a, b = _rand(rng, (m, kk), np.float16), _rand(rng, (kk, n), np.float16)
    c = np.zeros((m, n), np.float32)
    k.square_matmul(a, b, c)
    # fp16 products accumulate in fp32: order-dependent rounding, bounded by kk ulps of the sums
    want = a.astype(np.float32) @ b.astype(np.float32)
    np.testing.assert_allclose(c, want, rtol=1e-4, atol=1e-4 * kk)


def test_lower_is_the_specialised_program(k: Any) -> None:
    x = np.zeros((16, 32), np.float32)
    program = k.twice_plus.lower(x, x, x)
    text = pl.python_print(program)
    assert "pl.Tensor[[16, 32], pl.FP32]" in text
    assert {f.name for f in program.functions} == {"twice_plus", "scaled_sum"}
    assert pl.parse(text) is not None  # the specialised program reads back


def test_an_inline_helper_tags_its_parameter(k: Any) -> None:
    """`pl.dump_tag(x)` in a `@pl.jit.inline` helper tags the caller's argument `x` stands for:
    the kernel call after it dumps it, and the program still runs."""
    rng = np.random.default_rng(3)
    x, y = _rand(rng, (16, 32)), _rand(rng, (16, 32))
    text = pl.python_print(k.twice_plus_tagged.lower(x, y, np.zeros_like(x)))
    assert 'attrs={"dump_vars": [x]}' in text, text
    out = np.zeros_like(x)
    k.twice_plus_tagged(x, y, out)
    np.testing.assert_allclose(out, 2.0 * x + y, rtol=1e-6)


def test_fully_annotated_signature_needs_no_samples(k: Any) -> None:
    compiled = k.fixed.compile()
    assert isinstance(compiled, pl.Compiled)
    x = np.ones((16, 64), np.float16)
    out = np.zeros_like(x)
    k.fixed(x, out)
    np.testing.assert_array_equal(out, x + x)  # 1 + 1 is exact in fp16


def test_unshaped_parameter_without_samples_is_a_located_error(k: Any) -> None:
    with pytest.raises(PlError) as e:
        k.twice_plus.lower()
    assert "Parameter 'x' of 'twice_plus' has no shape" in str(e.value)
    assert e.value.span is not None and e.value.span.line == 19


def test_argument_not_fitting_written_shape_is_a_located_error(k: Any) -> None:
    x = np.zeros((16, 32), np.float16)
    with pytest.raises(PlError) as e:
        k.fixed(x, x)
    assert "has extent 32 in dim 1, the parameter 64" in str(e.value)


def test_calling_with_numpy_never_imports_torch() -> None:
    code = ("import sys, numpy as np, importlib.util\n"
            f"spec = importlib.util.spec_from_file_location('k', {str(KERNELS)!r})\n"
            "m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)\n"
            "x = np.ones((16, 32), np.float32); o = np.zeros_like(x)\n"
            "m.twice_plus(x, x, o)\n"
            "assert 'torch' not in sys.modules, 'torch imported'\n"
            "print(o[0, 0])\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=Path(__file__).parent.parent, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "3.0"


EXTERN_FILE = """import pl

@pl.jit.extern(source="k.cpp", core_type="aiv")
def ext(a: pl.Tensor[[16, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]: ...

@pl.jit.extern(core_type="mixed", aic_source="k.cpp", aiv_source="k.cpp")
def ext_mixed(a: pl.Tensor, out: pl.Out[pl.Tensor]) -> pl.Tensor[[16, 16], pl.FP32]: ...

@pl.jit
def entry(a: pl.Tensor, out: pl.Out[pl.Tensor]):
    out = ext(a, out)
    return out

@pl.jit
def entry_mixed(a: pl.Tensor, out: pl.Out[pl.Tensor]):
    out = ext_mixed(a, out)
    return out
"""


def _extern_module(tmp_path: Path) -> Any:
    (tmp_path / "k.cpp").write_text('extern "C" void kernel_entry(int64_t* args) {}\n')
    source = tmp_path / "ext.py"
    source.write_text(EXTERN_FILE)
    spec = importlib.util.spec_from_file_location("jit_ext_case", source)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_extern_is_a_declared_external_function_that_compiles_and_round_trips(
        tmp_path: Path) -> None:
    m = _extern_module(tmp_path)
    x = np.zeros((16, 16), np.float32)
    cpp = str((tmp_path / "k.cpp").resolve())
    for entry, kinds in ((m.entry, {"ext": "AIV"}),
                         (m.entry_mixed, {"ext_mixed_aic": "AIC", "ext_mixed_aiv": "AIV",
                                          "ext_mixed": "Group"})):
        for program in (entry.lower(x, x.copy()), entry.compile(x, x.copy()).program):
            found = {f.name: f for f in program.functions}
            assert {n: found[n].func_type.name for n in kinds} == kinds
            assert all(found[n].external_source == cpp for n, k in kinds.items()
                       if k != "Group")
            again = pl.parse(pl.python_print(program))
            pl.assert_structural_equal(again, program)


def test_extern_says_at_the_call_that_it_cannot_be_interpreted(tmp_path: Path) -> None:
    m = _extern_module(tmp_path)
    x = np.zeros((16, 16), np.float32)
    for entry, name, line in ((m.entry, "ext", 12), (m.entry_mixed, "ext_mixed_aic", 17)):
        with pytest.raises(PlError) as e:
            entry(x, x.copy())
        assert f"'{name}' is an external kernel: its body is C++ source" in str(e.value)
        assert e.value.span is not None and e.value.span.line == line


@pytest.mark.parametrize(("options", "message"), [
    ("core_type='cube', source='k.cpp'", "core_type must be 'aic', 'aiv', or 'mixed'"),
    ("core_type='mixed', aic_source='k.cpp'", "requires both aic_source= and aiv_source="),
    ("core_type='aiv', source='k.cpp', dual_aiv_dispatch=True", "requires core_type='mixed'"),
    ("core_type='aiv', source='nope.cpp'", "source file not found"),
    ("core_type='aiv'", "requires source="),
    ("core_type='aiv', source='k.cpp', include_dirs='inc'", "must be a sequence of paths"),
])
def test_extern_options_the_reference_refuses(tmp_path: Path, options: str, message: str) -> None:
    (tmp_path / "k.cpp").write_text("")
    source = tmp_path / "bad_ext.py"
    source.write_text(f"import pl\n\n@pl.jit.extern({options})\n"
                      "def k(a: pl.Tensor, out: pl.Out[pl.Tensor]): ...\n")
    spec = importlib.util.spec_from_file_location("jit_bad_ext_case", source)
    assert spec is not None and spec.loader is not None
    with pytest.raises(PlError) as e:
        spec.loader.exec_module(importlib.util.module_from_spec(spec))
    assert message in str(e.value)
