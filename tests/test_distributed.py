"""The distributed module (`import pl.distributed as pld`, the reference's
`pypto.language.distributed`) on the kernels in tests/round_trip_kernels/distributed_*.py (their
round trip and compile are tests/test_round_trip.py's): memory-space inference places the tiles of
their InCore functions, the reference's import spelling reads the same program, and the
interpreter, which runs one rank, says so at the distributed call."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import pl
from pl.ir import AssignStmt, Call, MemorySpace, Program, TensorType, TileType
from pl.ir.traverse import walk_stmts

KERNELS = Path(__file__).resolve().parent / "round_trip_kernels"


def _program(name: str) -> Program:
    program = pl.parse((KERNELS / name).read_text(encoding="utf-8"), filename=name)
    assert isinstance(program, Program)
    return program


def _assigned(program: Program, function: str, op: str) -> list[AssignStmt]:
    f = next(f for f in program.functions if f.name == function)
    return [s for s in walk_stmts(f.body) if isinstance(s, AssignStmt)
            and isinstance(s.value, Call) and s.value.op.name == op]


def test_inference_places_the_remote_load_in_vec() -> None:
    compiled = pl.compile(_program("distributed_ring.py"), verify=True).program
    (load,) = _assigned(compiled, "step", "pld.tile.remote_load")
    assert isinstance(load.var.type, TileType) and load.var.type.memory_space is MemorySpace.Vec
    assert load.value.result_type == load.var.type


def test_windows_are_window_bound_tensors_named_by_their_assignment() -> None:
    program = _program("distributed_ring.py")
    allocs = _assigned(program, "host", "pld.tensor.alloc_window_buffer")
    # The name is the variable's, as in the reference (whose printer leaves the kwarg out).
    assert [s.var.name for s in allocs] == ["buf", "sig"] and not allocs[0].value.kwargs
    # The shape form gives the bytes: 1 * 8 INT32 elements.
    assert allocs[1].value.args[0].static_int() == 32
    for s in _assigned(program, "host", "pld.tensor.window"):
        assert isinstance(s.var.type, TensorType) and s.var.type.distributed


def test_a_slice_of_a_window_stays_window_bound_in_an_incore_function() -> None:
    compiled = pl.compile(_program("distributed_tensor_level.py"), verify=True).program
    (row,) = _assigned(compiled, "push", "tensor.slice")
    assert isinstance(row.var.type, TensorType) and row.var.type.distributed
    assert "pld.tile.remote_store(" in pl.python_print(compiled)
    assert "pld.tensor.remote_store(" not in pl.python_print(compiled)


def test_the_reference_import_reads_the_same_program() -> None:
    text = (KERNELS / "distributed_ring.py").read_text(encoding="utf-8")
    theirs = text.replace("import pl\nimport pl.distributed as pld",
                          "import pypto.language as pl\nimport pypto.language.distributed as pld")
    assert theirs != text
    pl.assert_structural_equal(pl.parse(theirs), _program("distributed_ring.py"))
    from_import = theirs.replace("import pypto.language.distributed as pld",
                                 "from pypto.language import distributed as pld")
    assert from_import != theirs
    pl.assert_structural_equal(pl.parse(from_import), _program("distributed_ring.py"))


def test_the_interpreter_says_it_runs_one_rank_at_the_distributed_call() -> None:
    x = np.zeros((16, 64), np.float32)
    with pytest.raises(pl.PlError, match="interpreter runs one rank") as info:
        pl.interpret(_program("distributed_ring.py"), x, x, np.zeros((1, 8), np.int32), 1,
                     entry="step")
    lines = (KERNELS / "distributed_ring.py").read_text(encoding="utf-8").splitlines()
    first = next(i for i, line in enumerate(lines, 1) if "pld.tile.remote_store(" in line)
    assert info.value.span is not None and info.value.span.line == first
