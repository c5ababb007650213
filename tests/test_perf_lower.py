"""The frontend's fast paths give exactly what the general paths give.

- statement spans read off the text (lowering/frontend/spans.py) equal the ones paired from
  CPython's `ast`, on every kernel file of examples/ and tests/ and on crafted layouts; forms the
  text walk does not follow make it decline (None), never guess;
- the plain-Expr shortcut of `shape_arguments`, the type-token keys of `make_call`'s result
  cache and `build_call`'s per-parse memo of keyword-free calls over tile/tensor Vars build the
  same IR as a cold, general build, on every op call of the examples (lowering and all passes);
- the per-function memo of dotted names never hides a kernel value that shadows the root name;
- the shortcuts for the common statement `t = pl.op(a, b)` over kernel values (the span walk's
  plain-line reader and the plain-name argument path of `op_call`) lower every kernel file, good or
  bad, to the same IR or the same located error as with those shortcuts switched off;
- kernel values bound in outer scopes stay visible in inner ones, and inner bindings shadow them.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import libcst as cst
import pytest
from infer_cases.cases import CASES

import pl
from bench.generate import kernel_source
from lowering.frontend import exprs as frontend_exprs
from lowering.frontend import op_args as op_builders_args
from lowering.frontend import op_builders
from lowering.frontend import source as frontend_source
from lowering.frontend import spans as frontend_spans
from lowering.frontend.context import FnCtx, ProgCtx
from lowering.frontend.source import SourceFile
from lowering.frontend.spans import text_statement_spans
from pl.errors import PlError
from pl.ir.enums import DType
from pl.ir.expr import Call, Var
from pl.ir.types import ScalarType
from pl.ops import deduce
from pl.ops.registry import get_op
from pl.show_inferred.cli import load_programs
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


# -- op calls ---------------------------------------------------------------------------------


def _recorded_calls(monkeypatch: pytest.MonkeyPatch) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """Every build_call and make_call made while lowering and compiling the examples."""
    builds: list[tuple[Any, ...]] = []
    makes: list[tuple[Any, ...]] = []
    real_build, real_make = op_builders.build_call, deduce.make_call

    def build(spelling: str, args: Any, kwargs: Any, span: Any, memo: Any = None) -> Any:
        builds.append((spelling, list(args), dict(kwargs), span))
        return real_build(spelling, args, kwargs, span, memo)

    def make(name: str, args: Any, kwargs: Any = (), attrs: Any = (), span: Any = None) -> Any:
        makes.append((name, list(args), list(kwargs.items()) if isinstance(kwargs, dict) else list(kwargs)))
        if span is None:
            return real_make(name, args, kwargs, attrs)
        return real_make(name, args, kwargs, attrs, span)

    monkeypatch.setattr(frontend_exprs.op_builders, "build_call", build)
    monkeypatch.setattr(deduce, "make_call", make)
    for path in EXAMPLES:
        for program in load_programs(path):
            pl.compile(program, backend="910B")
    return builds, makes


@pytest.fixture(scope="module")
def recorded() -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    with pytest.MonkeyPatch.context() as mp:  # recording only: the tests run the real functions
        return _recorded_calls(mp)


def test_memoised_plain_calls_build_what_a_cold_build_builds(
        recorded: tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]) -> None:
    builds, _ = recorded
    memo: op_builders.PlainCalls = {}
    for spelling, args, kwargs, span in builds:
        try:
            op_builders.build_call(spelling, args, kwargs, span, memo)  # fills the memo where it applies
            warm = op_builders.build_call(spelling, args, kwargs, span, memo)
        except PlError:
            continue
        cold = op_builders.build_call(spelling, args, kwargs, span)
        assert warm == cold and type(warm) is type(cold) and warm.span == cold.span
        if isinstance(warm, Call):
            assert warm.args == cold.args and all(a is b for a, b in zip(warm.args, cold.args, strict=True))
    assert memo, "no keyword-free call over tile / tensor Vars in the examples"


def test_shape_arguments_shortcut_equals_the_general_path(
        recorded: tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]) -> None:
    builds, _ = recorded
    checked = 0
    for spelling, args, kwargs, _span in builds:
        exprs = [op_builders_args.to_expr(a) for a in args]
        try:
            op = op_builders._dispatch(spelling, exprs, dict(kwargs))
        except PlError:
            continue
        if op is None:
            continue
        fast = op_builders_args.shape_arguments(spelling, op, exprs, kwargs)
        general = op_builders_args.shape_arguments_general(spelling, op, exprs, kwargs)
        assert fast == general
        checked += 1
    assert checked


def _stamped_type(name: str, args: list[Any], kwargs: list[tuple[str, Any]]) -> Any:
    op = get_op(name)
    assert op is not None
    kw = dict(kwargs)
    return deduce._stamp(op, deduce.deduce_type(op, args, kw), args, kw)


def test_make_call_cache_gives_the_deduced_type(
        recorded: tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]) -> None:
    _, makes = recorded
    assert makes
    for name, args, kwargs in makes:
        call = deduce.make_call(name, args, kwargs)
        assert call.result_type == _stamped_type(name, args, kwargs)
        assert call.args == tuple(args) and call.kwargs == tuple(kwargs)


def test_type_tokens_key_types_by_value() -> None:
    t1 = pl.parse(kernel_source(1)).functions[0].params[0].type  # type: ignore[union-attr]
    t2 = dataclasses.replace(t1)
    assert t1 == t2 and t1 is not t2
    assert deduce._type_token(t1) is deduce._type_token(t2)


def test_type_tokens_survive_the_object_table_filling_up(monkeypatch: pytest.MonkeyPatch) -> None:
    """The table by type object is emptied when full; the tokens by value are kept, so equal
    types keep one token (and `make_call`'s results stay reachable) across the clearing."""
    t1 = pl.parse(kernel_source(1)).functions[0].params[0].type  # type: ignore[union-attr]
    monkeypatch.setattr(deduce, "_OBJECTS_LIMIT", 4)
    token = deduce.type_token(t1)
    copies = [dataclasses.replace(t1) for _ in range(10)]  # fill the table past its limit, twice
    assert all(deduce.type_token(c) is token for c in copies)
    assert len(deduce._TOKEN_OF_OBJECT) <= 4
    assert deduce.type_token(dataclasses.replace(t1)) is token


# -- name resolution --------------------------------------------------------------------------


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


def _outcome(path: Path | tuple[str, str]) -> tuple[str, Any]:
    """What `pl.parse` makes of a file (or of a (name, text) pair): its program, or its error's
    message, place and help."""
    frontend_source._CACHE.clear()  # a fresh parse: the statement spans are derived again
    if isinstance(path, tuple):
        filename, text = path
    else:
        filename = str(path)
        try:
            text = path.read_text()
        except UnicodeDecodeError:
            return ("undecodable", None)
    try:
        return ("ok", pl.parse(text, filename=filename))
    except PlError as e:
        return ("error", (e.message, e.span, e.hint))
    except SyntaxError as e:  # not a kernel file the frontend accepts at all
        return ("syntax", str(e))


def _shortcuts_off(mp: pytest.MonkeyPatch) -> None:
    mp.setattr(frontend_spans._Walk, "plain_line", lambda self: None)
    mp.setattr(frontend_exprs, "_plain_var_args", lambda ctx, args: None)


LOWERED: list[Path | tuple[str, str]] = [
    *EXAMPLES, *BAD_FILES, *[(f"<case {c.name}>", c.source("Before")) for c in CASES],
    ("<bench 41>", kernel_source(41))]


@pytest.mark.parametrize("path", LOWERED, ids=[
    p[0] if isinstance(p, tuple) else str(p.relative_to(ROOT)) for p in LOWERED])
def test_statement_shortcuts_lower_like_the_general_paths(path: Path | tuple[str, str]) -> None:
    fast = _outcome(path)
    with pytest.MonkeyPatch.context() as mp:
        _shortcuts_off(mp)
        slow = _outcome(path)
    frontend_source._CACHE.clear()
    assert fast[0] == slow[0]
    if fast[0] == "ok":
        assert_structural_equal(fast[1], slow[1])
        assert fast[1].as_python() == slow[1].as_python()
    else:
        assert fast[1] == slow[1]


def test_plain_line_reader_declines_what_it_does_not_follow() -> None:
    lines = {
        "x = f(a, b)\n": True, "    x = f(a)   \n": True, "x = 1": True, "x = [1,\n": False,
        "x = 'a'\n": False, "x = 1  # c\n": False, "x = 1; y = 2\n": False, "x = 1 + \\\n": False,
        "   \n": False, "\n": False, "# c\n": False,
    }
    for text, plain in lines.items():
        walk = frontend_spans._Walk("<l>", text)
        span = walk.plain_line()
        assert (span is not None) == plain, text
        if span is not None:
            other = frontend_spans._Walk("<l>", text)
            assert other.logical_line(None) == span and other.pos == walk.pos


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
    assert from_callers_tree.as_python() == from_own_parse.as_python()
