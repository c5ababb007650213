"""DSL op spellings (pl/language/dsl_ops.py) and the builders that turn them into IR calls (lowering/op_builders)."""

from __future__ import annotations

from typing import Any

import pytest

import pl
import pl.distributed as pld
from pl.errors import PlError
from pl.ir.enums import DType, MemorySpace, PadValue, TensorLayout
from pl.ir.expr import BinaryExpr, Call, ConstBool, ConstFloat, ConstInt, Expr, MakeTuple, UnaryExpr, Var
from pl.ir.operators import BinaryOp, UnaryOp
from pl.ir.span import Span
from pl.ir.types import ScalarType, TensorType, TileType
from pl.language.dsl_ops import canonical_spelling, op_object, spelling_index
from pl.lowering.frontend.op_builders import build_call
from pl.ops.registry import all_ops, get_op


def _i(*vals: int) -> tuple[ConstInt, ...]:
    return tuple(ConstInt(v) for v in vals)


def _tile(name: str, shape: tuple[int, ...], dt: DType, space: MemorySpace | None = MemorySpace.Vec) -> Var:
    return Var(name, TileType(_i(*shape), dt, space))


a = _tile("a", (16, 128), DType.FP32)
b = _tile("b", (16, 128), DType.FP32)
h = _tile("h", (16, 128), DType.FP16)
col = _tile("col", (16, 1), DType.FP32)
ia = _tile("ia", (16, 128), DType.INT32)  # bitwise and shift ops need integer tiles
ib = _tile("ib", (16, 128), DType.INT32)
i16 = _tile("i16", (16, 128), DType.INT16)  # tile.not takes INT16/UINT16 only
ma = _tile("ma", (16, 64), DType.BF16, MemorySpace.Mat)
la = _tile("la", (16, 64), DType.BF16, MemorySpace.Left)
rb = _tile("rb", (64, 32), DType.BF16, MemorySpace.Right)
acc = _tile("acc", (16, 32), DType.FP32, MemorySpace.Acc)
x = Var("x", TensorType(_i(16, 128), DType.FP32))
y = Var("y", TensorType(_i(128, 64), DType.FP32))
xi = Var("xi", TensorType(_i(16, 128), DType.INT32))
yt = Var("yt", TensorType(_i(64, 128), DType.FP32))  # b_trans=True: [16, 128] x [64, 128]^T
s = Var("s", ScalarType(DType.FP32))
n = Var("n", ScalarType(DType.INDEX))
k = Var("k", ScalarType(DType.INT32))
flag = Var("flag", ScalarType(DType.BOOL))
Z = ConstInt(0)
OFF = MakeTuple(_i(0, 0))
SHP = MakeTuple(_i(16, 128))
VALID = MakeTuple(_i(8, 100))
SPAN = Span("kernel.py", 7, 9, 7, 20)
Vec, Mat, Left = MemorySpace.Vec, MemorySpace.Mat, MemorySpace.Left

# (spelling, args, kwargs) -> (IR op, positional args, kwargs as stored). Expected values follow
# dsl.md 1.7 / ops.md 11 / the reference wrappers, not this implementation's output.
CASES: list[tuple[str, tuple[Any, ...], dict[str, Any], str, tuple[Any, ...], tuple[tuple[str, Any], ...]]] = [
    # unified dispatch on the first operand
    ("pl.add", (a, b), {}, "tile.add", (a, b), ()),
    ("pl.add", (a, s), {}, "tile.adds", (a, s), ()),
    ("pl.add", (a, ConstFloat(2.0)), {}, "tile.adds", (a, ConstFloat(2.0)), ()),
    ("pl.add", (x, x), {}, "tensor.add", (x, x), ()),
    ("pl.add", (x, s), {}, "tensor.adds", (x, s), ()),
    ("pl.sub", (a, s), {}, "tile.subs", (a, s), ()),
    ("pl.mul", (a, n), {}, "tile.muls", (a, n), ()),
    ("pl.div", (a, b), {}, "tile.div", (a, b), ()),
    ("pl.div", (a, s), {}, "tile.divs", (a, s), ()),
    ("pl.maximum", (a, s), {}, "tile.maximums", (a, s), ()),
    ("pl.minimum", (x, s), {}, "tensor.minimum", (x, s), ()),  # no tensor.minimums: ops.tsv
    ("pl.fmod", (a, s), {}, "tile.fmods", (a, s), ()),
    ("pl.shl", (ia, k), {}, "tile.shls", (ia, k), ()),
    ("pl.shr", (xi, k), {}, "tensor.shrs", (xi, k), ()),
    ("pl.and_", (ia, ib), {}, "tile.and", (ia, ib), ()),
    ("pl.and_", (ia, k), {}, "tile.ands", (ia, k), ()),
    ("pl.or_", (ia, k), {}, "tile.ors", (ia, k), ()),
    ("pl.not_", (i16,), {}, "tile.not", (i16,), ()),
    ("pl.xor", (ia, ib, ia), {}, "tile.xor", (ia, ib, ia), ()),
    ("pl.xor", (ia, k, ib), {}, "tile.xors", (ia, k, ib), ()),
    ("pl.exp", (x,), {}, "tensor.exp", (x,), ()),
    ("pl.exp", (a,), {}, "tile.exp", (a,), ()),
    ("pl.tile.add", (a, s), {}, "tile.adds", (a, s), ()),
    ("pl.tile.mul", (a, b), {}, "tile.mul", (a, b), ()),
    ("pl.tile.and_", (ia, ib), {}, "tile.and", (ia, ib), ()),
    ("pl.tensor.add", (x, s), {}, "tensor.adds", (x, s), ()),
    ("pl.tensor.adds", (x, s), {}, "tensor.adds", (x, s), ()),
    ("pl.cmp", (a, b), {}, "tile.cmp", (a, b), (("cmp_type", 0),)),
    ("pl.cmp", (a, s), {"cmp_type": 2}, "tile.cmps", (a, s), (("cmp_type", 2),)),
    # memory ops and their always-emitted defaults
    ("pl.load", (x, OFF, SHP), {}, "tile.load", (x, OFF, SHP, SHP), (("target_memory", Vec),)),
    ("pl.load", (x, OFF, SHP, VALID), {"target_memory": Mat}, "tile.load", (x, OFF, SHP, VALID),
     (("target_memory", Mat),)),
    ("pl.load", (x, [0, 0], [16, 128]), {"valid_shape": [8, 100]}, "tile.load", (x, OFF, SHP, VALID),
     (("target_memory", Vec),)),
    ("pl.tile.load", (x, OFF, SHP, SHP), {"target_memory": Vec}, "tile.load", (x, OFF, SHP, SHP),
     (("target_memory", Vec),)),
    ("pl.store", (a, OFF, x), {}, "tile.store", (a, OFF, x), ()),
    ("pl.move", (ma,), {"target_memory": Left}, "tile.move", (ma,), (("target_memory", Left),)),
    ("pl.create_tile", (SHP,), {"dtype": DType.FP32}, "tile.create", (SHP,),
     (("dtype", DType.FP32), ("target_memory", Vec))),
    ("pl.tile.create", (SHP,), {"dtype": DType.FP32, "target_memory": MemorySpace.Acc}, "tile.create",
     (SHP,), (("dtype", DType.FP32), ("target_memory", MemorySpace.Acc))),
    ("pl.create_tensor", ([64, 64],), {"dtype": DType.FP32}, "tensor.create", (MakeTuple(_i(64, 64)),),
     (("dtype", DType.FP32), ("layout", TensorLayout.ND))),
    ("pl.tensor.create", (SHP,), {"dtype": DType.FP16}, "tensor.create", (SHP,),
     (("dtype", DType.FP16), ("layout", TensorLayout.ND))),
    # cast: positional dtype or target_type=, mode 'round' = 2 added
    ("pl.cast", (a, DType.FP16), {}, "tile.cast", (a,), (("target_type", DType.FP16), ("mode", 2))),
    ("pl.cast", (x,), {"target_type": DType.BF16}, "tensor.cast", (x,),
     (("target_type", DType.BF16), ("mode", 2))),
    ("pl.cast", (a,), {"target_type": DType.FP16, "mode": "floor"}, "tile.cast", (a,),
     (("target_type", DType.FP16), ("mode", 3))),
    ("pl.tile.cast", (a,), {"target_type": DType.FP16, "mode": ConstInt(2)}, "tile.cast", (a,),
     (("target_type", DType.FP16), ("mode", 2))),
    # matmul family
    ("pl.matmul", (la, rb), {}, "tile.matmul", (la, rb), ()),
    ("pl.matmul", (x, y), {}, "tensor.matmul", (x, y),
     (("a_trans", False), ("b_trans", False), ("c_matrix_nz", False))),
    ("pl.matmul", (x, yt), {"out_dtype": DType.BF16, "b_trans": ConstBool(True)}, "tensor.matmul", (x, yt),
     (("out_dtype", DType.BF16), ("a_trans", False), ("b_trans", True), ("c_matrix_nz", False))),
    ("pl.matmul", (la, rb), {"a_trans": False}, "tile.matmul", (la, rb), ()),
    ("pl.matmul_acc", (acc, la, rb), {}, "tile.matmul_acc", (acc, la, rb), ()),
    ("pl.matmul_acc", (acc, la, rb), {"init_cond": flag}, "tile.matmul_acc", (acc, la, rb, flag), ()),
    # slice / assemble / fillpad / reductions
    ("pl.slice", (a, [8, 64], [0, 64]), {}, "tile.slice", (a, MakeTuple(_i(8, 64)), MakeTuple(_i(0, 64))), ()),
    ("pl.slice", (x, [8, 64], [0, 64]), {}, "tensor.slice", (x, MakeTuple(_i(8, 64)), MakeTuple(_i(0, 64))),
     ()),
    ("pl.slice", (x, [8, 64], [0, 64]), {"pad_value": PadValue.max}, "tensor.slice",
     (x, MakeTuple(_i(8, 64)), MakeTuple(_i(0, 64))), (("pad_value", PadValue.max),)),
    ("pl.assemble", (x, a, OFF), {}, "tensor.assemble", (x, a, OFF), ()),
    ("pl.assemble", (a, b, OFF), {}, "tile.assemble", (a, b, OFF), ()),
    ("pl.fillpad", (a,), {}, "tile.fillpad", (a,), (("pad_value", PadValue.zero),)),
    ("pl.fillpad", (x,), {"pad_value": PadValue.min}, "tensor.fillpad", (x,), (("pad_value", PadValue.min),)),
    ("pl.fillpad", (a, ConstInt(0)), {}, "tile.fillpad", (a,), (("pad_value", PadValue.zero),)),
    ("pl.row_max", (a, b), {}, "tile.row_max", (a, b), ()),
    ("pl.row_sum", (a,), {"tmp_tile": b}, "tile.row_sum", (a, b), ()),
    ("pl.row_sum", (x,), {}, "tensor.row_sum", (x,), ()),
    ("pl.col_sum", (a,), {}, "tile.col_sum", (a,), ()),
    ("pl.row_expand_mul", (a, col), {}, "tile.row_expand_mul", (a, col), ()),
    # tensor-only / tile-only promoted names and renames
    ("pl.full", ([16, 128], ConstFloat(0.0)), {"dtype": DType.FP32}, "tensor.full",
     (SHP, ConstFloat(0.0)), (("dtype", DType.FP32),)),
    ("pl.dim", (x, ConstInt(1)), {}, "tensor.dim", (x, ConstInt(1)), ()),
    ("pl.arange", (Z, [1, 16]), {}, "tensor.ci", (Z, MakeTuple(_i(1, 16))), ()),
    ("pl.read", (a, OFF), {}, "tile.read", (a, OFF), ()),
    ("pl.write", (x, OFF, s), {}, "tensor.write", (x, OFF, s), ()),
    ("pl.mrgsort", (a,), {"block_len": ConstInt(64)}, "tile.mrgsort_format1", (a, ConstInt(64)), ()),
    ("pl.tile.mrgsort", (a, b, h), {}, "tile.mrgsort_format2", (a, b, h), ()),
    ("pl.tile.mrgsort_format1", (a, ConstInt(64)), {}, "tile.mrgsort_format1", (a, ConstInt(64)), ()),
    ("pl.system.tpush_to_aiv", (a,), {"split": 0}, "tile.tpush_to_aiv", (a,), (("split", 0),)),
    ("pl.tile.aiv_shard", (a,), {"split": ConstInt(1)}, "tile.aiv_shard", (a,), (("split", 1),)),
    # keyword spellings of positional parameters; a skipped optional tuple slot becomes []
    ("pl.tile.full", ([16, 128],), {"dtype": DType.FP32, "value": ConstFloat(0.0)}, "tile.full",
     (SHP, ConstFloat(0.0)), (("dtype", DType.FP32),)),
    ("pl.slice", (x, [1, 128], [0, 0]), {"drop_dims": [0]}, "tensor.slice",
     (x, MakeTuple(_i(1, 128)), OFF, MakeTuple(()), MakeTuple(_i(0))), ()),
    # a memory space spelled as its integer (dsl.md 1.8: MemorySpace -> ConstInt)
    ("pl.move", (ma,), {"target_memory": ConstInt(3)}, "tile.move", (ma,), (("target_memory", Left),)),
]


@pytest.mark.parametrize(("spelling", "args", "kwargs", "op", "exp_args", "exp_kwargs"), CASES,
                         ids=[f"{c[0]}->{c[3]}#{i}" for i, c in enumerate(CASES)])
def test_build_call(spelling: str, args: tuple[Any, ...], kwargs: dict[str, Any], op: str,
                    exp_args: tuple[Any, ...], exp_kwargs: tuple[tuple[str, Any], ...]) -> None:
    call = build_call(spelling, args, kwargs, SPAN)
    assert isinstance(call, Call)
    assert call.op_name == op
    assert call.args == exp_args
    assert dict(call.kwargs) == dict(exp_kwargs)
    assert [kv[0] for kv in call.kwargs] == sorted((kv[0] for kv in call.kwargs),
                                                   key=[s.name for s in get_op(op).kwargs].index)  # type: ignore[union-attr]
    assert call.span == SPAN


@pytest.mark.parametrize("case", CASES, ids=[f"{c[0]}#{i}" for i, c in enumerate(CASES)])
def test_canonical_spelling_round_trips(case: Any) -> None:
    """The printer's form (`pl.<op>` + every argument explicit) builds back the same Call."""
    call = build_call(case[0], case[1], case[2], SPAN)
    assert isinstance(call, Call)
    again = build_call(canonical_spelling(call.op_name), call.args, dict(call.kwargs), SPAN)
    assert again == call


SCALAR_CASES = [
    ("pl.min", (n, ConstInt(4)), "Min", DType.INDEX),
    ("pl.max", (s, k), "Max", DType.FP32),
    ("pl.tile.max", (n, n), "Max", DType.INDEX),
    ("pl.add", (n, ConstInt(1)), "Add", DType.INDEX),
    ("pl.mul", (k, s), "Mul", DType.FP32),
    ("pl.div", (s, s), "FloatDiv", DType.FP32),
]


@pytest.mark.parametrize(("spelling", "args", "op", "dtype"), SCALAR_CASES)
def test_scalar_forms(spelling: str, args: tuple[Expr, Expr], op: str, dtype: DType) -> None:
    e = build_call(spelling, args, {}, SPAN)
    assert e == BinaryExpr(BinaryOp[op], args[0], args[1], dtype)


def test_scalar_cast_is_unary_cast() -> None:
    e = build_call("pl.cast", (n, DType.INT32), {}, SPAN)
    assert e == UnaryExpr(UnaryOp.Cast, n, DType.INT32)


ERROR_CASES: list[tuple[str, tuple[Any, ...], dict[str, Any], str]] = [
    ("pl.add", (x, a), {}, "pl.add: cannot mix Tensor and Tile arguments (Tensor, Tile). All operands must "
     "be the same type level — either all Tensor or all Tile"),
    ("pl.matmul", (a, y), {}, "cannot mix Tensor and Tile arguments (Tile, Tensor)"),
    ("pl.frobnicate", (a,), {}, "Unknown operation 'pl.frobnicate'"),
    ("pl.tile.frobnicate", (a,), {}, "Unknown operation 'pl.tile.frobnicate'"),
    ("pl.add", (a,), {}, "expects 2 positional argument(s), got 1"),
    ("pl.exp", (a, b), {}, "expects 1 positional argument(s), got 2"),
    ("pl.load", (x, OFF), {}, "expects 3 to 4 positional argument(s), got 2"),
    ("pl.load", (x, OFF, SHP), {"target_memory": Left}, "target_memory must be"),
    ("pl.load", (x, OFF, SHP), {"bogus": 1}, "unknown keyword argument 'bogus'"),
    ("pl.move", (a,), {}, "missing required keyword argument 'target_memory'"),
    ("pl.row_max", (a,), {}, "expects 2 positional argument(s), got 1"),
    ("pl.cast", (a,), {"target_type": DType.FP16, "mode": "sideways"}, "invalid mode 'sideways'"),
    ("pl.matmul", (la, rb), {"b_trans": True}, "'b_trans' is not supported for Tile operands"),
    ("pl.fillpad", (a,), {"pad_value": ConstFloat(3.0)}, "pad_value must be"),
    ("pl.add", (a, b), {"pad_value": PadValue.zero}, "unknown keyword argument 'pad_value'"),
    ("pl.load", (x, OFF, SHP), {"offsets": OFF}, "multiple values for argument 'offsets'"),
    ("pl.min", (a, b), {}, "expected scalar operands"),
]


@pytest.mark.parametrize(("spelling", "args", "kwargs", "message"), ERROR_CASES,
                         ids=[f"{c[0]}#{i}" for i, c in enumerate(ERROR_CASES)])
def test_errors(spelling: str, args: tuple[Any, ...], kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(PlError) as info:
        build_call(spelling, args, kwargs, SPAN)
    assert message in info.value.message
    assert info.value.span == SPAN


def test_unknown_kwarg_lists_accepted() -> None:
    with pytest.raises(PlError) as info:
        build_call("pl.load", (x, OFF, SHP), {"target": Vec}, SPAN)
    assert "target_memory" in (info.value.hint or "")


def test_arity_error_gives_signature() -> None:
    with pytest.raises(PlError) as info:
        build_call("pl.tile.load", (x,), {}, SPAN)
    assert info.value.hint == "Signature: pl.tile.load(tensor, offsets, shapes[, valid_shape], target_memory=, clamp=)"


def test_every_registry_spelling_is_exposed() -> None:
    """Each spelling of ops.tsv (and each canonical printed name) is an object mapping to real ops."""
    index = spelling_index()
    ops = all_ops()
    for name in ops:
        assert name in index[canonical_spelling(name)]
    for spelling, targets in index.items():
        if spelling.startswith("pld."):  # the distributed module's: `import pl.distributed as pld`
            obj = pld
            for part in spelling.split(".")[1:]:
                obj = getattr(obj, part)
        else:
            obj = op_object(spelling)
        assert obj is not None, spelling
        if spelling.count(".") == 1 and spelling.startswith("pl."):
            assert getattr(pl, spelling.split(".")[1]) is obj, spelling
        assert obj.__pl_op__ == spelling
        assert targets and all(t in ops for t in targets), spelling
        for t in targets:
            assert t in (obj.__doc__ or "")


@pytest.mark.parametrize("spelling", ["pl.load", "pl.store", "pl.move", "pl.create_tile", "pl.matmul_acc",
                                      "pl.create_tensor", "pl.full", "pl.dim", "pl.min", "pl.max",
                                      "pl.and_", "pl.or_", "pl.not_", "pl.tile.and_", "pl.tile.max",
                                      "pl.system.tpush_to_aiv", "pl.tensor.create_tensor"])
def test_promoted_names_exist(spelling: str) -> None:
    ns: Any = pl
    for part in spelling.split(".")[1:]:
        ns = getattr(ns, part)
    assert ns.__pl_op__ == spelling
    with pytest.raises(PlError, match="only be used inside"):
        ns()


def test_star_export_matches_all() -> None:
    import pl.language.dsl_ops as dsl_ops

    assert {"add", "load", "tile", "tensor", "system", "min", "and_"} <= set(dsl_ops.__all__)
    assert "range" not in dsl_ops.__all__ and "program" not in dsl_ops.__all__
    face: Any = pl
    assert isinstance(face.tile, dsl_ops.OpNamespace)
    with pytest.raises(AttributeError, match="Unknown operation 'pl.tile.nope'"):
        _ = face.tile.nope


def test_python_literals_become_constants() -> None:
    call = build_call("pl.tile.adds", (a, 2), {}, SPAN)
    assert isinstance(call, Call)
    assert call.args == (a, ConstInt(2))
    call = build_call("pl.add", (a, 1.5), {}, SPAN)
    assert isinstance(call, Call) and call.op_name == "tile.adds"


def test_tpop_shape_dtype_give_the_result_type() -> None:
    call = build_call("pl.system.tpop_from_aic", (), {"shape": [16, 128], "dtype": DType.FP32}, SPAN)
    assert isinstance(call, Call)
    assert call.op_name == "tile.tpop_from_aic"
    assert call.kwargs == ()
    assert call.type == TileType(_i(16, 128), DType.FP32, MemorySpace.Vec)
    call = build_call("pl.tpop_from_aiv", (), {"shape": [64, 32], "dtype": DType.BF16, "split": 0}, SPAN)
    assert isinstance(call, Call)
    assert call.type == TileType(_i(64, 32), DType.BF16, MemorySpace.Mat)
    assert dict(call.kwargs) == {"split": 0}


def test_an_omitted_slot_is_left_out_and_later_ones_move_up() -> None:
    """tile.mgather's scratch is `?=omitted` in ops.tsv: a row-mode call that names valid_shape
    but no scratch builds (mem, idx, valid_shape), as the reference's builder does."""
    mem = Var("mem", TensorType(_i(64, 32), DType.FP32))
    idx = _tile("idx", (16, 1), DType.INT32)
    call = build_call("pl.tile.mgather", [mem, idx], {"valid_shape": [16, 32]}, Span("t.py", 1, 0))
    assert isinstance(call, Call) and len(call.args) == 3
    assert isinstance(call.args[2], MakeTuple)
