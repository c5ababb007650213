"""Every broken kernel file in tests/bad_inputs/ is answered by one located diagnostic.

The contract (the project's "Reliability" issue): `python -m pl.show_inferred FILE` on a bad file
exits with status 2 and prints exactly one rendered `PlError` on stderr whose `--> file:line:col`
points at the culprit, and no Python traceback anywhere. Each corpus file marks its bad line with a
trailing `# error: <substring of the expected message>`; files where a marker is impossible (empty,
undecodable bytes, nothing to point at) are described by `_UNMARKED` below.

Cases the package currently gets wrong are xfail(strict=True) with a bug id (see `_BUGS`), so the
suite stays green while each bug stays visible and a fix turns the xfail into a (strict) failure
that asks for the marker to be removed.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from pl.show_inferred.cli import main

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(__file__).resolve().parent / "bad_inputs"
FILES = sorted(CORPUS.glob("*.py"))
_MARK = re.compile(r"#\s*error:\s*(?P<msg>.*?)\s*$")
_LOC = re.compile(r"^\s*--> (?P<file>.+):(?P<line>\d+):(?P<col>\d+)\s*$", re.M)

# Known package bugs, by corpus file (id -> description), each run as xfail(strict=True) so a fix
# shows. Empty now: the 13 bugs this corpus found are fixed (see the git history).
_BUGS: dict[str, str] = {}
_XFAIL: dict[str, str] = {}


@dataclass(frozen=True)
class Expect:
    line: int | None  # None: any line, as long as the diagnostic is located
    message: str


# Files that cannot carry a marker: nothing on any line is the culprit, or the text is not UTF-8.
_UNMARKED = {
    "empty": Expect(1, "no @pl.program"),
    "no_program_in_file": Expect(None, "no @pl.program"),
    "standalone_function_only": Expect(None, "no @pl.program"),
    "non_utf8_comment": Expect(3, "utf-8"),
}


def _expectation(path: Path) -> Expect:
    if path.stem in _UNMARKED:
        return _UNMARKED[path.stem]
    text = path.read_bytes().decode("utf-8", errors="replace")
    for n, line in enumerate(text.splitlines(), start=1):
        m = _MARK.search(line)
        if m:
            return Expect(n, m.group("msg"))
    raise AssertionError(f"{path.name} has no `# error:` marker and no _UNMARKED entry")


def check_outcome(path: Path, status: int, out: str, err: str, expect: Expect) -> None:
    """The contract for one bad file, given what the CLI printed."""
    assert "Traceback" not in out + err, err
    assert status == 2, (status, err)
    headers = [ln for ln in err.splitlines() if ln.startswith("Error:")]
    assert len(headers) == 1, err
    assert expect.message in headers[0], err
    locs = list(_LOC.finditer(err))
    assert len(locs) == 1, err
    loc = locs[0]
    assert Path(loc["file"]).resolve() == path.resolve(), err
    line, col = int(loc["line"]), int(loc["col"])
    if expect.line is not None:
        assert line == expect.line, err
    lines = path.read_bytes().decode("utf-8", errors="replace").splitlines() or [""]
    assert 1 <= line <= len(lines), err
    assert 1 <= col <= len(lines[line - 1]) + 1, err


def _params() -> list[object]:
    out: list[object] = []
    for p in FILES:
        bug = _XFAIL.get(p.stem)
        marks = [pytest.mark.xfail(strict=True, reason=f"{bug}: {_BUGS[bug]}")] if bug else []
        out.append(pytest.param(p, id=p.stem, marks=marks))
    return out


def test_corpus_is_big_and_consistent() -> None:
    assert len(FILES) >= 60
    stems = {p.stem for p in FILES}
    assert set(_XFAIL) <= stems and set(_UNMARKED) <= stems
    assert set(_XFAIL.values()) == set(_BUGS)
    for p in FILES:
        _expectation(p)  # every file is marked or described


def test_corpus_differs_from_the_frontend_fixtures() -> None:
    fixtures = Path(__file__).resolve().parent / "error_fixtures"
    theirs = {p.read_bytes() for p in fixtures.glob("*.py")}
    ours = {p.read_bytes() for p in FILES}
    assert not theirs & ours
    assert not {p.name for p in fixtures.glob("*.py")} & {p.name for p in FILES}


@pytest.mark.parametrize("path", _params())
def test_bad_input(path: Path, capsys: pytest.CaptureFixture[str],
                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    status = main([str(path)])
    captured = capsys.readouterr()
    check_outcome(path, status, captured.out, captured.err, _expectation(path))


def test_missing_file_is_a_clean_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status = main([str(tmp_path / "nope.py")])
    captured = capsys.readouterr()
    assert status == 2
    assert "Traceback" not in captured.out + captured.err
    assert [ln for ln in captured.err.splitlines() if ln.startswith("Error:")], captured.err


# A few through a real interpreter: the exit status and stderr as a user sees them.
_SUBPROCESS = ["syntax_unclosed_paren", "unknown_tile_op", "loop_yield_arity", "dtype_as_value"]


@pytest.mark.parametrize("stem", _SUBPROCESS)
def test_bad_input_subprocess(stem: str) -> None:
    path = CORPUS / f"{stem}.py"
    env = {**os.environ, "NO_COLOR": "1"}
    env.pop("FORCE_COLOR", None)
    proc = subprocess.run([sys.executable, "-m", "pl.show_inferred", str(path)], cwd=ROOT,
                          capture_output=True, text=True, env=env, timeout=120)
    check_outcome(path, proc.returncode, proc.stdout, proc.stderr, _expectation(path))
