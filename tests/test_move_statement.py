"""An inserted `x: T = pl.move(...)` line of show_inferred is the printer's own text of that
statement (`Spelling.statement`): wrapped by the printer's rule at the depth it goes to, spelled
with the file's name for `pl`, and the same text whether the regenerated file is spliced
(`reindented` into the block) or rendered by LibCST from the line parsed back (any indentation).
An annotation a user's `x = v` line gains is inserted as text (`with_annotation`), exactly what
LibCST renders the annotated line to."""

from __future__ import annotations

from typing import Any

import libcst as cst
import pytest
from wrap_check import check_wrapping, unbroken

from pl.ir.enums import DType, MemorySpace, TileLayout
from pl.ir.expr import Call, ConstInt, Op, Var
from pl.ir.stmt import AssignStmt
from pl.ir.types import TileType
from pl.printer.doc import WIDTH
from pl.show_inferred.edit import Spelling, annotate_small
from pl.show_inferred.splice import reindented, render, with_annotation

_KWARGS: list[dict[str, Any]] = [
    {},
    {"target_memory": MemorySpace.Left},
    {"target_memory": MemorySpace.Vec, "blayout": TileLayout.row_major, "slayout": TileLayout.none_box},
]


def _move(name: str, shape: tuple[int, int], kwargs: dict[str, Any]) -> AssignStmt:
    t = TileType(tuple(ConstInt(d) for d in shape), DType.FP32, MemorySpace.Vec)
    source = Var(name + "_src__ssa_v3", t)  # printed as the user's name, `<name>_src`
    return AssignStmt(Var(name, t), Call(Op("move"), (source,), tuple(kwargs.items()), (), t))


@pytest.mark.parametrize("indent", [4, 8, 40])
@pytest.mark.parametrize("name", ["a", "t10_Vec", "a_very_long_name_" * 4])
@pytest.mark.parametrize("kwargs", _KWARGS, ids=["none", "space", "layouts"])
@pytest.mark.parametrize("shape", [(64, 64), (1, 4096)])
def test_move_line_is_the_printers_text(shape: tuple[int, int], kwargs: dict[str, Any], name: str,
                                        indent: int) -> None:
    ind = " " * indent
    text = Spelling().statement(_move(name, shape, kwargs), ind)
    lines = text.splitlines()
    assert unbroken(text).startswith(
        f"{ind}{name}: pl.Tile[[{shape[0]}, {shape[1]}], pl.FP32, pl.MemorySpace.Vec] = pl.move(")
    assert f"{name}_src" in text and "__ssa" not in text
    assert all(line.startswith(ind) for line in lines)
    check_wrapping(text)
    if len(ind + name) < 20:
        assert all(len(line) <= WIDTH for line in lines)
    # The rendered module parses the line back: LibCST renders it to the spliced text.
    node = cst.parse_statement(reindented(text, ind, ""))
    for block_indent in (ind, "  ", "\t"):
        assert render(node, block_indent) == reindented(text, ind, block_indent)


def test_move_line_spells_the_files_root() -> None:
    text = Spelling("p").statement(_move("x", (16, 16), _KWARGS[1]), "        ")
    assert text == ("        x: p.Tile[[16, 16], p.FP32, p.MemorySpace.Vec] = p.move(\n"
                    "            x_src, target_memory=p.MemorySpace.Left\n"
                    "        )\n")
    assert "pl." not in text


@pytest.mark.parametrize("source", [
    "x = pl.add(a, b)\n",
    "\n    # why\n\n    x  =  pl.add(a,  b)  # keep\n",
    "x = pl.add(\n    a, b\n)\n",
])
def test_with_annotation_equals_the_rendered_annotated_line(source: str) -> None:
    """The annotation `x = v` gains, inserted as text, is what LibCST renders the edited line to."""
    line = cst.parse_module("if _:\n" + "".join("    " + ln if ln.strip() else ln
                                                 for ln in source.splitlines(keepends=True)))
    block = line.body[0]
    assert isinstance(block, cst.If)
    stmt = block.body.body[0]
    assert isinstance(stmt, cst.SimpleStatementLine)
    text = render(stmt, "    ")
    t = TileType((ConstInt(16), ConstInt(16)), DType.FP32, MemorySpace.Vec)
    spell = Spelling()
    edited = stmt.with_changes(body=[annotate_small(stmt.body[0], t, spell)])
    assert with_annotation(text, stmt, ": " + spell.type_text(t)) == render(edited, "    ")
    tuple_target = cst.parse_statement("a, b = f()\n")
    assert isinstance(tuple_target, cst.SimpleStatementLine)
    assert with_annotation("a, b = f()\n", tuple_target, ": T") is None
