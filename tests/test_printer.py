"""The printer (pl/printer/program.py): IR built by hand -> expected text written from dsl.md 4 and section 0.

Expected texts follow the spec (and the reference's printed seeds in shared/spec/reference-output),
with our overrides: `import pl` + two blank lines, `self` on every method, `pl.MemorySpace.X`,
level/role only when they differ from the FunctionType's defaults, wrapping at 100 columns.
"""

from __future__ import annotations

import textwrap
from typing import Any

import libcst as cst
import pytest

import pl
from pl.ir import (
    AssignStmt,
    BinaryExpr,
    BreakStmt,
    Call,
    ConstBool,
    ConstFloat,
    ConstInt,
    ContinueStmt,
    DType,
    EvalStmt,
    Expr,
    ForKind,
    ForStmt,
    Function,
    FunctionType,
    GlobalVar,
    IfStmt,
    IterArg,
    Level,
    MakeTuple,
    MemorySpace,
    Op,
    PadValue,
    ParamDirection,
    Program,
    ReturnStmt,
    Role,
    ScalarType,
    ScopeKind,
    ScopeStmt,
    SeqStmts,
    Stmt,
    TensorLayout,
    TensorType,
    TensorView,
    TileLayout,
    TileType,
    TileView,
    TupleGetItem,
    TupleType,
    UnaryExpr,
    Var,
    WhileStmt,
    YieldStmt,
    implicit_tile_view,
    make_body,
)
from pl.ir.operators import BinaryOp, UnaryOp
from pl.ir.types import ArrayType
from pl.printer.program import callees, print_expr, print_node, print_type

BF16, FP32, INDEX = DType.BF16, DType.FP32, DType.INDEX
VEC, MAT, LEFT, RIGHT, ACC = (MemorySpace.Vec, MemorySpace.Mat, MemorySpace.Left, MemorySpace.Right,
                              MemorySpace.Acc)


def c(v: int, dt: DType = INDEX) -> ConstInt:
    return ConstInt(v, dt)


def tup(*xs: int | Expr) -> MakeTuple:
    return MakeTuple(tuple(c(x) if isinstance(x, int) else x for x in xs))


def tensor(*shape: int, dt: DType = FP32) -> TensorType:
    return TensorType(tuple(c(d) for d in shape), dt)


def tile(*shape: int, dt: DType = FP32, space: MemorySpace | None = VEC, view: TileView | None = None) -> TileType:
    return TileType(tuple(c(d) for d in shape), dt, space, view)


def op(name: str, *args: Expr, result: Any = None, attrs: tuple[tuple[str, Any], ...] = (),
       **kwargs: Any) -> Call:
    return Call(Op(name), args, tuple(kwargs.items()), attrs, result_type=result or ScalarType(INDEX))


def scalar(name: str, dt: DType = INDEX) -> Var:
    return Var(name, ScalarType(dt))


def fn(name: str, params: list[Var], body: list[Stmt], *, ret: tuple[Any, ...] = (),
       dirs: tuple[ParamDirection, ...] = (), ft: FunctionType = FunctionType.Opaque,
       level: Level | None = None, role: Role | None = None, attrs: tuple[tuple[str, Any], ...] = ()) -> Function:
    directions = dirs or tuple(ParamDirection.In for _ in params)
    return Function(name, tuple(params), directions, ret, make_body(body), ft, level, role, attrs)


def program_text(*functions: Function, name: str = "P") -> str:
    return print_node(Program(name, functions))


def method(body: str) -> str:
    """Expected text of a one-method program P whose method header is given in `body`."""
    return "import pl\n\n\n@pl.program\nclass P:\n" + textwrap.indent(textwrap.dedent(body), "    ")


def assert_valid(text: str) -> None:
    compile(text, "<printed>", "exec")
    assert cst.parse_module(text).code == text


# ---- the seed's After form --------------------------------------------------------------------


def seed_after() -> Program:
    x, y = Var("x", tensor(16, 128, dt=BF16)), Var("y", tensor(128, 128, dt=BF16))
    out = Var("out_0", tensor(16, 128))
    xt, yt = Var("x_tile", tile(16, 128, dt=BF16)), Var("y_tile", tile(128, 128, dt=BF16))
    xl, yr = Var("x_tile_Left", tile(16, 128, dt=BF16, space=LEFT)), Var("y_tile_Right", tile(128, 128, dt=BF16, space=RIGHT))
    zt = Var("z_tile", tile(16, 128, space=ACC))
    body: list[Stmt] = [
        AssignStmt(xt, op("tile.load", x, tup(0, 0), tup(16, 128), tup(16, 128), result=xt.type, target_memory=VEC)),
        AssignStmt(yt, op("tile.load", y, tup(0, 0), tup(128, 128), tup(128, 128), result=yt.type, target_memory=VEC)),
        AssignStmt(xl, op("tile.move", xt, result=xl.type, target_memory=LEFT)),
        AssignStmt(yr, op("tile.move", yt, result=yr.type, target_memory=RIGHT)),
        AssignStmt(zt, op("tile.matmul", xl, yr, result=zt.type)),
        AssignStmt(out, op("tile.store", zt, tup(0, 0), out, result=out.type)),
        ReturnStmt((out,)),
    ]
    dirs = (ParamDirection.In, ParamDirection.In, ParamDirection.Out)
    kernel = fn("main_incore_0", [x, y, out], body, ret=(out.type,), dirs=dirs, ft=FunctionType.InCore,
                level=Level.CHIP_DIE, role=Role.SubWorker)
    return Program("Before", (kernel,))


SEED_AFTER = """\
import pl


@pl.program
class Before:
    @pl.function(type=pl.FunctionType.InCore)
    def main_incore_0(
        self,
        x: pl.Tensor[[16, 128], pl.BF16],
        y: pl.Tensor[[128, 128], pl.BF16],
        out_0: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        x_tile: pl.Tile[[16, 128], pl.BF16, pl.MemorySpace.Vec] = pl.tile.load(
            x, [0, 0], [16, 128], [16, 128], target_memory=pl.MemorySpace.Vec
        )
        y_tile: pl.Tile[[128, 128], pl.BF16, pl.MemorySpace.Vec] = pl.tile.load(
            y, [0, 0], [128, 128], [128, 128], target_memory=pl.MemorySpace.Vec
        )
        x_tile_Left: pl.Tile[[16, 128], pl.BF16, pl.MemorySpace.Left] = pl.tile.move(
            x_tile, target_memory=pl.MemorySpace.Left
        )
        y_tile_Right: pl.Tile[[128, 128], pl.BF16, pl.MemorySpace.Right] = pl.tile.move(
            y_tile, target_memory=pl.MemorySpace.Right
        )
        z_tile: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Acc] = pl.tile.matmul(
            x_tile_Left, y_tile_Right
        )
        out_0: pl.Tensor[[16, 128], pl.FP32] = pl.tile.store(z_tile, [0, 0], out_0)
        return out_0
"""


def test_seed_after_form_matches_spec_text() -> None:
    text = print_node(seed_after())
    assert text == SEED_AFTER
    assert_valid(text)
    assert max(len(line) for line in text.splitlines()) <= 100


def test_mem_alias_prints_mem() -> None:
    text = print_node(seed_after(), mem_alias=True)
    assert "pl.MemorySpace" not in text
    assert "x_tile: pl.Tile[[16, 128], pl.BF16, pl.Mem.Vec] = pl.tile.load(" in text


def test_printing_is_pure_and_idempotent() -> None:
    p = seed_after()
    assert print_node(p) == print_node(p) == pl.python_print(p)


def test_ir_nodes_print_themselves_as_the_references_do() -> None:
    """`prog.as_python()` and `str(prog)` (the reference's API, dsl.md section 4) print through
    the one printer, options included; a Function prints as a standalone `@pl.function`."""
    p = seed_after()
    assert p.as_python() == str(p) == pl.python_print(p)
    assert p.as_python(mem_alias=True) == print_node(p, mem_alias=True)
    f = p.functions[0]
    assert f.as_python() == str(f) == pl.python_print(f)
    assert f.as_python().splitlines()[3].startswith("@pl.function")


# ---- decorators -------------------------------------------------------------------------------

DECORATORS = [
    (FunctionType.Opaque, None, None, "@pl.function"),
    (FunctionType.InCore, Level.CHIP_DIE, Role.SubWorker, "@pl.function(type=pl.FunctionType.InCore)"),
    (FunctionType.InCore, None, None, "@pl.function(type=pl.FunctionType.InCore)"),
    (FunctionType.Orchestration, Level.CHIP, Role.Orchestrator,
     "@pl.function(type=pl.FunctionType.Orchestration)"),
    (FunctionType.AIV, Level.AIV, Role.SubWorker, "@pl.function(type=pl.FunctionType.AIV)"),
    (FunctionType.InCore, Level.CHIP, Role.SubWorker,
     "@pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP)"),
    (FunctionType.Group, Level.CORE_GROUP, Role.Orchestrator,
     "@pl.function(type=pl.FunctionType.Group, role=pl.Role.Orchestrator)"),
    (FunctionType.Opaque, Level.HOST, None, "@pl.function(level=pl.Level.HOST)"),
]


@pytest.mark.parametrize(("ft", "level", "role", "expected"), DECORATORS)
def test_decorator(ft: FunctionType, level: Level | None, role: Role | None, expected: str) -> None:
    text = program_text(fn("f", [], [ReturnStmt()], ft=ft, level=level, role=role))
    assert text == method(f"""\
        {expected}
        def f(self):
            return
        """)


# ---- expressions ------------------------------------------------------------------------------

a, b, d = scalar("a"), scalar("b"), scalar("d")
flag = scalar("flag", DType.BOOL)
t = Var("t", tile(16, 16))


def bin_(o: str, left: Expr, right: Expr, dt: DType = INDEX) -> BinaryExpr:
    return BinaryExpr(BinaryOp[o], left, right, dt)


EXPRS: list[tuple[Expr, str]] = [
    (c(5), "5"),
    (c(-3), "-3"),
    (c(5, DType.INT32), "pl.const(5, pl.INT32)"),
    (ConstFloat(0.1), "0.1"),
    (ConstFloat(2.0), "2.0"),
    (ConstFloat(1e16), "1e+16"),
    (ConstFloat(float("inf")), "float('inf')"),
    (ConstFloat(-float("inf")), "-float('inf')"),
    (ConstFloat(-float("nan")), "-float('nan')"),
    (ConstFloat(-0.0), "-0.0"),
    (ConstFloat(1.5, DType.FP16), "pl.const(1.5, pl.FP16)"),
    (ConstBool(True), "True"),
    (bin_("Add", bin_("Mul", a, b), d), "a * b + d"),
    (bin_("Mul", bin_("Add", a, b), d), "(a + b) * d"),
    (bin_("Sub", a, bin_("Sub", b, d)), "a - (b - d)"),
    (bin_("Sub", bin_("Sub", a, b), d), "a - b - d"),
    (bin_("Pow", bin_("Pow", a, b), d), "(a ** b) ** d"),
    (bin_("Pow", a, bin_("Pow", b, d)), "a ** b ** d"),
    (bin_("FloorDiv", a, bin_("FloorMod", b, d)), "a // (b % d)"),
    (bin_("Lt", bin_("Add", a, c(1)), b, DType.BOOL), "a + 1 < b"),
    (bin_("Eq", bin_("Lt", a, b, DType.BOOL), flag, DType.BOOL), "(a < b) == flag"),
    (bin_("And", bin_("Lt", a, b, DType.BOOL), UnaryExpr(UnaryOp.Not, flag, DType.BOOL), DType.BOOL),
     "a < b and not flag"),
    (bin_("Or", bin_("And", flag, flag, DType.BOOL), flag, DType.BOOL), "flag and flag or flag"),
    (bin_("And", bin_("Or", flag, flag, DType.BOOL), flag, DType.BOOL), "(flag or flag) and flag"),
    (UnaryExpr(UnaryOp.Neg, bin_("Add", a, b), INDEX), "-(a + b)"),
    (UnaryExpr(UnaryOp.Neg, a, INDEX), "-a"),
    (bin_("Min", a, bin_("Add", b, c(1))), "pl.min(a, b + 1)"),
    (bin_("Max", a, b), "pl.max(a, b)"),
    (UnaryExpr(UnaryOp.Abs, a, INDEX), "abs(a)"),
    (UnaryExpr(UnaryOp.Cast, a, DType.INT32), "pl.cast(a, pl.INT32)"),
    (bin_("Add", c(32), c(32)), "pl.const(32, pl.INDEX) + pl.const(32, pl.INDEX)"),
    (bin_("Mul", a, c(64)), "a * 64"),
    (tup(0, a), "[0, a]"),
    (TupleGetItem(Var("pair", TupleType((ScalarType(INDEX), ScalarType(INDEX)))), 1), "pair[1]"),
    (op("tile.and", t, t), "pl.tile.and_(t, t)"),
    (op("tile.not", t), "pl.tile.not_(t)"),
    (op("tile.cast", t, target_type=DType.FP16, mode=2), "pl.tile.cast(t, target_type=pl.FP16, mode='round')"),
    (op("tile.move", t, target_memory=MAT), "pl.tile.move(t, target_memory=pl.MemorySpace.Mat)"),
    (op("tile.fillpad", t, pad_value=PadValue.zero), "pl.tile.fillpad(t, pad_value=pl.PadValue.zero)"),
    (op("tensor.create", tup(64, 64), dtype=FP32, layout=TensorLayout.ND),
     "pl.tensor.create([64, 64], dtype=pl.FP32, layout=pl.TensorLayout.ND)"),
    (op("tile.x", t, blayout=TileLayout.col_major, flag=True, s="abc", f=0.5, n=-2),
     "pl.tile.x(t, blayout=pl.TileLayout.col_major, flag=True, s='abc', f=0.5, n=-2)"),
    (op("tile.move", t, target_memory=MAT, attrs=(("__compiler_tensor_to_tile_mat_bridge", True),)),
     'pl.tile.move(t, target_memory=pl.MemorySpace.Mat, attrs={"__compiler_tensor_to_tile_mat_bridge": True})'),
    (Call(Op("tile.full"), (tup(16, 16), ConstFloat(0.0)), (("dtype", FP32),)),
     "pl.tile.full([16, 16], dtype=pl.FP32, value=0.0)"),
    (op("system.fence"), "pl.system.fence()"),
    (Call(GlobalVar("kernel"), (a, b)), "kernel(a, b)"),
]


@pytest.mark.parametrize(("expr", "expected"), EXPRS, ids=[e for _, e in EXPRS])
def test_print_expr(expr: Expr, expected: str) -> None:
    assert print_expr(expr) == expected
    # Re-reading the text gives Python's own reading of it: the parenthesisation is the one we meant.
    compile(expected, "<expr>", "eval")


@pytest.mark.parametrize("value", [0.1, 1 / 3, 1e-7, 123456789.125, 2.5e300])
def test_float_literals_round_trip_exactly(value: float) -> None:
    assert float(print_expr(ConstFloat(value))) == value


# ---- types ------------------------------------------------------------------------------------

M = Var("M", ScalarType(INDEX))

TYPES: list[tuple[Any, str]] = [
    (ScalarType(INDEX), "pl.Scalar[pl.INDEX]"),
    (ScalarType(DType.BOOL), "pl.Scalar[pl.BOOL]"),
    (tensor(64, 128, dt=DType.FP16), "pl.Tensor[[64, 128], pl.FP16]"),
    (tile(64, 64, space=None), "pl.Tile[[64, 64], pl.FP32]"),
    (tile(64, 64), "pl.Tile[[64, 64], pl.FP32, pl.MemorySpace.Vec]"),
    (tile(16, 64, view=TileView(valid_shape=(c(8), c(64)))),
     "pl.Tile[[16, 64], pl.FP32, pl.MemorySpace.Vec, pl.TileView(valid_shape=[8, 64])]"),
    (tile(16, 64, view=TileView(valid_shape=(c(16), c(64)))), "pl.Tile[[16, 64], pl.FP32, pl.MemorySpace.Vec]"),
    (tile(16, 64, space=MAT, view=implicit_tile_view((c(16), c(64)), MAT)),
     "pl.Tile[[16, 64], pl.FP32, pl.MemorySpace.Mat]"),
    (tile(16, 64, view=TileView(pad=PadValue.zero)),
     "pl.Tile[[16, 64], pl.FP32, pl.MemorySpace.Vec, pl.TileView(pad=pl.PadValue.zero)]"),
    (tile(16, 64, space=MAT, view=TileView(blayout=TileLayout.row_major, slayout=TileLayout.col_major)),
     "pl.Tile[[16, 64], pl.FP32, pl.MemorySpace.Mat, "
     "pl.TileView(blayout=pl.TileLayout.row_major, slayout=pl.TileLayout.col_major)]"),
    (TupleType((ScalarType(INDEX), tensor(4))), "pl.Tuple[pl.Scalar[pl.INDEX], pl.Tensor[[4], pl.FP32]]"),
    (TensorType((M, c(128)), FP32), "pl.Tensor[[M, 128], pl.FP32]"),
    (TensorType((bin_("Add", c(32), c(32)),), FP32),
     "pl.Tensor[[pl.const(32, pl.INDEX) + pl.const(32, pl.INDEX)], pl.FP32]"),
]


@pytest.mark.parametrize(("ty", "expected"), TYPES, ids=[e for _, e in TYPES])
def test_print_type(ty: Any, expected: str) -> None:
    assert print_type(ty) == expected


# ---- statements -------------------------------------------------------------------------------


def loop_program() -> Program:
    x = Var("x", tile(16, 16))
    i = scalar("i")
    acc = IterArg("acc", x.type, init=x)
    nxt = Var("nxt", x.type)
    acc_out = Var("acc", x.type)
    loop = ForStmt(i, c(0), c(4), c(1), (acc,), make_body([
        AssignStmt(nxt, op("tile.add", acc, x, result=x.type)), YieldStmt((nxt,))]), (acc_out,))
    return Program("P", (fn("f", [x], [loop, ReturnStmt((acc_out,))], ret=(x.type,)),))


def test_loop_with_iter_args_and_name_disambiguation() -> None:
    # dsl.md 2: for `for i, (acc,) ...: acc = pl.yield_(..)` the return var prints `acc`, the iter arg `acc_1`.
    text = print_node(loop_program())
    assert text == method("""\
        @pl.function
        def f(
            self,
            x: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Vec],
        ) -> pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Vec]:
            for i, (acc_1,) in pl.range(4, init_values=(x,)):
                nxt: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Vec] = pl.tile.add(acc_1, x)
                acc: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Vec] = pl.yield_(nxt)
            return acc
        """)
    assert_valid(text)


RANGES: list[tuple[ConstInt, Expr, ConstInt, ForKind, tuple[tuple[str, Any], ...], str]] = [
    (c(0), c(8), c(1), ForKind.Sequential, (), "pl.range(8)"),
    (c(1), c(8), c(1), ForKind.Sequential, (), "pl.range(1, 8)"),
    (c(0), c(8), c(2), ForKind.Sequential, (), "pl.range(0, 8, 2)"),
    (c(0, DType.INT64), c(8), c(1), ForKind.Sequential, (), "pl.range(pl.const(0, pl.INT64), 8)"),
    (c(0), b, c(1), ForKind.Parallel, (), "pl.parallel(b)"),
    (c(0), c(4), c(1), ForKind.Unroll, (), "pl.unroll(4)"),
    (c(0), c(8), c(1), ForKind.Pipeline, (("pipeline_stages", 2),), "pl.pipeline(8, stage=2)"),
    (c(0), c(8), c(1), ForKind.Sequential, (("k", 1),), 'pl.range(8, attrs={"k": 1})'),
]


@pytest.mark.parametrize(("start", "stop", "step", "kind", "attrs", "expected"), RANGES,
                         ids=[r[-1] for r in RANGES])
def test_loop_headers(start: ConstInt, stop: Expr, step: ConstInt, kind: ForKind,
                      attrs: tuple[tuple[str, Any], ...], expected: str) -> None:
    i = scalar("i")
    loop = ForStmt(i, start, stop, step, (), make_body([BreakStmt(), ContinueStmt()]), kind=kind, attrs=attrs)
    text = program_text(fn("f", [b], [loop]))
    assert text == method(f"""\
        @pl.function
        def f(self, b: pl.Scalar[pl.INDEX]):
            for i in {expected}:
                break
                continue
        """)


def if_program() -> Program:
    x, y = scalar("x"), scalar("y")
    r1, r2 = scalar("r1"), scalar("r2")
    cond = bin_("Lt", x, y, DType.BOOL)
    stmt = IfStmt(cond, YieldStmt((x, y)), YieldStmt((y, x)), (r1, r2))
    return Program("P", (fn("f", [x, y], [stmt, ReturnStmt((r1, r2))], ret=(ScalarType(INDEX), ScalarType(INDEX))),))


def while_program() -> Program:
    x0 = scalar("x0")
    x = IterArg("x", ScalarType(INDEX), init=x0)
    x_out, nx = scalar("x_out"), scalar("nx")
    loop = WhileStmt((x,), bin_("Lt", x, c(10), DType.BOOL),
                     make_body([AssignStmt(nx, bin_("Add", x, c(1))), YieldStmt((nx,))]), (x_out,))
    return Program("P", (fn("f", [x0], [loop, ReturnStmt((x_out,))], ret=(ScalarType(INDEX),)),))


def test_if_with_two_return_vars_and_else() -> None:
    text = print_node(if_program())
    assert text == method("""\
        @pl.function
        def f(
            self,
            x: pl.Scalar[pl.INDEX],
            y: pl.Scalar[pl.INDEX],
        ) -> tuple[pl.Scalar[pl.INDEX], pl.Scalar[pl.INDEX]]:
            if x < y:
                r1, r2 = pl.yield_(x, y)
            else:
                r1, r2 = pl.yield_(y, x)
            return r1, r2
        """)
    assert_valid(text)


def test_while_forms_scopes_comments_and_function_level_yield() -> None:
    x0 = scalar("x0")
    x = IterArg("x", ScalarType(INDEX), init=x0)
    x_out = scalar("x_out")
    nx = scalar("nx")
    loop = WhileStmt((x,), bin_("Lt", x, c(10), DType.BOOL),
                     make_body([AssignStmt(nx, bin_("Add", x, c(1))), YieldStmt((nx,))]), (x_out,))
    plain = WhileStmt((), bin_("Lt", x0, c(3), DType.BOOL), EvalStmt(op("system.fence")), (),
                      comments=("spin",))
    scope = ScopeStmt(ScopeKind.InCore, EvalStmt(op("system.fence")), (("level", Level.CORE_GROUP),))
    runtime = ScopeStmt(ScopeKind.Runtime, SeqStmts(()))
    text = program_text(fn("f", [x0], [loop, plain, scope, runtime, YieldStmt((x_out,))], ret=(ScalarType(INDEX),)))
    assert text == method("""\
        @pl.function
        def f(self, x0: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
            for (x,) in pl.while_(init_values=(x0,)):
                pl.cond(x < 10)
                nx: pl.Scalar[pl.INDEX] = x + 1
                x_out: pl.Scalar[pl.INDEX] = pl.yield_(nx)
            # spin
            while x0 < 3:
                pl.system.fence()
            with pl.at(level=pl.Level.CORE_GROUP):
                pl.system.fence()
            with pl.scope():
                pass
            return x_out
        """)
    assert_valid(text)


def test_colliding_names_free_vars_func_attrs_and_empty_body() -> None:
    # Unique names are reserved first: the two `t`s become `t` and `t_2` because `t_1` is taken.
    t_a, t_b, t_1 = scalar("t"), scalar("t"), scalar("t_1")
    ghost = scalar("ghost")
    body = [AssignStmt(t_a, c(1)), AssignStmt(t_1, c(2)), AssignStmt(t_b, bin_("Add", t_a, ghost)),
            ReturnStmt((t_b,))]
    f = fn("f", [], body, ret=(ScalarType(INDEX),), attrs=(("k", 1),))
    g = fn("g", [], [])
    text = program_text(f, g)
    assert text == method("""\
        @pl.function
        def f(self) -> pl.Scalar[pl.INDEX]:
            pl.func_attr({"k": 1})
            t: pl.Scalar[pl.INDEX] = 1
            t_1: pl.Scalar[pl.INDEX] = 2
            t_2: pl.Scalar[pl.INDEX] = t + ghost__FREE_VAR
            return t_2

        @pl.function
        def g(self):
            pass
        """)
    assert_valid(text)


def test_a_var_only_in_loop_attrs_is_named_as_a_use() -> None:
    # `attrs={"k": n}` holds an expression that pl.ir.traverse.stmt_exprs does not list; a free
    # Var there is still marked free and does not take the name of a defined Var.
    n_defined, n_free, i = scalar("n"), scalar("n"), scalar("i")
    loop = ForStmt(i, c(0), c(4), c(1), (), make_body([BreakStmt()]),
                   attrs=(("k", n_free), ("l", tup(n_free, 2))))
    text = program_text(fn("f", [n_defined], [loop, ReturnStmt()]))
    assert 'for i in pl.range(4, attrs={"k": n_1__FREE_VAR, "l": [n_1__FREE_VAR, 2]}):' in text
    assert "def f(self, n: pl.Scalar[pl.INDEX]):" in text


def test_callees_first_and_standalone_function() -> None:
    v = Var("v", tensor(4))
    leaf = fn("zzz", [v], [ReturnStmt((v,))], ret=(v.type,))
    mid = fn("mmm", [v], [ReturnStmt((Call(GlobalVar("zzz"), (v,), result_type=v.type),))], ret=(v.type,))
    root = fn("aaa", [v], [EvalStmt(Call(GlobalVar("mmm"), (v,), result_type=v.type))])
    text = program_text(root, mid, leaf)
    assert [line.split("(")[0] for line in text.splitlines() if "def " in line] == \
        ["    def zzz", "    def mmm", "    def aaa"]
    assert "return self.zzz(v)" in text
    assert callees(root) == ["mmm"]
    assert print_node(leaf) == textwrap.dedent("""\
        import pl


        @pl.function
        def zzz(v: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
            return v
        """)


def test_dynamic_dims_are_declared_and_named_program_wide() -> None:
    m1, m2 = Var("M", ScalarType(INDEX)), Var("M", ScalarType(INDEX))
    p1, p2 = Var("p", TensorType((m1,), FP32)), Var("q", TensorType((m2,), FP32))
    text = program_text(fn("f", [p1, p2], [ReturnStmt()]))
    assert "def f(self, p: pl.Tensor[[M], pl.FP32], q: pl.Tensor[[M_1], pl.FP32]):" in text
    assert text.startswith('import pl\n\nM = pl.dynamic("M")\nM_1 = pl.dynamic("M")\n\n\n@pl.program\n')
    assert_valid(text)


def test_dynamic_dims_of_a_view_are_named_valid_shape_before_stride() -> None:
    # The reference's order (CollectDynVarMapping): shape, then the view's valid shape, then its
    # strides, for a tensor as for a tile (pl.ir.traverse.type_exprs).
    stride_dim, valid_dim = Var("M", ScalarType(INDEX)), Var("M", ScalarType(INDEX))
    view = TensorView(stride=(stride_dim, c(1)), valid_shape=(valid_dim, c(8)))
    p = Var("p", TensorType((c(16), c(8)), FP32, view))
    text = program_text(fn("f", [p], [ReturnStmt()]))
    assert text.startswith('import pl\n\nM = pl.dynamic("M")\nM_1 = pl.dynamic("M")\n\n\n@pl.program\n')
    assert "stride=[M_1, 1]" in text and "valid_shape=[M, 8]" in text
    assert_valid(text)


def test_call_wraps_one_argument_per_line_when_one_line_is_too_long() -> None:
    long_names = [Var(f"argument_number_{k}_with_a_long_name", tile(16, 16)) for k in range(5)]
    r = Var("r", tile(16, 16))
    text = program_text(fn("f", long_names, [AssignStmt(r, op("tile.addc", *long_names, result=r.type))]))
    lines = text.splitlines()
    start = lines.index("        r: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Vec] = pl.tile.addc(")
    assert lines[start + 1:start + 7] == [f"            argument_number_{k}_with_a_long_name," for k in range(5)] + \
        ["        )"]
    assert_valid(text)


def test_large_body_prints_without_recursion() -> None:
    x = scalar("x")
    # More statements than Python's default recursion limit (printing LibCST is ~0.3 ms a line).
    body: list[Stmt] = [AssignStmt(x, bin_("Add", x, c(1))) for _ in range(1500)]
    text = program_text(fn("f", [x], body))
    assert text.count("x: pl.Scalar[pl.INDEX] = x + 1") == 1500


@pytest.mark.parametrize("build", [seed_after, loop_program, if_program, while_program])
def test_round_trip_through_frontend(build: Any) -> None:
    text_mod = pytest.importorskip("pl.lowering.frontend.parse")
    from pl.structural import assert_structural_equal

    p = build()
    text = print_node(p)
    again = text_mod.parse(text)
    assert_structural_equal(again, p)
    assert print_node(again) == text


@pytest.mark.parametrize(("extent", "dtype", "text"), [
    (8, "INT32", "pl.Array[8, pl.INT32]"), (32, "UINT16", "pl.Array[32, pl.UINT16]"),
    (4, "TASK_ID", "pl.Array[4, pl.TASK_ID]")])
def test_array_type_prints_as_the_reference_does(extent: int, dtype: str, text: str) -> None:
    t = ArrayType(extent, DType[dtype])
    assert print_type(t) == text
    assert t == ArrayType(extent, DType[dtype]) and t != ArrayType(extent + 1, DType[dtype])


def test_array_indexing_prints_as_the_array_ops() -> None:
    """`arr[i] = v` / `arr[i]` print as the reference prints them: the ops, an integer literal
    value typed as the array's elements."""
    src = textwrap.dedent("""
        import pl

        @pl.program
        class P:
            @pl.function(type=pl.FunctionType.InCore)
            def f(self, x: pl.Tensor[[16], pl.INT32]) -> pl.Tensor[[16], pl.INT32]:
                arr = pl.array.create(4, pl.INT32)
                arr[1] = 7
                v = arr[1]
                return x
        """)
    text = pl.python_print(pl.parse(src))
    assert "pl.array.create(4, dtype=pl.INT32)" in text
    assert "pl.array.update_element(arr, 1, pl.const(7, pl.INT32))" in text
    assert "pl.array.get_element(arr" in text and ", 1)" in text
