"""The printer's specialised code generator (pl.printer_codegen) renders exactly what LibCST does.

Checked on the printed form of every example program (before and after compilation), on every
Python file of this project parsed by LibCST (so whitespace, comments and node kinds the printer
never builds go through the fallback), and on hand-built trees with non-default spellings.
"""

from __future__ import annotations

import sys
from pathlib import Path

import libcst as cst
import pytest

from bench.generate import kernel_source
from lowering.frontend.parse import parse
from pl.compiler import compile_program
from pl.ir.function import Program
from pl.printer.codegen import code, line_code, module_code
from pl.printer.program import print_node
from pl.show_inferred.annotate import load_programs

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))
SOURCES = sorted(p for d in ("pl", "lowering", "infer", "tests", "bench", "examples")
                 for p in (ROOT / d).rglob("*.py") if "bad_inputs" not in p.parts)


def _programs(path: Path) -> list[Program]:
    return load_programs(path.read_text(encoding="utf-8"), str(path))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_printed_examples_equal_libcst_rendering(path: Path) -> None:
    for prog in _programs(path):
        for p in (prog, compile_program(prog, "910B").program):
            text = print_node(p)
            module = cst.parse_module(text)
            assert module.code == text  # the printer's text is LibCST's own rendering of it
            assert module_code(module) == text
            for stmt in module.body:
                assert code(stmt) == module.code_for_node(stmt)


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_statement_of_the_project_sources(path: Path) -> None:
    module = cst.parse_module(path.read_text(encoding="utf-8"))
    assert module_code(module) == module.code
    for stmt in module.body:
        assert code(stmt) == module.code_for_node(stmt)
        if isinstance(stmt, cst.ClassDef | cst.FunctionDef):
            for inner in stmt.body.body:
                expected = _at_indent(inner, "    ")
                assert line_code(inner, "    ") == expected


def _at_indent(node: cst.CSTNode, indent: str) -> str:
    from libcst._nodes.internal import CodegenState

    state = CodegenState(default_indent="    ", default_newline="\n")
    state.increase_indent(indent)
    node._codegen(state)
    return "".join(state.tokens)


_BREAK = cst.ParenthesizedWhitespace(first_line=cst.TrailingWhitespace(), empty_lines=[],
                                     indent=True, last_line=cst.SimpleWhitespace("    "))

HAND_BUILT: list[cst.CSTNode] = [
    cst.SimpleStatementLine([cst.Expr(cst.Call(cst.Name("f"), whitespace_before_args=_BREAK,
                                               args=[cst.Arg(cst.Name("a"), comma=cst.Comma(
                                                   whitespace_after=_BREAK)), cst.Arg(cst.Integer("1"))]))]),
    cst.SimpleStatementLine([cst.Pass(), cst.Break(), cst.Continue(), cst.Return(None)]),
    cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(cst.Name("x")), cst.AssignTarget(cst.Name("y"))],
                                        cst.Tuple([cst.Element(cst.Name("a"))]))],
                            leading_lines=[cst.EmptyLine(comment=cst.Comment("# c")), cst.EmptyLine(indent=False)]),
    cst.SimpleStatementLine([cst.AnnAssign(cst.Name("x"), cst.Annotation(cst.Subscript(
        cst.Name("T"), [cst.SubscriptElement(cst.Index(cst.List([cst.Element(cst.Integer("1"))])))])),
        None)]),
    cst.SimpleStatementLine([cst.Expr(cst.Subscript(cst.Name("a"), [cst.SubscriptElement(cst.Slice(
        cst.Integer("1"), None))]))]),
    cst.SimpleStatementLine([cst.Expr(cst.Name("x", lpar=[cst.LeftParen()], rpar=[cst.RightParen()]))],
                            trailing_whitespace=cst.TrailingWhitespace(
                                whitespace=cst.SimpleWhitespace("  "), comment=cst.Comment("# t"))),
    cst.SimpleStatementLine([cst.Expr(cst.List([cst.StarredElement(cst.Name("a")), cst.Element(cst.Name("b"))]))]),
    cst.SimpleStatementLine([cst.Expr(cst.Call(cst.Name("g"), [cst.Arg(cst.Name("v"), star="**")]))]),
    cst.If(cst.Name("c"), cst.IndentedBlock([cst.SimpleStatementLine([cst.Pass()])]),
           orelse=cst.If(cst.Name("d"), cst.IndentedBlock([])), leading_lines=[cst.EmptyLine()]),
    cst.For(cst.Name("i"), cst.Name("r"), cst.IndentedBlock(
        [cst.SimpleStatementLine([cst.Pass()])], indent="\t"), orelse=cst.Else(cst.IndentedBlock(
            [cst.SimpleStatementLine([cst.Expr(cst.Name("__pl_codegen_body_0__"))])]))),
    cst.While(cst.Name("w"), cst.IndentedBlock([cst.For(cst.Name("j"), cst.Name("s"), cst.IndentedBlock(
        [cst.SimpleStatementLine([cst.Break()])]))])),
]


@pytest.mark.parametrize("node", HAND_BUILT, ids=lambda n: type(n).__name__)
@pytest.mark.parametrize("indent", ["", "    ", "        "])
def test_hand_built_trees(node: cst.CSTNode, indent: str) -> None:
    assert line_code(node, indent) == _at_indent(node, indent)
    assert code(node) == cst.Module([]).code_for_node(node)


def test_long_bodies_print_without_deep_recursion() -> None:
    program = parse(kernel_source(1500), filename="<long>")
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(200)  # far fewer frames than statements: printing must loop
    try:
        text = print_node(program)
    finally:
        sys.setrecursionlimit(limit)
    module = cst.parse_module(text)
    assert module.code == text
    # 1500 statements: every 10th a matmul, the other 1350 cycle add / mul / sub
    assert text.count("pl.tile.add(") == text.count("pl.tile.sub(") == 450
    assert text.count("pl.tile.matmul(") == 150
