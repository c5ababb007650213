"""AutoTileMatmulL0: tile Mat-resident matmuls whose operands or output overflow L0.

Guarantees (pass.md 7), with a backend (a record of pl/ir/target.py; None is a no-op):
* a `tile.matmul` / `tile.matmul_acc` of InCore/AIC/AIV functions, with static 2-D operands, a
  Mat rhs, a Mat or Vec lhs, byte-sized dtypes and a 16-aligned K, gets the L0 tile (m, n, k) of
  `lowering.l0_tile_chooser`; a matmul whose tile is its whole shape is left alone;
* K only (m = M, n = N): a pipelined K loop (2 stages) over the full k-wide blocks, then a
  partial last block when k does not divide K; one full block is written straight-line. Names:
  `<c>_l0_init`, `<c>_l0_ko`, `<c>_l0_c`, `<c>_l0_a`, `<c>_l0_b`, `<c>_l0_c_first`,
  `<c>_l0_c_acc`, `<c>_l0_c_phi`, `<c>_l0_lmat` (Vec lhs staged into Mat once), `<c>_l0_kmain`
  (the loop's result when a tail follows), `<c>_l0_{a,b,c}{0,t}` (straight-line blocks);
* M/N (the [M, N] accumulator does not fit L0C): only a fresh `tile.matmul` with a Mat lhs
  whose result is read exactly once, by a 2-D `tile.store` in the same block, is tiled; the
  matmul moves to the store, which becomes one store per [m, n] sub-tile chaining the output
  tensor (`<out>_t<i>`). k < K: an unrolled N-major grid of K loops named `<c>_t<i>_l0_*`.
  k == K: nested loops over the full blocks (the held operand's loop outside: a sequential
  loop when an operand is held single-buffered, else both pipelined) named `<c>_{o,i,oc,ic,a,b,
  c,irv,orv}`, then straight-line partial tiles `<c>_{ta,tb,tc}<i>` (every block straight-line
  when a full block would reach past the product's valid region). Any other oversized matmul
  is left alone, as the reference leaves it;
* a K loop's carry starts as an Acc tile narrowed to its block's part of the product's valid
  region (`<c>_l0_init_storage` + `tile.set_validshape`), so each store writes exactly what the
  untiled store wrote; a product whose valid region is dynamic is left alone;
* an operand already in Left / Right (of any matmul, `tile.matmul_bias` included) larger than its
  L0 buffer is a PlError at the operand: the pass never retiles those. Not one bound to a
  `tile.move` of a Mat tile, which is what inference writes for a matmul left alone, so that the
  compiled program compiles again. `tile.matmul_bias` itself is not tiled;
* every rewrite computes what the matmul computed (extract offsets cover [M, N, K] exactly once);
  calls keep their attrs; the input program is never mutated.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cached_property

from pl.errors import PlError
from pl.ir.enums import DType, ForKind, MemorySpace
from pl.ir.expr import BinaryExpr, Call, ConstInt, Expr, IterArg, MakeTuple, Var, space_of
from pl.ir.function import Program
from pl.ir.operators import BinaryOp
from pl.ir.rewriter import Rewriter, body_of, map_incore_functions
from pl.ir.span import Span
from pl.ir.stmt import AssignStmt, ForStmt, IfStmt, Stmt, YieldStmt, flatten_body, make_body
from pl.ir.target import Backend
from pl.ir.traverse import stmt_exprs, walk_exprs, walk_stmts
from pl.ir.types import ScalarType, TileType, effective_tile_view, static_shape
from pl.lowering.l0_tile_chooser import L0Tile, Problem, Stationarity, choose_l0_tile
from pl.lowering.tensor_to_tile.common import (
    base_name,
    index,
    index_add,
    index_tuple,
    mk,
    op_name,
    rededuce_call,
)
from pl.ops.backend import backend as lookup_backend

PIPELINE = (("pipeline_stages", 2),)
MAX_GRID_BLOCKS = 65536  # output blocks an M/N tiling may write out (see `_AutoTile.fold`)
PIPELINE_NO_OVERLAP = (("pipeline_stages", 2), ("pipeline_overlap_stores", False))
# place(sub_tile, row, col, chained_output, step, into) -> the next chained output (a store)
_Place = Callable[[Var, Expr, Expr, Expr, int, list[Stmt]], Var]


@dataclass(frozen=True)
class _Matmul:
    """One tileable matmul: its (substituted) operands, shape and chosen L0 tile."""

    stmt: AssignStmt
    call: Call
    lhs: Expr
    rhs: Expr
    init: Expr | None  # matmul_acc's accumulator
    M: int
    N: int
    K: int
    tile: L0Tile
    valid: tuple[int, int]  # the product's valid rows and columns

    @property
    def span(self) -> Span:
        return self.call.span

    def stage_lhs(self) -> bool:
        lt = self.lhs.type
        return isinstance(lt, TileType) and lt.memory_space is MemorySpace.Vec


def _uses(stmts: list[Stmt]) -> Counter[int]:
    """How often each Var is read in `stmts` (nested bodies included), by identity."""
    count: Counter[int] = Counter()
    for top in stmts:
        for s in walk_stmts(top):
            for e in stmt_exprs(s):
                for x in walk_exprs(e):
                    if isinstance(x, Var):
                        count[id(x)] += 1
    return count


def _stores(stmts: list[Stmt]) -> dict[int, AssignStmt]:
    """The 2-D `tile.store(tile, offsets, out)` assignments of `stmts`, by the stored Var."""
    out: dict[int, AssignStmt] = {}
    for s in stmts:
        if isinstance(s, AssignStmt) and op_name(s.value) == "tile.store":
            call = s.value
            assert isinstance(call, Call)
            if (len(call.args) == 3 and isinstance(call.args[0], Var)
                    and isinstance(call.args[1], MakeTuple) and len(call.args[1].elements) == 2
                    and isinstance(call.args[2], Var)):
                out.setdefault(id(call.args[0]), s)
    return out


class _BodyFacts:
    """What an M/N-tiled matmul asks of the body it is in: how often each Var is read and which
    store writes it. Only a matmul too large for L0C asks, so both are found when first asked (a
    body without one, nearly every body, never walks its expressions for them)."""

    def __init__(self, stmts: list[Stmt]) -> None:
        self.stmts = stmts

    @cached_property
    def uses(self) -> Counter[int]:
        return _uses(self.stmts)

    @cached_property
    def stores(self) -> dict[int, AssignStmt]:
        return _stores(self.stmts)


class _AutoTile(Rewriter):
    def __init__(self, hw: Backend) -> None:
        super().__init__(rededuce_call)
        self.hw = hw
        self.facts = _BodyFacts([])
        self.pending: dict[int, _Matmul] = {}  # store statement id -> the matmul folded into it
        # ids of the Vars bound to a `tile.move` of a Mat, Vec or Acc tile: what inference writes
        # for the operands of a matmul this pass left alone (see `check_explicit_l0`)
        self.moved_by_inference: set[int] = set()

    def body(self, s: Stmt) -> Stmt:
        stmts = flatten_body(s)
        outer, self.facts = self.facts, _BodyFacts(stmts)
        try:
            out: list[Stmt] = []
            for child in stmts:
                fold = self.pending.pop(id(child), None)
                out.extend(self.stmt(child) if fold is None else self.fold(fold, child))
            return body_of(s, out)
        finally:
            self.facts = outer

    # ---- analysis ----------------------------------------------------------------------------
    def assign(self, s: AssignStmt) -> list[Stmt]:
        value = self.expr(s.value)
        mm = self.analyze(s, value)
        if mm is None:
            out = self.pass_through(s, value)
            if isinstance(value, Call) and op_name(value) == "tile.move" and space_of(
                    value.args[0]) in (MemorySpace.Mat, MemorySpace.Vec, MemorySpace.Acc):
                self.moved_by_inference.add(id(out.var))
            return [out]
        t = mm.tile
        if t.m == mm.M and t.n == mm.N:
            stmts, result = self.k_loop(mm, index(0, mm.span), index(0, mm.span), mm.M, mm.N,
                                        s.var.name, s.var.span)
            self.map_var(s.var, result)
            return _with_comments(stmts, s.comments)
        store = self.facts.stores.get(id(s.var))
        if (mm.init is not None or mm.stage_lhs() or store is None
                or self.facts.uses[id(s.var)] != 1):
            return [self.pass_through(s, value)]  # the reference leaves these alone too
        self.pending[id(store)] = mm
        return []

    def analyze(self, s: AssignStmt, value: Expr) -> _Matmul | None:
        name = op_name(value)
        if name not in ("tile.matmul", "tile.matmul_acc", "tile.matmul_bias"):
            return None
        assert isinstance(value, Call)
        acc = name == "tile.matmul_acc"
        if len(value.args) != (2 if name == "tile.matmul" else 3):
            return None
        lhs, rhs = value.args[1:3] if acc else value.args[:2]
        self.check_explicit_l0(name, lhs, "left", MemorySpace.Left, value.span)
        self.check_explicit_l0(name, rhs, "right", MemorySpace.Right, value.span)
        if name == "tile.matmul_bias":
            return None  # biased matmuls are not tiled (yet): left as they are
        lt, rt, ct = lhs.type, rhs.type, value.type
        if not (isinstance(lt, TileType) and isinstance(rt, TileType) and isinstance(ct, TileType)
                and lt.memory_space in (MemorySpace.Mat, MemorySpace.Vec)
                and rt.memory_space is MemorySpace.Mat):
            return None
        if acc:
            at = value.args[0].type
            if not (isinstance(at, TileType) and len(at.shape) == 2):
                return None
        ls, rs = static_shape(lt.shape), static_shape(rt.shape)
        if ls is None or rs is None or len(ls) != 2 or len(rs) != 2 or ls[1] != rs[0]:
            return None
        (m, k), n = ls, rs[1]
        hw = self.hw
        row_align = hw.int32_acc_row_align if ct.dtype is DType.INT32 else 16
        problem = Problem(m, n, k, lt.dtype.bits // 8, rt.dtype.bits // 8, ct.dtype.bits // 8,
                          row_align, c_read=acc)
        if min(lt.dtype.bits, rt.dtype.bits, ct.dtype.bits) % 8:
            return None  # sub-byte dtypes are left alone
        valid = static_shape(effective_tile_view(ct).valid_shape)
        if valid is None or len(valid) != 2:
            return None  # a dynamic valid region: sub-blocks could not say which part is valid
        tile = choose_l0_tile(problem, self.hw)
        if tile is None or (tile.m, tile.n, tile.k) == (m, n, k):
            return None
        return _Matmul(s, value, lhs, rhs, value.args[0] if acc else None, m, n, k, tile,
                       (valid[0], valid[1]))

    def check_explicit_l0(self, op: str, operand: Expr, role: str, space: MemorySpace,
                          span: Span) -> None:
        """An operand already in Left/Right is never retiled: one that cannot fit its L0 buffer
        at all is the kernel's error, reported where the operand is made. Except a `tile.move`
        of a Mat, Vec or Acc tile: that is how inference feeds a matmul this pass left alone (its
        result not stored once, an operand loaded into Vec or another matmul's result, say), so
        compiling the compiled program must accept it as the first compile did (the reference
        rejects it; docs/compatibility.md). Its capacity warning still says it does not fit."""
        if id(operand) in self.moved_by_inference:
            return
        t = operand.type
        shape = static_shape(t.shape) if isinstance(t, TileType) else None
        if not isinstance(t, TileType) or t.memory_space is not space or shape is None \
                or len(shape) != 2 or t.dtype.bits % 8:
            return
        hw = self.hw
        need = _ceil16(shape[0]) * _ceil16(shape[1]) * (t.dtype.bits // 8)
        have = hw.l0a if space is MemorySpace.Left else hw.l0b
        if need <= have:
            return
        label = "L0A" if space is MemorySpace.Left else "L0B"
        name = base_name(operand.name) if isinstance(operand, Var) else "?"
        raise PlError(
            f"{op} {role} operand '{name}' is already resident in {space.name} ({label}) with "
            f"physical shape [{shape[0]}, {shape[1]}] and dtype {t.dtype.short}, requiring {need} "
            f"bytes, but the active backend provides {have} bytes. AutoTileMatmulL0 does not "
            f"retile operands already placed in Left or Right",
            operand.span if isinstance(operand, Var) and operand.span.line > 0 else span,
            hint=f"Keep this operand in Mat and pass it directly to {op} so AutoTileMatmulL0 can "
                 f"choose legal L0 tiles, or manually extract a smaller {space.name} tile")

    # ---- the K loop of one [m, n] output block -----------------------------------------------
    def extract(self, src: Expr, row: Expr, col: Expr, shape: list[int], target: MemorySpace,
                name: str, span: Span) -> AssignStmt:
        call = mk("tile.extract", [src, row, col, index_tuple(shape, span)],
                  [("target_memory", target)], (), span)
        return AssignStmt(Var(name, call.type, span=span), call, span=span)

    def k_loop(self, mm: _Matmul, mi: Expr, ni: Expr, m: int, n: int, base: str,
               result_span: Span) -> tuple[list[Stmt], Var]:
        """The statements computing the [m, n] block at (mi, ni) over all of K; its result Var."""
        span, k, attrs = mm.span, mm.tile.k, mm.call.attrs
        full = mm.K // k
        k_main, k_tail = full * k, mm.K - full * k
        out: list[Stmt] = []
        init = mm.init
        if full >= 2 and init is None:
            ct = mm.call.type
            assert isinstance(ct, TileType)
            create = mk("tile.create", [index_tuple([m, n], span)],
                        [("dtype", ct.dtype), ("target_memory", MemorySpace.Acc)], (), span)
            # the block's part of the product's valid region: the carry must not claim more
            rows, cols = (min(max(v - o.value, 0), e) if isinstance(o, ConstInt) else e
                          for v, o, e in ((mm.valid[0], mi, m), (mm.valid[1], ni, n)))
            narrowed = (rows, cols) != (m, n)
            init = Var(f"{base}_l0_init_storage" if narrowed else f"{base}_l0_init", create.type,
                       span=span)
            out.append(AssignStmt(init, create, span=span))
            if narrowed:
                valid = mk("tile.set_validshape", [init, index(rows, span), index(cols, span)],
                           (), (), span)
                init = Var(f"{base}_l0_init", valid.type, span=span)
                out.append(AssignStmt(init, valid, span=span))
        lhs = mm.lhs
        if mm.stage_lhs():
            staged = mk("tile.move", [lhs], [("target_memory", MemorySpace.Mat)], (), span)
            lhs = Var(f"{base}_l0_lmat", staged.type, span=span)
            out.append(AssignStmt(lhs, staged, span=span))

        def block(ko: int, kb: int, acc_in: Expr | None, tag: str) -> Var:
            a = self.extract(lhs, mi, index(ko, span), [m, kb], MemorySpace.Left,
                             f"{base}_l0_a{tag}", span)
            b = self.extract(mm.rhs, index(ko, span), ni, [kb, n], MemorySpace.Right,
                             f"{base}_l0_b{tag}", span)
            call = (mk("tile.matmul", [a.var, b.var], (), attrs, span) if acc_in is None else
                    mk("tile.matmul_acc", [acc_in, a.var, b.var], (), attrs, span))
            c = Var(f"{base}_l0_c{tag}", call.type, span=span)
            out.extend([a, b, AssignStmt(c, call, span=span)])
            return c

        if full >= 2:
            assert init is not None
            ko = Var(f"{base}_l0_ko", ScalarType(DType.INDEX), span=span)
            carry = IterArg(f"{base}_l0_c", init.type, init=init, span=span)
            a = self.extract(lhs, mi, ko, [m, k], MemorySpace.Left, f"{base}_l0_a", span)
            b = self.extract(mm.rhs, ko, ni, [k, n], MemorySpace.Right, f"{base}_l0_b", span)
            acc_call = mk("tile.matmul_acc", [carry, a.var, b.var], (), attrs, span)
            acc_var = Var(f"{base}_l0_c_acc", acc_call.type, span=span)
            body: list[Stmt] = [a, b]
            if mm.init is not None:
                body += [AssignStmt(acc_var, acc_call, span=span), YieldStmt((acc_var,), span=span)]
            else:
                first = mk("tile.matmul", [a.var, b.var], (), attrs, span)
                first_var = Var(f"{base}_l0_c_first", first.type, span=span)
                phi = Var(f"{base}_l0_c_phi", first.type, span=span)
                branch = IfStmt(
                    BinaryExpr(BinaryOp.Eq, ko, index(0, span), DType.BOOL, span=span),
                    make_body([AssignStmt(first_var, first, span=span),
                               YieldStmt((first_var,), span=span)]),
                    make_body([AssignStmt(acc_var, acc_call, span=span),
                               YieldStmt((acc_var,), span=span)]),
                    (phi,), span=span)
                body += [branch, YieldStmt((phi,), span=span)]
            main = Var(f"{base}_l0_kmain" if k_tail else base, carry.type, span=result_span)
            out.append(ForStmt(ko, index(0, span), index(k_main, span), index(k, span), (carry,),
                               make_body(body), (main,), ForKind.Pipeline, PIPELINE, span=span))
        else:  # one full block, then the tail (k < K)
            main = block(0, k, mm.init, "0")
        result = block(k_main, k_tail, main, "t") if k_tail else main
        return out, result

    # ---- M/N: the output grid, stored at the consumer store ----------------------------------
    def fold(self, mm: _Matmul, store_stmt: Stmt) -> list[Stmt]:
        assert isinstance(store_stmt, AssignStmt)
        blocks = -(-mm.M // mm.tile.m) * -(-mm.N // mm.tile.n)
        if blocks > MAX_GRID_BLOCKS:
            # The grid is written out block by block: a shape this big (often a mistyped one)
            # would take minutes and gigabytes before anything could say so.
            raise PlError(f"{mm.call.op_name}: its [{mm.M}, {mm.N}] product would be tiled into "
                          f"{blocks} output blocks of [{mm.tile.m}, {mm.tile.n}], more than the "
                          f"{MAX_GRID_BLOCKS} AutoTileMatmulL0 writes out",
                          mm.span, hint="check the operands' shapes, or tile the product with "
                                        "pl.range loops over smaller matmuls")
        store = self.expr(store_stmt.value)
        assert isinstance(store, Call) and isinstance(store.args[1], MakeTuple)
        base_r, base_c = store.args[1].elements
        out_in = store.args[2]
        out_name = out_in.name if isinstance(out_in, Var) else store_stmt.var.name
        stmts: list[Stmt] = []

        def place(sub: Var, row: Expr, col: Expr, chain: Expr, step: int,
                  into: list[Stmt]) -> Var:
            offsets = MakeTuple((index_add(base_r, row), index_add(base_c, col)), span=mm.span)
            call = mk("tile.store", [sub, offsets, chain], store.kwargs, store.attrs, mm.span)
            var = Var(f"{out_name}_t{step}", call.type, span=mm.span)
            into.append(AssignStmt(var, call, span=mm.span))
            return var

        if mm.tile.k == mm.K:
            last = self.full_k_grid(mm, out_in, place, stmts)
        else:
            last = self.split_k_grid(mm, out_in, place, stmts)
        self.map_var(store_stmt.var, last)
        return _with_comments(stmts, mm.stmt.comments + store_stmt.comments)

    def split_k_grid(self, mm: _Matmul, chain: Expr, place: _Place, out: list[Stmt]) -> Expr:
        """N-major grid of ceil(M/m) x ceil(N/n) K loops, each stored where it belongs."""
        t, span, base = mm.tile, mm.span, mm.stmt.var.name
        step = 0
        for ni in range(0, mm.N, t.n):
            for mi in range(0, mm.M, t.m):
                stmts, sub = self.k_loop(mm, index(mi, span), index(ni, span),
                                         min(t.m, mm.M - mi), min(t.n, mm.N - ni),
                                         f"{base}_t{step}", span)
                out.extend(stmts)
                chain = place(sub, index(mi, span), index(ni, span), chain, step, out)
                step += 1
        return chain

    def full_k_grid(self, mm: _Matmul, chain: Expr, place: _Place, out: list[Stmt]) -> Expr:
        """Full K: nested loops over the full [m, n] blocks, then the partial L-shaped border."""
        t, span, base, K = mm.tile, mm.span, mm.stmt.var.name, mm.K
        full_m, full_n = mm.M // t.m * t.m, mm.N // t.n * t.n
        if mm.valid[0] >= full_m and mm.valid[1] >= full_n:
            chain = self.full_k_loops(mm, chain, place, out, full_m, full_n)
            tiles = [(full_m, ni, mm.M - full_m, min(t.n, mm.N - ni))
                     for ni in range(0, mm.N if full_m < mm.M else 0, t.n)]
            tiles += [(mi, full_n, t.m, mm.N - full_n)
                      for mi in range(0, full_m if full_n < mm.N else 0, t.m)]
        else:
            # A full block could reach past the product's valid region, and an extract at a loop
            # offset cannot say how far its window is valid: every block is written out at
            # constant offsets instead, where each extract's valid window is exact.
            tiles = [(mi, ni, min(t.m, mm.M - mi), min(t.n, mm.N - ni))
                     for mi in range(0, mm.M, t.m) for ni in range(0, mm.N, t.n)]
        for step, (row, col, m, n) in enumerate(tiles, start=1):
            ta = self.extract(mm.lhs, index(row, span), index(0, span), [m, K], MemorySpace.Left,
                              f"{base}_ta{step}", span)
            tb = self.extract(mm.rhs, index(0, span), index(col, span), [K, n],
                              MemorySpace.Right, f"{base}_tb{step}", span)
            tc_call = mk("tile.matmul", [ta.var, tb.var], (), mm.call.attrs, span)
            tc = Var(f"{base}_tc{step}", tc_call.type, span=span)
            out.extend([ta, tb, AssignStmt(tc, tc_call, span=span)])
            chain = place(tc, index(row, span), index(col, span), chain, step, out)
        return chain

    def full_k_loops(self, mm: _Matmul, chain: Expr, place: _Place, out: list[Stmt],
                     full_m: int, full_n: int) -> Expr:
        """The loop nest over the full blocks: the held operand's loop outside (sequential when
        it is held single-buffered, else pipelined like the inner one)."""
        t, span, base, K = mm.tile, mm.span, mm.stmt.var.name, mm.K
        held = t.stationarity is not Stationarity.OUTPUT
        rows_outer = t.stationarity is Stationarity.A if held else t.os_holds_a
        outer_v = Var(f"{base}_o", ScalarType(DType.INDEX), span=span)
        inner_v = Var(f"{base}_i", ScalarType(DType.INDEX), span=span)
        mi, ni = (outer_v, inner_v) if rows_outer else (inner_v, outer_v)
        out_outer = IterArg(f"{base}_oc", chain.type, init=chain, span=span)
        out_inner = IterArg(f"{base}_ic", chain.type, init=out_outer, span=span)
        a = self.extract(mm.lhs, mi, index(0, span), [t.m, K], MemorySpace.Left, f"{base}_a", span)
        b = self.extract(mm.rhs, index(0, span), ni, [K, t.n], MemorySpace.Right, f"{base}_b",
                         span)
        c_call = mk("tile.matmul", [a.var, b.var], (), mm.call.attrs, span)
        c = Var(f"{base}_c", c_call.type, span=span)
        inner: list[Stmt] = [b if rows_outer else a, AssignStmt(c, c_call, span=span)]
        stored = place(c, mi, ni, out_inner, 0, inner)
        inner.append(YieldStmt((stored,), span=span))
        inner_rv = Var(f"{base}_irv", chain.type, span=span)
        inner_for = ForStmt(inner_v, index(0, span), index(full_n if rows_outer else full_m, span),
                            index(t.n if rows_outer else t.m, span), (out_inner,),
                            make_body(inner), (inner_rv,), ForKind.Pipeline, PIPELINE_NO_OVERLAP,
                            span=span)
        outer_rv = Var(f"{base}_orv", chain.type, span=span)
        out.append(ForStmt(
            outer_v, index(0, span), index(full_m if rows_outer else full_n, span),
            index(t.m if rows_outer else t.n, span), (out_outer,),
            make_body([a if rows_outer else b, inner_for, YieldStmt((inner_rv,), span=span)]),
            (outer_rv,), ForKind.Sequential if held else ForKind.Pipeline,
            () if held else PIPELINE_NO_OVERLAP, span=span))
        return outer_rv


def _ceil16(x: int) -> int:
    return -(-x // 16) * 16


def _with_comments(stmts: list[Stmt], comments: tuple[str, ...]) -> list[Stmt]:
    """`stmts` with the replaced statements' comments on the first one (never lost)."""
    if not comments or not stmts:
        return stmts
    first = stmts[0]
    assert isinstance(first, AssignStmt | ForStmt)
    return [replace(first, comments=comments + first.comments), *stmts[1:]]


def auto_tile_matmul_l0(program: Program, backend: str | None) -> Program:
    """Tile oversized Mat-resident matmuls of InCore/AIC/AIV functions (no-op without backend)."""
    hw = lookup_backend(backend)
    if hw is None:
        return program
    return map_incore_functions(program, lambda f: _AutoTile(hw).function(f))
