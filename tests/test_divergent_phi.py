"""If-phis whose branches yield tiles in different spaces (data tests, interpreted).

As in the reference (pass.md, IfStmt), such a phi stays unrecorded and its branches keep
disagreeing - unless the op that reads the phi refuses one of the two spaces. Then (infer/analysis.py,
infer/mutate.py `_reconcile`) the phi takes the space that consumer demands and each diverging
branch moves its yielded tile there right before the yield, so the consumer never reads a space its
op refuses (the TileMemoryInferred verifier would call that a missed move). Every kernel below must:
compile with every pass checked, on every backend; compute what its source computes (interpreted,
both branches taken); compile again from its printed form to the same program; and go through
show_inferred verified.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from interpret_support import random_inputs, run_interpreted
from test_show_verify import check_every_mode

import pl
from pl.ir.stmt import IfStmt
from pl.ir.traverse import last_yield, walk_stmts
from pl.ir.types import TileType
from pl.show_inferred.run import run_text

HEAD = '''import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[16, 128], pl.BF16], y: pl.Tensor[[128, 128], pl.BF16],
               z: pl.Tensor[[16, 128], pl.FP32], m: pl.Scalar[pl.INDEX],
               out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
        a = pl.load(x, [0, 0], [16, 128])
        b = pl.load(y, [0, 0], [128, 128])
        c = pl.load(z, [0, 0], [16, 128])
'''

KERNELS = {
    # a Vec tile rebound to a matmul's Acc result in one branch; the store reads the phi
    "matmul_in_then": HEAD + '''        if m > 1:
            c = pl.matmul(a, b)
        out = pl.store(c, [0, 0], out)
        return out
''',
    # the same in the else branch, the phi read by an elementwise op (Vec)
    "matmul_in_else": HEAD + '''        if m > 1:
            c = pl.add(c, c)
        else:
            c = pl.matmul(a, b)
        d = pl.mul(c, c)
        out = pl.store(d, [0, 0], out)
        return out
''',
    # explicit yields: show_inferred annotates in place, the move before the then-yield, whose
    # value is renamed to it
    "explicit_yields": HEAD + '''        if m < 2:
            s = pl.matmul(a, b)
            p = pl.yield_(s)
        else:
            t = pl.sub(c, c)
            p = pl.yield_(t)
        out = pl.store(p, [0, 0], out)
        return out
''',
    # the phi accumulates: matmul_acc wants it in Acc, so the Vec branch moves
    "phi_read_by_matmul_acc": HEAD + '''        if m > 1:
            c = pl.matmul(a, b)
        e = pl.matmul_acc(c, a, b)
        out = pl.store(e, [0, 0], out)
        return out
''',
}


# The kernels whose phi is read by an op that refuses one branch's space (mul: Vec only;
# matmul_acc's accumulator: Acc only); the others are read by a store, which takes Vec and Acc.
RECONCILED = {"matmul_in_else", "phi_read_by_matmul_acc"}


def _phis_agree(program: pl.ir.Program, agree: bool) -> None:
    for f in program.functions:
        for s in walk_stmts(f.body):
            if not isinstance(s, IfStmt):
                continue
            for body in (s.then_body, s.else_body):
                y = last_yield(body)
                assert y is not None
                for rv, value in zip(s.return_vars, y.values, strict=True):
                    if isinstance(rv.type, TileType) and agree:
                        assert isinstance(value.type, TileType)
                        assert value.type.memory_space is rv.type.memory_space, rv.name


@pytest.mark.parametrize("backend", [None, "910B", "950"])
@pytest.mark.parametrize("name", sorted(KERNELS))
def test_divergent_phi_is_reconciled_by_a_move(name: str, backend: str | None,
                                               tmp_path: Path) -> None:
    text = KERNELS[name]
    source = pl.parse(text)
    compiled = pl.compile(source, backend=backend, verify=True)
    _phis_agree(compiled.program, agree=name in RECONCILED)
    printed = compiled.as_python()
    if name in RECONCILED:
        assert "pl.tile.move(" in printed
    else:  # the reference's divergent phi: neither branch moves the tile it yields
        for f in compiled.program.functions:
            for st in walk_stmts(f.body):
                if isinstance(st, IfStmt):
                    for body in (st.then_body, st.else_body):
                        y = last_yield(body)
                        assert y is not None and not any(
                            isinstance(v, pl.ir.Var) and v.name.endswith(("_Vec", "_Acc"))
                            for v in y.values), printed
    args = random_inputs(source, seed=3)
    for m in (0, 3):  # the else branch, then the then branch
        args[3] = m
        want = run_interpreted(pl.passes.convert_to_ssa()(source), args)
        got = run_interpreted(compiled.program, args)
        for w, g in zip(want, got, strict=True):
            assert np.array_equal(w, g, equal_nan=True), f"m={m}: results differ"
    again = pl.compile(pl.parse(compiled.as_python()), backend=backend, verify=True)
    pl.assert_structural_equal(again.program, compiled.program)
    check_every_mode(text, tmp_path, backend=backend or "none")
    if name == "explicit_yields":  # annotated in place, the branches as the reference leaves them
        shown = run_text(text, "<phi>", backend=backend).output
        assert "= pl.yield_(s)\n" in shown and "= pl.yield_(t)\n" in shown and "s_Vec" not in shown
