"""The footprint rule (pl/infer/footprint.py) on compiled kernels: owners, views, 32-byte layout,
dynamic shapes."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from kernel_strategies import matmul_programs, tile_programs

import pl
from pl.errors import PlError
from pl.infer.footprint import (
    ALIGN,
    buffer_source,
    footprint_and_peaks,
    function_footprint,
    peak_live_bytes,
    tile_bytes,
)
from pl.ir.enums import DType, MemorySpace
from pl.ir.expr import ConstInt, Var
from pl.ir.function import Function
from pl.ir.stmt import AssignStmt, ForStmt, IfStmt, ScopeStmt, WhileStmt, flatten_body
from pl.ir.traverse import stmt_exprs, walk_exprs, walk_stmts
from pl.ir.types import ScalarType, TileType

SEED = '''
import pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[16, 128], pl.BF16], y: pl.Tensor[[128, 128], pl.BF16],
          out_0: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
        x_tile: pl.Tile[[16, 128], pl.BF16] = pl.load(x, [0, 0], [16, 128])
        y_tile: pl.Tile[[128, 128], pl.BF16] = pl.load(y, [0, 0], [128, 128])
        z_tile: pl.Tile[[16, 128], pl.FP32] = pl.matmul(x_tile, y_tile)
        out_0: pl.Tensor[[16, 128], pl.FP32] = pl.store(z_tile, [0, 0], out_0)
        return out_0
'''

ODD = '''
import pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[3, 5], pl.FP16], out_0: pl.Out[pl.Tensor[[3, 5], pl.FP16]]
          ) -> pl.Tensor[[3, 5], pl.FP16]:
        a: pl.Tile[[3, 5], pl.FP16] = pl.load(x, [0, 0], [3, 5])
        b: pl.Tile[[3, 5], pl.FP16] = pl.add(a, a)
        c: pl.Tile[[3, 5], pl.FP16] = pl.mul(b, a)
        out_0: pl.Tensor[[3, 5], pl.FP16] = pl.store(c, [0, 0], out_0)
        return out_0
'''


def _footprint(text: str):  # type: ignore[no-untyped-def]
    compiled = pl.compile(pl.parse(text), backend="910B")
    (func,) = [f for f in compiled.program.functions if f.name == "k"]
    return function_footprint(func)


def test_each_owner_counts_once_in_its_space() -> None:
    fp = _footprint(SEED)
    sizes = {space: [size for _, size in s.owners] for space, s in fp.spaces.items()}
    # The Vec loads are moved to Left / Right; the matmul result lives in Acc.
    assert sizes[MemorySpace.Acc] == [16 * 128 * 4]
    assert fp.bytes_in(MemorySpace.Left) == 16 * 128 * 2
    assert fp.bytes_in(MemorySpace.Right) == 128 * 128 * 2
    assert fp.bytes_in(MemorySpace.Bias) == 0
    assert not any(s.unknown for s in fp.spaces.values())


def test_owners_are_laid_out_at_32_byte_boundaries() -> None:
    fp = _footprint(ODD)
    vec = fp.spaces[MemorySpace.Vec]
    assert [size for _, size in vec.owners] == [30, 30, 30]
    assert vec.bytes == 32 + 32 + 32      # each 30-byte buffer ends on the next boundary


def test_packed_and_dynamic_sizes() -> None:
    n = Var("n", ScalarType(DType.INDEX))
    assert tile_bytes(TileType((ConstInt(3), ConstInt(5)), DType.INT4)) == 8
    assert tile_bytes(TileType((ConstInt(4), n), DType.FP32)) is None


# -- the peak of live bytes against the whole-function footprint, on generated programs ---------
@pytest.mark.parametrize("family", ["tile", "matmul"])
@settings(max_examples=12, derandomize=True, database=None, deadline=None,
          phases=[Phase.explicit, Phase.generate],
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_the_peak_is_within_the_footprint(family: str, data: st.DataObject) -> None:
    """Per space, the peak of live bytes is at most the whole-function footprint (the same owners
    at the same sizes, only those live together added) and at least the biggest owner (a tile is
    live where it is defined)."""
    g = data.draw(tile_programs() if family == "tile" else matmul_programs(), label=family)
    try:
        compiled = pl.compile(pl.parse(g.source), backend="910B")
    except PlError:
        return  # a user-facing diagnostic is an allowed outcome (tests/test_properties.py)
    for func in compiled.program.functions:
        fp = function_footprint(func)
        peaks = peak_live_bytes(func)
        assert footprint_and_peaks(func) == (fp, peaks)  # the one walk gives both alike
        assert set(peaks) == set(fp.spaces)
        for space, peak in peaks.items():
            biggest = max((-(-size // ALIGN) * ALIGN for _, size in fp.spaces[space].owners
                           if size is not None), default=0)
            assert biggest <= peak.bytes <= fp.bytes_in(space), (space, g.source)
            assert {v for v, _ in peak.owners} <= {v for v, _ in fp.spaces[space].owners}


# -- the peak in straight-line code, against intervals computed here ---------------------------
ROOT = Path(__file__).resolve().parent.parent
CORPUS = sorted([*ROOT.glob("examples/*.py"), *ROOT.glob("tests/capacity_kernels/*.py"),
                 *ROOT.glob("tests/op_kernels/*.py"), *ROOT.glob("tests/infer_cases/*.py")])


def _straight_line_peaks(func: Function) -> dict[MemorySpace, int]:
    """Per space, the most bytes of owners whose interval [definition, last use] holds a statement
    (a use of a rename, view or in-place result is a use of the owner it shares); parameters hold
    every statement. Only for a body without loops, branches or scopes."""
    owners = {v: size for fp in function_footprint(func).spaces.values() for v, size in fp.owners}
    stmts = flatten_body(func.body)
    owner_of = {p: p for p in func.params if p in owners}
    first = {p: 0 for p in owner_of}
    last = {p: len(stmts) for p in owner_of}
    for i, s in enumerate(stmts):
        for e in stmt_exprs(s):
            for v in walk_exprs(e):
                if isinstance(v, Var) and v in owner_of:
                    last[owner_of[v]] = max(last[owner_of[v]], i)
        if isinstance(s, AssignStmt):
            source = buffer_source(s.value)
            if s.var in owners:
                owner_of[s.var] = s.var
                first[s.var] = last[s.var] = i
            elif isinstance(source, Var) and source in owner_of:
                owner_of[s.var] = owner_of[source]
    out: dict[MemorySpace, int] = {}
    for i in range(len(stmts) + 1):
        held: dict[MemorySpace, int] = {}
        for v in first:
            if first[v] <= i <= last[v]:
                space = v.type.memory_space  # type: ignore[attr-defined]
                held[space] = held.get(space, 0) + -(-(owners[v] or 0) // ALIGN) * ALIGN
        for space, n in held.items():
            out[space] = max(out.get(space, 0), n)
    return out


def test_the_peak_of_straight_line_code_is_exact() -> None:
    checked = 0
    for path in CORPUS:
        try:
            compiled = pl.compile(pl.parse(path.read_text(encoding="utf-8"), filename=str(path)),
                                  backend="910B")
        except PlError:
            continue  # a kernel of the corpus that is meant to fail
        for func in compiled.program.functions:
            if any(isinstance(s, ForStmt | WhileStmt | IfStmt | ScopeStmt)
                   for s in walk_stmts(func.body)):
                continue
            expected = _straight_line_peaks(func)
            got = {space: p.bytes for space, p in peak_live_bytes(func).items()}
            assert got == expected, (path, func.name)
            checked += bool(got)
    assert checked >= 30  # straight-line functions with tiles in the corpus
