"""Type annotations (`pl.Tensor[...]`, `pl.Tile[...]`, `pl.Scalar[...]`, `pl.Out[...]`) to IR types.

Guarantees: heads are recognised by identity; a Tile takes up to three trailing items in any order
(one memory space, one `pl.TileView(...)`, one `pl.MemRef(...)`: an allocated MemRef is kept on the
type, lowering/frontend/memref.py, and needs the memory space); `pl.Ptr` is PtrType; omitted TileView fields come from
the implicit view of (shape, memory space); dims are positive ints, closure ints, `pl.dynamic`
objects or scalar values in scope. `check_local` enforces dsl.md 1.3 for `x: T = e`;
`type_mismatch` says why a tensor / tile value cannot stand where a type is declared (a callee's
parameter, a function's return annotation): another kind or dtype.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Final

import libcst as cst
from typing_extensions import assert_never

from pl.errors import PlError
from pl.ir.enums import (
    CompactMode,
    DType,
    MemorySpace,
    PadValue,
    ParamDirection,
    TensorLayout,
    TileLayout,
)
from pl.ir.expr import ConstInt, Expr, Var
from pl.ir.types import (
    ArrayType,
    HandleType,
    MemRef,
    PtrType,
    ScalarType,
    TensorType,
    TensorView,
    TileType,
    TupleType,
    Type,
    UnknownType,
    implicit_tile_view,
    static_shape,
    type_kind,
)
from pl.language import dsl
from pl.language.distributed import DistributedTensor
from pl.lowering.frontend.context import FnCtx
from pl.lowering.frontend.memref import check_declared, placed_memref
from pl.ops.rules.array import ARRAY_EXTENT, array_dtype_problem, is_array_dtype, is_array_extent
from pl.printer.program import print_type

LowerExpr = Callable[[FnCtx, cst.BaseExpression], Expr]


@dataclass
class Annot:
    """A lowered annotation: the type, plus which Tile parts the user wrote (they override)."""

    type: Type
    direction: ParamDirection = ParamDirection.In
    space_given: bool = False
    view_given: bool = False
    # Where a pl.Tile's memory space is written (its item of the subscript), if it is.
    space_node: cst.BaseExpression | None = None


def type_text(t: Type) -> str:
    """How messages spell a type: as the printer does, and locally for what it has no form for
    (an unknown type, an empty tuple)."""
    if not _printable(t):
        return _fallback_text(t)
    return print_type(t)


def _printable(t: Type) -> bool:
    if isinstance(t, TupleType):
        return bool(t.types) and all(_printable(x) for x in t.types)
    return not isinstance(t, UnknownType)


def _dim_text(d: Expr) -> str:
    if isinstance(d, ConstInt):
        return str(d.value)
    if isinstance(d, Var):
        return d.name
    return "?"


def _fallback_text(x: Type) -> str:
    t = type_kind(x)
    match t:
        case ScalarType(dtype=dt):
            return f"pl.Scalar[pl.{dt.name}]"
        case TensorType(shape=shape, dtype=dt, distributed=True):
            return f"pld.DistributedTensor[[{', '.join(map(_dim_text, shape))}], pl.{dt.name}]"
        case TensorType(shape=shape, dtype=dt):
            return f"pl.Tensor[[{', '.join(map(_dim_text, shape))}], pl.{dt.name}]"
        case TileType(shape=shape, dtype=dt, memory_space=sp):
            extra = f", pl.MemorySpace.{sp.name}" if sp is not None else ""
            return f"pl.Tile[[{', '.join(map(_dim_text, shape))}], pl.{dt.name}{extra}]"
        case TupleType(types=ts):
            return f"pl.Tuple[{', '.join(map(_fallback_text, ts))}]"
        case ArrayType(extent=n, dtype=dt):
            return f"pl.Array[{n}, pl.{dt.name}]"
        case PtrType():
            return "pl.Ptr"
        case HandleType(kind=name):
            return "pld.CommCtx" if name == "CommCtx" else f"pl.{name}"
        case UnknownType():
            return "Unknown"
        case _:
            assert_never(t)


def _items(ctx: FnCtx, node: cst.Subscript) -> list[cst.BaseExpression]:
    out: list[cst.BaseExpression] = []
    for el in node.slice:
        if not isinstance(el.slice, cst.Index):
            raise ctx.error(el, "A slice cannot be part of a type annotation",
                            hint="e.g. pl.Tensor[[64, 128], pl.FP32]")
        out.append(el.slice.value)
    return out


def lower_annotation(ctx: FnCtx, node: cst.BaseExpression, lower_expr: LowerExpr) -> Annot:
    if isinstance(node, cst.Subscript):
        head = ctx.resolve(node.value)
        items = _items(ctx, node)
    elif isinstance(node, cst.Call) and isinstance(node.func, cst.Name | cst.Attribute):
        head = ctx.resolve(node.func)
        items = [a.value for a in node.args]
    elif isinstance(node, cst.Name | cst.Attribute):
        head = ctx.resolve(node)
        if head is None:
            return Annot(TupleType(()))
        items = []
    else:
        raise ctx.error(node, "Unsupported type annotation")
    if head is dsl.Out or head is dsl.InOut:
        if len(items) != 1:
            raise ctx.error(node, f"{head.__name__}[...] takes exactly one type")
        inner = lower_annotation(ctx, items[0], lower_expr)
        if not isinstance(inner.type, TensorType | TileType | ScalarType):
            raise ctx.error(items[0], f"pl.{head.__name__}[...] takes a pl.Tensor, pl.Tile or "
                                      "pl.Scalar type")
        if head is dsl.InOut and isinstance(inner.type, ScalarType):
            raise ctx.error(node, "InOut is not allowed on a Scalar parameter")
        direction = ParamDirection.Out if head is dsl.Out else ParamDirection.InOut
        return replace(inner, direction=direction)
    if head is dsl.Scalar:
        if len(items) != 1:
            raise ctx.error(node, "pl.Scalar[...] takes exactly one dtype")
        return Annot(ScalarType(_dtype(ctx, items[0])))
    if head is dsl.Tensor:
        return _tensor(ctx, node, items, lower_expr)
    if head is DistributedTensor:
        # A trailing "window_buffer=<name>" is the reference's debug marker, informational only.
        if items and isinstance(items[-1], cst.SimpleString) and \
                str(items[-1].evaluated_value).startswith("window_buffer="):
            items = items[:-1]
        annot = _tensor(ctx, node, items, lower_expr)
        assert isinstance(annot.type, TensorType)
        return replace(annot, type=replace(annot.type, distributed=True))
    if head is dsl.Tile:
        return _tile(ctx, node, items, lower_expr)
    if head is dsl.Tuple or head is builtins.tuple or head is tuple:
        types = []
        for i in items:
            t = lower_annotation(ctx, i, lower_expr).type
            if isinstance(t, TupleType) and not t.types:  # `None` has no value to hold
                raise ctx.error(i, "pl.Tuple[...] elements cannot be None")
            types.append(t)
        return Annot(TupleType(tuple(types)))
    if head is dsl.Array:
        return Annot(_array(ctx, node, items, lower_expr))
    if head is dsl.Ptr and isinstance(node, cst.Name | cst.Attribute):
        return Annot(PtrType())
    if isinstance(head, DType):
        return Annot(ScalarType(head))
    if isinstance(head, dsl.Handle) and not items:
        return Annot(HandleType(head.kind))
    raise ctx.error(node, f"Unsupported type annotation '{cst.Module([]).code_for_node(node)}'",
                    hint="Use pl.Tensor[[...], dtype], pl.Tile[[...], dtype] or pl.Scalar[dtype]")


def _array(ctx: FnCtx, node: cst.BaseExpression, items: list[cst.BaseExpression],
           lower_expr: LowerExpr) -> ArrayType:
    """`pl.Array[extent, dtype]`: a positive constant extent, an integer or BOOL dtype."""
    if len(items) != 2:
        raise ctx.error(node, "pl.Array[...] takes an extent and a dtype",
                        hint="e.g. pl.Array[8, pl.INT32]")
    extent, dtype = lower_expr(ctx, items[0]), _dtype(ctx, items[1])
    if not is_array_extent(extent):
        raise ctx.error(items[0], ARRAY_EXTENT)
    if not is_array_dtype(dtype):
        raise ctx.error(items[1], array_dtype_problem(dtype))
    assert isinstance(extent, ConstInt)  # is_array_extent checked it
    return ArrayType(extent.value, dtype)


def _dtype(ctx: FnCtx, node: cst.BaseExpression) -> DType:
    val = ctx.resolve(node) if isinstance(node, cst.Name | cst.Attribute) else None
    if not isinstance(val, DType):
        raise ctx.error(node, "Expected a dtype such as pl.FP32")
    return val


def shape_of(ctx: FnCtx, node: cst.BaseExpression, lower_expr: LowerExpr,
             least: int = 1) -> tuple[Expr, ...]:
    """The dims of a shape literal; each an integer of at least `least` (a tile's valid shape may
    be empty: a window read past its source's end has valid extent 0, as in the reference)."""
    if isinstance(node, cst.List | cst.Tuple):
        return tuple(_dim(ctx, el.value, lower_expr, least) for el in node.elements)
    named = ctx.try_resolve(node) if isinstance(node, cst.Name | cst.Attribute) else None
    if isinstance(named, list | tuple):  # a Python name bound to a shape, e.g. `shape = [64, 128]`
        return tuple(_named_dim(ctx, node, d, least) for d in named)
    raise ctx.error(node, "Shape must be a list literal such as [64, 128], or a name bound to one")


def _named_dim(ctx: FnCtx, node: cst.BaseExpression, dim: Any, least: int) -> Expr:
    """One dim of a shape given by name: a Python int or a `pl.dynamic` dim (the IR keeps the
    dims themselves, so the printed text shows the literal shape)."""
    if isinstance(dim, dsl.DynVar):
        return ctx.prog.dyn_var(dim)
    if isinstance(dim, int) and not isinstance(dim, bool) and dim >= least:
        return ConstInt(dim, DType.INDEX)
    raise ctx.error(node, f"Shape element {dim!r} is not {_dim_wanted(least)}")


def _dim_wanted(least: int) -> str:
    return "a positive integer" if least == 1 else f"an integer >= {least}"


def _dim(ctx: FnCtx, node: cst.BaseExpression, lower_expr: LowerExpr, least: int) -> Expr:
    if isinstance(node, cst.Name):
        auto = ctx.prog.auto_dim(node.value) if ctx.lookup_var(node.value) is None else None
        obj = auto if auto is not None else ctx.resolve(node)
        if isinstance(obj, dsl.DynVar):
            return ctx.prog.dyn_var(obj)
    inline = _inline_dynamic(ctx, node)
    if inline is not None:
        return ctx.prog.dyn_var(inline)
    dim = lower_expr(ctx, node)
    if isinstance(dim, ConstInt):
        if dim.value < least:
            raise ctx.error(node, f"Dimension must be {_dim_wanted(least)}, got {dim.value}")
        return ConstInt(dim.value, DType.INDEX)
    if not isinstance(dim.type, ScalarType) or not (dim.type.dtype.is_int()):
        raise ctx.error(node, "Dimension must be an integer or a scalar index value")
    return dim


def _inline_dynamic(ctx: FnCtx, node: cst.BaseExpression) -> dsl.DynVar | None:
    """A dim written `pl.dynamic("NR")` in the shape itself: the program's dynamic dim of that
    name (a module's `NR = pl.dynamic("NR")`, or the one other inline spellings made), as the
    printed text, which names it `NR`, reads back."""
    if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Name | cst.Attribute)
            and ctx.try_resolve(node.func) is dsl.dynamic):
        return None
    arg = node.args[0].value if len(node.args) == 1 and node.args[0].keyword is None else None
    if not isinstance(arg, cst.SimpleString):
        raise ctx.error(node, 'pl.dynamic in a shape takes one string literal: pl.dynamic("N")')
    name = arg.evaluated_value
    if not isinstance(name, str) or not name.isidentifier():
        raise ctx.error(arg, f"pl.dynamic's name must be an identifier, got {name!r}")
    named = [obj for obj, _ in ctx.prog.dyn_vars.values() if obj.name == name]
    return named[0] if named else ctx.prog.auto_dyn.setdefault(name, dsl.DynVar(name))


def _enum_arg(ctx: FnCtx, node: cst.BaseExpression, kinds: tuple[type, ...]) -> Any:
    val = ctx.resolve(node) if isinstance(node, cst.Name | cst.Attribute) else None
    if not isinstance(val, kinds):
        raise ctx.error(node, f"Expected one of {', '.join(k.__name__ for k in kinds)}")
    return val


def _view_call(ctx: FnCtx, node: cst.BaseExpression) -> Any:
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Name | cst.Attribute):
        head = ctx.resolve(node.func)
        if head in (dsl.TileView, dsl.TensorView, dsl.MemRef):
            return head
    return None


def _named(ctx: FnCtx, node: cst.BaseExpression) -> Any:
    """What a bare name or dotted attribute denotes (None for any other node, or a name that does
    not resolve)."""
    return ctx.try_resolve(node) if isinstance(node, cst.Name | cst.Attribute) else None


def _is_memref(ctx: FnCtx, node: cst.BaseExpression, named: Any) -> bool:
    """A module constant `X = pl.MemRef(...)` in an annotation (`named`: `_named(ctx, node)`), or
    one slot of one (`X[1]` of `pl.MemRef(slots=2)`, `pl.MemRef("buf", slots=2)[0]`): ignored as
    the call is."""
    if isinstance(node, cst.Subscript):
        base = node.value
        return _view_call(ctx, base) is dsl.MemRef or isinstance(_named(ctx, base), dsl.MemRef)
    return isinstance(named, dsl.MemRef)


def _kwargs(ctx: FnCtx, call: cst.Call) -> dict[str, cst.BaseExpression]:
    out: dict[str, cst.BaseExpression] = {}
    for a in call.args:
        if a.keyword is None:
            raise ctx.error(a, "View fields are keyword arguments")
        out[a.keyword.value] = a.value
    return out


def _tensor(ctx: FnCtx, node: cst.BaseExpression, items: list[cst.BaseExpression],
            lower_expr: LowerExpr) -> Annot:
    if len(items) < 2:
        raise ctx.error(node, "pl.Tensor needs a shape and a dtype: pl.Tensor[[64, 128], pl.FP32]")
    shape = shape_of(ctx, items[0], lower_expr)
    dtype = _dtype(ctx, items[1])
    view: TensorView | None = None
    memref: MemRef | None = None
    for extra in items[2:]:
        head = _view_call(ctx, extra)
        named = _named(ctx, extra)
        if head is dsl.TensorView:
            assert isinstance(extra, cst.Call)
            kw = _kwargs(ctx, extra)
            fields: dict[str, Any] = {}
            for key, val in kw.items():
                if key == "valid_shape":  # a window past its source's valid end holds none
                    fields[key] = shape_of(ctx, val, lower_expr, least=0)
                elif key == "stride":
                    fields[key] = shape_of(ctx, val, lower_expr)
                elif key == "layout":
                    fields[key] = _enum_arg(ctx, val, (TensorLayout,))
                elif key == "pad":
                    fields[key] = _enum_arg(ctx, val, (PadValue,))
                else:
                    raise ctx.error(val, f"Unknown TensorView field '{key}'")
            view = TensorView(**fields)
        elif head is dsl.MemRef or _is_memref(ctx, extra, named):
            memref = placed_memref(ctx, extra, lower_expr)
        else:
            layout = _enum_arg(ctx, extra, (TensorLayout,))
            view = TensorView(layout=layout)
    return Annot(TensorType(shape, dtype, view, memref))


_TILE_FIELDS: Final = frozenset({"valid_shape", "stride", "start_offset", "blayout", "slayout", "fractal",
                                "pad", "compact"})


def _tile(ctx: FnCtx, node: cst.BaseExpression, items: list[cst.BaseExpression],
          lower_expr: LowerExpr) -> Annot:
    if len(items) < 2:
        raise ctx.error(node, "pl.Tile needs a shape and a dtype: pl.Tile[[64, 64], pl.FP32]")
    if len(items) > 5:
        raise ctx.error(items[5], "pl.Tile takes at most a memory space, a TileView and a MemRef")
    shape = shape_of(ctx, items[0], lower_expr)
    dtype = _dtype(ctx, items[1])
    space: MemorySpace | None = None
    space_node: cst.BaseExpression | None = None
    view_kw: dict[str, Any] | None = None
    memref: MemRef | None = None
    memref_node: cst.BaseExpression | None = None
    for extra in items[2:]:
        head = _view_call(ctx, extra)
        named = _named(ctx, extra)  # looked up once: a memory space (most often) or a MemRef
        if head is dsl.TileView:
            assert isinstance(extra, cst.Call)
            view_kw = {}
            for key, val in _kwargs(ctx, extra).items():
                if key not in _TILE_FIELDS:
                    raise ctx.error(val, f"Unknown TileView field '{key}'",
                                    hint=f"TileView fields: {', '.join(sorted(_TILE_FIELDS))}")
                view_kw[key] = _view_field(ctx, key, val, lower_expr)
                if key == "valid_shape" and view_kw[key] and len(view_kw[key]) != len(shape):
                    raise ctx.error(val, f"valid_shape has {len(view_kw[key])} dims but the "
                                         f"tile has rank {len(shape)}")
        elif head is dsl.MemRef or _is_memref(ctx, extra, named):
            memref = placed_memref(ctx, extra, lower_expr)
            memref_node = extra
            if memref is None:
                check_declared(ctx, extra)
        else:
            # (`resolve` raises the located error of a name that does not resolve.)
            obj = named if named is not None or not isinstance(extra, cst.Name | cst.Attribute) \
                else ctx.resolve(extra)
            if isinstance(obj, TensorLayout):
                raise ctx.error(extra, "Tensor layouts are not allowed on pl.Tile")
            if not isinstance(obj, MemorySpace):
                raise ctx.error(extra, "Expected a memory space such as pl.MemorySpace.Vec, "
                                       "a pl.TileView(...) or a pl.MemRef(...)")
            space, space_node = obj, extra
    if memref_node is not None and space is None:
        # Memory lies in one space: the reference refuses any MemRef (declared ones too) without it.
        raise ctx.error(memref_node, "A pl.Tile with a pl.MemRef(...) must also give its memory space",
                        hint="e.g. pl.Tile[[64, 64], pl.FP32, pl.MemRef(mem_vec_0, 0, 16384), pl.Mem.Vec]")
    t = TileType(shape, dtype, space, tile_view(shape, space, view_kw), memref)
    return Annot(t, space_given=space is not None, view_given=view_kw is not None,
                 space_node=space_node)


def tile_view(shape: tuple[Expr, ...], space: MemorySpace | None,
              fields: dict[str, Any] | None) -> Any:
    if not fields:
        return None
    return replace(implicit_tile_view(shape, space), **fields)


def _view_field(ctx: FnCtx, key: str, val: cst.BaseExpression, lower_expr: LowerExpr) -> Any:
    if key == "valid_shape":
        return shape_of(ctx, val, lower_expr, least=0)
    if key == "stride":
        return shape_of(ctx, val, lower_expr)
    if key == "start_offset":
        return lower_expr(ctx, val)
    if key in ("blayout", "slayout"):
        return _enum_arg(ctx, val, (TileLayout,))
    if key == "pad":
        return _enum_arg(ctx, val, (PadValue,))
    if key == "compact":
        return _enum_arg(ctx, val, (CompactMode,))
    e = lower_expr(ctx, val)
    if not isinstance(e, ConstInt):
        raise ctx.error(val, "fractal must be an integer literal")
    return e.value


def _kind(t: Type) -> str:
    return {ScalarType: "pl.Scalar", TensorType: "pl.Tensor", TileType: "pl.Tile",
            TupleType: "pl.Tuple", PtrType: "pl.Ptr"}.get(type(t), "Unknown")


def type_mismatch(declared: Type, actual: Type) -> str | None:
    """Why a value of type `actual` cannot stand where `declared` is written, or None when it can.

    Only tensor and tile declarations are compared, by kind and dtype (an integer literal's INDEX
    dtype matches any integer dtype). Shapes are not compared: the reference binds a callee's dims
    and rank to its arguments' and keeps a `->` annotation as written, and its own kernels pass
    and return values of other shapes and ranks than declared."""
    if not isinstance(declared, TensorType | TileType) or isinstance(actual, UnknownType):
        return None
    if type(actual) is not type(declared):
        return f"is {_kind(actual)} but {_kind(declared)} is declared"
    assert isinstance(actual, TensorType | TileType)
    a, d = actual.dtype, declared.dtype
    if a != d and not (DType.INDEX in (a, d) and a.is_int() and d.is_int()):
        return f"has dtype {a.short} but {d.short} is declared"
    return None


def placed_by_inference(ctx: FnCtx) -> bool:
    """Whether memory-space inference places the tiles of the statement being lowered: in an
    InCore, AIC or AIV function, or in a scope compiling outlines into one."""
    return ctx.func_type.is_incore_kind() or ctx.outlined_scope() is not None


def check_local(ctx: FnCtx, name: str, ann: Annot, inferred: Type, node: cst.CSTNode) -> Type:
    """The type of `name: <ann> = <expr of type inferred>` (dsl.md 1.3), or a located error."""
    at = ann.type
    if isinstance(inferred, UnknownType):
        return at
    if type(at) is not type(inferred):
        raise ctx.error(node, f"Type annotation for '{name}' is {_kind(at)} but expression is "
                              f"{_kind(inferred)}", hint=_change_to(inferred))
    match at, inferred:
        case (ScalarType(dtype=a), ScalarType(dtype=b)):
            # INDEX (loop variables, bare literals) passes for any integer annotation and back,
            # as in the reference; the frontend stamps a literal with the annotated dtype.
            if a != b and not (DType.INDEX in (a, b) and a.is_int() and b.is_int()):
                raise _dtype_error(ctx, name, a, b, node, _change_to(inferred))
            return at
        case (TensorType() | TileType(), TensorType() | TileType()):
            if at.dtype != inferred.dtype:
                raise _dtype_error(ctx, name, at.dtype, inferred.dtype, node, _change_to(inferred))
            ash, ish = at.shape, inferred.shape
            if len(ash) != len(ish):
                raise ctx.error(node, f"Type annotation for '{name}' has rank {len(ash)} but "
                                      f"expression has rank {len(ish)}", hint=_change_to(inferred))
            for da, db in zip(ash, ish, strict=True):
                if isinstance(da, ConstInt) and isinstance(db, ConstInt) and da.value != db.value:
                    raise ctx.error(node, f"Type annotation for '{name}' has shape "
                                          f"[{', '.join(map(_dim_text, ash))}] but expression has "
                                          f"shape [{', '.join(map(_dim_text, ish))}]",
                                    hint=_change_to(inferred))
            if isinstance(at, TileType) and isinstance(inferred, TileType):
                if at.memref is not None and inferred.memory_space not in (None, at.memory_space):
                    # Allocated memory lies in one space, and inference never moves it.
                    assert at.memory_space is not None and inferred.memory_space is not None
                    raise ctx.error(node, f"'{name}' is bound to memory allocated in "
                                          f"{at.memory_space.name} (its pl.MemRef), but its value is a "
                                          f"{inferred.memory_space.name} tile; allocated memory is "
                                          "never moved", hint=_change_to(inferred))
                if ann.view_given and inferred.view is not None:
                    _check_valid_region(ctx, name, at, inferred, node)
                if ann.space_given and inferred.memory_space not in (None, at.memory_space) \
                        and not placed_by_inference(ctx):
                    # Only inference (InCore, AIC, AIV functions and the pl.at scopes compiling
                    # outlines into InCore functions) reconciles a written space with the
                    # value's by a move; elsewhere the value would be one space and the name
                    # another (a loop carrying it took the name's).
                    assert at.memory_space is not None and inferred.memory_space is not None
                    raise ctx.error(node, f"'{name}' is annotated {at.memory_space.name} but its "
                                          f"value is a {inferred.memory_space.name} tile; only an "
                                          "InCore, AIC or AIV function or a pl.at(level=pl.Level."
                                          "CORE_GROUP) scope moves a tile to the space written "
                                          "for it", hint=_change_to(inferred))
                space = at.memory_space if ann.space_given else inferred.memory_space
                view = at.view if ann.view_given else inferred.view
                memref = at.memref if at.memref is not None else inferred.memref
                return TileType(inferred.shape, inferred.dtype, space, view, memref)
            return at
        case (ArrayType(), ArrayType()):
            if at.dtype != inferred.dtype:
                raise _dtype_error(ctx, name, at.dtype, inferred.dtype, node, _change_to(inferred))
            if at.extent != inferred.extent:
                raise ctx.error(node, f"Type annotation for '{name}' has extent {at.extent} but "
                                      f"expression has extent {inferred.extent}", hint=_change_to(inferred))
            return at
        case _:
            return at


def _check_valid_region(ctx: FnCtx, name: str, at: TileType, inferred: TileType,
                        node: cst.CSTNode) -> None:
    """An annotation may state the valid region of a value that has a view of its own only as
    that region: the program is typed by the value (SSA keeps a declared region only for a
    value without a view, `pl.ir.types.declared_valid`), so another region would make the
    source compute one thing and its compiled form another."""
    declared = static_shape(at.view.valid_shape or at.shape) if at.view is not None else None
    own = static_shape(inferred.view.valid_shape or inferred.shape) if inferred.view else None
    if declared is not None and own is not None and declared != own:
        raise ctx.error(node, f"Type annotation for '{name}' has valid_shape {list(declared)} but "
                              f"the expression's valid region is {list(own)}",
                        hint=_change_to(inferred))


def _change_to(inferred: Type) -> str:
    """The hint of a wrong annotation. Built only where an error is raised: it prints a type, and
    every annotated statement of a kernel is checked."""
    return f"Change annotation to: {type_text(inferred)}"


def _dtype_error(ctx: FnCtx, name: str, a: DType, b: DType, node: cst.CSTNode,
                 hint: str) -> PlError:
    return ctx.error(node, f"Type annotation for '{name}' has dtype {a.short} but expression has "
                           f"dtype {b.short}", hint=hint)
