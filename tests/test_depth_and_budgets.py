"""Deep but legal nesting compiles, and products of per-level bounds are bounded in total.

Programs are generated here (sizes as parameters), not stored: what matters is their depth and
their products.

- Depth the user's program chooses (a constant nested through names, a chain of project modules
  each importing the next, `@pl.inline` helpers each calling the previous) is accepted as Python
  accepts it, up to `MAX_NESTING` levels; past it, a located error (exit 2) names the limit. Before
  the compiler ran on a deep stack (pl/deep_stack.py), 500 / 300 / 150 levels were RecursionError
  and exit 123.
- The static evaluator bounds a constant's items in all (`MAX_ELEMENTS`), not only each list's
  length: `[[0] * 10000] * 10000` passed the per-list bound and became 10^8 IR constants.
- Unrolling bounds the statements it makes in all (`MAX_UNROLLED_STATEMENTS`), not only each
  loop's iterations: three nested `pl.unroll(1024)` loops asked for 2^30 copies.
"""

from __future__ import annotations

import io
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import libcst as cst
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pl
from pl.deep_stack import MAX_NESTING, on_deep_stack
from pl.errors import PlError
from pl.ir.function import Program
from pl.lowering import unroll
from pl.lowering.frontend import inline as inline_module
from pl.lowering.frontend.source import SourceFile
from pl.lowering.source import static_eval, static_module
from pl.lowering.source.static_eval import MAX_ELEMENTS, NotStatic, measure
from pl.lowering.source.static_module import constant_value
from pl.lowering.unroll import unroll_loops
from pl.show_inferred.cli import main

LOCATED = re.compile(r"^\s*--> (?P<file>.+):(?P<line>\d+):(?P<col>\d+)\s*$", re.M)

KERNEL = '''

@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[16, 64], pl.FP32],
               out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        a = pl.load(x, [0, 0], [16, 64])
        {line}
        out = pl.store(a, [0, 0], out)
        return out
'''


def _cli(path: Path) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(["--no-cache", str(path)], stdout=out, stderr=err)
    return status, err.getvalue()


def _line_of(path: Path, needle: str) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(n for n, text in enumerate(lines, start=1) if needle in text)


def _refused(path: Path, status: int, err: str, needle: str, message: str) -> None:
    assert status == 2, err
    assert "Traceback" not in err and "internal error" not in err, err
    assert message in err.splitlines()[0], err
    loc = LOCATED.search(err)
    assert loc is not None and Path(loc["file"]).resolve() == path.resolve(), err
    assert int(loc["line"]) == _line_of(path, needle), err


@pytest.fixture(autouse=True)
def _plain(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.delenv("FORCE_COLOR", raising=False)


# -- generators -----------------------------------------------------------------------------------

def nested_names(depth: int, step: str) -> str:
    """`A0 = 1`, then `A{i} = step(A{i-1})` (`[A]`, `A + 1`, `(A, 1)`), the last used by a kernel."""
    lines = ["A0 = 1"] + [f"A{i} = {step.format(f'A{i - 1}')}" for i in range(1, depth + 1)]
    return "import pl\n\n" + "\n".join(lines) + KERNEL.format(line=f"b = A{depth}  # use")


def module_chain(folder: Path, depth: int) -> Path:
    """m0 imports m1 ... imports m{depth-1}, which binds N; the kernel reads m0.N."""
    for i in range(depth):
        body = f"import m{i + 1}\nN = m{i + 1}.N\n" if i < depth - 1 else "N = 7\n"
        (folder / f"m{i}.py").write_text(body, encoding="utf-8")
    kernel = folder / "main.py"
    kernel.write_text("import pl\nimport m0\n" + KERNEL.format(line="b = m0.N  # use"),
                      encoding="utf-8")
    return kernel


def inline_chain(depth: int) -> str:
    """h0 adds; h{i} calls h{i-1}; the kernel calls the last."""
    sig = "(a: pl.Tile[[16, 64], pl.FP32]) -> pl.Tile[[16, 64], pl.FP32]:"
    parts = ["import pl\n", f"@pl.inline\ndef h0{sig}\n    return pl.add(a, a)\n"]
    parts += [f"@pl.inline\ndef h{i}{sig}\n    return h{i - 1}(a)\n" for i in range(1, depth)]
    return "\n\n".join(parts) + KERNEL.format(line=f"a = h{depth - 1}(a)  # use")


def unroll_nest(counts: tuple[int, ...], body: int) -> str:
    """`pl.unroll` loops nested as `counts` (outermost first) around `body` statements."""
    lines, indent = [], "        "
    for depth, n in enumerate(counts):
        mark = "  # outer" if depth == 0 else ""
        lines.append(f"{indent}for i{depth} in pl.unroll({n}):{mark}")
        indent += "    "
    lines += [f"{indent}a = pl.add(a, a)"] * body
    text = KERNEL.format(line="\n".join(lines).lstrip())
    return "import pl\n" + text


# -- item 14: deep but legal nesting ---------------------------------------------------------------

@pytest.mark.parametrize("step", ["[{}]", "{} + 1", "({}, 1)"])
def test_a_constant_nested_500_deep_through_names_compiles(tmp_path: Path, step: str) -> None:
    path = tmp_path / "deep_constant.py"
    path.write_text(nested_names(500, step), encoding="utf-8")
    status, err = _cli(path)
    assert status == 0, err


def test_a_constant_nested_past_the_limit_is_refused_where_it_is_used(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(static_eval, "MAX_NESTING", 100)  # the same check, at a cheaper depth
    path = tmp_path / "too_deep_constant.py"
    path.write_text(nested_names(150, "[{}]"), encoding="utf-8")
    status, err = _cli(path)
    _refused(path, status, err, "# use", "nests more than 100 tuples or lists deep")
    assert len(err) < 4000, "a chain of unresolved names quotes only its root cause"


def test_a_chain_of_300_modules_compiles(tmp_path: Path) -> None:
    status, err = _cli(module_chain(tmp_path, 300))
    assert status == 0, err


def test_a_module_chain_past_the_limit_is_refused(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(static_module, "MAX_NESTING", 40)  # the same check, at a cheaper depth
    kernel = module_chain(tmp_path, 50)
    status, err = _cli(kernel)
    _refused(kernel, status, err, "# use", "imported through more than 40 nested imports")


def test_150_inline_helpers_each_calling_the_previous_compile(tmp_path: Path) -> None:
    path = tmp_path / "deep_inline.py"
    path.write_text(inline_chain(150), encoding="utf-8")
    status, err = _cli(path)
    assert status == 0, err


def test_an_inline_chain_past_the_limit_is_refused(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(inline_module, "MAX_NESTING", 40)
    path = tmp_path / "too_deep_inline.py"
    path.write_text(inline_chain(50), encoding="utf-8")
    status, err = _cli(path)
    assert status == 2 and "more than 40 nested inline calls" in err, err
    assert LOCATED.search(err) and "Traceback" not in err, err


def test_the_decorators_and_pl_parse_run_deep_too(tmp_path: Path) -> None:
    """The same depth through pl.parse and through the decorators (the module run by Python)."""
    text = nested_names(500, "[{}]")
    pl.parse(text, filename=str(tmp_path / "parsed.py"))
    path = tmp_path / "deep_decorated.py"
    path.write_text(text, encoding="utf-8")
    err = io.StringIO()
    status = main(["--no-cache", "--exec", str(path)], stdout=io.StringIO(), stderr=err)
    assert status == 0, err.getvalue()


# -- the deep stack ----------------------------------------------------------------------------------

def test_the_deep_stack_nests_returns_raises_and_restores_the_limit() -> None:
    limit = sys.getrecursionlimit()

    def deep(n: int) -> int:
        return 0 if n == 0 else 1 + deep(n - 1)

    assert on_deep_stack(lambda: on_deep_stack(lambda: deep(20_000))) == 20_000
    with pytest.raises(PlError, match="inside"):
        on_deep_stack(lambda: (_ for _ in ()).throw(PlError("inside")))
    assert sys.getrecursionlimit() == limit


def test_an_alarm_in_the_caller_stops_the_run() -> None:
    """A timer's exception (the fuzzer's per-mutant timeout, Ctrl-C) raised in the waiting caller
    stops the worker too: nothing keeps running after the call."""
    class Alarm(BaseException):
        pass

    def fire(_sig: int, _frame: Any) -> None:
        raise Alarm()

    before = threading.active_count()
    previous = signal.signal(signal.SIGALRM, fire)
    signal.setitimer(signal.ITIMER_REAL, 0.2)
    start = time.monotonic()
    try:
        with pytest.raises(Alarm):
            on_deep_stack(lambda: [None for _ in iter(int, 1)])  # never ends by itself
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert time.monotonic() - start < 5
    while threading.active_count() > before and time.monotonic() - start < 5:
        time.sleep(0.01)  # the worker's thread ends right after its run
    assert threading.active_count() == before


# -- item 13: products of per-level bounds -----------------------------------------------------------

def _constant(text: str) -> Any:
    src = SourceFile("<constants>", text)
    ns: dict[str, Any] = {}
    value: Any = None
    for stmt in src.module.body:
        assert isinstance(stmt, cst.SimpleStatementLine)
        small = stmt.body[0]
        assert isinstance(small, cst.Assign)
        value = ns[cst.ensure_type(small.targets[0].target, cst.Name).value] = \
            constant_value(ns, small.value, src)
    return value


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 3000), min_size=1, max_size=4))
def test_a_constant_is_bounded_in_all_not_per_list(sizes: list[int]) -> None:
    """`[[[0] * a] * b] * c`, written in one expression or through names: refused exactly when a
    list it builds (the final one or one along the way, as for the per-operation bounds) holds
    more than the limit in all (every nested list's items, counted at each place it is reached),
    though no single list is longer than 3000."""
    items, peak = 0, 0
    for n in sizes:  # `[inner]` holds 1 + inner's items; `* n` repeats that
        wrapped = 1 + items
        items = n * wrapped
        peak = max(peak, wrapped, items)
    expr = "0"
    for n in sizes:
        expr = f"[{expr}] * {n}"
    named = "\n".join(["A = 0"] + [f"A = [A] * {n}" for n in sizes])
    for text in (f"A = {expr}", named):
        if peak > MAX_ELEMENTS:
            with pytest.raises(NotStatic, match=f"more than {MAX_ELEMENTS} items in all"):
                _constant(text)
        else:
            assert measure(_constant(text))[0] == items


_leaf = st.integers(-3, 3)
_trees = st.recursive(_leaf, lambda kids: st.lists(kids, max_size=4) | st.tuples(kids, kids),
                      max_leaves=30)


def _naive(value: Any) -> tuple[int, int]:
    if not isinstance(value, list | tuple):
        return 0, 0
    subs = [_naive(v) for v in value]
    return len(value) + sum(s[0] for s in subs), 1 + max((s[1] for s in subs), default=0)


@settings(max_examples=100, deadline=None)
@given(_trees, st.integers(1, 4))
def test_measure_counts_shared_lists_at_each_place(tree: Any, copies: int) -> None:
    shared = [tree] * copies  # the same object reached `copies` times
    assert measure(shared) == _naive(shared)
    assert measure([shared, shared]) == _naive([shared, shared])


def test_a_list_that_holds_itself_is_too_deep() -> None:
    loop: list[Any] = [1]
    loop.append(loop)
    assert measure(loop)[1] > MAX_NESTING


@pytest.mark.parametrize(("counts", "body"), [
    ((1024, 1024, 1024), 1),  # 2^30 copies: refused after about the budget, not after 2^30
    ((2, 512, 256), 1),
    ((300, 300), 1),
    ((8, 8, 8, 8, 8, 8), 1),
    ((1024,), 5),
])
def test_unroll_products_past_the_budget_are_refused_at_the_outer_loop(
        counts: tuple[int, ...], body: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(unroll, "MAX_UNROLLED_STATEMENTS", 4096)  # the same budget, cheaper
    text = unroll_nest(counts, body)
    program = pl.parse(text, filename="unroll_nest.py")
    assert isinstance(program, Program)
    start = time.monotonic()
    with pytest.raises(PlError, match="more than 4096 statements") as info:
        unroll_loops(program)
    assert time.monotonic() - start < 10
    span = info.value.span
    assert span is not None
    assert span.line == next(n for n, line in enumerate(text.splitlines(), start=1)
                             if "# outer" in line)


@pytest.mark.parametrize(("counts", "body"), [((16, 16), 8), ((4, 4, 4, 4, 4), 2), ((1024,), 2)])
def test_unroll_products_within_the_budget_are_unrolled(counts: tuple[int, ...], body: int,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(unroll, "MAX_UNROLLED_STATEMENTS", 4096)
    program = pl.parse(unroll_nest(counts, body), filename="unroll_nest.py")
    assert isinstance(program, Program)
    unrolled = unroll_loops(program)
    assert "pl.unroll" not in unrolled.as_python()


def test_separate_unroll_loops_share_one_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """The budget is the program's, not each loop's: 5 loops of 1024 one-statement copies."""
    monkeypatch.setattr(unroll, "MAX_UNROLLED_STATEMENTS", 4096)
    loops = "\n        ".join(f"for i{k} in pl.unroll(1024):\n            a = pl.add(a, a)"
                               for k in range(5))
    text = "import pl\n" + KERNEL.format(line=loops)
    program = pl.parse(text, filename="many_unrolls.py")
    assert isinstance(program, Program)
    with pytest.raises(PlError, match="more than 4096 statements") as info:
        unroll_loops(program)
    assert info.value.span is not None
    assert info.value.span.line > _first_loop_line(text)


def _first_loop_line(text: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), start=1) if "pl.unroll" in line)


def test_a_recursion_error_on_the_deep_stack_is_raised_in_the_caller_without_crashing() -> None:
    """Its traceback (tens of thousands of frames) is freed on the deep stack and kept as text;
    freed on the caller's stack it overflowed it (a segmentation fault, not exit 123)."""
    code = ("from pl.deep_stack import on_deep_stack\n"
            "def f(n): return 0 if n == 0 else 1 + f(n - 1)\n"
            "try:\n    on_deep_stack(lambda: f(10 ** 6))\n"
            "except RecursionError as e:\n    print('raised', e.__traceback__ is None)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parent.parent, timeout=120)
    assert proc.returncode == 0 and proc.stdout.strip() == "raised False", proc.stderr


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(1, 40), min_size=1, max_size=4), st.integers(1, 3))
def test_unroll_is_refused_exactly_when_the_statements_it_makes_pass_the_budget(
        counts: list[int], body: int) -> None:
    """Each copy of loop j's body holds the loops nested in it and the `body` statements; loop j
    makes n1 * ... * nj of them. Refused (at the outer loop) exactly when they pass the budget."""
    budget = 2000
    made, copies = 0, 1
    for j, n in enumerate(counts):
        copies *= n
        made += copies * (len(counts) - 1 - j + body)
    program = pl.parse(unroll_nest(tuple(counts), body), filename="unroll_nest.py")
    assert isinstance(program, Program)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(unroll, "MAX_UNROLLED_STATEMENTS", budget)
        if made > budget:
            with pytest.raises(PlError, match=f"more than {budget} statements"):
                unroll_loops(program)
        else:
            unroll_loops(program)


def test_a_tight_address_space_limit_still_compiles(tmp_path: Path) -> None:
    """Under `ulimit -v` 400 MB a 512 MiB stack cannot be mapped ("can't start new thread" was
    exit 123): the stack is an eighth of what the limit allows, and a 100-deep constant still
    compiles."""
    resource = pytest.importorskip("resource")
    path = tmp_path / "limited.py"
    path.write_text(nested_names(100, "[{}]"), encoding="utf-8")

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (400 << 20, resource.getrlimit(resource.RLIMIT_AS)[1]))

    proc = subprocess.run([sys.executable, "-m", "pl.show_inferred", "--no-cache", str(path)],
                          capture_output=True, text=True, preexec_fn=limit, timeout=120,
                          cwd=Path(__file__).resolve().parent.parent)
    assert proc.returncode == 0, proc.stderr
