"""Choose the L0 tile (m, n, k) of one Mat-resident matmul under a roofline cost model.

Guarantees (the reference's L0 tile chooser, restated as data and arithmetic):
* every candidate is aligned (16), at least the cube minimum (16), no larger than the problem
  (no padding), fits L0A / L0B (operands double-buffered unless held stationary) and L0C
  (the accumulator's rows rounded up to the backend's L0C row alignment);
* k runs over every aligned width up to what fits; a k that does not divide K is allowed (the
  caller peels the last, partial K block) because K itself is 16-aligned;
* the winner has the lowest estimated wall clock: max(load, cube) + drain, with ties broken by
  padded compute, K blocks, load cycles, larger m*n, larger k;
* operand-stationary design points (A or B held in a single buffer, k == K) are tried only when
  the output-stationary optimum tiles at all, and win only when strictly cheaper;
* `choose_l0_tile` returns None where the reference's chooser rejects the configuration (a
  dimension below the cube minimum, no legal tile), so the caller leaves the matmul alone.
Pure functions of their arguments; the L0 sizes and cost model are the backend's record
(pl/ir/target.py).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum

from pl.ir.target import Backend, CostModel

ALIGN = 16  # cube fractal: alignment and minimum of m, n and k on both backends


class Stationarity(Enum):
    OUTPUT = "output"  # the accumulator stays; both operands stream (double-buffered)
    A = "a"            # the left operand is held (single-buffered), k == K
    B = "b"            # the right operand is held (single-buffered), k == K


@dataclass(frozen=True)
class Problem:
    """One matmul: [M, K] x [K, N] with element sizes in bytes; `c_read` for matmul_acc."""

    M: int
    N: int
    K: int
    bytes_a: int
    bytes_b: int
    bytes_c: int
    l0c_row_align: int
    c_read: bool = False


@dataclass(frozen=True)
class L0Tile:
    m: int
    n: int
    k: int
    stationarity: Stationarity
    os_holds_a: bool  # full-K output-stationary: hold A (rows outer) rather than B
    cost: int


def _ceil(a: int, b: int) -> int:
    return -(-a // b)


def _odd_part(x: int) -> int:
    while x % 2 == 0:
        x //= 2
    return x


def os_holds_a(p: Problem, cm: CostModel, m: int, n: int) -> bool:
    """Whether holding A (streaming B) loads in no more cycles than holding B."""
    held_a = p.bytes_a * p.M * p.K / cm.bw_a + p.bytes_b * p.K * p.N * _ceil(p.M, m) / cm.bw_b
    held_b = p.bytes_a * p.M * p.K * _ceil(p.N, n) / cm.bw_a + p.bytes_b * p.K * p.N / cm.bw_b
    return held_a <= held_b


def _load_cycles(p: Problem, cm: CostModel, m: int, n: int, k: int, stat: Stationarity) -> float:
    held_a = p.bytes_a * p.M * p.K / cm.bw_a + p.bytes_b * p.K * p.N * _ceil(p.M, m) / cm.bw_b
    held_b = p.bytes_a * p.M * p.K * _ceil(p.N, n) / cm.bw_a + p.bytes_b * p.K * p.N / cm.bw_b
    if stat is Stationarity.A:
        return held_a
    if stat is Stationarity.B:
        return held_b
    if k >= p.K:
        return held_a if held_a <= held_b else held_b
    return (p.bytes_a * p.M * p.K * _ceil(p.N, n) / cm.bw_a
            + p.bytes_b * p.K * p.N * _ceil(p.M, m) / cm.bw_b)


def _mad_cycles(p: Problem, cm: CostModel, m: int, n: int, k: int) -> int:
    kt = max(1, cm.mad_k_fractal_bytes // p.bytes_a)
    passes = max(1, cm.mad_fp32_passes) if p.bytes_a == 4 else max(1, p.bytes_a // 2)
    full, tail = divmod(p.K, k)
    blocks = full + (1 if tail else 0)
    fractals = full * _ceil(k, kt) + (_ceil(tail, kt) if tail else 0)
    per_tile = blocks * cm.mad_head + passes * _ceil(m, ALIGN) * fractals * _ceil(n, ALIGN)
    return _ceil(p.M, m) * _ceil(p.N, n) * per_tile


def _drain_cycles(p: Problem, cm: CostModel, m: int, n: int) -> float:
    n0 = max(1, cm.drain_c0_bytes // p.bytes_c)
    per_row = (max(cm.drain_row, p.bytes_c * n / cm.bw_drain)
               + cm.drain_penalty * (_odd_part(_ceil(n, n0)) - 1))
    return _ceil(p.M, m) * _ceil(p.N, n) * (cm.drain_fixed + m * per_row)


def _wall(p: Problem, cm: CostModel, m: int, n: int, k: int, stat: Stationarity) -> int:
    compute = max(_load_cycles(p, cm, m, n, k, stat), float(_mad_cycles(p, cm, m, n, k)))
    return math.floor(compute + _drain_cycles(p, cm, m, n) + 0.5)  # round half away from zero


@dataclass(frozen=True)
class _Candidate:
    tile: L0Tile
    key: tuple[int, int, int, float, int, int]  # smaller is better


def _candidate(p: Problem, cm: CostModel, m: int, n: int, k: int,
               stat: Stationarity) -> _Candidate:
    cost = _wall(p, cm, m, n, k, stat)
    padded = _ceil(p.M, m) * m * _ceil(p.N, n) * n * _ceil(p.K, k) * k
    tile = L0Tile(m, n, k, stat, os_holds_a(p, cm, m, n), cost)
    return _Candidate(tile, (cost, padded, _ceil(p.K, k), _load_cycles(p, cm, m, n, k, stat),
                             -m * n, -k))


def _best(p: Problem, cm: CostModel, stat: Stationarity, a_elems: int, b_elems: int,
          c_elems: int, full_k_only: bool) -> _Candidate | None:
    best: _Candidate | None = None
    for m in range(ALIGN, p.M + 1, ALIGN):
        rows = _ceil(m, p.l0c_row_align) * p.l0c_row_align
        if rows > c_elems // ALIGN:
            break
        for n in range(ALIGN, min(p.N, c_elems // rows) + 1, ALIGN):
            k_hi = min(a_elems // m, b_elems // n, p.K) // ALIGN * ALIGN
            ks = [p.K] if full_k_only and k_hi >= p.K else [] if full_k_only else \
                range(ALIGN, k_hi + 1, ALIGN)
            for k in ks:
                c = _candidate(p, cm, m, n, k, stat)
                if best is None or c.key < best.key:
                    best = c
    return best


def choose_l0_tile(p: Problem, hw: Backend, *, allow_stationary: bool = True) -> L0Tile | None:
    """The minimum-wall L0 tile of `p` on backend `hw` (see the module docstring); None when the
    problem is below the cube minimum or K is not 16-aligned (the matmul is left alone)."""
    if min(p.M, p.N, p.K) < ALIGN or p.K % ALIGN or min(p.bytes_a, p.bytes_b, p.bytes_c) <= 0:
        return None
    cm = hw.cost

    def elems(capacity: int, size: int, buffers: int) -> int:
        return capacity // (size * buffers)

    c_elems = elems(hw.l0c, p.bytes_c, 1)
    if _ceil(ALIGN, p.l0c_row_align) * p.l0c_row_align * ALIGN > c_elems:
        return None
    best = _best(p, cm, Stationarity.OUTPUT, elems(hw.l0a, p.bytes_a, 2),
                 elems(hw.l0b, p.bytes_b, 2), c_elems, full_k_only=False)
    if best is None:
        return None
    if allow_stationary and (best.tile.m, best.tile.n, best.tile.k) != (p.M, p.N, p.K):
        for stat, a_bufs, b_bufs in ((Stationarity.A, 1, 2), (Stationarity.B, 2, 1)):
            cand = _best(p, cm, stat, elems(hw.l0a, p.bytes_a, a_bufs),
                         elems(hw.l0b, p.bytes_b, b_bufs), c_elems, full_k_only=True)
            if cand is not None and cand.tile.cost < best.tile.cost:
                best = cand
    return best.tile
