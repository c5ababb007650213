"""The scalar operators are one table (pl/ir/operators.py), one promotion rule, and the type check
covers them.

- every operator's `python` is what Python computes for its spelling, its symbol reads back to it
  (`written_operator`), and the printer prints every one with its precedence;
- `promote` is the reference's PromoteDataTypes: a signed integer beats an unsigned one of its
  width on either side; kernel arithmetic, `pl.max` and a tile op's type rule all promote alike
  (kernel text `u + i` with UINT32 u and INT32 i was UINT32, `i + u` INT32);
- `pl.typecheck.verify_well_typed` rejects a BinaryExpr / UnaryExpr whose stored dtype is not its
  operator's, or whose operand is not a scalar.
"""

from __future__ import annotations

import libcst as cst
import pytest

from pl.errors import PlError
from pl.ir import AssignStmt, DType, Function, FunctionType, Program, ReturnStmt, ScalarType, Var
from pl.ir.enums import MemorySpace
from pl.ir.expr import BinaryExpr, ConstInt, UnaryExpr
from pl.ir.operators import ATOM, BinaryOp, Kind, UnaryOp, promote
from pl.ir.stmt import make_body
from pl.ir.types import TileType
from pl.lowering.frontend.op_builders import build_call
from pl.lowering.frontend.parse import parse
from pl.lowering.source.static_eval import written_operator
from pl.ops.rules.util import promote as promote_ops
from pl.printer.program import print_expr
from pl.typecheck import verify_well_typed

INTS = [d for d in DType if d.is_int() and d is not DType.BOOL]


@pytest.mark.parametrize("op", list(BinaryOp), ids=lambda o: o.name)
def test_binary_operator_record(op: BinaryOp) -> None:
    a, b = 7, 3
    if op.precedence == ATOM:  # printed as a call: pl.min, pl.max, pl.xor
        assert op.symbol in ("min", "max", "xor")
        assert op.python(a, b) == ({"min": min, "max": max}[op.symbol](a, b) if op.symbol != "xor"
                                   else bool(a) != bool(b))
    else:
        want = eval(f"a {op.symbol} b")  # noqa: S307 - the table against Python
        assert op.python(a, b) == (bool(want) if op.kind is Kind.LOGICAL else want)
        node = cst.parse_expression(f"a {op.symbol} b")
        operator = node.comparisons[0].operator if isinstance(node, cst.Comparison) else node.operator
        assert written_operator(operator) is op
    x = Var("x", ScalarType(DType.INDEX))
    text = print_expr(BinaryExpr(op, x, x, op.result_dtype(DType.INDEX, DType.INDEX)))
    assert text.startswith("pl.") if op.precedence == ATOM else f" {op.symbol} " in text


@pytest.mark.parametrize("op", list(UnaryOp), ids=lambda o: o.name)
def test_unary_operator_prints(op: UnaryOp) -> None:
    x = Var("x", ScalarType(DType.INDEX))
    assert op.symbol.strip() in print_expr(UnaryExpr(op, x, op.result_dtype(DType.INDEX, DType.INDEX)))


def test_augmented_assignment_reads_its_operator() -> None:
    assert written_operator(cst.AddAssign()) is BinaryOp.Add
    assert written_operator(cst.FloorDivideAssign()) is BinaryOp.FloorDiv
    assert written_operator(cst.MatrixMultiply()) is None


@pytest.mark.parametrize("a", INTS, ids=str)
@pytest.mark.parametrize("b", INTS, ids=str)
def test_promotion_is_symmetric_and_signed_wins_at_equal_width(a: DType, b: DType) -> None:
    p, q = promote(a, b), promote(b, a)
    assert p.bits == q.bits == max(a.bits, b.bits)
    if a.bits == b.bits and a.is_signed_int() != b.is_signed_int():
        assert p is q and p.is_signed_int()
    assert promote_ops(a, b) is p


HEAD = "import pl\n\n\n@pl.program\nclass K:\n"


@pytest.mark.parametrize("expr", ["u + i", "i + u", "pl.max(u, i)", "pl.max(i, u)"])
def test_kernel_arithmetic_promotes_by_the_one_rule(expr: str) -> None:
    p = parse(HEAD + f"""
    @pl.function
    def k(self, u: pl.Scalar[pl.UINT32], i: pl.Scalar[pl.INT32]) -> pl.Scalar[pl.INT32]:
        a = {expr}
        return a
""")
    assert isinstance(p, Program)
    first = p.functions[0].body
    stmt = first.stmts[0] if hasattr(first, "stmts") else first
    assert isinstance(stmt, AssignStmt) and isinstance(stmt.value, BinaryExpr)
    assert stmt.value.dtype is DType.INT32
    tiles = [Var(n, TileType((ConstInt(16), ConstInt(16)), d, MemorySpace.Vec))
             for n, d in (("tu", DType.UINT32), ("ti", DType.INT32))]
    assert build_call("pl.tile.add", tiles, {}, stmt.value.span).type.dtype is DType.INT32  # type: ignore[attr-defined]


def _function(value: BinaryExpr | UnaryExpr) -> Program:
    r = Var("r", value.type)
    f = Function("k", (), (), (value.type,), make_body([AssignStmt(r, value), ReturnStmt((r,))]),
                 FunctionType.Opaque)
    return Program("P", (f,))


@pytest.mark.parametrize(("value", "says"), [
    (BinaryExpr(BinaryOp.Lt, ConstInt(1), ConstInt(2), DType.INDEX), "'<' of INDEX and INDEX gives BOOL"),
    (BinaryExpr(BinaryOp.Add, ConstInt(1, DType.INT32), ConstInt(2, DType.INT32), DType.FP32),
     "'+' of INT32 and INT32 gives INT32, but the expression stores FP32"),
    (BinaryExpr(BinaryOp.Add, ConstInt(1, DType.UINT32), ConstInt(2, DType.INT32), DType.UINT32),
     "gives INT32"),
    (UnaryExpr(UnaryOp.Not, ConstInt(1), DType.INDEX), "gives BOOL"),
    (UnaryExpr(UnaryOp.Neg, ConstInt(1, DType.INT8), DType.INT32), "gives INT8"),
    (BinaryExpr(BinaryOp.Add, Var("t", TileType((ConstInt(16), ConstInt(16)), DType.FP32, None)),
                ConstInt(1), DType.INDEX), "takes scalars"),
], ids=lambda v: v if isinstance(v, str) else "")
def test_type_check_covers_scalar_operators(value: BinaryExpr | UnaryExpr, says: str) -> None:
    errors = verify_well_typed(_function(value))
    assert len(errors) == 1 and says in errors[0].message and isinstance(errors[0], PlError)


@pytest.mark.parametrize("value", [
    BinaryExpr(BinaryOp.Lt, ConstInt(1), ConstInt(2), DType.BOOL),
    BinaryExpr(BinaryOp.Add, ConstInt(1, DType.INT64), ConstInt(2), DType.INDEX),
    BinaryExpr(BinaryOp.FloatDiv, ConstInt(1), ConstInt(2), DType.FP32),  # pl.div of integers
    UnaryExpr(UnaryOp.Cast, ConstInt(1), DType.FP16),
])
def test_type_check_accepts_well_typed_operators(value: BinaryExpr | UnaryExpr) -> None:
    assert verify_well_typed(_function(value)) == []


def test_every_kind_has_operators() -> None:
    assert {op.kind for op in BinaryOp} == set(Kind)
