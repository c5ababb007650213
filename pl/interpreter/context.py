"""The calling convention of the interpreter's op-semantics tables.

Guarantees: a handler receives an `OpCtx` whose `args` are already evaluated (arrays for tiles and
tensors, Python numbers for scalars, tuples of numbers for `MakeTuple`s, None for an omitted
optional argument) and whose `kwargs` hold Python values or enum members; `valid_shape(i)` gives the
valid region of tile argument `i` from its IR type, evaluated in the current environment; `run`
is the state of the one run the call belongs to (`RunState`), never shared between runs;
`lanes` say which spmd block and AIV lane runs the op.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from pl.errors import PlError
from pl.interpreter.ranks import World
from pl.interpreter.values import Array
from pl.ir.expr import Call, Expr
from pl.ir.types import TensorType, TileType, Type, effective_tile_view


@dataclass(slots=True)
class RunState:
    """What one `pl.interpret` run keeps between op calls besides the variables: the cross-core
    pipes (a FIFO of tiles per direction and pipe id: a push appends a copy, a pop takes the
    oldest), the named buffers reserved for them (name -> base) and the ranks' shared state. A
    new run starts empty."""

    pipes: dict[tuple[str, int], deque[Array]] = field(default_factory=dict)
    buffers: dict[str, int] = field(default_factory=dict)
    # The ranks of a distributed run (pl.interpreter.ranks), shared by the host's run and each
    # rank's; a run without `ranks=` has a world of unknown size.
    world: World = field(default_factory=lambda: World(None))


@dataclass(frozen=True, slots=True)
class Lanes:
    """Where the code runs: block `block_idx` of `block_num` (a `pl.spmd` block; block 0 of 1
    outside any), AIV lane `subblock_idx` (a `pl.split_aiv` lane; 0 outside any)."""

    block_idx: int = 0
    block_num: int = 1
    subblock_idx: int = 0


@dataclass(frozen=True, slots=True)
class OpCtx:
    call: Call
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    eval_dims: Callable[[Sequence[Expr]], tuple[int, ...]]
    run: RunState
    lanes: Lanes = Lanes()
    # Whether the op runs in an InCore, AIC or AIV function, where a tensor value is an on-chip
    # tile once compiled (a narrowed `tensor.slice` there is a padded load).
    on_chip: bool = False

    @property
    def name(self) -> str:
        return self.call.op_name

    @property
    def result_type(self) -> Type:
        return self.call.result_type

    def arg(self, i: int, default: Any = None) -> Any:
        return self.args[i] if i < len(self.args) and self.args[i] is not None else default

    def array(self, i: int) -> Array:
        v = self.arg(i)
        if not isinstance(v, np.ndarray):
            raise PlError(f"pl.interpret: op '{self.name}' expects a tile or tensor as argument {i}")
        return v

    def ints(self, i: int) -> tuple[int, ...]:
        v = self.arg(i)
        if isinstance(v, (tuple, list)):
            return tuple(int(x) for x in v)
        if isinstance(v, (int, np.integer)):
            return (int(v),)
        raise PlError(f"pl.interpret: op '{self.name}' expects a tuple of integers as argument {i}")

    def valid_shape(self, i: int) -> tuple[int, ...]:
        """The valid region of argument `i` (its whole shape unless its tile type says less)."""
        arr = self.array(i)
        t = self.call.args[i].type
        if isinstance(t, TileType):
            dims = self.eval_dims(effective_tile_view(t).valid_shape)
            if len(dims) == arr.ndim:
                return tuple(min(d, s) for d, s in zip(dims, arr.shape, strict=True))
        if isinstance(t, TensorType) and t.view is not None and t.view.valid_shape:
            dims = self.eval_dims(t.view.valid_shape)
            if len(dims) == arr.ndim:
                return tuple(min(d, s) for d, s in zip(dims, arr.shape, strict=True))
        return tuple(arr.shape)

    def result_dtype(self) -> Any:
        """The NumPy dtype of a tile/tensor result, or None when the result is not one."""
        from pl.interpreter.values import np_dtype

        t = self.call.result_type
        if isinstance(t, (TileType, TensorType)):
            return np_dtype(t.dtype)
        return None

    def result_shape(self) -> tuple[int, ...] | None:
        t = self.call.result_type
        if isinstance(t, (TileType, TensorType)):
            try:
                return self.eval_dims(t.shape)
            except PlError:
                return None
        return None


Handler = Callable[[OpCtx], Any]


def window(offsets: Sequence[int], shape: Sequence[int]) -> tuple[slice, ...]:
    """The slices of a window at `offsets`. A negative offset is a PlError: NumPy would count it
    from the end, and the compiled program never wraps an index."""
    if any(o < 0 for o in offsets):
        raise PlError(f"pl.interpret: a window starts at negative offsets {list(offsets)}; "
                      "indices are never wrapped (a negative one does not count from the end)")
    return tuple(slice(o, o + s) for o, s in zip(offsets, shape, strict=True))


def unsupported(name: str, reason: str | None = None) -> PlError:
    """The error for an op the interpreter does not compute (`reason`: why, when it is known)."""
    tail = f": {reason}" if reason else ""
    return PlError(f"pl.interpret: op '{name}' is not supported by the interpreter{tail}")
