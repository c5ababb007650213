"""Op semantics of the interpreter, part 3: packed predicate masks (cmp / sel), the flat-index and
mask-pattern gathers and scatters, sort32 / merge sort, dtype reinterpretation and the counter RNG.

Guarantees, each from the reference's op docs and the golden values of its runtime tests:
* A packed mask (tile.cmp / tile.cmps) holds one bit per column, column c of a row in byte c // 8,
  bit c % 8 (least significant first), each row `roundup(ceil(N / 8), 32)` bytes (its type); a
  mask read by tile.sel / tile.sels may be carried in any 8/16/32-bit integer dtype, its bytes
  read little-endian in row order (0xAA selects the odd columns).
* tile.gather reads `src.flat[indices[i, j]]` (row-major over the source tile); tile.scatter writes
  `dst.flat[indexes[i, j]] = src[i, j]` into dst (DPS: the returned array is dst). Indices are
  checked, never wrapped; an index repeated in one scatter is a PlError (no defined order).
* tile.gatherb copies 32-byte blocks at byte offsets; tile.mgather reads rows or elements of a GM
  tensor by index (gather_oob: undefined / clamp / wrap / zero); tile.mscatter writes
  `out.flat[idx] = src` into a GM tensor.
* gather_mask keeps, of every 4 columns, the ones its pattern names (P0101 = columns 0 and 2: the
  even ones; P1111 all), reinterpreting the bits when output_dtype differs; scatter_mask writes
  those columns of dst (see `_scatter_mask` for the tile op's limit).
* sort32 sorts each 32-column block of every row descending (ties keep their order) into (value,
  index) pairs: the FP32 value, then the UINT32 bits of the matching idx element; mrgsort_format1
  merges each 4 consecutive runs of `block_len` words (pairs) of a row by value, descending.
  Only FP32 has a layout the reference documents; other dtypes are a PlError.
* tensor.paged_gather reads whole rows through the block table (see `_paged_gather`).
* reinterpret_view views the bytes of a row-major buffer (the interpreter's arrays) as the new
  dtype: an alias when the source is one contiguous buffer.
* tile.random / tensor.random: the reference documents a deterministic counter-based (Philox-style)
  generator of (key, counter, element position, rounds) and not its lane schedule, so the
  interpreter draws Philox-4x32 with the given rounds, the counter's low word advanced by the
  element's row-major position: the same seeds give the same values in every run and in every
  compiled form (not the device's bits). Outside valid_shape the tile is 0.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Final

import numpy as np

from pl.errors import PlError
from pl.interpreter.context import OpCtx, window
from pl.interpreter.ops.arith import COMPARE
from pl.interpreter.ops.mem import checked_indices
from pl.interpreter.values import Array, np_dtype
from pl.ir.enums import DType
from pl.ir.types import TensorType, TileType
from pl.ops.marks import interprets


def _code(c: OpCtx, key: str, default: int, hi: int) -> int:
    v = c.kwargs.get(key, default)
    v = int(getattr(v, "value", default if v is None else v))
    if not 0 <= v <= hi:
        raise PlError(f"pl.interpret: op '{c.name}' has {key} {v}, outside 0..{hi}")
    return v


# ---- packed predicate masks ---------------------------------------------------------------------

@interprets("tile.cmp", "tile.cmps")
def _cmp(c: OpCtx) -> Any:
    lhs = c.array(0)
    with np.errstate(invalid="ignore"):
        bits = COMPARE[_code(c, "cmp_type", 0, 5)](lhs, c.arg(1))
    bits = np.broadcast_to(bits, np.broadcast_shapes(lhs.shape, np.shape(bits)))
    packed = np.packbits(bits, axis=-1, bitorder="little")
    shape = c.result_shape() or packed.shape
    out = np.zeros(shape, dtype=np.uint8)
    rows = min(out.shape[-2], packed.shape[-2]) if out.ndim >= 2 else 0
    if out.ndim < 2 or packed.shape[-1] > out.shape[-1]:
        raise PlError(f"pl.interpret: op '{c.name}' cannot pack a {list(bits.shape)} mask into "
                      f"{list(shape)} bytes")
    out[..., :rows, :packed.shape[-1]] = packed[..., :rows, :]
    return out


def _mask_bits(c: OpCtx, shape: tuple[int, ...]) -> Array:
    """The mask (argument 0) as booleans of `shape` ([rows, cols]), per the module doc."""
    mask = c.array(0)
    if mask.ndim != 2 or len(shape) != 2 or not np.issubdtype(mask.dtype, np.integer):
        raise PlError(f"pl.interpret: op '{c.name}' needs a rank-2 integer mask for a rank-2 "
                      f"source, got {mask.dtype} {list(mask.shape)}")
    raw = np.ascontiguousarray(mask, dtype=mask.dtype.newbyteorder("<")).view(np.uint8)
    bits = np.unpackbits(raw, axis=-1, bitorder="little").astype(bool)
    rows, cols = shape
    if bits.shape[0] < rows or bits.shape[1] < cols:
        raise PlError(f"pl.interpret: op '{c.name}': the mask {mask.dtype} {list(mask.shape)} "
                      f"does not cover {rows} rows of {cols} columns")
    return bits[:rows, :cols]


@interprets("tile.sel")
def _sel(c: OpCtx) -> Any:
    lhs, rhs = c.array(1), c.array(2)
    shape = np.broadcast_shapes(lhs.shape, rhs.shape)
    return np.where(_mask_bits(c, shape), lhs, rhs)


@interprets("tile.sels")
def _sels(c: OpCtx) -> Any:
    src = c.array(1)
    scalar = np.array(c.arg(3)).astype(src.dtype) if np.issubdtype(src.dtype, np.floating) \
        else np.array(int(c.arg(3))).astype(np.int64).astype(src.dtype, casting="unsafe")
    return np.where(_mask_bits(c, src.shape), src, scalar)


# ---- flat-index and mask-pattern gather / scatter ----------------------------------------------

@interprets("tile.gather")
def _gather(c: OpCtx) -> Any:
    src = c.array(0)
    return np.ascontiguousarray(src).reshape(-1)[checked_indices(c, 1, src.size)]


@interprets("tile.scatter")
def _scatter(c: OpCtx) -> Any:
    dst, src = c.array(0), c.array(1)
    flat = dst.reshape(-1)
    if not np.shares_memory(flat, dst):
        raise PlError(f"pl.interpret: op '{c.name}' cannot scatter into a strided window in place")
    ix = checked_indices(c, 2, dst.size)
    if ix.shape != src.shape:
        raise PlError(f"pl.interpret: op '{c.name}' needs indexes shaped like src {list(src.shape)}, "
                      f"got {list(ix.shape)}")
    if len(set(ix.reshape(-1).tolist())) != ix.size:
        raise PlError(f"pl.interpret: op '{c.name}' writes one element twice (a repeated index); the "
                      "order of those writes is not defined")
    flat[ix.reshape(-1)] = src.reshape(-1)
    return dst


@interprets("tile.gatherb")
def _gatherb(c: OpCtx) -> Any:
    """Block b of row r of the result is the 32 bytes of the source (its row-major bytes) from
    byte offset[r, b]; blocks outside the offset tile's valid region are 0."""
    src, offsets = c.array(0), c.array(1)
    shape, dtype = c.result_shape(), c.result_dtype()
    if shape is None or dtype is None or offsets.ndim != 2 or len(shape) != 2:
        raise PlError(f"pl.interpret: op '{c.name}' needs a rank-2 offset tile and a static result")
    source = np.ascontiguousarray(src).view(np.uint8).reshape(-1)
    out = np.zeros(shape, dtype=dtype)
    blocks = out.view(np.uint8).reshape(shape[0], -1, 32)
    rows, cols = c.valid_shape(1)
    for r in range(min(rows, blocks.shape[0])):
        for b in range(min(cols, blocks.shape[1])):
            at = int(offsets[r, b]) & 0xFFFFFFFF
            if at + 32 > source.size:
                raise PlError(f"pl.interpret: op '{c.name}': byte offset {at} + 32 leaves the "
                              f"{source.size}-byte source")
            blocks[r, b] = source[at:at + 32]
    return out


def _oob(c: OpCtx, ix: Array, bound: int) -> tuple[Array, Array]:
    """Indices (read as UINT32) made valid by the gather_oob mode, and which are in bounds:
    0 undefined (an index outside [0, bound) is a PlError), 1 clamp, 2 wrap, 3 zero."""
    mode = _code(c, "gather_oob", 0, 3)
    k = ix.astype(np.int64) & 0xFFFFFFFF
    inside = k < bound
    if mode == 0 and not inside.all():
        raise PlError(f"pl.interpret: op '{c.name}' has an index outside [0, {bound}) and "
                      "gather_oob='undefined'")
    if mode == 1:
        return np.minimum(k, bound - 1), np.ones_like(inside)
    if mode == 2:
        return k % bound, np.ones_like(inside)
    return np.where(inside, k, 0), inside


@interprets("tile.mgather")
def _mgather(c: OpCtx) -> Any:
    """Rows (coalesce 'row': result row r is mem[idx.flat[r]]) or elements ('elem': result[i, j]
    is mem.flat[idx[i, j]]) of the GM tensor, over the index's valid region (the rest is 0).
    The Mat element mode also writes a GM scratch the reference does not describe: refused."""
    mem, ix = c.array(0), c.array(1)
    shape, dtype = c.result_shape(), c.result_dtype()
    elem = _code(c, "coalesce", 0, 1) == 1
    space = getattr(c.kwargs.get("target_memory"), "name", "Vec")
    if shape is None or dtype is None or len(shape) != 2 or ix.ndim != 2:
        raise PlError(f"pl.interpret: op '{c.name}' needs a rank-2 index and a static rank-2 result")
    if elem and space == "Mat":
        raise PlError(f"pl.interpret: op '{c.name}' in Mat element mode writes a GM scratch whose "
                      "contents the reference does not define")
    out = np.zeros(shape, dtype=dtype)
    vr, vc = c.valid_shape(1) if isinstance(c.call.args[1].type, TileType) else ix.shape
    if elem:
        part = ix[:vr, :vc]
        k, inside = _oob(c, part, mem.size)
        got = np.ascontiguousarray(mem).reshape(-1)[k]
        out[:vr, :vc] = np.where(inside, got, 0)
        return out
    rows = ix[:vr, :vc].reshape(-1)[:shape[0]]
    k, inside = _oob(c, rows, mem.shape[0])
    flat = mem.reshape(mem.shape[0], -1)
    out[:rows.size] = np.where(inside[:, None], flat[k][:, :shape[1]], 0)
    return out


@interprets("tile.mscatter")
def _mscatter(c: OpCtx) -> Any:
    """output.flat[idx[i, j]] = src[i, j] into the GM tensor (written in place and returned);
    an index outside it, or one repeated, is a PlError."""
    src, out = c.array(0), c.array(2)
    flat = out.reshape(-1)
    if not np.shares_memory(flat, out):
        raise PlError(f"pl.interpret: op '{c.name}' cannot scatter into a strided tensor view")
    ix = checked_indices(c, 1, out.size).reshape(-1)
    if ix.size != src.size:
        raise PlError(f"pl.interpret: op '{c.name}' needs one index per source element")
    if len(set(ix.tolist())) != ix.size:
        raise PlError(f"pl.interpret: op '{c.name}' writes one element twice (a repeated index); the "
                      "order of those writes is not defined")
    flat[ix] = src.reshape(-1)
    return out


# mask_pattern -> (group width, kept positions within each group): P0101 keeps 0 and 2, ...
_PATTERNS: Final = MappingProxyType({1: (4, (0, 2)), 2: (4, (1, 3)), 3: (4, (0,)), 4: (4, (1,)),
                                     5: (4, (2,)), 6: (4, (3,)), 7: (1, (0,))})


def _picked(c: OpCtx, wide: Array) -> Array:
    """The columns of the rank-2 `wide` that the mask_pattern kwarg selects."""
    pattern = _code(c, "mask_pattern", 0, 7)
    if pattern not in _PATTERNS or wide.ndim != 2:
        raise PlError(f"pl.interpret: op '{c.name}' needs mask_pattern 1..7 and rank-2 operands")
    width, kept = _PATTERNS[pattern]
    cols = wide.shape[-1]
    return np.sort(np.concatenate([np.arange(k, cols, width) for k in kept]))


@interprets("tile.gather_mask", "tensor.gather_mask")
def _gather_mask(c: OpCtx) -> Any:
    src = c.array(0)
    out = np.ascontiguousarray(src[:, _picked(c, src)])
    target = c.kwargs.get("output_dtype")
    if isinstance(target, DType) and np_dtype(target) != out.dtype:
        out = out.view(np_dtype(target))
    return out


@interprets("tile.scatter_mask", inplace=True)
@interprets("tensor.scatter_mask", inplace=False)
def _scatter_mask(c: OpCtx, *, inplace: bool) -> Any:
    """The inverse of gather_mask: the selected columns of dst take src's columns. The tensor op
    keeps dst's other columns (a copy). The tile op is documented as a DPS write of the selected
    positions, while the reference's lowering says its emission zero-fills the rest: the two
    agree, and the tile op is interpreted, only where those columns already hold 0."""
    src_i, dst_i = (1, 0) if inplace else (0, 1)
    src, dst = c.array(src_i), c.array(dst_i)
    picked = _picked(c, dst)
    if src.shape != (dst.shape[0], picked.size):
        raise PlError(f"pl.interpret: op '{c.name}' needs src of shape {[dst.shape[0], picked.size]} "
                      f"for dst {list(dst.shape)}, got {list(src.shape)}")
    out = dst if inplace else dst.copy()
    if inplace:
        rest = np.ones(dst.shape[-1], dtype=bool)
        rest[picked] = False
        if np.any(dst[:, rest] != 0):
            raise PlError(f"pl.interpret: op '{c.name}' into a dst whose unselected columns are not 0: "
                          "whether the device keeps or zero-fills them is not defined by the reference")
    out[:, picked] = src
    return out


@interprets("tensor.paged_gather")
def _paged_gather(c: OpCtx) -> Any:
    """Row i of a [max_indices, size] buffer (column i of [size, max_indices] under is_trans) is
    src[block_table[idx // block_size] * block_size + idx % block_size, col_off:col_off + size]
    for idx = indices[i]. The rows past the gathered ones are 0, as a created tile is: the
    device leaves them as the buffer was."""
    src, ix, table = c.array(0), c.array(1).reshape(-1), c.array(2).reshape(-1)
    block, size, most = (int(c.kwargs[k]) for k in ("block_size", "size", "max_indices"))
    col_off = int(c.kwargs.get("col_off") or 0)
    trans = bool(c.kwargs.get("is_trans"))
    if ix.size > most:
        raise PlError(f"pl.interpret: op '{c.name}' gathers {ix.size} rows into a buffer of {most}")
    out = np.zeros((size, most) if trans else (most, size), dtype=src.dtype)
    for i, k in enumerate(ix.tolist()):
        page = k // block
        if not 0 <= page < table.size:
            raise PlError(f"pl.interpret: op '{c.name}': index {k} has no block_table entry")
        phys = int(table[page]) * block + k % block
        if not 0 <= phys < src.shape[0]:
            raise PlError(f"pl.interpret: op '{c.name}': index {k} maps to row {phys}, outside the "
                          f"source's {src.shape[0]} rows")
        row = src[phys, col_off:col_off + size]
        if trans:
            out[:, i] = row
        else:
            out[i, :] = row
    return out


# ---- sort32 and merge sort ----------------------------------------------------------------------

def _fp32_pairs(c: OpCtx, a: Array) -> Array:
    if a.dtype != np.float32 or a.ndim != 2 or a.shape[-1] % 2:
        raise PlError(f"pl.interpret: op '{c.name}' is interpreted for FP32 (value, index) pairs only "
                      "(the reference documents no other layout)")
    return a


@interprets("tile.sort32", "tensor.sort32")
def _sort32(c: OpCtx) -> Any:
    src, idx = c.array(0), c.array(1)
    if src.dtype != np.float32 or src.ndim != 2 or src.shape[-1] % 32 or idx.shape != src.shape:
        raise PlError(f"pl.interpret: op '{c.name}' is interpreted for FP32 sources whose rows are "
                      "whole 32-element blocks, with an index tile of the same shape")
    rows, cols = src.shape
    blocks = src.reshape(rows, cols // 32, 32)
    order = np.argsort(-blocks, axis=-1, kind="stable")
    values = np.take_along_axis(blocks, order, axis=-1).reshape(rows, cols)
    index = np.take_along_axis(idx.reshape(rows, cols // 32, 32), order, axis=-1).reshape(rows, cols)
    words = np.empty((rows, 2 * cols), dtype=np.uint32)
    words[:, 0::2] = values.view(np.uint32)
    words[:, 1::2] = index.astype(np.int64).astype(np.uint32)
    return words.view(np.float32)


def _pairs(row: Array) -> Array:
    return np.ascontiguousarray(row).view(np.uint32).reshape(-1, 2)


def _merge_pairs(runs: list[Array]) -> Array:
    """Merge runs of (value, index) pair words by value, descending: at each step the run whose
    head is largest gives its head (the first such run on a tie), as a merge network does."""
    heads = [0] * len(runs)
    values = [r[:, 0].view(np.float32) for r in runs]
    out: list[Array] = []
    while True:
        best = -1
        for k, r in enumerate(runs):
            if heads[k] < len(r) and (best < 0 or values[k][heads[k]] > values[best][heads[best]]):
                best = k
        if best < 0:
            return np.array(out, dtype=np.uint32).reshape(-1, 2)
        out.append(runs[best][heads[best]])
        heads[best] += 1


@interprets("tile.mrgsort_format1", "tensor.mrgsort_format1")
def _mrgsort1(c: OpCtx) -> Any:
    src = _fp32_pairs(c, c.array(0))
    block = int(c.arg(1))
    cols = src.shape[-1]
    if block <= 0 or block % 2 or cols % (4 * block):
        raise PlError(f"pl.interpret: op '{c.name}' merges groups of 4 runs of block_len words; "
                      f"block_len {block} does not divide a row of {cols} words that way")
    out = np.empty_like(src).view(np.uint32)
    for r in range(src.shape[0]):
        pairs = _pairs(src[r])
        per = block // 2
        for g in range(0, len(pairs), 4 * per):
            runs = [pairs[g + k * per:g + (k + 1) * per] for k in range(4)]
            out[r, 2 * g:2 * (g + 4 * per)] = _merge_pairs(runs).reshape(-1)
    return out.view(np.float32)


# ---- reinterpretation and the counter RNG -------------------------------------------------------

@interprets("tile.reinterpret_view", "tensor.reinterpret_view")
def _reinterpret(c: OpCtx) -> Any:
    x = c.array(0)
    t = c.result_type
    if not isinstance(t, TileType | TensorType):
        raise PlError(f"pl.interpret: op '{c.name}' has no tile or tensor result")
    layout = getattr(getattr(c.call.args[0].type, "view", None), "layout", None)
    if getattr(layout, "name", "") in ("col_major", "DN"):
        raise PlError(f"pl.interpret: op '{c.name}' of a column-major buffer is not interpreted (its "
                      "bytes are not in the interpreter's row-major order)")
    want = c.result_shape()
    base = x if x.flags.c_contiguous else np.ascontiguousarray(x)
    viewed = base.view(np_dtype(t.dtype))
    if want is not None and tuple(viewed.shape) != tuple(want):
        if viewed.size != int(np.prod(want)):
            raise PlError(f"pl.interpret: op '{c.name}' views {list(x.shape)} {x.dtype} as "
                          f"{list(want)} {t.dtype.name}: the byte counts differ")
        viewed = viewed.reshape(want)
    return viewed


_PHILOX_M = (np.uint64(0xD2511F53), np.uint64(0xCD9E8D57))
_PHILOX_W = (np.uint32(0x9E3779B9), np.uint32(0xBB67AE85))


def _philox(counter: list[Array], key: tuple[int, int], rounds: int) -> Array:
    """Word 0 of Philox-4x32-`rounds` of each counter (four uint32 arrays) under `key`."""
    c0, c1, c2, c3 = (w.astype(np.uint32) for w in counter)
    k0, k1 = np.uint32(key[0]), np.uint32(key[1])
    mask = np.uint64(0xFFFFFFFF)
    with np.errstate(over="ignore"):
        for _ in range(rounds):
            p0 = _PHILOX_M[0] * c0.astype(np.uint64)
            p1 = _PHILOX_M[1] * c2.astype(np.uint64)
            hi0, lo0 = (p0 >> np.uint64(32)).astype(np.uint32), (p0 & mask).astype(np.uint32)
            hi1, lo1 = (p1 >> np.uint64(32)).astype(np.uint32), (p1 & mask).astype(np.uint32)
            c0, c1, c2, c3 = hi1 ^ c1 ^ k0, lo1, hi0 ^ c3 ^ k1, lo0
            k0, k1 = np.uint32(k0 + _PHILOX_W[0]), np.uint32(k1 + _PHILOX_W[1])
    return c0


@interprets("tile.random", "tensor.random")
def _random(c: OpCtx) -> Any:
    seeds = [int(c.arg(i)) & 0xFFFFFFFF for i in range(6)]
    shape = c.ints(6)
    valid = c.ints(7) if c.arg(7) is not None else shape
    rounds = int(c.kwargs.get("rounds", 10) or 10)
    position = np.arange(int(np.prod(shape)), dtype=np.uint64).reshape(shape)
    low = position + np.uint64(seeds[2])
    carry = (low >> np.uint64(32)).astype(np.uint32)
    counter = [(low & np.uint64(0xFFFFFFFF)).astype(np.uint32), np.uint32(seeds[3]) + carry,
               np.full(shape, seeds[4], np.uint32), np.full(shape, seeds[5], np.uint32)]
    drawn = _philox(counter, (seeds[0], seeds[1]), rounds)
    out = np.zeros(shape, dtype=np.uint32)
    out[window([0] * len(shape), valid)] = drawn[window([0] * len(shape), valid)]
    dtype = c.result_dtype()
    return out.view(dtype) if dtype is not None and dtype.itemsize == 4 else out
