"""show_inferred never loses the user's text and verifies what it prints (pl/show_inferred/verify.py).

For every example, the kernels below and generated programs (tests/kernel_strategies.py, with a
comment on and before every line and a docstring in every function):
* every comment and every docstring of the input appears in the output of every mode that prints
  the file (default, `--diff`, `--write`);
* every printed text (default, `--diff`'s new side, `--write`'s file, each program's `--ir`)
  reads back, compiles to the input's compiled programs and is a fixed point (`--check` exits 0).
The CLI's verification runs on every call; these tests check the same facts independently.
"""

from __future__ import annotations

import ast
import dataclasses
import io
import re
import tokenize
from collections import Counter
from pathlib import Path
from typing import Any

import libcst as cst
import pytest
from hypothesis import given
from hypothesis import strategies as st
from interpret_support import compare_results
from kernel_strategies import GeneratedProgram
from test_properties import FAMILIES, SETTINGS

import pl
import pl.show_inferred as cli
from pl.errors import InternalError, package_version
from pl.lowering.frontend.parse import parse
from pl.lowering.source.pieces import parse_in_pieces
from pl.show_inferred.annotate import rerun
from pl.show_inferred.imports import dsl_root
from pl.show_inferred.result import Regenerated
from pl.show_inferred.run import run_text
from pl.show_inferred.verify import ir_text, verify_output
from pl.structural import assert_structural_equal, structural_equal

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = cli.main(["--no-cache", *argv], stdin=io.StringIO(""), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


# -- what the user wrote ------------------------------------------------------------------------
def comments(text: str) -> Counter[str]:
    tokens = tokenize.generate_tokens(io.StringIO(text).readline)
    return Counter(t.string for t in tokens if t.type == tokenize.COMMENT)


def docstrings(text: str) -> dict[str, str | None]:
    out: dict[str, str | None] = {"<module>": ast.get_docstring(ast.parse(text))}

    def walk(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.ClassDef | ast.AsyncFunctionDef):
                name = f"{prefix}{child.name}"
                out[name] = ast.get_docstring(child)
                walk(child, name + ".")

    walk(ast.parse(text), "")
    return out


def assert_keeps_the_users_text(before: str, after: str) -> None:
    lost = comments(before) - comments(after)
    assert not lost, f"comments lost: {sorted(lost)}"
    docs, docs_after = docstrings(before), docstrings(after)
    for name, doc in docs.items():
        if doc is not None:
            assert docs_after.get(name) == doc, f"docstring of {name} lost"


def new_side_of_diff(before: str, diff: str) -> str:
    """The file a unified diff of `before` describes (what `patch` would make of it)."""
    old = before.splitlines(keepends=True)
    out: list[str] = []
    at = 0
    lines = diff.splitlines(keepends=True)
    i = 0
    while i < len(lines):
        m = re.match(r"@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@", lines[i])
        i += 1
        if m is None:
            continue
        start = int(m[1]) - (0 if m[2] == "0" else 1)
        out.extend(old[at:start])
        at = start
        while i < len(lines) and not lines[i].startswith("@@"):
            ln = lines[i]
            i += 1
            if ln.startswith("\\"):
                out[-1] = out[-1].rstrip("\n")
                continue
            if ln.startswith(" "):
                out.append(ln[1:])
                at += 1
            elif ln.startswith("-"):
                at += 1
            elif ln.startswith("+"):
                out.append(ln[1:])
    out.extend(old[at:])
    return "".join(out)


# -- the invariant, through the command ---------------------------------------------------------
def check_every_mode(text: str, tmp_path: Path, name: str = "kernel.py",
                     backend: str = "910B") -> None:
    def run_on(argv: list[str]) -> tuple[int, str, str]:
        return run(["--backend", backend, *argv])

    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    code, printed, err = run_on([str(path)])
    assert code == 0, err
    assert "internal error" not in err
    assert_keeps_the_users_text(text, printed)

    code, diff, _ = run_on(["--diff", str(path)])
    assert code == 0
    assert new_side_of_diff(text, diff) == printed

    code, ir, _ = run_on(["--ir", str(path)])
    assert code == 0

    options = {"backend": None if backend == "none" else backend}
    first = run_text(text, str(path), **options)
    assert first.output == printed
    for shown in (printed, ir):  # each reads back to the input's programs and is a fixed point
        again = tmp_path / f"again_{name}"
        again.write_text(shown, encoding="utf-8")
        assert run_on(["--check", str(again)])[0] == 0
        reread = run_text(shown, str(again), **options)
        if shown is printed:
            pairs = zip(first.compiled, reread.compiled, strict=True)
        else:
            pairs = zip(first.compiled, reread.compiled, strict=True) if len(first.compiled) == 1 \
                else iter(())
        for a, b in pairs:
            assert structural_equal(a.program, b.program)

    assert run_on(["--write", str(path)])[0] == 0
    assert path.read_text(encoding="utf-8") == printed
    assert run_on(["--check", str(path)])[0] == 0


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.stem)
def test_examples_keep_comments_and_verify_in_every_mode(example: Path, tmp_path: Path) -> None:
    check_every_mode(example.read_text(encoding="utf-8"), tmp_path, example.name)


# -- generated programs, decorated with comments and docstrings ----------------------------------
class _Docstrings(cst.CSTTransformer):
    def leave_FunctionDef(self, original_node: cst.FunctionDef, updated_node: cst.FunctionDef
                          ) -> cst.FunctionDef:
        body = updated_node.body
        assert isinstance(body, cst.IndentedBlock)
        doc = cst.SimpleStatementLine([cst.Expr(cst.SimpleString(
            f'"""What {original_node.name.value} does."""'))])
        return updated_node.with_changes(body=body.with_changes(body=[doc, *body.body]))


def commented(source: str) -> str:
    """`source` with a docstring in every function, a comment line before every line and a
    trailing comment on every line (comments are legal anywhere a line ends)."""
    text = cst.parse_module(source).visit(_Docstrings()).code
    out = []
    for n, line in enumerate(text.splitlines()):
        if not line.strip():
            out.append(line)
            continue
        indent = line[:len(line) - len(line.lstrip())]
        if not line.rstrip().endswith('"""') and '"""' not in line:
            out.append(f"{indent}# about line {n}")
            out.append(f"{line}  # on line {n}")
        else:
            out.append(line)
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("family", sorted(FAMILIES))
@SETTINGS
@given(data=st.data())
def test_generated_programs_keep_comments_and_verify_in_every_mode(
        family: str, data: st.DataObject, tmp_path_factory: pytest.TempPathFactory) -> None:
    g: GeneratedProgram = data.draw(FAMILIES[family], label=family)
    backend = data.draw(st.sampled_from(["910B", "950", "none"]), label="backend")
    check_every_mode(commented(g.source), tmp_path_factory.mktemp("gen"), backend=backend)


@pytest.mark.parametrize("family", sorted(FAMILIES))
@SETTINGS
@given(data=st.data())
def test_generated_programs_are_verified_or_refused_on_every_backend(
        family: str, data: st.DataObject, tmp_path_factory: pytest.TempPathFactory) -> None:
    """On any backend, a mode either prints a verified text (exit 0) or refuses (exit 123, the
    internal-error line, the file untouched): an unverified text never leaves."""
    g: GeneratedProgram = data.draw(FAMILIES[family], label=family)
    backend = data.draw(st.sampled_from(["910B", "950", "none"]), label="backend")
    text = commented(g.source)
    path = tmp_path_factory.mktemp("any") / "kernel.py"
    path.write_text(text, encoding="utf-8")
    for mode in ([], ["--diff"], ["--ir"], ["--write"]):
        code, out, err = run(["--backend", backend, *mode, str(path)])
        if code == 123:
            assert out == "" and f"internal error in pl {package_version()}: " in err
            assert path.read_text(encoding="utf-8") == text
            continue
        assert code == 0, err
        shown = path.read_text(encoding="utf-8") if mode == ["--write"] else \
            new_side_of_diff(text, out) if mode == ["--diff"] else out
        if mode != ["--ir"]:
            assert_keeps_the_users_text(text, shown)
        again = path.with_name("again.py")
        again.write_text(shown, encoding="utf-8")
        assert run(["--backend", backend, "--check", str(again)])[0] == 0
        path.write_text(text, encoding="utf-8")


# -- the cases that used to break verification ---------------------------------------------------
def _kernel(head: str, body: str, p: str = "pl") -> str:
    return f'''{head}


@{p}.program
class K:
    @{p}.function(type={p}.FunctionType.InCore)
    def kernel(self, x: {p}.Tensor[[16, 128], {p}.BF16], y: {p}.Tensor[[128, 128], {p}.BF16],
               out: {p}.Out[{p}.Tensor[[16, 128], {p}.FP32]]) -> {p}.Tensor[[16, 128], {p}.FP32]:
        """The seed's kernel."""
{body}
'''


SEED_BODY = '''        a = {p}load(x, [0, 0], [16, 128])  # lhs
        b = {p}load(y, [0, 0], [128, 128])
        # the product
        c = {p}matmul(a, b)
        out = {p}store(c, [0, 0], out)
        return out'''


def test_import_pl_as_alias_spells_the_alias(tmp_path: Path) -> None:
    text = _kernel("import pl as p", SEED_BODY.format(p="p."), "p")
    check_every_mode(text, tmp_path)
    out = run_text(text, "<alias>").output
    assert "p.Tile[[16, 128], p.BF16, p.MemorySpace.Vec]" in out and "p.move(" in out
    assert "pl." not in out


FROM_IMPORT = '''from pl import BF16, FP32, FunctionType, Out, Tensor, function, load, matmul, program, store


@program
class K:
    @function(type=FunctionType.InCore)
    def kernel(self, x: Tensor[[16, 128], BF16], y: Tensor[[128, 128], BF16],
               out: Out[Tensor[[16, 128], FP32]]) -> Tensor[[16, 128], FP32]:
''' + SEED_BODY.format(p="") + "\n"


def test_from_pl_import_gains_import_pl(tmp_path: Path) -> None:
    check_every_mode(FROM_IMPORT, tmp_path)
    out = run_text(FROM_IMPORT, "<from>").output
    assert out.startswith(FROM_IMPORT.splitlines()[0] + "\nimport pl\n")


def test_from_pl_import_with_pl_taken_is_left_as_written(tmp_path: Path) -> None:
    text = FROM_IMPORT.replace("\n\n\n@program", "\npl = 'not the dsl'\n\n\n@program")
    path = tmp_path / "k.py"
    path.write_text(text, encoding="utf-8")
    code, out, err = run([str(path)])
    assert (code, out) == (0, text) and "left as written" in err
    code, ir, _ = run(["--ir", str(path)])  # still compiled: the compiled form is shown
    assert code == 0 and "pl.tile.matmul(" in ir


@pytest.mark.parametrize("depth", [150, 195])
def test_a_line_the_annotation_would_take_over_the_operator_limit_is_shown_as_it_compiles(
        depth: int, tmp_path: Path) -> None:
    """The reader refuses a line of more than MAX_LINE_OPERATORS operators; a value in deep
    parentheses that the input could hold is not pushed over it by the annotation shown: the
    function is shown as it compiles instead (its statements printed, without the parentheses)."""
    text = ("import pl\n\n\n@pl.program\nclass P:\n    @pl.function(type=pl.FunctionType.InCore)\n"
            "    def k(self, x: pl.Tensor[[16, 16], pl.FP32],\n"
            "          out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:\n"
            f"        t = {'(' * depth}pl.load(x, [0, 0], [16, 16]){')' * depth}\n"
            "        out = pl.store(t, [0, 0], out)\n        return out\n")
    check_every_mode(text, tmp_path)
    code, out, err = run([str(tmp_path / "kernel.py")])
    assert code == 0 and out != text  # (the file holds the output `--write` wrote)
    assert "left as written" not in err


@pytest.mark.parametrize(("source", "root"), [
    ("import pl\n", "pl"), ("import pl as p\n", "p"), ("import pypto.language as pl\n", "pl"),
    ("from pypto import language as pl\n", "pl"), ("import pypto.language\n", "pypto.language"),
    ("import os\nimport pl as q, sys\n", "q"), ("from pl import Tile\n", "pl"),
])
def test_dsl_root(source: str, root: str) -> None:
    found = dsl_root(cst.parse_module(source))
    assert found is not None and found.name == root
    assert bool(found.import_line) == source.startswith("from pl")


THREE_D = '''import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[2, 16, 128], pl.FP32],
               out: pl.Out[pl.Tensor[[2, 16, 128], pl.FP32]]) -> pl.Tensor[[2, 16, 128], pl.FP32]:
{body}
        out = pl.store(b, [0, 0, 0], out)
        return out
'''


@pytest.mark.parametrize(("body", "shown"), [
    ("""        a: pl.Tile[[2, 16, 128], pl.FP32] = pl.load(x, [0, 0, 0], [2, 16, 128])
        b = pl.add(a, a)""",
     ["a: pl.Tile[[2, 16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.load(",
      "b: pl.Tile[[2, 16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.add("]),
    # A Mat load retargeted to Vec, carried through a loop: the loop's values keep the user's
    # shape and take the layout inference chose (not the Mat layout the frontend first gave).
    ("""        a = pl.load(x, [0, 0, 0], [2, 16, 128], target_memory=pl.MemorySpace.Mat)
        for i, (acc,) in pl.range(2, init_values=(a,)):
            s = pl.add(acc, acc)
            b = pl.yield_(s)""",
     ["s: pl.Tile[[2, 16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.add(",
      "b: pl.Tile[[2, 16, 128], pl.FP32, pl.MemorySpace.Vec] = pl.yield_("]),
], ids=["straight", "loop"])
def test_three_dimensional_tile_keeps_the_users_shape(body: str, shown: list[str],
                                                      tmp_path: Path) -> None:
    text = THREE_D.format(body=body)
    path = tmp_path / "k.py"
    path.write_text(text, encoding="utf-8")
    out = run_text(text, str(path)).output  # verified inside
    for line in shown:
        assert line in out
    code, printed, _ = run([str(path)])
    assert (code, printed) == (0, out)
    assert_keeps_the_users_text(text, out)
    path.write_text(out, encoding="utf-8")
    assert run(["--check", str(path)])[0] == 0


def test_empty_valid_shape_reads_back(tmp_path: Path) -> None:
    body = '''        a = pl.load(x, [0, 0], [16, 128], valid_shape=[0, 0])
        b = pl.load(y, [0, 0], [128, 128])
        c = pl.matmul(a, b)
        out = pl.store(c, [0, 0], out)
        return out'''
    text = _kernel("import pl", body)
    check_every_mode(text, tmp_path)
    assert "pl.TileView(valid_shape=[0, 0])" in run_text(text, "<valid>").output


def test_negative_valid_shape_in_an_annotation_is_a_located_error(tmp_path: Path) -> None:
    body = '''        a: pl.Tile[[16, 128], pl.BF16, pl.TileView(valid_shape=[-1, 0])] = pl.load(x, [0, 0], [16, 128])
        return out'''
    path = tmp_path / "k.py"
    path.write_text(_kernel("import pl", body), encoding="utf-8")
    code, _, err = run([str(path)])
    assert code == 2 and "Dimension must be an integer >= 0, got -1" in err and "k.py:10:" in err


# -- a failed verification ----------------------------------------------------------------------
def test_a_text_that_does_not_read_back_is_an_internal_error() -> None:
    text = (ROOT / "examples" / "seed_general.py").read_text(encoding="utf-8")
    good = run_text(text, "<seed>")
    again = rerun(backend="910B", residency=True, program=None)
    for broken, needle in [
        # (a move annotated with a space it does not move to is refused when read back)
        (good.output.replace("pl.MemorySpace.Left]", "pl.MemorySpace.Right]", 1), "read back"),
        (good.output.replace("pl.matmul(", "pl.add(", 1), "read back"),
        (good.output.replace("x_tile_Left: pl.Tile[[16, 128], pl.BF16, pl.MemorySpace.Left]",
                             "x_tile_Left", 1), "not a fixed point"),
    ]:
        assert broken != good.output
        # (read back from the tree LibCST parses the broken text to: the tree verification
        # loads renders to the text it checks, tests/test_show_readback.py)
        bad = Regenerated(good.filename, good.text, broken, good.compiled,
                          tree=cst.parse_module(broken))
        with pytest.raises(InternalError, match=needle):
            verify_output(bad, again)
    verify_output(dataclasses.replace(good, tree=cst.parse_module(good.output)), again)


def test_internal_error_exits_123_and_writes_nothing(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "k.py"
    text = (ROOT / "examples" / "seed_general.py").read_text(encoding="utf-8")
    path.write_text(text, encoding="utf-8")

    def failing(*args: object, **kwargs: object) -> Regenerated:
        raise InternalError("k.py: the regenerated file does not read back")

    monkeypatch.setattr("pl.show_inferred.run.run_text", failing)
    code, out, err = run(["--write", str(path)])
    assert (code, out) == (123, "")
    assert f"internal error in pl {package_version()}: k.py: the regenerated file" in err
    assert "Traceback" not in err
    assert path.read_text(encoding="utf-8") == text


def test_ir_output_parses_back_to_the_compiled_program(tmp_path: Path) -> None:
    for example in EXAMPLES:
        code, ir, _ = run(["--ir", str(example)])
        assert code == 0
        compiled = run_text(example.read_text(encoding="utf-8"), str(example)).compiled
        if len(compiled) == 1:
            assert structural_equal(parse(ir), compiled[0].program)


# -- return vars and phis keep no view their value lost (compiling is idempotent) ---------------
# An elementwise op on a Mat load is typed with the Mat tile's col_major view by the frontend;
# inference feeds it a Vec move, so the op's result loses that view. A loop's return var, a
# while's and an if's phi must lose it too: the printed program reads back with the new types.
VIEW_KERNEL = '''import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, y: pl.Tensor[[16, 128], pl.FP32], m: pl.Scalar[pl.INDEX],
               out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
        t1 = pl.load(y, [0, 0], [16, 128], target_memory=pl.Mem.Mat)
        v2 = pl.exp(t1)
{body}
        out = pl.store(r6, [0, 0], out)
        return out
'''

VIEW_BODIES = {
    "for_one_result": '''        for i, (n4,) in pl.range(2, init_values=(v2,)):
            n5 = pl.add(n4, n4)
            r6 = pl.yield_(n5)''',
    "for_two_results": '''        for i, (n4, k4) in pl.range(2, init_values=(v2, v2)):
            n5 = pl.add(n4, k4)
            r6, k6 = pl.yield_(n5, k4)''',
    "while": '''        for (n4,) in pl.while_(init_values=(v2,)):
            pl.cond(m > 3)
            n5 = pl.add(n4, n4)
            r6 = pl.yield_(n5)''',
    "if_phi": '''        if m > 1:
            n5 = pl.add(v2, v2)
            r6 = pl.yield_(n5)
        else:
            r6 = pl.yield_(v2)''',
}


@pytest.mark.parametrize("backend", ["910B", "950", "none"])
@pytest.mark.parametrize("shape", sorted(VIEW_BODIES))
def test_return_vars_take_the_placed_type_of_what_they_read_back_from(
        shape: str, backend: str, tmp_path: Path) -> None:
    text = VIEW_KERNEL.format(body=VIEW_BODIES[shape])
    check_every_mode(text, tmp_path, backend=backend)
    b = None if backend == "none" else backend
    compiled = pl.compile(pl.parse(text), backend=b, verify=True)
    again = pl.compile(pl.parse(compiled.as_python()), backend=b, verify=True)
    assert_structural_equal(again.program, compiled.program)


# -- one-line suites show their moves -----------------------------------------------------------
ONE_LINE = {
    "for": "        for i in pl.range(2): t = pl.matmul(a, b)  # one line",
    "two_statements": "        for i in pl.range(2): u = pl.exp(m); t = pl.matmul(a, b)  # two",
    "moved_value_made_on_the_line": "        for i in pl.range(2): u = pl.load(y, [0, 0], [128, 128]); "
                                    "t = pl.matmul(a, u)",
    "if_else": "        if k > 1: t = pl.matmul(a, b)  # then\n"
               "        else: w = pl.exp(m)  # else",
    "with_scope": "        with pl.manual_scope(): t = pl.matmul(a, b)",
}


@pytest.mark.parametrize("backend", ["910B", "950", "none"])
@pytest.mark.parametrize("shape", sorted(ONE_LINE))
def test_one_line_suites_show_every_inserted_move(shape: str, backend: str,
                                                  tmp_path: Path) -> None:
    body = ("        a = pl.load(x, [0, 0], [16, 128])\n"
            "        b = pl.load(y, [0, 0], [128, 128])\n"
            "        m = pl.load(x, [0, 0], [16, 128], target_memory=pl.MemorySpace.Mat)\n"
            f"{ONE_LINE[shape]}\n"
            "        return out")
    text = _kernel("import pl", body).replace(
        "out: pl.Out[", "k: pl.Scalar[pl.INDEX], out: pl.Out[")
    check_every_mode(text, tmp_path, backend=backend)
    shown = run_text(text, "<one line>", backend=None if backend == "none" else backend)
    moves = shown.compiled[0].decisions.moves
    assert moves and shown.output.count("pl.move(") == len(moves)
    assert_keeps_the_users_text(text, shown.output)


@pytest.mark.parametrize(("mode", "reads_back"), [
    ([], True), (["--diff"], True), (["--check"], True),
    (["--explain"], False), (["--json"], False), (["--ir"], False)])
def test_a_mode_reads_back_the_regenerated_text_only_when_it_shows_it(
        mode: list[str], reads_back: bool, tmp_path: Path, libcst_parses: list[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    # --explain, --json and --ir report on the compiled programs and print no regenerated text:
    # verifying that text would be work for nothing (its read-back costs several compiles), and
    # so would making it (its tree). (--ir reads its own IR text back: tests above.)
    # A mode that shows the text reads it back from the tree assembled from the input's parse:
    # LibCST parses the input only (pl/show_inferred/verify.py).
    from pl.show_inferred import annotate, plan

    loads: list[tuple[str, bool]] = []
    real_read, real_apply = annotate.read_kernel, plan._Planner.apply
    edits: list[int] = []

    def reading(filename: str, text: str, module: cst.Module | None = None) -> Any:
        loads.append((text, module is not None))
        return real_read(filename, text, module)

    def apply(self: Any) -> Any:
        edits.append(1)
        return real_apply(self)

    monkeypatch.setattr(annotate, "read_kernel", reading)
    monkeypatch.setattr(plan._Planner, "apply", apply)
    kernel = tmp_path / "kernel.py"
    text = (ROOT / "examples" / "seed_general.py").read_text(encoding="utf-8")
    kernel.write_text(text, encoding="utf-8")
    status, _, _ = run([*mode, "--no-cache", str(kernel)])
    assert status == (1 if mode == ["--check"] else 0)
    parsed_by_the_command, loaded, edited = list(libcst_parses), list(loads), bool(edits)
    regenerated = run_text(text, str(kernel)).output
    assert regenerated != text and parsed_by_the_command[0] == text
    assert regenerated not in parsed_by_the_command
    assert loaded[0] == (text, False)
    assert ((regenerated, True) in loaded) is reads_back
    if mode != ["--ir"]:  # (--ir's check regenerates the IR text it prints: a fixed point)
        assert edited is reads_back


def test_a_mode_that_verifies_nothing_stores_nothing_in_the_cache(tmp_path: Path) -> None:
    # The cache holds verified results only: --explain does not verify the regenerated text, so it
    # must not leave an entry a later plain run would print unchecked.
    kernel = tmp_path / "kernel.py"
    kernel.write_text((ROOT / "examples" / "seed_general.py").read_text(encoding="utf-8"),
                      encoding="utf-8")
    cache = tmp_path / "cache"

    def cached_run(*mode: str) -> int:  # `run` above turns the cache off
        return cli.main([*mode, "--cache-dir", str(cache), str(kernel)], stdin=io.StringIO(""),
                        stdout=io.StringIO(), stderr=io.StringIO())

    assert cached_run("--explain") == 0
    assert not cache.exists() or not any(p.is_file() for p in cache.rglob("*"))
    assert cached_run() == 0
    assert any(p.is_file() for p in cache.rglob("*"))  # the plain run stored its verified result


# -- tile ops nested outside a statement's top-level call (issue 30 item 6) ---------------------
NESTED_PREFIX = '''        a = pl.load(x, [0, 0], [16, 128])
        b = pl.load(y, [0, 0], [128, 128])
        c = pl.matmul(a, b)
'''
NESTED_SUFFIX = '''        out = pl.store(c, [0, 0], out)
        return out'''
NESTED_BODIES = {
    "if_condition": '''        if pl.tile.read(pl.matmul(a, b), [0, 0]) > 0.0:
            c = pl.matmul_acc(c, a, b)''',
    "elif_condition": '''        if pl.tile.read(a, [0, 0]) > 1.0:
            c = pl.matmul(a, b)
        elif pl.tile.read(pl.matmul(a, b), [0, 0]) > 0.0:
            c = pl.matmul_acc(c, a, b)''',
    "while_condition": '''        while pl.tile.read(c, [0, 0]) < pl.tile.read(pl.matmul(a, b), [0, 0]):
            c = pl.matmul_acc(c, a, b)''',
    "while_condition_vec_carry": '''        while pl.tile.read(pl.matmul(a, b), [0, 0]) < pl.tile.read(c, [0, 0]):
            c = pl.add(c, 1.0)''',
    "range_bound": '''        for i in pl.range(pl.cast(pl.tile.read(pl.matmul(a, b), [0, 0]), pl.INDEX) * 0 + 2):
            c = pl.matmul_acc(c, a, b)''',
    "init_values": '''        for i, (acc,) in pl.range(2, init_values=(pl.matmul(a, b),)):
            acc2 = pl.add(acc, acc)
            c = pl.yield_(acc2)''',
    "scalar_arithmetic": '''        s = pl.tile.read(pl.matmul(a, b), [0, 0]) + 1.0
        c = pl.add(c, s)''',
    "scalar_of_a_named_tile": '''        s = pl.tile.read(c, [0, 0]) * 2.0
        c = pl.add(c, s)''',
    "offset_list": '''        d = pl.load(x, [pl.cast(pl.tile.read(pl.matmul(a, b), [0, 0]), pl.INDEX) * 0, 0], [16, 128])
        c = pl.matmul(d, b)''',
    "tuple_assignment": '''        e = pl.load(y, [0, 0], [128, 128])
        c, d = pl.matmul(a, e), e''',
}


@pytest.mark.parametrize("backend", ["910B", "950", "none"])
@pytest.mark.parametrize("shape", sorted(NESTED_BODIES))
def test_tile_ops_nested_outside_statements_get_their_moves(shape: str, backend: str,
                                                            tmp_path: Path) -> None:
    """A tile op in a condition, a loop bound, init_values, scalar arithmetic, an offset list or a
    tuple gets its operands moved (show_inferred exited 123 on each); the output verifies in every
    mode, and the compiled program computes what the source does."""
    text = _kernel("import pl", NESTED_PREFIX + NESTED_BODIES[shape] + "\n" + NESTED_SUFFIX)
    check_every_mode(text, tmp_path, backend=backend)
    source = pl.parse(text)
    compiled = pl.compile(source, backend=None if backend == "none" else backend, verify=True)
    if backend == "none":  # (a backend's K tiling sums in another order)
        assert compare_results(source, compiled.program) == "same"


# -- a space written in a tile's annotation, read by a vector op (issue 30 item 7) ---------------
WRITTEN_SPACE_BODIES = {
    "mat_load": '''        m: pl.Tile[[16, 128], pl.BF16, pl.MemorySpace.Mat] = pl.load(x, [0, 0], [16, 128])
        e = pl.cast(pl.exp(m), pl.FP32)''',
    "acc_create": '''        t: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Acc] = pl.create_tile([16, 128], dtype=pl.FP32)
        e = pl.exp(t)''',
    "mat_load_in_a_loop": '''        m: pl.Tile[[16, 128], pl.BF16, pl.MemorySpace.Mat] = pl.load(x, [0, 0], [16, 128])
        e = pl.cast(pl.exp(m), pl.FP32)
        for i in pl.range(2):
            e = pl.add(e, pl.cast(m, pl.FP32))''',
}


@pytest.mark.parametrize("backend", ["910B", "950", "none"])
@pytest.mark.parametrize("shape", sorted(WRITTEN_SPACE_BODIES))
def test_a_written_space_is_kept_and_its_vector_consumer_reads_a_move(
        shape: str, backend: str, tmp_path: Path) -> None:
    """`m: pl.Tile[..., Mat] = pl.load(...)` then `pl.exp(m)`: the load loads into Mat, as
    written, and the vector op reads a move (exit 123 in every mode before: SSA typed the name by
    its value, the call by the annotation)."""
    text = _kernel("import pl", WRITTEN_SPACE_BODIES[shape] + "\n        out = pl.store(e, [0, 0], out)"
                                                             "\n        return out")
    check_every_mode(text, tmp_path, backend=backend)
    b = None if backend == "none" else backend
    source = pl.parse(text)
    compiled = pl.compile(source, backend=b, verify=True)
    written = [d for d in compiled.decisions.spaces if d.name.split("__")[0] in ("m", "t")]
    assert written and {d.space.name for d in written if d.space} == \
        {"Mat" if "mat" in shape else "Acc"}
    assert compare_results(source, compiled.program) == "same"


# -- tensor ops nested in an if's or a loop's header of an InCore function ------------------------
TENSOR_HEADER_KERNEL = '''import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.Tensor[[16, 16], pl.FP32],
               out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        z = pl.add(x, y)
{body}
        out = pl.assemble(out, z, [0, 0])
        return out
'''
TENSOR_HEADERS = {
    "if_condition": '''        if pl.tensor.read(pl.add(x, y), [0, 0]) > 0.0:
            z = pl.mul(x, y)''',
    "range_bound": '''        for i in pl.range(pl.cast(pl.tensor.read(pl.add(x, y), [0, 0]) * 0.0, pl.INDEX) + 2):
            z = pl.add(z, x)''',
    "init_values": '''        for i, (c,) in pl.range(2, init_values=(pl.mul(x, y),)):
            c2 = pl.add(c, z)
            z = pl.yield_(c2)''',
}


@pytest.mark.parametrize("shape", sorted(TENSOR_HEADERS))
def test_tensor_ops_in_a_header_are_converted(shape: str, tmp_path: Path) -> None:
    """A tensor op nested in an if's condition or a loop's header is computed before it, where
    tensor-to-tile conversion converts it (left nested, it stayed a tensor op on tiles, and
    --ir's text did not read back: exit 123)."""
    text = TENSOR_HEADER_KERNEL.format(body=TENSOR_HEADERS[shape])
    check_every_mode(text, tmp_path, backend="none")
    source = pl.parse(text)
    compiled = pl.compile(source, backend=None, verify=True)
    assert compare_results(source, compiled.program) == "same"


# -- the IR text of a kernel with scopes is its own fixed point ------------------------------------
# `--ir`'s text is already the compiled form: every tile typed with its space, every move written.
# A function in it that holds a `pl.split_aiv` / `pl.spmd` scope cannot be annotated in place (the
# scope prints as a loop); showing it as it compiles would only rename its values (`aiv_id__ssa_v0`
# -> `aiv_id`), so regenerating the IR text changed it and `--ir` failed its own fixed-point check
# (an internal error on 58 of the reference's kernels).
SCOPE_KERNELS = sorted((Path(__file__).resolve().parent / "scope_kernels").glob("*.py"))


@pytest.mark.parametrize("path", SCOPE_KERNELS, ids=lambda p: p.stem)
def test_the_ir_of_a_scoped_kernel_reads_back_as_a_fixed_point(path: Path) -> None:
    code, ir, err = run(["--ir", str(path)])
    assert code == 0, err
    assert "class " in ir and "internal error" not in err


# -- a text is parsed a piece of a long body at a time (pl/lowering/source/pieces.py) ----------
# LibCST's parser holds about 500 bytes per byte of the text it parses; the IR text is five times
# the input's bytes, so parsed whole it took 3 GiB at 20,000 statements. The tree assembled from
# the pieces must be LibCST's parse of the text: every example, scope kernel and the benchmark's
# kernel, as printed IR and as written (with comments, a docstring and blank lines), parsed in
# pieces of 1, 2 and 3 statements.
def _piece_texts(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return [text, commented(text),
            *(ir_text(c) for c in run_text(text, str(path), backend="910B", verify=False).compiled)]


@pytest.mark.parametrize("path", [*EXAMPLES, *SCOPE_KERNELS], ids=lambda p: p.stem)
def test_a_text_parsed_in_pieces_is_libcsts_parse_of_it(path: Path) -> None:
    for text in _piece_texts(path):
        whole = cst.parse_module(text)
        for piece in (1, 2, 3):
            assert parse_in_pieces(text, piece=piece).deep_equals(whole)


# Bodies whose lines' leading whitespace is not all indentation (a string or a backslash
# continuing a line), or holds blank and comment lines inside brackets: cut only where the
# pieces are LibCST's nodes (a triple-quoted string dedented with its body read as another value).
PIECE_BODIES = {
    "triple_quoted": '    s = """abc\n    def"""\n',
    "triple_single": "    s = \'\'\'abc\n    def\'\'\'\n",
    "f_string": '    s = f"""{x}\n    a"""\n',
    "backslash": "    s = 1 + \\\n        2\n",
    "backslash_in_string": "    s = 'abc\\\n    def'\n",
    "brackets": "    s = (1 +\n        2)\n",
    "blank_in_brackets": "    s = (1 +\n    \n        2)\n",
    "comment_in_brackets": "    s = (1 +  # c\n    # d\n        2)\n",
    "compound": "    if x:\n        z = 3\n",
    "comment_after": "    s = 1  # c\n",
}


@pytest.mark.parametrize("body", sorted(PIECE_BODIES))
def test_a_body_is_cut_only_where_its_pieces_are_libcsts_nodes(body: str) -> None:
    for text in (f"def f():\n    x = 1\n{PIECE_BODIES[body]}    y = 2\n",
                 f"class A:\n    def f(self):\n        x = 1\n"
                 f"    {PIECE_BODIES[body].replace(chr(10) + '    ', chr(10) + '        ')}"
                 f"        y = 2\n\n    # end\n    def g(self):\n        pass\n",
                 f"def f():\n\tx = 1\n{PIECE_BODIES[body].replace('    ', chr(9))}\ty = 2\n"):
        for piece in (1, 2):
            assert parse_in_pieces(text, piece=piece).deep_equals(cst.parse_module(text)), text


def test_the_benchmark_kernels_ir_is_parsed_in_pieces(libcst_parses: list[str]) -> None:
    from bench.generate import kernel_source

    text = kernel_source(40)
    (c,) = run_text(text, "<bench>", backend="910B").compiled
    ir = ir_text(c)
    del libcst_parses[:]
    tree = parse_in_pieces(ir, piece=7)
    assert tree.deep_equals(cst.parse_module(ir))
    # The skeleton (the text without the cut body), then the body 7 statements at a time.
    assert len(libcst_parses) > 6 and max(map(len, libcst_parses[:-1])) < len(ir) / 4


@pytest.mark.parametrize("family", sorted(FAMILIES))
@SETTINGS
@given(data=st.data())
def test_generated_texts_parsed_in_pieces_are_libcsts_parse_of_them(
        family: str, data: st.DataObject) -> None:
    g: GeneratedProgram = data.draw(FAMILIES[family], label=family)
    for text in (g.source, commented(g.source),
                 *(ir_text(c) for c in run_text(g.source, "<gen>", backend="910B",
                                                  verify=False).compiled)):
        whole = cst.parse_module(text)
        for piece in (1, 2):
            assert parse_in_pieces(text, piece=piece).deep_equals(whole)
