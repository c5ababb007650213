"""The distributed module (`import pl.distributed as pld`, the reference's
`pypto.language.distributed`).

On the kernels in tests/round_trip_kernels/distributed_*.py (their round trip and compile are
tests/test_round_trip.py's): memory-space inference places the tiles of their InCore functions and
the reference's import spelling reads the same program.

On the kernels in tests/distributed_kernels/ (tests as data): each is a program whose HOST
orchestrator dispatches a task to every rank; `pl.interpret(..., ranks=N)` runs it on NumPy arrays
as N ranks, and each rank's outputs are compared with a NumPy model of what that rank should hold
(`MODELS`), for the program as written and as compiled, for 1 to 4 ranks. Each kernel also
round-trips through the printer and is a fixed point of show_inferred, whose regenerated program
computes the same. The `error_*` kernels stop with one located PlError on the line marked
`# interpret-error: <message>` (ranks=2) where the meaning is not defined or the ranks would
hang."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pl
from pl.interpreter.execute import Machine
from pl.interpreter.values import np_dtype
from pl.ir import (
    AssignStmt,
    Call,
    Expr,
    MemorySpace,
    ParamDirection,
    Program,
    TensorType,
    TileType,
    Var,
)
from pl.ir.traverse import walk_exprs, walk_stmts
from pl.show_inferred import show_inferred

KERNELS = Path(__file__).resolve().parent / "round_trip_kernels"
RANK_KERNELS = Path(__file__).resolve().parent / "distributed_kernels"


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


Arrays = list[np.ndarray]


def _sum(xs: np.ndarray) -> np.ndarray:
    return np.broadcast_to(xs.sum(axis=0), xs.shape)


def _ring_shift(ins: Arrays, n: int) -> Arrays:
    (x,) = ins
    return [np.stack([2 * x[(r - 1) % n] + x[r] for r in range(n)])]


def _put_get(ins: Arrays, n: int) -> Arrays:
    (x,) = ins
    y = np.zeros_like(x)
    for r in range(n):
        y[r, :4] = x[(r - 2) % n, 4:]
    return [y]


def _barrier_tally(ins: Arrays, n: int) -> Arrays:
    return [np.stack([(np.arange(n) != r).astype(np.int32).reshape(n, 1) for r in range(n)])]


def _collectives(ins: Arrays, n: int) -> Arrays:
    x, tables = ins  # x: [n, 1, 16], tables: [n, n, 16]
    gathered = np.broadcast_to(x.reshape(1, n, 16), (n, n, 16))
    peak = np.broadcast_to(x.max(axis=0), x.shape)
    recv = np.stack([np.stack([tables[s, d] for s in range(n)]) for d in range(n)])
    scat = np.stack([tables[:, r].sum(axis=0, keepdims=True) for r in range(n)])
    return [gathered, peak, recv, scat]


def _broadcast_exchange(ins: Arrays, n: int) -> Arrays:
    x, tables, counts = ins  # [n, 1, 16], [n, 2n, 16], [n, n, 1]
    b = np.broadcast_to(x[0], x.shape)
    recv = np.stack([np.concatenate([tables[s, 2 * d:2 * d + 2] for s in range(n)])
                     for d in range(n)])
    rc = np.stack([np.minimum(counts[:, d], 2) for d in range(n)]).astype(np.int32)
    return [b, recv, rc]


# Kernel -> the outputs (the host's Out parameters, in order) every rank should hold, from its
# inputs (the host's In parameters, each with a leading rank dimension) and the rank count.
MODELS = {
    "allreduce_handrolled": lambda ins, n: [_sum(ins[0])],
    "ring_shift": _ring_shift,
    "put_get": _put_get,
    "barrier_tally": _barrier_tally,
    "collectives": _collectives,
    "host_allreduce": lambda ins, n: [_sum(ins[0])],
    "broadcast_exchange": _broadcast_exchange,
    "deferred_store": lambda ins, n: [2 * np.roll(ins[0], 1, axis=0)],
    "two_tasks_per_rank": lambda ins, n: [np.roll(ins[0], 1, axis=0)],
}
ERRORS = sorted(p.stem for p in RANK_KERNELS.glob("error_*.py"))


def _rank_program(name: str) -> Program:
    path = RANK_KERNELS / f"{name}.py"
    program = pl.parse(path.read_text(encoding="utf-8"), filename=str(path))
    assert isinstance(program, Program)
    return program


def _extent(dim: Expr, n: int) -> int:
    """A dim of a host parameter with every dynamic dim (NR) n: `NR * 2` is 2n."""
    env = {v: n for v in walk_exprs(dim) if isinstance(v, Var)}
    return int(Machine(Program("dims", ())).eval(dim, env))


def _host_args(program: Program, n: int, seed: int) -> tuple[Arrays, Arrays, Arrays]:
    """(all arguments, the In ones, the Out ones) of the host: shapes with every dynamic dim n."""
    host = program.get("host") or program.get("orchestrator")
    assert host is not None
    rng = np.random.default_rng(seed)
    args: Arrays = []
    ins: Arrays = []
    outs: Arrays = []
    for p, d in zip(host.params, host.directions, strict=True):
        assert isinstance(p.type, TensorType)
        shape = tuple(_extent(x, n) for x in p.type.shape)
        dtype = np_dtype(p.type.dtype)
        if d is ParamDirection.In:
            a = (rng.integers(0, 4, shape) if p.type.dtype.is_int()
                 else rng.standard_normal(shape)).astype(dtype)
            ins.append(a)
        else:
            a = np.zeros(shape, dtype)
            outs.append(a)
        args.append(a)
    return args, ins, outs


def _check_ranks(program: Program, name: str, n: int) -> None:
    args, ins, outs = _host_args(program, n, seed=n)
    entry = "host" if program.get("host") is not None else "orchestrator"
    pl.interpret(program, *args, ranks=n, entry=entry)
    want = MODELS[name](ins, n)
    assert len(want) == len(outs)
    for got, exp in zip(outs, want, strict=True):
        np.testing.assert_allclose(got, exp, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("n", [1, 2, 3, 4])
@pytest.mark.parametrize("name", sorted(MODELS))
def test_each_rank_holds_what_the_numpy_model_says(name: str, n: int) -> None:
    program = _rank_program(name)
    _check_ranks(program, name, n)
    _check_ranks(pl.compile(program, verify=True).program, name, n)


@pytest.mark.parametrize("name", sorted(MODELS))
def test_rank_kernels_round_trip_and_are_show_inferred_fixed_points(name: str) -> None:
    program = _rank_program(name)
    compiled = pl.compile(program, verify=True).program
    pl.assert_structural_equal(pl.parse(pl.python_print(compiled)), compiled)
    text = (RANK_KERNELS / f"{name}.py").read_text(encoding="utf-8")
    shown = show_inferred(text, filename=f"{name}.py")
    assert show_inferred(shown, filename=f"{name}.py") == shown
    again = pl.parse(shown, filename=f"{name}.py")
    assert isinstance(again, Program)
    _check_ranks(again, name, 2)


@pytest.mark.parametrize("name", ERRORS)
def test_undefined_or_hanging_runs_stop_with_one_located_error(name: str) -> None:
    text = (RANK_KERNELS / f"{name}.py").read_text(encoding="utf-8")
    marked = [(i, line.split("# interpret-error: ", 1)[1].strip())
              for i, line in enumerate(text.splitlines(), 1) if "# interpret-error: " in line]
    assert len(marked) == 1
    line, message = marked[0]
    program = _rank_program(name)
    with pytest.raises(pl.PlError) as info:
        pl.interpret(program, ranks=2, entry="host")
    assert message in info.value.message
    assert info.value.span is not None and info.value.span.line == line, info.value


def test_a_distributed_run_needs_its_rank_count() -> None:
    program = _rank_program("ring_shift")
    args, _, _ = _host_args(program, 2, seed=0)
    with pytest.raises(pl.PlError, match="needs the number of ranks") as info:
        pl.interpret(program, *args, entry="host")
    assert info.value.hint is not None and "ranks=N" in info.value.hint
    with pytest.raises(pl.PlError, match="ranks must be a positive int"):
        pl.interpret(program, *args, entry="host", ranks=0)


def test_a_task_interpreted_alone_says_its_windows_are_no_ranks() -> None:
    x = np.zeros((16, 64), np.float32)
    with pytest.raises(pl.PlError, match="not one rank's slice of a communication window") as info:
        pl.interpret(_program("distributed_ring.py"), x, x, np.zeros((1, 8), np.int32), 1,
                     entry="step")
    lines = (KERNELS / "distributed_ring.py").read_text(encoding="utf-8").splitlines()
    first = next(i for i, line in enumerate(lines, 1) if "pld.tile.remote_store(" in line)
    assert info.value.span is not None and info.value.span.line == first


def test_the_ring_kernel_runs_on_two_ranks() -> None:
    """tests/round_trip_kernels/distributed_ring.py: rank r adds its window (zero) into peer
    r+1's with an atomic store, signals it, waits, and reads peer r+1's slice back: the sum of
    what rank r+2 (itself, with two ranks) stored there and zero."""
    outs = np.full((2, 16, 64), 7, np.float32)
    pl.interpret(_program("distributed_ring.py"), outs, ranks=2, entry="host")
    np.testing.assert_array_equal(outs, np.zeros_like(outs))


def test_an_inline_dynamic_dim_is_one_dim_for_every_annotation() -> None:
    program = _program("distributed_inline_dynamic.py")
    host = program.get("host_orch")
    assert host is not None
    x, y = (p.type for p in host.params)
    assert isinstance(x, TensorType) and isinstance(y, TensorType) and x.shape[0] is y.shape[0]
    xs = np.arange(3 * 16 * 32, dtype=np.float32).reshape(3, 16, 32)
    ys = np.zeros_like(xs)
    pl.interpret(program, xs, ys, ranks=3, entry="host_orch")
    np.testing.assert_array_equal(ys, xs + 1)


def test_shift_by_round_trips_and_is_a_show_inferred_fixed_point() -> None:
    compiled = pl.compile(_rank_program("shift_by"), verify=True).program
    pl.assert_structural_equal(pl.parse(pl.python_print(compiled)), compiled)
    text = (RANK_KERNELS / "shift_by.py").read_text(encoding="utf-8")
    shown = show_inferred(text, filename="shift_by.py")
    assert show_inferred(shown, filename="shift_by.py") == shown
    again = pl.parse(shown, filename="shift_by.py")
    xs = np.arange(3 * 4 * 16, dtype=np.float32).reshape(3, 4, 16)
    ys = np.zeros_like(xs)
    pl.interpret(again, xs, ys, 2, ranks=3, entry="host")
    np.testing.assert_array_equal(ys, np.stack([xs[(r + 1 - 2) % 3] for r in range(3)]))


@settings(max_examples=25, deadline=None)
@given(n=st.integers(1, 5), k=st.integers(0, 9), seed=st.integers(0, 2**16), compiled=st.booleans())
def test_put_and_get_shift_by_any_distance_on_any_rank_count(n: int, k: int, seed: int,
                                                              compiled: bool) -> None:
    """tests/distributed_kernels/shift_by.py (pld.tile.put / get staged through a Vec tile around
    a barrier): rank r's output is rank (r + 1 - k)'s input, for every rank count and shift."""
    program = _rank_program("shift_by")
    if compiled:
        program = pl.compile(program, verify=True).program
    xs = np.random.default_rng(seed).standard_normal((n, 4, 16)).astype(np.float32)
    ys = np.zeros_like(xs)
    pl.interpret(program, xs, ys, k, ranks=n, entry="host")
    np.testing.assert_array_equal(ys, np.stack([xs[(r + 1 - k) % n] for r in range(n)]))


def _jit_ring() -> Any:
    spec = importlib.util.spec_from_file_location("pl_test_jit_ring", RANK_KERNELS / "jit_ring.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("n", [1, 3])
def test_a_jit_host_runs_one_rank_per_device_id_of_the_reference_config(n: int) -> None:
    ring = _jit_ring().ring
    xs = np.random.default_rng(n).standard_normal((n, 1, 32)).astype(np.float32)
    ys = np.zeros_like(xs)
    config = SimpleNamespace(platform="a2a3sim",
                             distributed_config=SimpleNamespace(device_ids=list(range(n))))
    ring(xs, ys, config=config)
    np.testing.assert_array_equal(ys, np.roll(xs, -1, axis=0))


def test_a_jit_host_without_a_distributed_config_says_it_needs_the_rank_count() -> None:
    ring = _jit_ring().ring
    xs = np.zeros((2, 1, 32), np.float32)
    with pytest.raises(pl.PlError, match="needs the number of ranks"):
        ring(xs, np.zeros_like(xs))
