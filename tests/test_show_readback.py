"""The read-back of show_inferred's output loads the tree assembled from the input's parse
(pl/show_inferred/verify.py), not a parse of the printed text.

* Over the examples, the kernel folders of the suite, the fuzzer's mutants of the examples
  (tests/fuzz_support.py), the generated programs (tests/kernel_strategies.py) and the
  benchmark kernel (bench/generate.py), every tree verification reads back is deep-equal to
  `libcst.parse_module` of the printed text (what Python reads of it): the tree the read-back
  lowers is the one a parse of the output would give.
* The printed text is that tree rendered (nothing else writes it), so a wrong memory space in
  it is in its tree too, and the read-back catches it (it compiles to another program).
* No mode parses the regenerated text with LibCST; the modes that show it read it back.
"""

from __future__ import annotations

import io
import random
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path

import libcst as cst
import pytest
from fuzz_support import mutate
from hypothesis import given
from hypothesis import strategies as st
from kernel_strategies import GeneratedProgram
from test_properties import FAMILIES, SETTINGS

import pl.show_inferred as cli
from bench.generate import kernel_source
from pl.errors import PlError
from pl.ir.stmt import AssignStmt, Stmt
from pl.lowering.source.python import python_view
from pl.show_inferred import annotate
from pl.show_inferred.edit import Spelling
from pl.show_inferred.result import Regenerated
from pl.show_inferred.run import run_text
from pl.show_inferred.verify import verify_output

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))
KERNEL_FOLDERS = ("lowered_cases", "module_function_cases", "inline_cases", "nested_cases",
                  "infer_cases", "residency_cases", "jit_files", "scope_kernels",
                  "spelling_kernels", "constant_dims", "form_cases", "verify_cases")
KERNELS = sorted(p for folder in KERNEL_FOLDERS for p in (ROOT / "tests" / folder).rglob("*.py"))


@pytest.fixture
def verified(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Regenerated]]:
    """Every result verification would be given from here on in the test (its text and its
    tree). The results are recorded, not verified: what is checked here is the tree itself,
    whatever else verification would find (tests/test_show_verify.py verifies)."""
    seen: list[Regenerated] = []

    def recording(r: Regenerated, rerun: Callable[..., Regenerated]) -> None:
        seen.append(r)

    monkeypatch.setattr(annotate, "verify_output", recording)
    yield seen


def assert_assembled_trees_are_the_parse(text: str, name: str, seen: list[Regenerated],
                                         backend: str = "910B") -> int:
    """Regenerates `text`; every tree verification is given to read back is LibCST's parse of
    its printed text. The number of such trees (0 for a file left as written)."""
    del seen[:]
    try:
        run_text(text, name, backend=None if backend == "none" else backend)
    except PlError:
        return 0  # the kernel is refused: nothing is printed
    checked = 0
    for r in seen:
        if r.output == r.text:
            continue
        assert r.tree is not None
        assert r.tree.deep_equals(cst.parse_module(python_view(r.output))), name
        checked += 1
    return checked


@pytest.mark.parametrize("path", EXAMPLES + KERNELS, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_read_back_tree_is_the_parse_of_the_printed_text(
        path: Path, verified: list[Regenerated]) -> None:
    assert_assembled_trees_are_the_parse(path.read_text(encoding="utf-8"), str(path), verified)


def test_the_examples_regenerate_through_an_assembled_tree(verified: list[Regenerated]) -> None:
    # (so that the test above checks trees, not only files left as written)
    assert sum(assert_assembled_trees_are_the_parse(p.read_text(encoding="utf-8"), str(p),
                                                    verified) for p in EXAMPLES) >= len(EXAMPLES) // 2


@pytest.mark.parametrize("seed", range(40))
def test_the_read_back_tree_of_a_fuzzed_kernel_is_the_parse(
        seed: int, verified: list[Regenerated], tmp_path: Path) -> None:
    rng = random.Random(f"readback:{seed}")
    path = EXAMPLES[seed % len(EXAMPLES)]
    mutant = mutate(path.read_text(encoding="utf-8"), rng).text
    assert_assembled_trees_are_the_parse(mutant, str(tmp_path / path.name), verified)


@pytest.mark.parametrize("family", sorted(FAMILIES))
@SETTINGS
@given(data=st.data())
def test_the_read_back_tree_of_a_generated_program_is_the_parse(
        family: str, data: st.DataObject) -> None:
    g: GeneratedProgram = data.draw(FAMILIES[family], label=family)
    backend = data.draw(st.sampled_from(["910B", "950", "none"]), label="backend")
    seen: list[Regenerated] = []
    with pytest.MonkeyPatch.context() as m:
        m.setattr(annotate, "verify_output", lambda r, rerun: seen.append(r))
        assert_assembled_trees_are_the_parse(g.source, "<generated>", seen, backend)


# A one-line suite that gains a move becomes a block (the text is rendered from the tree): a
# change the tree cannot make is found while the function is planned (the function is then
# shown otherwise, with a note), never an internal error while the output's tree is assembled.
ONE_LINE_SUITE = """import pl


@pl.program
class Generated:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[32, 96], pl.FP32], y: pl.Tensor[[32, 96], pl.FP32],
             out: pl.Out[pl.Tensor[[32, 96], pl.FP32]], m: pl.Scalar[pl.INDEX]
             ) -> pl.Tensor[[32, 96], pl.FP32]:
        for rep in pl.range(2):
            with pl.at(level=pl.Level.CORE_GROUP):
                t1 = pl.load(y, [0, 64], [32, 32], target_memory=pl.Mem.Mat)
                out = pl.store(pl.matmul(t1, t1), [0, 32], out)
                if m >= 0: o2 = pl.matmul(t1, t1)
                out = pl.store(t1, [0, 0], out)
        return out
"""


def test_a_one_line_suite_regenerates_and_its_tree_is_the_parse(
        monkeypatch: pytest.MonkeyPatch) -> None:
    run_text(ONE_LINE_SUITE, "<one_line>", backend=None)  # (verified: no internal error)
    r = _unverified(ONE_LINE_SUITE, "<one_line>", monkeypatch)
    assert r.output == r.text or (
        r.tree is not None and r.tree.deep_equals(cst.parse_module(r.output)))


def test_the_read_back_tree_of_the_benchmark_kernel_is_the_parse(
        verified: list[Regenerated]) -> None:
    assert assert_assembled_trees_are_the_parse(kernel_source(300), "<bench>", verified) == 1


# -- a wrong memory space is caught -----------------------------------------------------------
SEED = ROOT / "examples" / "seed_general.py"


def _unverified(text: str, name: str, monkeypatch: pytest.MonkeyPatch) -> Regenerated:
    """The regeneration verification is given (its text and assembled tree)."""
    seen: list[Regenerated] = []
    with monkeypatch.context() as m:
        m.setattr(annotate, "verify_output", lambda r, rerun: seen.append(r))
        run_text(text, name)
    (r,) = seen
    return r


def test_the_printed_text_is_the_tree_read_back(monkeypatch: pytest.MonkeyPatch) -> None:
    good = _unverified(SEED.read_text(encoding="utf-8"), "<seed>", monkeypatch)
    assert good.output != good.text and good.tree is not None and good.output == good.tree.code
    verify_output(good, annotate.rerun(backend="910B", residency=True, program=None))


@pytest.mark.parametrize("where", ["text", "tree", "both"])
def test_a_wrong_space_in_an_inserted_move_is_caught(
        where: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # A bug that spells an inserted move's type with another space: in the printer's text of
    # the move only (which decides only where its line breaks: the file is the tree rendered, so
    # nothing wrong is printed), in the tree only, or in both (the read-back finds it).
    real_statement, real_node = Spelling.statement, Spelling.statement_node

    def wrong(text: str) -> str:
        return text.replace("MemorySpace.Left]", "MemorySpace.Vec]", 1)

    def statement(self: Spelling, s: Stmt, indent: str) -> str:
        text = real_statement(self, s, indent)
        return wrong(text) if where in ("text", "both") else text

    def statement_node(self: Spelling, s: AssignStmt, text: str) -> cst.SimpleStatementLine:
        if where == "text":
            return real_node(self, s, text)
        return cst.parse_statement(textwrap.dedent(wrong(text)))  # (in "both", `text` is wrong)

    monkeypatch.setattr(Spelling, "statement", statement)
    monkeypatch.setattr(Spelling, "statement_node", statement_node)
    path = tmp_path / "k.py"
    path.write_text(SEED.read_text(encoding="utf-8"), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    code = cli.main(["--no-cache", str(path)], stdin=io.StringIO(""), stdout=out, stderr=err)
    if where == "text":
        assert code == 0 and "pl.MemorySpace.Left] = pl.move(" in out.getvalue(), err.getvalue()
        return
    assert (code, out.getvalue()) == (123, ""), err.getvalue()
    assert "read back" in err.getvalue() or "another program" in err.getvalue(), err.getvalue()
