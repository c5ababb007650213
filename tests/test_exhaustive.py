"""Every `match` over a closed set of node kinds names each kind and ends in `case _: assert_never(x)`,
so that adding a statement, expression or type kind (pl/ir: `StmtKind`, `ExprKind`, `TypeKind`) or
meeting a LibCST compound statement (pl/lowering/frontend/positions.py: `CompoundKind`) is a mypy error
at every dispatch that misses it, never a silent skip or a user error at run time.

The check reads the package's source with `ast`: a match is over node kinds when one of its case
patterns names a kind class. The exceptions are listed in `EXEMPT` with the reason.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import get_args

import libcst as cst

from pl.ir.expr import ExprKind, IterArg
from pl.ir.stmt import StmtKind
from pl.ir.types import TypeKind
from pl.lowering.frontend.positions import CompoundKind

PACKAGE = Path(__file__).resolve().parent.parent / "pl"

IR_KINDS = {c.__name__ for u in (StmtKind, ExprKind, TypeKind) for c in get_args(u)} | {IterArg.__name__}
CST_KINDS = {f"cst.{c.__name__}" for c in get_args(CompoundKind)}

# (file under pl/, enclosing function) -> why its match may end otherwise.
EXEMPT = {
    ("lowering/frontend/exprs.py", "_attr_value"):
        "its value is any attribute value, not only an Expr: three constant spellings become Python "
        "values, anything else is kept as it is",
    ("mypy_plugin.py", "_children"):
        "mypy's own statement classes (named like pl's ForStmt / IfStmt), an open hierarchy of "
        "another package: a statement without a nested block has no children",
}


def _names(pattern: ast.pattern) -> set[str]:
    return {ast.unparse(p.cls) for p in ast.walk(pattern) if isinstance(p, ast.MatchClass)}


def _ends_in_assert_never(m: ast.Match) -> bool:
    last = m.cases[-1]
    if not (isinstance(last.pattern, ast.MatchAs) and last.pattern.pattern is None
            and last.pattern.name is None and last.guard is None and len(last.body) == 1):
        return False
    stmt = last.body[0]
    return (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)
            and isinstance(stmt.value.func, ast.Name) and stmt.value.func.id == "assert_never"
            and len(stmt.value.args) == 1 and isinstance(stmt.value.args[0], ast.Name))


def _matches(path: Path) -> list[tuple[str, ast.Match]]:
    """Each match of the file with the name of its innermost enclosing function."""
    found: list[tuple[str, ast.Match]] = []

    def visit(node: ast.AST, func: str) -> None:
        for child in ast.iter_child_nodes(node):
            inner = child.name if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) else func
            if isinstance(child, ast.Match):
                found.append((func, child))
            visit(child, inner)

    visit(ast.parse(path.read_text(encoding="utf-8")), "")
    return found


def kind_matches() -> tuple[list[str], list[str]]:
    """(every match over node kinds, those not ending in assert_never nor exempt), as
    "file:line (function)" strings."""
    every, missing = [], []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        for func, m in _matches(path):
            named = set().union(*(_names(c.pattern) for c in m.cases))
            if not named & (IR_KINDS | CST_KINDS):
                continue
            where = f"pl/{rel}:{m.lineno} ({func})"
            every.append(where)
            # A match over a pair compares two nodes: its default is "they differ", no missing kind.
            if isinstance(m.subject, ast.Tuple) or (rel, func) in EXEMPT:
                continue
            if not _ends_in_assert_never(m):
                missing.append(where)
    return every, missing


def test_every_match_over_node_kinds_ends_in_assert_never() -> None:
    every, missing = kind_matches()
    assert len(every) > 40  # the check sees the package's dispatches
    assert missing == [], ("these matches over node kinds do not end in `case _: assert_never(x)` "
                           "(match on `stmt_kind(s)` / `expr_kind(e)` / `type_kind(t)` / "
                           "`compound_kind(node)` and name every kind):\n" + "\n".join(missing))


def test_exemptions_are_still_there() -> None:
    seen = {(path.relative_to(PACKAGE).as_posix(), func)
            for path in PACKAGE.rglob("*.py") for func, _ in _matches(path)}
    assert set(EXEMPT) <= seen


def _concrete(base: type) -> set[str]:
    # By name: LibCST's slotted dataclasses leave the class the decorator replaced among the
    # subclasses too.
    out, todo = set(), [base]
    while todo:
        for sub in todo.pop().__subclasses__():
            todo.append(sub)
            if not sub.__name__.startswith("_"):
                out.add(sub.__name__)
    return out


def test_compound_kind_lists_every_libcst_compound_statement() -> None:
    assert {c.__name__ for c in get_args(CompoundKind)} == _concrete(cst.BaseCompoundStatement)


def test_the_check_finds_a_match_that_skips_a_kind(tmp_path: Path) -> None:
    bad = ast.parse("def f(s):\n    match stmt_kind(s):\n        case IfStmt():\n            pass\n"
                    "        case _:\n            pass\n")
    good = ast.parse("def f(s):\n    match stmt_kind(s):\n        case IfStmt():\n            pass\n"
                     "        case _:\n            assert_never(s)\n")
    for tree, ends in [(bad, False), (good, True)]:
        m = next(n for n in ast.walk(tree) if isinstance(n, ast.Match))
        assert _ends_in_assert_never(m) is ends


def test_every_operator_has_a_printed_form() -> None:
    # An IR operator is a member of pl/ir/operators.py's BinaryOp / UnaryOp (a string is a type
    # error), and each member's record carries its spelling: the printer spells every one, so no
    # operator without a printed form can reach it.
    from pl.ir.enums import DType
    from pl.ir.expr import BinaryExpr, ConstInt, UnaryExpr
    from pl.ir.operators import BinaryOp, UnaryOp
    from pl.printer.exprs import PrintContext, expr_text

    one = ConstInt(1, DType.INDEX)
    ctx = PrintContext(name_of=lambda v: v.name)
    for e in (*(BinaryExpr(op, one, one, DType.INDEX) for op in BinaryOp),
              *(UnaryExpr(op, one, DType.INDEX) for op in UnaryOp)):
        assert e.op.symbol.strip() in expr_text(e, ctx)
