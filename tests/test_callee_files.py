"""`show_inferred` on a file of `@pl.jit` callees only (tests/callee_files): each callee is shown
typed, specialised for the call an entry of its package makes (pl/show_inferred/jit_callees.py),
or for the shapes --shape gives; else a note says how to give them."""

from __future__ import annotations

import io
from pathlib import Path

from pl.show_inferred import main as show_inferred_main

FILES = Path(__file__).parent / "callee_files"


def _cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = show_inferred_main([*args, "--no-cache"], stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def test_callees_are_shown_for_the_call_of_the_entry_of_their_package() -> None:
    status, out, err = _cli(str(FILES / "model" / "kernels" / "norm.py"))
    assert status == 0, err
    assert out == (FILES / "norm.expected.py").read_text()
    assert err.count("shown specialised for its call by decode.py's entry decode (line 12)") == 2
    assert "left as written" not in err and "not shown" not in err, err


def test_a_callee_no_entry_calls_is_shown_for_the_shape_options() -> None:
    path = str(FILES / "lonely" / "kernels.py")
    status, out, err = _cli(path)
    assert status == 0 and out == (FILES / "lonely" / "kernels.py").read_text()
    assert "doubled is not shown: no @pl.jit entry of its package calls it" in err
    assert "--shape doubled.x=16x128:FP32 --shape doubled.out=16x128:FP32" in err
    status, out, err = _cli("--shape", "doubled.x=8x16:FP16", "--shape",
                            "doubled.out=8x16:FP16", path)
    assert status == 0, err
    assert out == (FILES / "lonely_kernels.expected.py").read_text()
    assert "shown specialised for the shapes --shape gives" in err


def test_the_regenerated_callee_file_is_a_fixed_point(tmp_path: Path) -> None:
    """The regenerated file, put in the callee file's place in a copy of the package, regenerates
    to itself."""
    import shutil

    copy = tmp_path / "model"
    shutil.copytree(FILES / "model", copy)
    (copy / "kernels" / "norm.py").write_text((FILES / "norm.expected.py").read_text())
    status, out, err = _cli(str(copy / "kernels" / "norm.py"))
    assert status == 0, err
    assert out == (FILES / "norm.expected.py").read_text()
