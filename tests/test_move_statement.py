"""`move_statement` (an inserted `x: T = pl.move(...)` line of show_inferred) composes its text
from its parts and builds its nodes unvalidated: the text it remembers must be what LibCST renders
its node to, and both must equal the line built from validated nodes and wrapped by the printer's
`wrap_statement`."""

from __future__ import annotations

from typing import Any

import libcst as cst
import pytest

from pl.ir.enums import DType, MemorySpace, TileLayout
from pl.ir.expr import ConstInt
from pl.ir.types import TileType
from pl.printer.codegen import libcst_code, line_code
from pl.printer.exprs import Ctx, value_node
from pl.printer.wrap import wrap_statement
from pl.show_inferred.edit import move_statement, type_annotation

_CTX = Ctx(name_of=lambda v: v.name)


def _validated(name: str, t: TileType, source: str, kwargs: dict[str, cst.BaseExpression],
               indent: int) -> cst.SimpleStatementLine:
    no_space = cst.SimpleWhitespace("")
    args = [cst.Arg(cst.Name(source))] + [
        cst.Arg(v, keyword=cst.Name(k), equal=cst.AssignEqual(whitespace_before=no_space,
                                                              whitespace_after=no_space))
        for k, v in kwargs.items()]
    call = cst.Call(cst.Attribute(cst.Name("pl"), cst.Name("move")), args)
    small = cst.AnnAssign(cst.Name(name), cst.Annotation(type_annotation(t), whitespace_before_indicator=no_space,
                                                         whitespace_after_indicator=cst.SimpleWhitespace(" ")), call)
    return wrap_statement(cst.SimpleStatementLine([small]), indent)


_KWARGS: list[dict[str, Any]] = [
    {},
    {"target_memory": MemorySpace.Left},
    {"target_memory": MemorySpace.Vec, "blayout": TileLayout.row_major, "slayout": TileLayout.none_box},
]


@pytest.mark.parametrize("indent", [4, 8, 40])
@pytest.mark.parametrize("name", ["a", "t10__v0_Vec", "a_very_long_name_" * 4])
@pytest.mark.parametrize("kwargs", _KWARGS, ids=["none", "space", "layouts"])
@pytest.mark.parametrize("shape", [(64, 64), (1, 4096)])
def test_move_line_text_equals_the_validated_line(shape: tuple[int, int], kwargs: dict[str, Any],
                                                  name: str, indent: int) -> None:
    t = TileType(tuple(ConstInt(d) for d in shape), DType.FP32, MemorySpace.Vec)
    nodes = {k: value_node(v, _CTX, k) for k, v in kwargs.items()}
    ind = " " * indent
    line = move_statement(name, t, name + "_src", nodes, indent)
    expected = libcst_code(_validated(name, t, name + "_src", nodes, indent), ind)
    assert line_code(line, ind) == expected  # the remembered text
    assert libcst_code(line, ind) == expected  # what the node itself renders to
    assert libcst_code(line, "\t") == libcst_code(_validated(name, t, name + "_src", nodes, indent), "\t")
