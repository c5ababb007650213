"""`--explain` and `--json` reports are linear in the program: 4x statements, at most ~4x the work.

Two deterministic measures, taken with `sys.setprofile` (as tests/test_perf_linear.py explains):
the calls the report makes (Python and builtin), which a per-item search of the log or of the
function list would multiply; and the characters its string methods scan (the length of each
`str` a builtin method is called on), which sees work done inside one builtin call: the file
split into lines once per item was such a case (9x the time for 4x the statements). Time itself
is the benchmark's to measure (bench/run.py), never a test's.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from itertools import count
from types import FrameType
from typing import Any

import pytest

from bench.generate import kernel_source
from pl.show_inferred.report import explain, file_json
from pl.show_inferred.result import Regenerated
from pl.show_inferred.run import run_text

_NAMES = count()
SMALL, LARGE = 300, 1200


def _regenerated(n: int) -> Regenerated:
    r = run_text(kernel_source(n), f"<explain{next(_NAMES)}>", backend="910B")
    assert r.compiled  # compiled before anything is measured
    return r


def _work(fn: Callable[[], Any]) -> tuple[int, int]:
    """The calls `fn` makes, and the characters of the strings whose builtin methods it calls."""
    made = scanned = 0

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        nonlocal made, scanned
        if event in ("call", "c_call"):
            made += 1
        if event == "c_call" and isinstance(getattr(arg, "__self__", None), str):
            scanned += len(arg.__self__)

    sys.setprofile(profile)
    try:
        fn()
    finally:
        sys.setprofile(None)
    return made, scanned


@pytest.fixture(scope="module")
def pair() -> tuple[Regenerated, Regenerated]:
    return _regenerated(SMALL), _regenerated(LARGE)


@pytest.mark.parametrize("report", [explain, file_json], ids=["explain", "json"])
def test_report_work_grows_linearly(report: Callable[[Regenerated, str], Any],
                                    pair: tuple[Regenerated, Regenerated]) -> None:
    small, large = pair
    (calls_a, chars_a), (calls_b, chars_b) = (_work(lambda: report(small, "k.py")),
                                              _work(lambda: report(large, "k.py")))
    assert calls_b <= 4.4 * calls_a, (calls_a, calls_b)
    # A report that calls no string method at all (--json since 70a8e80 reads the written
    # spaces from the frontend, not from the text) scans nothing at either size.
    assert (chars_b <= 4.4 * chars_a) if chars_a else chars_b == 0, (chars_a, chars_b)


def test_the_scan_measure_sees_a_file_split_once_per_item() -> None:
    # What the character measure is for: splitting the whole text once per line is quadratic
    # (16x for 4x the lines) while making the same number of calls as splitting it once per
    # call site.
    def per_item(text: str) -> None:
        for i in range(text.count("\n")):
            text.splitlines()[i].strip()

    small, large = "x = 1\n" * 100, "x = 1\n" * 400
    (_, a), (_, b) = _work(lambda: per_item(small)), _work(lambda: per_item(large))
    assert b >= 12 * a


def test_explain_covers_every_tile(pair: tuple[Regenerated, Regenerated]) -> None:
    small, _ = pair
    text = explain(small, "k.py")
    log = small.compiled[0].decisions
    assert log is not None
    assert text.count(" -> ") >= len(log.spaces) > SMALL // 2
