"""SSA conversion renames the Vars that types mention (lowering/ssa/support.py's Substituter), and a
type says itself whether it holds only constants (`Type.all_constant`, pl/ir/types.py).

- `all_constant` is False as soon as any expression a type holds is not an integer constant: a
  dim, a view's valid shape, stride or start offset, a tensor view's stride or valid shape, any
  element of a tuple type; True for scalar and unknown types and fully static shaped types;
- after `convert_to_ssa`, every Var a type mentions (a Var's type, a call's result type, a
  parameter's type) is a Var the converted function defines: no pre-SSA Var survives in a type.
"""

from __future__ import annotations

import textwrap

import pytest

from pl.ir.enums import DType
from pl.ir.expr import ConstInt, Expr, Var
from pl.ir.function import Function, Program
from pl.ir.stmt import AssignStmt, ForStmt, IfStmt, WhileStmt
from pl.ir.traverse import expr_children, stmt_exprs, type_exprs, walk_exprs, walk_stmts
from pl.ir.types import ScalarType, TensorType, TensorView, TileType, TileView, TupleType, Type, UnknownType
from pl.lowering.frontend.parse import parse
from pl.lowering.ssa.convert import convert_to_ssa

N = Var("n", ScalarType(DType.INDEX))


def c(*values: int) -> tuple[Expr, ...]:
    return tuple(ConstInt(v) for v in values)


@pytest.mark.parametrize("t", [
    ScalarType(DType.FP32),
    UnknownType(),
    TileType(c(64, 64), DType.FP32),
    TileType(c(64, 64), DType.FP32, view=TileView(valid_shape=c(32, 64), stride=c(64, 1),
                                                  start_offset=ConstInt(0))),
    TensorType(c(16, 128), DType.BF16, TensorView(stride=c(128, 1), valid_shape=c(16, 64))),
    TupleType((TileType(c(8), DType.FP16), ScalarType(DType.INDEX))),
])
def test_static_types_hold_only_constants(t: Type) -> None:
    assert t.all_constant


@pytest.mark.parametrize("t", [
    TileType((N, ConstInt(64)), DType.FP32),
    TileType(c(64, 64), DType.FP32, view=TileView(valid_shape=(ConstInt(64), N))),
    TileType(c(64, 64), DType.FP32, view=TileView(stride=(N, ConstInt(1)))),
    TileType(c(64, 64), DType.FP32, view=TileView(start_offset=N)),
    TensorType((N, ConstInt(64)), DType.FP32),
    TensorType(c(64, 64), DType.FP32, TensorView(stride=(N, ConstInt(1)))),
    TensorType(c(64, 64), DType.FP32, TensorView(valid_shape=(ConstInt(64), N))),
    TupleType((TileType(c(8), DType.FP16), TileType((N,), DType.FP16))),
])
def test_a_type_holding_a_var_is_not_all_constant(t: Type) -> None:
    assert not t.all_constant
    assert any(isinstance(x, Var) for e in type_exprs(t) for x in walk_exprs(e))


KERNELS = {
    "valid_shape_from_a_parameter": '''
import pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def body(self, lhs: pl.Tensor[[32, 64], pl.FP16], rhs: pl.Tensor[[64, 64], pl.FP16],
             k: pl.Scalar[pl.INDEX], res: pl.Out[pl.Tensor[[32, 64], pl.FP32]]
             ) -> pl.Tensor[[32, 64], pl.FP32]:
        u = pl.load(lhs, [0, 0], [32, 64], valid_shape=[32, k])
        u = pl.add(u, u)
        for j in pl.range(3):
            u = pl.mul(u, u)
        w = pl.load(rhs, [0, 0], [64, 64], valid_shape=[k, 64])
        r = pl.matmul(u, w)
        res = pl.store(r, [0, 0], res)
        return res
''',
    "dynamic_dims_of_parameters": '''
import pl

@pl.program
class K:
    @pl.function
    def k(self, a: pl.Tensor[[M, 64], pl.FP32], b: pl.Tensor[[M, 64], pl.FP32]
          ) -> pl.Tensor[[M, 64], pl.FP32]:
        c = pl.add(a, b)
        for i in pl.range(4):
            c = pl.mul(c, b)
        return c
''',
}


def _type_vars(t: Type) -> set[Var]:
    out: set[Var] = set()
    stack = list(type_exprs(t))
    while stack:
        e = stack.pop()
        if isinstance(e, Var):
            out.add(e)
        stack.extend(expr_children(e))
    return out


def _defined(f: Function) -> set[Var]:
    out = set(f.params)
    for s in walk_stmts(f.body):
        if isinstance(s, AssignStmt):
            out.add(s.var)
        if isinstance(s, ForStmt):
            out.update((s.loop_var, *s.iter_args))
        if isinstance(s, ForStmt | WhileStmt | IfStmt):
            out.update(s.return_vars)
    return out


def _types_in(f: Function) -> list[Type]:
    types = [p.type for p in f.params]
    for s in walk_stmts(f.body):
        if isinstance(s, AssignStmt):
            types.append(s.var.type)
        for e in stmt_exprs(s):
            types.extend(x.type for x in walk_exprs(e))
    return types


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_types_mention_only_vars_the_converted_function_defines(name: str) -> None:
    program = parse(textwrap.dedent(KERNELS[name]), f"<{name}>")
    assert isinstance(program, Program)
    before = {v for f in program.functions for t in _types_in(f) for v in _type_vars(t)}
    assert before, "the kernel must have types that mention Vars"
    out = convert_to_ssa(program)
    for f in out.functions:
        defined = _defined(f)
        free = {v for t in _types_in(f) for v in _type_vars(t)} - defined
        # A dynamic dim no statement or parameter binds (M above) stays as it is, the same Var
        # everywhere; a dim a parameter binds (k) is renamed with the parameter.
        assert all(v.name != "k" for v in free), free
        assert all(not t.all_constant for t in _types_in(f) if _type_vars(t))
