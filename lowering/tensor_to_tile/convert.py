"""Per-op converters of ConvertTensorToTileOps: one `tensor.*` call -> its tile form.

Guarantees: a converter receives the call's arguments already bridged (tensor operands that an
input requirement covers are loaded; parameters consumed directly are already tiles) and returns
`(prologue statements, result expression)`. Ops whose ops.tsv row says "1:1 rename" are converted
generically; the others have a function here. A tensor op with no conversion raises a located
PlError instead of leaking into the tile IR.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lowering.tensor_to_tile.common import mk, shape_tuple, zeros
from pl.errors import PlError
from pl.ir.enums import MemorySpace
from pl.ir.expr import Call, ConstInt, Expr, MakeTuple, Var
from pl.ir.span import Span
from pl.ir.stmt import AssignStmt, Stmt
from pl.ir.types import ScalarType, TensorType, TileType
from pl.ops.registry import get_op

Result = tuple[list[Stmt], Expr]
Converter = Callable[[tuple[Expr, ...], dict[str, Any], Span], Result]

# tensor ops that stay tensor ops inside InCore functions.
PASSTHROUGH = frozenset({"tensor.dim", "tensor.view"})
# ops whose converter loads its own tensor inputs (no entry load for their tensor args).
SELF_LOADING = frozenset({"tensor.slice", "tensor.assemble", "tensor.read", "tensor.write",
                          "tensor.expand_clone", "tensor.gather", "tensor.paged_gather",
                          "tensor.create_l1", "tensor.gather_row"})


def _is_tile(e: Expr) -> bool:
    return isinstance(e.type, TileType)


def _is_tensor(e: Expr) -> bool:
    return isinstance(e.type, TensorType)


def _kw(kwargs: dict[str, Any], *names: str) -> list[tuple[str, Any]]:
    return [(k, kwargs[k]) for k in names if k in kwargs and kwargs[k] is not None]


def _rename(target: str) -> Converter:
    def convert(args: tuple[Expr, ...], kwargs: dict[str, Any], span: Span) -> Result:
        return [], mk(target, args, list(kwargs.items()), (), span)
    return convert


def _matmul(args: tuple[Expr, ...], kwargs: dict[str, Any], span: Span) -> Result:
    # out_dtype / c_matrix_nz are not consumed: the tile matmul result is FP32/INT32 in Acc.
    rank = max(a.type.rank for a in args[:2] if isinstance(a.type, (TileType, TensorType)))
    return [], mk("tile.batch_matmul" if rank > 2 else "tile.matmul", args[:2], (), (), span)


def _matmul_acc(args: tuple[Expr, ...], kwargs: dict[str, Any], span: Span) -> Result:
    rank = max(a.type.rank for a in args[:3] if isinstance(a.type, (TileType, TensorType)))
    if rank > 2:
        return [], mk("tile.batch_matmul_acc", args[:3], (), (), span)
    return [], mk("tile.matmul_acc", args, (), (), span)


def _slice(args: tuple[Expr, ...], kwargs: dict[str, Any], span: Span) -> Result:
    src = args[0]
    if _is_tensor(src):
        valid = args[3] if len(args) > 3 else args[1]
        load = mk("tile.load", [src, args[2], args[1], valid],
                  [("target_memory", MemorySpace.Vec)], (), span)
        return [], load
    return [], mk("tile.slice", args, _kw(kwargs, "pad_value"), (), span)


def _assemble(args: tuple[Expr, ...], kwargs: dict[str, Any], span: Span) -> Result:
    target, source, offset = args[0], args[1], args[2]
    atomic = _kw(kwargs, "atomic")
    if _is_tile(source) and _is_tensor(target):
        return [], mk("tile.store", [source, offset, target], atomic, (), span)
    if _is_tile(source) and _is_tile(target):
        return [], mk("tile.assemble", [target, source, offset], (), (), span)
    if _is_tensor(source) and _is_tile(target):
        st = source.type
        assert isinstance(st, TensorType)
        loaded = mk("tile.load", [source, zeros(st.rank, span), shape_tuple(st.shape, span),
                                  shape_tuple(st.shape, span)],
                    [("target_memory", MemorySpace.Vec)], (), span)
        tmp = Var("assemble_src__tile", loaded.type, span=span)
        return [AssignStmt(tmp, loaded, span=span)], mk("tile.assemble", [target, tmp, offset],
                                                         (), (), span)
    return [], mk("tensor.assemble", args, atomic, (), span)


def _create(space: MemorySpace) -> Converter:
    def convert(args: tuple[Expr, ...], kwargs: dict[str, Any], span: Span) -> Result:
        kw: list[tuple[str, Any]] = _kw(kwargs, "dtype") + [("target_memory", space)]
        if space is MemorySpace.Mat and kwargs.get("transpose"):
            kw.append(("transpose", True))
        return [], mk("tile.create", args[:1], kw, (), span)
    return convert


def _tile_or_stay(tile_op: str, tensor_op: str) -> Converter:
    def convert(args: tuple[Expr, ...], kwargs: dict[str, Any], span: Span) -> Result:
        name = tile_op if _is_tile(args[0]) else tensor_op
        return [], mk(name, args, list(kwargs.items()), (), span)
    return convert


def _binary(base: str) -> Converter:
    """Same shape: tile.<op>; [M,N] with [M,1]: tile.row_expand_<op>(wider, narrower)."""
    def convert(args: tuple[Expr, ...], kwargs: dict[str, Any], span: Span) -> Result:
        lhs, rhs = args[0], args[1]
        if isinstance(rhs.type, ScalarType):
            return [], mk(f"tile.{base}s", args, (), (), span)
        lt, rt = lhs.type, rhs.type
        if isinstance(lt, TileType) and isinstance(rt, TileType) and lt.rank == rt.rank == 2 \
                and lt.shape != rt.shape and get_op(f"tile.row_expand_{base}") is not None:
            wide, narrow = (lhs, rhs) if _is_col(rt) else (rhs, lhs)
            return [], mk(f"tile.row_expand_{base}", [wide, narrow], (), (), span)
        return [], mk(f"tile.{base}", args, list(kwargs.items()), (), span)
    return convert


def _is_col(t: TileType) -> bool:
    last = t.shape[-1]
    return getattr(last, "value", None) == 1


def _fillpad(args: tuple[Expr, ...], kwargs: dict[str, Any], span: Span) -> Result:
    return [], mk("tile.fillpad", args[:1], _kw(kwargs, "pad_value"), (), span)


def _transpose(args: tuple[Expr, ...], kwargs: dict[str, Any], span: Span) -> Result:
    return [], mk("tile.transpose", args[:3], (), (), span)


def _reshape(args: tuple[Expr, ...], kwargs: dict[str, Any], span: Span) -> Result:
    return [], mk("tile.reshape", args[:2], (), (), span)


def _scalar_or(tile_op: str, scalar_op: str) -> Converter:
    def convert(args: tuple[Expr, ...], kwargs: dict[str, Any], span: Span) -> Result:
        name = scalar_op if isinstance(args[1].type, ScalarType) else tile_op
        return [], mk(name, args, list(kwargs.items()), (), span)
    return convert


def _scratch(name: str, like: TileType, shape: tuple[Expr, ...], span: Span) -> tuple[Stmt, Var]:
    """`name = tile.create(shape, dtype=like.dtype, target_memory=Vec)`: a Vec scratch tile."""
    call = mk("tile.create", [MakeTuple(shape, span=span)],
              [("dtype", like.dtype), ("target_memory", MemorySpace.Vec)], (), span)
    var = Var(name, call.type, span=span)
    return AssignStmt(var, call, span=span), var


def _reduction(tile_op: str, scratch: str | None) -> Converter:
    """`tensor.row_*` / `tensor.col_*`: the tile op reduces the last axis (row) or axis 0 (col) and
    keeps it as 1. Row sum/max/min/prod need a scratch tile whose last dim the reference pads up
    to 128 (`scratch="pad"`); arg reductions size it exactly like the source (`"exact"`, their
    kernels read the extent); other col reductions take none. The tensor op reduces `axis`
    (default last / -2) and drops it under `keep_dim=False`: any axis the tile op does not reduce
    is a located error, and a dropped axis is reshaped away so the result has the tensor's shape."""
    row = tile_op.startswith("tile.row_")

    def convert(args: tuple[Expr, ...], kwargs: dict[str, Any], span: Span) -> Result:
        src = args[0].type
        if not isinstance(src, TileType):
            raise PlError(f"{tile_op}: the input must be a tile after conversion", span)
        shape = src.shape
        rank = len(shape)
        axis = kwargs.get("axis")
        axis = (-1 if row else -2) if axis is None else axis
        axis = axis.value if isinstance(axis, ConstInt) else axis
        reduced = rank - 1 if row else 0
        if not isinstance(axis, int) or rank < 2 or axis % rank != reduced:
            which = "the last axis" if row else "axis 0"
            raise PlError(f"{tile_op.replace('tile.', 'tensor.')} on a rank-{rank} input with "
                          f"axis={axis!r} has no tile form: {tile_op} reduces {which}", span)
        prologue: list[Stmt] = []
        tile_args: list[Expr] = [args[0]]
        if scratch is not None:
            if scratch == "pad":
                last = shape[-1]
                if not isinstance(last, ConstInt) or last.value < 128:
                    shape = (*shape[:-1], ConstInt(128, span=span))
            stmt, tmp = _scratch("tmp_tile", src, shape, span)
            prologue.append(stmt)
            tile_args.append(tmp)
        result = mk(tile_op, tile_args, (), (), span)
        if kwargs.get("keep_dim", True) is not False:
            return prologue, result
        kept = tuple(d for k, d in enumerate(src.shape) if k != reduced)
        tmp_var = Var("reduced", result.type, span=span)
        prologue.append(AssignStmt(tmp_var, result, span=span))
        return prologue, mk("tile.reshape", [tmp_var, MakeTuple(kept, span=span)], (), (), span)
    return convert


def _rsqrt(args: tuple[Expr, ...], kwargs: dict[str, Any], span: Span) -> Result:
    src = args[0].type
    if not kwargs.get("high_precision") or not isinstance(src, TileType):
        return [], mk("tile.rsqrt", args[:1], (), (), span)
    stmt, tmp = _scratch("rsqrt_tmp", src, src.shape, span)
    return [stmt], mk("tile.rsqrt", [args[0], tmp], (), (), span)


CUSTOM: dict[str, Converter] = {
    "tensor.row_max": _reduction("tile.row_max", "pad"),
    "tensor.row_sum": _reduction("tile.row_sum", "pad"),
    "tensor.row_min": _reduction("tile.row_min", "pad"),
    "tensor.row_prod": _reduction("tile.row_prod", "pad"),
    "tensor.row_argmax": _reduction("tile.row_argmax", "exact"),
    "tensor.row_argmin": _reduction("tile.row_argmin", "exact"),
    "tensor.col_sum": _reduction("tile.col_sum", None),
    "tensor.col_max": _reduction("tile.col_max", None),
    "tensor.col_min": _reduction("tile.col_min", None),
    "tensor.col_prod": _reduction("tile.col_prod", None),
    "tensor.col_argmax": _reduction("tile.col_argmax", "exact"),
    "tensor.col_argmin": _reduction("tile.col_argmin", "exact"),
    "tensor.rsqrt": _rsqrt,
    "tensor.matmul": _matmul,
    "tensor.matmul_acc": _matmul_acc,
    "tensor.slice": _slice,
    "tensor.assemble": _assemble,
    "tensor.create": _create(MemorySpace.Vec),
    "tensor.create_l1": _create(MemorySpace.Mat),
    "tensor.read": _tile_or_stay("tile.read", "tensor.read"),
    "tensor.write": _tile_or_stay("tile.write", "tensor.write"),
    "tensor.add": _binary("add"),
    "tensor.sub": _binary("sub"),
    "tensor.mul": _binary("mul"),
    "tensor.div": _binary("div"),
    "tensor.maximum": _scalar_or("tile.maximum", "tile.maximums"),
    "tensor.minimum": _scalar_or("tile.minimum", "tile.minimums"),
    "tensor.fillpad": _fillpad,
    "tensor.transpose": _transpose,
    "tensor.reshape": _reshape,
}


def converter_for(name: str) -> Converter | None:
    """The converter of a tensor op, or None when the op stays (or is not a tensor op)."""
    if name in CUSTOM:
        return CUSTOM[name]
    op = get_op(name)
    if op is None or op.level != "tensor" or name in PASSTHROUGH:
        return None
    if "1:1 rename" in op.converts_to:
        target = op.converts_to.split()[0]
        if get_op(target) is not None:
            return _rename(target)
    return None


def check_convertible(call: Call) -> None:
    """A tensor op without a conversion inside an InCore function is a user-facing error."""
    name = call.op.name
    op = get_op(name)
    if op is None or op.level != "tensor" or name in PASSTHROUGH or converter_for(name):
        return
    raise PlError(f"{name} has no tile conversion yet, so it cannot be used inside an InCore "
                  f"function (it lowers to: {op.converts_to})", call.span)
