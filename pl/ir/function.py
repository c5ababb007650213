"""Functions and programs.

Printing one is the printer's job (`pl.python_print(node)`, `pl.printer.print_node`). The one
exception to the IR core importing nothing above it: `as_python()` / `str()`, the reference's own
API on its IR nodes (`prog.as_python()`, dsl.md section 4), import the printer when called; the
layer table in docs/architecture.md names this edge and the layering test allows only it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pl.ir.enums import FunctionType, Level, MemorySpace, ParamDirection, Role
from pl.ir.expr import Var
from pl.ir.span import UNKNOWN_SPAN, Span
from pl.ir.stmt import Stmt
from pl.ir.types import Type


@dataclass(frozen=True, slots=True)
class WrittenSpace:
    """A memory space the user wrote in the statement at `stmt` that binds `name`: its
    annotation's (`x: pl.Tile[..., pl.MemorySpace.Vec] = ...`) or an argument of its call
    (`target_memory=pl.MemorySpace.Mat`), written at `span`. The frontend records each as it
    reads it (`Function.written_spaces`); what a space written by the user became is read from
    there, never from the text again."""

    name: str
    stmt: Span
    space: MemorySpace
    span: Span


@dataclass(frozen=True, slots=True)
class Function:
    name: str
    params: tuple[Var, ...]
    directions: tuple[ParamDirection, ...]
    return_types: tuple[Type, ...]
    body: Stmt
    func_type: FunctionType = FunctionType.Opaque
    level: Level | None = None
    role: Role | None = None
    attrs: tuple[tuple[str, Any], ...] = ()
    # A HOST-level SubWorker's body: plain Python, kept as its text (the reference's InlineStmt),
    # run by the host, never compiled; `body` is then empty. `...` alone is a callback bound at
    # run time. None for every other function.
    host_body: str | None = None
    # A declared external kernel (the reference's `@pl.function(external_source=PATH)`, what
    # `@pl.jit.extern` makes): its body is C++ source at this path, outside pl, so `body` is
    # empty and printed as `...`; it is called like any function, kept by every pass, and not
    # interpreted. None for every other function.
    external_source: str | None = None
    # False: the function places its AUTO runtime scopes itself (`@pl.function(auto_scope=False)`,
    # the only setting that admits a hand-written `with pl.scope():`).
    auto_scope: bool = True
    span: Span = field(default=UNKNOWN_SPAN, compare=False, kw_only=True)
    comments: tuple[str, ...] = field(default=(), compare=False, kw_only=True)
    # The memory spaces the user wrote in the body's statements (the frontend's; empty for a
    # function a pass made or rebuilt from other text).
    written_spaces: tuple[WrittenSpace, ...] = field(default=(), compare=False, kw_only=True)
    # One identity per source variable (the frontend's; read by convert_to_ssa, which versions
    # a variable, not a Var): each Var the frontend bound for a variable that another Var of the
    # body already stands for, with that first Var. A Var is one type, and a variable's values may
    # differ in type on two paths, so the frontend binds a new Var where it rebinds
    # a variable in a later branch of an if (`if c: y = a` / `else: y = b`: two Vars, one `y`),
    # or a loop's iter arg (`acc = pl.add(acc, t)` in a loop carrying `acc`).
    same_variable: tuple[tuple[Var, Var], ...] = field(default=(), compare=False, kw_only=True)

    def as_python(self, **options: Any) -> str:
        """This node printed as DSL text (`pl.python_print(self, **options)`)."""
        from pl.printer.program import print_node  # at call time: the printer is a higher layer

        return print_node(self, **options)

    def __str__(self) -> str:
        return self.as_python()


@dataclass(frozen=True, slots=True)
class Program:
    """A set of functions, kept in source order (printing orders callees first)."""

    name: str
    functions: tuple[Function, ...]
    span: Span = field(default=UNKNOWN_SPAN, compare=False, kw_only=True)

    def get(self, name: str) -> Function | None:
        for f in self.functions:
            if f.name == name:
                return f
        return None

    def as_python(self, **options: Any) -> str:
        """This node printed as DSL text (`pl.python_print(self, **options)`)."""
        from pl.printer.program import print_node  # at call time: the printer is a higher layer

        return print_node(self, **options)

    def __str__(self) -> str:
        return self.as_python()
