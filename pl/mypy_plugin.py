"""mypy plugin for `pl` kernels: typed tiles (`[tool.mypy] plugins = ["pl.mypy_plugin"]`).

Supported mypy versions: 1.8 to 2.4 (uses only the stable hooks `get_type_analyze_hook`,
`get_function_hook`, `get_function_signature_hook`, `get_method_signature_hook` and
`get_class_decorator_hook`; checked with mypy 2.4.1). Works with the stubs
of stubs/pl, which the wheel installs as the PEP 561 package `pl-stubs` (in this repository:
`mypy_path`, see stubs/mypy.ini).

Guarantees:
- annotations: `pl.Tile[[dims], dtype]` / `pl.Tile[[dims], dtype, space]` become `Tile[DT, MS]`,
  `pl.Tensor[[dims], dtype]` becomes `Tensor[DT]`, `pl.Scalar[dtype]` becomes `Scalar[DT]`,
  `pl.Out[T]` / `pl.InOut[T]` become `T`, `pl.Tuple[A, B]` a tuple; DT / MS are the marker classes
  of `pl._core` (a part left out is `Any`; the shape is not tracked); a misspelled dtype or space is
  reported;
- op results: the dtype and space of the IR the compiler builds for the call: each actual stands
  in as what the frontend would be given (a Var of the type its annotation names, every dim one
  symbol; a literal; a list; an enum member), and the frontend's own `build_call` picks the op,
  shapes the arguments and runs the op's type rule (pl/ops/rules/*.py) and memory resolver; a
  part the call does not tell (an operand of unknown dtype, an actual mypy cannot stand in for, a
  call the rule refuses) is `Any`;
- `pl.range` / `pl.parallel` / `pl.unroll` / `pl.pipeline` / `pl.while_` with `init_values=(...)`
  iterate `(index, (values...))` with the init values' types; `pl.yield_(a, b)` has the type of its
  values, and inside a loop with `init_values` must pass as many values as the loop carries;
- a parameter typed `pl.Scalar[dtype]` also takes the Python literal of that dtype (an int for an
  integer dtype or INDEX, a float or an int for a float dtype, a bool for BOOL), as the frontend
  makes it a constant of the parameter's dtype;
- `pl.compile(C)` / `pl.interpret(C, ...)` with a class `C` not decorated with `@pl.program` is
  reported (the stubs accept a class there, since mypy types a decorated class as the class).
The plugin is stateless: every answer is computed from the call at hand by the compiler's own
code (`pl.ops.registry`, built once at import, and the type rules).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from types import MappingProxyType
from typing import Final

from mypy.checker import TypeChecker
from mypy.nodes import (
    ARG_NAMED,
    ARG_POS,
    Block,
    CallExpr,
    Expression,
    FloatExpr,
    ForStmt,
    FuncItem,
    IfStmt,
    IntExpr,
    ListExpr,
    MemberExpr,
    NameExpr,
    Node,
    RefExpr,
    Statement,
    StrExpr,
    TupleExpr,
    UnaryExpr,
    WhileStmt,
    WithStmt,
)
from mypy.plugin import (
    AnalyzeTypeContext,
    ClassDefContext,
    FunctionContext,
    FunctionSigContext,
    MethodSigContext,
    Plugin,
)
from mypy.types import (
    AnyType,
    CallableType,
    FunctionLike,
    Instance,
    NoneType,
    ProperType,
    TupleType,
    Type,
    TypeList,
    TypeOfAny,
    UnboundType,
    UnionType,
    get_proper_type,
)

from pl.errors import PlError
from pl.ir.enums import CompactMode, DType, MemorySpace, PadValue, TensorLayout, TileLayout
from pl.ir.expr import Var
from pl.ir.span import UNKNOWN_SPAN
from pl.ir.types import ScalarType, TensorType, TileType, UnknownType
from pl.ir.types import Type as IRType
from pl.language.dsl_ops import SCALAR_ONLY_SPELLINGS, spelling_index
from pl.lowering.frontend.op_builders import build_call

CORE = "pl._core"
TILE, TENSOR, SCALAR = f"{CORE}.Tile", f"{CORE}.Tensor", f"{CORE}.Scalar"
DTYPES = frozenset(d.name for d in DType)
FLOATS = frozenset(d.name for d in DType if d.is_float())
SPACES = frozenset(m.name for m in MemorySpace)
LOOPS = frozenset({"pl.range", "pl.parallel", "pl.unroll", "pl.pipeline", "pl.while_"})
PROGRAM_TAKERS = frozenset({"pl.compile", "pl.interpret"})
PROGRAM_MARK = "pl.program"  # the metadata key of a class decorated with @pl.program
# Stub modules holding op functions -> the DSL prefix of their spellings.
_OP_MODULES: Final = MappingProxyType({"pl._ops": "pl", "pl.tile": "pl.tile", "pl.tensor": "pl.tensor",
                                       "pl.system": "pl.system", "pl.distributed": "pld",
                                       "pl.distributed.system": "pld.system",
                                       "pl.distributed.tensor": "pld.tensor",
                                       "pl.distributed.tile": "pld.tile"})


def _any() -> AnyType:
    return AnyType(TypeOfAny.special_form)


# ---- annotations ---------------------------------------------------------------------------

def _mark(ctx: AnalyzeTypeContext, arg: Type, names: frozenset[str], what: str) -> Type:
    if isinstance(arg, UnboundType):
        last = arg.name.rsplit(".", 1)[-1]
        if last in names:
            return ctx.api.named_type(f"{CORE}.{last}", [])
        ctx.api.fail(f'"{arg.name}" is not a pl {what}', ctx.context)
    else:
        ctx.api.fail(f"Expected a pl {what} here", ctx.context)
    return _any()


def _generic(ctx: AnalyzeTypeContext, fullname: str, arity: int) -> Type:
    """`Tile[FP32, Vec]` / `Tile[Any, Any]` as the stubs spell it: an ordinary generic."""
    args = [ctx.api.analyze_type(a) for a in ctx.type.args[:arity]]
    return ctx.api.named_type(fullname, args + [_any()] * (arity - len(args)))


def _dsl_form(ctx: AnalyzeTypeContext, head: str) -> bool:
    """`pl.Tile[[16, 128], pl.FP32, ...]`: a shape list first, then a dtype."""
    args = ctx.type.args
    if not args or not isinstance(args[0], TypeList):
        return False
    if len(args) < 2:
        ctx.api.fail(f"{head}[...] needs a shape and a dtype, e.g. {head}[[16, 128], pl.FP32]", ctx.context)
    return True


def _tile_type(ctx: AnalyzeTypeContext) -> Type:
    if not _dsl_form(ctx, "pl.Tile"):
        return _generic(ctx, TILE, 2)
    args = ctx.type.args
    dtype = _mark(ctx, args[1], DTYPES, "dtype") if len(args) > 1 else _any()
    space = _mark(ctx, args[2], SPACES, "memory space") if len(args) > 2 else _any()
    return ctx.api.named_type(TILE, [dtype, space])


def _tensor_type(ctx: AnalyzeTypeContext) -> Type:
    if not _dsl_form(ctx, "pl.Tensor"):
        return _generic(ctx, TENSOR, 1)
    args = ctx.type.args
    return ctx.api.named_type(TENSOR, [_mark(ctx, args[1], DTYPES, "dtype") if len(args) > 1 else _any()])


def _scalar_type(ctx: AnalyzeTypeContext) -> Type:
    args = ctx.type.args
    if len(args) == 1 and isinstance(args[0], UnboundType) and args[0].name.rsplit(".", 1)[-1] in DTYPES:
        return ctx.api.named_type(SCALAR, [_mark(ctx, args[0], DTYPES, "dtype")])
    return _generic(ctx, SCALAR, 1)


def _inner_type(ctx: AnalyzeTypeContext) -> Type:
    if not ctx.type.args:
        return _any()
    if len(ctx.type.args) != 1:
        ctx.api.fail("pl.Out[...] / pl.InOut[...] wrap exactly one type", ctx.context)
        return _any()
    return ctx.api.analyze_type(ctx.type.args[0])


def _tuple_type(ctx: AnalyzeTypeContext) -> Type:
    items = [ctx.api.analyze_type(a) for a in ctx.type.args]
    return TupleType(items, ctx.api.named_type("builtins.tuple", [_any()]))


_ANNOTATIONS: Final[Mapping[str, Callable[[AnalyzeTypeContext], Type]]] = MappingProxyType({
    TILE: _tile_type, TENSOR: _tensor_type, SCALAR: _scalar_type, f"{CORE}.Out": _inner_type,
    "pl.distributed.DistributedTensor": _tensor_type,  # `pld.DistributedTensor[[dims], dtype]`
    f"{CORE}.InOut": _inner_type, f"{CORE}.Tuple": _tuple_type,
})


# ---- op results ----------------------------------------------------------------------------

def _head(t: Type) -> Instance | None:
    p = get_proper_type(t)
    if isinstance(p, Instance) and p.type.fullname in (TILE, TENSOR, SCALAR):
        return p
    return None


# The one dim every stand-in tile / tensor has: calls whose rule reads shapes compare equal dims.
_DIM: Final = Var("n", ScalarType(DType.INDEX))
# mypy does not track shapes: stand-ins have rank 2, or 3 when the rule refuses rank 2 (a batch
# matmul, a transpose of axis 2).
_RANKS: Final = (2, 3)
_ENUMS: Final = MappingProxyType({cls.__name__: cls for cls in (
    MemorySpace, TileLayout, TensorLayout, PadValue, CompactMode)} | {"Mem": MemorySpace})


class _Unknown(Exception):
    """An actual whose value mypy does not know well enough to stand in for it."""


def _mark_name(t: Type, index: int) -> str | None:
    """The marker class name (`FP32`, `Vec`) at `index` of a Tile / Tensor / Scalar type."""
    inst = _head(t)
    if inst is None or len(inst.args) <= index:
        return None
    arg = get_proper_type(inst.args[index])
    return arg.type.name if isinstance(arg, Instance) else None


def _enum_member(e: Expression) -> object | None:
    """`pl.FP16` / `FP16`: the DType; `pl.Mem.Acc`, `pl.PadValue.zero`, ...: the enum member."""
    if isinstance(e, MemberExpr | NameExpr) and e.name in DTYPES:
        return DType[e.name]
    if isinstance(e, MemberExpr) and isinstance(e.expr, NameExpr | MemberExpr):
        cls = _ENUMS.get(e.expr.name)
        if cls is not None and e.name in cls.__members__:
            return cls.__members__[e.name]
    return None


def _stand_in(e: Expression, t: Type | None, rank: int, placeholders: list[str]) -> object:
    """What the frontend would be given for actual `e` of mypy type `t`: a Var of the IR type
    the annotation names (every dim `_DIM`), a literal's value, a list of stand-ins, an enum
    member. An operand of unknown dtype gets FP32 and is listed in `placeholders` (its result
    dtype is then not reported); anything else mypy does not know raises `_Unknown`."""
    if isinstance(e, IntExpr | FloatExpr | StrExpr):
        return e.value
    if isinstance(e, UnaryExpr) and e.op == "-" and isinstance(e.expr, IntExpr | FloatExpr):
        return -e.expr.value
    if isinstance(e, NameExpr) and e.fullname in ("builtins.True", "builtins.False"):
        return e.fullname == "builtins.True"
    if isinstance(e, ListExpr | TupleExpr):
        return [_stand_in(x, None, rank, placeholders) for x in e.items]
    member = _enum_member(e)
    if member is not None:
        return member
    p = get_proper_type(t) if t is not None else None
    if isinstance(p, Instance) and p.type.fullname in ("builtins.int", "builtins.float",
                                                          "builtins.bool"):
        dtype = {"builtins.int": DType.INDEX, "builtins.float": DType.FP32}.get(p.type.fullname,
                                                                                  DType.BOOL)
        return Var("_", ScalarType(dtype))
    inst = _head(p) if p is not None else None
    if inst is None:
        raise _Unknown
    dname = _mark_name(inst, 0)
    if dname not in DTYPES:
        placeholders.append(inst.type.fullname)
        dname = "FP32"
    dtype = DType[str(dname)]
    if inst.type.fullname == SCALAR:
        return Var("_", ScalarType(dtype))
    if inst.type.fullname == TENSOR:
        return Var("_", TensorType((_DIM,) * rank, dtype))
    sname = _mark_name(inst, 1)
    return Var("_", TileType((_DIM,) * rank, dtype, MemorySpace[sname] if sname in SPACES else None))


def _built(spelling: str, ctx: FunctionContext) -> tuple[IRType, bool] | None:
    """The type of the IR the frontend builds for this call from stand-ins of its actuals (the
    frontend's dispatch, argument shaping and the op's own type rule, `build_call`), and whether
    its dtype holds (no operand of unknown dtype stood in); None when the call cannot be built
    from what mypy knows or the rule refuses it (mypy is not the place for that error)."""
    call = ctx.context
    if not isinstance(call, CallExpr):
        return None
    types = {id(e): t for exprs, ts in zip(ctx.args, ctx.arg_types, strict=False)
             for e, t in zip(exprs, ts, strict=False)}
    for rank in _RANKS:
        placeholders: list[str] = []
        args: list[object] = []
        kwargs: dict[str, object] = {}
        try:
            for e, kind, name in zip(call.args, call.arg_kinds, call.arg_names, strict=True):
                value = _stand_in(e, types.get(id(e)), rank, placeholders)
                if kind == ARG_POS and not kwargs:
                    args.append(value)
                elif kind == ARG_NAMED and name is not None:
                    kwargs[name] = value
                else:
                    return None
            built = build_call(spelling, args, kwargs, UNKNOWN_SPAN)
        except _Unknown:
            return None
        except PlError:
            continue
        return built.type, not placeholders
    return None


def _op_result(spelling: str, ctx: FunctionContext) -> Type:
    default = _head(ctx.default_return_type)
    if default is None:
        return ctx.default_return_type
    built = _built(spelling, ctx)
    result, dtype_known = built if built is not None else (UnknownType(), False)
    dtype = result.dtype.name if dtype_known and isinstance(
        result, TileType | TensorType | ScalarType) else None
    dt: Type = ctx.api.named_generic_type(f"{CORE}.{dtype}", []) if dtype else _any()
    if default.type.fullname == TILE:
        space = result.memory_space.name if isinstance(result, TileType) and result.memory_space else None
        sp: Type = ctx.api.named_generic_type(f"{CORE}.{space}", []) if space else _any()
        return ctx.api.named_generic_type(TILE, [dt, sp])
    return ctx.api.named_generic_type(default.type.fullname, [dt])


# ---- loops and yield -----------------------------------------------------------------------

def _init_values(call: CallExpr) -> Expression | None:
    return next((a for a, n in zip(call.args, call.arg_names, strict=False) if n == "init_values"), None)


def _loop_result(ctx: FunctionContext) -> Type:
    call = ctx.context
    init = _init_values(call) if isinstance(call, CallExpr) else None
    if init is None:
        return ctx.default_return_type
    carried = get_proper_type(next((t[0] for n, t in zip(ctx.callee_arg_names, ctx.arg_types,
                                                           strict=False) if n == "init_values" and t), _any()))
    fallback = ctx.api.named_generic_type("builtins.tuple", [_any()])
    if not isinstance(carried, TupleType):
        if not isinstance(init, ListExpr | TupleExpr):
            return ctx.default_return_type
        carried = TupleType([_any() for _ in init.items], fallback)
    index = ctx.api.named_generic_type(SCALAR, [ctx.api.named_generic_type(f"{CORE}.INDEX", [])])
    name = call.callee.fullname if isinstance(call, CallExpr) and isinstance(call.callee, RefExpr) else ""
    item: ProperType = carried if name == "pl.while_" else TupleType([index, carried], fallback)
    return ctx.api.named_generic_type("typing.Iterator", [item])


def _children(node: Node) -> Sequence[Statement]:
    match node:
        case Block():
            return list(node.body)
        case ForStmt() | WhileStmt():
            return [node.body] + ([node.else_body] if node.else_body else [])
        case WithStmt():
            return [node.body]
        case IfStmt():
            return [*node.body] + ([node.else_body] if node.else_body else [])
    return []


def _owner(node: Node, line: int, best: Node | None) -> Node | None:
    """The innermost for / while / if statement whose body holds `line`."""
    for child in _children(node):
        end = child.end_line or child.line
        if child.line <= line <= end:
            inner = child if isinstance(child, ForStmt | WhileStmt | IfStmt) else best
            return _owner(child, line, inner)
    return best


def _carried(loop: Node | None) -> int | None:
    if not isinstance(loop, ForStmt) or not isinstance(loop.expr, CallExpr):
        return None
    callee = loop.expr.callee
    init = _init_values(loop.expr)
    if isinstance(callee, RefExpr) and callee.fullname in LOOPS and isinstance(init, ListExpr | TupleExpr):
        return len(init.items)
    return None


def _yield_result(ctx: FunctionContext) -> Type:
    values = [t for types in ctx.arg_types for t in types]
    if isinstance(ctx.api, TypeChecker):
        # mypy 2.x names it current_function, 1.x top_function.
        scope = ctx.api.scope
        current = getattr(scope, "current_function", None) or getattr(scope, "top_function", None)
        fn = current() if current is not None else None
        carried = _carried(_owner(fn.body, ctx.context.line, None)) if isinstance(fn, FuncItem) else None
        if carried is not None and carried != len(values):
            ctx.api.fail(f"pl.yield_ passes {len(values)} value(s) but the loop carries {carried} "
                         f"(init_values)", ctx.context)
    if not values:
        return NoneType()
    if len(values) == 1:
        return values[0]
    return TupleType(values, ctx.api.named_generic_type("builtins.tuple", [_any()]))


# ---- programs: what pl.compile and pl.interpret take -------------------------------------------

def _mark_program(ctx: ClassDefContext) -> None:
    # mypy keeps a decorated class's own type, so `@pl.program` is remembered in the class's
    # metadata (kept in mypy's cache, unlike the decorator list of a class read from it).
    ctx.cls.info.metadata[PROGRAM_MARK] = {}


def _program_taker(ctx: FunctionContext) -> Type:
    for arg in ctx.arg_types[0] if ctx.arg_types else []:
        cls = get_proper_type(arg)
        if isinstance(cls, CallableType) and cls.is_type_obj() and PROGRAM_MARK not in cls.type_object().metadata:
            ctx.api.fail(f'"{cls.type_object().name}" is not a pl program: decorate the class with '
                         f"@pl.program", ctx.context)
    return ctx.default_return_type


# ---- literals for scalar parameters -------------------------------------------------------

def _accepting_literals(t: Type, ctx: FunctionSigContext | MethodSigContext) -> Type:
    """A `Scalar[DT]` parameter's type widened by the Python literal the frontend turns into a
    DT constant (`self.kernel(x, 3)` for `n: pl.Scalar[pl.INT32]`): bool for BOOL, float (an int
    too) for a float dtype, int for an integer dtype or INDEX, any of them for `Scalar[Any]`."""
    p = get_proper_type(t)
    if not (isinstance(p, Instance) and p.type.fullname == SCALAR):
        return t
    dt = get_proper_type(p.args[0]) if p.args else None
    name = dt.type.name if isinstance(dt, Instance) else None
    literal = ("bool" if name == "BOOL" else "float" if name in FLOATS
               else "int" if name in DTYPES else None)
    names = [literal] if literal else ["int", "float", "bool"]
    return UnionType.make_union([t, *(ctx.api.named_generic_type(f"builtins.{n}", []) for n in names)])


def _literal_scalars(ctx: FunctionSigContext | MethodSigContext) -> FunctionLike:
    sig = ctx.default_signature
    widened = [_accepting_literals(t, ctx) for t in sig.arg_types]
    if all(a is b for a, b in zip(widened, sig.arg_types, strict=True)):
        return sig
    return sig.copy_modified(arg_types=widened)


# ---- plugin --------------------------------------------------------------------------------

def _spelling(fullname: str) -> str | None:
    module, _, name = fullname.rpartition(".")
    prefix = _OP_MODULES.get(module)
    if prefix is None:
        return None
    spelling = f"{prefix}.{name}"
    return spelling if spelling in spelling_index() or spelling in SCALAR_ONLY_SPELLINGS else None


class PlPlugin(Plugin):
    """Typed tiles: see the module docstring."""

    def get_type_analyze_hook(self, fullname: str) -> Callable[[AnalyzeTypeContext], Type] | None:
        return _ANNOTATIONS.get(fullname)

    def get_class_decorator_hook(self, fullname: str) -> Callable[[ClassDefContext], None] | None:
        return _mark_program if fullname == "pl.program" else None

    def get_function_signature_hook(self, fullname: str
                                    ) -> Callable[[FunctionSigContext], FunctionLike] | None:
        return _literal_scalars

    def get_method_signature_hook(self, fullname: str
                                  ) -> Callable[[MethodSigContext], FunctionLike] | None:
        return _literal_scalars

    def get_function_hook(self, fullname: str) -> Callable[[FunctionContext], Type] | None:
        if fullname in PROGRAM_TAKERS:
            return _program_taker
        if fullname in LOOPS:
            return _loop_result
        if fullname == "pl.yield_":
            return _yield_result
        spelling = _spelling(fullname)
        return partial(_op_result, spelling) if spelling else None


def plugin(version: str) -> type[Plugin]:
    """mypy's entry point: the plugin class (the same for every supported version)."""
    return PlPlugin
