"""Every kernel in tests/spelling_kernels/ (one per DSL spelling added for the reference's
breadth) parses, compiles for both backends, prints, and reads its printed text back to the same
program; and each promoted spelling (`pl.reserve_buffer`) is the same op as the one it promotes
(`pl.system.reserve_buffer`)."""

from __future__ import annotations

from pathlib import Path

import pytest

import pl
from pl.ir import Program
from pl.ops.registry import op

KERNELS = sorted((Path(__file__).resolve().parent / "spelling_kernels").glob("*.py"))


def _round_trip(program: Program, label: str) -> None:
    text = pl.python_print(program)
    again = pl.parse(text, filename=f"<{label}>")
    pl.assert_structural_equal(again, program)
    assert pl.python_print(again) == text


def test_there_are_spelling_kernels() -> None:
    assert len(KERNELS) >= 2


@pytest.mark.parametrize("path", KERNELS, ids=lambda p: p.stem)
@pytest.mark.parametrize("backend", [None, "910B"])
def test_kernel_compiles_prints_and_round_trips(path: Path, backend: str | None) -> None:
    program = pl.parse(path.read_text(encoding="utf-8"), filename=str(path))
    assert isinstance(program, Program)
    _round_trip(program, path.stem)
    compiled = pl.compile(program, backend=backend)
    _round_trip(compiled.program, path.stem + ":compiled")
    infer = pl.passes.infer_tile_memory_space(backend)
    pl.assert_structural_equal(infer(compiled.program), compiled.program)


# (promoted spelling, the spelling it promotes, a call of it)
PROMOTED = [
    ("pl.reserve_buffer", "pl.system.reserve_buffer", 'b = {}(name="r", size=256, base=0)'),
    ("pl.import_peer_buffer", "pl.system.import_peer_buffer", 'b = {}(name="r", peer_func="peer")'),
    ("pl.tfree_to_aic", "pl.system.tfree_to_aic", "{}(t, split=0)"),
    ("pl.tfree_to_aiv", "pl.system.tfree_to_aiv", "{}(t, id=1)"),
    ("pl.aic_initialize_pipe", "pl.system.aic_initialize_pipe", "{}(0, 0, dir_mask=1, slot_size=512)"),
    ("pl.aiv_initialize_pipe", "pl.system.aiv_initialize_pipe",
     "{}(v2c_consumer_buf=0, c2v_consumer_buf=1, dir_mask=2, slot_size=256, id=1)"),
]

_KERNEL = """import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.AIV)
    def k(self, a: pl.Tensor[[16, 16], pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(a, [0, 0], [16, 16])
        {}
        return a
"""


@pytest.mark.parametrize(("spelling", "promotes", "call"), PROMOTED, ids=[p[0] for p in PROMOTED])
def test_promoted_spelling_is_the_same_op(spelling: str, promotes: str, call: str) -> None:
    promoted = pl.parse(_KERNEL.format(call.format(spelling)), filename="<promoted>")
    original = pl.parse(_KERNEL.format(call.format(promotes)), filename="<original>")
    pl.assert_structural_equal(promoted, original)
    assert spelling in op(promotes.removeprefix("pl.")).spellings


# Two spellings of one call that must build the same program: what the reference's wrappers fill
# in or leave out (pipe buffers default to 0, syncall's default mode and core type, a soft
# syncall's `used_cores=0`, a constant sync event as the `event_id` kwarg).
SAME_CALLS = [
    ("pl.aiv_initialize_pipe(dir_mask=1, slot_size=512)",
     "pl.system.aiv_initialize_pipe(0, 0, dir_mask=1, slot_size=512)"),
    ("pl.aic_initialize_pipe(dir_mask=2, slot_size=512, v2c_consumer_buf=7)",
     "pl.aic_initialize_pipe(0, 7, dir_mask=2, slot_size=512)"),
    ("pl.system.syncall()", "pl.system.syncall(core_type='mix', mode='hard')"),
    ("pl.system.sync_set(3, pipe=pl.PipeType.MTE3)", "pl.system.sync_set(pipe=pl.PipeType.MTE3, event_id=3)"),
]

_SYNC_KERNEL = """import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.AIV)
    def k(self, ws: pl.Tensor[[16], pl.INT32]) -> pl.Tensor[[16], pl.INT32]:
        {}
        return ws
"""


@pytest.mark.parametrize(("one", "other"), SAME_CALLS, ids=[c[0] for c in SAME_CALLS])
def test_a_defaulted_argument_is_the_default_written_out(one: str, other: str) -> None:
    a = pl.parse(_SYNC_KERNEL.format(one), filename="<one>")
    b = pl.parse(_SYNC_KERNEL.format(other), filename="<other>")
    pl.assert_structural_equal(a, b)


def test_a_soft_syncall_with_zero_participants_has_one_operand() -> None:
    program = pl.parse(_SYNC_KERNEL.format(
        "pl.system.syncall(mode='soft', core_type='aiv_only', gm_workspace=ws, used_cores=0)"))
    assert isinstance(program, Program)
    text = pl.python_print(program)
    assert "used_cores=0" in text
    call = next(s for s in program.functions[0].body.stmts if hasattr(s, "expr")).expr  # type: ignore[attr-defined]
    assert len(call.args) == 1 and dict(call.kwargs) == {"core_type": "aiv_only", "mode": "soft"}
