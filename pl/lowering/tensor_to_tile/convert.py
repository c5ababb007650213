"""Per-op converters of ConvertTensorToTileOps: one `tensor.*` call -> its tile form.

Guarantees: a converter receives the call's arguments already bridged (tensor operands that an
input requirement covers are loaded; parameters consumed directly are already tiles) and returns
`(prologue statements, result expression)`. Ops whose ops.tsv row says `rename:tile.X` are converted
generically; the others have a function here or, for the multi-statement expansions, in
convert_index.py, marked `@converts(op name, parameters)`; `CONVERTERS` is the read-only table of
all of them, built once at import (`build_converters`). A tensor op with no conversion raises a located
PlError instead of leaking into the tile IR.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from functools import partial
from types import MappingProxyType
from typing import Any, Final

from pl.errors import PlError
from pl.ir.enums import AtomicType, MemorySpace
from pl.ir.expr import Call, ConstInt, Expr, MakeTuple, Var
from pl.ir.span import Span
from pl.ir.stmt import AssignStmt, Stmt
from pl.ir.types import ScalarType, TensorType, TileType, effective_tile_view, static_shape
from pl.lowering.tensor_to_tile import convert_index
from pl.lowering.tensor_to_tile.common import dims_text, full_value, mk, shape_tuple, zeros
from pl.ops.marks import collect, converts
from pl.ops.registry import all_ops, get_op, op
from pl.ops.rules import tensor as deduce_tensor
from pl.ops.rules import tensor_view as deduce_tensor_view

Result = tuple[list[Stmt], Expr]
Converter = Callable[[tuple[Expr, ...], dict[str, Any], Span], Result]

# tensor ops that stay tensor ops inside InCore functions (`passthrough` in their ops.tsv row).
PASSTHROUGH: Final = frozenset(name for name, row in all_ops().items()
                               if row.level == "tensor" and row.passthrough)
# Tensor ops that compute in their result dtype, the one their type rule deduces from all their
# operands (the elementwise, scalar-operand, float-unary, broadcast and concat rules): the
# conversion casts every tile operand of another dtype to it (rewrite.py, `convert_in_dtype`).
IN_RESULT_DTYPE: Final = frozenset(
    name for name, rule in collect("type_rule", [deduce_tensor, deduce_tensor_view]).items()
    if getattr(rule, "func", rule) in (deduce_tensor.binary, deduce_tensor.scalar_op,
                                       deduce_tensor.unary, deduce_tensor.expand,
                                       deduce_tensor_view.concat))
# ops whose converter loads its own tensor inputs (no entry load for their tensor args;
# `self_loading` in their row's call column).
SELF_LOADING: Final = frozenset(name for name, row in all_ops().items() if row.self_loading)


def _is_tile(e: Expr) -> bool:
    return isinstance(e.type, TileType)


def _is_tensor(e: Expr) -> bool:
    return isinstance(e.type, TensorType)


def _kw(kwargs: dict[str, Any], *names: str) -> list[tuple[str, Any]]:
    return [(k, kwargs[k]) for k in names if k in kwargs and kwargs[k] is not None]


def _rename(args: tuple[Expr, ...], kwargs: dict[str, Any], span: Span, *, target: str) -> Result:
    """The `rename:tile.X` rows of ops.tsv: the same arguments, given to the tile op."""
    return [], mk(target, args, list(kwargs.items()), (), span)


@converts("tensor.matmul")
def _matmul(args: tuple[Expr, ...], kwargs: dict[str, Any], span: Span) -> Result:
    # out_dtype / c_matrix_nz are not consumed: the tile matmul result is FP32/INT32 in Acc.
    rank = max(a.type.rank for a in args[:2] if isinstance(a.type, (TileType, TensorType)))
    return [], mk("tile.batch_matmul" if rank > 2 else "tile.matmul", args[:2], (), (), span)


@converts("tensor.matmul_acc")
def _matmul_acc(args: tuple[Expr, ...], kwargs: dict[str, Any], span: Span) -> Result:
    rank = max(a.type.rank for a in args[:3] if isinstance(a.type, (TileType, TensorType)))
    if rank > 2:
        return [], mk("tile.batch_matmul_acc", args[:3], (), (), span)
    return [], mk("tile.matmul_acc", args, (), (), span)


@converts("tensor.slice")
def _slice(args: tuple[Expr, ...], kwargs: dict[str, Any], span: Span) -> Result:
    src = args[0]
    if _is_tensor(src):
        # An empty valid_shape (written `[]` before drop_dims) requests the whole window.
        valid = args[3] if len(args) > 3 and not _empty_tuple(args[3]) else args[1]
        # clamp=True sanctions a window that runs off the source: the load narrows its valid
        # region to the source edge, as the slice does.
        load = mk("tile.load", [src, args[2], args[1], valid],
                  [("target_memory", MemorySpace.Vec), *_kw(kwargs, "clamp")], (), span)
        drop = _drop_dims(args)
        if not drop:
            return [], load
        # The load is full-rank; a reshape drops the unit axes, as the reference converts.
        assert isinstance(args[1], MakeTuple)
        kept = [e for d, e in enumerate(args[1].elements) if d not in drop]
        loaded = Var("slice_load", load.type, span=span)
        return [AssignStmt(loaded, load, span=span)], mk(
            "tile.reshape", [loaded, MakeTuple(tuple(kept))], (), (), span)
    return [], mk("tile.slice", args, _kw(kwargs, "pad_value"), (), span)


def _empty_tuple(e: Expr) -> bool:
    return isinstance(e, MakeTuple) and not e.elements


def _drop_dims(args: tuple[Expr, ...]) -> set[int]:
    """The axes a slice's drop_dims operand (its fifth) erases."""
    if len(args) < 5 or not isinstance(args[4], MakeTuple):
        return set()
    return {d for d in (e.static_int() for e in args[4].elements) if d is not None}


@converts("tensor.assemble")
def _assemble(args: tuple[Expr, ...], kwargs: dict[str, Any], span: Span) -> Result:
    target, source, offset = args[0], args[1], args[2]
    atomic = _kw(kwargs, "atomic")
    if _is_tile(source) and _is_tensor(target):
        return [], mk("tile.store", [source, offset, target], atomic, (), span)
    if kwargs.get("atomic") == AtomicType.Add and _is_tensor(source) and _is_tensor(target):
        # Only a store into GM combines atomically: the source tensor is loaded whole and the
        # tile stored with the atomic add (a copy between two tensors, the tensor op, would
        # overwrite instead of adding).
        tmp, load = _load_whole(source, span)
        return [load], mk("tile.store", [tmp, offset, target], atomic, (), span)
    if kwargs.get("atomic") == AtomicType.Add:
        # An on-chip assemble would silently overwrite instead of adding.
        raise PlError("tensor.assemble with atomic=pl.AtomicType.Add inside an InCore function "
                      "must store a computed tile into a GM tensor; this one assembles into an "
                      "on-chip tile", span, hint="assemble into an Out parameter (or a slice of "
                      "one), or drop atomic= and add the values with pl.add")
    if _is_tile(source) and _is_tile(target):
        return [], mk("tile.assemble", [target, source, offset], (), (), span)
    if _is_tensor(source) and _is_tile(target):
        tmp, load = _load_whole(source, span)
        return [load], mk("tile.assemble", [target, tmp, offset], (), (), span)
    return [], mk("tensor.assemble", args, atomic, (), span)


def _load_whole(source: Expr, span: Span) -> tuple[Var, Stmt]:
    """An assemble's tensor source loaded whole into Vec: the tile and its statement."""
    st = source.type
    assert isinstance(st, TensorType)
    loaded = mk("tile.load", [source, zeros(st.rank, span), shape_tuple(st.shape, span),
                              shape_tuple(st.shape, span)],
                [("target_memory", MemorySpace.Vec)], (), span)
    tmp = Var("assemble_src__tile", loaded.type, span=span)
    return tmp, AssignStmt(tmp, loaded, span=span)


@converts("tensor.create", space=MemorySpace.Vec)
@converts("tensor.create_l1", space=MemorySpace.Mat)
def _create(args: tuple[Expr, ...], kwargs: dict[str, Any], span: Span, *,
            space: MemorySpace) -> Result:
    kw: list[tuple[str, Any]] = _kw(kwargs, "dtype") + [("target_memory", space)]
    if space is MemorySpace.Mat and kwargs.get("transpose"):
        kw.append(("transpose", True))
    init = kwargs.get("init_value")
    if init is not None:
        # The runtime fills a buffer it allocates; inside an InCore function the tensor is an
        # on-chip tile, which only a fill op fills (the reference drops the value here).
        dtype = kwargs["dtype"]
        return [], mk("tile.full", [args[0], full_value(init, dtype, span)], [("dtype", dtype)],
                      (), span)
    return [], mk("tile.create", args[:1], kw, (), span)


@converts("tensor.read", tile_op="tile.read", tensor_op="tensor.read")
@converts("tensor.write", tile_op="tile.write", tensor_op="tensor.write")
def _tile_or_stay(args: tuple[Expr, ...], kwargs: dict[str, Any], span: Span, *,
                  tile_op: str, tensor_op: str) -> Result:
    name = tile_op if _is_tile(args[0]) else tensor_op
    return [], mk(name, args, list(kwargs.items()), (), span)


@converts("tensor.add", base="add")
@converts("tensor.sub", base="sub")
@converts("tensor.mul", base="mul")
@converts("tensor.div", base="div")
def _binary(args: tuple[Expr, ...], kwargs: dict[str, Any], span: Span, *, base: str) -> Result:
    """Same shape: tile.<op>; [M,N] with [M,1]: tile.row_expand_<op>(wider, narrower); a scalar
    rhs: the tile op's scalar-rhs variant (tile.adds)."""
    lhs, rhs = args[0], args[1]
    if isinstance(rhs.type, ScalarType):
        return [], mk(op(f"tile.{base}").scalar_variant or f"tile.{base}s", args, (), (), span)
    lt, rt = lhs.type, rhs.type
    if isinstance(lt, TileType) and isinstance(rt, TileType) and lt.rank == rt.rank == 2 \
            and lt.shape != rt.shape and get_op(f"tile.row_expand_{base}") is not None:
        wide, narrow = (lhs, rhs) if _is_col(rt) else (rhs, lhs)
        return [], mk(f"tile.row_expand_{base}", [wide, narrow], (), (), span)
    return [], mk(f"tile.{base}", args, list(kwargs.items()), (), span)


def _is_col(t: TileType) -> bool:
    last = t.shape[-1]
    return getattr(last, "value", None) == 1


@converts("tensor.fillpad")
def _fillpad(args: tuple[Expr, ...], kwargs: dict[str, Any], span: Span) -> Result:
    return [], mk("tile.fillpad", args[:1], _kw(kwargs, "pad_value"), (), span)


@converts("tensor.transpose")
def _transpose(args: tuple[Expr, ...], kwargs: dict[str, Any], span: Span) -> Result:
    return [], mk("tile.transpose", args[:3], (), (), span)


@converts("tensor.reshape")
def _reshape(args: tuple[Expr, ...], kwargs: dict[str, Any], span: Span) -> Result:
    """The tile reshape, which carries its input's valid region. A `valid_shape` argument the
    tensor form declares instead (the region its result holds, which a store writes) is given to
    the tile by `tile.set_validshape` when it differs; that op is 2-D, so on a tile of another
    rank a differing region is a located error (the reference's tile.reshape takes no
    valid_shape at all)."""
    call = mk("tile.reshape", args[:2], (), (), span)
    if len(args) < 3 or not isinstance(args[2], MakeTuple) or _empty_tuple(args[2]):
        return [], call
    declared = args[2].elements
    assert isinstance(call.type, TileType)
    derived = effective_tile_view(call.type).valid_shape
    if _same_dims(declared, derived):
        return [], call
    if len(declared) != 2:
        raise PlError(
            f"tensor.reshape: valid_shape {dims_text(declared)} is not the valid region "
            f"{dims_text(derived)} the reshaped value has from its input; inside an InCore "
            "function the tile reshape keeps that region, and pl gives a tile another one only "
            "when it is 2-D (pl.set_validshape)", span)
    reshaped = Var("reshape", call.type, span=span)
    return [AssignStmt(reshaped, call, span=span)], \
        mk("tile.set_validshape", [reshaped, *declared], (), (), span)


def _same_dims(a: tuple[Expr, ...], b: tuple[Expr, ...]) -> bool:
    sa, sb = static_shape(a), static_shape(b)
    return sa == sb if sa is not None and sb is not None else tuple(a) == tuple(b)


@converts("tensor.maximum", tile_op="tile.maximum")
@converts("tensor.minimum", tile_op="tile.minimum")
def _scalar_or(args: tuple[Expr, ...], kwargs: dict[str, Any], span: Span, *, tile_op: str) -> Result:
    """The tile op, or its scalar-rhs variant when the rhs is a scalar."""
    scalar = isinstance(args[1].type, ScalarType)
    name = (op(tile_op).scalar_variant or tile_op) if scalar else tile_op
    return [], mk(name, args, list(kwargs.items()), (), span)


def _scratch(name: str, like: TileType, shape: tuple[Expr, ...], span: Span) -> tuple[Stmt, Var]:
    """`name = tile.create(shape, dtype=like.dtype, target_memory=Vec)`: a Vec scratch tile."""
    call = mk("tile.create", [MakeTuple(shape, span=span)],
              [("dtype", like.dtype), ("target_memory", MemorySpace.Vec)], (), span)
    var = Var(name, call.type, span=span)
    return AssignStmt(var, call, span=span), var


@converts("tensor.row_max", tile_op="tile.row_max", scratch="pad")
@converts("tensor.row_sum", tile_op="tile.row_sum", scratch="pad")
@converts("tensor.row_min", tile_op="tile.row_min", scratch="pad")
@converts("tensor.row_prod", tile_op="tile.row_prod", scratch="pad")
@converts("tensor.row_argmax", tile_op="tile.row_argmax", scratch="exact")
@converts("tensor.row_argmin", tile_op="tile.row_argmin", scratch="exact")
@converts("tensor.col_sum", tile_op="tile.col_sum", scratch=None)
@converts("tensor.col_max", tile_op="tile.col_max", scratch=None)
@converts("tensor.col_min", tile_op="tile.col_min", scratch=None)
@converts("tensor.col_prod", tile_op="tile.col_prod", scratch=None)
@converts("tensor.col_argmax", tile_op="tile.col_argmax", scratch="exact")
@converts("tensor.col_argmin", tile_op="tile.col_argmin", scratch="exact")
def _reduction(args: tuple[Expr, ...], kwargs: dict[str, Any], span: Span, *, tile_op: str,
               scratch: str | None) -> Result:
    """`tensor.row_*` / `tensor.col_*`: the tile op reduces the last axis (row) or axis 0 (col) and
    keeps it as 1. Row sum/max/min/prod need a scratch tile whose last dim the reference pads up
    to 128 (`scratch="pad"`); arg reductions size it exactly like the source (`"exact"`, their
    kernels read the extent); other col reductions take none. The tensor op reduces `axis`
    (default last / -2) and drops it under `keep_dim=False`: any axis the tile op does not reduce
    is a located error, and a dropped axis is reshaped away so the result has the tensor's shape."""
    row = tile_op.startswith("tile.row_")
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


# The split-axis boundary ops of a `pl.split_aiv` region are one op at both levels, the split
# forwarded (ops.tsv); the reference converts them 1:1, the operand a tile computed (or loaded)
# earlier in the function, the result in the consuming lane's space (Vec for the shard, Mat for
# the gather), which inference places.
@converts("tensor.aiv_shard")
def _aiv_shard(args: tuple[Expr, ...], kwargs: dict[str, Any], span: Span) -> Result:
    return _rename(args, kwargs, span, target="tile.aiv_shard")


@converts("tensor.aic_gather")
def _aic_gather(args: tuple[Expr, ...], kwargs: dict[str, Any], span: Span) -> Result:
    return _rename(args, kwargs, span, target="tile.aic_gather")


@converts("tensor.rsqrt")
def _rsqrt(args: tuple[Expr, ...], kwargs: dict[str, Any], span: Span) -> Result:
    src = args[0].type
    if not kwargs.get("high_precision") or not isinstance(src, TileType):
        return [], mk("tile.rsqrt", args[:1], (), (), span)
    stmt, tmp = _scratch("rsqrt_tmp", src, src.shape, span)
    return [stmt], mk("tile.rsqrt", [args[0], tmp], (), (), span)


@converts("pld.tensor.remote_store")
def _remote_store(args: tuple[Expr, ...], kwargs: dict[str, Any], span: Span) -> Result:
    """The tensor form of a cross-rank store becomes the tile form (the reference converts it
    1:1); a source still in GM is loaded whole into a Vec tile first."""
    src = args[0]
    prologue: list[Stmt] = []
    t = src.type
    if isinstance(t, TensorType):
        load = mk("tile.load", [src, zeros(t.rank, span), shape_tuple(t.shape, span),
                                shape_tuple(t.shape, span)], [("target_memory", MemorySpace.Vec)],
                  (), span)
        loaded = Var("remote_src", load.type, span=span)
        prologue.append(AssignStmt(loaded, load, span=span))
        src = loaded
    return prologue, mk("pld.tile.remote_store", [src, *args[1:]], _kw(kwargs, "atomic"), (), span)


def build_converters() -> Mapping[str, Converter]:
    """Every tensor op's converter: the `@converts` marks of this module, then a 1:1 rename for
    each tensor op whose ops.tsv row says `rename:tile.X` (to a registered tile op)."""
    table = dict(collect("converter", [sys.modules[__name__], convert_index]))
    for name, row in all_ops().items():
        if row.level != "tensor" or name in table or name in PASSTHROUGH:
            continue
        target = row.renamed_to
        if target and get_op(target) is not None:
            table[name] = partial(_rename, target=target)
    return MappingProxyType(table)


CONVERTERS: Final = build_converters()


def converter_for(name: str) -> Converter | None:
    """The converter of a tensor op, or None when the op stays (or is not a tensor op)."""
    return CONVERTERS.get(name)


# Tensor ops the reference converts (their ops.tsv row names the tile form) that have no converter
# here yet: inside an InCore function they are a located error (`check_convertible`). A new tensor
# op the reference converts needs a `@converts` function or an entry here (tests/test_op_records.py).
NOT_YET_CONVERTED: Final[frozenset[str]] = frozenset()


def check_convertible(call: Call) -> None:
    """A tensor op without a conversion inside an InCore function is a user-facing error."""
    name = call.op.name
    op = get_op(name)
    if op is None or op.level != "tensor" or name in PASSTHROUGH or converter_for(name):
        return
    raise PlError(f"{name} has no tile conversion yet, so it cannot be used inside an InCore "
                  f"function (it lowers to: {op.converts_to})", call.span)
