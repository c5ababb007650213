"""`--explain` and `--json` reports are linear in the program: 4x statements, at most ~4x the work.

Two measures, as tests/test_perf_linear.py explains: the calls the report makes (Python and
builtin, `sys.setprofile`), which a per-item search of the log or of the function list would
multiply; and the CPU time, which also sees work done inside one builtin call (the file split into
lines once per item was such a case: 9x the time for 4x the statements). The time bound is loose
(6x where quadratic work gives 16x) so noise cannot fail it.
"""

from __future__ import annotations

import sys
import time
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


def _calls(fn: Callable[[], Any]) -> int:
    made = 0

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        nonlocal made
        if event in ("call", "c_call"):
            made += 1

    sys.setprofile(profile)
    try:
        fn()
    finally:
        sys.setprofile(None)
    return made


def _cpu(fn: Callable[[], Any]) -> float:
    best = float("inf")
    for _ in range(5):
        start = time.process_time()
        fn()
        best = min(best, time.process_time() - start)
    return best


@pytest.fixture(scope="module")
def pair() -> tuple[Regenerated, Regenerated]:
    return _regenerated(SMALL), _regenerated(LARGE)


@pytest.mark.parametrize("report", [explain, file_json], ids=["explain", "json"])
def test_report_calls_grow_linearly(report: Callable[[Regenerated, str], Any],
                                    pair: tuple[Regenerated, Regenerated]) -> None:
    small, large = pair
    a, b = _calls(lambda: report(small, "k.py")), _calls(lambda: report(large, "k.py"))
    assert b <= 4.4 * a, (a, b)


@pytest.mark.parametrize("report", [explain, file_json], ids=["explain", "json"])
def test_report_time_grows_linearly(report: Callable[[Regenerated, str], Any],
                                    pair: tuple[Regenerated, Regenerated]) -> None:
    small, large = pair
    a, b = _cpu(lambda: report(small, "k.py")), _cpu(lambda: report(large, "k.py"))
    assert b <= 6 * max(a, 1e-4), (a, b)


def test_explain_covers_every_tile(pair: tuple[Regenerated, Regenerated]) -> None:
    small, _ = pair
    text = explain(small, "k.py")
    log = small.compiled[0].decisions
    assert log is not None
    assert text.count(" -> ") >= len(log.spaces) > SMALL // 2
