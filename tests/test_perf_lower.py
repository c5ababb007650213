"""The frontend's fast paths give exactly what the general paths give.

- op dispatch memoised by operand kinds, the plain-Expr shortcut of `shape_arguments`, and the
  type-token keys of `make_call`'s result cache build the same IR as a cold, general build, on
  every op call of the examples (lowering and all passes);
- the per-function memo of dotted names never hides a kernel value that shadows the root name;
- the shortcuts for the common statement `t = pl.op(a, b)` over kernel values (the plain-name
  argument path of `op_call`, and `build_call`'s memo of keyword-free calls over tile/tensor
  Vars) lower every kernel file, good or bad, to the same IR or
  the same located error as with those shortcuts switched off;
- a caller's own LibCST tree lowers to what the frontend's own parse gives;
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
from lowering.frontend.context import FnCtx, ProgCtx
from lowering.frontend.source import SourceFile
from lowering.frontend.text import parse_tree
from lowering.source.python import parse_python
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
BAD_FILES = sorted((ROOT / "tests" / "bad_inputs").glob("*.py")) \
    + sorted((ROOT / "tests" / "error_fixtures").glob("*.py"))

# -- op calls ---------------------------------------------------------------------------------


def _recorded_calls(monkeypatch: pytest.MonkeyPatch) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """Every build_call and make_call made while lowering and compiling the examples."""
    builds: list[tuple[Any, ...]] = []
    makes: list[tuple[Any, ...]] = []
    real_build, real_make = op_builders.build_call, deduce.make_call

    def build(spelling: str, args: Any, kwargs: Any, span: Any) -> Any:
        builds.append((spelling, list(args), dict(kwargs), span))
        return real_build(spelling, args, kwargs, span)

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


def test_memoised_dispatch_builds_what_a_cold_build_builds(
        recorded: tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]) -> None:
    builds, _ = recorded
    assert builds
    for spelling, args, kwargs, span in builds:
        warm = op_builders.build_call(spelling, args, kwargs, span)
        saved = dict(op_builders._DISPATCH)
        op_builders._DISPATCH.clear()
        try:
            cold = op_builders.build_call(spelling, args, kwargs, span)
        finally:
            op_builders._DISPATCH.update(saved)
        assert warm == cold and type(warm) is type(cold)


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


def test_memoised_plain_calls_build_what_a_cold_build_builds(
        recorded: tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]) -> None:
    builds, _ = recorded
    hits = 0
    for spelling, args, kwargs, span in builds:
        try:
            op_builders.build_call(spelling, args, kwargs, span)  # fills the memo where it applies
            warm = op_builders.build_call(spelling, args, kwargs, span)
        except PlError:
            continue
        key = None if kwargs else op_builders._plain_key(spelling, args)
        hits += key is not None and key in op_builders._PLAIN
        saved_plain, saved_dispatch = dict(op_builders._PLAIN), dict(op_builders._DISPATCH)
        op_builders._PLAIN.clear()
        op_builders._DISPATCH.clear()
        try:
            cold = op_builders.build_call(spelling, args, kwargs, span)
        finally:
            op_builders._PLAIN.update(saved_plain)
            op_builders._DISPATCH.update(saved_dispatch)
        assert warm == cold and type(warm) is type(cold) and warm.span == cold.span
        if isinstance(warm, Call):
            assert warm.args == cold.args and all(a is b for a, b in zip(warm.args, cold.args, strict=True))
    assert hits


def test_plain_call_memo_keys_only_tile_and_tensor_vars() -> None:
    t = pl.parse(kernel_source(1)).functions[0].params[0].type  # type: ignore[union-attr]
    x = Var("x", t)
    n = Var("n", ScalarType(DType.INDEX))
    assert op_builders._plain_key("pl.add", [x, x]) is not None
    assert op_builders._plain_key("pl.add", [x, n]) is None
    assert op_builders._plain_key("pl.add", [x, 1]) is None


def _outcome(path: Path | tuple[str, str]) -> tuple[str, Any]:
    """What `pl.parse` makes of a file (or of a (name, text) pair): its program, or its error's
    message, place and help."""
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
    mp.setattr(frontend_exprs, "_plain_var_args", lambda ctx, args: None)
    mp.setattr(op_builders, "_plain_key", lambda spelling, args: None)


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
    assert fast[0] == slow[0]
    if fast[0] == "ok":
        assert_structural_equal(fast[1], slow[1])
        assert fast[1].as_python() == slow[1].as_python()
    else:
        assert fast[1] == slow[1]


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
    """`parse_tree(text, tree, python_tree)` lowers the caller's parses (the benchmark lowers the
    trees its timed parses made) to what `pl.parse`'s own parses give."""
    text = kernel_source(30)
    from_callers_tree = parse_tree(text, cst.parse_module(text), parse_python(text, "<own_tree>"),
                                   "<own_tree>")
    from_own_parse = pl.parse(text, filename="<own_parse>")
    assert_structural_equal(from_callers_tree, from_own_parse)
