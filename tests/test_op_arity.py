"""Op calls take their positional arguments as the reference's wrappers do.

Every op spelling refuses one positional argument too many, with a located arity error.

The sweep goes over every registered op and every DSL spelling that may build it (pl/language/dsl_ops.py's
`spelling_index`): a call with as many positional arguments as the spelling takes
(`positional_limit`) plus one must raise a PlError at the call naming the arity, never build a
Call that quietly takes the surplus argument for a keyword parameter (the row_sum-with-three-
arguments bug: `pl.row_sum(acc, c_n, [0, n])` became `tensor.row_sum(acc, axis=c_n, ...)`).
The limits themselves are checked on a table of reference wrapper signatures, and positionals
bind by the wrapper's parameter order where it differs from the IR op's (`pl.matmul_acc(acc, lhs,
rhs, a_trans, b_trans)`, `pl.full(shape, dtype, value)`).
"""

from __future__ import annotations

import re

import pytest

from pl.errors import PlError
from pl.ir.enums import DType, MemorySpace
from pl.ir.expr import Call, ConstBool, ConstInt, Expr, MakeTuple, Var
from pl.ir.span import Span
from pl.ir.types import TensorType, TileType
from pl.language.dsl_ops import SCALAR_ONLY_SPELLINGS, spelling_index
from pl.lowering.frontend.op_args import positional_limit
from pl.lowering.frontend.op_builders import build_call
from pl.ops.registry import OpDef, all_ops, get_op

SPAN = Span("kernel.py", 3, 5, 3, 30)
_SHAPE = (ConstInt(16), ConstInt(128))
_TILE = Var("t", TileType(_SHAPE, DType.FP32, MemorySpace.Vec))
_TENSOR = Var("x", TensorType(_SHAPE, DType.FP32))
_ARITY = re.compile(r"expects [\d to]+ positional argument\(s\), got (\d+)")


def _operand(op: OpDef, index: int) -> Expr:
    kind = op.args[index].kind if index < len(op.args) else "any"
    if kind == "tile" or (kind not in ("tensor", "scalar", "tuple") and index == 0 and op.level == "tile"):
        return _TILE
    if kind == "tensor" or (kind == "any" and index == 0 and op.level == "tensor"):
        return _TENSOR
    return ConstInt(0)


def _cases() -> list[tuple[str, str]]:
    return [(spelling, name) for spelling, names in sorted(spelling_index().items())
            if spelling not in SCALAR_ONLY_SPELLINGS for name in names]


@pytest.mark.parametrize(("spelling", "op_name"), _cases())
def test_one_positional_argument_too_many_is_a_located_error(spelling: str, op_name: str) -> None:
    op = get_op(op_name)
    assert op is not None
    # A spelling that dispatches among several ops (pl.mrgsort by argument count, pl.scatter by
    # keyword) takes at most what its most generous op takes.
    count = max(positional_limit(spelling, get_op(n) or op) for n in spelling_index()[spelling]) + 1
    args = [_operand(op, i) for i in range(count)]
    with pytest.raises(PlError) as info:
        build_call(spelling, args, {}, SPAN)
    m = _ARITY.search(info.value.message)
    assert m is not None, info.value.message
    assert int(m.group(1)) == count
    assert info.value.span == SPAN


def test_the_sweep_covers_every_registered_op() -> None:
    built = {name for _, name in _cases()}
    assert built == set(all_ops())


# (spelling, IR op, positional arguments the reference's wrapper takes): measured on the
# reference's pypto.language.op signatures, independent of dsl_positional.tsv's parsing.
_LIMITS = [
    ("pl.row_sum", "tensor.row_sum", 2),      # unified (input, tmp_tile); a tensor's tmp_tile is refused
    ("pl.row_sum", "tile.row_sum", 2),
    ("pl.tensor.row_sum", "tensor.row_sum", 1),
    ("pl.cast", "tensor.cast", 3),            # (input, target_type, mode)
    ("pl.assemble", "tensor.assemble", 3),    # atomic is keyword-only
    ("pl.assemble", "tile.assemble", 3),
    ("pl.store", "tile.store", 4),            # (tile, offsets, output_tensor, shapes), atomic kw-only
    ("pl.exp", "tile.exp", 1),
    ("pl.tensor.create", "tensor.create", 5),
]


@pytest.mark.parametrize(("spelling", "op_name", "limit"), _LIMITS)
def test_positional_limit_follows_the_reference_wrapper(spelling: str, op_name: str, limit: int) -> None:
    op = get_op(op_name)
    assert op is not None
    assert positional_limit(spelling, op) == limit


_ACC = Var("acc", TensorType(_SHAPE[:1] + (ConstInt(32),), DType.FP32))
_LHS = Var("lhs", TensorType(_SHAPE[:1] + (ConstInt(64),), DType.BF16))
_RHS = Var("rhs", TensorType((ConstInt(32), ConstInt(64)), DType.BF16))
_T, _F = ConstBool(True), ConstBool(False)

# (spelling, positional args, keyword args the same call spells out by name)
_BY_NAME = [
    ("pl.matmul_acc", (_ACC, _LHS, _RHS, _F, _T), {"a_trans": _F, "b_trans": _T}),
    ("pl.matmul_acc", (_ACC, _LHS, _RHS, _T), {"a_trans": _T}),
    ("pl.tensor.matmul_acc", (_ACC, _LHS, _RHS, _F, _T), {"a_trans": _F, "b_trans": _T}),
    ("pl.full", (MakeTuple((ConstInt(4), ConstInt(8))), DType.FP16, ConstInt(0)),
     {"dtype": DType.FP16, "value": ConstInt(0)}),
    ("pl.tensor.reinterpret_view", (_TENSOR, DType.BF16), {"dtype": DType.BF16}),
    ("pl.cast", (_TENSOR, DType.BF16, "floor"), {"target_type": DType.BF16, "mode": "floor"}),
]


@pytest.mark.parametrize(("spelling", "args", "named"), _BY_NAME)
def test_positionals_bind_as_the_reference_wrapper_binds_them(
        spelling: str, args: tuple[object, ...], named: dict[str, object]) -> None:
    positional = build_call(spelling, args, {}, SPAN)
    n = len(args) - len(named)
    spelled = build_call(spelling, args[:n], named, SPAN)
    assert isinstance(positional, Call) and isinstance(spelled, Call)
    assert positional.op.name == spelled.op.name
    assert positional.args == spelled.args
    assert positional.kwargs == spelled.kwargs


def test_a_wrapper_parameter_the_op_has_no_place_for_is_an_error() -> None:
    # the reference's pl.row_sum takes tmp_tile for tiles and refuses one for tensors
    with pytest.raises(PlError) as info:
        build_call("pl.row_sum", (_TENSOR, _TENSOR), {}, SPAN)
    assert "tmp_tile" in info.value.message and info.value.span == SPAN
