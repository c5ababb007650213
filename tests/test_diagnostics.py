"""Every bad kernel in tests/error_fixtures/ raises exactly one located PlError.

Each fixture marks its bad line with `# error: <substring of the message>` and optionally
`# error-col: N` (the 1-based column of the culprit). The harness parses the file with
`pl.parse(text, filename=...)` and checks line, column, message and the rendered snippet.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from pl.errors import PlError
from pl.lowering.frontend.parse import parse

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = sorted((ROOT / "tests" / "error_fixtures").glob("*.py"))
_MARK = re.compile(r"#\s*error:\s*(?P<msg>.*?)\s*(?:#\s*error-col:\s*(?P<col>\d+))?\s*$")


def _expectation(text: str) -> tuple[int, str, int | None]:
    for n, line in enumerate(text.splitlines(), start=1):
        m = _MARK.search(line)
        if m:
            return n, m.group("msg"), int(m.group("col")) if m.group("col") else None
    raise AssertionError("fixture has no `# error:` marker")


def test_there_are_enough_fixtures() -> None:
    assert len(FIXTURES) >= 30


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_fixture_error(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    line, msg, col = _expectation(text)
    with pytest.raises(PlError) as info:
        parse(text, filename=str(path))
    err = info.value
    assert msg in err.message, err.message
    assert err.span is not None
    assert err.span.filename == str(path)
    assert err.span.line == line, (err.span, err.message)
    src_line = text.splitlines()[line - 1]
    if col is not None:
        assert err.span.col == col, (err.span, err.message)
    # The column points at a token of the culprit, never at indentation or past the code.
    assert 1 <= err.span.col <= len(src_line.split("#")[0].rstrip())
    assert not src_line[err.span.col - 1].isspace()
    rendered = err.render(color=False)
    assert f"--> {path}:{line}:{err.span.col}" in rendered
    caret = [ln for ln in rendered.splitlines() if ln.strip().startswith("|") and "^" in ln]
    assert caret, rendered
    assert caret[0].index("^") - caret[0].index("|") - 2 == err.span.col - 1


def test_uncaught_error_is_rendered_by_python_from_the_decorator(tmp_path: Path) -> None:
    """pl installs no excepthook: an uncaught PlError is printed by Python's own, located by its
    `str`, the rest of its rendering attached as a note (3.11+), and its traceback starts at the
    user's decorator: no frame of the frontend's insides."""
    kernel = tmp_path / "bad_kernel.py"
    kernel.write_text(
        "import pl\n\n\n@pl.program\nclass K:\n    @pl.function\n"
        "    def f(self, a: pl.Tensor[[64], pl.FP32], b) -> pl.Tensor[[64], pl.FP32]:\n"
        "        return a\n", encoding="utf-8")
    proc = subprocess.run([sys.executable, str(kernel)], capture_output=True, text=True,
                          env={"NO_COLOR": "1", "PATH": ""}, timeout=60)
    assert proc.returncode == 1
    assert f"pl.errors.PlError: {kernel}:7:46: Parameter 'b' missing type annotation" in proc.stderr
    frames = re.findall(r'^  File "([^"]+)", line \d+, in (\S+)$', proc.stderr, re.M)
    assert frames[0] == (str(kernel), "<module>"), proc.stderr
    assert {f for f, _ in frames[1:]} <= {str(ROOT / "pl" / "lowering" / "frontend" / "lower.py")}, frames
    assert {fn for _, fn in frames[1:]} <= {"program", "apply"}, frames
    if sys.version_info >= (3, 11):
        assert f"--> {kernel}:7:46" in proc.stderr and "= help: " in proc.stderr


def test_internal_failure_is_not_dressed_as_a_user_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bug of pl met while lowering propagates as itself: never a PlError blaming the kernel."""
    import pl.lowering.frontend.lower as frontend

    def boom(*_: object) -> list[object]:
        raise RuntimeError("internal\ndetail")

    monkeypatch.setattr(frontend, "lower_block", boom)
    text = ("import pl\n\n@pl.function\ndef kern(a: pl.Tensor[[4], pl.FP32]) -> "
            "pl.Tensor[[4], pl.FP32]:\n    return a\n")
    with pytest.raises(RuntimeError, match="internal"):
        parse(text, filename="<wrap>")


@pytest.mark.parametrize(("text", "message"), [
    ("import pl\n", "No @pl.function or @pl.program found"),
    ("import pl\n\n@pl.function\ndef a(x: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:\n    return x\n"
     "\n@pl.function\ndef b(x: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:\n    return x\n",
     "Multiple functions/programs found"),
])
def test_parse_needs_exactly_one_definition(text: str, message: str) -> None:
    with pytest.raises(PlError, match=message) as info:
        parse(text)
    if "Multiple" in message:  # located at the second definition's name
        assert info.value.span is not None and (info.value.span.line, info.value.span.col) == (8, 5)


def test_calling_a_dsl_object_outside_a_kernel_is_an_error() -> None:
    import pl

    with pytest.raises(PlError, match="only be used inside a @pl.function"):
        pl.range(4)


def test_a_location_is_written_in_one_place() -> None:
    """`file:line:col` is `Span.__str__`; no other module formats a span's parts into one."""
    pkg = Path(__file__).resolve().parent.parent / "pl"
    spelled = re.compile(r"\.line\}:\{[^}]*\.col\}")
    found = [f"{p.relative_to(pkg)}:{n}" for p in sorted(pkg.rglob("*.py"))
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), start=1)
             if spelled.search(line)]
    assert found == ["ir/span.py:20"], found
