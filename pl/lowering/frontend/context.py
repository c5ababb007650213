"""Lowering contexts: what a program and a function being lowered know, and name resolution.

Guarantees: a name resolves first to an IR value bound in the enclosing kernel scopes, then to the
Python object it denotes in the kernel's closure, module globals or builtins; DSL constructs are
then recognised by object identity, so any import spelling works. Kernel code is never executed:
only names and attribute chains are evaluated (`root.attr` once per function, see
`FnCtx.py_attrs`). `pl.dynamic` objects map to one Var per program.
"""

from __future__ import annotations

import builtins
import os
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from enum import Enum
from types import ModuleType
from typing import TYPE_CHECKING, Any

import libcst as cst

from pl.errors import PlError, suggest
from pl.ir.enums import FunctionType, Level, ParamDirection, Role, ScopeKind
from pl.ir.expr import ConstInt, Expr, GlobalVar, IterArg, Op, Var
from pl.ir.function import Function, WrittenSpace
from pl.ir.span import UNKNOWN_SPAN, Span
from pl.ir.stmt import Stmt
from pl.ir.types import TensorType, TileType, Type
from pl.language import dsl
from pl.language.dsl_ops import OpNamespace, suggest_op
from pl.lowering.frontend.source import SourceFile
from pl.lowering.outline import OUTLINING
from pl.lowering.source.static_eval import EXEC_HINT, StaticNamespace, Unresolved

if TYPE_CHECKING:  # scope_args lowers through this context: a type-only edge
    from pl.lowering.frontend.scope_args import OpenScope

_MISSING = object()


@dataclass
class Signature:
    """What pass one of a program learns from a method's header."""

    name: str
    params: list[tuple[str, Type, ParamDirection]]
    return_types: tuple[Type, ...]
    func_type: FunctionType
    gvar: GlobalVar
    role: Role | None = None


@dataclass
class ProgCtx:
    src: SourceFile
    globals: dict[str, Any]
    closure: dict[str, Any] = field(default_factory=dict)
    strict_ssa: bool = False
    auto_dynamic: bool = False
    signatures: dict[str, Signature] = field(default_factory=dict)
    dyn_vars: dict[int, tuple[Any, Var]] = field(default_factory=dict)
    auto_dyn: dict[str, dsl.DynVar] = field(default_factory=dict)
    # Module-level `@pl.function`s the program's methods call, by name: they become functions of
    # the program (after its own), as in the reference.
    externals: dict[str, Function] = field(default_factory=dict)
    # `build_call`'s memo of keyword-free calls over tile / tensor Vars for this parse
    # (lowering/frontend/op_builders.py): it dies with the parse.
    built_calls: dict[tuple[Any, ...], tuple[Op, tuple[tuple[str, Any], ...], Type]] = \
        field(default_factory=dict)
    # A program `@pl.jit` specialises (pl/jit): `x.shape` / `x.dtype` of a tensor are static
    # values, and the `@pl.jit.*` functions its bodies call join it, one per (function, argument
    # types): `jit_calls` holds their signatures, by that key, while the program is lowered.
    jit: bool = False
    jit_calls: dict[tuple[Any, ...], Signature] = field(default_factory=dict)
    jit_hosts: set[str] = field(default_factory=set)  # its `@pl.jit.host` functions
    # The argument types of the first call of each callee defined in another def (a `@pl.jit.*`
    # function, an inline helper), by (the real path of its file, its name), and the kind of
    # the function it is called from: what show_inferred specialises a file of callees alone
    # for (pl/show_inferred/jit_callees.py). Recorded while the program is lowered.
    call_types: dict[tuple[str, str], tuple[tuple[Type, ...], FunctionType]] = \
        field(default_factory=dict)

    def note_call(self, filename: str, name: str, types: tuple[Type, ...],
                  caller: FunctionType) -> None:
        """Records a call of callee `name` of `filename` (see `call_types`)."""
        key = (os.path.realpath(filename) if not filename.startswith("<") else filename, name)
        self.call_types.setdefault(key, (types, caller))

    def dyn_var(self, obj: dsl.DynVar) -> Var:
        self.dyn_vars.setdefault(id(obj), (obj, obj.var))  # the symbols the program reads
        return obj.var

    def lookup_py(self, name: str) -> Any:
        for table in (self.closure, self.globals, vars(builtins)):
            if name in table:
                return table[name]
        return _MISSING

    def auto_dim(self, name: str) -> dsl.DynVar | None:
        """Parsed text: a free name used as a dim is a dynamic dim (printed programs omit the
        `M = pl.dynamic("M")` line). Anywhere else an unknown name stays an error."""
        if not self.auto_dynamic or name.startswith("__") or self.lookup_py(name) is not _MISSING:
            return None
        return self.auto_dyn.setdefault(name, dsl.DynVar(name))


class InlineCallee(ABC):
    """A callee whose body is lowered anew at each call site, in the caller's function
    (`@pl.inline`: lowering/frontend/inline.py). The expression lowering meets it by name
    resolution and hands it the call."""

    name: str

    @abstractmethod
    def expand(self, ctx: FnCtx, call: cst.Call, as_value: bool = True) -> Expr | None:
        """Put the body's statements before the statement being lowered (`ctx.hoisted`) and
        return the call's value (None for a call made as a statement that gives none)."""


@dataclass
class YieldSite:
    names: list[str] | None            # None for a bare `pl.yield_(...)`
    types: list[Type | None]           # annotations of the LHS (one-name form only)
    values: list[Any]
    node: cst.CSTNode


@dataclass
class FnCtx:
    prog: ProgCtx
    name: str
    self_name: str | None
    func_type: FunctionType = FunctionType.Opaque
    # The function's level (`@pl.function(level=...)`, else its type's): the host-only `pld` ops
    # need HOST.
    level: Level | None = None
    # The value of the simple assignment `name = <call>` being lowered: the one place a
    # `pld.alloc_window_buffer` call may stand (the window takes that name).
    assigned_call: cst.BaseExpression | None = None
    # The `->` annotation's types (empty without one): each return statement is checked against it.
    return_types: tuple[Type, ...] = ()
    scopes: list[dict[str, Var]] = field(default_factory=lambda: [{}])
    loops: list[tuple[str, cst.For | cst.While]] = field(default_factory=list)
    # The index in `scopes` of each open loop's body scope, innermost last (beside `loops`).
    loop_scopes: list[int] = field(default_factory=list)
    # The scopes whose bodies enclose the statement being lowered, innermost last
    # (lowering.frontend.scope_args.OpenScope).
    open_scopes: list[OpenScope] = field(default_factory=list)
    # `@pl.function(auto_scope=...)`: False lets the function place AUTO runtime scopes itself.
    auto_scope: bool = True
    yields: list[list[YieldSite]] = field(default_factory=list)
    attrs: list[tuple[str, Any]] = field(default_factory=list)
    params: set[int] = field(default_factory=set)
    emitted: int = 0
    # Statements that go before the simple statement, or the compound statement's header, being
    # lowered (None outside one, and in a while's condition, evaluated before every iteration):
    # the body of an `@pl.inline` function called there, and the values bound to a name there
    # (`hoist_nested`). Op calls nested in other calls stay as written: the flatten_call_expr
    # pass gives them statements of their own.
    hoisted: list[Stmt] | None = None
    # How many expressions enclose the one being lowered (see MAX_EXPRESSION_DEPTH).
    depth: int = 0
    # Span of the statement being lowered: the cheap location of the calls inside it, so an
    # error a later pass raises about a call still points at the user's line.
    cur_span: Span = UNKNOWN_SPAN
    # `root.attr` -> the Python object it denotes, for roots that are not kernel values: the
    # kernel's closure and globals do not change while it is lowered (nothing is executed), so
    # each dotted name is evaluated once per function. Failures are never stored.
    py_attrs: dict[tuple[str, str], Any] = field(default_factory=dict)
    # The `@pl.inline` functions being expanded around this body, outermost first (a function
    # met again there would expand forever).
    inlining: tuple[str, ...] = ()
    # MemRef bases named before (or without) an alloc binding them: one Ptr Var per name
    # (lowering/frontend/memref.py).
    ptrs: dict[str, Var] = field(default_factory=dict)
    # Tensors `pl.dump_tag(t)` marked so far: every later program call taking one of these very
    # Vars lists it in its "dump_vars" attr (forward-sticky, as in the reference).
    dump_tagged: list[Var] = field(default_factory=list)
    # Tensor name -> (the name of the task id its pl.submit bound in the same statement, whether
    # that name still denotes that task), until the tensor name is rebound: a predicate= reading
    # the tensor needs that task in its deps= (lowering/frontend/predicate.py).
    submit_producers: dict[str, tuple[str, bool]] = field(default_factory=dict)
    # Declared MemRefs (`pl.MemRef("name", slots=N)`, `ping = pl.MemRef()`) met so far: the id of
    # the declaration object each name stands for, and each name's slot count
    # (lowering/frontend/memref.py, `check_declared`).
    declared_owners: dict[str, int] = field(default_factory=dict)
    declared_slots: dict[str, int] = field(default_factory=dict)
    # Bare annotations (`p: pl.Tile[...]`) met since the last other statement of the block: the
    # types of results of the if right after them, by name, with the declaring node. The printer
    # writes them where a tuple yield (`p, q = pl.yield_(..)`) cannot carry a result's type.
    result_types: dict[str, tuple[Type, cst.AnnAssign]] = field(default_factory=dict)
    # The names carried by the loops with init_values whose bodies yield nothing, each with its
    # loop: such a name has no value after the loop, and reading it there is that loop's error.
    unyielded: dict[str, cst.For] = field(default_factory=dict)
    # `@pl.jit` bodies: names bound to static values (`M, N = a.shape`, `dt = a.dtype`), which
    # stand for those values as a module constant would (pl/lowering/frontend/jit_static.py).
    statics: dict[str, Any] = field(default_factory=dict)
    # The memory spaces written in the statements lowered so far (an inlined helper's body adds
    # to its caller's): the function's `written_spaces`.
    written_spaces: list[WrittenSpace] = field(default_factory=list)
    # The Vars a later branch of an if being lowered binds, by name, when the name is not
    # visible there as a local: the Var an earlier branch of that if bound the name to first.
    sibling_vars: dict[str, Var] = field(default_factory=dict)
    # Each Var bound for a source variable another Var already stands for, with that first Var
    # (an inlined helper's body adds to its caller's): the function's `same_variable`.
    same_variable: dict[Var, Var] = field(default_factory=dict)

    @property
    def src(self) -> SourceFile:
        return self.prog.src

    def error(self, node: cst.CSTNode | None, message: str, *, hint: str | None = None,
              note: str | None = None) -> PlError:
        return self.src.error(node, message, hint=hint, note=note)

    def outlined_scope(self) -> Any:
        """The outermost open scope whose body compilation outlines into an InCore function of
        its own (pl/lowering/outline.py: a `pl.at(level=CORE_GROUP)` or `pl.spmd` scope of an
        Opaque, Orchestration or Graph function; a `scope_args.OpenScope`), or None."""
        if self.func_type not in OUTLINING:
            return None
        return next((s for s in self.open_scopes if s.kind in (ScopeKind.InCore, ScopeKind.Spmd)),
                    None)

    def lookup_var(self, name: str) -> Var | None:
        scopes = self.scopes
        var = scopes[-1].get(name)  # the innermost scope answers most look-ups
        if var is not None or len(scopes) == 1:
            return var
        for i in range(len(scopes) - 2, -1, -1):
            var = scopes[i].get(name)
            if var is not None:
                return var
        return None

    def bound_in_innermost_loop(self, name: str) -> bool:
        """Whether `name` is bound in the body scope of the innermost open loop, or in a scope
        inside it (a branch of that body), rather than outside that loop."""
        inner = self.loop_scopes[-1] if self.loop_scopes else 0
        return any(name in scope for scope in self.scopes[inner:])

    def bind(self, name: str, var: Var) -> None:
        self.scopes[-1][name] = var

    def bind_new(self, var: Var) -> None:
        """Binds `var`, a new Var for its name (an assignment's, a loop's or an if's result),
        recording the source variable it is one with (Function.same_variable): a rebinding of
        an iter arg in its own loop's body (or a branch there) is that carried variable; inside
        a loop nested in that body it is a new variable, as the reference's parser reads it (the
        nested loop does not carry it, and every trip reads the iter arg again: `for j in
        pl.range(3): acc = acc + 1` adds 1 once per outer trip; docs/compatibility.md). A name
        an earlier branch of the enclosing if bound first is one variable with it, however
        either branch binds it (`y = pl.add(..)`, or a loop's `y = pl.yield_(..)`)."""
        existing = self.lookup_var(var.name)
        first = (existing if self.bound_in_innermost_loop(var.name) else None) \
            if isinstance(existing, IterArg) else self.sibling_vars.get(var.name) \
            if existing is None else None
        if first is not None:
            self.same_variable[var] = self.same_variable.get(first, first)
        self.bind(var.name, var)

    def push(self) -> dict[str, Var]:
        self.scopes.append({})
        return self.scopes[-1]

    def pop(self) -> dict[str, Var]:
        return self.scopes.pop()

    def leak(self, names: dict[str, Var]) -> None:
        """Non-SSA: bindings made in a loop/branch body stay visible after it."""
        for k, v in names.items():
            if not isinstance(v, IterArg):
                self.scopes[-1][k] = v

    def _memo_attr(self, node: cst.BaseExpression) -> Any:
        """The memoised object of `root.attr` (see `py_attrs`), or _MISSING."""
        if type(node) is not cst.Attribute:
            return _MISSING
        root = node.value
        if type(root) is not cst.Name or self.lookup_var(root.value) is not None:
            return _MISSING
        return self.py_attrs.get((root.value, node.attr.value), _MISSING)

    def _remember_attr(self, node: cst.BaseExpression, obj: Any) -> Any:
        if type(node) is cst.Attribute and type(node.value) is cst.Name \
                and not isinstance(obj, Var) and self.lookup_var(node.value.value) is None:
            self.py_attrs[(node.value.value, node.attr.value)] = obj
        return obj

    def try_resolve(self, node: cst.BaseExpression, default: Any = None) -> Any:
        """`resolve(node)`, or `default` where it would raise; builds no error (an error costs the
        file's precise positions, which the happy path never needs)."""
        obj = self._memo_attr(node)
        if obj is not _MISSING:
            return obj
        obj = self._try_resolve(node, _MISSING)
        if obj is _MISSING:
            return default
        return self._remember_attr(node, obj)

    def _try_resolve(self, node: cst.BaseExpression, default: Any) -> Any:
        if isinstance(node, cst.Name):
            var = self.lookup_var(node.value)
            if var is not None:
                return var
            if node.value in self.statics:
                return self.statics[node.value]
            obj = self.prog.lookup_py(node.value)
            return default if obj is _MISSING or type(obj) is Unresolved else obj
        if isinstance(node, cst.Attribute):
            base = self._try_resolve(node.value, _MISSING)
            if base is _MISSING:
                return default
            if self.prog.jit and isinstance(base, Var):
                return jit_attribute(base, node.attr.value, default)
            obj = getattr(base, node.attr.value, default)
            return default if type(obj) is Unresolved else obj
        return default

    def resolve(self, node: cst.BaseExpression) -> Any:
        """The IR Var or the Python object a Name / dotted Attribute denotes."""
        if type(node) is cst.Name:  # most often a kernel value
            var = self.lookup_var(node.value)
            if var is not None:
                return var
        else:
            obj = self._memo_attr(node)
            if obj is not _MISSING:
                return obj
        return self._remember_attr(node, self._resolve(node))

    def _unyielded_error(self, node: cst.Name) -> PlError:
        """A read of `node`, a name carried by a loop whose body never yields: located at that
        loop, which is what lacks the `pl.yield_`."""
        name, loop = node.value, self.unyielded[node.value]
        line = self.src.span_of(node).line
        return self.error(loop, f"the loop carries '{name}' (init_values) but its body never "
                                f"calls pl.yield_, so '{name}' has no value after the loop, "
                                f"where line {line} reads it",
                          hint=f"end the loop body with `{name} = pl.yield_(...)` (one name per "
                               "carried value): the names it assigns are the loop's results")

    def _resolve(self, node: cst.BaseExpression) -> Any:
        if isinstance(node, cst.Name):
            var = self.lookup_var(node.value)
            if var is not None:
                return var
            if node.value in self.statics:
                return self.statics[node.value]
            obj = self.prog.lookup_py(node.value)
            if obj is _MISSING and node.value in self.unyielded:
                raise self._unyielded_error(node)
            if obj is _MISSING:
                raise self.error(node, f"Undefined variable '{node.value}'",
                                 hint="Check if the variable is defined before using it or is "
                                      "available in the enclosing scope")
            if type(obj) is Unresolved:
                raise self.unresolved_error(node, obj)
            return obj
        if isinstance(node, cst.Attribute):
            base = self._resolve(node.value)
            attr = node.attr.value
            if self.prog.jit and isinstance(base, Var):
                found = jit_attribute(base, attr, _MISSING)
                if found is not _MISSING:
                    return found
            try:
                obj = getattr(base, attr)
            except AttributeError:
                raise self.attr_error(node, base, attr) from None
            if type(obj) is Unresolved:
                raise self.unresolved_error(node, obj)
            return obj
        raise self.error(node, f"Expected a name, got {type(node).__name__}")

    def unresolved_error(self, node: cst.BaseExpression, value: Unresolved) -> PlError:
        """A name static loading bound without a value (see lowering/source/static_module.py)."""
        if value.hint is not None:  # refused by pl, whether the file runs or not
            return self.error(node, f"'{dotted(node)}' cannot be used in a kernel: {value.reason}",
                              hint=value.hint)
        return self.error(node, f"'{dotted(node)}' has no value unless the file is run: "
                                f"{value.reason}", hint=EXEC_HINT)

    def attr_error(self, node: cst.Attribute, base: Any, attr: str) -> PlError:
        """An unknown `base.attr`, worded by what `base` is, with a "did you mean" among its
        names (dtypes, enum members, ops of a namespace, names of `pl`)."""
        head = dotted(node.value) + "."
        if isinstance(base, type) and issubclass(base, Enum):
            members = [m.name for m in base]
            what = "memory space" if base is dsl.MemorySpace else base.__name__
            return self.error(node.attr, f"Unknown {what} '{attr}'",
                              hint=suggest(attr, members, head)
                              or f"Valid names: {', '.join(members)}")
        if isinstance(base, OpNamespace):
            return self.error(node, f"Unknown operation '{dotted(node)}'",
                              hint=suggest_op(f"{base.__pl_namespace__}.{attr}"))
        names = _pl_names(base)
        if names is not None:
            # `pl.PlError` is for the code that calls pl, never a name a kernel means.
            kernel_names = [n for n in names if not n.startswith("_") and n != "PlError"]
            return self.error(node, f"Unknown name '{dotted(node)}'",
                              hint=suggest(attr, kernel_names, head))
        return self.error(node, f"Unknown attribute '{dotted(node)}'")


def jit_attribute(base: Var, attr: str, default: Any) -> Any:
    """In a `@pl.jit` body: `t.shape` of a tensor or tile (a tuple of its dims: ints, and the
    Vars of its dynamic dims) and `t.dtype` (its DType), as the reference's specialiser
    substitutes them; `default` for anything else."""
    t = base.type
    if not isinstance(t, TensorType | TileType):
        return default
    if attr == "shape":
        return tuple(d.value if isinstance(d, ConstInt) else d for d in t.shape)
    if attr == "dtype":
        return t.dtype
    return default


def is_pl_module(value: Any) -> bool:
    """`value` is `pl` itself: the package a running kernel imported, or the surface static
    loading binds for it."""
    return _pl_names(value) is not None


def _pl_names(base: Any) -> list[str] | None:
    """The names of `pl` when `base` is it: the package a running kernel imported, or the kernel
    surface static loading binds (lowering/source/static_module.py); None for anything else."""
    if isinstance(base, StaticNamespace):
        return list(base.names) if base.name == "pl" else None
    return dir(base) if isinstance(base, ModuleType) and base.__name__ == "pl" else None


def dotted(node: cst.BaseExpression) -> str:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return f"{dotted(node.value)}.{node.attr.value}"
    return cst.Module([]).code_for_node(node)
