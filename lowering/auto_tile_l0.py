"""AutoTileMatmulL0: split the K dimension of Mat-resident matmuls that overflow L0A / L0B.

Guarantees (pass.md 7), with a backend ("910B" or "950"; None is a no-op):
* a `tile.matmul` / `tile.matmul_acc` with static 2-D operands, a Mat rhs and a Mat or Vec lhs
  is rewritten into a 2-stage pipelined K loop when its double-buffered operands do not fit:
  2*M*K*bytes > L0A or 2*K*N*bytes > L0B. m = M and n = N; k is the largest multiple of 16
  dividing K with 2*M*k*bytes <= L0A and 2*k*N*bytes <= L0B;
* names are `<c>_l0_init`, `<c>_l0_ko`, `<c>_l0_c`, `<c>_l0_a`, `<c>_l0_b`, `<c>_l0_c_first`,
  `<c>_l0_c_acc`, `<c>_l0_c_phi`, `<c>_l0_lmat` (Vec lhs staged into Mat once);
* an [M, N] accumulator larger than L0C (128 KiB on 910B, 256 KiB on 950) is a PlError located
  at the matmul: output M/N tiling is not supported yet;
* calls keep their attrs; the input program is never mutated.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from lowering.tensor_to_tile.common import (
    Rewriter,
    index,
    index_tuple,
    mk,
    op_name,
    same_items,
)
from pl.errors import PlError
from pl.ir.enums import DType, ForKind, MemorySpace
from pl.ir.expr import BinaryExpr, Call, Expr, IterArg, Var
from pl.ir.function import Program
from pl.ir.stmt import AssignStmt, ForStmt, IfStmt, Stmt, YieldStmt, make_body
from pl.ir.types import ScalarType, TileType, static_shape

KIB = 1024
L0_CAPACITY: Final[Mapping[str, tuple[int, int, int]]] = MappingProxyType({   # (L0A, L0B, L0C) bytes
    "910B": (64 * KIB, 64 * KIB, 128 * KIB),
    "950": (64 * KIB, 64 * KIB, 256 * KIB),
})


def choose_k(m: int, n: int, k_full: int, elem_bytes: int, l0a: int, l0b: int) -> int:
    """The K block: K itself when both operands fit double-buffered, else the largest fitting
    multiple of 16 that divides K (K when none exists: the caller then leaves the matmul alone)."""
    if 2 * m * k_full * elem_bytes <= l0a and 2 * k_full * n * elem_bytes <= l0b:
        return k_full
    for k in range(k_full - k_full % 16, 0, -16):
        if k_full % k == 0 and 2 * m * k * elem_bytes <= l0a and 2 * k * n * elem_bytes <= l0b:
            return k
    return k_full


def _acc_bytes(m: int, n: int, dtype: DType) -> int:
    rows = -(-m // 16) * 16
    return rows * n * max(1, dtype.bits // 8)


class _AutoTile(Rewriter):
    def __init__(self, backend: str) -> None:
        super().__init__()
        self.l0a, self.l0b, self.l0c = L0_CAPACITY[backend]

    def assign(self, s: AssignStmt) -> list[Stmt]:
        value = self.expr(s.value)
        if op_name(value) not in ("tile.matmul", "tile.matmul_acc"):
            return [self.pass_through(s, value)]
        assert isinstance(value, Call)
        acc = value.op.name == "tile.matmul_acc"
        lhs, rhs = (value.args[1], value.args[2]) if acc else (value.args[0], value.args[1])
        lt, rt, ct = lhs.type, rhs.type, value.type
        if not (isinstance(lt, TileType) and isinstance(rt, TileType) and isinstance(ct, TileType)
                and lt.memory_space in (MemorySpace.Mat, MemorySpace.Vec)
                and rt.memory_space is MemorySpace.Mat):
            return [self.pass_through(s, value)]
        ls, rs = static_shape(lt.shape), static_shape(rt.shape)
        if ls is None or rs is None or len(ls) != 2 or len(rs) != 2 or lt.dtype.bits % 8:
            return [self.pass_through(s, value)]
        (m, k_full), n = ls, rs[1]
        if _acc_bytes(m, n, ct.dtype) > self.l0c:
            raise PlError(f"{value.op.name} output [{m}, {n}] ({ct.dtype.short}) does not fit L0C "
                          f"({self.l0c // KIB} KiB): output M/N tiling is not supported yet",
                          value.span if value.span.line > 0 else s.span,
                          hint="split the output into smaller [M, N] blocks in the kernel")
        k = choose_k(m, n, k_full, lt.dtype.bits // 8, self.l0a, self.l0b)
        if k >= k_full:
            return [self.pass_through(s, value)]
        return self.k_loop(s, value, lhs, rhs, (m, n, k, k_full), acc)

    def k_loop(self, s: AssignStmt, call: Call, lhs: Expr, rhs: Expr,
               dims: tuple[int, int, int, int], acc: bool) -> list[Stmt]:
        m, n, k, k_full = dims
        span = call.span
        ct = call.type
        assert isinstance(ct, TileType)
        pre = s.var.name
        out: list[Stmt] = []
        lt = lhs.type
        if isinstance(lt, TileType) and lt.memory_space is MemorySpace.Vec:
            staged = mk("tile.move", [lhs], [("target_memory", MemorySpace.Mat)], (), span)
            lvar = Var(f"{pre}_l0_lmat", staged.type, span=span)
            out.append(AssignStmt(lvar, staged, span=span))
            lhs = lvar
        if acc:
            init: Expr = call.args[0]
        else:
            create = mk("tile.create", [index_tuple([m, n], span)],
                        [("dtype", ct.dtype), ("target_memory", MemorySpace.Acc)], (), span)
            init_var = Var(f"{pre}_l0_init", create.type, span=span)
            out.append(AssignStmt(init_var, create, span=span))
            init = init_var
        ko = Var(f"{pre}_l0_ko", ScalarType(DType.INDEX), span=span)
        carry = IterArg(f"{pre}_l0_c", init.type, init=init, span=span)
        a = mk("tile.extract", [lhs, index(0, span), ko, index_tuple([m, k], span)],
               [("target_memory", MemorySpace.Left)], (), span)
        b = mk("tile.extract", [rhs, ko, index(0, span), index_tuple([k, n], span)],
               [("target_memory", MemorySpace.Right)], (), span)
        a_var = Var(f"{pre}_l0_a", a.type, span=span)
        b_var = Var(f"{pre}_l0_b", b.type, span=span)
        body: list[Stmt] = [AssignStmt(a_var, a, span=span), AssignStmt(b_var, b, span=span)]
        acc_call = mk("tile.matmul_acc", [carry, a_var, b_var], (), call.attrs, span)
        acc_var = Var(f"{pre}_l0_c_acc", acc_call.type, span=span)
        if acc:
            body += [AssignStmt(acc_var, acc_call, span=span), YieldStmt((acc_var,), span=span)]
        else:
            first = mk("tile.matmul", [a_var, b_var], (), call.attrs, span)
            first_var = Var(f"{pre}_l0_c_first", first.type, span=span)
            phi = Var(f"{pre}_l0_c_phi", carry.type, span=span)
            cond = BinaryExpr("Eq", ko, index(0, span), DType.BOOL, span=span)
            branch = IfStmt(
                cond,
                make_body([AssignStmt(first_var, first, span=span),
                           YieldStmt((first_var,), span=span)]),
                make_body([AssignStmt(acc_var, acc_call, span=span),
                           YieldStmt((acc_var,), span=span)]),
                (phi,), span=span)
            body += [branch, YieldStmt((phi,), span=span)]
        result = Var(s.var.name, carry.type, span=s.var.span)
        self.map_var(s.var, result)
        out.append(ForStmt(ko, index(0, span), index(k_full, span), index(k, span), (carry,),
                           make_body(body), (result,), ForKind.Pipeline,
                           (("pipeline_stages", 2),), span=s.span, comments=s.comments))
        return out


def auto_tile_matmul_l0(program: Program, backend: str | None) -> Program:
    """K-tile oversized Mat-resident matmuls of InCore/AIC/AIV functions (no-op without backend)."""
    if backend is None:
        return program
    if backend not in L0_CAPACITY:
        raise PlError(f"unknown backend {backend!r}; choose one of 910B, 950 or None")
    funcs = tuple(_AutoTile(backend).function(f) if f.func_type.is_incore_kind() else f
                  for f in program.functions)
    if same_items(funcs, program.functions):
        return program  # no function changed
    return Program(program.name, funcs, span=program.span)
