"""The frontend's shortcuts give exactly what the general paths give.

- statement spans read off the text (lowering/frontend/spans.py) equal the ones paired from
  CPython's `ast`, on every kernel file of examples/ and tests/ and on crafted layouts; forms the
  text walk does not follow make it decline (None), never guess;
- the per-function memo of dotted names never hides a kernel value that shadows the root name;
- kernel values bound in outer scopes stay visible in inner ones, and inner bindings shadow them;
- a caller's own LibCST parse lowers like the frontend's.
"""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest

import pl
from bench.generate import kernel_source
from lowering.frontend import source as frontend_source
from lowering.frontend.context import FnCtx, ProgCtx
from lowering.frontend.source import SourceFile
from lowering.frontend.spans import text_statement_spans
from pl.errors import PlError
from pl.ir.enums import DType
from pl.ir.expr import Var
from pl.ir.types import ScalarType
from pl.structural import assert_structural_equal

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))
KERNEL_FILES = EXAMPLES + sorted((ROOT / "tests").rglob("*.py"))
BAD_FILES = sorted((ROOT / "tests" / "bad_inputs").glob("*.py")) \
    + sorted((ROOT / "tests" / "error_fixtures").glob("*.py"))

CRAFTED = {
    "multi-line headers and calls": '''import pl


@pl.program
class K:
    @pl.function(
        type=pl.FunctionType.InCore,  # a comment inside the brackets
    )
    def kern(
        self,
        x: pl.Tensor[[64, 64], pl.FP32],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        """A docstring
        over two lines, with 'quotes' and # no comment."""
        t = pl.load(x, [0, 0],
                    [64, 64])   # trailing
        # a comment line

        u = pl.add(t, t)
        return u
''',
    "branches and loops": '''x = 1
if x > 0:
    y = "#not a comment"
elif x < 0:  # elif
    y = 'it''s'
else:
    y = f"{x}"
for i in range(3):
    pass
else:
    z = {"a": [1, (2, 3)]}
while False:
    break
with open("f") as f:
    data = f.read()
    # footer comment


def g():
    return (1 +
            2)
''',
    "no trailing newline": "import pl\nx = [1,\n     2]",
    "decorators and blank lines": "@a\n\n@b.c(1)\n# c\ndef f():\n    return 1\n\n\n# end\n",
}

DECLINED = {
    "semicolons": "x = 1; y = 2\n",
    "backslash": "x = 1 + \\\n    2\n",
    "one-line suite": "if x: y = 1\n",
    "try": "try:\n    x = 1\nexcept E:\n    pass\n",
    "carriage returns": "x = 1\r\ny = 2\r\n",
    "async": "async def f():\n    return 1\n",
}


def _compare_spans(filename: str, text: str) -> bool:
    """True when the text walk applies (and agrees with `ast`), False when it declines."""
    try:
        src = SourceFile(filename, text)
    except PlError:
        return False
    fast = text_statement_spans(filename, text, src.module)
    if fast is None:
        return False
    slow = src.ast_statement_spans()
    assert fast == slow
    return True


@pytest.mark.parametrize("path", KERNEL_FILES, ids=[str(p.relative_to(ROOT)) for p in KERNEL_FILES])
def test_text_spans_match_ast_on_files(path: Path) -> None:
    try:
        text = path.read_text()
    except UnicodeDecodeError:
        pytest.skip("not UTF-8")
    _compare_spans(str(path), text)


def test_text_spans_cover_the_examples() -> None:
    assert all(_compare_spans(str(p), p.read_text()) for p in EXAMPLES)


@pytest.mark.parametrize("n", [1, 9, 10, 37])
def test_text_spans_match_ast_on_bench_kernels(n: int) -> None:
    assert _compare_spans(f"<bench{n}>", kernel_source(n))


@pytest.mark.parametrize("name", sorted(CRAFTED))
def test_text_spans_match_ast_on_crafted_layouts(name: str) -> None:
    assert _compare_spans(f"<{name}>", CRAFTED[name])


@pytest.mark.parametrize("name", sorted(DECLINED))
def test_text_spans_decline_unfollowed_forms(name: str) -> None:
    src = SourceFile(f"<{name}>", DECLINED[name])
    assert text_statement_spans(src.filename, src.text, src.module) is None


# -- name resolution ------------------------------------------------------------------------


def test_dotted_name_memo_yields_to_a_shadowing_kernel_value() -> None:
    src = SourceFile("<memo>", "import pl\n")
    ctx = FnCtx(ProgCtx(src, {"pl": pl}), "f", None)
    node = cst.parse_expression("pl.add")
    assert isinstance(node, cst.Attribute)
    assert ctx.resolve(node) is pl.add
    assert ctx.try_resolve(node) is pl.add
    ctx.push()
    ctx.bind("pl", Var("pl", ScalarType(DType.INDEX)))
    assert ctx.try_resolve(node) is None
    with pytest.raises(PlError):
        ctx.resolve(node)
    ctx.pop()
    assert ctx.resolve(node) is pl.add


def test_variables_of_outer_scopes_stay_visible() -> None:
    src = SourceFile("<scopes>", "import pl\n")
    ctx = FnCtx(ProgCtx(src, {"pl": pl}), "f", None)
    t = ScalarType(DType.INDEX)
    a, b, inner_a = Var("a", t), Var("b", t), Var("a", t)
    ctx.bind("a", a)
    ctx.push()
    ctx.bind("b", b)
    ctx.push()
    assert ctx.lookup_var("a") is a and ctx.lookup_var("b") is b and ctx.lookup_var("c") is None
    ctx.bind("a", inner_a)
    assert ctx.lookup_var("a") is inner_a
    ctx.pop()
    ctx.pop()
    assert ctx.lookup_var("a") is a and ctx.lookup_var("b") is None


def test_a_callers_own_parse_is_lowered_like_the_frontends() -> None:
    """`source_file(name, text, module)` keeps the caller's tree (the benchmark lowers the trees
    its timed parse made) and lowers it to what the frontend's own parse gives."""
    text = kernel_source(30)
    tree = cst.parse_module(text)
    frontend_source.forget_sources()
    assert frontend_source.source_file("<own_tree>", text, tree).module is tree
    from_callers_tree = pl.parse(text, filename="<own_tree>")
    frontend_source.forget_sources()
    from_own_parse = pl.parse(text, filename="<own_parse>")
    assert frontend_source.source_file("<own_parse>", text).module is not tree
    assert_structural_equal(from_callers_tree, from_own_parse)
    assert pl.python_print(from_callers_tree) == pl.python_print(from_own_parse)
