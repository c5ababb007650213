"""`pl.system.available_cluster_count()` / `available_aiv_count()`: the launch-width queries of
the reference (src/ir/op/sync_ops/launch.cpp), the op added to show what adding an op takes (one
row in pl/ops/data/system_ops.tsv, one WITHOUT_NUMERICS entry, regenerated stubs).

They take no argument, give an INT32 scalar, print and read back as written, pass through every
pass of an orchestration function unchanged, and the interpreter refuses them by name (the count
belongs to the device a run lands on, not to the program)."""

from __future__ import annotations

import numpy as np
import pytest

import pl
from pl.ir.expr import Call
from pl.ir.stmt import AssignStmt, SeqStmts
from pl.ir.types import ScalarType

LAUNCH = '''import pl


@pl.program
class Launch:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 16], pl.FP32]) -> pl.Scalar[pl.INT32]:
        n = pl.system.available_cluster_count()
        m = pl.system.available_aiv_count()
        return n + m
'''


@pytest.mark.parametrize("backend", [None, "910B", "950"])
def test_launch_queries_are_int32_scalars_that_compile_and_read_back(backend: str | None) -> None:
    program = pl.parse(LAUNCH, filename="<launch>")
    assert isinstance(program, pl.ir.Program)
    compiled = pl.compile(program, backend=backend)
    body = compiled.program.functions[0].body
    assert isinstance(body, SeqStmts)
    calls = [s.value for s in body.stmts if isinstance(s, AssignStmt) and isinstance(s.value, Call)]
    assert [c.op.name for c in calls] == ["system.available_cluster_count", "system.available_aiv_count"]
    assert all(c.result_type == ScalarType(pl.DType.INT32) for c in calls)
    text = compiled.as_python()
    assert "pl.system.available_cluster_count()" in text and "pl.system.available_aiv_count()" in text
    pl.assert_structural_equal(pl.parse(text), compiled.program)


def test_the_interpreter_refuses_a_launch_query_by_name() -> None:
    program = pl.parse(LAUNCH, filename="<launch>")
    with pytest.raises(pl.PlError, match="system.available_cluster_count.*not supported.*core counts"):
        pl.interpret(program, np.zeros((16, 16), np.float32))


def test_a_launch_query_takes_no_argument() -> None:
    with pytest.raises(pl.PlError) as info:
        pl.parse(LAUNCH.replace("available_aiv_count()", "available_aiv_count(4)"), filename="<launch>")
    assert info.value.span is not None and info.value.span.line == 9
