"""Mutation fuzzing: every mutant of every example is compiled correctly or refused with a located error.

The mutation engine (tests/fuzz_support.py) is checked on its own first (determinism, each kind of
edit and of whole-file mutation, the outcome classifier, the output checks, the shrinker). Then a
bounded CI run: `CI_COUNT` seeded mutants of the files in examples/, each run through the CLI's
code path in-process. A failure is any outcome other than exit 0 or a located diagnostic (exit 2,
one `-->`, no traceback), and, per `CI_CHECKS`, an exception class name in what pl says, module
code that ran while compiling, or a successful run whose output does not re-parse, is not a fixed
point, compiles to other programs, or computes other results under `pl.interpret` than the
source. The test prints each distinct failure's reproduction.

The CI run uses every whole-file mutation (`CI_FILE_KINDS`) and every check (`CI_CHECKS`).
`python bench/fuzz.py --count 5000 --seed N` is the long run, with every kind and check by default.
"""

from __future__ import annotations

import random
import re
import resource
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from fuzz_support import (
    CHECKS,
    FILE_KINDS,
    OPS,
    Outcome,
    Report,
    classify,
    describe,
    exception_names,
    fuzz,
    memory_limit,
    mutate,
    mutate_file,
    run_cli,
    shrink,
    signature,
    tokens,
    verify,
)
from interpret_support import compare_results

import pl
from pl.ir.function import Program
from pl.show_inferred.run import show_inferred

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))
CI_COUNT = 150
CI_SEED = 20240607
CI_FILE_KINDS = FILE_KINDS
CI_CHECKS = CHECKS

SMALL = ("import pl\n\n\n@pl.program\nclass K:\n    @pl.function\n"
         "    def f(self, a: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:\n"
         "        b = pl.add(a, a)\n        return b\n")


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Report:
    assert EXAMPLES, "examples/ has no kernel files"
    return fuzz(EXAMPLES, CI_COUNT, CI_SEED, tmp_path_factory.mktemp("fuzz"), timeout=30.0,
                file_kinds=CI_FILE_KINDS, checks=CI_CHECKS)


# -- the engine ---------------------------------------------------------------------------------

def test_mutation_is_deterministic_and_always_changes_the_text() -> None:
    text = EXAMPLES[0].read_text(encoding="utf-8")
    a = [mutate(text, random.Random(f"s:{i}")) for i in range(40)]
    b = [mutate(text, random.Random(f"s:{i}")) for i in range(40)]
    assert a == b
    assert all(m.text != text and m.edits for m in a)
    assert len({m.text for m in a}) > 30  # seeds give different mutants


@pytest.mark.parametrize(("kind", "pattern"), [
    ("delete", r": delete '"),
    ("duplicate", r": duplicate '"),
    ("swap", r": swap '.*' and '"),
    ("name", r": name '\w+' -> '\w+'"),
    ("number", r": number \S+ -> \S+"),
    ("operator", r": operator '.*' -> '"),
    ("drop_line", r": drop '"),
    ("indent", r": indent \d+ -> \d+"),
    ("op_swap", r": op pl\.\w+ -> pl\.\w+"),
    ("keyword_swap", r": keyword '\w+' -> '\w+'"),
    ("inject", r": inject '"),
    ("enclose", r": enclose in '"),
    ("add_kwarg", r": pl\.\w+\(\.\.\., \w+=\S+\)"),
    ("nest_tile_op", r": nest \w+ '"),
    ("scope", r": enclose in 'with pl\.at\(level=pl\.Level\.CORE_GROUP\):'"),
])
def test_every_kind_of_edit_occurs(kind: str, pattern: str) -> None:
    seen = [e for i in range(300) for e in mutate(SMALL, random.Random(i), max_edits=1).edits]
    assert any(re.search(pattern, e) for e in seen), (kind, seen[:20])


def test_single_edits_stay_local() -> None:
    """One edit changes one line, inserts one, drops one, or encloses a run of lines in a loop
    or a branch (one or two header lines, the run itself only indented deeper)."""
    for i in range(100):
        m = mutate(SMALL, random.Random(i), max_edits=1)
        old, new = SMALL.split("\n"), m.text.split("\n")
        if "enclose" in m.edits[0]:
            headers = [ln for ln in new if ln.strip().startswith(("for _e in", "if _e ==", "with pl.at("))]
            assert len(new) - len(old) == len(headers) in (1, 2), m.edits
            assert [ln.strip() for ln in new if ln not in headers] == [ln.strip() for ln in old]
        elif len(old) == len(new):
            assert sum(x != y for x, y in zip(old, new, strict=True)) == 1, m.edits
        elif len(new) > len(old):
            if "write through an if result" in m.edits[0]:
                assert len(new) - len(old) == 5
                continue
            assert len(new) - len(old) == 1 and ("inject" in m.edits[0] or "nest" in m.edits[0])
            assert [ln for ln in new if ln not in old] and all(ln in new for ln in old)
        else:
            assert len(old) - len(new) == 1 and "drop" in m.edits[0]


def test_an_added_keyword_is_mostly_one_the_op_takes() -> None:
    # add_kwarg aims at what a conversion could drop (clamp, atomic, init_value...): a keyword the
    # op does not take is only an "unknown keyword" error. pl.load takes clamp and target_memory.
    text = SMALL.replace("b = pl.add(a, a)", "b = pl.load(a, [0], [64])")
    edits = [e for i in range(100)
             for e in mutate(text, random.Random(i), max_edits=1, kinds=("add_kwarg",)).edits]
    taken = [e for e in edits if re.search(r"pl\.load\(\.\.\., (clamp|target_memory)=", e)]
    assert len(edits) == 100 and len(taken) >= 70, edits[:20]


def test_a_nested_tile_op_is_written_where_the_frontend_keeps_it() -> None:
    """nest_tile_op writes a line's pl call again in a condition, a loop bound, init_values,
    scalar arithmetic or a tuple (issue 30 item 6), each form seen and each mutant parsing."""
    text = SMALL.replace("pl.Tensor[[64], pl.FP32]", "pl.Tensor[[16, 16], pl.FP32]").replace(
        "@pl.function\n", "@pl.function(type=pl.FunctionType.InCore)\n").replace(
        "b = pl.add(a, a)", "t = pl.load(a, [0, 0], [16, 16])\n        b = pl.exp(t)\n"
                            "        a = pl.store(b, [0, 0], a)").replace("return b", "return a")
    kinds = set()
    for i in range(60):
        m = mutate(text, random.Random(i), max_edits=1, kinds=("nest_tile_op",))
        kinds.add(m.edits[0].split()[3])
        compile(m.text, "<mutant>", "exec")
    assert kinds == {"if", "while", "range", "init_values", "scalar", "tuple"}, kinds


def test_an_annotated_space_is_written_into_a_tile_annotation() -> None:
    """annotate_space gives a tile annotation a random memory space (issue 30 item 7): after its
    dtype, or in place of the space it names."""
    line = "        t: pl.Tile[[16, 16], pl.FP32{}] = pl.load(a, [0, 0], [16, 16])"
    for written in ("", ", pl.MemorySpace.Vec"):
        text = SMALL.replace("        b = pl.add(a, a)", line.format(written))
        seen = set()
        for i in range(40):
            m = mutate(text, random.Random(i), max_edits=1, kinds=("annotate_space",))
            new = next(ln for ln in m.text.split("\n") if "pl.Tile[" in ln)
            found = re.search(r"pl\.Tile\[\[16, 16\], pl\.FP32, pl\.MemorySpace\.(\w+)\] = ", new)
            assert found, new
            seen.add(found[1])
        assert len(seen) >= 4, seen


def test_op_swaps_pick_real_ops() -> None:
    assert all(callable(getattr(pl, op, None)) for op in OPS)


@pytest.mark.parametrize("kind", FILE_KINDS)
def test_every_whole_file_mutation_is_deterministic_and_changes_the_text(kind: str) -> None:
    text = EXAMPLES[0].read_text(encoding="utf-8")
    a = [mutate_file(text, random.Random(i), [kind]) for i in range(20)]
    assert a == [mutate_file(text, random.Random(i), [kind]) for i in range(20)]
    assert all(m.text != text and m.edits and m.kind == kind for m in a)


def test_whole_file_mutations_do_what_they_say() -> None:
    text = SMALL
    bom = mutate_file(text, random.Random(0), ["bom"])
    assert bom.text == "\ufeff" + text
    assert mutate_file(text, random.Random(0), ["crlf"]).text == text.replace("\n", "\r\n")
    deep = [mutate_file(text, random.Random(i), ["deep_parens"]).text for i in range(30)]
    assert any("(" * 3000 in t for t in deep) and any("(((" in t and "(" * 60 not in t for t in deep)
    nested = [mutate_file(text, random.Random(i), ["deep_blocks"]) for i in range(30)]
    assert any(m.text.count("if True:") == 101 for m in nested)
    huge = [mutate_file(text, random.Random(i), ["huge_number"]).text for i in range(30)]
    assert any("9" * 5000 in t for t in huge)
    effects = {mutate_file(text, random.Random(i), ["side_effect"]).text.split("\n")[1]
               for i in range(60)}
    assert "raise SystemExit(3)" in effects and 'open(__file__ + ".ran", "w").close()' in effects


def test_tokens_skip_layout_and_survive_broken_text() -> None:
    toks = tokens("x = f(1)  # c\n")
    assert [t.text for t in toks] == ["x", "=", "f", "(", "1", ")"]
    assert tokens("x = (\n") == [] or all(t.text for t in tokens("x = (\n"))


LOCATED = "Error: bad\n  --> k.py:3:5\n   |\n"


@pytest.mark.parametrize(("status", "out", "err", "kind"), [
    (0, "import pl\n", "", "ok"),
    (2, "", LOCATED, "diagnostic"),
    (2, "", "Error: no span\n", "unlocated"),
    (2, "", LOCATED + LOCATED, "unlocated"),  # two diagnostics for one file
    (123, "", "internal error in pl", "status"),
    (1, "", "", "status"),
    (2, "", "Traceback (most recent call last):\n" + LOCATED, "traceback"),
    (0, "Traceback (most recent call last):\n", "", "traceback"),
    (2, "", "Error: KeyError: 'x'\n  --> k.py:3:5\n", "exception_name"),
    (2, "", "Error: bad\n  --> k.py:3:5\n   = help: caught SystemExit\n", "exception_name"),
    (0, "", "k.py:3:1: note: PlError raised\n", "exception_name"),
    # the user's own words, quoted: a source line, a name in quotes
    (2, "", "Error: bad\n  --> k.py:3:5\n3 | raise ValueError(x)\n", "diagnostic"),
    (2, "", "Error: Undefined variable 'MyError'\n  --> k.py:3:5\n", "diagnostic"),
])
def test_classify(status: int, out: str, err: str, kind: str) -> None:
    assert classify(status, out, err).kind == kind


def test_signature_names_the_exception_and_the_innermost_package_frame() -> None:
    detail = ('Traceback (most recent call last):\n'
              f'  File "{ROOT}/tests/fuzz_support.py", line 9, in run\n'
              f'  File "{ROOT}/lowering/frontend.py", line 283, in lower_class\n'
              '  File "/tmp/pl_fuzz_x/m1_2_k.py", line 4, in <module>\n'  # the mutant: not pl
              "    assert isinstance(node, cst.ClassDef)\nAssertionError\n")
    sig = signature(Outcome("crash", None, "", "", detail))
    assert sig == "crash AssertionError at frontend.py:283 in lower_class"
    unloc = signature(Outcome("unlocated", 2, "", "Error: offset 3 of 'x' is bad\n"))
    assert unloc == "unlocated Error: offset _ of _ is bad"


def test_exception_names_skip_quoted_source() -> None:
    err = "Error: TypeError: no\n  --> k.py:2:1\n   |\n 2 | x = KeyError\n   |\n"
    assert exception_names(err) == ["TypeError"]


# A tile kernel the interpreter runs, whose inferred form differs from it.
TILES = (ROOT / "examples" / "orchestrated_add.py").read_text(encoding="utf-8")
OTHER_TILES = TILES.replace("pl.add(a_tile, b_tile)", "pl.sub(a_tile, b_tile)")


def test_verify_passes_a_good_run_and_names_each_broken_invariant(tmp_path: Path) -> None:
    good = run_cli(TILES, tmp_path, "k")
    assert good.kind == "ok" and good.out != TILES and verify(good, tmp_path, "k") is good

    def ok_with(out: str) -> Outcome:
        return Outcome("ok", 0, out, "")

    assert verify(ok_with("side effect\n" + good.out), tmp_path, "k").kind == "reparse"
    assert verify(ok_with(TILES), tmp_path, "k").kind == "not_fixed_point"  # not inferred yet
    other = show_inferred(OTHER_TILES)
    assert verify(ok_with(other), tmp_path, "k").kind == "compile_differs"
    assert verify(Outcome("diagnostic", 2, "", ""), tmp_path, "k").kind == "diagnostic"


def test_compare_results_tells_same_differs_and_skipped() -> None:
    add = pl.parse(TILES)
    sub = pl.parse(OTHER_TILES)
    dynamic = pl.parse("N = pl.dynamic('N')\n" + SMALL.replace("[[64]", "[[N]"))
    assert isinstance(add, Program) and isinstance(sub, Program) and isinstance(dynamic, Program)
    assert compare_results(add, add) == "same"
    assert compare_results(add, sub).startswith("differs: result 0")
    assert compare_results(dynamic, dynamic).startswith("skipped: ")


TASK_IDS = """import pl


@pl.program
class T:
    @pl.function
    def kernel(self) -> pl.Scalar[pl.TASK_ID]:
        return pl.system.task_invalid()

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self) -> pl.Scalar[pl.TASK_ID]:
        return self.kernel()
"""


def test_compare_results_compares_task_id_results() -> None:
    # A task id is an object, not a number: the NaN-aware comparison raised on it, so the fuzzer
    # reported every kernel returning one (a mutant of a corpus kernel found it) as differing.
    invalid = pl.parse(TASK_IDS)
    valid = pl.parse(TASK_IDS.replace("return self.kernel()",
                                      "a, tid = pl.submit(self.kernel)\n        return tid"))
    assert isinstance(invalid, Program) and isinstance(valid, Program)
    assert compare_results(invalid, pl.compile(invalid, backend="910B").program) == "same"
    assert compare_results(valid, pl.compile(valid, backend="910B").program) == "same"
    assert compare_results(invalid, valid).startswith("differs: result 0")


INCORE_RETURNING = """import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[16, 16], pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:
        r = pl.tensor.OP(a, a)
        return r
"""


def test_compare_results_feeds_the_out_parameter_compiling_adds() -> None:
    # An InCore entry returning a tensor gets a `ret0__out` parameter once compiled (as in the
    # reference): the comparison failed on the argument count, where both compute the same.
    add = pl.parse(INCORE_RETURNING.replace("OP", "add"))
    assert isinstance(add, Program)
    compiled = pl.compile(add, backend="910B").program
    assert len(compiled.functions[0].params) == 2
    assert compare_results(add, compiled) == "same"
    mul = pl.compile(pl.parse(INCORE_RETURNING.replace("OP", "mul")), backend="910B").program
    assert compare_results(add, mul).startswith("differs: result 0")


def test_shrink_keeps_the_failure_and_drops_the_rest() -> None:
    text = "\n".join(f"line{i}" for i in range(30)) + "\nBOOM\n"
    small = shrink(text, lambda t: "BOOM" in t)
    assert "BOOM" in small and len(small.split("\n")) <= 2


def test_run_cli_reports_a_located_diagnostic(tmp_path: Path) -> None:
    out = run_cli(SMALL.replace("pl.add(a, a)", "pl.add(a, nope)"), tmp_path, "undefined")
    assert out.kind == "diagnostic", out
    assert f"{tmp_path / 'undefined.py'}:8:" in out.err
    assert run_cli(SMALL, tmp_path, "fine").kind == "ok"


# -- the CI fuzz run ----------------------------------------------------------------------------

def test_fuzz_run_covers_both_outcomes_and_every_chosen_mutation(report: Report) -> None:
    assert report.cases == CI_COUNT
    assert sum(report.kinds.values()) == CI_COUNT
    assert report.kinds.get("diagnostic", 0) > 0
    assert report.kinds.get("ok", 0) > 0  # some edits are harmless (e.g. a renamed local)
    assert set(report.mutations) == {"edit", *CI_FILE_KINDS}, report.mutations
    assert set(CI_FILE_KINDS) <= set(FILE_KINDS) and set(CI_CHECKS) <= set(CHECKS)


def test_fuzz_mutants_succeed_or_fail_cleanly(report: Report) -> None:
    texts = {p.name: p.read_text(encoding="utf-8") for p in EXAMPLES}
    failures = [describe(f, texts[f.source]) for f in report.failures.values()]
    assert not failures, "\n\n".join(failures)


# -- direct reproductions of the bugs the fuzzer found --------------------------------------------

_NEG_SLICE = ("import pl\n\n\n@pl.program\nclass K:\n    @pl.function(type=pl.FunctionType.InCore)\n"
              "    def f(self, x: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]])"
              " -> pl.Tensor[[16, 64], pl.FP32]:\n"
              "        s = pl.slice(x, [16, 64], [0, -1])\n"
              "        out = pl.assemble(out, s, [0, 0])\n        return out\n")


@pytest.mark.parametrize("text", [_NEG_SLICE], ids=["negative_slice"])
def test_pass_errors_are_located(text: str, tmp_path: Path) -> None:
    out = run_cli(text, tmp_path, "repro")
    assert out.status == 2, out
    assert out.kind == "diagnostic", out.err
    assert f"{tmp_path / 'repro.py'}:8:" in out.err


_YIELD_NOT_LAST = ("import pl\n\n\n@pl.program\nclass K:\n    @pl.function\n"
                   "    def f(self, a: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX])"
                   " -> pl.Tensor[[64], pl.FP32]:\n"
                   "        if n > 0:\n            r = pl.yield_(a)\n            b = pl.add(a, a)\n"
                   "        else:\n            r = pl.yield_(a)\n        return r\n")


def test_yield_not_last_is_a_located_error(tmp_path: Path) -> None:
    out = run_cli(_YIELD_NOT_LAST, tmp_path, "repro")
    assert out.kind == "diagnostic", out.err
    assert f"{tmp_path / 'repro.py'}:9:" in out.err


@pytest.mark.parametrize("obj", ["pl.range", "pl.slice", "pl.yield_"])
def test_dsl_object_misused_at_module_level_is_located(obj: str, tmp_path: Path) -> None:
    text = SMALL.replace("@pl.program", f"@{obj}")
    out = run_cli(text, tmp_path, "repro")
    assert out.kind == "diagnostic", out.err
    assert f"{tmp_path / 'repro.py'}:4:" in out.err


def _panel_kernel(scale: str = "") -> Program:
    """examples/ktiled_panel.py's kernel alone (its orchestrator feeds it zeros), each block of the
    product multiplied by `scale` when given (a program that computes something else)."""
    text = (Path(__file__).resolve().parent.parent / "examples" / "ktiled_panel.py").read_text()
    text = text[:text.index("    @pl.function(type=pl.FunctionType.Orchestration)")]
    if scale:
        text = text.replace("acc_next = pl.assemble(acc, c_n,",
                            f"acc_next = pl.assemble(acc, pl.mul(c_n, {scale}),")
    program = pl.parse(text)
    assert isinstance(program, Program)
    return program


def test_a_k_split_computes_the_whole_products_bits() -> None:
    """auto_tile_matmul_l0 splits the [128, 512] x [512, 64] FP32 product into K blocks chained
    through matmul_acc; the interpreter sums every product in K order from its accumulator, so
    the split computes the whole product's very bits on random data (the fuzzer excuses no
    rounding), and a program that computes something else on the same data differs."""
    source = _panel_kernel()
    compiled = pl.compile(source, backend="910B")
    assert "pl.tile.matmul_acc(" in compiled.as_python()
    tiled = compiled.program
    assert compare_results(source, tiled, seeds=2) == "same"
    scaled = pl.compile(_panel_kernel("1.001"), backend="910B").program
    assert compare_results(source, scaled, seeds=1).startswith("differs: result")


def test_a_source_too_long_to_interpret_is_not_a_failure(tmp_path: Path) -> None:
    """2**31 spmd blocks compile at once, but no interpreter runs them in the time a check
    has: with the source itself that slow there is nothing to compare, which is no failure."""
    text = (ROOT / "examples" / "task_scopes.py").read_text(encoding="utf-8")
    assert "pl.spmd(4," in text
    outcome = run_cli(text.replace("pl.spmd(4,", "pl.spmd(2147483648,", 1), tmp_path, "k")
    assert outcome.kind == "ok"
    assert verify(outcome, tmp_path, "k", timeout=1.0) is outcome


def test_the_long_run_skips_a_blank_file_it_cannot_mutate(tmp_path: Path) -> None:
    # A package's empty __init__.py among the files of a folder stopped the run with a traceback.
    blank = tmp_path / "__init__.py"
    blank.write_text("")
    kernel = tmp_path / "k.py"
    kernel.write_text(SMALL)
    run = subprocess.run([sys.executable, str(ROOT / "bench" / "fuzz.py"), "--count", "2",
                          "--file-share", "0", str(blank), str(kernel)],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert f"skipped 1 blank file(s): {blank}" in run.stderr
    assert "fuzz: 2 cases from 1 file(s)" in run.stdout


def test_the_long_run_mutates_the_kernels_a_corpus_run_compiled(tmp_path: Path) -> None:
    # `--corpus OUT_DIR` seeds the run with the reference's own kernels: those of a corpus run
    # (../shared/corpus/run.py) that compiled there, each in a file named after its id.
    import json

    (tmp_path / "shards").mkdir()
    records = [{"id": "tests/a.py:3:K", "status": "ready", "src": SMALL},
               {"id": "tests/b.py:9:Bad", "status": "ready", "src": "import pl\nx = (\n"},
               {"id": "tests/c.py:1:Ctx", "status": "needs_context"}]
    (tmp_path / "shards" / "shard0.in.jsonl").write_text(
        "".join(json.dumps(r) + "\n" for r in records))
    (tmp_path / "results.jsonl").write_text(
        json.dumps({"id": "tests/a.py:3:K", "outcome": "ok"}) + "\n"
        + json.dumps({"id": "tests/b.py:9:Bad", "outcome": "user_error"}) + "\n")
    run = subprocess.run([sys.executable, str(ROOT / "bench" / "fuzz.py"), "--count", "3",
                          "--file-share", "0", "--corpus", str(tmp_path)],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "fuzz: 3 cases from 1 file(s)" in run.stdout


def test_a_file_no_chosen_edit_applies_to_is_counted_not_fatal(tmp_path: Path) -> None:
    # `--edit-kinds enclose` on a file without a one-line statement in a function stopped the run.
    kernel = tmp_path / "k.py"
    kernel.write_text("import pl\n")
    report = fuzz([kernel], 3, 0, tmp_path, file_share=0.0, edit_kinds=("enclose",),
                  checks=())
    assert report.kinds == {"unmutable": 3} and report.cases == 0


def test_interpreting_a_mutant_gets_a_bounded_allowance_of_memory() -> None:
    # A mutated shape made numpy take 24 GiB, and the kernel killed the whole fuzz run for it:
    # past its allowance an allocation now fails, and the limit before comes back afterwards.
    before = resource.getrlimit(resource.RLIMIT_AS)
    with pytest.raises(MemoryError), memory_limit(256 << 20):
        np.empty(1 << 31, dtype=np.uint8)  # 2 GiB of address space
    assert resource.getrlimit(resource.RLIMIT_AS) == before


# -- in-place writes between uses ----------------------------------------------------------------

# A tile kernel whose values live in every space: Mat operands moved to Left / Right for several
# matmuls (one through a Mat slice), a Vec tile moved to Left, Acc accumulators (one carried by a
# loop). A write between two uses of any of them must reach the second.
SPACES = '''import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def main(self, x: pl.Tensor[[16, 128], pl.BF16], y: pl.Tensor[[128, 128], pl.BF16],
             out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
        a = pl.load(x, [0, 0], [16, 128], target_memory=pl.MemorySpace.Mat)
        b = pl.load(y, [0, 0], [128, 128], target_memory=pl.MemorySpace.Mat)
        v = pl.load(x, [0, 0], [16, 128])
        s = pl.slice(b, [128, 128], [0, 0])
        c = pl.matmul(a, b)
        d = pl.matmul(v, s)
        e = pl.matmul_acc(c, a, b)
        for i in pl.range(2):
            e = pl.matmul_acc(e, v, s)
        f = pl.add(e, d)
        r = pl.store(f, [0, 0], out)
        return r
'''


def test_in_place_writes_between_uses_keep_the_results(tmp_path: Path) -> None:
    """The `write_between` edit (an in-place write of a value before a later reader of it) on
    `SPACES`: each mutant compiles to a program computing what it computes, or is a located
    diagnostic (a write the op cannot do in that space: none is)."""
    kernel = tmp_path / "spaces.py"
    kernel.write_text(SPACES, encoding="utf-8")
    report = fuzz([kernel], 40, CI_SEED, tmp_path, file_share=0.0, edit_kinds=("write_between",))
    failures = [describe(f, SPACES) for f in report.failures.values()]
    assert not failures, "\n\n".join(failures)
    assert report.kinds.get("ok", 0) >= 30, report.kinds


def test_in_place_writes_through_an_if_result_of_two_spaces_keep_the_results(
        tmp_path: Path) -> None:
    """The `diverge` edit (an in-place write through an if result that is a value on one path
    and another tile, often in another space, on the other) on `SPACES`: each mutant compiles
    to a program computing what it computes, or is a located diagnostic (the write would reach a
    copy compiling makes of one of the two); at the commit before the located error some
    computed other results."""
    kernel = tmp_path / "spaces.py"
    kernel.write_text(SPACES, encoding="utf-8")
    report = fuzz([kernel], 30, CI_SEED, tmp_path, file_share=0.0, edit_kinds=("diverge",))
    failures = [describe(f, SPACES) for f in report.failures.values()]
    assert not failures, "\n\n".join(failures)
    assert report.kinds.get("ok", 0) >= 5, report.kinds
