"""The frontend's one position system (lowering/frontend/positions.py): CPython's `ast` paired with
the LibCST tree.

- every node an error can point at gets the place LibCST's own position metadata gives it (the
  oracle here, in tests only), on every kernel file of examples/, tests/error_fixtures,
  tests/bad_inputs, the memory-space cases, the benchmark kernel and generated programs;
- errors are located in the user's own text: layouts as data (tabs, CRLF, form feeds, BOM,
  non-ASCII and NFKC-changed names, strings before the culprit, line continuations), through
  `pl.parse`, show_inferred's static loading and `--exec` (the decorators);
- no parsed file outlives the load or compile that parsed it (no process-global cache), and a
  module of many programs is parsed once per import (the parse lives in its namespace).
"""

from __future__ import annotations

import gc
import linecache
import runpy
from pathlib import Path

import libcst as cst
import pytest
from hypothesis import given, settings
from infer_cases.cases import CASES
from kernel_strategies import GeneratedProgram, tensor_programs, tile_programs
from libcst.metadata import MetadataWrapper, PositionProvider

import pl
from bench.generate import kernel_source
from pl.errors import PlError
from pl.ir.function import Program
from pl.lowering.frontend.lower import MODULE_PARSE
from pl.lowering.frontend.parse import parse_tree
from pl.lowering.frontend.source import SourceFile
from pl.lowering.source.python import parse_python
from pl.show_inferred.run import run_text

ROOT = Path(__file__).resolve().parent.parent
KERNEL_FILES = sorted((ROOT / "examples").glob("*.py")) \
    + sorted((ROOT / "tests" / "error_fixtures").glob("*.py")) \
    + sorted((ROOT / "tests" / "bad_inputs").glob("*.py"))

# The node kinds errors point at, whose place must be LibCST's (when not in brackets of their own:
# a parenthesised expression starts at its first token inside them).
LOCATED = (
    cst.Name, cst.Attribute, cst.Call, cst.Arg, cst.Subscript, cst.SubscriptElement, cst.Index,
    cst.Slice, cst.Integer, cst.Float, cst.SimpleString, cst.List, cst.Dict, cst.DictElement,
    cst.Element, cst.StarredElement, cst.BinaryOperation, cst.UnaryOperation, cst.BooleanOperation,
    cst.Comparison, cst.BaseBinaryOp, cst.BaseUnaryOp, cst.BaseBooleanOp, cst.BaseAugOp,
    cst.IfExp, cst.Lambda, cst.ListComp, cst.GeneratorExp, cst.Param, cst.Annotation,
    cst.Decorator, cst.FunctionDef, cst.ClassDef, cst.If, cst.Else, cst.For, cst.While, cst.With,
    cst.WithItem, cst.Assign, cst.AssignTarget, cst.AnnAssign, cst.AugAssign, cst.Return,
    cst.Expr, cst.Import, cst.ImportFrom, cst.ImportAlias, cst.Raise, cst.Assert, cst.Pass,
    cst.Break, cst.Continue, cst.Try, cst.ExceptHandler,
)


# Forms no kernel may use, whose insides are located at the form (f-strings, `match`).
UNLOCATED_INSIDE = (cst.FormattedString, cst.MatchCase)


def _inside(nodes: list[cst.CSTNode]) -> set[int]:
    found: set[int] = set()
    todo = [child for n in nodes for child in n.children]
    while todo:
        n = todo.pop()
        found.add(id(n))
        todo.extend(n.children)
    return found


def _disagreements(filename: str, text: str) -> list[str]:
    """The located nodes of `text` whose span differs from LibCST's position metadata (an
    operator's span ends at its last character, LibCST's can hold the spaces after it)."""
    try:
        src = SourceFile(filename, text)
    except PlError:
        return []
    oracle = MetadataWrapper(src.module, unsafe_skip_copy=True).resolve(PositionProvider)
    skipped = _inside([n for n in oracle if isinstance(n, UNLOCATED_INSIDE)])
    wrong = []
    for node, rng in oracle.items():
        if not isinstance(node, LOCATED) or getattr(node, "lpar", None) or id(node) in skipped:
            continue
        want = (rng.start.line, rng.start.column + 1, rng.end.line, rng.end.column + 1)
        span = src.span_of(node)
        if isinstance(node, cst.BaseUnaryOp):
            want = (*want[:2], span.end_line, span.end_col)
        if (span.line, span.col, span.end_line, span.end_col) != want:
            wrong.append(f"{type(node).__name__} {src.module.code_for_node(node)[:40]!r}: "
                         f"{span.line}:{span.col}-{span.end_line}:{span.end_col}, LibCST {want}")
    return wrong


@pytest.mark.parametrize("path", KERNEL_FILES, ids=[str(p.relative_to(ROOT)) for p in KERNEL_FILES])
def test_node_spans_are_libcsts_on_kernel_files(path: Path) -> None:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        pytest.skip("not UTF-8 (a bad input of the decoder)")
    assert _disagreements(str(path), text) == []


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_node_spans_are_libcsts_on_memory_space_cases(case: object) -> None:
    assert _disagreements("<case>", case.source("Before")) == []  # type: ignore[attr-defined]


def test_node_spans_are_libcsts_on_the_benchmark_kernel() -> None:
    assert _disagreements("<bench>", kernel_source(60)) == []


LAYOUTS = '''
x = (a +
     b) * c[1:2, ::3]
y = f(k=1, *z, **w) if not p else [q for q in r if q]
z = {"a": 1, **d}
w = lambda u, v=2: u < v <= 3 and u is not None or v not in z
a, *b = t
c.d += -e
del g[0]
assert h, "é"
with m as n, o:
    pass
for i in range(3):
    continue
else:
    pass
while i:
    break
if a:
    pass
elif b:
    pass
else:  # comment
    pass
try:
    pass
except E as e:
    raise V from e
finally:
    pass


@dec . orated(1)
class C(B, metaclass=M):
    def f(self, p: int = 1, /, q=2, *r: str, s, t=3, **u) -> None:
        return \\
            p
'''


def test_node_spans_are_libcsts_on_a_layout_of_every_statement_kind() -> None:
    assert _disagreements("<layouts>", LAYOUTS) == []


@settings(max_examples=10, deadline=None, derandomize=True, database=None)
@given(tile=tile_programs(), tensor=tensor_programs())
def test_node_spans_are_libcsts_on_generated_programs(tile: GeneratedProgram,
                                                       tensor: GeneratedProgram) -> None:
    assert _disagreements("<tile>", tile.source) == []
    assert _disagreements("<tensor>", tensor.source) == []


# -- errors in the user's own coordinates -----------------------------------------------------

SIG = "a: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:\n"
# Kernel bodies (`{i}`: one level of the body's indentation) that use the undefined name `bogus`
# once: the error must point at it in the text as written (1-based character columns).
BODIES = {
    "plain": "{i}x = pl.add(a, bogus)\n{i}return x\n",
    "tab inside the line": "{i}x = pl.add(a,\tbogus)\n{i}return x\n",
    "non-ascii name": "{i}é = a\n{i}x = pl.add(é, bogus)\n{i}return x\n",
    "nfkc-equal name": "{i}ａ2 = a\n{i}x = pl.add(ａ2, bogus)\n{i}return x\n",
    "nfkc-longer name": "{i}ﬁ = a\n{i}x = pl.add(ﬁ, bogus)\n{i}return x\n",
    "non-ascii string": "{i}x = pl.add('é€😀', bogus)\n{i}return x\n",
    "form feed before the indentation": "{i}y = a\n\f{i}x = pl.add(y, bogus)\n{i}return x\n",
    "form feed line": "{i}y = a\n\f\n{i}x = pl.add(y, bogus)\n{i}return x\n",
    "line continuation": "{i}x = pl.add(a, \\\n{i}           bogus)\n{i}return x\n",
    "bracket continuation": "{i}x = pl.add(\n{i}    a,\n{i}      bogus)\n{i}return x\n",
    "comment before": "{i}# é bogus' not here\n{i}x = pl.add(a, bogus)\n{i}return x\n",
    "one-line suite": "{i}y = a\n{i}for j in pl.range(2): y = pl.add(y, bogus)\n{i}return y\n",
    "semicolons": "{i}y = a; x = pl.add(y, bogus)\n{i}return x\n",
}
# How the whole file is written: its indentation unit and what is done to its text.
LAYOUTS_OF_FILES = {
    "spaces": ("    ", lambda t: t),
    "tabs": ("\t", lambda t: t),
    "crlf": ("    ", lambda t: t.replace("\n", "\r\n")),
    "cr": ("    ", lambda t: t.replace("\n", "\r")),
    "bom": ("    ", lambda t: "\ufeff" + t),
}
USER_TEXTS = [(body, layout) for body in sorted(BODIES) for layout in sorted(LAYOUTS_OF_FILES)]


def kernel(body: str, layout: str, program: bool) -> str:
    unit, written = LAYOUTS_OF_FILES[layout]
    if program:
        head = f"import pl\n\n@pl.program\nclass K:\n{unit}@pl.function\n{unit}def k(self, {SIG}"
        unit *= 2
    else:
        head = f"import pl\n\n@pl.function\ndef k({SIG}"
    return written(head + BODIES[body].replace("{i}", unit))


def _expected(text: str) -> tuple[int, int]:
    """Line and character column of the `bogus` that is code (not in a comment)."""
    lines = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return next((n, ln.index("bogus") + 1) for n, ln in enumerate(lines, 1)
                if "bogus" in ln and not ln.lstrip().startswith("#"))


def _check(err: PlError, text: str) -> None:
    assert "bogus" in err.message, err.message
    assert err.span is not None
    assert (err.span.line, err.span.col) == _expected(text), (err.span, err.message)
    assert err.span.end_col - err.span.col == len("bogus")


@pytest.mark.parametrize(("body", "layout"), USER_TEXTS)
def test_parse_errors_point_into_the_users_text(body: str, layout: str) -> None:
    text = kernel(body, layout, program=False)
    with pytest.raises(PlError) as info:
        pl.parse(text, filename=f"<{body}>")
    _check(info.value, text)
    with pytest.raises(PlError) as info:  # the file's bytes (a BOM is not a column)
        pl.parse(text.encode("utf-8"), filename=f"<{body}>")
    _check(info.value, text)


@pytest.mark.parametrize("execute", [False, True], ids=["static", "exec"])
@pytest.mark.parametrize(("body", "layout"), USER_TEXTS)
def test_show_inferred_errors_point_into_the_users_text(body: str, layout: str, execute: bool,
                                                         tmp_path: Path) -> None:
    text = kernel(body, layout, program=True)
    path = tmp_path / "kern.py"
    path.write_bytes(text.encode("utf-8"))
    with pytest.raises(PlError) as info:
        run_text(text.removeprefix("\ufeff"), str(path), execute=execute)
    _check(info.value, text)


# -- no parsed file outlives its caller ---------------------------------------------------------

def _live_sources() -> int:
    gc.collect()
    return sum(1 for o in gc.get_objects() if isinstance(o, SourceFile))


def test_no_parsed_file_outlives_its_load(tmp_path: Path) -> None:
    before = _live_sources()
    text = kernel_source(5)
    pl.parse(text, filename="<kept?>")
    parse_tree(text, cst.parse_module(text), parse_python(text, "<kept?>"), "<kept tree?>")
    path = tmp_path / "kern.py"
    path.write_text(text)
    run_text(text, str(path))
    run_text(text, str(path), execute=True)
    assert _live_sources() == before


def test_a_module_of_many_programs_is_parsed_once_per_import(tmp_path: Path,
                                                              libcst_parses: list[str]) -> None:
    """Each `@pl.program` lowers from the parse its module holds (MODULE_PARSE): K programs, one
    LibCST parse per import, not K; an edited file is parsed again."""
    programs = "".join(
        f"\n\n@pl.program\nclass P{k}:\n    @pl.function\n"
        f"    def f(self, a: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:\n"
        f"        return pl.add(a, a)\n" for k in range(5))
    path = tmp_path / "many.py"
    parses = libcst_parses
    for edit in ("", "\n# edited\n"):
        path.write_text("import pl\n" + edit + programs)
        linecache.checkcache(str(path))
        namespace = runpy.run_path(str(path))
        assert sorted(k for k, v in namespace.items() if isinstance(v, Program)) == \
            [f"P{k}" for k in range(5)]
        assert len(parses) == 1, len(parses)
        assert namespace[MODULE_PARSE].text == path.read_text()
        parses.clear()
