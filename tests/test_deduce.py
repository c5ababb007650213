"""Op type deduction checked against the reference's own runs (`verified` column of op_types.tsv).

Every `yes: <call> -> <printed type>` example becomes a case: the call is parsed with `ast` and
built through `make_call` on the operands of ops.md section 15, the printed type is parsed into an
IR type (TileView fields default to the space's implicit view, as the reference printer omits them)
and compared with `==`. `ERROR <text>` examples must raise PlError containing the text. Int
literals are INT32 scalars and float literals FP32 (what the DSL builders pass), list literals are
MakeTuples. Unified `pl.X` spellings and DSL-filled defaults are mapped by the documented rules
(`_dsl_map`); examples that fail in the reference's Python bindings are skipped with a reason.
"""

from __future__ import annotations

import ast
import re
from dataclasses import replace
from importlib import resources
from typing import Any

import pytest

from pl.errors import PlError
from pl.ir import (
    Call,
    ConstFloat,
    ConstInt,
    DType,
    Expr,
    MakeTuple,
    MemorySpace,
    PadValue,
    ScalarType,
    Span,
    TensorLayout,
    TensorType,
    TensorView,
    TileLayout,
    TileType,
    TupleType,
    Type,
    UnknownType,
    Var,
    const_index,
    implicit_tile_view,
)
from pl.ops.deduce import deduce_type, make_call
from pl.ops.registry import all_ops, get_op

M = MemorySpace
F32, F16, BF16, I32, I16 = DType.FP32, DType.FP16, DType.BF16, DType.INT32, DType.INT16


def shp(*dims: int) -> tuple[Expr, ...]:
    return tuple(const_index(d) for d in dims)


def tl(dims: tuple[int, ...], dt: DType, space: MemorySpace | None = M.Vec,
       valid: tuple[int, ...] | None = None) -> TileType:
    view = None
    if valid is not None:
        view = replace(implicit_tile_view(shp(*dims), space), valid_shape=shp(*valid))
    return TileType(shp(*dims), dt, space, view)


def ts(dims: tuple[int, ...], dt: DType, valid: tuple[int, ...] | None = None) -> TensorType:
    return TensorType(shp(*dims), dt, TensorView(valid_shape=shp(*valid)) if valid else None)


ma_t, mb_t = tl((16, 64), BF16, M.Mat), tl((64, 32), BF16, M.Mat)
OPERANDS: dict[str, Type] = {
    "a": tl((16, 128), F32), "b": tl((16, 128), F32), "h": tl((16, 128), F16),
    "i": tl((16, 128), I32), "s16": tl((16, 128), I16), "c": tl((16, 1), F32),
    "row1": tl((1, 128), F32), "t3": tl((2, 16, 64), F32),
    "pv": tl((16, 128), F32, valid=(8, 100)), "ma": ma_t, "mb": mb_t,
    "la": tl((16, 64), BF16, M.Left), "rgt": tl((64, 32), BF16, M.Right),
    "x": ts((16, 128), F32), "y": ts((128, 64), F32), "xh": ts((16, 128), F16),
    "xb": ts((64, 64), BF16), "xi": ts((16, 128), I32), "xc": ts((16, 1), F32),
    "xr": ts((1, 128), F32), "x3": ts((2, 16, 64), F32),
}

# r0/r1/r2 differ per example; shapes chosen to satisfy the shown result (ops.md 15 leaves them open).
LOCAL: dict[str, dict[str, Type]] = {
    "pl.tile.assemble(b, r0, [8, 64])": {"r0": tl((8, 64), F32)},
    "pl.tile.assemble(r0, a, [0, 0])": {"r0": tl((16, 128), BF16)},
    "pl.tile.batch_matmul(r0, r1)": {"r0": tl((2, 16, 64), BF16, M.Left),
                                     "r1": tl((2, 64, 32), BF16, M.Right)},
    "pl.tile.cmps(r0, 0.0, cmp_type=1)": {"r0": tl((16, 300), F32)},
    "pl.tile.gather(a, r0, r0)": {"r0": tl((16, 64), I32)},
    "pl.tile.gemv(r1, rgt)": {"r1": tl((1, 64), BF16, M.Left)},
    "pl.tile.gemv_acc(r2, r1, rgt)": {"r1": tl((1, 64), BF16, M.Left),
                                      "r2": tl((16, 32), F32, M.Acc, valid=(1, 32))},
    "pl.tile.matmul(r1, rgt)": {"r1": tl((16, 64), BF16, M.Left)},
    "pl.tile.matmul_acc(r0, la, rgt)": {"r0": tl((16, 32), F32, M.Acc)},
    "pl.tile.matmul_bias(la, rgt, r0)": {"r0": tl((1, 32), F32, M.Bias)},
    "pl.tile.move(r0, target_memory=pl.MemorySpace.Vec)": {"r0": tl((16, 32), F32, M.Acc)},
    "pl.tile.scatter_update(a, r0, r1, dim=-2)": {"r0": tl((8, 1), I32),
                                                  "r1": tl((8, 128), F32)},
    "pl.tile.sel(r0, a, b, a)": {"r0": tl((16, 32), DType.UINT8)},
    "pl.tile.sel(r0, h, a, a)": {"r0": tl((16, 32), DType.UINT8)},
    "pl.tile.sels(r0, a, a, 1.0)": {"r0": tl((16, 32), DType.UINT8)},
    "pl.tile.sort32(row1, r0)": {"r0": tl((1, 128), DType.UINT32)},
    "pl.tensor.assemble(x, r0, [8, 64])": {"r0": ts((8, 64), F32)},
    "pl.tensor.assemble(r0, x, [0, 0])": {"r0": ts((16, 128), BF16)},
    "pl.tensor.fillpad(r0)": {"r0": ts((16, 128), F32, valid=(8, 100))},
    "pl.tensor.matmul_acc(r0, x, y)": {"r0": ts((16, 64), F32)},
    "pl.tensor.scatter_update(x, r0, r1, dim=-2)": {"r0": ts((8, 1), I32), "r1": ts((8, 128), F32)},
    "pl.tensor.sort32(xr, r0)": {"r0": ts((1, 128), DType.UINT32)},
}

SKIP_MARKERS = {
    "__init__(): incompatible function arguments": "fails in the reference's Python binding "
                                                   "(pl.full positional dtype), not in deduction",
    "got multiple values for argument": "fails in the reference's Python wrapper signature",
}

_ENUMS: dict[str, Any] = {"MemorySpace": MemorySpace, "Mem": MemorySpace, "TileLayout": TileLayout,
                          "PadValue": PadValue, "TensorLayout": TensorLayout}
_SCALAR_VARIANT = {"add": "adds", "sub": "subs", "mul": "muls", "div": "divs",
                   "maximum": "maximums", "minimum": "minimums", "fmod": "fmods"}


def _dotted(node: ast.expr) -> str:
    if isinstance(node, ast.Attribute):
        return _dotted(node.value) + "." + node.attr
    if isinstance(node, ast.Name):
        return node.id
    raise ValueError(ast.dump(node))


def _static(node: ast.expr) -> Any:
    """A Python value for kwargs / enum args: ints, floats, bools, enum members, lists."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_static(node.operand)
    if isinstance(node, ast.List):
        return [_static(e) for e in node.elts]
    parts = _dotted(node).split(".")
    if len(parts) == 2 and parts[1] in DType.__members__:
        return DType[parts[1]]
    if len(parts) == 3 and parts[1] in _ENUMS:
        return _ENUMS[parts[1]][parts[2]]
    raise ValueError(ast.dump(node))


class Builder:
    def __init__(self, operands: dict[str, Type]) -> None:
        self.vars = {n: Var(n, t) for n, t in operands.items()}

    def expr(self, node: ast.expr) -> Expr | Any:
        match node:
            case ast.Name(id=n):
                return self.vars[n]
            case ast.Call():
                return self.call(node)
            case ast.List(elts=elts):
                return MakeTuple(tuple(self.expr(e) for e in elts))
            case ast.Constant(value=bool()):
                return node.value
            case ast.Constant(value=int() as v):
                return ConstInt(v, DType.INT32)
            case ast.Constant(value=float() as v):
                return ConstFloat(v, DType.FP32)
            case ast.UnaryOp(op=ast.USub(), operand=ast.Constant(value=int() as v)):
                return ConstInt(-v, DType.INT32)
        return _static(node)

    def call(self, node: ast.Call) -> Call:
        spelling = _dotted(node.func)
        args = [self.expr(a) for a in node.args]
        kwargs = {k.arg: _static(k.value) for k in node.keywords if k.arg}
        name, args, kwargs = _dsl_map(spelling, args, kwargs)
        return make_call(name, args, kwargs)


def _dsl_map(spelling: str, args: list[Any], kwargs: dict[str, Any]
             ) -> tuple[str, list[Any], dict[str, Any]]:
    """The DSL wrapper rules (ops.md 11) needed by the examples."""
    parts = spelling.split(".")
    short = parts[-1].rstrip("_")
    if len(args) > 1 and isinstance(args[1], Expr) and isinstance(args[1].type, ScalarType):
        short = _SCALAR_VARIANT.get(short, short)  # a scalar rhs picks the scalar variant
    if len(parts) == 3:
        level = parts[1]
    elif get_op(f"tensor.{short}") is None:  # promoted tile-only op (pl.load, pl.move ...)
        level = "tile"
    else:  # unified pl.X dispatches on arg0's type
        level = "tensor" if isinstance(args[0].type, TensorType) else "tile"
    name = f"{level}.{short}"
    if short == "load" and len(args) == 3:
        args.append(args[2])
        kwargs.setdefault("target_memory", MemorySpace.Vec)
    if short == "cast" and len(args) == 2:
        kwargs["target_type"] = args.pop()
    if short == "reinterpret_view" and len(args) == 2 and isinstance(args[1], DType):
        kwargs["dtype"] = args.pop()
    if short == "slice" and "drop_dims" in kwargs:
        drops = kwargs.pop("drop_dims")
        if len(args) == 3:
            args.append(args[1])
        args.append(MakeTuple(tuple(ConstInt(d, DType.INT32) for d in drops)))
    return name, args, kwargs


def _dims(node: ast.expr) -> tuple[Expr, ...]:
    return shp(*_static(node))


def parse_type(text: str) -> Type:
    node = ast.parse(text.strip(), mode="eval").body
    assert isinstance(node, ast.Subscript)
    kind = _dotted(node.value).split(".")[-1]
    elts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    if kind == "Scalar":
        return ScalarType(_static(elts[0]))
    shape, dt = _dims(elts[0]), _static(elts[1])
    if kind == "Tensor":
        view = None
        if len(elts) > 2:
            assert isinstance(elts[2], ast.Call)
            kw = {k.arg: _static(k.value) for k in elts[2].keywords if k.arg}
            view = TensorView(stride=shp(*kw.get("stride", [])),
                              layout=kw.get("layout", TensorLayout.ND),
                              valid_shape=shp(*kw.get("valid_shape", [])),
                              pad=kw.get("pad", PadValue.null))
        return TensorType(shape, dt, view)
    space = _static(elts[2])
    tview = None
    if len(elts) > 3:
        assert isinstance(elts[3], ast.Call)
        kw = {k.arg: _static(k.value) for k in elts[3].keywords if k.arg}
        if "valid_shape" in kw:
            kw["valid_shape"] = shp(*kw["valid_shape"])
        tview = replace(implicit_tile_view(shape, space), **kw)
    return TileType(shape, dt, space, tview)


def _examples() -> list[Any]:
    text = resources.files("pl.ops").joinpath("data/op_types.tsv").read_text(encoding="utf-8")
    cases = []
    for line in text.splitlines()[1:]:
        cols = line.split("\t")
        op, verified = cols[0], cols[-1]
        if not verified.startswith(("yes:", "error-only:")):
            continue
        body = verified.split(":", 1)[1]
        for k, ex in enumerate(body.split(" ; ")):
            call, _, expected = ex.strip().partition(" -> ")
            marks = [pytest.mark.skip(reason=why) for m, why in SKIP_MARKERS.items()
                     if m in expected]
            cases.append(pytest.param(op, call.strip(), expected.strip(), marks=marks,
                                      id=f"{op}-{k}"))
    return cases


EXAMPLES = _examples()


def test_examples_cover_many_ops() -> None:
    assert len(EXAMPLES) >= 250
    assert len({p.values[0] for p in EXAMPLES}) >= 150


@pytest.mark.parametrize("op,call,expected", EXAMPLES)
def test_reference_example(op: str, call: str, expected: str) -> None:
    builder = Builder({**OPERANDS, **LOCAL.get(call, {})})
    node = ast.parse(call, mode="eval").body
    assert isinstance(node, ast.Call)
    if expected.startswith("ERROR "):
        message = expected[len("ERROR "):].split("': ", 1)[1]
        with pytest.raises(PlError) as info:
            builder.call(node)
        assert message.rstrip() in str(info.value)
        return
    result = builder.call(node)
    short = op.split(".", 1)[1]
    assert result.op_name in (op, f"{op.split('.')[0]}.{_SCALAR_VARIANT.get(short, short)}")
    assert result.type == parse_type(expected), f"{result.type} != {expected}"


# ---- make_call: lookup, signature checks, stamping ----------------------------------------

A = Var("a", OPERANDS["a"])
X = Var("x", OPERANDS["x"])
MA = Var("ma", OPERANDS["ma"])


def tup(*vals: int) -> MakeTuple:
    return MakeTuple(tuple(ConstInt(v, DType.INT32) for v in vals))


@pytest.mark.parametrize("name,args,kwargs,needle", [
    ("tile.nope", [A], {}, "Unknown operation 'tile.nope'"),
    ("tile.add", [A], {}, "'tile.add' expects 2 positional arguments"),
    ("tile.add", [A, A, A], {}, "but got 3"),
    ("tile.exp", [A], {"mode": 1}, "unknown keyword argument 'mode'"),
    ("tile.cast", [A], {"bogus": 1}, "target_type, mode"),
    ("tile.load", [X, tup(0, 0)], {}, "expects 4 positional arguments"),
    ("tile.col_sum", [], {}, "expects 1 to 2 positional arguments"),
    ("tile.add", [A, X], {}, "requires second argument to be a TileType, but got TensorType"),
    ("tile.move", [A], {}, "requires the target_memory attribute"),
])
def test_make_call_rejects(name: str, args: list[Expr], kwargs: dict[str, Any],
                           needle: str) -> None:
    with pytest.raises(PlError) as info:
        make_call(name, args, kwargs)
    assert needle in str(info.value)


def test_error_is_located_at_the_call_span() -> None:
    span = Span("k.py", 7, 5, 7, 20)
    with pytest.raises(PlError) as info:
        make_call("tile.add", [A, Var("t3", OPERANDS["t3"])], span=span)
    assert info.value.span == span


def test_kwargs_keep_given_order_and_attrs_are_stored() -> None:
    c = make_call("tile.load", [X, tup(0, 0), tup(16, 64), tup(16, 64)],
                  [("clamp", False), ("target_memory", M.Mat)], attrs=[("bridge", True)])
    assert c.kwargs == (("clamp", False), ("target_memory", M.Mat))
    assert c.attrs == (("bridge", True),)
    assert c.type == TileType(shp(16, 64), F32, M.Mat)


@pytest.mark.parametrize("kwargs,space", [({}, None), ({"target_memory": M.Vec}, M.Vec),
                                          ({"target_memory": M.Mat}, M.Mat)])
def test_load_space_follows_the_kwarg_only(kwargs: dict[str, Any],
                                           space: MemorySpace | None) -> None:
    c = make_call("tile.load", [X, tup(0, 0), tup(16, 128), tup(16, 128)], kwargs)
    assert isinstance(c.type, TileType) and c.type.memory_space is space


@pytest.mark.parametrize("name,args,kwargs,space", [
    ("tile.slice", [MA, tup(16, 32), tup(0, 0)], {}, M.Mat),       # inherit: first tile's space
    ("tile.exp", [A], {}, M.Vec),                                    # fixed resolver
    ("tile.move", [A], {"target_memory": M.Mat}, M.Mat),             # kwarg resolver
    ("tile.extract", [MA, ConstInt(0), ConstInt(0), tup(16, 32)], {}, M.Vec),  # kwarg default
    ("tile.create", [tup(16, 16)], {"dtype": F32}, None),            # retargetable, no kwarg
    ("tile.transpose", [Var("u", tl((16, 64), F32, None)), ConstInt(0), ConstInt(1)], {},
     None),                                                          # nothing to inherit
])
def test_memory_space_stamping(name: str, args: list[Expr], kwargs: dict[str, Any],
                               space: MemorySpace | None) -> None:
    t = make_call(name, args, kwargs).type
    assert isinstance(t, TileType) and t.memory_space is space


def test_tuple_results_get_stamped_elementwise() -> None:
    t = make_call("tile.gather_compare", [A, ConstFloat(0.0), Var("m", tl((16, 32), DType.UINT8))],
                  {"out_cols": 8}).type
    assert isinstance(t, TupleType)
    assert [e.memory_space for e in t.types if isinstance(e, TileType)] == [M.Vec, M.Vec]
    assert t.types[0] == TileType(shp(16, 8), I32, M.Vec)


def test_store_returns_the_output_tensor_type() -> None:
    t = make_call("tile.store", [A, tup(0, 0), X]).type
    assert t is OPERANDS["x"]
    with pytest.raises(PlError, match="past the end of dimension 1"):
        make_call("tile.store", [A, tup(0, 64), X])


def test_inputs_are_not_mutated() -> None:
    before = A.type
    make_call("tile.adds", [A, ConstFloat(1.0)])
    assert A.type is before and A.type == OPERANDS["a"]


@pytest.mark.parametrize("name,args,kwargs,expected", [
    ("system.fence", [], {}, UnknownType()),
    ("system.bar_all", [], {}, UnknownType()),
    ("system.sync_src", [], {"set_pipe": 1, "wait_pipe": 2, "event_id": 0}, UnknownType()),
    ("system.sync_set", [], {"pipe": 1, "event_id": 3}, UnknownType()),
    ("system.tfree_to_aic", [A], {"split": 0}, UnknownType()),
    ("system.reserve_buffer", [], {"name": "buf", "size": 1024, "base": 0},
     ScalarType(DType.INT32)),
    ("system.task_invalid", [], {}, ScalarType(DType.TASK_ID)),
])
def test_system_ops(name: str, args: list[Expr], kwargs: dict[str, Any], expected: Type) -> None:
    c = make_call(name, args, kwargs)
    assert c.type == expected


def test_system_op_signature_is_checked() -> None:
    with pytest.raises(PlError, match="expects 0 positional"):
        make_call("system.fence", [A])
    with pytest.raises(PlError, match="unknown keyword argument 'pipe'"):
        make_call("system.bar_v", [], {"pipe": 1})


def test_every_registered_op_has_a_rule() -> None:
    # a deducer that raises on empty args is fine; one that returns UnknownType for a tile or
    # tensor op that is not a cross-core/alloc op means a missing rule.
    unknown_ok = {"tile.alloc", "tensor.alloc", "tile.tpush_to_aic", "tile.tpush_to_aiv",
                  "tile.tpop_from_aic", "tile.tpop_from_aiv"}
    for name, op in all_ops().items():
        if op.level == "system" or name in unknown_ok:
            continue
        try:
            t = deduce_type(op, [], {})
        except PlError:
            continue
        assert not isinstance(t, UnknownType), name


def test_deduce_type_leaves_space_to_the_resolver() -> None:
    op = get_op("tile.add")
    assert op is not None
    t = deduce_type(op, [A, A], {})
    assert isinstance(t, TileType) and t.memory_space is None


# ---- rules beyond the verified examples (ops.md 5 / 15 and the reference deducers) -----------

def _tile(name: str, args: list[Expr], kwargs: dict[str, Any] | None = None) -> TileType:
    t = make_call(name, args, kwargs or {}).type
    assert isinstance(t, TileType)
    return t


def test_load_layouts_depend_on_the_target() -> None:
    xc = Var("xc", OPERANDS["xc"])
    args = [xc, tup(0, 0), tup(16, 1), tup(16, 1)]
    # no target: the deducer keeps the default (row_major) view; inference rebuilds it later
    unplaced = _tile("tile.load", args)
    assert unplaced.memory_space is None and unplaced.view is not None
    assert unplaced.view.blayout is TileLayout.row_major
    # a Vec target with last dim 1 is col_major, i.e. the implicit view
    assert _tile("tile.load", args, {"target_memory": M.Vec}) == TileType(shp(16, 1), F32, M.Vec)
    # a DN source loads into Mat as ZN (row/col)
    dn = Var("dn", TensorType(shp(64, 32), BF16, TensorView(layout=TensorLayout.DN)))
    t = _tile("tile.load", [dn, tup(0, 0), tup(64, 32), tup(64, 32)], {"target_memory": M.Mat})
    assert t.view is not None
    assert (t.view.blayout, t.view.slayout) == (TileLayout.row_major, TileLayout.col_major)


def test_load_valid_shape_is_clipped_by_a_partial_source() -> None:
    part = Var("part", ts((16, 128), F32, valid=(16, 100)))
    t = _tile("tile.load", [part, tup(0, 64), tup(16, 64), tup(16, 64)], {"target_memory": M.Vec})
    assert t == tl((16, 64), F32, valid=(16, 36))
    with pytest.raises(PlError, match="exceeds the window extent"):
        make_call("tile.load", [X, tup(0, 0), tup(16, 64), tup(16, 128)])
    clamped = _tile("tile.load", [X, tup(8, 0), tup(16, 128), tup(16, 128)],
                    {"target_memory": M.Vec, "clamp": True})
    assert clamped == tl((16, 128), F32, valid=(8, 128))


def test_move_keeps_pad_drops_compact_and_forces_right_row_major() -> None:
    padded = Var("p", TileType(shp(16, 128), F32, M.Vec,
                               replace(implicit_tile_view(shp(16, 128), M.Vec), pad=PadValue.max)))
    t = _tile("tile.move", [padded], {"target_memory": M.Mat})
    assert t.view is not None and t.view.pad is PadValue.max
    col = Var("col", tl((64, 1), BF16, M.Mat))
    r = _tile("tile.move", [col], {"target_memory": M.Right})
    assert r.view is not None and r.view.blayout is TileLayout.row_major
    over = _tile("tile.move", [A], {"target_memory": M.Vec, "blayout": TileLayout.col_major})
    assert over.view is not None and over.view.blayout is TileLayout.col_major


@pytest.mark.parametrize("kwargs,needle", [
    ({"dtype": F32, "target_memory": M.Vec, "transpose": True}, "transpose=true only"),
    ({"dtype": F32, "target_memory": M.Vec, "flat_layout": True}, "flat_layout=true only"),
    ({"dtype": F32, "target_memory": M.LeftScale}, "LeftScale/RightScale"),
    ({"target_memory": M.Vec}, "requires the 'dtype' attribute"),
])
def test_create_rejects(kwargs: dict[str, Any], needle: str) -> None:
    with pytest.raises(PlError, match=needle):
        make_call("tile.create", [tup(16, 32)], kwargs)


def test_create_flat_layout_is_a_flat_mat_tile() -> None:
    t = _tile("tile.create", [tup(16, 32)], {"dtype": BF16, "target_memory": M.Mat,
                                            "flat_layout": True})
    assert t.memory_space is M.Mat and t.view is not None
    assert t.view.slayout is TileLayout.none_box


@pytest.mark.parametrize("name,args,needle", [
    ("tile.matmul_acc", [Var("acc", tl((32, 32), F32, M.Acc)), Var("l", OPERANDS["la"]),
                         Var("r", OPERANDS["rgt"])], "matching M dimensions"),
    ("tile.matmul_acc", [Var("acc", tl((16, 32), I32, M.Acc)), Var("l", OPERANDS["la"]),
                         Var("r", OPERANDS["rgt"])], "accumulator dtype fp32"),
    ("tile.matmul_bias", [Var("l", OPERANDS["la"]), Var("r", OPERANDS["rgt"]),
                          Var("b", tl((2, 32), F32, M.Bias))], "bias to have shape [1, N]"),
    ("tile.matmul", [Var("l", OPERANDS["la"]), Var("r", tl((64, 32), F16, M.Right))],
     "same dtype"),
    ("tile.matmul", [Var("t", OPERANDS["t3"]), Var("r", OPERANDS["rgt"])], "lhs to be 2D"),
])
def test_matmul_checks(name: str, args: list[Expr], needle: str) -> None:
    with pytest.raises(PlError, match=re.escape(needle)):
        make_call(name, args)


def test_reshape_carries_a_row_prefix_valid_region() -> None:
    rows = Var("rows", tl((16, 128), F32, valid=(8, 128)))
    assert _tile("tile.reshape", [rows, tup(32, 64)]) == tl((32, 64), F32, valid=(16, 64))


def test_slice_treats_an_empty_valid_tuple_as_absent() -> None:
    t3 = Var("t3", OPERANDS["t3"])
    t = _tile("tile.slice", [t3, tup(1, 16, 64), tup(1, 0, 0), MakeTuple(()), tup(0)])
    assert t == tl((16, 64), F32)
    x3 = Var("x3", OPERANDS["x3"])
    tt = make_call("tensor.slice", [x3, tup(1, 16, 64), tup(1, 0, 0), MakeTuple(()), tup(0)]).type
    assert tt == ts((16, 64), F32)


@pytest.mark.parametrize("name,scalar,dtype", [
    ("tensor.maximum", ConstFloat(0.5), F32),        # tensor-or-scalar rhs (reference deducer)
    ("tensor.shls", ConstInt(2, DType.INT64), I32),  # bitwise/shift scalar keeps arg0's dtype
    ("tensor.subs", ConstInt(1, DType.INT16), I32),  # tensor.subs keeps arg0's dtype
    ("tensor.muls", ConstFloat(2.0), F32),           # other scalar ops promote
])
def test_tensor_scalar_dtypes(name: str, scalar: Expr, dtype: DType) -> None:
    xi = Var("xi", OPERANDS["xi"])
    t = make_call(name, [xi, scalar]).type
    assert isinstance(t, TensorType) and t.dtype is dtype and t.shape == shp(16, 128)
