"""The printer's fast paths give exactly what the slow paths give.

The printer builds its hot LibCST nodes without validation (pl.printer_nodes), shares nodes between
statements, derives a wrapped line's text from its flat text instead of rendering it again
(pl.printer_wrap), composes the text of `v: T = pl.op(...)` lines from their parts' texts and builds
them once in their final form (pl.printer_stmts), and walks each function once for both namings and
the callees (pl.printer_names). Checked on
every example (before and after compilation, both memory-space spellings), on the programs the
tests hold as data, and on the benchmark kernel:
  - LibCST's own rendering of the printed tree equals the printer's text (so every remembered or
    derived text is the tree's true text), and the tree survives LibCST's validation when rebuilt;
  - the composed lines print exactly as the general path prints them;
  - the shortcuts of the name analysis (and the Collector's callees) equal their plain definitions.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import libcst as cst
import pytest
from infer_cases.cases import CASES as INFER_CASES

from bench.generate import kernel_source
from lowering.frontend.parse import parse
from pl.compiler import compile_program
from pl.ir.expr import Call, Expr, GlobalVar, Var
from pl.ir.function import Function, Program
from pl.ir.stmt import AssignStmt, Stmt
from pl.printer.names import (
    Names,
    children_of,
    collect,
    dynamic_dims,
    expr_children,
    type_exprs,
    unique_names,
    vars_in_exprs,
)
from pl.printer.program import _stmt_exprs, _sub_bodies, callees, print_node, printed_module
from pl.show_inferred.annotate import load_programs

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))


def _programs() -> Iterator[tuple[str, Program]]:
    for path in EXAMPLES:
        for i, prog in enumerate(load_programs(path.read_text(encoding="utf-8"), str(path))):
            yield f"{path.stem}:{i}", prog
            yield f"{path.stem}:{i}:compiled", compile_program(prog, "910B").program
    for c in INFER_CASES:
        for part in ("Before", "Expected"):
            yield f"infer:{c.name}:{part}", parse(c.source(part), filename=f"<{c.name}>")
    yield "wrap-boundaries", parse(_wrap_boundaries_source(), filename="<wrap-boundaries>")
    bench = parse(kernel_source(300), filename="<bench>")
    yield "bench", bench
    yield "bench:compiled", compile_program(bench, "910B").program


def _wrap_boundaries_source() -> str:
    """Assignments whose names grow by one column each, so that the printed lines cross every
    wrapping threshold: flat at 100 / 101 columns, arguments on one line, one argument per line."""
    lines = ["import pl", "", "", "@pl.program", "class K:", "    @pl.function(type=pl.FunctionType.InCore)",
             "    def kern(self, x: pl.Tensor[[64, 64], pl.FP32]) -> pl.Tensor[[64, 64], pl.FP32]:",
             "        a = pl.load(x, [0, 0], [64, 64])"]
    for n in range(1, 80):  # the flat line, then the call's first line, grow by one column
        lines.append(f"        v{'x' * n} = pl.add(a, a)")
    for n in range(1, 16):  # the line of the arguments grows by one column
        lines.append(f"        w{n} = pl.add(v{'x' * 79}, v{'x' * n})")
    return "\n".join([*lines, "        return x", ""])


PROGRAMS = list(_programs())
IDS = [label for label, _ in PROGRAMS]


@pytest.mark.parametrize("mem_alias", [False, True])
@pytest.mark.parametrize(("label", "program"), PROGRAMS, ids=IDS)
def test_printed_tree_renders_to_the_printed_text(label: str, program: Program, mem_alias: bool) -> None:
    text = print_node(program, mem_alias=mem_alias)
    module = printed_module(program, mem_alias=mem_alias)
    assert module.code == text  # LibCST's rendering, blind to the printer's remembered texts
    assert print_node(program, mem_alias=mem_alias) == text  # printing is pure


@pytest.mark.parametrize(("label", "program"), PROGRAMS, ids=IDS)
def test_composed_lines_equal_the_general_path(label: str, program: Program, monkeypatch: pytest.MonkeyPatch) -> None:
    """`v: T = pl.op(...)` lines built in their final form from their parts' texts print exactly
    as the general path (build the flat line, render it, wrap it) prints them."""
    from pl.printer.stmts import StmtPrinter

    fast = print_node(program), print_node(program, mem_alias=True)
    monkeypatch.setattr(StmtPrinter, "_assign_call", lambda self, s, value, depth: None)
    assert (print_node(program), print_node(program, mem_alias=True)) == fast


def test_composed_lines_are_the_common_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """The benchmark kernel's assignments take the composed path (it is not silently bypassed)."""
    from pl.printer.stmts import StmtPrinter

    composed = StmtPrinter._assign_call
    results: list[bool] = []

    def counting(self: StmtPrinter, s: AssignStmt, value: Call, depth: int) -> cst.SimpleStatementLine | None:
        line = composed(self, s, value, depth)
        results.append(line is not None)
        return line

    monkeypatch.setattr(StmtPrinter, "_assign_call", counting)
    print_node(dict(PROGRAMS)["bench:compiled"])
    assert sum(results) > 300 and results.count(False) == 1  # `self.kern(...)`: a program function


@pytest.mark.parametrize(("label", "program"), PROGRAMS[:6], ids=IDS[:6])
def test_unvalidated_nodes_are_valid(label: str, program: Program) -> None:
    """Every node built without validation passes LibCST's validation when rebuilt."""

    class Revalidate(cst.CSTTransformer):
        def on_leave(self, original: cst.CSTNode, updated: cst.CSTNode) -> cst.CSTNode:
            return updated.with_changes()  # `with_changes` constructs, hence validates, a copy

    module = printed_module(program)
    assert module.visit(Revalidate()).code == module.code


def _all_exprs(f: Function) -> Iterator[Expr]:
    stack: list[Stmt] = [f.body]
    while stack:
        s = stack.pop()
        stack.extend(_sub_bodies(s))
        exprs = list(_stmt_exprs(s))
        while exprs:
            e = exprs.pop()
            yield e
            exprs.extend(expr_children(e))


def _functions(program: Program) -> list[Function]:
    return list(program.functions)


@pytest.mark.parametrize(("label", "program"), PROGRAMS, ids=IDS)
def test_children_of_equals_expr_children(label: str, program: Program) -> None:
    for f in _functions(program):
        for e in _all_exprs(f):
            assert list(children_of(e)) == list(expr_children(e))


def _slow_dynamic_dims(functions: list[Function]) -> dict[Var, str]:
    """dynamic_dims by its definition: every type of every function, walked each time."""
    order: list[Var] = []
    for f in functions:
        c = collect(f)
        for t in [*(p.type for p in f.params), *f.return_types, *c.types]:
            order.extend(vars_in_exprs(type_exprs(t)))
    return unique_names(order)


def _slow_callees(f: Function) -> list[str]:
    found: dict[str, None] = {}
    stack: list[Stmt] = [f.body]
    while stack:
        s = stack.pop()
        stack.extend(reversed(_sub_bodies(s)))
        exprs = list(_stmt_exprs(s))[::-1]
        while exprs:
            e = exprs.pop()
            if isinstance(e, Call) and isinstance(e.op, GlobalVar):
                found.setdefault(e.op.name, None)
            exprs.extend(reversed(list(expr_children(e))))
    return list(found)


@pytest.mark.parametrize(("label", "program"), PROGRAMS, ids=IDS)
def test_name_analysis_shortcuts(label: str, program: Program) -> None:
    functions = _functions(program)
    collected = [collect(f) for f in functions]
    dyn = dynamic_dims(functions, collected)
    assert dyn == _slow_dynamic_dims(functions) == dynamic_dims(functions)
    for f, c in zip(functions, collected, strict=True):
        shared, alone = Names.for_function(f, dyn, c), Names.for_function(f, dyn)
        for v in [*f.params, *c.defs, *c.uses]:
            assert shared(v) == alone(v)
        assert callees(f) == _slow_callees(f) == c.callees  # the Collector's walk finds them too



def test_unvalidated_builders_equal_libcst_constructors() -> None:
    from pl.printer import nodes as n
    x, t = cst.Name("x"), cst.Name("T")
    built_and_expected = [
        (n.name_node("x"), cst.Name("x")),
        (n.arg(x), cst.Arg(x)),
        (n.keyword_arg("k", x), cst.Arg(x, keyword=cst.Name("k"), equal=cst.AssignEqual(
            whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")))),
        (n.call_node_of(x, [n.arg(t)]), cst.Call(func=x, args=[cst.Arg(t)])),
        (n.call_node_of(x, [n.arg(t)], cst.SimpleWhitespace(" ")),
         cst.Call(func=x, args=[cst.Arg(t)], whitespace_before_args=cst.SimpleWhitespace(" "))),
        (n.annotation(t), cst.Annotation(t)),
        (n.ann_assign(x, n.annotation(t), x), cst.AnnAssign(target=x, annotation=cst.Annotation(t), value=x)),
        (n.expr_statement(x), cst.Expr(x)),
        (n.simple_line(cst.Pass()), cst.SimpleStatementLine([cst.Pass()])),
        (n.element(x), cst.Element(x)),
        (n.list_of([x, t]), cst.List([cst.Element(x), cst.Element(t)])),
        (n.replace_unchecked(cst.Arg(x), value=t), cst.Arg(x).with_changes(value=t)),
        (n.replace_unchecked(cst.Arg(x), comma=cst.Comma()), cst.Arg(x).with_changes(comma=cst.Comma())),
    ]
    for built, expected in built_and_expected:
        assert built.deep_equals(expected), (built, expected)
        assert type(built) is type(expected)
    with pytest.raises(cst.CSTValidationError):
        n.name_node("not an identifier")  # LibCST's own validation still rejects a bad name


@pytest.mark.parametrize(("label", "program"), [PROGRAMS[-1]], ids=[IDS[-1]])
def test_remembered_texts_only_accelerate(label: str, program: Program, monkeypatch: pytest.MonkeyPatch) -> None:
    """With a memo that is emptied every few entries (texts forgotten between the wrapper and the
    module's rendering), the printed text is the same."""
    from pl.printer import codegen_exprs as printer_codegen_exprs
    from pl.printer import wrap as printer_wrap
    text = print_node(program)
    monkeypatch.setattr(printer_codegen_exprs, "_MEMO_LIMIT", 5)
    monkeypatch.setattr(printer_wrap, "_CLOSING", {})
    assert print_node(program) == text
