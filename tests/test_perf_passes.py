"""The fast paths of the passes before inference give what their slow paths give.

Data-driven over the examples, the inference cases' Before programs and the benchmark kernel: the
pipeline up to `canonicalize_tile_slice` is run once as built, and once with every fast path
switched off (the SSA substitution's Call shortcut, static-type test and memo of type objects found
plain, the shortcut of `assignment_type` for plain tile/tensor values, the skipped suffix analysis
of sequences without loops/ifs/scopes, the memoised tensor-op converters and the rewriter's
nothing-remapped shortcut); each stage must print the same and be structurally equal. A pass that
changes nothing must hand on the very same Program.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest
from infer_cases.cases import CASES

import pl  # noqa: F401  (initialises the package before lowering.text, which imports it)
from bench.generate import kernel_source
from lowering.frontend.parse import parse
from lowering.ssa import convert as ssa
from lowering.ssa import support as ssa_support
from lowering.tensor_to_tile import common as tensor_to_tile_common
from lowering.tensor_to_tile import convert as tensor_to_tile_convert
from lowering.tensor_to_tile import scan as tensor_to_tile_scan
from pl.compiler import default_passes
from pl.ir import (
    AssignStmt,
    Call,
    ConstInt,
    EvalStmt,
    Expr,
    ForStmt,
    MakeTuple,
    Op,
    Program,
    ReturnStmt,
    ScopeStmt,
    Stmt,
    Type,
    Var,
)
from pl.ir.enums import DType, ScopeKind
from pl.ir.stmt import flatten_body, make_body
from pl.ir.traverse import walk_stmts
from pl.ir.types import ScalarType, TileType
from pl.show_inferred.cli import load_programs
from pl.structural import assert_structural_equal

EXAMPLES = sorted((Path(__file__).resolve().parent.parent / "examples").glob("*.py"))


def _programs() -> list[tuple[str, Program]]:
    out = [(f"{p.stem}:{prog.name}", prog) for p in EXAMPLES for prog in load_programs(p)]
    out += [(f"case:{c.name}", parse(c.source("Before"), filename=f"<{c.name}>")) for c in CASES]
    out.append(("bench:40", parse(kernel_source(40), filename="<bench40>")))
    return out


PROGRAMS = _programs()
IDS = [label for label, _ in PROGRAMS]


def _stages(program: Program, backend: str | None) -> list[Program]:
    """The program after each pass before inference."""
    out = [program]
    for p in default_passes(backend)[:5]:
        out.append(p(out[-1]))
    return out


def _slow_paths(mp: pytest.MonkeyPatch) -> None:
    """Switch every fast path of these passes off."""
    mp.setattr(ssa, "_READS_FUTURE", (Stmt,))
    mp.setattr(ssa_support.Substituter, "call",
               lambda self, e: ssa_support._map_fields(e, self.value))
    mp.setattr(ssa_support, "_is_static_plain", lambda t: False)
    mp.setattr(ssa_support.Substituter, "type", ssa_support.Substituter.type_walk)
    mp.setattr(ssa, "assignment_type", ssa_support.assignment_type_general)
    mp.setattr("lowering.tensor_to_tile.rewrite.is_plain_tile_code", lambda body: False)
    for module in ("convert", "rewrite", "scan"):
        mp.setattr(f"lowering.tensor_to_tile.{module}.converter_for", tensor_to_tile_convert._find_converter)
    init = tensor_to_tile_common.Rewriter.__init__

    def seeded(self: tensor_to_tile_common.Rewriter) -> None:
        init(self)
        self.remap[-1] = Var("never_used", Type())  # never empty: no nothing-remapped shortcut

    mp.setattr(tensor_to_tile_common.Rewriter, "__init__", seeded)


@pytest.mark.parametrize("backend", [None, "910B"])
@pytest.mark.parametrize(("label", "program"), PROGRAMS, ids=IDS)
def test_fast_paths_give_the_slow_paths_result(label: str, program: Program,
                                               backend: str | None) -> None:
    fast = _stages(program, backend)
    with pytest.MonkeyPatch.context() as mp:
        _slow_paths(mp)
        slow = _stages(program, backend)
    for a, b in zip(fast, slow, strict=True):
        assert_structural_equal(a, b)
        assert a.as_python() == b.as_python()


def _types(program: Program) -> Iterator[Type]:
    for f in program.functions:
        yield from (p.type for p in f.params)
        for s in walk_stmts(f.body):
            value = getattr(s, "value", None) or getattr(s, "expr", None)
            if isinstance(value, Call):
                yield value.result_type
                yield from (a.type for a in value.args)
            var = getattr(s, "var", None)
            if isinstance(var, Var):
                yield var.type


@pytest.mark.parametrize(("label", "program"), PROGRAMS, ids=IDS)
def test_static_type_test_agrees_with_the_walk(label: str, program: Program) -> None:
    for stage in _stages(program, "910B"):
        for t in _types(stage):
            assert ssa_support._type_has_vars(t) == ssa_support._mentions_var(t)


@pytest.mark.parametrize(("label", "program"), PROGRAMS, ids=IDS)
def test_plain_names_version_like_the_parser_says(label: str, program: Program) -> None:
    names = {v.name for f in _stages(program, None)[0].functions for v in f.params}
    for f in program.functions:
        for s in walk_stmts(f.body):
            var = getattr(s, "var", None)
            if isinstance(var, Var):
                names.add(var.name)
    for name in sorted(names | {"x", "a__b", "t__ssa_v3", "__x", "y__iter_v1"}):
        for role, version in (("ssa", 0), ("iter", 2), ("rv", 11)):
            assert ssa_support.versioned_name(name, role, version) \
                == ssa_support.rebased_name(name, role, version)


def test_memoised_converters_match_the_lookup() -> None:
    from pl.ops.registry import all_ops

    for name in all_ops():
        assert tensor_to_tile_convert.converter_for(name) is tensor_to_tile_convert.converter_for(name)
        found = tensor_to_tile_convert._find_converter(name)
        assert (found is None) == (tensor_to_tile_convert.converter_for(name) is None)
        op = all_ops()[name]
        assert tensor_to_tile_scan._is_tensor_op_name(name) == (op.level == "tensor")
    assert not tensor_to_tile_scan._is_tensor_op_name("tensor.no_such_op")


def test_no_op_passes_hand_on_the_same_program() -> None:
    stages = _stages(parse(kernel_source(30), filename="<bench30>"), "910B")
    for before, after in zip(stages[1:], stages[2:], strict=False):
        assert after is before
        assert all(a is b for a, b in zip(after.functions, before.functions, strict=True))


@pytest.mark.parametrize(("label", "program"), PROGRAMS, ids=IDS)
def test_a_second_run_of_each_pass_changes_nothing_it_did_not_change(
        label: str, program: Program) -> None:
    passes = default_passes("910B")[1:5]
    stages = _stages(program, "910B")
    for p, out in zip(passes, stages[2:], strict=True):
        again = p(out)
        assert again.as_python() == out.as_python()
        if again is not out:  # only a pass that rebuilt something may return a new program
            assert any(a is not b for a, b in zip(again.functions, out.functions, strict=True))



def _assigned_pairs(program: Program) -> Iterator[tuple[Type, Expr]]:
    for f in program.functions:
        for s in walk_stmts(f.body):
            if isinstance(s, AssignStmt):
                yield s.var.type, s.value


@pytest.mark.parametrize(("label", "program"), PROGRAMS, ids=IDS)
def test_assignment_type_shortcut_equals_the_general_rule(label: str, program: Program) -> None:
    for stage in _stages(program, "910B"):
        for lhs, value in _assigned_pairs(stage):
            fast = ssa_support.assignment_type(lhs, value)
            general = ssa_support.assignment_type_general(lhs, value)
            assert fast == general and fast.memref == general.memref  # type: ignore[attr-defined]


def test_assignment_type_shortcut_keeps_a_declared_memref() -> None:
    program = parse(kernel_source(2), filename="<bench2>")
    pairs = [(lhs, value) for lhs, value in _assigned_pairs(program)
             if isinstance(value, Call) and isinstance(value.result_type, TileType)]
    assert pairs
    for lhs, value in pairs:
        declared = dataclasses.replace(lhs, memref="mem0")
        for decl in (lhs, declared, ScalarType(DType.INDEX)):
            fast = ssa_support.assignment_type(decl, value)
            general = ssa_support.assignment_type_general(decl, value)
            assert fast == general
            assert getattr(fast, "memref", None) == getattr(general, "memref", None)
        assert ssa_support.assignment_type(declared, value).memref == "mem0"  # type: ignore[attr-defined]


def test_substituter_type_memo_gives_the_walk_result() -> None:
    program = parse(kernel_source(12), filename="<bench12>")
    sub = ssa_support.Substituter({})
    for t in _types(program):
        first = sub.type(t)
        assert first is sub.type(t)  # the second look-up is a memo hit
        assert first is sub.type_walk(t)


def _plain_kernel_body() -> tuple[Stmt, Var]:
    """The benchmark kernel's body after SSA (tile ops only, straight-line) and its first tile."""
    program = ssa.convert_to_ssa(parse(kernel_source(12), filename="<plain12>"))
    kern = next(f for f in program.functions if f.name == "kern")
    first = next(s.var for s in flatten_body(kern.body) if isinstance(s, AssignStmt))
    return kern.body, first


def _tensor_add(x: Expr) -> Call:
    return Call(Op("tensor.add"), (x, x))


def _tile_add(*args: Expr, **kwargs: Expr) -> Call:
    return Call(Op("tile.add"), args, tuple(kwargs.items()))


def test_straight_line_tile_code_is_plain() -> None:
    body, _ = _plain_kernel_body()
    assert tensor_to_tile_scan.is_plain_tile_code(body)


@pytest.mark.parametrize("where", ["assigned", "argument", "keyword", "tuple element",
                                   "evaluated", "returned", "in a scope", "a loop"])
def test_a_tensor_op_anywhere_or_any_loop_is_not_plain(where: str) -> None:
    body, t = _plain_kernel_body()
    y = Var("y", Type())
    extra: Stmt = {
        "assigned": lambda: AssignStmt(y, _tensor_add(t)),
        "argument": lambda: AssignStmt(y, _tile_add(t, _tile_add(t, _tensor_add(t)))),
        "keyword": lambda: AssignStmt(y, _tile_add(t, other=_tensor_add(t))),
        "tuple element": lambda: AssignStmt(y, MakeTuple((t, _tensor_add(t)))),
        "evaluated": lambda: EvalStmt(_tensor_add(t)),
        "returned": lambda: ReturnStmt((_tensor_add(t),)),
        "in a scope": lambda: ScopeStmt(ScopeKind.InCore, AssignStmt(y, _tensor_add(t))),
        "a loop": lambda: ForStmt(Var("i", Type()), ConstInt(0), ConstInt(4), ConstInt(1), (),
                                      AssignStmt(y, _tile_add(t, t))),
    }[where]()
    assert not tensor_to_tile_scan.is_plain_tile_code(make_body([*flatten_body(body), extra]))
