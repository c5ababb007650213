"""UnrollLoops (lowering/unroll.py), as data: each Before kernel, unrolled, equals its Expected
kernel (written by hand, before SSA); compiled, it computes what its source computes and reads back
from its printed form; the refusals are located at the loop.
"""

from __future__ import annotations

import numpy as np
import pytest
from interpret_support import compare_results

import pl
from pl.errors import PlError
from pl.ir.enums import ForKind
from pl.ir.stmt import ForStmt
from pl.ir.traverse import walk_stmts
from pl.lowering.frontend.parse import parse

HEAD = '''import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, vals: pl.Tensor[[64], pl.FP32], table: pl.InOut[pl.Tensor[[16, 32], pl.FP32]],
          x: pl.Tensor[[16, 32], pl.FP32]) -> pl.Tensor[[16, 32], pl.FP32]:
'''

CASES = {
    # the index in a shape: each copy's types are folded to its constants, as written ones are
    "index_in_a_shape": (
        '''        for i in pl.unroll(2):
            t = pl.load(x, [0, 0], [(i + 1) * 8, 32])
            table = pl.store(t, [0, 0], table)
        return table
''', '''        t = pl.load(x, [0, 0], [8, 32])
        table = pl.store(t, [0, 0], table)
        t2 = pl.load(x, [0, 0], [16, 32])
        table = pl.store(t2, [0, 0], table)
        return table
'''),
    # nested loops, a step, a rebound tensor carried from copy to copy, the index folded
    "nested_write": (
        '''        for k in pl.unroll(2):
            for t in pl.unroll(0, 4, 2):
                v: pl.Scalar[pl.FP32] = pl.read(vals, [k * 16 + t])
                table = pl.write(table, [t, k], v)
        return table
''', '''        v: pl.Scalar[pl.FP32] = pl.read(vals, [0])
        table = pl.write(table, [0, 0], v)
        v: pl.Scalar[pl.FP32] = pl.read(vals, [2])
        table = pl.write(table, [2, 0], v)
        v: pl.Scalar[pl.FP32] = pl.read(vals, [16])
        table = pl.write(table, [0, 1], v)
        v: pl.Scalar[pl.FP32] = pl.read(vals, [18])
        table = pl.write(table, [2, 1], v)
        return table
'''),
    # a tile accumulated through the copies; a pl.range loop inside is copied, not unrolled
    "accumulate_with_inner_range": (
        '''        acc = pl.load(x, [0, 0], [16, 32])
        for i in pl.unroll(3):
            for j in pl.range(2):
                acc = pl.add(acc, acc)
        out = pl.store(acc, [0, 0], table)
        return out
''', '''        acc = pl.load(x, [0, 0], [16, 32])
        for j in pl.range(2):
            acc = pl.add(acc, acc)
        for j in pl.range(2):
            acc = pl.add(acc, acc)
        for j in pl.range(2):
            acc = pl.add(acc, acc)
        out = pl.store(acc, [0, 0], table)
        return out
'''),
    # a descending loop, its index used as an offset
    "descending": (
        '''        t = pl.load(x, [0, 0], [4, 32])
        for r in pl.unroll(8, 0, -4):
            table = pl.store(t, [r, 0], table)
        return table
''', '''        t = pl.load(x, [0, 0], [4, 32])
        table = pl.store(t, [8, 0], table)
        table = pl.store(t, [4, 0], table)
        return table
'''),
    # the index folded in its dtype: 2 * 2**62 wraps to -2**63 as the INDEX product the loop
    # computes, so the copy takes the branch the loop takes (folded to 2**63 it took the other)
    "index_product_wraps": (
        '''        for i in pl.unroll(1, 3):
            if i * 4611686018427387904 < 0:
                table = pl.write(table, [0, i], 1.0)
            else:
                table = pl.write(table, [1, i], 1.0)
        return table
''', '''        if 4611686018427387904 < 0:
            table = pl.write(table, [0, 1], 1.0)
        else:
            table = pl.write(table, [1, 1], 1.0)
        if -9223372036854775808 < 0:
            table = pl.write(table, [0, 2], 1.0)
        else:
            table = pl.write(table, [1, 2], 1.0)
        return table
'''),
    # no iteration: the loop goes, what follows stays
    "empty": (
        '''        for i in pl.unroll(0):
            table = pl.write(table, [0, 0], 1.0)
        return table
''', '''        return table
'''),
}


def _unrolled(text: str) -> pl.ir.Program:
    return pl.passes.unroll_loops()(parse(text, filename="<before>"))


@pytest.mark.parametrize("name", sorted(CASES))
def test_unrolled_kernel_equals_its_expected_form(name: str) -> None:
    before, expected = CASES[name]
    got = _unrolled(HEAD + before)
    assert not any(isinstance(s, ForStmt) and s.kind is ForKind.Unroll
                   for f in got.functions for s in walk_stmts(f.body))
    # Compared in SSA form: copies share their definitions' Vars, as the reference's pass keeps them,
    # where the hand-written form has one Var per written loop; SSA versions both alike.
    ssa = pl.passes.convert_to_ssa()
    pl.assert_structural_equal(ssa(got), ssa(parse(HEAD + expected, filename="<expected>")))


@pytest.mark.parametrize("name", sorted(CASES))
def test_compiled_unrolled_kernel_keeps_results_and_reads_back(name: str) -> None:
    source = parse(HEAD + CASES[name][0], filename="<before>")
    compiled = pl.compile(source, "910B", verify=True)
    assert compare_results(source, compiled.program) == "same"
    pl.assert_structural_equal(pl.parse(compiled.as_python()), compiled.program)
    again = pl.compile(pl.parse(compiled.as_python()), "910B", verify=True)
    pl.assert_structural_equal(again.program, compiled.program)


def test_a_program_without_unroll_loops_is_handed_on_as_is() -> None:
    program = parse(HEAD + "        return table\n", filename="<k>")
    assert pl.passes.unroll_loops()(program) is program


def test_the_loops_comment_goes_to_the_first_copy() -> None:
    text = HEAD + '''        # fill the first row
        for c in pl.unroll(2):
            table = pl.write(table, [0, c], 1.0)
        return table
'''
    printed = pl.compile(parse(text, filename="<k>"), "910B").as_python()
    lines = printed.splitlines()
    at = lines.index("        # fill the first row")
    assert "pl.tensor.write(" in lines[at + 1] and "[0, 0]" in printed and "[0, 1]" in printed


def test_too_many_iterations_is_a_located_error() -> None:
    text = HEAD + '''        for i in pl.unroll(2000):
            table = pl.write(table, [0, 0], 1.0)
        return table
'''
    with pytest.raises(PlError, match="2000 iterations, more than the 1024") as info:
        pl.compile(parse(text, filename="<k>"), "910B")
    assert info.value.span is not None and info.value.span.line == HEAD.count("\n") + 1


def test_a_value_bound_only_in_a_loop_with_no_iteration_is_a_located_error_where_read() -> None:
    # The loop's body went away and the later read named a Var bound nowhere: the compiled
    # program printed `t__FREE_VAR`, and show_inferred's output did not compile back (found by
    # the fuzzer).
    text = HEAD + '''        for i in pl.unroll(0):
            t = pl.write(table, [0, 0], 1.0)
        table = pl.write(t, [0, 1], 2.0)
        return table
'''
    with pytest.raises(PlError, match="'t' is bound only inside a pl.unroll loop that runs no "
                                      "iteration") as info:
        pl.compile(parse(text, filename="<k>"), "910B")
    assert info.value.span is not None and info.value.span.line == HEAD.count("\n") + 3


def test_a_loop_with_no_iteration_rebinding_an_earlier_value_leaves_it_as_it_was() -> None:
    text = HEAD + '''        t = pl.write(table, [0, 0], 1.0)
        for i in pl.unroll(0):
            t = pl.write(table, [0, 0], 3.0)
        table = pl.write(t, [0, 1], 2.0)
        return table
'''
    compiled = pl.compile(parse(text, filename="<k>"), "910B", verify=True)
    assert "3.0" not in compiled.as_python()  # the loop's write is gone, the earlier one kept
    zeros = np.zeros((16, 32), np.float32)
    result = pl.interpret(compiled.program, np.zeros(64, np.float32), zeros.copy(), zeros.copy())
    expected = zeros.copy()
    expected[0, 0], expected[0, 1] = 1.0, 2.0
    np.testing.assert_array_equal(result, expected)
