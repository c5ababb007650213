"""`show_inferred` on `@pl.jit` files as users write them (tests/jit_files): shapes from the file's
own calls, from --shape, or a located error; imports no kernel reads are opaque."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from pl.errors import PlError
from pl.show_inferred import main as show_inferred_main
from pl.show_inferred.run import run_text

FILES = Path(__file__).parent / "jit_files"
ROOT = Path(__file__).parent.parent


def _cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = show_inferred_main([*args, "--no-cache"], stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


EXPECTED = sorted(p.name.removesuffix(".expected.py") for p in FILES.glob("*.expected.py"))


@pytest.mark.parametrize("name", EXPECTED)
def test_shapes_from_the_files_own_calls_without_torch_or_the_runtime(name: str) -> None:
    """torch and pypto.runtime are imported by the __main__ block only (neither is installed);
    each entry's shapes come from the first call of it the file makes with readable arrays."""
    status, out, err = _cli(str(FILES / f"{name}.py"))
    assert status == 0, err
    assert out == (FILES / f"{name}.expected.py").read_text()
    # Every kernel typed: no function left as written (a note may say which call an entry that
    # another entry also specialises is shown for).
    assert "left as written" not in err and "shown as it compiles" not in err, err


@pytest.mark.parametrize("name", EXPECTED)
def test_the_regenerated_file_is_a_fixed_point(name: str) -> None:
    status, out, err = _cli(str(FILES / f"{name}.expected.py"))
    assert status == 0, err
    assert out == (FILES / f"{name}.expected.py").read_text()


def test_an_entry_a_test_function_never_calls_with_arrays_is_a_note() -> None:
    """An entry defined inside a function with no call there giving its shapes is not shown (a
    note says how to give them); the file's other kernels are."""
    status, out, err = _cli(str(FILES / "nested_in_test_functions.py"))
    assert status == 0, err
    assert ("kernel, defined in test_an_entry_never_called_with_arrays, is not shown: no call "
            "there gives the shapes of a; give them to show it (--shape kernel.a=16x128:FP32)"
            in err), err


def test_an_unshaped_parameter_is_a_located_error_naming_the_option() -> None:
    text = (FILES / "no_shape.py").read_text()
    with pytest.raises(PlError) as e:
        run_text(text, str(FILES / "no_shape.py"))
    assert "Parameter 'x' of 'doubled' has no shape" in str(e.value)
    assert e.value.span is not None and (e.value.span.line, e.value.span.col) == (9, 16)
    assert "--shape x=" in (e.value.hint or "")


def test_shape_option_gives_the_shapes() -> None:
    status, out, err = _cli("--shape", "x=16x32:FP32", "--shape", "doubled.out=16x32:FP32",
                            str(FILES / "no_shape.py"))
    assert status == 0, err
    assert "t: pl.Tile[[16, 32], pl.FP32, pl.MemorySpace.Vec] = pl.load(" in out


def test_a_bad_shape_option_is_explained() -> None:
    status, _, err = _cli("--shape", "x=16by32", str(FILES / "no_shape.py"))
    assert status != 0 and "NAME=EXTENTSxEXTENTS:DTYPE" in err


def test_a_kernel_reading_a_module_that_is_not_installed_is_located_there(tmp_path: Path) -> None:
    path = tmp_path / "k.py"
    path.write_text("import pl\nimport plnotinstalledmodule as m\n\n\n"
                    "@pl.jit\n"
                    "def f(x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):\n"
                    "    with pl.at(level=pl.Level.CORE_GROUP):\n"
                    "        t = pl.load(x, [0, 0], [16, 16])\n"
                    "        u = pl.mul(t, m.SCALE)\n"
                    "        pl.store(u, [0, 0], out)\n"
                    "    return out\n")
    with pytest.raises(PlError) as e:
        run_text(path.read_text(), str(path))
    assert "module 'plnotinstalledmodule' (imported at line 2) is not installed" in str(e.value)
    assert e.value.span is not None and e.value.span.line == 9


_HIDE_NUMPY = """
import sys
class _NoNumpy:  # the hook's own environment: numpy is not installed there
    def find_spec(self, name, path=None, target=None):
        if name == "numpy" or name.startswith("numpy."):
            raise ModuleNotFoundError(name)
        return None
sys.meta_path.insert(0, _NoNumpy())
from pl.show_inferred.hook import main
sys.exit(main(sys.argv[1:]))
"""

PROGRAM_WITH_NUMPY = '''import numpy as np

import pl


@pl.program
class Doubler:
    @pl.function(type=pl.FunctionType.InCore)
    def double(self, x: pl.Tensor[[16, 16], pl.FP32],
               out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 16])
        d = pl.add(t, t)
        out = pl.store(d, [0, 0], out)
        return out


if __name__ == "__main__":
    print(np.zeros(3))
'''


@pytest.mark.parametrize("inferred", [True, False], ids=["inferred", "stale"])
def test_precommit_hook_on_a_file_importing_numpy_without_numpy(tmp_path: Path,
                                                                  inferred: bool) -> None:
    path = tmp_path / "k.py"
    path.write_text(PROGRAM_WITH_NUMPY)
    if inferred:
        status, out, err = _cli(str(path))
        assert status == 0, err
        path.write_text(out)
    done = subprocess.run([sys.executable, "-c", _HIDE_NUMPY, str(path)], capture_output=True,
                          text=True, cwd=ROOT, timeout=300)
    assert "numpy" not in done.stderr, done.stderr
    assert done.returncode == (0 if inferred else 1), done.stderr


@pytest.mark.parametrize(("made", "spec"), [
    ("torch.randn(16, 32, dtype=torch.float16)", ((16, 32), "FP16")),
    ("torch.zeros((16, 32))", ((16, 32), "FP32")),
    ("torch.full((R, 32), 2.0, dtype=torch.bfloat16)", ((8, 32), "BF16")),
    ("np.zeros((16, 32), np.float32)", ((16, 32), "FP32")),
    ("np.random.randn(R, 4 * R).astype(np.float16)", ((8, 32), "FP16")),
    ("torch.randn(R, 8).to(torch.float16)", ((8, 8), "FP16")),
    ("torch.zeros_like(torch.ones(4, 4, dtype=torch.int32))", ((4, 4), "INT32")),
    ("(torch.randn(R, 8) * 0.05).bfloat16()", ((8, 8), "BF16")),
    ("torch.ones(4, 4, dtype=torch.int32) * 2", ((4, 4), "INT32")),
    ("torch.zeros(3, 5) + torch.zeros(3, 5)", ((3, 5), "FP32")),
    ("torch.ones(4, 4, dtype=torch.int32) / 2", None),  # a float array: its dtype not read
    ("np.zeros((16, 32))", None),  # NumPy's float64: no pl dtype
    ("torch.randn(n, 32)", None),  # n is not static
])
def test_arrays_the_sample_finder_reads(made: str, spec: tuple[tuple[int, ...], str] | None) -> None:
    import libcst as cst

    from pl.show_inferred.jit_samples import entry_samples

    text = f"R = 8\nx = {made}\nf(x)\n"
    found = entry_samples("f", ["x"], cst.parse_module(text), {"R": 8}, {})
    if spec is None:
        assert found == [None]
    else:
        assert found[0] is not None and not isinstance(found[0], int | float)
        assert (found[0].shape, found[0].dtype.name) == spec


def test_samples_from_a_lower_call_and_a_literal_tensor() -> None:
    import libcst as cst

    from pl.show_inferred.jit_samples import entry_samples

    text = ("cfg = torch.tensor([[1, 2, 3], [4, 5, 6]], dtype=torch.int32)\n"
            "x = torch.zeros(4, 8)\nprog = f.lower(x, cfg, 0.5)\n")
    found = entry_samples("f", ["x", "cfg", "scale"], cst.parse_module(text), {}, {})
    assert [getattr(s, "shape", s) for s in found] == [(4, 8), (2, 3), 0.5]


def test_the_readme_example_is_this_file_and_runs_on_cpu() -> None:
    """The README's `@pl.jit` example is tests/jit_files/scaled_add.py (but its docstring), and
    running it as a script compiles it, runs it on pl's interpreter and checks it with NumPy."""
    import re

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## The short form: `@pl.jit`"):]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match is not None
    text = (FILES / "scaled_add.py").read_text(encoding="utf-8")
    assert text.endswith(match.group(1)) and text.count('"""') == 2
    import os

    env = {**os.environ, "PYTHONPATH": str(ROOT)}  # this checkout's pl
    done = subprocess.run([sys.executable, str(FILES / "scaled_add.py")], capture_output=True,
                          text=True, cwd=ROOT, timeout=300, env=env)
    assert done.returncode == 0 and done.stdout == "OK\n", done.stderr
