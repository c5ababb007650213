"""User errors are located PlErrors (exit 2) worded without Python's exception names; bugs of pl
are internal errors (exit 123) that say so and save a reproducer.

Covers: every error fixture and bad input through the CLI (no exception class name, no
traceback, exit 2); op arguments of every kind for every op spelling (only PlErrors); "did you
mean" hints; `str(PlError)`; the internal-error report; limits on expression size and integer
constants; file-system failures; static_assert; a written memory space inference changes.
"""

from __future__ import annotations

import errno
import io
import itertools
import json
import os
import re
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pl
from pl.errors import PlError, UnknownNameError, suggest
from pl.ir.enums import ArgDirection, DType, MemorySpace
from pl.ir.expr import ConstInt, Var
from pl.ir.span import Span
from pl.ir.types import ScalarType, TensorType, TileType
from pl.language.dsl_ops import spelling_index
from pl.lowering.frontend.op_builders import build_call
from pl.lowering.frontend.parse import parse
from pl.show_inferred.cli import main

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
BAD_FILES = sorted((TESTS / "error_fixtures").glob("*.py")) + sorted((TESTS / "bad_inputs").glob("*.py"))
# An exception class name as Python prints it (`AttributeError:`, `ValueError`).
CLASS_NAME = re.compile(r"\b[A-Z]\w*(?:Error|Exception)\b")
LOCATED = re.compile(r"^\s*--> (?P<file>.+):(?P<line>\d+):(?P<col>\d+)\s*$", re.M)


def _cli(args: list[str], stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(args, stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


@pytest.fixture(autouse=True)
def _plain(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.delenv("FORCE_COLOR", raising=False)


def _words(err: str) -> str:
    """What pl itself wrote: the diagnostic without the quoted source lines (`12 | ...`)."""
    return "\n".join(ln for ln in err.splitlines() if not re.match(r"^\s*\d*\s*\|", ln))


def _assert_user_error(status: int, out: str, err: str) -> None:
    assert status == 2, (status, err)
    assert "Traceback" not in out + err, err
    assert not CLASS_NAME.search(_words(err)), err
    assert "internal error" not in err, err
    assert err.startswith("Error: "), err


@pytest.mark.parametrize("path", BAD_FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_bad_file_is_a_clean_user_error(path: Path) -> None:
    status, out, err = _cli(["--no-cache", str(path)])
    _assert_user_error(status, out, err)
    assert LOCATED.search(err) or "no @pl.program" in err, err


# -- op arguments: every spelling, arguments of every kind -----------------------------------------

def _i(n: int) -> ConstInt:
    return ConstInt(n, DType.INDEX)


_VALUES: dict[str, Any] = {
    "tile": Var("t", TileType((_i(16), _i(128)), DType.FP32, MemorySpace.Vec)),
    "tile1": Var("t1", TileType((_i(16),), DType.INT32, MemorySpace.Vec)),
    "tile3": Var("t3", TileType((_i(2), _i(16), _i(128)), DType.FP16, MemorySpace.Mat)),
    "tensor": Var("x", TensorType((_i(16), _i(128)), DType.FP32)),
    "scalar": Var("s", ScalarType(DType.INT32)),
    "int": 2, "neg": -1, "float": 2.5, "bool": True, "str": "2", "none": None,
    "dtype": DType.FP16, "space": MemorySpace.Vec, "list": [0, 0], "list3": [0, 0, 0],
    "nested": [[1], [2]], "strings": ["a"], "empty": [],
}


@pytest.mark.parametrize("spelling", sorted(spelling_index()) + ["pl.min", "pl.max"])
def test_op_arguments_of_any_kind_give_only_plerrors(spelling: str) -> None:
    """What a kernel can pass to an op reaches deduction only after it was checked: anything
    else than a valid call is a PlError, never an AttributeError / IndexError / ValueError."""
    span = Span("k.py", 3, 5)
    base = [[_VALUES["tile"]], [_VALUES["tensor"], [0, 0], [16, 128]]]
    values = list(_VALUES.values())
    firsts = [_VALUES[k] for k in ("tile", "tile1", "tensor", "scalar", "str", "list", "none")]
    calls: list[tuple[list[Any], dict[str, Any]]] = [([v], {}) for v in values]
    calls += [([a, b], {}) for a, b in itertools.product(firsts, values)]
    calls += [([a, b], {}) for a, b in itertools.product(values, firsts[:3])]
    for value in values:
        calls.append(([_VALUES["tile"], _VALUES["tile"], value], {}))
        for key in ("target_memory", "mode", "dtype", "valid_shape", "pad_value", "bogus"):
            for args in base:
                calls.append((args, {key: value}))
    for args, kwargs in calls:
        try:
            build_call(spelling, args, dict(kwargs), span)
        except PlError:
            pass


def test_a_bad_operand_is_located_at_the_argument() -> None:
    text = (TESTS / "error_fixtures" / "op_string_operand.py").read_text(encoding="utf-8")
    with pytest.raises(PlError) as info:
        parse(text, filename="k.py")
    assert info.value.span is not None
    assert (info.value.span.line, info.value.span.col, info.value.span.end_col) == (11, 23, 26)


# -- "did you mean" ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("fixture", "hint"), [
    ("dtype_alias_float32", "did you mean `pl.FP32`?"),
    ("tile_op_misspelled", "did you mean `pl.tile.add`"),
    ("function_option_misspelled", "did you mean `type`?"),
    ("function_type_positional", "write @pl.function(type=pl.FunctionType.InCore)"),
])
def test_unknown_names_suggest_the_close_ones(fixture: str, hint: str) -> None:
    path = TESTS / "error_fixtures" / f"{fixture}.py"
    with pytest.raises(PlError) as info:
        parse(path.read_text(encoding="utf-8"), filename=str(path))
    assert info.value.hint is not None and hint in info.value.hint, info.value.hint
    status, _, err = _cli(["--no-cache", str(path)])  # the file run as Python: the same hint
    _assert_user_error(status, "", err)
    assert hint in err, err


@pytest.mark.parametrize(("name", "candidates", "prefix", "expected"), [
    ("float32", ["FP32", "FP16", "BF16"], "pl.", "did you mean `pl.FP32`?"),
    ("bfloat16", ["FP32", "FP16", "BF16"], "pl.", "did you mean `pl.BF16`?"),
    ("Incore", ["InCore", "Orchestration", "Opaque"], "", "did you mean `InCore`?"),
    ("Vecc", ["Vec", "Mat", "Acc"], "pl.MemorySpace.", "did you mean `pl.MemorySpace.Vec`?"),
    ("zzzzz", ["Vec", "Mat"], "", None),
])
def test_suggest(name: str, candidates: list[str], prefix: str, expected: str | None) -> None:
    assert suggest(name, candidates, prefix) == expected


def test_an_unknown_pl_name_never_suggests_the_error_class() -> None:
    """`pl.PlError` is close to `pl.PlErr` but is never a name a kernel means."""
    path = TESTS / "error_fixtures" / "unknown_pl_name_like_an_exception.py"
    with pytest.raises(PlError) as info:
        parse(path.read_text(encoding="utf-8"), filename=str(path))
    assert "PlError" not in (info.value.hint or ""), info.value.hint


def test_unknown_enum_member_in_a_kernel_suggests_the_member() -> None:
    text = (TESTS / "error_fixtures" / "bad_memory_space.py").read_text(encoding="utf-8")
    with pytest.raises(PlError) as info:
        parse(text)
    assert info.value.hint == "did you mean `pl.MemorySpace.Vec`?"


def test_unknown_pl_name_at_run_time_is_a_plerror_and_an_attribute_error() -> None:
    face: Any = pl
    with pytest.raises(UnknownNameError) as info:
        _ = face.float32
    assert isinstance(info.value, PlError) and isinstance(info.value, AttributeError)
    assert info.value.hint == "did you mean `pl.FP32`?"
    assert not hasattr(pl, "float32") and getattr(pl, "float32", 7) == 7
    assert not hasattr(pl.tile, "ad") and not hasattr(pl, "__nonexistent__")


def test_function_options_are_keywords_at_run_time() -> None:
    with pytest.raises(PlError, match="takes its options as keywords") as info:
        pl.function(pl.FunctionType.InCore)
    assert info.value.span is not None and info.value.span.filename == __file__


# -- str(PlError) ----------------------------------------------------------------------------------

def test_str_of_an_error_says_where() -> None:
    assert str(PlError("bad", Span("k.py", 3, 5))) == "k.py:3:5: bad"
    assert str(PlError("bad")) == "bad"
    with pytest.raises(PlError) as info:
        parse((TESTS / "error_fixtures" / "static_assert_false.py").read_text(encoding="utf-8"),
              filename="sa.py")
    assert str(info.value).startswith("sa.py:10:9: static_assert failed")


# -- internal errors ---------------------------------------------------------------------------------

def test_internal_error_says_so_and_saves_a_reproducer(monkeypatch: pytest.MonkeyPatch,
                                                       tmp_path: Path) -> None:
    import pl.lowering.frontend.lower as frontend
    from pl.errors import package_version

    def boom(*_: object) -> list[object]:
        raise RuntimeError("a bug in pl")

    monkeypatch.setattr(frontend, "lower_block", boom)
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    import tempfile
    monkeypatch.setattr(tempfile, "tempdir", None)
    kernel = ROOT / "examples" / "vector_rowsum.py"
    status, _, err = _cli(["--no-cache", str(kernel)])
    assert status == 123, err
    assert err.startswith(f"internal error in pl {package_version()}: RuntimeError: a bug in pl")
    assert "Traceback" not in err and "bug in pl, not in your kernel" in err
    saved = re.search(r"saved to (\S+);", err)
    assert saved is not None, err
    report = Path(saved.group(1)).read_text(encoding="utf-8")
    assert Path(saved.group(1)).parent == tmp_path
    assert "Traceback" in report and "RuntimeError: a bug in pl" in report
    assert kernel.read_text(encoding="utf-8") in report


def test_internal_error_from_stdin_keeps_the_input(monkeypatch: pytest.MonkeyPatch,
                                                   tmp_path: Path) -> None:
    import tempfile


    def boom(*_: object, **__: object) -> object:
        raise KeyError("oops")

    monkeypatch.setattr("pl.show_inferred.run.run_text", boom)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    text = (ROOT / "examples" / "vector_rowsum.py").read_text(encoding="utf-8")
    status, _, err = _cli(["-"], stdin=text)
    assert status == 123
    saved = re.search(r"saved to (\S+);", err)
    assert saved is not None and text in Path(saved.group(1)).read_text(encoding="utf-8")


# -- limits ----------------------------------------------------------------------------------------

_SCALAR_KERNEL = """import pl


@pl.program
class K:
    @pl.function
    def f(self, n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
        x = {}
        return x
"""


@pytest.mark.parametrize(("expr", "message"), [
    (" + ".join(["n"] * 400), "too long an expression"),
    ("-" * 5000 + "n", "too long an expression"),
    ("(\n" + "\n".join(["            + n"] * 400) + "\n        )", "nests too deeply"),
    ("n." + ".".join(["a"] * 3000), "too long an expression"),
    ("1 << 20000", "does not fit in 64 bits"),
    ("1 << 3000000000", "does not fit in 64 bits"),
    ("1" * 5000, ""),
    ("-9223372036854775808 - 1", "does not fit in 64 bits"),
])
def test_huge_input_is_a_located_user_error(expr: str, message: str, tmp_path: Path) -> None:
    path = tmp_path / "big.py"
    text = _SCALAR_KERNEL.format(expr).replace("x = (\n            + n", "x = (\n            n")
    path.write_text(text, encoding="utf-8")
    start = time.perf_counter()
    status, out, err = _cli(["--no-cache", str(path)])
    assert time.perf_counter() - start < 20
    _assert_user_error(status, out, err)
    assert message in err.splitlines()[0]
    loc = LOCATED.search(err)
    assert loc is not None and int(loc["line"]) == 8, err


def test_limits_leave_ordinary_expressions_alone(tmp_path: Path) -> None:
    path = tmp_path / "ok.py"
    path.write_text(_SCALAR_KERNEL.format(" + ".join(["n"] * 97) + " + (1 << 63) - 1"),
                    encoding="utf-8")
    for mode in ([], ["--ir"], ["--explain"], ["--json"]):
        status, _, err = _cli(["--no-cache", *mode, str(path)])
        assert status == 0, err


_TERMS = st.recursive(
    st.sampled_from(["n", "1", "7", "N", "(1 << 62)", "0"]),
    lambda inner: st.builds(lambda a, op, b: f"({a} {op} {b})", inner,
                            st.sampled_from(["+", "-", "*", "//", "%", "<<", ">>"]), inner)
    | st.builds(lambda a: f"-{a}", inner),
    max_leaves=40)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(expr=_TERMS)
def test_any_integer_expression_compiles_or_is_a_located_error(expr: str) -> None:
    text = "import pl\n\nN = 1 << 40\n\n\n" + _SCALAR_KERNEL.split("\n\n\n", 1)[1].format(expr)
    try:
        parse(text, filename="gen.py")
    except PlError as e:
        assert e.span is not None and e.span.line > 0, e.message
        assert not CLASS_NAME.search(e.message)


# -- file-system failures ------------------------------------------------------------------------

def test_dump_passes_onto_a_file_is_a_clean_error(tmp_path: Path) -> None:
    blocker = tmp_path / "afile"
    blocker.write_text("x", encoding="utf-8")
    status, out, err = _cli(["--no-cache", "--dump-passes", str(blocker),
                             str(ROOT / "examples" / "vector_rowsum.py")])
    _assert_user_error(status, out, err)
    assert f"cannot write {blocker}" in err


def test_dump_passes_into_an_uncreatable_folder_is_a_clean_error() -> None:
    status, out, err = _cli(["--no-cache", "--dump-passes", "/proc/pl-no-such/folder",
                             str(ROOT / "examples" / "vector_rowsum.py")])
    _assert_user_error(status, out, err)
    assert "cannot write /proc/pl-no-such" in err


def test_dump_passes_creates_a_missing_folder(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b"
    status, _, err = _cli(["--no-cache", "--dump-passes", str(target),
                           str(ROOT / "examples" / "vector_rowsum.py")])
    assert status == 0, err
    assert sorted(target.glob("*.py"))


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EACCES, errno.EROFS])
@pytest.mark.parametrize("where", ["replace", "mkstemp"])
def test_write_failures_are_clean_errors(code: int, where: str, tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    import tempfile

    kernel = tmp_path / "k.py"
    kernel.write_text((ROOT / "examples" / "matmul_k_loop.py").read_text(encoding="utf-8"),
                      encoding="utf-8")

    def full(*_: object, **__: object) -> None:
        raise OSError(code, os.strerror(code), str(tmp_path / ".k.py.x1y2.tmp"))

    monkeypatch.setattr(*((os, "replace") if where == "replace" else (tempfile, "mkstemp")), full)
    status, out, err = _cli(["--no-cache", "--write", str(kernel)])
    _assert_user_error(status, out, err)
    assert f"cannot write {kernel}: {os.strerror(code).lower()}" in err.lower()


def test_dump_passes_on_a_full_disk_is_a_clean_error(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    def full(*_: object, **__: object) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    # Each dumped file is written through a new file beside it (pl/files.py): none can be made.
    monkeypatch.setattr(tempfile, "mkstemp", full)
    status, out, err = _cli(["--no-cache", "--dump-passes", str(tmp_path / "d"),
                             str(ROOT / "examples" / "vector_rowsum.py")])
    _assert_user_error(status, out, err)
    assert "no space left on device" in err


# -- static_assert ---------------------------------------------------------------------------------

@pytest.mark.parametrize("cond", ["1 == 1", "N % 16 == 0", "N > 1 and not N == 3", "True",
                                  "(N << 2) // 4 == N", "N != 65"])
def test_static_assert_that_holds_compiles(cond: str) -> None:
    text = ("import pl\n\nN = 64\n\n\n@pl.function\ndef f(n: pl.Scalar[pl.INDEX]) -> "
            f"pl.Scalar[pl.INDEX]:\n    pl.static_assert({cond}, \"holds\")\n    return n\n")
    parse(text)


# -- a written memory space inference changes --------------------------------------------------------

def _written_vec(tmp_path: Path) -> Path:
    text = (ROOT / "examples" / "matmul_k_loop.py").read_text(encoding="utf-8")
    old = "acc0 = pl.create_tile([64, 64], dtype=pl.FP32)"
    assert old in text
    path = tmp_path / "written.py"
    path.write_text(text.replace(old, "acc0: pl.Tile[[64, 64], pl.FP32, pl.MemorySpace.Vec] = "
                                      "pl.create_tile([64, 64], dtype=pl.FP32)"), encoding="utf-8")
    return path


def test_a_changed_written_space_is_a_note(tmp_path: Path) -> None:
    path = _written_vec(tmp_path)
    status, out, err = _cli(["--no-cache", str(path)])
    assert status == 0
    assert "pl.MemorySpace.Acc" in out
    assert (f"{path}:15:45: note: acc0 is written as pl.MemorySpace.Vec but inference places it "
            "in Acc") in err


_WRITTEN_MAT = (
    "import pl\n\n\n@pl.program\nclass K:\n    @pl.function(type=pl.FunctionType.InCore)\n"
    "    def f(self, a: pl.Tensor[[64, 64], pl.FP32],\n"
    "          out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:\n"
    "        t: pl.Tile[[64, 64], pl.FP32] = pl.load(a, [0, 0], [64, 64], "
    "target_memory=pl.MemorySpace.Mat)\n"
    "        for _k, (c,) in pl.range(2, init_values=(t,)):\n"
    "            s = pl.exp(c)\n            y = pl.yield_(s)\n"
    "        RETURN\n")


@pytest.mark.parametrize(("ret", "told"), [
    ("out = pl.store(y, [0, 0], out)\n        return out",
     "the regenerated file says pl.MemorySpace.Vec"),
    ("return pl.store(y, [0, 0], out)", "the regenerated file says pl.MemorySpace.Vec"),
], ids=["rewritten", "shown_as_it_compiles"])
def test_a_changed_written_target_memory_is_a_note(tmp_path: Path, ret: str, told: str) -> None:
    # The load's own target_memory= does not agree with inference: the regenerated file
    # rewrote that keyword with no note (found by the fuzzer's add_kwarg edit). A function whose
    # return stores a value is shown as it compiles (it was left as written before 6a11985), and
    # its load is respelled there too, so the note says so as well. (The annotation no
    # longer says Vec: a space written there that contradicts target_memory= is an error,
    # tests/error_fixtures/annotated_space_contradicts_target_memory.py.)
    path = tmp_path / "kwarg.py"
    path.write_text(_WRITTEN_MAT.replace("RETURN", ret), encoding="utf-8")
    status, out, err = _cli(["--no-cache", str(path)])
    assert status == 0
    assert ("target_memory=pl.MemorySpace.Vec" in out) == ("regenerated" in told)
    assert (f"{path}:9:87: note: t is written as pl.MemorySpace.Mat but inference places it "
            f"in Vec (loop back-propagation from yielded s); {told}") in err


def test_a_changed_written_space_is_a_note_after_a_hash_in_a_string(tmp_path: Path) -> None:
    # The spaces written in a statement were read back from its text, cut at the first `#` as
    # a comment: a `#` in a string before the space hid it, and inference changed it silently.
    # The frontend now records each space it reads (Function.written_spaces).
    helper = ("@pl.inline\ndef load_into(a, tag, space):\n"
              "    return pl.load(a, [0, 0], [64, 64], target_memory=space)\n\n\n")
    text = _WRITTEN_MAT.replace("@pl.program", helper + "@pl.program").replace(
        "t: pl.Tile[[64, 64], pl.FP32] = pl.load(a, [0, 0], [64, 64], "
        "target_memory=pl.MemorySpace.Mat)", 't = load_into(a, "#1", pl.MemorySpace.Mat)').replace(
        "RETURN", "out = pl.store(y, [0, 0], out)\n        return out")
    path = tmp_path / "hash.py"
    path.write_text(text, encoding="utf-8")
    status, _, err = _cli(["--no-cache", str(path)])
    assert status == 0
    assert (f"{path}:14:35: note: t is written as pl.MemorySpace.Mat but inference places it "
            "in Vec (loop back-propagation from yielded s)") in err


def test_a_changed_written_space_is_in_explain_and_json(tmp_path: Path) -> None:
    path = _written_vec(tmp_path)
    _, out, _ = _cli(["--no-cache", "--explain", str(path)])
    assert "acc0 -> Acc (written Vec, changed by inference)" in out
    assert out.count("changed by inference") == 1
    _, out, _ = _cli(["--no-cache", "--json", str(path)])
    report = json.loads(out)
    tiles = report["files"][0]["programs"][0]["functions"][0]["tiles"]
    acc0 = next(t for t in tiles if t["name"] == "acc0")
    assert acc0["written_memory_space"] == "Vec" and acc0["memory_space"] == "Acc"
    assert sum("written_memory_space" in t for t in tiles) == 1
    notes = [d for d in report["diagnostics"] if d["severity"] == "note"]
    assert len(notes) == 1 and notes[0]["line"] == 15 and "acc0" in notes[0]["message"]


def test_a_kept_or_unwritten_space_is_not_reported(tmp_path: Path) -> None:
    for example in sorted((ROOT / "examples").glob("*.py")):
        status, _, err = _cli(["--no-cache", str(example)])
        assert status == 0 and "is written as" not in err, (example, err)


def test_function_attrs_take_the_values_func_attr_takes() -> None:
    text = ('import pl\n\n\n@pl.function(attrs={"k": pl.FP32, "m": pl.MemorySpace.Vec, '
            '"v": [pl.adir.input, pl.adir.output]})\n'
            'def f(n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:\n'
            '    pl.func_attr({"a": 1, "s": "x", "arg_direction_overrides": [0, 2]})\n    return n\n')
    fn = parse(text)
    assert dict(fn.attrs) == {"k": DType.FP32, "m": MemorySpace.Vec,
                              "v": (int(ArgDirection.Input), int(ArgDirection.Output)),
                              "a": 1, "s": "x", "arg_direction_overrides": (0, 2)}


@pytest.mark.parametrize("value", ["[1, 2]", "[1, [2, pl.MemorySpace.Vec]]", '["a"]', "[n, 1]"])
def test_a_list_attr_of_other_values_is_refused_as_the_reference_does(value: str) -> None:
    text = ('import pl\n\n\n@pl.function\ndef f(n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:\n'
            f'    pl.func_attr({{"v": {value}}})\n    return n\n')
    with pytest.raises(PlError, match="Unsupported list element type for key: v"):
        parse(text)


@settings(max_examples=80, deadline=None)
@given(a=st.integers(-(1 << 31), 1 << 31), b=st.integers(0, 1 << 20),
       op=st.sampled_from(["+", "-", "*", "//", "%", "<<", ">>"]))
def test_folded_constants_are_exact(a: int, b: int, op: str) -> None:
    """The limits on constants never change a value that fits: `x = a op b` folds to Python's
    value wrapped to INDEX (64-bit signed), as `pl.interpret` computes the INDEX expression."""
    if op in ("//", "%") and b == 0:
        return
    if op == "<<" and b >= 64:
        b %= 64
    value = eval(f"({a}) {op} ({b})")  # noqa: S307 - two integers and an operator
    if not -(1 << 63) <= value < (1 << 64):
        return
    text = ("import pl\n\n\n@pl.function\ndef f(n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:\n"
            f"    x: pl.Scalar[pl.INDEX] = ({a}) {op} ({b})\n    return x\n")
    fn = parse(text)
    assign = fn.body.stmts[0] if hasattr(fn.body, "stmts") else fn.body
    wrapped = value - (1 << 64) if value >= 1 << 63 else value
    assert isinstance(assign.value, ConstInt) and assign.value.value == wrapped, (assign, value)


def test_scatter_update_takes_dim_first_as_the_reference_does() -> None:
    idx = Var("i", TensorType((_i(4), _i(8)), DType.INT32))
    src = Var("s", TensorType((_i(32), _i(128)), DType.FP32))
    span = Span("k.py", 1, 1)
    first = build_call("pl.scatter_update", [_VALUES["tensor"], -2, idx, src], {}, span)
    keyword = build_call("pl.scatter_update", [_VALUES["tensor"], idx, src], {"dim": -2}, span)
    assert first == keyword or (first.args, first.kwargs) == (keyword.args, keyword.kwargs)
