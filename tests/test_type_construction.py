"""Building an IR type is cheap and canonical (pl/ir/types.py).

- two spellings of one tile type are `==`: a view equal to the implicit view of its (shape, space)
  is dropped, a valid shape equal to the shape is cleared, a list shape becomes a tuple;
- the implicit views follow ops.md section 5, per space and shape (a 2-D static column tile is
  col_major in Right and the vector spaces);
- building a TileType without a view runs only its `__init__` and `__post_init__`; with a view it
  never goes through `dataclasses.replace` / `dataclasses.fields` and makes a few calls, whatever
  was built before (the calls are counted, not timed: timings are noise on shared machines).
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable
from types import FrameType
from typing import Any

import pytest

from pl.ir.enums import CompactMode, DType, MemorySpace, PadValue, TileLayout
from pl.ir.expr import ConstInt, Expr, Var
from pl.ir.types import ScalarType, TileType, TileView, effective_tile_view, implicit_tile_view, static_shape

R, C, N = TileLayout.row_major, TileLayout.col_major, TileLayout.none_box


def dims(*values: int) -> tuple[Expr, ...]:
    return tuple(ConstInt(v) for v in values)


n = Var("n", ScalarType(DType.INDEX))

# (shape, space) -> (blayout, slayout, fractal) of the implicit view (ops.md 5).
IMPLICIT: list[tuple[tuple[Expr, ...], MemorySpace | None, tuple[TileLayout, TileLayout, int]]] = [
    (dims(16, 128), None, (R, N, 512)),
    (dims(16, 128), MemorySpace.Vec, (R, N, 512)),
    (dims(16, 1), MemorySpace.Vec, (C, N, 512)),
    (dims(16, 1), None, (C, N, 512)),
    (dims(1, 1), MemorySpace.Vec, (R, N, 512)),
    ((n, ConstInt(1)), MemorySpace.Vec, (R, N, 512)),
    (dims(4, 16, 1), MemorySpace.Vec, (R, N, 512)),
    (dims(16, 128), MemorySpace.Mat, (C, R, 512)),
    (dims(16, 1), MemorySpace.Mat, (C, R, 512)),
    (dims(16, 128), MemorySpace.Left, (C, R, 512)),
    (dims(16, 128), MemorySpace.Right, (R, C, 512)),
    (dims(16, 1), MemorySpace.Right, (C, C, 512)),
    (dims(16, 128), MemorySpace.Acc, (C, R, 1024)),
    (dims(16, 128), MemorySpace.LeftScale, (R, R, 32)),
    (dims(16, 128), MemorySpace.RightScale, (C, C, 32)),
    (dims(16, 128), MemorySpace.DDR, (R, N, 512)),
]


@pytest.mark.parametrize(("shape", "space", "expected"), IMPLICIT,
                         ids=[f"{static_shape(s)}-{sp}" for s, sp, _ in IMPLICIT])
def test_implicit_views_follow_the_table(shape: tuple[Expr, ...], space: MemorySpace | None,
                                         expected: tuple[TileLayout, TileLayout, int]) -> None:
    view = implicit_tile_view(shape, space)
    assert (view.blayout, view.slayout, view.fractal) == expected
    assert view == TileView(blayout=expected[0], slayout=expected[1], fractal=expected[2])
    assert TileType(shape, DType.FP32, space, view).view is None
    assert TileType(shape, DType.FP32, space, view) == TileType(shape, DType.FP32, space)


def test_spellings_of_one_tile_type_are_equal() -> None:
    shape = dims(16, 128)
    plain = TileType(shape, DType.FP32, MemorySpace.Vec)
    assert TileType(list(shape), DType.FP32, MemorySpace.Vec) == plain  # type: ignore[arg-type]
    assert type(TileType(list(shape), DType.FP32, MemorySpace.Vec).shape) is tuple  # type: ignore[arg-type]
    assert TileType(shape, DType.FP32, MemorySpace.Vec, TileView(valid_shape=shape)) == plain
    assert TileType(shape, DType.FP32, MemorySpace.Vec, TileView(valid_shape=shape)).view is None
    padded = TileType(shape, DType.FP32, MemorySpace.Vec, TileView(valid_shape=shape, pad=PadValue.zero))
    assert padded != plain and padded.view == TileView(pad=PadValue.zero)
    partial = TileType(shape, DType.FP32, MemorySpace.Vec, TileView(valid_shape=dims(8, 128)))
    assert partial != plain and partial.view == TileView(valid_shape=dims(8, 128))
    assert effective_tile_view(partial).valid_shape == dims(8, 128)
    assert effective_tile_view(plain) == TileView(valid_shape=shape)


def test_with_valid_shape_keeps_every_other_field() -> None:
    """`TileView.with_valid_shape` lists the fields itself: a new field must be added there."""
    view = TileView(valid_shape=dims(1, 2), stride=dims(3, 1), start_offset=ConstInt(5), blayout=C,
                    slayout=R, fractal=1024, pad=PadValue.max, compact=CompactMode.normal)
    assert {f.name for f in dataclasses.fields(TileView)} == {
        "valid_shape", "stride", "start_offset", "blayout", "slayout", "fractal", "pad", "compact"}, \
        "TileView has a new field: add it to TileView.with_valid_shape, then here"
    for f in dataclasses.fields(TileView):
        assert getattr(view, f.name) != f.default, f"the probe view leaves {f.name} at its default"
    assert view.with_valid_shape(dims(7, 8)) == dataclasses.replace(view, valid_shape=dims(7, 8))


def _calls(fn: Callable[[], Any]) -> list[str]:
    """The names of the Python functions and builtins `fn` calls."""
    seen: list[str] = []

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        if event == "call":
            seen.append(frame.f_code.co_name)
        elif event == "c_call":
            seen.append(getattr(arg, "__name__", "?"))

    sys.setprofile(profile)
    try:
        fn()
    finally:
        sys.setprofile(None)
    return seen[1:-1]  # the lambda itself and the setprofile call that ends the count


def test_a_tile_type_without_a_view_runs_only_its_constructor() -> None:
    shape = dims(16, 128)
    assert _calls(lambda: TileType(shape, DType.FP32, MemorySpace.Vec)) == ["__init__", "__post_init__"]


@pytest.mark.parametrize("view", [TileView(valid_shape=dims(16, 128)), TileView(valid_shape=dims(8, 128)),
                                  TileView(pad=PadValue.zero), TileView(blayout=C, slayout=R)])
def test_a_tile_type_with_a_view_makes_a_few_calls(view: TileView) -> None:
    shape = dims(16, 128)
    made = _calls(lambda: TileType(shape, DType.FP32, MemorySpace.Vec, view))
    assert "replace" not in made and "fields" not in made
    assert len(made) <= 16, made
