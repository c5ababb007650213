"""Every compile stage does linear work: the calls it makes grow at most 4x for 4x statements.

Wall-clock scaling on these machines carries about +-10% of noise (bench/run.py), so this test
counts instead: every Python and builtin call a stage makes (`sys.setprofile`), on the benchmark
kernel at 250 and 1,000 statements. A stage whose work is linear with a fixed part makes fewer
than 4x the calls; one that walks the body again per statement, or searches a list per value,
makes far more. (Work done inside one builtin call, such as `x in some_list`, is not seen here;
`bench/instructions.py` counts machine instructions for that.)
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import partial
from itertools import count
from types import FrameType
from typing import Any

import libcst
import pytest

from bench.generate import kernel_source
from pl.compiler import default_passes
from pl.lowering.frontend.parse import parse_tree
from pl.lowering.source.python import parse_python
from pl.printer.program import print_node
from pl.show_inferred.run import run_text

_NAMES = count()
SMALL, LARGE = 250, 1000


def _calls(fn: Callable[[], Any]) -> tuple[int, Any]:
    """The calls `fn` makes (Python functions and builtins), and its result."""
    made = 0

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        nonlocal made
        if event == "call" or event == "c_call":
            made += 1

    sys.setprofile(profile)
    try:
        result = fn()
    finally:
        sys.setprofile(None)
    return made, result


def _stage_calls(n: int) -> dict[str, int]:
    """Calls of lowering (without the LibCST parse), each pass, print and show_inferred at N = n."""
    text = kernel_source(n)
    name = f"<linear{next(_NAMES)}>"
    trees = (libcst.parse_module(text), parse_python(text, name))
    calls: dict[str, int] = {}
    calls["lower"], program = _calls(lambda: parse_tree(text, *trees, filename=name))
    for p in default_passes("910B"):
        calls[p.name], program = _calls(partial(p, program))
    calls["print"], _ = _calls(partial(print_node, program))
    calls["show_inferred"], _ = _calls(
        lambda: run_text(text, f"<linear_show{next(_NAMES)}>", backend="910B"))
    return calls


@pytest.fixture(scope="module")
def calls() -> tuple[dict[str, int], dict[str, int]]:
    _stage_calls(20)  # first-use memos and imports fall out
    return _stage_calls(SMALL), _stage_calls(LARGE)


STAGES = ["lower", *(p.name for p in default_passes("910B")), "print", "show_inferred"]


@pytest.mark.parametrize("stage", STAGES)
def test_stage_calls_grow_at_most_linearly(stage: str, calls: tuple[dict[str, int], dict[str, int]]
                                           ) -> None:
    small, large = calls
    assert small[stage] > SMALL  # the stage did run, and per statement
    assert large[stage] <= small[stage] * LARGE // SMALL, (
        f"{stage}: {small[stage]} calls at N = {SMALL}, {large[stage]} at N = {LARGE} "
        f"(x{large[stage] / small[stage]:.3f} for x{LARGE // SMALL} statements)")


def test_the_count_sees_a_quadratic_stage() -> None:
    """The measure itself: a walk that looks back over every earlier statement is caught."""
    def quadratic(n: int) -> int:
        return _calls(lambda: [sum(1 for _ in range(i)) for i in range(n)])[0]

    def linear(n: int) -> int:
        return _calls(lambda: [abs(i) for i in range(n)])[0]

    assert quadratic(LARGE) > quadratic(SMALL) * LARGE // SMALL
    assert linear(LARGE) <= linear(SMALL) * LARGE // SMALL
