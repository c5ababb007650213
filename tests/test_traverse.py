"""The IR traversal module (pl/ir/traverse.py) and the closed kind unions it matches over.

* `StmtKind` / `ExprKind` / `TypeKind` list every concrete statement / expression / type class, so
  a `match` ending in `assert_never` is exhaustive exactly when it handles every kind, and
  mypy --strict names the kind a match misses.
* Over every example and generated program, at every stage of the pipeline: `walk_stmts` is the
  pre-order of `child_bodies`, `stmt_exprs` holds no None, and `map_stmt` with identity functions
  hands back the very same statement; a changed part gives a new statement with span and comments.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import get_args

import pytest
from hypothesis import HealthCheck, given, settings
from kernel_strategies import GeneratedProgram, tile_programs

import pl
from pl.compiler import default_passes
from pl.ir import expr as ir_expr
from pl.ir import stmt as ir_stmt
from pl.ir import types as ir_types
from pl.ir.enums import DType, ScopeKind
from pl.ir.expr import BinaryExpr, Call, ConstInt, Expr, IterArg, Op, Var
from pl.ir.function import Program
from pl.ir.operators import BinaryOp
from pl.ir.span import Span
from pl.ir.stmt import (
    AssignStmt,
    ForStmt,
    IfStmt,
    ReturnStmt,
    ScopeStmt,
    SeqStmts,
    Stmt,
    WhileStmt,
    YieldStmt,
)
from pl.ir.traverse import (
    child_bodies,
    expr_children,
    map_expr,
    map_stmt,
    stmt_defs,
    stmt_exprs,
    walk_exprs,
    walk_stmts,
)
from pl.ir.types import ScalarType, Type
from pl.show_inferred.cli import load_programs

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))
INDEX = ScalarType(DType.INDEX)


def _subclasses(base: type) -> set[type]:
    out: set[type] = set()
    for c in base.__subclasses__():
        out |= {c} | _subclasses(c)
    return out


def _concrete(module: object, base: type) -> set[type]:
    """The IR classes below `base` the IR module defines under their names (test-local subclasses
    and the pre-slots copies `dataclass(slots=True)` leaves behind excluded)."""
    return {c for c in _subclasses(base) if getattr(module, c.__name__, None) is c}


def test_stmt_kind_lists_every_statement_class() -> None:
    assert set(get_args(ir_stmt.StmtKind)) == _concrete(ir_stmt, Stmt)


def test_expr_kind_lists_every_expression_class() -> None:
    # IterArg is a Var: `case Var()` handles both, so the union names Var only.
    assert set(get_args(ir_expr.ExprKind)) | {IterArg} == _concrete(ir_expr, Expr)


def test_type_kind_lists_every_type_class() -> None:
    assert set(get_args(ir_types.TypeKind)) == _concrete(ir_types, Type)


def test_mypy_names_the_kind_a_match_misses(tmp_path: Path) -> None:
    mypy_api = pytest.importorskip("mypy.api")
    src = tmp_path / "missing_case.py"
    src.write_text(textwrap.dedent("""\
        from typing_extensions import assert_never

        from pl.ir.stmt import (AssignStmt, BreakStmt, ContinueStmt, EvalStmt, ForStmt, IfStmt,
                                ReturnStmt, SeqStmts, Stmt, WhileStmt, YieldStmt, stmt_kind)


        def kind_number(s: Stmt) -> int:
            k = stmt_kind(s)
            match k:
                case AssignStmt() | EvalStmt() | ReturnStmt() | YieldStmt() | SeqStmts():
                    return 1
                case IfStmt() | ForStmt() | WhileStmt() | BreakStmt() | ContinueStmt():
                    return 2
                case _:
                    assert_never(k)
        """))
    out, _, status = mypy_api.run(["--strict", "--no-incremental", "--cache-dir", str(tmp_path / "cache"),
                                   "--python-version", "3.10", str(src)])
    assert status == 1, out
    assert 'incompatible type "ScopeStmt"' in out and "missing_case.py:15:" in out, out


def _programs() -> list[tuple[str, Program]]:
    return [(f"{p.stem}:{prog.name}", prog) for p in EXAMPLES for prog in load_programs(p)]


PROGRAMS = _programs()


def _recursive_walk(s: Stmt) -> Iterator[Stmt]:
    yield s
    for b in child_bodies(s):
        yield from _recursive_walk(b)


def _check_traversal(program: Program) -> None:
    for f in program.functions:
        stmts = list(walk_stmts(f.body))
        assert [id(s) for s in stmts] == [id(s) for s in _recursive_walk(f.body)]
        for s in stmts:
            exprs = stmt_exprs(s)
            assert all(isinstance(e, Expr) for e in exprs)
            assert map_stmt(s, lambda b: b, lambda e: e) is s
            for e in exprs:
                inner = list(walk_exprs(e))
                assert inner[0] is e
                assert len(inner) == 1 + sum(len(list(walk_exprs(c))) for c in expr_children(e))


def _stages(program: Program) -> list[Program]:
    out = [program]
    for p in default_passes("910B"):
        out.append(p(out[-1]))
    return out


@pytest.mark.parametrize(("label", "program"), PROGRAMS, ids=[label for label, _ in PROGRAMS])
def test_traversal_over_examples(label: str, program: Program) -> None:
    for stage in _stages(program):
        _check_traversal(stage)


@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(tile_programs())
def test_traversal_over_generated_programs(gen: GeneratedProgram) -> None:
    for stage in _stages(pl.parse(gen.source)):
        _check_traversal(stage)


def _x(name: str) -> Var:
    return Var(name, INDEX)


def test_stmt_exprs_drops_missing_initial_values_and_keeps_order() -> None:
    i, a, b = _x("i"), IterArg("a", INDEX, init=ConstInt(7)), IterArg("b", INDEX)
    loop = ForStmt(i, ConstInt(0), ConstInt(4), ConstInt(1), (a, b), YieldStmt((a, b)))
    assert stmt_exprs(loop) == (ConstInt(0), ConstInt(4), ConstInt(1), ConstInt(7))
    cond = BinaryExpr(BinaryOp.Lt, a, ConstInt(3), DType.BOOL)
    w = WhileStmt((a, b), cond, YieldStmt((a, b)))
    assert stmt_exprs(w) == (ConstInt(7), cond)
    n = _x("n")
    scope = ScopeStmt(ScopeKind.Spmd, YieldStmt(), (("core_num", n), ("name", "s")))
    assert stmt_exprs(scope) == (n,)


def test_walk_is_pre_order_then_before_else() -> None:
    x = _x("x")
    then_b, else_b = AssignStmt(x, ConstInt(1)), AssignStmt(x, ConstInt(2))
    branch = IfStmt(ConstInt(1), then_b, else_b)
    ret = ReturnStmt((x,))
    body = SeqStmts((branch, ret))
    assert list(walk_stmts(body)) == [body, branch, then_b, else_b, ret]
    assert list(walk_stmts(None)) == []


def test_map_stmt_rebuilds_only_what_changed_and_keeps_span_and_comments() -> None:
    x, y = _x("x"), _x("y")
    span = Span("f.py", 3, 4, 3, 9)
    old = AssignStmt(x, Call(Op("tile.add"), (y, y)), span=span, comments=("# keep",))
    new = map_stmt(old, expr=lambda e: ConstInt(5))
    assert isinstance(new, AssignStmt) and new.value == ConstInt(5) and new.var is x
    assert new.span == span and new.comments == ("# keep",)
    inner = AssignStmt(x, ConstInt(1))
    branch = IfStmt(y, inner, None, comments=("# if",))
    same = map_stmt(branch, body=lambda b: b, expr=lambda e: e)
    assert same is branch
    swapped = map_stmt(branch, body=lambda b: AssignStmt(x, ConstInt(9)))
    assert isinstance(swapped, IfStmt) and swapped.condition is y and swapped.else_body is None
    assert swapped.then_body == AssignStmt(x, ConstInt(9)) and swapped.comments == ("# if",)
    n = _x("n")
    scope = ScopeStmt(ScopeKind.Spmd, inner, (("core_num", n),))
    moved = map_stmt(scope, expr=lambda e: ConstInt(2) if e is n else e)
    assert isinstance(moved, ScopeStmt) and moved.args == (("core_num", ConstInt(2)),)
    assert moved.body is inner


def test_map_expr_calls_each_part_once_in_order_and_keeps_the_unchanged_ones() -> None:
    """A rebuild from the first changed part on: every sub-expression (args, then expression
    kwargs, directly or in a list) is mapped exactly once, in `expr_children` order; the parts
    before and after the changed one are the very same objects."""
    a, b, c, d = _x("a"), _x("b"), _x("c"), _x("d")
    call = Call(Op("tile.add"), (a, b, c), (("scale", d), ("dump", [a, 3])))
    seen: list[Expr] = []

    def swap_b(e: Expr) -> Expr:
        seen.append(e)
        return ConstInt(7) if e is b else e

    new = map_expr(call, swap_b)
    assert seen == list(expr_children(call)) == [a, b, c, d, a]
    assert isinstance(new, Call) and new is not call
    assert new.args[0] is a and new.args[1] == ConstInt(7) and new.args[2] is c
    assert new.kwargs is call.kwargs  # no kwarg changed: the very same pairs
    seen.clear()
    assert map_expr(call, lambda e: seen.append(e) or e) is call and len(seen) == 5
    only_kw = map_expr(call, lambda e: ConstInt(1) if e is d else e)
    assert isinstance(only_kw, Call) and only_kw.args is call.args
    assert only_kw.kwargs == (("scale", ConstInt(1)), ("dump", [a, 3]))
    assert only_kw.kwargs[1] is call.kwargs[1]


def test_map_stmt_maps_each_value_once_and_keeps_the_others() -> None:
    x, y, z = _x("x"), _x("y"), _x("z")
    ret = ReturnStmt((x, y, z), comments=("# r",))
    seen: list[Expr] = []

    def swap_y(e: Expr) -> Expr:
        seen.append(e)
        return ConstInt(0) if e is y else e

    new = map_stmt(ret, expr=swap_y)
    assert seen == [x, y, z]
    assert isinstance(new, ReturnStmt) and new.values[0] is x and new.values[2] is z
    assert new.values[1] == ConstInt(0) and new.comments == ("# r",)
    seq = SeqStmts((ret, AssignStmt(x, y)))
    assert map_stmt(seq, body=lambda s: s) is seq
    first = map_stmt(seq, body=lambda s: new if s is ret else s)
    assert isinstance(first, SeqStmts) and first.stmts[0] is new and first.stmts[1] is seq.stmts[1]


def test_stmt_defs_are_what_each_statement_binds_in_the_references_order() -> None:
    """Every Var a function binds, params aside, is bound by exactly one statement's `stmt_defs`
    (SSA form), and a loop lists its loop var, return vars, then iter args."""
    for path in sorted((ROOT / "examples").glob("*.py")):
        for program in load_programs(path):
            ssa = pl.passes.convert_to_ssa()(program)
            for f in ssa.functions:
                bound = [v for s in walk_stmts(f.body) for v in stmt_defs(s)]
                assert len(bound) == len(set(bound)), (path.name, f.name)
                for s in walk_stmts(f.body):
                    if isinstance(s, ForStmt):
                        assert stmt_defs(s) == (s.loop_var, *s.return_vars, *s.iter_args)
