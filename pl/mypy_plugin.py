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
- op results: a tile result is in the space the registry says (`fixed`: that space; `target_memory`:
  the space the call names, else the kwarg default; inherit: the space of the first tile operand)
  with the dtype of the op record's dtype rule (`OpDef.result_dtype`, parsed by the registry from
  its op_types.tsv row) when the operands tell it, `Any` otherwise;
- `pl.range` / `pl.parallel` / `pl.unroll` / `pl.pipeline` / `pl.while_` with `init_values=(...)`
  iterate `(index, (values...))` with the init values' types; `pl.yield_(a, b)` has the type of its
  values, and inside a loop with `init_values` must pass as many values as the loop carries;
- a parameter typed `pl.Scalar[dtype]` also takes the Python literal of that dtype (an int for an
  integer dtype or INDEX, a float or an int for a float dtype, a bool for BOOL), as the frontend
  makes it a constant of the parameter's dtype;
- `pl.compile(C)` / `pl.interpret(C, ...)` with a class `C` not decorated with `@pl.program` is
  reported (the stubs accept a class there, since mypy types a decorated class as the class).
The plugin is stateless: every answer is computed from the call at hand and the op records
(`pl.ops.registry`, built once at import).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from types import MappingProxyType
from typing import Final

from mypy.checker import TypeChecker
from mypy.nodes import (
    Block,
    CallExpr,
    Expression,
    ForStmt,
    FuncItem,
    IfStmt,
    ListExpr,
    MemberExpr,
    NameExpr,
    Node,
    RefExpr,
    Statement,
    TupleExpr,
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
from typing_extensions import assert_never

from pl.ir.enums import DType, MemorySpace
from pl.ir.operators import promote
from pl.language.dsl_ops import SCALAR_ONLY_SPELLINGS, spelling_index
from pl.ops.registry import OpDef, get_op

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


def _dtype_of(t: Type) -> str | None:
    inst = _head(t)
    if inst is None or not inst.args:
        return None
    arg = get_proper_type(inst.args[0])
    return arg.type.name if isinstance(arg, Instance) else None


def _member_name(e: Expression | None, names: frozenset[str]) -> str | None:
    """`pl.MemorySpace.Acc`, `pl.Mem.Acc`, `pl.FP16`, `FP16`: the member name when it is one."""
    if isinstance(e, MemberExpr | NameExpr) and e.name in names:
        return e.name
    return None


class _Call:
    """The actuals of one op call keyed by the stub's formal names (positional or keyword)."""

    def __init__(self, ctx: FunctionContext) -> None:
        self.formals: list[tuple[str | None, Expression | None, Type | None]] = [
            (name, exprs[0] if exprs else None, types[0] if types else None)
            for name, exprs, types in zip(ctx.callee_arg_names, ctx.args, ctx.arg_types, strict=False)
        ]

    def expr(self, name: str) -> Expression | None:
        return next((e for n, e, _ in self.formals if n == name), None)

    def types(self) -> list[Type | None]:
        return [t for _, _, t in self.formals]

    def operand_dtypes(self) -> list[str | None]:
        return [_dtype_of(t) for t in self.types() if t is not None and _head(t) is not None]


def _pick_op(spelling: str, level: str, call: _Call) -> OpDef | None:
    ops = [op for name in spelling_index().get(spelling, ()) if (op := get_op(name)) and op.level == level]
    heads = [_head(t) if t is not None else None for t in call.types()]
    # A scalar slot rules out an op when a Tile / Tensor sits there (tile.add vs tile.adds).
    for op in ops:
        if all(a.kind != "scalar" or i >= len(heads) or heads[i] is None
               or heads[i].type.fullname == SCALAR  # type: ignore[union-attr]
               for i, a in enumerate(op.args)):
            return op
    return ops[0] if ops else None


def _space(op: OpDef, call: _Call) -> str | None:
    out = op.output_memory
    if out.kind == "fixed" and out.space is not None:
        return out.space.name
    if out.kind == "kwarg":
        given = call.expr("target_memory")
        if given is not None:
            return _member_name(given, SPACES)
        spec = op.kwarg_spec("target_memory")
        default = out.space.name if out.space else (spec.default if spec else None)
        return default if default in SPACES else None
    if out.kind == "inherit":
        for t in call.types():
            inst = _head(t) if t is not None else None
            if inst is not None and inst.type.fullname == TILE:
                arg = get_proper_type(inst.args[1])
                return arg.type.name if isinstance(arg, Instance) else None
    return None


def _promote(call: _Call) -> str | None:
    """The operands' dtypes promoted by the one rule (pl/ir/operators.py); None when one is not
    known."""
    dtypes = [DType[d] for d in call.operand_dtypes() if d is not None and d in DTYPES]
    if not dtypes or len(dtypes) != len(call.operand_dtypes()):
        return None
    out = dtypes[0]
    for d in dtypes[1:]:
        out = promote(out, d)
    return out.name


def _dtype(op: OpDef, call: _Call) -> str | None:
    rule = op.result_dtype
    dtypes = call.operand_dtypes()
    first = dtypes[0] if dtypes else None
    match rule.kind:
        case "kwarg":
            given = call.expr(rule.kwarg or "")
            if given is not None:
                return _member_name(given, DTYPES)
            if rule.fallback == "promote":
                return _promote(call)
            return rule.dtype or (first if rule.fallback == "first" else None)
        case "float_or_fp32":
            return None if first is None else (first if first in FLOATS else "FP32")
        case "float_acc":
            return None if first is None else ("FP32" if first in FLOATS else "INT32")
        case "int8_acc":
            return None if first is None else ("INT32" if first == "INT8" else "FP32")
        case "last":
            return dtypes[-1] if dtypes else None
        case "first":
            return first
        case "promote":
            return _promote(call)
        case "fixed":
            return rule.dtype
        case "unknown":
            return None
        case _:
            assert_never(rule.kind)


def _op_result(spelling: str, ctx: FunctionContext) -> Type:
    default = _head(ctx.default_return_type)
    if default is None:
        return ctx.default_return_type
    call = _Call(ctx)
    level = "tensor" if default.type.fullname == TENSOR else "tile"
    op = _pick_op(spelling, level, call) or _pick_op(spelling, "system", call)
    if op is None:
        return ctx.default_return_type
    dtype = _dtype(op, call)
    dt: Type = ctx.api.named_generic_type(f"{CORE}.{dtype}", []) if dtype else _any()
    if default.type.fullname == TILE:
        space = _space(op, call)
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
