"""CanonicalizeTileSlice: Mat `tile.slice` feeding L0 consumers becomes a direct `tile.extract`.

Guarantees, for InCore / AIC / AIV functions:
* `s = tile.slice(base, shape, [r, c])` of a 2-D Mat tile whose every use is the Left slot of a
  matmul (arg 0 of matmul/matmul_bias/gemv, arg 1 of the _acc forms) becomes
  `s = tile.extract(base, r, c, shape, target_memory=Left)`; likewise Right slots give Right;
* a Mat slice used only as the source of `tile.extract` disappears: each extract reads `base` at
  the summed offsets (a chain of such slices peels to its root; the pass is a fixed point);
* slices with a narrower valid shape, mixed uses or other spaces are left alone; attrs survive.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from typing_extensions import assert_never

from lowering.tensor_to_tile.common import (
    Rewriter,
    index_add,
    mk,
    op_name,
    same_items,
    with_attrs,
)
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
from pl.ir.stmt import AssignStmt, Stmt
from pl.ir.traverse import expr_children, stmt_exprs, walk_stmts
from pl.ir.types import TileType

_LEFT_SLOTS: Final[Mapping[str, int]] = MappingProxyType({
    "tile.matmul": 0, "tile.matmul_bias": 0, "tile.gemv": 0, "tile.gemv_bias": 0, "tile.matmul_acc": 1,
    "tile.gemv_acc": 1})
_RIGHT_SLOTS: Final[Mapping[str, int]] = MappingProxyType({
    "tile.matmul": 1, "tile.matmul_bias": 1, "tile.gemv": 1, "tile.gemv_bias": 1, "tile.matmul_acc": 2,
    "tile.gemv_acc": 2})


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
        super().__init__()
        self.func_body = body
        self._uses: dict[int, list[tuple[str, int]]] | None = None
        self.folded: dict[int, tuple[Expr, Expr, Expr]] = {}   # slice var -> (base, row, col)

    def uses(self) -> dict[int, list[tuple[str, int]]]:
        """The uses of every var, collected at the first Mat slice (most functions have none)."""
        if self._uses is None:
            self._uses = _uses(self.func_body)
        return self._uses

    def assign(self, s: AssignStmt) -> list[Stmt]:
        value = self.expr(s.value)
        name = op_name(value)  # read once: only extracts and slices are rewritten
        if name == "tile.extract" and isinstance(value, Call) \
                and isinstance(value.args[0], Var) and id(value.args[0]) in self.folded:
            base, r, c = self.folded[id(value.args[0])]
            args = (base, index_add(r, value.args[1]), index_add(c, value.args[2]), *value.args[3:])
            new = with_attrs(mk("tile.extract", args, value.kwargs, (), value.span), value.attrs)
            return [self.pass_through(s, new)]
        if not (name == "tile.slice" and isinstance(value, Call)):
            return [self.pass_through(s, value)]
        base = value.args[0]
        bt = base.type
        offset = value.args[2]
        if not (isinstance(bt, TileType) and bt.memory_space is MemorySpace.Mat and bt.rank == 2
                and isinstance(offset, MakeTuple) and len(offset.elements) == 2
                and (len(value.args) < 4 or value.args[3] == value.args[1])):
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
        if space is None:
            return [self.pass_through(s, value)]
        ext = mk("tile.extract", [base, row, col, value.args[1]], [("target_memory", space)],
                 (), value.span)
        return [self.pass_through(s, with_attrs(ext, value.attrs))]


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
    funcs = tuple(_canonical(f) if f.func_type.is_incore_kind() else f for f in program.functions)
    if same_items(funcs, program.functions):
        return program  # no function changed
    return Program(program.name, funcs, span=program.span)
