"""Writes to tensors keep their meaning through compilation (tests/gm_write_cases/programs.py).

* `OK`: kernels whose writes (pl.write / pl.assemble on GM tensors, slices taken after a
  write) and calls of InCore functions that gain Out params (assigned, evaluated, nested, in a loop
  or branch, launched by pl.submit, through InCore / Group wrappers), and merges of a tile with
  a GM tensor (loop carries, if results), compile to well-typed programs, and `pl.interpret`
  gives the same results before and after `pl.compile` for every backend, residency on and off.
* every `BAD` program marks one line `# error: <message part>`: compiling it (every backend,
  residency on and off) raises one PlError located on that line, saying why the on-chip copy
  would change the meaning (a write into a copy of GM storage, or a read of a stale copy).
"""

from __future__ import annotations

import re

import pytest
from gm_write_cases.programs import BAD, OK
from test_equivalence import assert_same_results

import pl
from pl.errors import PlError
from pl.ir import Program

CONFIGS = [(None, False), ("910B", True), ("910B", False), ("950", True), ("950", False)]
_MARK = re.compile(r"#\s*error:\s*(?P<msg>.*?)\s*$")


def _parse(name: str, text: str) -> Program:
    program = pl.parse(text, filename=f"<{name}>")
    assert isinstance(program, Program)
    return program


def test_there_are_fixtures_of_both_kinds() -> None:
    assert len(OK) >= 10 and len(BAD) >= 6


@pytest.mark.parametrize("name", sorted(OK))
@pytest.mark.parametrize(("backend", "residency"), CONFIGS)
def test_compiled_program_computes_what_the_source_does(name: str, backend: str | None,
                                                        residency: bool) -> None:
    source = _parse(name, OK[name])
    # verify: every pass's output is well typed (the interpreter alone would accept a tile
    # returned where the function declares a GM tensor, which no hardware kernel could do).
    compiled = pl.compile(source, backend=backend, residency=residency, verify=True).program
    assert_same_results(source, compiled)


@pytest.mark.parametrize("name", sorted(BAD))
@pytest.mark.parametrize(("backend", "residency"), CONFIGS)
def test_changed_meaning_is_a_located_error(name: str, backend: str | None, residency: bool) -> None:
    text = BAD[name]
    (line, msg), = [(n, m.group("msg")) for n, t in enumerate(text.splitlines(), start=1)
                    if (m := _MARK.search(t))]
    with pytest.raises(PlError) as info:
        pl.compile(_parse(name, text), backend=backend, residency=residency)
    assert msg in info.value.message, info.value.message
    assert info.value.span is not None and info.value.span.line == line, info.value.span
    assert info.value.span.filename == f"<{name}>"


def test_every_caller_of_a_kernel_that_gained_an_out_param_passes_it() -> None:
    """After the pass, every call of a program function has one actual per parameter."""
    from pl.ir.expr import Call, GlobalVar

    for name, text in OK.items():
        program = pl.passes.convert_tensor_to_tile_ops()(pl.passes.convert_to_ssa()(_parse(name, text)))
        arity = {f.name: len(f.params) for f in program.functions}
        calls = [c for f in program.functions for c in _calls(f.body)]
        short = [(c.op.name, len(c.args)) for c in calls
                 if isinstance(c, Call) and isinstance(c.op, GlobalVar) and len(c.args) != arity[c.op.name]]
        assert not short, (name, short)


def _calls(node: object) -> list[object]:
    """Every Call reachable from a statement or expression (dataclass fields, tuples)."""
    import dataclasses

    from pl.ir.expr import Call

    out: list[object] = []
    stack = [node]
    while stack:
        x = stack.pop()
        if isinstance(x, Call):
            out.append(x)
        if isinstance(x, (tuple, list)):
            stack.extend(x)
        elif dataclasses.is_dataclass(x) and not isinstance(x, type):
            stack.extend(getattr(x, f.name) for f in dataclasses.fields(x)
                         if f.name not in ("span", "result_type", "var_type", "comments"))
    return out


def test_a_tensor_reduction_reads_only_the_declared_valid_region() -> None:
    import numpy as np

    program = _parse("rowsum", OK["row-sum-of-set-validshape-operand"])
    x = np.arange(16 * 64, dtype=np.float32).reshape(16, 64)
    out = np.full((16, 64), -1.0, dtype=np.float32)
    pl.interpret(program, x, out)
    want = np.zeros(16, dtype=np.float32)
    want[:8] = x[:8, :32].sum(axis=1)
    assert np.array_equal(out[:, 3], want)  # padding rows and columns take no part; their sums are 0


def test_a_cycle_of_forwarding_calls_is_a_located_error_not_a_hang() -> None:
    """The frontend rejects recursion; a hand-built program with a cycle through an InCore
    wrapper must still end in a PlError, not forward Out params forever."""
    import dataclasses

    from pl.ir import EvalStmt, GlobalVar, flatten_body
    from pl.ir.stmt import SeqStmts

    program = pl.passes.convert_to_ssa()(_parse("cycle", OK["call-through-incore-wrapper"]))
    kernel = program.get("kernel")
    assert kernel is not None
    x = kernel.params[0]
    back = EvalStmt(pl.ir.Call(GlobalVar("wrap"), (x,)))
    body = flatten_body(kernel.body)
    kernel = dataclasses.replace(kernel, body=SeqStmts((*body[:-1], back, body[-1])))
    cyclic = dataclasses.replace(program, functions=tuple(
        kernel if f.name == "kernel" else f for f in program.functions))
    with pytest.raises(PlError, match="call each other in a cycle"):
        pl.passes.convert_tensor_to_tile_ops()(cyclic)
