"""Per-function inventory of phase 4 (pass.md 6.2), built in one visit of the function body.

Guarantees (plain data, keyed by Var identity or by the identity of Call / ForStmt nodes):
- complete use counts of every Var / IterArg (every occurrence except definition sites; a reference
  to an IterArg also counts its initial value; dims of tensor / tile types of referenced values);
- direct call uses (call, arg index), Call definitions (`v = call`), the result var of each call;
- per For loop: pre/post order, the values yielded anywhere in its subtree, and whether its subtree
  or header holds an ordering boundary (children merged into parents, never into children);
- the defining loop of every value, exact residency chains (load -> transpose_view* -> move/extract
  -> matching matmul slot, each value used exactly once) and retained panels (a marked Mat load whose
  every use path reaches matching matmul slots);
- capacity data: the function's footprint (pl/infer/footprint.py, Tile parameters first: each
  holds its space for the whole function), spaces with owners inside a Pipeline loop, and whether
  any `system.reserve_buffer` appears;
- a Tile parameter is never a chain or panel source: it has no defining load, so it is never
  hoisted (docs/tile_params.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from typing_extensions import assert_never

from pl.infer.footprint import Footprint
from pl.infer.residency.effects import ordering_boundary
from pl.infer.residency.ir import BRIDGE_MARKER, expr_var_likes
from pl.ir.enums import ForKind, MemorySpace
from pl.ir.expr import Call, ConstInt, Expr, IterArg, Var, space_of
from pl.ir.stmt import (
    AssignStmt,
    BreakStmt,
    ContinueStmt,
    EvalStmt,
    ForStmt,
    IfStmt,
    ReturnStmt,
    ScopeStmt,
    SeqStmts,
    Stmt,
    WhileStmt,
    YieldStmt,
    stmt_kind,
)
from pl.ir.traverse import expr_children
from pl.ir.types import TensorType, TileType

Use = tuple[Call, int]
MAT_L0 = (MemorySpace.Mat, MemorySpace.Left, MemorySpace.Right)


@dataclass
class LoopInfo:
    preorder: int = 0
    postorder: int = 0
    yielded: set[Var] = field(default_factory=set)
    boundary: str = ""          # the first ordering-boundary op seen ("" = none)


def matmul_slot(call: Call, space: MemorySpace | None) -> int | None:
    """The arg index a Left / Right operand takes in this matmul-family call (None: no such slot)."""
    name = call.op_name
    if name in ("tile.matmul", "tile.matmul_bias") and len(call.args) >= 2:
        left, right = 0, 1
    elif name == "tile.matmul_acc" and len(call.args) >= 3:
        left, right = 1, 2
    else:
        return None
    return {MemorySpace.Left: left, MemorySpace.Right: right}.get(space)  # type: ignore[arg-type]


class Inventory:
    def __init__(self, body: Stmt, params: tuple[Var, ...] = ()) -> None:
        self.uses: dict[Var, int] = {}
        self.direct: dict[Var, list[Use]] = {}
        self.defs: dict[Var, Call] = {}
        self.result_of: dict[int, Var | None] = {}
        self.loops: dict[int, LoopInfo] = {}
        self.defining_loop: dict[Var, ForStmt] = {}
        self.footprint = Footprint()
        self.pipeline_spaces: set[MemorySpace] = set()
        self.reservation = False
        self.chain_load: dict[Var, Var] = {}   # chain value -> the load that starts its chain
        self.panels: set[Var] = set()
        self._order = 0
        self._loop: ForStmt | None = None
        self._pipeline = 0
        for p in params:
            self._record_owner(p, None)
        self._stmt(body)
        self._build_chains()
        self._build_panels()

    # ---- queries -------------------------------------------------------------------------------
    def count(self, v: Var) -> int:
        return self.uses.get(v, 0)

    def uses_of(self, v: Var) -> list[Use]:
        return self.direct.get(v, [])

    def loop_info(self, loop: ForStmt) -> LoopInfo | None:
        return self.loops.get(id(loop))

    def in_subtree(self, loop: ForStmt, v: Var) -> bool:
        inner = self.defining_loop.get(v)
        if inner is None:
            return False
        outer_info, inner_info = self.loops.get(id(loop)), self.loops.get(id(inner))
        if outer_info is None or inner_info is None:
            return True
        return (outer_info.preorder <= inner_info.preorder
                and inner_info.postorder <= outer_info.postorder)

    def yielded(self, loop: ForStmt, v: Var) -> bool:
        info = self.loops.get(id(loop))
        return info is not None and v in info.yielded

    def is_chain_var(self, v: Var) -> bool:
        return v in self.chain_load

    # ---- the visit -----------------------------------------------------------------------------
    def _count_expr(self, e: Expr) -> None:
        if isinstance(e, Var):
            self.uses[e] = self.uses.get(e, 0) + 1
            if isinstance(e, IterArg) and e.init is not None:
                self._count_expr(e.init)
            if isinstance(e.type, (TensorType, TileType)):
                for d in e.type.shape:
                    if not isinstance(d, ConstInt):  # a constant dim uses nothing
                        self._count_expr(d)
            return
        if isinstance(e, Call):
            if self._loop is not None and ordering_boundary(e):
                self._mark_boundary(self._loop, e.op_name)
            for i, a in enumerate(e.args):
                if isinstance(a, Var):
                    self.direct.setdefault(a, []).append((e, i))
        elif self._loop is not None and ordering_boundary(e):  # Submit
            self._mark_boundary(self._loop, "submit")
        for s in expr_children(e):
            self._count_expr(s)

    def _mark_boundary(self, loop: ForStmt, name: str) -> None:
        info = self._info(loop)
        info.boundary = info.boundary or name

    def _info(self, loop: ForStmt) -> LoopInfo:
        return self.loops.setdefault(id(loop), LoopInfo())

    def _bind(self, vs: tuple[Var, ...]) -> None:
        if self._loop is not None:
            for v in vs:
                self.defining_loop[v] = self._loop

    def _stmt(self, stmt: Stmt) -> None:
        s = stmt_kind(stmt)
        match s:
            case SeqStmts(stmts=stmts):
                for x in stmts:
                    self._stmt(x)
            case AssignStmt(var=var, value=value):
                self._bind((var,))
                self._record_owner(var, value)
                if isinstance(value, Call):
                    self.defs[var] = value
                    self.result_of[id(value)] = None if id(value) in self.result_of else var
                    self.reservation |= value.op_name == "system.reserve_buffer"
                self._count_expr(value)
            case EvalStmt(expr=e):
                self.reservation |= isinstance(e, Call) and e.op_name == "system.reserve_buffer"
                self._count_expr(e)
            case ReturnStmt(values=vals):
                for v in vals:
                    self._count_expr(v)
            case YieldStmt(values=vals):
                if self._loop is not None:
                    for v in vals:
                        self._info(self._loop).yielded.update(expr_var_likes(v))
                for v in vals:
                    self._count_expr(v)
            case IfStmt():
                self._bind(s.return_vars)
                self._count_expr(s.condition)
                self._stmt(s.then_body)
                if s.else_body is not None:
                    self._stmt(s.else_body)
            case WhileStmt():
                self._bind(s.return_vars)
                self._bind(s.iter_args)
                for ia in s.iter_args:
                    if ia.init is not None:
                        self._count_expr(ia.init)
                self._count_expr(s.condition)
                self._stmt(s.body)
            case ForStmt():
                self._for(s)
            case ScopeStmt(body=body):
                self._stmt(body)
            case BreakStmt() | ContinueStmt():
                pass
            case _:
                assert_never(s)

    def _for(self, s: ForStmt) -> None:
        parent = self._loop
        self._bind(s.return_vars)
        info = self._info(s)
        info.preorder = self._order
        self._order += 1
        self._loop = s
        for e in (s.start, s.stop, s.step):
            self._count_expr(e)
        self.defining_loop[s.loop_var] = s
        for ia in s.iter_args:
            self.defining_loop[ia] = s
            if ia.init is not None:
                self._count_expr(ia.init)
        pipeline = s.kind is ForKind.Pipeline
        self._pipeline += pipeline
        self._stmt(s.body)
        self._pipeline -= pipeline
        self._loop = parent
        info.postorder = self._order
        self._order += 1
        if parent is not None:
            parent_info = self._info(parent)
            parent_info.yielded |= info.yielded
            parent_info.boundary = parent_info.boundary or info.boundary

    def _record_owner(self, var: Var, value: Expr | None) -> None:
        """Count `var = value` in the footprint (`value` None: a Tile parameter); an owner inside
        a Pipeline loop marks its space."""
        space = self.footprint.record(var, value)
        if space is not None and self._pipeline:
            self.pipeline_spaces.add(space)

    # ---- chains and panels ---------------------------------------------------------------------
    def _only_use_by(self, v: Var, consumer: Call) -> bool:
        uses = self.uses_of(v)
        return self.count(v) == 1 and len(uses) == 1 and uses[0][0] is consumer

    def matching_matmul_use(self, v: Var) -> bool:
        uses = self.uses_of(v)
        if self.count(v) != 1 or len(uses) != 1:
            return False
        call, index = uses[0]
        return matmul_slot(call, space_of(v)) == index

    def _build_chains(self) -> None:
        for var, call in self.defs.items():
            if call.op_name not in ("tile.move", "tile.extract") or not call.args:
                continue
            source = call.args[0]
            if not isinstance(source, Var) or space_of(source) is not MemorySpace.Mat:
                continue
            if not self.matching_matmul_use(var):
                continue
            chain, consumer = [var], call
            while self._only_use_by(source, consumer):
                definition = self.defs.get(source)
                if definition is None or space_of(source) is not MemorySpace.Mat:
                    break
                chain.append(source)
                if definition.op_name == "tile.load":
                    for v in chain:
                        self.chain_load[v] = source
                    break
                if definition.op_name != "tile.transpose_view" or not definition.args:
                    break
                nxt = definition.args[0]
                if not isinstance(nxt, Var):
                    break
                consumer, source = definition, nxt

    def panel_shaped(self, v: Var, seen: frozenset[Var] = frozenset()) -> bool:
        """Every use of `v` is arg 0 of a move/extract feeding only matching matmul slots, or of a
        Mat transpose_view whose result is panel-shaped itself (the marker is not checked)."""
        uses = self.uses_of(v)
        if v in seen or not uses or self.count(v) != len(uses):
            return False
        for call, index in uses:
            result = self.result_of.get(id(call))
            if index != 0 or result is None:
                return False
            if call.op_name in ("tile.move", "tile.extract"):
                r_uses = self.uses_of(result)
                if not r_uses or self.count(result) != len(r_uses):
                    return False
                if any(matmul_slot(c, space_of(result)) != i for c, i in r_uses):
                    return False
            elif call.op_name == "tile.transpose_view" and space_of(result) is MemorySpace.Mat:
                if not self.panel_shaped(result, seen | {v}):
                    return False
            else:
                return False
        return True

    def _build_panels(self) -> None:
        for var, call in self.defs.items():
            if (call.op_name == "tile.load" and any(k == BRIDGE_MARKER for k, _ in call.attrs)
                    and space_of(var) is MemorySpace.Mat and self.panel_shaped(var)):
                self.panels.add(var)

    def why_not_chain(self, v: Var, loop: ForStmt) -> str:
        """The rule that explains why a Mat load is neither a chain nor a panel."""
        if self.yielded(loop, v):
            return "yielded"
        uses = self.uses_of(v)
        if not uses:
            return "not-matmul-chain" if self.count(v) == 0 else "extra-use"
        if self.count(v) != len(uses):
            return "extra-use"
        # A value with several uses of which one is unsupported has an extra use; a single
        # unsupported use means the path does not end in a matmul slot.
        unsupported = "extra-use" if len(uses) > 1 else "not-matmul-chain"
        for call, index in uses:
            slot = matmul_slot(call, space_of(v))
            if slot is not None and slot == index:
                continue
            result = self.result_of.get(id(call))
            if index != 0 or result is None or call.op_name not in (
                    "tile.move", "tile.extract", "tile.transpose_view"):
                return unsupported
            if call.op_name != "tile.transpose_view" and space_of(result) not in MAT_L0[1:]:
                return unsupported
            reason = self.why_not_chain(result, loop)
            if reason:
                return reason
        return ""
