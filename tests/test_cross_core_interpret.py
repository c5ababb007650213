"""`pl.interpret` on the cross-core pipes (pl/interpreter/ops/cross_core.py): a push then a pop
moves the tile, in order, per direction and pipe id; a pop with nothing pushed is one located
error; the pipes and buffers belong to one run; task ids are opaque (valid or not)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from interpret_support import assert_product_close

import pl
from pl.errors import PlError

ROOT = Path(__file__).resolve().parent.parent
GROUP = pl.parse((ROOT / "examples" / "cross_core_group.py").read_text(encoding="utf-8"))


def _inputs(seed: int) -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(seed)
    a = rng.uniform(-1, 1, (16, 16)).astype(np.float16)
    b = rng.uniform(-1, 1, (16, 16)).astype(np.float16)
    bias = rng.uniform(-1, 1, (16, 16)).astype(np.float32)
    return a, b, bias, np.zeros((16, 16), np.float32)


def test_the_group_moves_the_product_through_the_pipe() -> None:
    a, b, bias, out = _inputs(0)
    pl.interpret(GROUP, a, b, bias, out)
    assert_product_close(out, a, b, start=bias)


@pytest.mark.parametrize("backend", [None, "910B", "950"])
def test_compiling_the_group_keeps_its_results(backend: str | None) -> None:
    a, b, bias, out = _inputs(1)
    compiled = pl.compile(GROUP, backend=backend, verify=True).program
    out2 = out.copy()
    pl.interpret(GROUP, a, b, bias, out)
    pl.interpret(compiled, a, b, bias, out2)
    np.testing.assert_array_equal(out, out2)


def test_a_pop_before_any_push_is_a_located_error_and_runs_share_nothing() -> None:
    a, b, bias, out = _inputs(2)
    pl.interpret(GROUP, a, b, bias, out)  # a whole run pushes and pops; it leaves nothing behind
    with pytest.raises(PlError, match=r"pops from the empty cube -> vector pipe 0") as err:
        pl.interpret(GROUP, bias, out, entry="vec")
    assert err.value.span is not None and err.value.span.line > 0


_PIPES = """import pl


@pl.program
class Pipes:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[8, 16], pl.FP32], y: pl.Tensor[[8, 16], pl.FP32],
          out: pl.Out[pl.Tensor[[8, 16], pl.FP32]]) -> pl.Tensor[[8, 16], pl.FP32]:
        tx = pl.load(x, [0, 0], [8, 16])
        ty = pl.load(y, [0, 0], [8, 16])
        pl.tpush_to_aic(tx, split=0, id=POP_X)
        pl.tpush_to_aic(ty, split=0, id=1)
        first: pl.Tile[[8, 16], pl.FP32, pl.MemorySpace.Mat] = pl.tpop_from_aiv(split=0, id=1)
        second: pl.Tile[[8, 16], pl.FP32, pl.MemorySpace.Mat] = pl.tpop_from_aiv(split=0, id=1)
        d = pl.sub(pl.move(first, target_memory=pl.MemorySpace.Vec), pl.move(second, target_memory=pl.MemorySpace.Vec))
        out = pl.store(d, [0, 0], out)
        return out
"""


def test_pushes_come_out_in_order_per_pipe_id() -> None:
    x = np.full((8, 16), 3.0, np.float32)
    y = np.full((8, 16), 5.0, np.float32)
    out = np.zeros((8, 16), np.float32)
    pl.interpret(pl.parse(_PIPES.replace("POP_X", "1")), x, y, out)
    np.testing.assert_array_equal(out, x - y)  # first in, first out
    with pytest.raises(PlError, match="pops from the empty vector -> cube pipe 1"):
        pl.interpret(pl.parse(_PIPES.replace("POP_X", "2")), x, y, out)  # x went to pipe 2


_TASKS = """import pl


@pl.program
class Tasks:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.BOOL]:
        none = pl.system.task_invalid()
        ok = pl.system.task_is_valid(none)
        return ok
"""


def test_the_invalid_task_id_is_not_valid() -> None:
    assert pl.interpret(pl.parse(_TASKS), 1) is False


_CONSUMER_FIRST = """import pl


@pl.program
class VectorToCube:
    @pl.function(type=pl.FunctionType.AIV)
    def vec(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32]) -> None:
        ta = pl.load(a, [0, 0], [16, 16])
        tb = pl.load(b, [0, 0], [16, 16])
        pl.tpush_to_aic(pl.sub(ta, tb), split=0, id=1)
        pl.tpush_to_aic(pl.add(ta, tb), split=0, id=0)

    @pl.function(type=pl.FunctionType.AIC)
    def cube(self, out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        s: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Mat] = pl.tpop_from_aiv(split=0, id=0)
        d: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Mat] = pl.tpop_from_aiv(split=0, id=1)
        r = pl.matmul(pl.move(s, target_memory=pl.MemorySpace.Left), pl.move(d, target_memory=pl.MemorySpace.Right))
        out = pl.store(r, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Group)
    def main(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32],
             out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        out = self.cube(out)
        self.vec(a, b)
        return out
"""


def test_a_group_runs_the_side_that_pushes_before_the_side_that_pops() -> None:
    """The group calls its consumer first, as the device may: the pops still find their tiles,
    each pipe id its own."""
    rng = np.random.default_rng(3)
    a, b = (rng.uniform(-1, 1, (16, 16)).astype(np.float32) for _ in range(2))
    out = np.zeros((16, 16), np.float32)
    program = pl.parse(_CONSUMER_FIRST)
    pl.interpret(program, a, b, out)
    assert_product_close(out, a + b, a - b)
    for backend in (None, "910B"):
        again = np.zeros((16, 16), np.float32)
        pl.interpret(pl.compile(program, backend=backend).program, a, b, again)
        np.testing.assert_array_equal(again, out)


def test_a_two_way_exchange_that_no_order_serves_is_a_located_error() -> None:
    """Each side pops first what the other pushes: no one-after-the-other order runs it."""
    text = _CONSUMER_FIRST.replace(
        "        ta = pl.load(a, [0, 0], [16, 16])\n",
        "        w: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Vec] = pl.tpop_from_aic(split=0)\n"
        "        ta = pl.add(pl.load(a, [0, 0], [16, 16]), w)\n").replace(
        "        out = pl.store(r, [0, 0], out)\n",
        "        pl.tpush_to_aiv(r, split=0)\n        out = pl.store(r, [0, 0], out)\n")
    with pytest.raises(PlError, match="pops from the empty") as err:
        pl.interpret(pl.parse(text), *(np.zeros((16, 16), np.float32) for _ in range(3)))
    assert err.value.span is not None
