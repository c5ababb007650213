"""Every pass output is well-typed and every constrained operand is in an allowed space.

Kernels as data (`CASES`): N-D reductions and column broadcasts, op calls nested in other calls'
arguments, one-line loop / branch bodies, tensor reductions with `keep_dim` / `axis`. Each is
compiled for every backend with residency on and off and the per-pass verifier on
(`pl.compile(..., verify=True)`), must satisfy TileMemoryInferred, and `pl.interpret` must give the
same results before and after. The verifiers themselves are checked to fail on broken programs.
"""

from __future__ import annotations

import dataclasses
import re

import numpy as np
import pytest
from interpret_support import random_inputs, run_interpreted
from test_equivalence import assert_same_results

import pl
from pl.compiler import default_passes
from pl.errors import InternalError, PlError
from pl.infer.verifier import verify_tile_memory_inferred
from pl.interpreter.run import interpret
from pl.ir import Program
from pl.ir.expr import ConstInt, Var
from pl.ir.operators import BinaryOp
from pl.ir.stmt import AssignStmt, ForStmt, SeqStmts
from pl.passes import Pass, PassManager
from pl.typecheck import verify_well_typed

HEAD = """import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def main(self, x: pl.Tensor[[{xs}], pl.FP32], y: pl.Tensor[[16, 16], pl.FP32],
             out: pl.Out[pl.Tensor[[{os}], {od}]], m: pl.Scalar[pl.INDEX]) -> pl.Tensor[[{os}], {od}]:
"""


def _kernel(body: str, xs: str = "2, 8, 16", os: str = "16, 16", od: str = "pl.FP32") -> str:
    lines = "".join(f"        {line}\n" for line in body.strip().splitlines())
    if "return" not in body:
        lines += "        return out\n"
    return HEAD.format(xs=xs, os=os, od=od) + lines


def _nd_tile(op: str, tmp: bool, out: str, od: str = "pl.FP32") -> tuple[str, str]:
    scratch = "pl.create_tile([2, 8, 16], dtype=pl.FP32, target_memory=pl.Mem.Vec)"
    body = f"""
t = pl.load(x, [0, 0, 0], [2, 8, 16])
s = pl.{op}(t{', ' + scratch if tmp else ''})
out = pl.store(s, [0, 0, 0], out)"""
    return f"nd_{op}", _kernel(body, os=out, od=od)


CASES: list[tuple[str, str]] = [
    _nd_tile("row_sum", True, "2, 8, 1"),
    _nd_tile("row_max", True, "2, 8, 1"),
    _nd_tile("row_min", True, "2, 8, 1"),
    _nd_tile("row_argmax", True, "2, 8, 1", "pl.INT32"),
    _nd_tile("col_sum", False, "1, 8, 16"),
    _nd_tile("col_sum", True, "1, 8, 16"),
    _nd_tile("col_max", False, "1, 8, 16"),
    _nd_tile("col_min", False, "1, 8, 16"),
    _nd_tile("col_prod", False, "1, 8, 16"),
    _nd_tile("col_argmin", True, "1, 8, 16", "pl.INT32"),
    ("nd_col_expand_mul", _kernel("""
t = pl.load(x, [0, 0, 0], [2, 8, 16])
c = pl.col_max(t)
e = pl.col_expand_mul(t, c)
out = pl.store(e, [0, 0, 0], out)""", os="2, 8, 16")),
    ("nd_col_expand_of_one_2d_row", _kernel("""
t = pl.load(x, [0, 0, 0], [2, 8, 16])
r = pl.load(y, [3, 0], [1, 16])
e = pl.col_expand_sub(t, r)
out = pl.store(e, [0, 0, 0], out)""", os="2, 8, 16")),
    ("nd_col_expand_of_one_nd_row", _kernel("""
t = pl.load(x, [0, 0, 0], [1, 8, 16])
r = pl.load(x, [1, 3, 0], [1, 1, 16])
e = pl.col_expand(t, r)
out = pl.store(e, [0, 0, 0], out)""", os="1, 8, 16")),
    ("nd_col_sum_then_add", _kernel("""
t = pl.load(x, [0, 0, 0], [2, 8, 16])
s = pl.col_sum(t)
s = pl.add(s, s)
out = pl.store(s, [0, 0, 0], out)""", os="1, 8, 16")),
    ("nd_transpose_of_the_last_two_axes", _kernel("""
t = pl.load(x, [0, 0, 0], [2, 8, 16])
u = pl.transpose(t, axis1=1, axis2=2)
out = pl.store(pl.add(u, u), [0, 0, 0], out)""", os="2, 16, 8")),
    ("tensor_row_sum_keep_false", _kernel("""
s = pl.tensor.row_sum(x, keep_dim=False)
out = pl.assemble(out, s, [0, 0])""", os="2, 8")),
    ("tensor_row_max_keep_0", _kernel("""
s = pl.tensor.row_max(x, keep_dim=0)
out = pl.assemble(out, s, [0, 0, 0])""", os="2, 8, 1")),
    ("tensor_col_sum_axis0", _kernel("""
s = pl.tensor.col_sum(x, axis=0)
out = pl.assemble(out, s, [0, 0, 0])""", os="1, 8, 16")),
    ("tensor_col_max_2d_keep_false", _kernel("""
s = pl.tensor.col_max(x, keep_dim=False)
out = pl.assemble(out, s, [0])""", xs="16, 16", os="16")),
    ("nd_assemble_pages_in_a_loop", _kernel("""
acc = pl.create_tile([2, 8, 16], dtype=pl.FP32, target_memory=pl.Mem.Vec)
for i in pl.range(2):
    page = pl.load(x, [1 - i, 0, 0], [1, 8, 16])
    acc = pl.assemble(acc, pl.exp(page), [i, 0, 0])
out = pl.store(acc, [0, 0, 0], out)""", os="2, 8, 16")),
    ("nd_assemble_whole_band", _kernel("""
acc = pl.create_tile([4, 8, 16], dtype=pl.FP32, target_memory=pl.Mem.Vec)
t = pl.load(x, [0, 0, 0], [2, 8, 16])
acc = pl.assemble(acc, t, [2, 0, 0])
out = pl.store(acc, [0, 0, 0], out)""", os="4, 8, 16")),
    ("matmul_nested_in_store", _kernel("""
a = pl.load(y, [0, 0], [16, 16])
out = pl.store(pl.matmul(a, a), [0, 0], out)""")),
    ("matmul_nested_in_add", _kernel("""
a = pl.load(y, [0, 0], [16, 16])
c = pl.add(pl.matmul(a, a), a)
out = pl.store(pl.mul(c, pl.exp(a)), [0, 0], out)""")),
    ("nested_in_a_yield", _kernel("""
a = pl.load(y, [0, 0], [16, 16])
for i, (acc,) in pl.range(2, init_values=(a,)):
    acc2 = pl.yield_(pl.add(acc, pl.matmul(a, a)))
out = pl.store(acc2, [0, 0], out)""")),
    ("nested_in_a_return", _kernel("""
a = pl.load(y, [0, 0], [16, 16])
return pl.store(pl.add(pl.matmul(a, a), a), [0, 0], out)""")),
    ("one_line_if_matmul", _kernel("""
a = pl.load(y, [0, 0], [16, 16])
if m > 1: u = pl.matmul(a, a)
out = pl.store(a, [0, 0], out)""")),
    ("one_line_for_matmul_store", _kernel("""
a = pl.load(y, [0, 0], [16, 16])
for i in pl.range(2): out = pl.store(pl.matmul(a, a), [0, 0], out)""")),
    ("one_line_for_unused_matmul", _kernel("""
a = pl.load(y, [0, 0], [16, 16])
for i in pl.range(2): t = pl.matmul(a, a)
out = pl.store(a, [0, 0], out)""")),
]


def _parse(text: str) -> Program:
    program = pl.parse(text)
    assert isinstance(program, Program)
    return program


@pytest.mark.parametrize("residency", [True, False])
@pytest.mark.parametrize("backend", [None, "910B", "950"])
@pytest.mark.parametrize(("name", "text"), CASES, ids=[c[0] for c in CASES])
def test_case_compiles_verified_and_computes_the_same(name: str, text: str, backend: str | None,
                                                      residency: bool) -> None:
    source = _parse(text)
    compiled = pl.compile(source, backend=backend, residency=residency, verify=True).program
    assert verify_tile_memory_inferred(compiled) == []
    assert verify_well_typed(compiled) == []
    assert_same_results(source, compiled)


def test_the_cases_really_run() -> None:
    """assert_same_results skips a source the interpreter cannot run: none of these may."""
    for _, text in CASES:
        program = _parse(text)
        run_interpreted(program, random_inputs(program, 0))


def test_nd_col_sum_keeps_its_axis_0_meaning() -> None:
    """The flattened col_sum of a [2, 8, 16] tile is x[0] + x[1], not a sum of all 16 rows."""
    name, text = _nd_tile("col_sum", False, "1, 8, 16")
    compiled = pl.compile(_parse(text), backend="910B", verify=True).program
    x = np.arange(2 * 8 * 16, dtype=np.float32).reshape(2, 8, 16)
    out = np.zeros((1, 8, 16), np.float32)
    interpret(compiled, x, np.zeros((16, 16), np.float32), out, 0)
    np.testing.assert_array_equal(out[0], x[0] + x[1])


BATCHED = """import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def main(self, a: pl.Tensor[[{ash}], pl.FP32], b: pl.Tensor[[{bsh}], pl.FP32],
             out: pl.Out[pl.Tensor[[{osh}], pl.FP32]]) -> pl.Tensor[[{osh}], pl.FP32]:
{body}
        return out
"""

BATCHED_CASES = [
    ("tensor_batched_matmul", "2, 16, 32", "2, 32, 16", "2, 16, 16", """
        c = pl.matmul(a, b)
        out = pl.assemble(out, c, [0, 0, 0])"""),
    ("tensor_batched_matmul_broadcast_lhs", "16, 32", "3, 32, 16", "3, 16, 16", """
        c = pl.matmul(a, b)
        out = pl.assemble(out, c, [0, 0, 0])"""),
    ("tensor_batched_matmul_acc", "2, 16, 32", "2, 32, 16", "2, 16, 16", """
        acc = pl.create_tensor([2, 16, 16], dtype=pl.FP32)
        acc = pl.assemble(acc, pl.exp(pl.slice(a, [2, 16, 16], [0, 0, 0])), [0, 0, 0])
        c = pl.matmul_acc(acc, a, b)
        out = pl.assemble(out, c, [0, 0, 0])"""),
    ("tile_batched_matmul_of_transposed_views", "2, 32, 16", "2, 32, 16", "2, 16, 16", """
        lt = pl.load(a, [0, 0, 0], [2, 32, 16], target_memory=pl.MemorySpace.Mat)
        lv = pl.tile.transpose_view(lt)
        rt = pl.load(b, [0, 0, 0], [2, 32, 16], target_memory=pl.MemorySpace.Mat)
        c = pl.tile.batch_matmul(lv, rt)
        out = pl.store(c, [0, 0, 0], out)"""),
]


@pytest.mark.parametrize("residency", [True, False])
@pytest.mark.parametrize("backend", [None, "910B", "950"])
@pytest.mark.parametrize(("name", "ash", "bsh", "osh", "body"), BATCHED_CASES,
                         ids=[c[0] for c in BATCHED_CASES])
def test_batched_matmuls_become_one_matmul_per_batch(name: str, ash: str, bsh: str, osh: str,
                                                     body: str, backend: str | None,
                                                     residency: bool) -> None:
    source = _parse(BATCHED.format(ash=ash, bsh=bsh, osh=osh, body=body.strip("\n")))
    compiled = pl.compile(source, backend=backend, residency=residency, verify=True).program
    assert verify_tile_memory_inferred(compiled) == []
    text = pl.python_print(compiled)
    assert "batch_matmul" not in text
    assert len(re.findall(r"pl\.tile\.matmul(_acc)?\(", text)) == int(osh[0])  # one per batch
    run_interpreted(source, random_inputs(source, 0))  # the source runs (no skip below)
    assert_same_results(source, compiled)


def test_a_batched_transposed_view_feeding_another_op_is_a_clean_error() -> None:
    body = """
        lt = pl.load(a, [0, 0, 0], [2, 32, 16], target_memory=pl.MemorySpace.Mat)
        lv = pl.tile.transpose_view(lt)
        out = pl.store(lv, [0, 0, 0], out)"""
    source = _parse(BATCHED.format(ash="2, 32, 16", bsh="2, 32, 16", osh="2, 16, 32",
                                   body=body.strip("\n")))
    with pytest.raises(PlError, match="can only feed a batched matmul"):
        pl.compile(source, backend="910B", verify=True)


@pytest.mark.parametrize(("body", "message"), [
    ("acc = pl.create_tile([4, 8, 16], dtype=pl.FP32, target_memory=pl.Mem.Vec)\n"
     "t = pl.load(x, [0, 0, 0], [2, 4, 16])\n"
     "acc = pl.assemble(acc, t, [0, 0, 0])\nout = pl.store(acc, [0, 0, 0], out)",
     "not one contiguous band of rows"),
    ("t = pl.load(x, [0, 0, 0], [2, 8, 16])\n"
     "tmp = pl.create_tile([2, 8, 32], dtype=pl.FP32, target_memory=pl.Mem.Vec)\n"
     "s = pl.col_sum(t, tmp)\nout = pl.store(s, [0, 0, 0], out)", "cannot be flattened to 2-D"),
    ("t = pl.load(x, [0, 0, 0], [2, 8, 16])\nu = pl.transpose(t, axis1=0, axis2=1)\n"
     "out = pl.store(u, [0, 0, 0], out)", "tile.transpose moving a batch axis on a tile of shape"),
    ("t = pl.load(x, [0, 0, 0], [2, 8, 16])\nu = pl.tile.slice(t, [1, 8, 16], [1, 0, 0])\n"
     "out = pl.store(u, [0, 0, 0], out)", "tile.slice on a tile of shape"),
])
def test_flattening_what_needs_the_nd_structure_is_a_clean_error(body: str, message: str) -> None:
    text = _kernel(body, os="8, 8, 16")
    with pytest.raises(PlError, match=message) as err:
        pl.compile(_parse(text), backend="910B", verify=True)
    assert err.value.span is not None and err.value.span.line > 0


def test_tensor_col_reduction_of_a_middle_axis_is_a_clean_error() -> None:
    text = _kernel("s = pl.tensor.col_sum(x)\nout = pl.assemble(out, s, [0, 0, 0])", os="2, 1, 16")
    with pytest.raises(PlError, match="has no tile form"):
        pl.compile(_parse(text), backend=None)


# ---- the verifiers fail on broken programs -------------------------------------------------------

MATMUL = _kernel("""
a = pl.load(y, [0, 0], [16, 16])
mm = pl.matmul(a, a)
out = pl.store(mm, [0, 0], out)""")


def _main_stmts(program: Program) -> list[AssignStmt]:
    body = program.functions[0].body
    assert isinstance(body, SeqStmts)
    return [s for s in body.stmts if isinstance(s, AssignStmt)]


def test_a_nested_call_reading_the_wrong_space_is_reported() -> None:
    """Nest the matmul into the store after inference: its operands are Vec (the moves feed the
    hoisted statement only if it is kept), so the verifier must name the nested call."""
    source = _parse(MATMUL)
    compiled = pl.compile(source, backend=None).program
    stmts = _main_stmts(compiled)
    load = stmts[0]
    mm = next(s for s in stmts if s.var.name.startswith("mm"))
    store = stmts[-1]
    assert isinstance(mm.value, pl.ir.Call) and isinstance(store.value, pl.ir.Call)
    nested_mm = dataclasses.replace(mm.value, args=(load.var, load.var))
    nested = dataclasses.replace(store.value, args=(nested_mm, *store.value.args[1:]))
    func = compiled.functions[0]
    body = SeqStmts((load, dataclasses.replace(store, value=nested), *[
        s for s in func.body.stmts if not isinstance(s, AssignStmt)]))  # type: ignore[attr-defined]
    broken = Program(compiled.name, (dataclasses.replace(func, body=body),))
    errors = verify_tile_memory_inferred(broken)
    assert any("tile.matmul' input 0" in e.message and "requires Left" in e.message
               for e in errors), [e.message for e in errors]


def _retype_first_tile(program: Program) -> Program:
    """A broken pass: the first tile variable gets a type with another shape."""
    func = program.functions[0]
    body = func.body
    assert isinstance(body, SeqStmts)
    first = next(s for s in body.stmts if isinstance(s, AssignStmt)
                 and isinstance(s.var.type, pl.ir.TileType))
    t = first.var.type
    assert isinstance(t, pl.ir.TileType)
    wrong = dataclasses.replace(t, shape=(*t.shape[:-1], ConstInt(3)))
    new = AssignStmt(Var(first.var.name, wrong), first.value, span=first.span)
    stmts = tuple(new if s is first else s for s in body.stmts)
    return Program(program.name, (dataclasses.replace(func, body=SeqStmts(stmts)),) + program.functions[1:])


def _through(name: str) -> list[Pass]:
    """The default pipeline up to and including the pass called `name`."""
    names = [p.name for p in default_passes(None)]
    return default_passes(None)[:names.index(name) + 1]


def test_pass_manager_reports_an_ill_typed_pass_output() -> None:
    broken = Pass("break_a_type", lambda p: (_retype_first_tile(p), None))
    passes = [*_through("convert_tensor_to_tile_ops"), broken]
    source = _parse(MATMUL)
    PassManager(passes).run(source)  # off by default: nothing checked
    with pytest.raises(InternalError, match="output of pass break_a_type is ill-typed"):
        PassManager(passes, verify=True).run(source)


def _duplicate_first(p: Program) -> Program:
    """A broken pass: the first statement of the first function twice (its var defined twice)."""
    func = p.functions[0]
    body = func.body
    assert isinstance(body, SeqStmts)
    return Program(p.name, (dataclasses.replace(func, body=SeqStmts((body.stmts[0],) + body.stmts)),)
                   + p.functions[1:])


def test_pass_manager_reports_a_pass_that_breaks_ssa() -> None:
    passes = [*_through("convert_to_ssa"), Pass("duplicate", lambda p: (_duplicate_first(p), None))]
    with pytest.raises(InternalError, match="output of pass duplicate is not in SSA form"):
        PassManager(passes, verify=True).run(_parse(MATMUL))


def test_a_loop_carry_of_another_type_is_reported() -> None:
    """A return var that does not take the type its loop yields is ill-typed (the shape here)."""
    text = _kernel("""
a = pl.load(y, [0, 0], [16, 16])
for i, (acc,) in pl.range(2, init_values=(a,)):
    nxt = pl.add(acc, a)
    r = pl.yield_(nxt)
out = pl.store(r, [0, 0], out)""")
    program = pl.passes.convert_to_ssa()(_parse(text))
    assert verify_well_typed(program) == []
    func = program.functions[0]
    body = func.body
    assert isinstance(body, SeqStmts)
    loop = next(s for s in body.stmts if isinstance(s, ForStmt))
    rv = loop.return_vars[0]
    t = rv.type
    assert isinstance(t, pl.ir.TileType)
    wrong = Var(rv.name, dataclasses.replace(t, shape=(ConstInt(16), ConstInt(8))))
    stmts = tuple(dataclasses.replace(s, return_vars=(wrong,)) if s is loop else s
                  for s in body.stmts)
    broken = Program(program.name, (dataclasses.replace(func, body=SeqStmts(stmts)),))
    messages = [e.message for e in verify_well_typed(broken)]
    assert any("return var" in m and "receives a value of type" in m for m in messages), messages


def _skip_moves_into_matmul(program: Program) -> Program:
    """A broken pass after inference: the matmul reads its operands from before their moves
    (well typed and in SSA form, but in the wrong memory spaces)."""
    func = program.functions[0]
    body = func.body
    assert isinstance(body, SeqStmts)
    moved = {s.var: s.value.args[0] for s in body.stmts if isinstance(s, AssignStmt)
             and isinstance(s.value, pl.ir.Call) and s.value.op.name == "tile.move"}
    stmts = tuple(
        dataclasses.replace(s, value=dataclasses.replace(
            s.value, args=tuple(moved.get(a, a) for a in s.value.args)))  # type: ignore[arg-type]
        if isinstance(s, AssignStmt) and isinstance(s.value, pl.ir.Call)
        and s.value.op.name == "tile.matmul" else s
        for s in body.stmts)
    assert stmts != body.stmts, "the case has no moved matmul operand"
    return Program(program.name, (dataclasses.replace(func, body=SeqStmts(stmts)),) + program.functions[1:])


def test_pass_manager_runs_the_memory_verifier_after_inference() -> None:
    broken = Pass("skip_moves", lambda p: (_skip_moves_into_matmul(p), None))
    passes = [*default_passes(None), broken]
    source = _parse(MATMUL)
    PassManager(passes).run(source)  # off by default: nothing checked
    with pytest.raises(InternalError, match="output of pass skip_moves violates TileMemoryInferred"):
        PassManager(passes, verify=True).run(source)
@pytest.mark.parametrize("where", ["assigned", "in arithmetic", "loop range", "if condition"])
def test_an_ill_typed_call_is_reported_wherever_a_statement_holds_it(where: str) -> None:
    """The well-typed check re-deduces every op call a statement holds (pl.ir.traverse.stmt_exprs
    and walk_exprs): nested in scalar arithmetic, in a loop's range and in an if's condition too."""
    from pl.ir.enums import DType
    from pl.ir.expr import BinaryExpr, Call, Op
    from pl.ir.stmt import IfStmt

    text = _kernel("""
a = pl.load(y, [0, 0], [16, 16])
out = pl.store(a, [0, 0], out)""")
    program = pl.passes.convert_to_ssa()(_parse(text))
    assert verify_well_typed(program) == []
    func = program.functions[0]
    body = func.body
    assert isinstance(body, SeqStmts)
    load = next(s for s in body.stmts if isinstance(s, AssignStmt))
    bad = Call(Op("tile.add"), (load.var, ConstInt(1)))  # tile.add of a tile and an int: refused
    n = Var("n", pl.ir.ScalarType(DType.INDEX))
    scalar = BinaryExpr(BinaryOp.Add, ConstInt(1), bad, DType.INDEX)
    extra = {
        "assigned": lambda: AssignStmt(Var("b", bad.result_type), bad),
        "in arithmetic": lambda: AssignStmt(n, scalar),
        "loop range": lambda: ForStmt(Var("i", n.type), ConstInt(0), scalar, ConstInt(1), (),
                                      AssignStmt(n, ConstInt(0))),
        "if condition": lambda: IfStmt(BinaryExpr(BinaryOp.Lt, scalar, ConstInt(3), DType.BOOL),
                                       AssignStmt(n, ConstInt(0))),
    }[where]()
    broken = Program(program.name, (dataclasses.replace(func, body=SeqStmts((*body.stmts[:-1], extra,
                                                                              body.stmts[-1]))),))
    messages = [e.message for e in verify_well_typed(broken)]
    assert any("tile.add is ill-typed" in m for m in messages), messages


def test_every_pass_run_pauses_the_collector_and_restores_it() -> None:
    """A pass called on its own (`pl.passes.NAME(...)(program)`), through `run_logged` or a
    `PassManager` runs with the cyclic GC off (pl.gc_pause), and leaves it as it found it."""
    import gc

    seen: list[bool] = []

    def record(p: Program) -> tuple[Program, None]:
        seen.append(gc.isenabled())
        return p, None

    probe = Pass("probe", record)
    source = _parse(MATMUL)
    was = gc.isenabled()
    gc.enable()
    try:
        probe(source)
        probe.run_logged(source)
        PassManager([probe]).run(source)
        assert gc.isenabled()
        gc.disable()
        probe(source)
        assert not gc.isenabled()  # a caller's own pause is kept
    finally:
        if was:
            gc.enable()
        else:
            gc.disable()
    assert seen == [False, False, False, False]


def test_a_pass_under_another_name_is_verified_by_what_it_declares() -> None:
    """Verification follows what passes declare, not their names: SSA conversion renamed still
    establishes SSA form, so a pass that breaks it after is reported."""
    ssa = pl.passes.convert_to_ssa()
    renamed = Pass("my_ssa", ssa.transform, establishes=ssa.establishes)
    passes = [pl.passes.unroll_loops(), renamed,
              Pass("duplicate", lambda p: (_duplicate_first(p), None))]
    with pytest.raises(InternalError, match="output of pass duplicate is not in SSA form"):
        PassManager(passes, verify=True).run(_parse(MATMUL))


def test_a_required_property_no_pass_established_is_checked_on_the_input() -> None:
    """infer_tile_memory_space requires SSA form: run first on a program that rebinds a name, the
    manager reports its input (nothing before it established SSA)."""
    text = _kernel("""
a = pl.load(y, [0, 0], [16, 16])
a = pl.add(a, a)
out = pl.store(a, [0, 0], out)""")
    infer = pl.passes.infer_tile_memory_space(None)
    assert pl.passes.Property.SSA in infer.requires
    with pytest.raises(InternalError, match="input of pass infer_tile_memory_space is not in SSA"):
        PassManager([infer], verify=True).run(_parse(text))
    PassManager([pl.passes.convert_to_ssa(), infer], verify=True).run(_parse(text))


def test_the_default_pipeline_establishes_what_each_pass_requires() -> None:
    holds: set[pl.passes.Property] = set()
    for p in default_passes("910B"):
        assert p.requires <= holds, (p.name, p.requires - holds)
        holds |= p.establishes
    assert holds == set(pl.passes.Property)
