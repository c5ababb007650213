"""CanonicalizeTileSlice: Mat `tile.slice` feeding L0 consumers becomes a direct `tile.extract`.

Guarantees, for InCore / AIC / AIV functions:
* `s = tile.slice(base, shape, [r, c])` of a 2-D Mat tile whose every use is the Left slot of a
  matmul (arg 0 of matmul/matmul_bias/gemv, arg 1 of the _acc forms) is replaced by
  `s = tile.extract(base, r, c, shape, target_memory=Left)` taken right before each statement
  reading it (`s_textract1`, ... after the first); likewise Right slots give Right;
* a Mat slice used only as the source of `tile.extract` disappears: each extract reads `base` at
  the summed offsets (a chain of such slices peels to its root; the pass is a fixed point);
* a canonical 2-D Vec (or not yet placed) slice `s = tile.slice(base, shape, [r, c])` is read
  through `s = tile.extract(root, r', c', shape, target_memory=Vec)` (its own, aligned buffer;
  the same values), taken right before each statement that reads it, when something other than
  a slice or extract reads it and either its start address is not provably 32-byte aligned
  (vector instructions need that; an offset bound to a constant counts as that constant, a
  dynamic one as the multiple its scalar arithmetic proves), or a `tile.col_expand_*` reads it
  and the window is dynamic or not contiguous (not one row, not every column). `root` and the
  offsets follow a chain of slices to its first tile. The slice
  stays (a view) for what reads the view itself: a slice or extract of it, a loop or if header,
  an op writing it in place (`OpDef.inplace_args`: its write goes through to `base`);
* slices with a narrower valid shape, mixed uses or other spaces are left alone; attrs survive.

A slice is a view: it reads its base when it is read. The extracts stand right before their
readers (as in the reference), so a write into the base between the slice and a reader (an
assemble, a pl.write), or in an earlier trip of an enclosing loop, is read.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from typing_extensions import assert_never

from pl.errors import PlError
from pl.ir.enums import MemorySpace
from pl.ir.expr import (
    BinaryExpr,
    Call,
    ConstBool,
    ConstFloat,
    ConstInt,
    Expr,
    MakeTuple,
    TupleGetItem,
    UnaryExpr,
    Var,
    expr_kind,
)
from pl.ir.function import Function, Program
from pl.ir.operators import BinaryOp
from pl.ir.rewriter import Rewriter, map_incore_functions
from pl.ir.stmt import AssignStmt, EvalStmt, ReturnStmt, Stmt, YieldStmt
from pl.ir.traverse import expr_children, stmt_exprs, walk_exprs, walk_stmts
from pl.ir.types import ScalarType, TileType
from pl.lowering.tensor_to_tile.common import (
    index_add,
    mk,
    op_name,
    rededuce_call,
    with_attrs,
)
from pl.ops.registry import get_op

_LEFT_SLOTS: Final[Mapping[str, int]] = MappingProxyType({
    "tile.matmul": 0, "tile.matmul_bias": 0, "tile.gemv": 0, "tile.gemv_bias": 0, "tile.matmul_acc": 1,
    "tile.gemv_acc": 1})
_RIGHT_SLOTS: Final[Mapping[str, int]] = MappingProxyType({
    "tile.matmul": 1, "tile.matmul_bias": 1, "tile.gemv": 1, "tile.gemv_bias": 1, "tile.matmul_acc": 2,
    "tile.gemv_acc": 2})


_COL_EXPAND: Final = frozenset({
    "tile.col_expand_mul", "tile.col_expand_add", "tile.col_expand_div", "tile.col_expand_sub",
    "tile.col_expand_max", "tile.col_expand_min", "tile.col_expand_expdif"})
_ALIGN_BITS = 32 * 8  # vector operands start on 32-byte boundaries


def _scalars(body: Stmt) -> tuple[dict[int, Expr], dict[int, ConstInt]]:
    """Each scalar Var's defining value, and the Vars bound (directly or by alias) to a constant."""
    defs: dict[int, Expr] = {}
    consts: dict[int, ConstInt] = {}
    for s in walk_stmts(body):
        if isinstance(s, AssignStmt):
            if isinstance(s.var.type, ScalarType):
                defs[id(s.var)] = s.value
            if isinstance(s.value, ConstInt):
                consts[id(s.var)] = s.value
            elif isinstance(s.value, Var) and id(s.value) in consts:
                consts[id(s.var)] = consts[id(s.value)]
    return defs, consts


def _multiple(e: Expr, defs: dict[int, Expr], seen: frozenset[int] = frozenset()) -> int:
    """A power-of-two-ish factor (mod 256) that `e` is known to be a multiple of (1: nothing)."""
    if isinstance(e, ConstInt):
        return math.gcd(e.value % _ALIGN_BITS, _ALIGN_BITS)
    if isinstance(e, Var):
        if id(e) not in defs or id(e) in seen:
            return 1
        return _multiple(defs[id(e)], defs, seen | {id(e)})
    if isinstance(e, BinaryExpr) and e.op in (BinaryOp.Add, BinaryOp.Sub, BinaryOp.Mul):
        left, right = _multiple(e.left, defs, seen), _multiple(e.right, defs, seen)
        return math.gcd(left * right, _ALIGN_BITS) if e.op is BinaryOp.Mul else math.gcd(left, right)
    return 1


def _aligned(base: TileType, row: Expr, col: Expr, defs: dict[int, Expr]) -> bool:
    """Whether base + (row * cols + col) * element bits is provably a multiple of 32 bytes."""
    bits = base.dtype.bits
    if isinstance(col, ConstInt):
        col_bits = col.value % _ALIGN_BITS * bits % _ALIGN_BITS
    elif _multiple(col, defs) * bits % _ALIGN_BITS:
        return False
    else:
        col_bits = 0
    if isinstance(row, ConstInt) and row.value == 0:
        return col_bits == 0
    cols = base.shape[1].static_int()
    if cols is None:
        return False
    stride = cols % _ALIGN_BITS * bits % _ALIGN_BITS
    if isinstance(row, ConstInt):
        return (row.value % _ALIGN_BITS * stride + col_bits) % _ALIGN_BITS == 0
    return _multiple(row, defs) * stride % _ALIGN_BITS == 0 and col_bits == 0


_LEAVES: Final = (AssignStmt, EvalStmt, ReturnStmt, YieldStmt)


def _inplace_args(call: Call) -> tuple[int, ...]:
    rec = get_op(op_name(call))
    return rec.inplace_args if rec is not None else ()


def _writes(op: str, slot: int) -> bool:
    """Whether op `op` writes its argument `slot` in place (`OpDef.inplace_args`)."""
    rec = get_op(op) if op else None
    return rec is not None and slot in rec.inplace_args


def _uses(body: Stmt) -> dict[int, list[tuple[str, int]]]:
    """For each var: (consumer op name or "", arg index) of every use."""
    uses: dict[int, list[tuple[str, int]]] = defaultdict(list)

    def visit(e: Expr, consumer: str = "", slot: int = -1) -> None:
        k = expr_kind(e)
        match k:
            case Var():
                uses[id(k)].append((consumer, slot))
            case Call():
                # An argument is used at its slot of this op; anything else inside the call
                # (kwargs, attrs) is a use by no consumer.
                for i, a in enumerate(k.args):
                    visit(a, k.op.name, i)
                for x in list(expr_children(k))[len(k.args):]:
                    visit(x)
            case MakeTuple() | BinaryExpr() | UnaryExpr() | TupleGetItem():
                for x in expr_children(k):
                    visit(x)
            case ConstInt() | ConstFloat() | ConstBool():
                pass
            case _:
                assert_never(k)

    for s in walk_stmts(body):
        for x in stmt_exprs(s):
            visit(x)
    return uses


class _Canon(Rewriter):
    def __init__(self, body: Stmt) -> None:
        super().__init__(rededuce_call)
        self.func_body = body
        self._uses: dict[int, list[tuple[str, int]]] | None = None
        self._scalars: tuple[dict[int, Expr], dict[int, ConstInt]] | None = None
        self.folded: dict[int, tuple[Expr, Expr, Expr]] = {}   # slice var -> (base, row, col)
        self.windows: dict[int, tuple[Expr, Expr, Expr]] = {}  # Vec slice -> (root, row, col)
        self.acc_windows: dict[int, tuple[Expr, Expr]] = {}  # any slice -> (first tile, col)
        # A slice whose readers read an extract instead: slice var -> (its statement, the extract
        # each reading statement takes right before it). A Mat slice read by matmul slots only
        # (Left/Right extracts) and a Vec slice that must not alias its source (module doc).
        # (+ whether the slice stays, and whether only a call's arguments read the extract)
        self.operands: dict[int, tuple[AssignStmt, Call, bool, bool]] = {}
        self._writes_in_place: bool | None = None
        self.extracts: dict[int, int] = {}  # slice var -> how many extracts were taken of it
        self._header_uses: set[int] | None = None

    def uses(self) -> dict[int, list[tuple[str, int]]]:
        """The uses of every var, collected at the first Mat slice (most functions have none)."""
        if self._uses is None:
            self._uses = _uses(self.func_body)
        return self._uses

    def header_uses(self) -> set[int]:
        """The vars a loop or if header reads (bounds, initial values, conditions)."""
        if self._header_uses is None:
            self._header_uses = {id(v) for st in walk_stmts(self.func_body)
                                 if not isinstance(st, _LEAVES)
                                 for e in stmt_exprs(st) for v in walk_exprs(e)
                                 if isinstance(v, Var)}
        return self._header_uses

    def writes_in_place(self) -> bool:
        """Whether any call of the function writes a tile argument in place."""
        if self._writes_in_place is None:
            self._writes_in_place = any(
                isinstance(e, Call) and any(i < len(e.args) and isinstance(e.args[i].type, TileType)
                                            for i in _inplace_args(e))
                for st in walk_stmts(self.func_body) for x in stmt_exprs(st) for e in walk_exprs(x))
        return self._writes_in_place

    def scalars(self) -> tuple[dict[int, Expr], dict[int, ConstInt]]:
        if self._scalars is None:
            self._scalars = _scalars(self.func_body)
        return self._scalars

    def vec_slice(self, s: AssignStmt, value: Call) -> bool | None:
        """None when the Vec slice is left alone; else its readers read Vec extracts (`operands`,
        module doc) and whether the slice stays for the readers of the view."""
        base, offset, rt = value.args[0], value.args[2], value.type
        if not (len(value.args) == 3 and isinstance(offset, MakeTuple)
                and len(offset.elements) == 2 and isinstance(rt, TileType) and rt.rank == 2
                and rt.memory_space in (None, MemorySpace.Vec)):
            return None
        defs, consts = self.scalars()
        row, col = (consts.get(id(e), e) if isinstance(e, Var) else e for e in offset.elements)
        root: Expr = base
        if isinstance(base, Var) and id(base) in self.windows:
            root, r0, c0 = self.windows[id(base)]
            row, col = index_add(r0, row), index_add(c0, col)
        self.windows[id(s.var)] = (root, row, col)
        bt = root.type
        uses = self.uses().get(id(s.var), [])
        # A slice of it, or an extract, reads the view (an extract copies anyway); an op writing
        # it in place writes through the view into its source, and a loop or if header reads
        # the view too: those keep it. Every other reader reads an extract.
        # A slice handed on as a value (yielded, returned, aliased) stays a view there too when
        # anything in the function writes a tile in place: a write through that value must reach
        # the source (and the value must see a write into the source).
        flows = any(op == "" for op, _ in uses) and self.writes_in_place()
        kept = [(op, slot) for op, slot in uses if op in ("tile.slice", "tile.extract")
                and slot == 0 or _writes(op, slot) or (flows and op == "")]
        readers = [op for op, slot in uses if (op, slot) not in kept]
        if not readers or not isinstance(bt, TileType) or bt.rank != 2:
            return None
        rows, cols, base_cols = rt.shape[0].static_int(), rt.shape[1].static_int(), \
            bt.shape[1].static_int()
        aliasing = not (isinstance(row, ConstInt) and isinstance(col, ConstInt)) \
            or not (rows == 1 or (cols is not None and cols == base_cols))
        if _aligned(bt, row, col, defs) and not (aliasing and any(op in _COL_EXPAND
                                                                   for op in readers)):
            return None
        ext = mk("tile.extract", [root, row, col, value.args[1]],
                 [("target_memory", MemorySpace.Vec)], (), value.span)
        stays = bool(kept) or id(s.var) in self.header_uses()
        self.operands[id(s.var)] = (s, with_attrs(ext, value.attrs), stays, flows)
        return stays

    def record_window(self, s: AssignStmt, value: Call) -> None:
        """Remember where slice `s` starts in its first tile (for accumulator windows)."""
        offset = value.args[2] if len(value.args) > 2 else None
        if not (isinstance(offset, MakeTuple) and len(offset.elements) == 2):
            return
        root, col = value.args[0], offset.elements[1]
        if isinstance(root, Var) and id(root) in self.acc_windows:
            root, c0 = self.acc_windows[id(root)]
            col = index_add(c0, col)
        self.acc_windows[id(s.var)] = (root, col)

    def check_accumulator(self, value: Call) -> None:
        """A matmul accumulating into a row window of a multi-block-column Acc tile: the MAD
        writes compactly and has no destination stride, so only 16 columns per row tile would
        be right. Rejected (the window is not contiguous in L0C's block layout)."""
        rec = get_op(op_name(value))
        slot = rec.output_reuses_input if rec is not None else None
        if slot is None or slot >= len(value.args):
            return
        acc = value.args[slot]
        if not (isinstance(acc, Var) and id(acc) in self.acc_windows):
            return
        parent, col = self.acc_windows[id(acc)]
        vt, pt = acc.type, parent.type
        if not (isinstance(vt, TileType) and isinstance(pt, TileType) and vt.rank == pt.rank == 2
                and pt.memory_space is MemorySpace.Acc):
            return
        rows, cols = vt.shape[0].static_int(), vt.shape[1].static_int()
        p_rows, p_cols = pt.shape[0].static_int(), pt.shape[1].static_int()
        if rows is None or cols is None or p_rows is None or rows == p_rows:
            return
        if cols <= 16 and isinstance(col, ConstInt) and col.value >= 0 \
                and col.value // 16 == (col.value + cols - 1) // 16:
            return
        raise PlError(
            f"{value.op.name}: the accumulator is a {rows}x{cols} row window of a {p_rows}x"
            f"{'?' if p_cols is None else p_cols} Acc (L0C) tile, which is not contiguous in L0C's "
            "block layout and cannot be a matmul destination: the hardware MAD writes its result "
            "compactly and has no destination stride, so only the first 16 columns of each row "
            "tile would be correct", value.span,
            hint=f"slice the accumulator along columns instead, so each window spans every row: "
                 f"allocate {rows}x{p_rows // rows * cols} and use tile.slice(acc, [{rows}, {cols}], "
                 f"[0, i * {cols}])")

    def stmt(self, stmt: Stmt) -> list[Stmt]:
        """`stmt` rewritten; a leaf statement reading a slice of `operands` reads an extract of
        it taken right before it: a slice is a view, which reads its source when it is read, so
        an extract taken where the slice stood would miss a write into the source in between (an
        assemble, a pl.write) or made by an earlier trip of an enclosing loop."""
        if not self.operands or not isinstance(stmt, _LEAVES):
            return super().stmt(stmt)
        call = stmt.value if isinstance(stmt, AssignStmt) else \
            stmt.expr if isinstance(stmt, EvalStmt) else None
        written = {id(call.args[i]) for i in _inplace_args(call) if i < len(call.args)} \
            if isinstance(call, Call) else set()
        pre: list[Stmt] = []
        saved: list[tuple[int, Expr | None]] = []
        for v in dict.fromkeys(v for e in stmt_exprs(stmt) for v in walk_exprs(e)
                               if isinstance(v, Var) and id(v) in self.operands):
            s, ext, stays, calls_only = self.operands[id(v)]
            if id(v) in written or calls_only and not (
                    isinstance(call, Call) and any(a is v for a in call.args)):
                continue  # written in place, or handed on: the view
            ext = with_attrs(mk("tile.extract", [self.expr(a) for a in ext.args], ext.kwargs,
                                (), ext.span), ext.attrs)
            k = self.extracts.get(id(v), 0)
            self.extracts[id(v)] = k + 1
            var = Var(s.var.name if k == 0 and not stays else f"{s.var.name}_textract{k}",
                      ext.type, span=s.var.span)
            saved.append((id(v), self.remap.get(id(v))))
            self.map_var(v, var)
            pre.append(AssignStmt(var, ext, span=s.span, comments=s.comments if k == 0 else ()))
        out = super().stmt(stmt)
        for key, before in saved:  # the next reader takes its own extract
            if before is None:
                del self.remap[key]
            else:
                self.remap[key] = before
        return [*pre, *out]

    def assign(self, s: AssignStmt) -> list[Stmt]:
        value = self.expr(s.value)
        name = op_name(value)  # read once: only extracts and slices are rewritten
        if isinstance(value, Call):
            if name == "tile.slice":
                self.record_window(s, value)
            else:
                self.check_accumulator(value)
        if name == "tile.extract" and isinstance(value, Call) \
                and isinstance(value.args[0], Var) and id(value.args[0]) in self.folded:
            base, r, c = self.folded[id(value.args[0])]
            args = (base, index_add(value.args[1], r), index_add(value.args[2], c), *value.args[3:])
            new = with_attrs(mk("tile.extract", args, value.kwargs, (), value.span), value.attrs)
            return [self.pass_through(s, new)]
        if not (name == "tile.slice" and isinstance(value, Call)):
            return [self.pass_through(s, value)]
        stays = self.vec_slice(s, value)
        if stays is not None:
            return [self.pass_through(s, value)] if stays else []
        base = value.args[0]
        bt = base.type
        offset = value.args[2]
        if not (isinstance(bt, TileType) and bt.memory_space is MemorySpace.Mat and bt.rank == 2
                and isinstance(offset, MakeTuple) and len(offset.elements) == 2
                and len(value.args) == 3):
            return [self.pass_through(s, value)]
        uses = self.uses().get(id(s.var), [])
        row, col = offset.elements
        if uses and all(op == "tile.extract" and slot == 0 for op, slot in uses):
            self.folded[id(s.var)] = (base, row, col)
            return []
        space = None
        if uses and all(_LEFT_SLOTS.get(op) == slot for op, slot in uses):
            space = MemorySpace.Left
        elif uses and all(_RIGHT_SLOTS.get(op) == slot for op, slot in uses):
            space = MemorySpace.Right
        if space is None or id(s.var) in self.header_uses():
            # (A loop or if header reading it, e.g. a matmul in a while's condition, has no
            # statement of its own to take an extract before: it reads the view, moved.)
            return [self.pass_through(s, value)]
        ext = mk("tile.extract", [base, row, col, value.args[1]], [("target_memory", space)],
                 (), value.span)
        self.operands[id(s.var)] = (s, with_attrs(ext, value.attrs), False, False)
        return []


def _canonical(f: Function) -> Function:
    """`f` rewritten until nothing changes: a slice of a slice folds one level per rewrite (the
    outer slice's uses are extracts only once the inner one has folded), and the pass must be a
    fixed point, or compiling the printed program would fold again (not idempotent)."""
    while True:
        new = _Canon(f.body).function(f)
        if new is f:
            return f
        f = new


def canonicalize_tile_slice(program: Program) -> Program:
    """Turn Mat slices feeding L0 consumers into extracts (InCore/AIC/AIV functions); chains of
    slices peel to their root tile, the offsets summed."""
    return map_incore_functions(program, _canonical)
