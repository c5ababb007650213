"""The frontend's shortcuts give exactly what the general paths give.

- the per-function memo of dotted names never hides a kernel value that shadows the root name;
- kernel values bound in outer scopes stay visible in inner ones, and inner bindings shadow them;
- a caller's own LibCST parse lowers like the frontend's;
- the memo of op builds of one parse keys argument types by value, and builds what a cold build
  builds.
"""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest

import pl
from bench.generate import kernel_source
from pl.errors import PlError
from pl.ir.enums import DType, MemorySpace
from pl.ir.expr import Call, ConstInt, Var
from pl.ir.span import UNKNOWN_SPAN
from pl.ir.types import ScalarType, TileType
from pl.lowering.frontend.context import FnCtx, ProgCtx
from pl.lowering.frontend.op_builders import PlainCalls, build_call
from pl.lowering.frontend.parse import parse_tree
from pl.lowering.frontend.source import SourceFile
from pl.lowering.source.python import parse_python
from pl.structural import assert_structural_equal

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))
BAD_FILES = sorted((ROOT / "tests" / "bad_inputs").glob("*.py")) \
    + sorted((ROOT / "tests" / "error_fixtures").glob("*.py"))



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
    """`parse_tree(text, tree, python_tree)` lowers the caller's parses (the benchmark lowers the
    trees its timed parses made) to what `pl.parse`'s own parses give."""
    text = kernel_source(30)
    from_callers_tree = parse_tree(text, cst.parse_module(text), parse_python(text, "<own_tree>"),
                                   "<own_tree>")
    from_own_parse = pl.parse(text, filename="<own_parse>")
    assert_structural_equal(from_callers_tree, from_own_parse)
    assert pl.python_print(from_callers_tree) == pl.python_print(from_own_parse)


def _tile_var(name: str, rows: int, cols: int) -> Var:
    return Var(name, TileType((ConstInt(rows), ConstInt(cols)), DType.FP32, MemorySpace.Vec))


def test_remembered_op_builds_key_types_by_value() -> None:
    """A parse's memo of keyword-free calls (`PlainCalls`) tells argument types apart by value,
    not by object: equal types made separately share a remembered build, unequal ones never do,
    and every build through the memo equals the build without it."""
    memo: PlainCalls = {}
    a, b = _tile_var("a", 16, 128), _tile_var("b", 16, 128)  # equal types, two objects
    wide = _tile_var("wide", 16, 256)
    assert a.type is not b.type and a.type == b.type
    first = build_call("pl.add", [a, a], {}, UNKNOWN_SPAN, memo)
    again = build_call("pl.add", [b, b], {}, UNKNOWN_SPAN, memo)  # a remembered build
    assert len(memo) == 1
    other = build_call("pl.add", [wide, wide], {}, UNKNOWN_SPAN, memo)
    assert len(memo) == 2
    assert isinstance(first, Call) and isinstance(again, Call) and isinstance(other, Call)
    assert again.result_type is first.result_type  # the remembered result type itself
    assert other.result_type != first.result_type
    for built, args in ((first, [a, a]), (again, [b, b]), (other, [wide, wide])):
        assert built.args == tuple(args)
        assert_structural_equal(built, build_call("pl.add", args, {}, UNKNOWN_SPAN))
