"""`@pl.jit` functions as the frontend sees them: a def, its kind, and the program it specialises to.

Guarantees:
- a `JitDef` is one `@pl.jit` / `.host` / `.incore` / `.opaque` / `.inline` / `.extern` def: its
  kind, its options, and where its definition is (its file's parse and the names it sees). It is
  made by pl/jit (the decorators, when the file runs) or by static loading (reading the file);
  both specialise it the same way, here.
- a parameter annotated `pl.Tensor` (or `pl.Out[pl.Tensor]`, `pl.InOut[pl.Tensor]`, or not at
  all) takes the shape and dtype its argument gives (a `TensorSpec`); a written annotation is
  kept (`pl.Tensor[[M, 128], pl.FP32]`, `M` a `pl.dynamic`, stays dynamic) and an argument that
  does not fit it is a located error. A `->` annotation with a bare `pl.Tensor` is not read.
- `specialise(given)` is the program: the entry first, then one function per (callee, argument
  types) its bodies call, each lowered from its own def with the types of its arguments, found by
  name in its own module; an `.inline` callee is spliced at each call (lowering/frontend/
  inline.py). A plain entry calling an entry is refused; a `.host` one calls them. An `.extern`
  callee (C++ sources) is a declared external function (`Function.external_source`, body `...`):
  an AIC or AIV function, or for a mixed kernel its AIC and AIV members and a Group of the stub's
  name calling both (`ExternSpec`); its parameters are typed as any callee's, and an unshaped
  `->` annotation is a located error (nothing else gives the shape).
- in the bodies, `a.shape`, `a.shape[i]`, `a.dtype` are the specialisation's constants
  (lowering/frontend/jit_static.py).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

import libcst as cst

from pl.deep_stack import on_deep_stack
from pl.errors import PlError
from pl.ir.enums import DType, FunctionType, Level, ParamDirection, Role, default_level_role
from pl.ir.expr import Call, ConstInt, Expr, GlobalVar, TupleGetItem, Var
from pl.ir.function import Function, Program
from pl.ir.span import Span
from pl.ir.stmt import AssignStmt, EvalStmt, ReturnStmt, Stmt, make_body
from pl.ir.types import ScalarType, TensorType, TileType, TupleType, Type
from pl.language import dsl
from pl.lowering.frontend.context import FnCtx, InlineCallee, ProgCtx, Signature
from pl.lowering.frontend.exprs import lower_expr, specialised_call
from pl.lowering.frontend.inline import inline_function
from pl.lowering.frontend.lower import _body, _header
from pl.lowering.frontend.types import Annot, lower_annotation, type_text
from pl.lowering.source.static_eval import StaticNamespace

# The kinds of `@pl.jit.*`: FunctionType, level, role of the function each makes.
KINDS: Mapping[str, tuple[FunctionType, Level | None, Role | None]] = MappingProxyType({
    "entry": (FunctionType.Orchestration, *default_level_role(FunctionType.Orchestration)),
    "host": (FunctionType.Opaque, Level.HOST, Role.Orchestrator),
    "incore": (FunctionType.InCore, *default_level_role(FunctionType.InCore)),
    "opaque": (FunctionType.Opaque, None, None),
    "inline": (FunctionType.Inline, None, None),
    "extern": (FunctionType.InCore, *default_level_role(FunctionType.InCore)),
})
ENTRY_KINDS = ("entry", "host")


@dataclass(frozen=True)
class TensorSpec:
    """The shape and dtype an argument gives its parameter (what a specialisation depends on)."""

    shape: tuple[int, ...]
    dtype: DType

    def text(self) -> str:
        return f"{'x'.join(map(str, self.shape))}:{self.dtype.name}"


@dataclass(frozen=True)
class ExternSpec:
    """What `@pl.jit.extern(...)` declares besides the signature: the core type ('aic', 'aiv'
    or 'mixed'), the C++ source of each core's kernel (an absolute path; in a file read
    statically, where the path is a value only the run computes, the expression as written in
    angle brackets: `<cpp>`), whether a mixed kernel's vector half runs on both AIV lanes, and
    the extra include folders. A call of it is a call of the external function(s) it makes: one
    AIC or AIV function whose body is its source (`@pl.function(type=..., external_source=...)`,
    body `...`), or for 'mixed' an AIC and an AIV member and a Group function of the stub's name
    calling both, as the reference's specialiser renders it."""

    core_type: str
    aic_source: str | None
    aiv_source: str | None
    dual_aiv_dispatch: bool = False
    include_dirs: tuple[str, ...] = ()


# The attr names the reference gives an external member's include folders and dual dispatch.
EXTERNAL_INCLUDE_DIRS_ATTR = "external_include_dirs"
DUAL_AIV_DISPATCH_ATTR = "dual_aiv_dispatch"


def extern_spec(options: Mapping[str, Any]) -> ExternSpec:
    """The ExternSpec of `@pl.jit.extern(**options)` (sources already resolved to paths); a
    PlError, with the reference's wording, for options the reference refuses."""
    known = ("core_type", "source", "aic_source", "aiv_source", "dual_aiv_dispatch",
             "include_dirs")
    unknown = [k for k in options if k not in known]
    if unknown:
        raise PlError(f"@pl.jit.extern does not take {', '.join(unknown)}",
                      hint=f"its options: {', '.join(known)}")
    core = options.get("core_type", "aiv")
    if core not in ("aic", "aiv", "mixed"):
        raise PlError(f"@pl.jit.extern core_type must be 'aic', 'aiv', or 'mixed', got {core!r}")
    dual = options.get("dual_aiv_dispatch", False)
    if dual and core != "mixed":
        raise PlError("@pl.jit.extern dual_aiv_dispatch=True requires core_type='mixed'")
    source, aic, aiv = (options.get(k) for k in ("source", "aic_source", "aiv_source"))
    if core == "mixed":
        if aic is None or aiv is None:
            raise PlError("@pl.jit.extern(core_type='mixed') requires both aic_source= and "
                          "aiv_source=")
    else:
        single = source if source is not None else (aic or aiv)
        if single is None:
            raise PlError(f"@pl.jit.extern(core_type={core!r}) requires source=")
        aic, aiv = (single, None) if core == "aic" else (None, single)
    dirs = options.get("include_dirs") or ()
    if isinstance(dirs, str) or not isinstance(dirs, list | tuple):
        raise PlError("@pl.jit.extern include_dirs must be a sequence of paths, got "
                      f"{type(dirs).__name__}")
    return ExternSpec(core, aic, aiv, bool(dual), tuple(str(d) for d in dirs))


@dataclass(frozen=True)
class JitMarker:
    """What `pl.jit.<kind>` is in a file read statically: the decorator, known by identity."""

    kind: str


# `pl.jit` in a file read statically (lowering/source/static_module.py): the entry decorator, and
# its kinds as attributes. Immutable markers, compared by identity.
JIT_SURFACE = StaticNamespace("jit", {k: JitMarker(k) for k in KINDS if k != "entry"})

# A sample of one parameter: an array's shape and dtype, a number, or None (not given).
Sample = TensorSpec | int | float | bool | None


class JitDef(InlineCallee):
    """One `@pl.jit.*` def (see the module): `definition()` gives its file's parse as a jit
    ProgCtx (the names it sees) and its def node."""

    def __init__(self, kind: str, name: str, level: Level | None, auto_scope: bool,
                 definition: Callable[[], tuple[ProgCtx, cst.FunctionDef]],
                 external: ExternSpec | PlError | None = None) -> None:
        self.kind, self.name, self.level, self.auto_scope = kind, name, level, auto_scope
        self.definition = definition
        # `.extern`: what it declares (a PlError: its options are refused, said where it is
        # called; a file read statically is not refused for a stub nothing calls).
        self.external = external

    def __repr__(self) -> str:
        return f"<pl.jit{'' if self.kind == 'entry' else '.' + self.kind} function {self.name}>"

    def param_names(self) -> list[str]:
        _, node = self.definition()
        return [p.name.value for p in node.params.params]

    def unshaped(self, given: list[Sample]) -> list[str]:
        """The parameters with neither a written shape nor a sample in `given` (what
        `specialise(given)` refuses, "has no shape")."""
        prog, node = self.definition()
        probe = FnCtx(prog, self.name, None)
        return [p.name.value for p, g in zip(node.params.params, given, strict=True)
                if g is None and _split(probe, p)[2]]

    def specialise(self, given: list[Sample] | None,
                   calls: dict[tuple[str, str], tuple[tuple[Type, ...], FunctionType]] | None
                   = None) -> Program:
        """The program of this entry for arguments like `given` (one per parameter; None: every
        parameter's type is written); `calls` gets the argument types of its callees' first
        calls (`ProgCtx.call_types`)."""
        prog, node = self.definition()
        if calls is not None:
            prog.call_types = calls

        def build() -> Program:
            binds = bound_dynamic(node)
            entry = self._function(prog, node, self.name, lambda ctx, i, p: _entry_param(
                ctx, p, None if given is None else given[i], self.name,
                binds.get(p.name.value, {})))
            return Program(self.name, (entry, *prog.externals.values()),
                           span=prog.src.stmt_span(node))

        program: Program = on_deep_stack(build)
        return program

    def _function(self, prog: ProgCtx, node: cst.FunctionDef, name: str,
                  param_type: Callable[[FnCtx, int, cst.Param], Annot],
                  external: tuple[FunctionType, str, list[tuple[str, Any]]] | None = None
                  ) -> Function:
        """The function `name` lowered from `node` (`external`: a declared external kernel of
        that type, source and attrs, no body)."""
        ft, level, role = KINDS[self.kind]
        params = list(node.params.params)
        h = _header(prog, node, None, in_class=False,
                    param_type=lambda ctx, p: param_type(ctx, params.index(p), p),
                    returns_written=node.returns is None or _shaped(prog, node.returns.annotation))
        h.ft, h.level, h.role = ft, self.level or level, role
        h.ctx.auto_scope = self.auto_scope
        if external is not None:
            if node.returns is not None and not _shaped(prog, node.returns.annotation):
                raise prog.src.error(node.returns.annotation, f"the external kernel '{self.name}' "
                                     "returns a pl.Tensor without a shape: its body is C++, so "
                                     "nothing gives the shape",
                                     hint="write the returned type, e.g. "
                                          "-> pl.Tensor[[64, 64], pl.FP32]")
            h.ft, h.external, h.attrs = external
            h.level, h.role = default_level_role(h.ft)
        prog.signatures[name] = Signature(
            name, [(p.name, p.type, d) for p, d in zip(h.params, h.directions, strict=True)],
            h.returns, ft, GlobalVar(name), role)
        if self.kind == "host":
            prog.jit_hosts.add(name)
        fn = _body(h)
        return fn if fn.name == name else replace(fn, name=name)

    def _external(self, prog: ProgCtx, node: cst.FunctionDef, name: str,
                  param_type: Callable[[FnCtx, int, cst.Param], Annot], spec: ExternSpec,
                  into: ProgCtx) -> Function:
        """The function a call of this `.extern` stub calls (see ExternSpec); a mixed kernel's
        AIC and AIV members are added to `into.externals`, before the Group returned."""
        dirs: list[tuple[str, Any]] = [(EXTERNAL_INCLUDE_DIRS_ATTR,
                                        json.dumps(list(spec.include_dirs)))] \
            if spec.include_dirs else []
        if spec.core_type != "mixed":
            source = spec.aic_source if spec.core_type == "aic" else spec.aiv_source
            assert source is not None
            ft = FunctionType.AIC if spec.core_type == "aic" else FunctionType.AIV
            return self._function(prog, node, name, param_type, (ft, source, dirs))
        assert spec.aic_source is not None and spec.aiv_source is not None
        dual: list[tuple[str, Any]] = [(DUAL_AIV_DISPATCH_ATTR, True)] \
            if spec.dual_aiv_dispatch else []
        aic = self._function(prog, node, f"{name}_aic", param_type,
                             (FunctionType.AIC, spec.aic_source, dirs))
        aiv = self._function(prog, node, f"{name}_aiv", param_type,
                             (FunctionType.AIV, spec.aiv_source, dirs + dual))
        into.externals[aic.name], into.externals[aiv.name] = aic, aiv
        params = tuple(Var(p.name, p.type, span=p.span) for p in aic.params)
        level, role = default_level_role(FunctionType.Group)
        group = Function(name, params, aic.directions, aic.return_types,
                         _group_body(name, params, aic.name, aiv.name, aic.return_types,
                                     aic.span),
                         FunctionType.Group, level, role, span=aic.span)
        prog.signatures[name] = Signature(
            name, [(p.name, p.type, d) for p, d in zip(params, aic.directions, strict=True)],
            aic.return_types, FunctionType.Group, GlobalVar(name), role)
        return group

    def expand(self, ctx: FnCtx, call: cst.Call, as_value: bool = True) -> Expr | None:
        """A call of this function in a kernel being lowered: spliced (`.inline`), or a call of
        the program function its arguments' types make of it."""
        prog, node = self.definition()
        here = replace(ctx.prog, src=prog.src, globals=prog.globals, closure=prog.closure)
        if self.kind == "inline":
            return inline_function(here, node).expand(ctx, call, as_value)
        if isinstance(self.external, PlError):
            raise self.external
        if self.kind in ENTRY_KINDS and ctx.name not in ctx.prog.jit_hosts:
            raise ctx.error(call.func, f"'{self.name}' is a @pl.jit entry: only a @pl.jit.host "
                                       "function calls entries",
                            hint=f"make '{self.name}' a @pl.jit.incore or @pl.jit.opaque "
                                 "function to call it from this one")

        def specialise(pos: list[cst.Arg], lowered: tuple[Expr, ...]) -> Signature:
            params = list(node.params.params)
            if len(pos) != len(params):
                raise ctx.error(call, f"Function '{self.name}' expects {len(params)} "
                                      f"argument(s), got {len(pos)}",
                                hint=f"Parameters: {[p.name.value for p in params]}")
            types = tuple(e.type for e in lowered)
            ctx.prog.note_call(prog.src.filename, self.name, types, ctx.func_type)
            key = (id(self), types)
            hit = ctx.prog.jit_calls.get(key)
            if hit is not None:
                return hit
            taken = set(ctx.prog.signatures) | set(ctx.prog.externals)
            name, n = self.name, 1
            while name in taken or self.kind == "extern" and \
                    {f"{name}_aic", f"{name}_aiv"} & taken:
                n += 1
                name = f"{self.name}_{n}"

            def param_type(c: FnCtx, i: int, p: cst.Param) -> Annot:
                return _callee_param(c, p, types[i], self.name)

            if isinstance(self.external, ExternSpec):
                fn = self._external(here, node, name, param_type, self.external, ctx.prog)
            else:
                fn = self._function(here, node, name, param_type)
            sig = ctx.prog.signatures[name]
            ctx.prog.jit_calls[key] = sig
            ctx.prog.externals[name] = fn
            return sig

        value = specialised_call(ctx, call, specialise)
        if not as_value:
            assert ctx.hoisted is not None
            ctx.hoisted.append(EvalStmt(value, span=ctx.cur_span))
            return None
        return value


def _group_body(name: str, params: tuple[Var, ...], aic: str, aiv: str,
                returns: tuple[Type, ...], span: Span) -> Stmt:
    """A mixed external kernel's Group function body: its AIC member's call (whose results it
    returns: the AIC lane echoes the outputs) and its AIV member's, on its own parameters."""
    result_type = returns[0] if len(returns) == 1 else TupleType(returns)
    first = Call(GlobalVar(aic), params, result_type=result_type, span=span)
    second = EvalStmt(Call(GlobalVar(aiv), params, result_type=result_type, span=span),
                      span=span)
    if not returns:
        return make_body([EvalStmt(first, span=span), second])
    result = Var(f"{name}_out", first.type, span=span)
    values: tuple[Expr, ...] = (result,)
    if len(returns) > 1:
        values = tuple(TupleGetItem(result, i, span=span) for i in range(len(returns)))
    return make_body([AssignStmt(result, first, span=span), second,
                      ReturnStmt(values, span=span)])


def jit_decorator(ctx: FnCtx, node: cst.FunctionDef
                  ) -> tuple[str, Level | None, bool, ExternSpec | PlError | None] | None:
    """The kind, level, auto_scope and (`.extern`) declaration of a def's `@pl.jit*` decorator
    in a file read statically (None: it has none)."""
    for dec in node.decorators:
        target = dec.decorator.func if isinstance(dec.decorator, cst.Call) else dec.decorator
        if not isinstance(target, cst.Name | cst.Attribute):
            continue
        obj = ctx.try_resolve(target)
        kind = "entry" if obj is JIT_SURFACE else obj.kind if isinstance(obj, JitMarker) else None
        if kind is None:
            continue
        level, auto_scope = None, True
        options: dict[str, Any] = {}
        if isinstance(dec.decorator, cst.Call):
            for a in dec.decorator.args:
                key = a.keyword.value if a.keyword is not None else None
                value = ctx.try_resolve(a.value) if isinstance(a.value, cst.Name | cst.Attribute) \
                    else None
                if key == "level" and isinstance(value, Level):
                    level = value
                elif key == "auto_scope" and isinstance(a.value, cst.Name):
                    auto_scope = a.value.value != "False"
                elif key is not None:
                    options[key] = _option(ctx, a.value)
        external: ExternSpec | PlError | None = None
        if kind == "extern":
            folder = os.path.dirname(os.path.abspath(ctx.src.filename)) \
                if not ctx.src.filename.startswith("<") else None
            for key in ("source", "aic_source", "aiv_source"):
                if isinstance(options.get(key), str):
                    options[key] = _path(options[key], folder)
            if isinstance(options.get("dual_aiv_dispatch"), str):
                del options["dual_aiv_dispatch"]  # only the run knows: the default, False
            if isinstance(options.get("include_dirs"), list):
                options["include_dirs"] = [_path(d, folder) if isinstance(d, str) else d
                                           for d in options["include_dirs"]]
            try:
                external = extern_spec(options)
            except PlError as e:
                external = ctx.src.locate(e, dec)
        return kind, level, auto_scope, external
    return None


def _path(path: str, folder: str | None) -> str:
    """An external kernel's source path: absolute, a relative one read from the stub's folder
    (as the reference resolves it); an unreadable one (`<cpp>`) as it is."""
    if path.startswith("<") or folder is None or os.path.isabs(path):
        return path
    return os.path.abspath(os.path.join(folder, path))


def _option(ctx: FnCtx, node: cst.BaseExpression) -> Any:
    """A `.extern` decorator option in a file read statically: a literal (a string, number,
    True / False / None, a list of them) or a name bound to one; else what the file writes,
    in angle brackets (`<cpp>`: a value only the run computes)."""
    if isinstance(node, cst.SimpleString | cst.ConcatenatedString) \
            and isinstance(node.evaluated_value, str):
        return node.evaluated_value
    if isinstance(node, cst.Integer):
        return int(node.value, 0)
    if isinstance(node, cst.List | cst.Tuple):
        return [_option(ctx, e.value) for e in node.elements]
    if isinstance(node, cst.Name) and node.value in ("True", "False", "None"):
        return {"True": True, "False": False, "None": None}[node.value]
    if isinstance(node, cst.Name | cst.Attribute):
        value = ctx.try_resolve(node)
        if isinstance(value, str | bool | int):
            return value
    return "<" + cst.Module([]).code_for_node(node) + ">"


def _shaped(prog: ProgCtx, node: cst.BaseExpression) -> bool:
    """No bare `pl.Tensor` in a `->` annotation (`pl.Tensor`, `tuple[pl.Tensor, ...]`)."""
    probe = FnCtx(prog, "", None)
    return not any(probe.try_resolve(n) is dsl.Tensor for n in _names(node))


def _names(node: cst.BaseExpression) -> list[cst.Name | cst.Attribute]:
    """The names and dotted names that stand alone in an annotation (not subscripted)."""
    if isinstance(node, cst.Name | cst.Attribute):
        return [node]
    if isinstance(node, cst.Subscript):
        return [n for el in node.slice if isinstance(el.slice, cst.Index)
                for n in _names(el.slice.value)]
    if isinstance(node, cst.Tuple | cst.List):
        return [n for el in node.elements for n in _names(el.value)]
    return []


def _split(ctx: FnCtx, p: cst.Param) -> tuple[cst.BaseExpression | None, ParamDirection, bool]:
    """A parameter's annotation without its Out / InOut, that direction, and whether it is a
    bare `pl.Tensor` or missing (the argument gives the type)."""
    if p.annotation is None:
        return None, ParamDirection.In, True
    node = p.annotation.annotation
    direction = ParamDirection.In
    if isinstance(node, cst.Subscript) and len(node.slice) == 1 \
            and isinstance(node.slice[0].slice, cst.Index):
        head = ctx.try_resolve(node.value)
        if head is dsl.Out or head is dsl.InOut:
            direction = ParamDirection.Out if head is dsl.Out else ParamDirection.InOut
            node = node.slice[0].slice.value
    bare = isinstance(node, cst.Name | cst.Attribute) and ctx.try_resolve(node) is dsl.Tensor
    return node, direction, bare


def shape_hint(fname: str, name: str) -> str:
    return (f"call '{fname}' with arrays (or samples: {fname}.lower(...)), write its shape "
            f"({name}: pl.Tensor[[16, 128], pl.FP32]), or for show_inferred give it: "
            f"--shape {name}=16x128:FP32")


def bound_dynamic(node: cst.FunctionDef) -> dict[str, dict[int, cst.Call]]:
    """The body's `x.bind_dynamic(dim, SYM)` statements (its own, not nested), by parameter
    name and dim: the sample's extent in that dim is the `pl.dynamic` SYM instead."""
    found: dict[str, dict[int, cst.Call]] = {}
    body = node.body.body if isinstance(node.body, cst.IndentedBlock) else ()
    for line in body:
        if not isinstance(line, cst.SimpleStatementLine):
            continue
        for small in line.body:
            call = small.value if isinstance(small, cst.Expr) else None
            if isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) \
                    and call.func.attr.value == "bind_dynamic" \
                    and isinstance(call.func.value, cst.Name) and len(call.args) == 2 \
                    and isinstance(call.args[0].value, cst.Integer):
                dim = int(call.args[0].value.value, 0)
                found.setdefault(call.func.value.value, {})[dim] = call
    return found


def _entry_param(ctx: FnCtx, p: cst.Param, sample: Sample, fname: str,
                 binds: Mapping[int, cst.Call]) -> Annot:
    """An entry parameter's type: its annotation's, or the sample's shape and dtype where the
    annotation has none (a dim the body binds with `x.bind_dynamic(dim, SYM)`: SYM); the
    sample must fit a written shape."""
    node, direction, bare = _split(ctx, p)
    name = p.name.value
    if bare:
        if isinstance(sample, TensorSpec):
            dims: list[Expr] = [ConstInt(d, DType.INDEX) for d in sample.shape]
            for k, call in binds.items():
                sym = ctx.resolve(call.args[1].value)
                if not isinstance(sym, dsl.DynVar):
                    raise ctx.error(call.args[1].value, "bind_dynamic's second argument must be "
                                                        "a pl.dynamic symbol",
                                    hint="M = pl.dynamic(\"M\") at module level, then "
                                         f"{name}.bind_dynamic({k}, M)")
                if not 0 <= k < len(dims):
                    raise ctx.error(call.args[0], f"'{name}' has rank {len(dims)}: no dim {k} to "
                                                  "bind")
                dims[k] = ctx.prog.dyn_var(sym)
            return Annot(TensorType(tuple(dims), sample.dtype), direction)
        if p.annotation is None and isinstance(sample, bool | int | float):
            return Annot(ScalarType(DType.BOOL if isinstance(sample, bool) else
                                    DType.INDEX if isinstance(sample, int) else DType.FP32))
        where = p.annotation.annotation if p.annotation is not None else p.name
        got = "" if sample is None else f" (its argument is {sample!r})"
        raise ctx.error(where, f"Parameter '{name}' of '{fname}' has no shape{got}",
                        hint=shape_hint(fname, name))
    assert node is not None and p.annotation is not None
    ann = lower_annotation(ctx, p.annotation.annotation, lower_expr)
    if isinstance(sample, TensorSpec):
        why = _fits(ann.type, sample)
        if why is not None:
            raise ctx.error(p.annotation.annotation,
                            f"Argument '{name}' of '{fname}' ({sample.text()}) {why}",
                            hint=f"'{fname}' declares {name}: {type_text(ann.type)}")
    elif sample is not None and not isinstance(ann.type, ScalarType):
        raise ctx.error(p.name, f"Argument '{name}' of '{fname}' is a number, but the parameter "
                                f"is {type_text(ann.type)}")
    return ann


def _fits(t: Type, sample: TensorSpec) -> str | None:
    """Why an array of `sample`'s shape and dtype cannot be a value of `t` (None: it can)."""
    if not isinstance(t, TensorType | TileType):
        return f"is an array, but the parameter is {type_text(t)}"
    if len(t.shape) != len(sample.shape):
        return f"has rank {len(sample.shape)}, the parameter {len(t.shape)}"
    if t.dtype is not sample.dtype:
        return f"has dtype {sample.dtype.name}, the parameter {t.dtype.name}"
    for k, (d, n) in enumerate(zip(t.shape, sample.shape, strict=True)):
        if isinstance(d, ConstInt) and d.value != n:
            return f"has extent {n} in dim {k}, the parameter {d.value}"
    return None


def _callee_param(ctx: FnCtx, p: cst.Param, arg: Type, fname: str) -> Annot:
    """A called function's parameter: its annotation's type, or its argument's where the
    annotation has no shape (the call checks the argument against a written type)."""
    _, direction, bare = _split(ctx, p)
    if bare:
        if isinstance(arg, TensorType):
            return Annot(TensorType(arg.shape, arg.dtype), direction)
        if p.annotation is None and isinstance(arg, ScalarType):
            return Annot(arg)
        raise ctx.error(p.name, f"Parameter '{p.name.value}' of '{fname}' is a pl.Tensor, but "
                                f"its argument is {type_text(arg)}")
    assert p.annotation is not None
    return lower_annotation(ctx, p.annotation.annotation, lower_expr)


def program_of(jit: JitDef, given: list[Sample] | None) -> Program:
    """`jit.specialise(given)` for an entry; a PlError for another kind."""
    if jit.kind not in ENTRY_KINDS:
        raise PlError(f"'{jit.name}' is a @pl.jit.{jit.kind} function: lower, compile or call "
                      "the @pl.jit entry that calls it")
    return jit.specialise(given)
