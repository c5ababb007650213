"""An inserted `x: T = pl.move(...)` line of show_inferred is the printer's own text of that
statement (`Spelling.statement`): wrapped by the printer's rule at the depth it goes to, spelled
with the file's name for `pl`. The node it is built as (`Spelling.statement_node`, not parsed)
is what LibCST parses that text to, and renders to it in a block of any indentation (the
regenerated file is its tree rendered)."""

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
from pl.show_inferred.edit import Spelling
from pl.show_inferred.lowered import reindented

_KWARGS: list[dict[str, Any]] = [
    {},
    {"target_memory": MemorySpace.Left},
    {"target_memory": MemorySpace.Vec, "blayout": TileLayout.row_major, "slayout": TileLayout.none_box},
]


def render(stmt: cst.BaseStatement, indent: str) -> str:
    """The text LibCST renders `stmt` to inside a block indented by `indent` (as the body of a
    placeholder `if`, whose line is dropped)."""
    holder = cst.If(test=cst.Name("_"), body=cst.IndentedBlock(body=[stmt], indent=indent))
    return cst.Module(body=[]).code_for_node(holder).split("\n", 1)[1]


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
    move = _move(name, shape, kwargs)
    text = Spelling().statement(move, ind)
    lines = text.splitlines()
    assert unbroken(text).startswith(
        f"{ind}{name}: pl.Tile[[{shape[0]}, {shape[1]}], pl.FP32, pl.MemorySpace.Vec] = pl.move(")
    assert f"{name}_src" in text and "__ssa" not in text
    assert all(line.startswith(ind) for line in lines)
    check_wrapping(text)
    if len(ind + name) < 20:
        assert all(len(line) <= WIDTH for line in lines)
    # The node built for the line is LibCST's parse of it, and renders to it at any depth.
    node = Spelling().statement_node(move, text)
    assert node.deep_equals(cst.parse_statement(reindented(text, ind, "")))
    for block_indent in (ind, "  ", "\t"):
        assert render(node, block_indent) == reindented(text, ind, block_indent)


def test_move_line_spells_the_files_root() -> None:
    text = Spelling("p").statement(_move("x", (16, 16), _KWARGS[1]), "        ")
    assert text == ("        x: p.Tile[[16, 16], p.FP32, p.MemorySpace.Vec] = p.move(\n"
                    "            x_src, target_memory=p.MemorySpace.Left\n"
                    "        )\n")
    assert "pl." not in text
