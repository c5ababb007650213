"""The printer's name analysis (pl/printer/names.py) walks each function once for both namings
and the callees, in the order of the one IR traversal (pl/ir/traverse.py), and its shortcuts
equal their plain definitions. Checked on every example (before and after compilation), on the
programs the tests hold as data, and on the benchmark kernel.
`PROGRAMS` is shared with tests/test_printer_text.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from infer_cases.cases import CASES as INFER_CASES

from bench.generate import kernel_source
from pl.compiler import compile_program
from pl.ir.expr import Call, Expr, GlobalVar, Var
from pl.ir.function import Function, Program
from pl.ir.stmt import ForStmt
from pl.ir.traverse import stmt_exprs, type_exprs, walk_exprs, walk_stmts
from pl.lowering.frontend.parse import parse
from pl.printer.names import Names, collect, dynamic_dims, unique_names
from pl.printer.program import callees
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


def _functions(program: Program) -> list[Function]:
    return list(program.functions)


def _slow_dynamic_dims(functions: list[Function]) -> dict[Var, str]:
    """dynamic_dims by its definition: every type of every function, walked each time."""
    order: list[Var] = []
    for f in functions:
        c = collect(f)
        for t in [*(p.type for p in f.params), *f.return_types, *c.types]:
            order.extend(v for d in type_exprs(t) for v in walk_exprs(d) if isinstance(v, Var))
    return unique_names(order)


def _traversal_order(f: Function) -> tuple[list[Var], list[str]]:
    """The Var uses and the callees of `f` by pl.ir.traverse: statements and expressions pre-order
    (and a loop's attrs after its header expressions)."""
    uses: list[Var] = []
    found: dict[str, None] = {}
    for s in walk_stmts(f.body):
        for root in stmt_exprs(s):
            for e in walk_exprs(root):
                if isinstance(e, Var):
                    uses.append(e)
                elif isinstance(e, Call) and isinstance(e.op, GlobalVar):
                    found.setdefault(e.op.name, None)
        if isinstance(s, ForStmt):  # a loop's attrs: uses to name, never calls
            uses.extend(e for _, v in s.attrs if isinstance(v, Expr) for e in walk_exprs(v) if isinstance(e, Var))
    return uses, list(found)


@pytest.mark.parametrize(("label", "program"), PROGRAMS, ids=IDS)
def test_name_analysis_follows_the_traversal(label: str, program: Program) -> None:
    functions = _functions(program)
    collected = [collect(f) for f in functions]
    dyn = dynamic_dims(functions, collected)
    assert dyn == _slow_dynamic_dims(functions) == dynamic_dims(functions)
    for f, c in zip(functions, collected, strict=True):
        shared, alone = Names.for_function(f, dyn, c), Names.for_function(f, dyn)
        for v in [*f.params, *c.defs, *c.uses]:
            assert shared(v) == alone(v)
        uses, found = _traversal_order(f)
        assert c.uses == uses
        assert callees(f) == found == c.callees
