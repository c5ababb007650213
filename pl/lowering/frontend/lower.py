"""The frontend entry points: `@pl.program` classes and `@pl.function` functions to IR.

Guarantees: the kernel's whole file is parsed once per import of its module (the parse is held in
the module's own namespace under MODULE_PARSE, never by pl) and the class / function is found by
its qualified name, so spans are the file's own lines and columns; methods count when one of
their decorators evaluates to `pl.function` (identity, any spelling); a program is lowered in two
passes (headers and GlobalVars first, then bodies in source order); every user mistake is a
located `PlError`, checked before it can raise anything else; any other exception is a bug of pl
and propagates as itself (the CLI reports it as an internal error).
"""

from __future__ import annotations

import inspect
import linecache
import sys
from collections.abc import Callable, Sequence
from typing import Any

import libcst as cst

from pl.deep_stack import on_deep_stack
from pl.errors import PlError, frame_span, suggest
from pl.gc_pause import gc_paused
from pl.ir.enums import DType, FunctionType, Level, ParamDirection, Role, default_level_role
from pl.ir.expr import ConstBool, ConstFloat, ConstInt, GlobalVar, Var
from pl.ir.function import Function, Program
from pl.ir.span import Span
from pl.ir.stmt import make_body
from pl.ir.traverse import type_exprs, walk_exprs
from pl.ir.types import ScalarType, TupleType, Type
from pl.language.dsl import DynVar, func_attr
from pl.lowering.frontend.blocks import lower_block, suite
from pl.lowering.frontend.context import FnCtx, ProgCtx, Signature, is_pl_module
from pl.lowering.frontend.exprs import attrs_arg, lower_expr, lower_value
from pl.lowering.frontend.inline import InlineFunction, inline_function
from pl.lowering.frontend.source import SourceFile
from pl.lowering.frontend.stmts import dsl_callee
from pl.lowering.frontend.types import Annot, lower_annotation


class _Header:
    def __init__(self, node: cst.FunctionDef, ctx: FnCtx, params: list[Var],
                 directions: list[ParamDirection], returns: tuple[Type, ...], ft: FunctionType,
                 level: Level | None, role: Role | None, attrs: list[tuple[str, Any]],
                 external: str | None = None) -> None:
        self.node, self.ctx, self.params, self.directions = node, ctx, params, directions
        self.returns, self.ft, self.level, self.role, self.attrs = returns, ft, level, role, attrs
        # `external_source=`: a declared external kernel's C++ source (its body is `...`).
        self.external = external


def _decorator_value(probe: FnCtx, dec: cst.Decorator, strict: bool = False) -> Any:
    """What a decorator (or the callee of a decorator call) names; None when it is no name or
    does not resolve statically. Its located error instead (with a "did you mean" where there
    is one) for a misspelt DSL name (`@pl.functoin`), and for any name when `strict` (the
    methods of a program class): Python would fail on it, and skipping it would drop a kernel
    function silently."""
    target = dec.decorator.func if isinstance(dec.decorator, cst.Call) else dec.decorator
    if not isinstance(target, cst.Name | cst.Attribute):
        return None
    try:
        return probe.resolve(target)
    except PlError:
        if strict or (isinstance(target, cst.Attribute)
                      and is_pl_module(probe.try_resolve(target.value))):
            raise
        return None


def function_decorator(prog: ProgCtx, fd: cst.FunctionDef, strict: bool = False
                       ) -> cst.Decorator | None:
    """The def's `@pl.function` decorator, None without one (`strict`: see `_decorator_value`)."""
    probe = FnCtx(prog, fd.name.value, None)
    return next((dec for dec in fd.decorators if _decorator_value(probe, dec, strict) is function),
                None)


def is_inline_decorated(prog: ProgCtx, fd: cst.FunctionDef) -> bool:
    """One of the def's decorators evaluates to `pl.inline` (identity, any spelling)."""
    probe = FnCtx(prog, fd.name.value, None)
    return any(isinstance(d.decorator, cst.Name | cst.Attribute)
               and _decorator_value(probe, d) is inline for d in fd.decorators)


def is_program_decorator(prog: ProgCtx, dec: cst.Decorator) -> bool:
    return _decorator_value(FnCtx(prog, "", None), dec) is program


def _literal(ctx: FnCtx, node: cst.BaseExpression) -> Any:
    v = lower_value(ctx, node)
    if isinstance(v, ConstInt | ConstFloat | ConstBool):
        return v.value
    return v


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def _header(prog: ProgCtx, fd: cst.FunctionDef, dec: cst.Decorator | None,
            in_class: bool, param_type: Callable[[FnCtx, cst.Param], Annot] | None = None,
            returns_written: bool = True) -> _Header:
    """`param_type`: each parameter's type and direction, in place of its annotation's
    (a `@pl.jit` specialisation's: pl/jit); `returns_written` False: the `->` annotation is
    not read (a `@pl.jit` one without shapes, which the returned values give)."""
    name = fd.name.value
    if fd.asynchronous is not None:
        raise prog.src.error(fd.asynchronous, f"Kernel '{name}' cannot be an async def",
                             hint="Write `def`: kernels are compiled, not awaited")
    params_cst = list(fd.params.params)
    if fd.params.star_arg not in (None, cst.MaybeSentinel.DEFAULT) or fd.params.star_kwarg \
            or fd.params.kwonly_params or fd.params.posonly_params:
        raise prog.src.error(fd.params, f"Function '{name}' may only have plain parameters")
    self_name = None
    if in_class and params_cst and params_cst[0].annotation is None:
        self_name = params_cst[0].name.value
        params_cst = params_cst[1:]
    ctx = FnCtx(prog, name, self_name)
    ft, level, role = FunctionType.Opaque, None, None
    attrs: list[tuple[str, Any]] = []
    external: str | None = None
    if dec is not None and isinstance(dec.decorator, cst.Call):
        for a in dec.decorator.args:
            key = a.keyword.value if a.keyword is not None else None
            if key == "attrs":
                attrs.extend(attrs_arg(ctx, a.value, "@pl.function(attrs=...)"))
                continue
            val = _literal(ctx, a.value)
            if key == "type":
                if not isinstance(val, FunctionType):
                    names = ", ".join(m.name for m in FunctionType)
                    raise ctx.error(a.value, "type= must be a pl.FunctionType member",
                                    hint=f"Valid function types: {names}")
                ft = val
            elif key == "level":
                if not isinstance(val, Level):
                    raise ctx.error(a.value, "level= must be a pl.Level member")
                level = val
            elif key == "role":
                if not isinstance(val, Role):
                    raise ctx.error(a.value, "role= must be a pl.Role member")
                role = val
            elif key == "auto_scope":
                if not isinstance(val, bool):
                    raise ctx.error(a.value, "auto_scope= must be True or False")
                ctx.auto_scope = val
            elif key == "external_source":
                if not isinstance(val, str) or not val:
                    raise ctx.error(a.value, "external_source= must be the path of the kernel's "
                                             "C++ source, a non-empty string",
                                    hint='e.g. external_source="kernels/relu.cpp"')
                external = val
            elif key == "strict_ssa":
                continue
            elif key is None:
                raise ctx.error(a.value, "@pl.function takes its options as keywords",
                                hint=f"write @pl.function(type={_code(a.value)})"
                                if isinstance(val, FunctionType) else
                                "e.g. @pl.function(type=pl.FunctionType.InCore)")
            else:
                accepted = "type, level, role, attrs, auto_scope, strict_ssa, external_source"
                raise ctx.error(a, f"Unknown @pl.function argument '{key}'",
                                hint=suggest(key, accepted.split(", "))
                                or f"Accepted arguments: {accepted}")
    dl, dr = default_level_role(ft)
    if level is not None and dl is not None and level != dl:
        raise ctx.error(dec, f"Function type {ft.name} runs at level {dl.name}, not {level.name}")
    if role is not None and dr is not None and role != dr:
        raise ctx.error(dec, f"Function type {ft.name} has role {dr.name}, not {role.name}")
    level, role = level or dl, role or dr
    params: list[Var] = []
    directions: list[ParamDirection] = []
    read: set[int] = set()  # id() of every Var an earlier parameter's annotation reads
    for p in params_cst:
        pname = p.name.value
        if param_type is not None:
            ann = param_type(ctx, p)
        elif p.annotation is None:
            raise ctx.error(p.name, f"Parameter '{pname}' missing type annotation",
                            hint=f"Add a type annotation like: {pname}: pl.Tensor[[64], pl.FP32]")
        else:
            ann = lower_annotation(ctx, p.annotation.annotation, lower_expr)
        if isinstance(ann.type, TupleType) and not ann.type.types:  # `x: None`
            raise ctx.error(p.annotation.annotation if p.annotation else p.name,
                            f"Parameter '{pname}' cannot have type None",
                            hint=f"Give it a type, e.g. {pname}: pl.Tensor[[64], pl.FP32]")
        _check_late_symbol(ctx, p.name, ann.type, read)
        read.update(id(v) for e in type_exprs(ann.type) for v in walk_exprs(e) if isinstance(v, Var))
        var = Var(pname, ann.type, span=prog.src.stmt_span(fd))
        params.append(var)
        directions.append(ann.direction)
        ctx.bind(pname, var)
        ctx.params.add(id(var))
    returns: tuple[Type, ...] = ()
    if fd.returns is not None and returns_written:
        rt = lower_annotation(ctx, fd.returns.annotation, lower_expr).type
        returns = rt.types if isinstance(rt, TupleType) else (rt,)
    return _Header(fd, ctx, params, directions, returns, ft, level, role, attrs, external)


def _check_late_symbol(ctx: FnCtx, name: cst.Name, t: Type, read: set[int]) -> None:
    """An INDEX scalar parameter named like a `pl.dynamic` symbol stands for that symbol in the
    annotations after it; one that comes after an annotation already read the symbol cannot (that
    annotation keeps the symbol, a second extent nobody passes), so it is refused, as in the
    reference."""
    if not (isinstance(t, ScalarType) and t.dtype is DType.INDEX):
        return
    prog = ctx.prog
    symbol = prog.auto_dyn.get(name.value) or prog.lookup_py(name.value)
    if not isinstance(symbol, DynVar) or id(symbol) not in prog.dyn_vars \
            or id(prog.dyn_var(symbol)) not in read:
        return
    raise ctx.error(name, f"Parameter '{name.value}' shadows the dynamic symbol '{name.value}', "
                          "which an earlier parameter's type annotation already uses",
                    hint=f"Declare '{name.value}: pl.Scalar[pl.INDEX]' before the parameters whose "
                         "annotations name it, so they resolve to the parameter")


def _body(h: _Header) -> Function:
    ctx = h.ctx
    ctx.func_type = h.ft
    ctx.level = h.level
    ctx.return_types = h.returns
    name = h.node.name.value
    stmts = suite(h.node.body)
    if h.level is not None and h.level.value >= Level.HOST.value and h.role is Role.SubWorker:
        return _host_function(h, stmts)
    ellipsis = _abstract_body(stmts)
    if h.external is not None:
        return _external_function(h, ellipsis)
    if ellipsis is not None:
        raise ctx.error(ellipsis, f"Function '{name}' has no body, only `...`",
                        hint="an abstract body (a callback bound at run time) has no IR in pl: "
                             "write the function's statements")
    body = lower_block(ctx, stmts)
    twice = [k for k, _ in ctx.attrs if any(k == d for d, _ in h.attrs)]
    if twice:
        raise ctx.error(h.node.name, f"Duplicate function attribute '{twice[0]}': given by both "
                                     "@pl.function(attrs=...) and pl.func_attr(...)",
                        hint="Each attribute may be declared only once.")
    return Function(name, tuple(h.params), tuple(h.directions), h.returns, make_body(body), h.ft,
                    h.level, h.role, tuple(h.attrs + ctx.attrs), auto_scope=ctx.auto_scope,
                    span=ctx.src.stmt_span(h.node), written_spaces=tuple(ctx.written_spaces),
                    same_variable=tuple(ctx.same_variable.items()))


def _host_function(h: _Header, stmts: Sequence[cst.CSTNode]) -> Function:
    """A HOST-level SubWorker: plain Python the host runs, kept as the text of its body (after a
    leading `pl.func_attr(...)`, which gives attrs), as the reference keeps it; `...` alone is a
    callback bound at run time."""
    ctx, name = h.ctx, h.node.name.value
    if ctx.self_name is not None:
        raise ctx.error(h.node.name, f"SubWorker function '{name}' must not declare 'self'",
                        hint="A HOST SubWorker is self-contained: remove the 'self' parameter")
    rest = list(stmts)
    while rest and isinstance(rest[0], cst.SimpleStatementLine) \
            and len(rest[0].body) == 1 and isinstance(rest[0].body[0], cst.Expr) \
            and dsl_callee(ctx, rest[0].body[0].value) is func_attr:
        lower_block(ctx, rest[:1])
        rest = rest[1:]
    footer = h.node.body.footer if isinstance(h.node.body, cst.IndentedBlock) else ()
    text = "".join(_code(n) for n in (*rest, *footer)).rstrip()
    return Function(name, tuple(h.params), tuple(h.directions), h.returns, make_body([]), h.ft,
                    h.level, h.role, tuple(h.attrs + ctx.attrs), host_body=text,
                    auto_scope=ctx.auto_scope,
                    span=ctx.src.stmt_span(h.node))


def _external_function(h: _Header, ellipsis: cst.CSTNode | None) -> Function:
    """A declared external kernel (`external_source=`): its signature, no body (`...`)."""
    ctx, name = h.ctx, h.node.name.value
    if ellipsis is None:
        raise ctx.error(h.node.name, f"Function '{name}' declares an external kernel "
                                     "(external_source=), so its body must be `...` alone",
                        hint="the kernel's body is its C++ source; write the signature only")
    if not (h.ft.is_incore_kind() or h.ft is FunctionType.Opaque):
        raise ctx.error(h.node.name, f"Function '{name}' declares an external kernel, which runs "
                                     f"on a core: its type cannot be {h.ft.name}",
                        hint="type=pl.FunctionType.AIV, AIC or InCore")
    return Function(name, tuple(h.params), tuple(h.directions), h.returns, make_body([]), h.ft,
                    h.level, h.role, tuple(h.attrs), auto_scope=ctx.auto_scope,
                    external_source=h.external, span=ctx.src.stmt_span(h.node))


def _abstract_body(stmts: Sequence[cst.CSTNode]) -> cst.CSTNode | None:
    """The `...` of a body that holds nothing else (a docstring aside), else None."""
    exprs = [small.value for line in stmts if isinstance(line, cst.SimpleStatementLine)
             for small in line.body if isinstance(small, cst.Expr)]
    if len(exprs) != len(stmts) or not exprs or not isinstance(exprs[-1], cst.Ellipsis):
        return None
    if all(isinstance(e, cst.SimpleString | cst.ConcatenatedString) for e in exprs[:-1]):
        return exprs[-1]
    return None


def lower_class_node(prog: ProgCtx, cd: cst.ClassDef) -> Program:
    methods: list[tuple[cst.FunctionDef, cst.Decorator]] = []
    for s in suite(cd.body):
        if isinstance(s, cst.FunctionDef):
            dec = function_decorator(prog, s, strict=True)
            if dec is not None:
                methods.append((s, dec))
    if not methods:
        raise prog.src.error(cd.name, f"Class '{cd.name.value}' contains no @pl.function "
                                      "decorated methods",
                             hint="Decorate the kernel methods with @pl.function")
    headers = []
    for fd, dec in methods:
        name = fd.name.value
        if name in prog.signatures:
            raise prog.src.error(fd.name, f"Function '{name}' is defined twice in the program")
        h = _header(prog, fd, dec, in_class=True)
        prog.signatures[name] = Signature(
            name, [(p.name, p.type, d) for p, d in zip(h.params, h.directions, strict=True)],
            h.returns, h.ft, GlobalVar(name), h.role)
        headers.append(h)
    funcs = tuple(_body(h) for h in headers)
    return Program(cd.name.value, funcs + tuple(prog.externals.values()),
                   span=prog.src.stmt_span(cd))


def lower_function_node(prog: ProgCtx, fd: cst.FunctionDef) -> Function:
    return _body(_header(prog, fd, function_decorator(prog, fd), in_class=False))


# -- locating the kernel's source -------------------------------------------------------------


# The nodes that can hold statements (and so definitions): compound statements and their clauses.
_HOLDS_STATEMENTS = (cst.Module, cst.BaseCompoundStatement, cst.BaseSuite, cst.Else,
                     cst.ExceptHandler, cst.ExceptStarHandler, cst.Finally, cst.MatchCase)


class _Definitions(cst.CSTVisitor):
    """`module.visit(_Definitions())` then `.found`: qualname -> class/def nodes in source order,
    as Python computes `__qualname__`. Definitions are statements: the visit enters only the
    nodes that can hold statements (most of a kernel's nodes are expressions and simple
    statements, and a full visit costs about as much as the parse itself)."""

    def __init__(self) -> None:
        super().__init__()
        self.found: dict[str, list[cst.CSTNode]] = {}
        self._prefix = [""]

    def on_visit(self, node: cst.CSTNode) -> bool:
        if not isinstance(node, _HOLDS_STATEMENTS):
            return False
        if isinstance(node, cst.ClassDef | cst.FunctionDef):
            qual = self._prefix[-1] + node.name.value
            self.found.setdefault(qual, []).append(node)
            self._prefix.append(qual + (".<locals>." if isinstance(node, cst.FunctionDef) else "."))
        return True

    def on_leave(self, original_node: cst.CSTNode) -> None:
        if isinstance(original_node, cst.ClassDef | cst.FunctionDef):
            self._prefix.pop()


def definitions(module: cst.Module) -> dict[str, list[cst.CSTNode]]:
    """qualname -> class/def nodes in source order, as Python computes `__qualname__`."""
    v = _Definitions()
    module.visit(v)
    return v.found


def _find(src: SourceFile, qualname: str, line: int | None, what: str) -> cst.CSTNode:
    cands = definitions(src.module).get(qualname, [])
    if not cands:
        raise PlError(f"Cannot find the source of {what} '{qualname}' in {src.filename}")
    if len(cands) == 1 or line is None:
        return cands[-1]
    # Several definitions share the qualname: the one starting closest after `line`.
    best = min(cands, key=lambda c: abs(src.stmt_span(c).line - line))
    return best


# The name under which a kernel module's own namespace holds the parse of its file while it is
# imported: every `@pl.program` / `@pl.function` of the module lowers from that one parse (a file
# of K programs would otherwise be parsed K times), and it goes when the module goes. Nothing of
# pl's keeps it.
MODULE_PARSE = "__pl_parsed__"


def _source_of(obj: Any, what: str) -> tuple[SourceFile, dict[str, Any]]:
    """The parsed file defining `obj` (the one its module holds, if its text is the file's
    current text), and the globals `obj` sees."""
    module = sys.modules.get(getattr(obj, "__module__", ""), None)
    try:
        filename = inspect.getsourcefile(obj) or inspect.getfile(obj)
    except (TypeError, OSError):
        filename = getattr(module, "__file__", None) or "<unknown>"
    lines = linecache.getlines(filename, module.__dict__ if module else None)
    if not lines:
        raise PlError(f"Cannot read the source of {what} '{obj.__qualname__}' ({filename})",
                      hint="Kernels must be defined in a file (or passed to pl.parse as text)")
    glb = getattr(obj, "__globals__", None) or (module.__dict__ if module else {})
    text = "".join(lines)
    held = glb.get(MODULE_PARSE)
    if isinstance(held, SourceFile) and held.filename == filename and held.text == text:
        return held, glb
    src = SourceFile(filename, text)
    if glb:  # the namespace of the module being imported (its functions' globals)
        glb[MODULE_PARSE] = src
    return src, glb


def _closure(fn: Callable[..., Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    code = getattr(fn, "__code__", None)
    cells = getattr(fn, "__closure__", None) or ()
    if code is None:
        return out
    for name, cell in zip(code.co_freevars, cells, strict=False):
        try:
            out[name] = cell.cell_contents
        except ValueError:  # an empty cell: the name is assigned after the class body ran
            continue
    return out


@gc_paused()
def lower_class(cls: type, strict_ssa: bool = False, scope: dict[str, Any] | None = None) -> Program:
    """What `@pl.program` calls: the class's `@pl.function` methods as an `ir.Program`.

    `scope` is the decorating frame's locals (names annotations may use beyond the closures).
    """
    return on_deep_stack(lambda: _lower_class(cls, strict_ssa, scope))


def _lower_class(cls: type, strict_ssa: bool, scope: dict[str, Any] | None) -> Program:
    methods = [f for f in vars(cls).values() if callable(f) and hasattr(f, "__code__")]
    src, glb = _source_of(cls, "class") if not methods else _source_of(methods[0], "class")
    closure: dict[str, Any] = dict(scope) if scope and scope is not glb else {}
    for m in methods:
        closure.update(_closure(m))
    line = min((m.__code__.co_firstlineno for m in methods), default=None)
    node = _find(src, cls.__qualname__, None if line is None else line - 1, "class")
    assert isinstance(node, cst.ClassDef)
    prog = ProgCtx(src, glb, closure, strict_ssa=strict_ssa)
    return lower_class_node(prog, node)


@gc_paused()
def lower_function(fn: Callable[..., Any], scope: dict[str, Any] | None = None) -> Function:
    """What `@pl.function` calls on a function that is not a method."""
    src, glb = _source_of(fn, "function")
    closure = dict(scope) if scope and scope is not glb else {}
    closure.update(_closure(fn))
    node = _find(src, fn.__qualname__, fn.__code__.co_firstlineno, "function")
    assert isinstance(node, cst.FunctionDef)
    prog = ProgCtx(src, glb, closure)
    return on_deep_stack(lambda: lower_function_node(prog, node))


def function(fn: Callable[..., Any] | None = None, /, **options: Any) -> Any:
    """`@pl.function` / `@pl.function(type=..., level=..., role=..., ...)`.

    On a method the raw function is returned (`@pl.program` lowers it from the source);
    on a module-level function the decorated function is lowered to an `ir.Function` right away.
    """
    # Annotations see the caller's locals, which a function's closure may not hold.
    caller = sys._getframe(1)
    scope = dict(caller.f_locals)
    if fn is not None and not callable(fn):  # `@pl.function(pl.FunctionType.InCore)`
        raise PlError("@pl.function takes its options as keywords",
                      frame_span(caller),
                      hint=f"write @pl.function(type=pl.{fn})" if isinstance(fn, FunctionType)
                      else "e.g. @pl.function(type=pl.FunctionType.InCore)").uncaught()

    def apply(f: Callable[..., Any]) -> Any:
        if _is_method(f):  # `@pl.program` reads the method's decorator from the source
            return f
        try:
            return lower_function(f, scope=scope)
        except PlError as error:
            raise error.uncaught() from None

    if fn is None:
        return apply
    return apply(fn)


def inline(fn: Callable[..., Any]) -> InlineFunction:
    """`@pl.inline`: a helper whose body is spliced into each call in a kernel
    (lowering/frontend/inline.py); its definition is read from its file when decorated."""
    scope = dict(sys._getframe(1).f_locals)
    if not callable(fn) or not hasattr(fn, "__code__"):
        raise PlError("@pl.inline must decorate a def", frame_span(sys._getframe(1))).uncaught()
    try:
        src, glb = _source_of(fn, "function")
        closure = dict(scope) if scope and scope is not glb else {}
        closure.update(_closure(fn))
        node = _find(src, fn.__qualname__, fn.__code__.co_firstlineno, "function")
        assert isinstance(node, cst.FunctionDef)
        return inline_function(ProgCtx(src, glb, closure), node)
    except PlError as error:
        raise error.uncaught() from None


def program(cls: type | None = None, /, *, strict_ssa: bool = False) -> Any:
    """`@pl.program` / `@pl.program(strict_ssa=...)` on a class: lowered to an `ir.Program`."""
    scope = dict(sys._getframe(1).f_locals)

    def apply(c: type) -> Any:
        if not isinstance(c, type):
            raise program_target_error(f"{type(c).__name__} {getattr(c, '__name__', '')!r}",
                                       _definition_span(c)).uncaught()
        try:
            return lower_class(c, strict_ssa=strict_ssa, scope=scope)
        except PlError as error:
            raise error.uncaught() from None

    if cls is None:
        return apply
    return apply(cls)


def _is_method(fn: Callable[..., Any]) -> bool:
    """A function defined directly in a class body (its qualname's parent is not `<locals>`)."""
    parts = getattr(fn, "__qualname__", "").split(".")
    return len(parts) >= 2 and parts[-2] != "<locals>"


def program_target_error(what: str, span: Span | None) -> PlError:
    """`@pl.program` put on something that is not a class (`what`: "function 'f'")."""
    return PlError("@pl.program must decorate a class whose methods are @pl.function kernels, "
                   f"not {what}".rstrip(), span,
                   hint="write `@pl.program` above `class Name:`; use `@pl.function` on a def")


def _definition_span(obj: Any) -> Span | None:
    """Where a decorated object is defined (its first decorator line), if Python knows it."""
    code = getattr(obj, "__code__", None)
    if code is None:
        return None
    return Span(code.co_filename, code.co_firstlineno, 1)
