"""Static loading: a kernel file's module namespace, computed by READING the file, never running it.

This is how `show_inferred` loads a kernel by default (as black, ruff and mypy read code): the
file is parsed with LibCST and its top-level statements are interpreted as follows.

- `import pl`, `import pl as p`, `import pypto.language as pl`, `from pypto import language`,
  `from pl import X` / `*` bind pl's kernel surface (`pl_surface`: the language's objects and the
  two decorators, pl's own and trusted; pl's tools such as `pl.compile` unresolved); `import pl.M`
  binds a module of the layers below lowering (`pl.language`, `pl.ir`, `pl.ops`, `pl.errors`),
  any other module of pl unresolved.
- `import m`, `import pkg.m`, `from m import N`, `from . import m`, `from .m import N` of a module
  of the user's project - a file `m.py` or package `m/__init__.py` found in the kernel's folder
  (absolute imports) or relative to the importing module's folder (relative imports) - read that
  file the same way, recursively; cyclic imports leave the names involved unresolved.
- `NAME = expr`, `A, B = expr`, `NAME: T = expr` and `NAME op= expr` evaluate `expr` with the
  static evaluator (lowering/source/static_eval.py lists the accepted forms).
- `@pl.program` classes are lowered to Programs and module-level `@pl.function` defs to Functions
  (the frontend, as the decorators would), in source order, so later names see earlier ones;
  `@pl.inline` defs bind the inline function the kernels calling them splice in, and `@pl.jit*`
  defs the `JitDef` they are (lowering/frontend/jit.py; specialised where they are used). A
  `@pl.jit*` def inside a function (a test function's entry and the stubs it calls, a factory
  returning an entry) is found too (`_nested_jit_defs`), bound as `f.<locals>.name`, seeing the
  function's names as a closure would (unresolved where static loading cannot tell them).
- `if __name__ == "__main__":` blocks are skipped (an import would not run them either).
- Anything else binds the names it defines to `Unresolved` (a def, a class, a third-party import
  whether installed or not, such as the torch a `__main__` block uses, a name assigned in an `if` / `for` / `try` / `with`, an expression outside the evaluator): a
  kernel that USES such a name gets a located error naming `--exec`; one that does not is
  unaffected. A `@pl.program` class inside a compound statement is an error at once (it would
  otherwise be silently missed).

Every file consulted is recorded in `reads` (absolute path -> sha256 of its bytes, or None for a
probed path that does not exist), and so is whether each third-party module imported is installed
(`INSTALLED + name`: the environment's answer), so a compile cache can tell when a result is stale.
"""

from __future__ import annotations

import builtins
import dataclasses
import importlib
import io
import os
import tokenize
import types
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import libcst as cst

from pl import language
from pl.deep_stack import MAX_NESTING
from pl.errors import PlError
from pl.face import TOOLS
from pl.ir.function import Program
from pl.ir.span import Span
from pl.language.dsl import KernelOnly
from pl.language.dsl_ops import DslOp
from pl.lowering.frontend.bound import BoundNames
from pl.lowering.frontend.context import FnCtx, ProgCtx, dotted
from pl.lowering.frontend.inline import inline_function
from pl.lowering.frontend.jit import JIT_SURFACE, JitDef, jit_decorator
from pl.lowering.frontend.lower import (
    function,
    function_decorator,
    inline,
    is_inline_decorated,
    is_program_decorator,
    lower_class_node,
    lower_function_node,
    program,
    program_target_error,
)
from pl.lowering.frontend.source import SourceFile
from pl.lowering.source.python import INSTALLED, compile_python, content_hash, installed, kernel_folder
from pl.lowering.source.static_eval import (
    EXEC_HINT,
    LIMIT_HINT,
    FailsWhenRun,
    NotStatic,
    StaticNamespace,
    TooBig,
    Unresolved,
    binary,
    evaluate,
)

__all__ = ["constant_value", "load_static", "pl_module", "pl_surface", "read_kernel"]

# The files a load read, by path: the fingerprint of each (`content_hash`), None when absent.
Reads = dict[str, str | None]
_FAILS_HINT = "Python raises this too when it imports the file"


# The tools of the `pl` face (pl/face.py) static loading binds to their objects: the decorators
# (markers for `jit`) and the error type. The others come from above lowering: a kernel's text
# never needs their values, so static loading binds them unresolved (as it binds a def);
# tests/test_layering.py checks that the surface and the face have the same names.
_BOUND_TOOLS = frozenset({"PlError", "function", "inline", "program", "jit"})
PL_TOOLS = tuple(tool for tool in TOOLS if tool not in _BOUND_TOOLS)
_TOOL_REASON = "it is one of pl's tools, which static loading does not run"


def pl_surface() -> StaticNamespace:
    """What `import pl` binds in a kernel read statically: every object of the language surface,
    the decorators `function` / `inline` / `program`, `PlError`, and pl's tools unresolved (a fresh
    namespace: an import binds its own)."""
    names: dict[str, Any] = {name: getattr(language, name) for name in language.__all__}
    names.update(PlError=PlError, function=function, inline=inline, program=program,
                 jit=JIT_SURFACE)
    names.update((tool, Unresolved(f"pl.{tool}", _TOOL_REASON)) for tool in PL_TOOLS)
    return StaticNamespace("pl", names)


def pl_submodule(module: str, name: str) -> Any:
    """`from pypto.language import distributed` (or `from pl import ...`): the submodule, as
    Python's from-import falls back to importing it; None for any other name."""
    if module in ("pl", "pypto.language") and name == "distributed":
        return pl_module(f"{module}.{name}")
    return None


def pl_module(name: str) -> Any:
    """The object `import name` binds when `name` is `pl` or the reference's `pypto.language`
    (or one of their modules below lowering); None for any other module."""
    if name == "pypto":
        return StaticNamespace("pypto", {"language": pl_surface()})
    if name == "pypto.language" or name == "pl":
        return pl_surface()
    if name in ("pl.distributed", "pypto.language.distributed"):  # `pld`
        return importlib.import_module("pl.language.distributed")
    for prefix in ("pl.", "pypto.language."):
        if name.startswith(prefix):
            module = "pl." + name[len(prefix):]
            if not module.startswith(("pl.language", "pl.ir", "pl.ops", "pl.errors")):
                return Unresolved(name, _TOOL_REASON)
            try:
                return importlib.import_module(module)
            except ImportError:
                return None
    return None


def load_static(src: SourceFile, reads: Reads) -> dict[str, Any]:
    """The namespace of the kernel file `src` (a `read_kernel`), read statically (module doc)."""
    folder = kernel_folder(src.filename)
    ns = _Loader(folder, reads).namespace(src, folder)
    if not any(isinstance(v, Program) for v in ns.values()):
        # Programs only a call would make (`K = make_program(64)`): say why none is found.
        for stmt in src.module.body:
            if not isinstance(stmt, cst.FunctionDef | cst.ClassDef):
                continue
            nested = _program_class(stmt)
            if nested is not None and nested is not stmt:
                raise src.error(nested.name, f"the @pl.program class {nested.name.value} is "
                                             f"defined inside {stmt.name.value}, which static "
                                             "loading does not run", hint=EXEC_HINT)
    return ns


def read_kernel(filename: str, text: str, module: cst.Module | None = None
                ) -> tuple[SourceFile, types.CodeType]:
    """The file parsed, and compiled by CPython (nothing runs: static loading rejects what
    importing would reject before running anything; `--exec` runs that code). `module`: the
    LibCST tree of the text the caller holds already (see `SourceFile`)."""
    src = SourceFile(filename, text, module=module)
    return src, compile_python(text, filename, src.tree)


def _is_main_guard(node: cst.If) -> bool:
    t = node.test
    if not isinstance(t, cst.Comparison) or len(t.comparisons) != 1:
        return False
    cmp = t.comparisons[0]
    sides = (t.left, cmp.comparator)
    return isinstance(cmp.operator, cst.Equal) and \
        any(isinstance(s, cst.Name) and s.value == "__name__" for s in sides) and \
        any(isinstance(s, cst.SimpleString) and s.evaluated_value == "__main__" for s in sides)


def has_program_decorator(cd: cst.ClassDef) -> bool:
    """Spelled `@...program` / `@...program(...)` (a guess by name: used where the names in
    scope are unknown, to say why a program is not loaded)."""
    for d in cd.decorators:
        target = d.decorator.func if isinstance(d.decorator, cst.Call) else d.decorator
        if isinstance(target, cst.Name | cst.Attribute) and dotted(target).split(".")[-1] == "program":
            return True
    return False


def _program_class(node: cst.CSTNode) -> cst.ClassDef | None:
    """The first `@...program` class in `node`, at any depth (`node` itself included)."""
    found: list[cst.ClassDef] = []

    class _Find(cst.CSTVisitor):
        def visit_ClassDef(self, cd: cst.ClassDef) -> bool:
            if not found and has_program_decorator(cd):
                found.append(cd)
            return not found

    node.visit(_Find())
    return found[0] if found else None


class _Bound(BoundNames):
    """Names a compound statement may bind (lowering/frontend/bound.py), and whether it defines
    a `@...program` class."""

    def __init__(self) -> None:
        super().__init__()
        self.program: cst.ClassDef | None = None

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        if self.program is None and has_program_decorator(node):
            self.program = node
        return super().visit_ClassDef(node)


class _Loader:
    """One static load: the project's modules read so far (by resolved path) and being read."""

    def __init__(self, root: Path, reads: Reads) -> None:
        self.root = root
        self.reads = reads
        self.modules: dict[Path, StaticNamespace | Unresolved] = {}
        self.depth = 0  # modules being read, each imported by the one before

    # -- files -----------------------------------------------------------------------------------
    def _probe(self, path: Path) -> bytes | None:
        key = str(path)
        try:
            data = path.read_bytes() if path.is_file() else None
        except OSError:
            data = None
        self.reads[key] = None if data is None else content_hash(data)
        return data

    def _find(self, folder: Path, parts: list[str]) -> tuple[Path, bytes] | None:
        """The file of module `parts` under `folder`: `a/b/__init__.py`, else `a/b.py` (a
        package wins over a module of the same name, as in Python's path finder)."""
        base = folder.joinpath(*parts)
        for path in (base / "__init__.py", base.with_name(base.name + ".py")):
            data = self._probe(path)
            if data is not None:
                return path, data
        return None

    def _file_module(self, name: str, path: Path, data: bytes) -> StaticNamespace | Unresolved:
        path = Path(os.path.realpath(path))
        hit = self.modules.get(path)
        if hit is not None:
            return hit
        try:
            encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
            text = data.decode(encoding)
        except (SyntaxError, LookupError, UnicodeDecodeError):
            return Unresolved(name, f"module `{name}` ({path}) cannot be decoded")
        if text.startswith("\ufeff"):
            text = text[1:]
        if self.depth >= MAX_NESTING:
            return Unresolved(name, f"module `{name}` ({path}) is imported through more than "
                                    f"{MAX_NESTING} nested imports, which static loading does "
                                    "not follow")
        # Registered before it is read: a cyclic import of it sees the names bound so far, as
        # Python's partially initialised module would.
        names: dict[str, Any] = {}
        module = self.modules[path] = StaticNamespace(name, names)
        self.depth += 1
        try:
            self.namespace(read_kernel(str(path), text)[0], path.parent, names)
        finally:
            self.depth -= 1
        return module

    def _not_installed(self, top: str, src: SourceFile, node: cst.CSTNode) -> Unresolved | None:
        """What `import top` binds when `top` is neither pl, a project module, nor installed
        (found by the import system's finders, which read no module): an opaque name, an error
        only where a kernel reads it (a kernel file's `__main__` imports torch, the reference's
        runtime, ...). None when it is one of those."""
        if top in ("pl", "pypto") or self._find(self.root, [top]) is not None or \
                self.root.joinpath(top).is_dir():
            return None
        found = self.reads[INSTALLED + top] = installed(top)  # the environment's answer
        if found is not None:
            return None
        span = src.stmt_span(node)
        return Unresolved(top, f"module '{top}' (imported at line {span.line}) is not "
                               "installed", span,
                          f"install '{top}' and run with --exec, or write the value in the file")

    def _module(self, name: str, folder: Path, parts: list[str]) -> Any:
        """Module `parts` of the project under `folder`, a namespace package, or Unresolved."""
        found = self._find(folder, parts)
        if found is not None:
            return self._file_module(name, *found)
        if parts and folder.joinpath(*parts).is_dir():
            return StaticNamespace(name, {})
        return Unresolved(name, f"`{name}` is neither pl nor a module of the kernel's project "
                                f"(looked in {folder})")

    # -- imports ---------------------------------------------------------------------------------
    def _import(self, ns: dict[str, Any], node: cst.Import, src: SourceFile) -> None:
        for alias in node.names:
            name = dotted(alias.name)
            parts = name.split(".")
            missing = self._not_installed(parts[0], src, node)
            if missing is not None:
                target = alias.asname.name if alias.asname is not None else None
                bound = target.value if isinstance(target, cst.Name) else parts[0]
                ns[bound] = dataclasses.replace(missing, name=bound)
                continue
            if alias.asname is not None:
                target = alias.asname.name
                assert isinstance(target, cst.Name)
                value = pl_module(name)
                ns[target.value] = value if value is not None else \
                    self._module(name, self.root, parts)
                continue
            # `import a.b.c` binds `a`, with `b` and `b.c` reachable as attributes.
            top = pl_module(parts[0]) if parts[0] in ("pl", "pypto") else None
            if top is None:
                top = self._module(parts[0], self.root, parts[:1])
            ns[parts[0]] = top
            parent = top
            for i in range(1, len(parts)):
                if not isinstance(parent, StaticNamespace):
                    break
                sub_name = ".".join(parts[:i + 1])
                sub = pl_module(sub_name)
                if sub is None:
                    sub = self._module(sub_name, self.root, parts[:i + 1])
                parent.names.setdefault(parts[i], sub)
                parent = parent.names[parts[i]]

    def _import_from(self, ns: dict[str, Any], node: cst.ImportFrom, folder: Path,
                     src: SourceFile) -> None:
        module = dotted(node.module) if node.module is not None else ""
        if module == "__future__":
            return
        level = len(node.relative)
        if level:
            base = folder
            for _ in range(level - 1):
                base = base.parent
            label = "." * level + module
            parts = module.split(".") if module else []
            source: Any = self._module(label, base, parts) if parts else \
                StaticNamespace(label, {})
        else:
            base, label, parts = self.root, module, module.split(".")
            source = self._not_installed(parts[0], src, node) or pl_module(module)
            if source is None:
                source = self._module(module, base, parts)
        if isinstance(node.names, cst.ImportStar):
            if isinstance(source, StaticNamespace):
                ns.update(_public(source.names))
            else:
                raise src.error(node, f"`from {label} import *` cannot be read statically: "
                                      f"{source.reason if isinstance(source, Unresolved) else ''}",
                                hint=EXEC_HINT)
            return
        for alias in node.names:
            name = dotted(alias.name)
            target = alias.asname.name if alias.asname is not None else alias.name
            assert isinstance(target, cst.Name)
            sub = pl_submodule(module, name) if not level else None
            ns[target.value] = sub if sub is not None else \
                self._member(source, label, base, parts, name, src, alias)

    def _member(self, source: Any, label: str, base: Path, parts: list[str], name: str,
                src: SourceFile, node: cst.CSTNode) -> Any:
        """`from label import name`: the value, Unresolved when `label` is not read statically,
        and Python's ImportError, located, when `label` was read and has no such name."""
        if isinstance(source, Unresolved):
            return dataclasses.replace(source, name=name)
        if isinstance(source, StaticNamespace) and name in source.names:
            return source.names[name]
        if label == "pypto":  # the reference's other modules (its runtime, its IR): not pl's
            return Unresolved(name, f"`pypto.{name}` is the reference's, which pl does not "
                                    "provide (only its DSL, pypto.language)")
        if isinstance(source, StaticNamespace) and "__getattr__" in source.names:
            return Unresolved(name, f"`{label}` computes its names with a __getattr__ function")
        if isinstance(source, StaticNamespace):
            sub = self._module(f"{label}.{name}", base, [*parts, name])
            if not isinstance(sub, Unresolved):
                return sub
        elif source is not None and hasattr(source, name):  # the pl package or one of its modules
            return getattr(source, name)
        raise src.error(node, f"cannot import name '{name}' from '{label}'",
                        hint=_FAILS_HINT)

    # -- statements ------------------------------------------------------------------------------
    def namespace(self, src: SourceFile, folder: Path,
                  ns: dict[str, Any] | None = None) -> dict[str, Any]:
        ns = {} if ns is None else ns
        prog = ProgCtx(src, ns)
        for stmt in src.module.body:
            if isinstance(stmt, cst.SimpleStatementLine):
                for small in stmt.body:
                    self._small(ns, small, prog, folder)
            elif isinstance(stmt, cst.ClassDef):
                self._class(ns, stmt, prog)
            elif isinstance(stmt, cst.FunctionDef):
                _check_decorators(prog, stmt)
                jit = jit_decorator(FnCtx(prog, "<module>", None), stmt)
                if jit is not None:
                    ns[stmt.name.value] = _jit_def(src, ns, stmt, *jit)
                elif is_inline_decorated(prog, stmt):
                    ns[stmt.name.value] = inline_function(ProgCtx(src, ns), stmt)
                elif function_decorator(prog, stmt) is not None:
                    ns[stmt.name.value] = lower_function_node(ProgCtx(src, ns), stmt)
                else:
                    self._unresolved(ns, stmt.name.value, "is defined by a def, and static loading "
                                                          "runs no function", src, stmt)
                    for built in _built_programs(src, ns, stmt):
                        ns[f"{stmt.name.value}.<locals>.{built.name}"] = built
                    for name, jit_def in _nested_jit_defs(src, ns, stmt):
                        ns[f"{stmt.name.value}.<locals>.{name}"] = jit_def
            elif isinstance(stmt, cst.If) and _is_main_guard(stmt):
                if stmt.orelse is not None:
                    self._compound(ns, stmt.orelse, src, "else")
            else:
                self._compound(ns, stmt, src, type(stmt).__name__.lower())
        return ns

    def _unresolved(self, ns: dict[str, Any], name: str, why: str, src: SourceFile,
                    node: cst.CSTNode, hint: str | None = None) -> None:
        span = src.stmt_span(node)
        ns[name] = Unresolved(name, f"`{name}` {why} (line {span.line})", span, hint)

    def _compound(self, ns: dict[str, Any], stmt: cst.CSTNode, src: SourceFile, kind: str) -> None:
        bound = _Bound()
        stmt.visit(bound)
        if bound.program is not None:
            raise src.error(bound.program.name,
                            f"the @pl.program class {bound.program.name.value} is defined inside "
                            f"a `{kind}` statement, which static loading does not run",
                            hint=EXEC_HINT)
        for name in bound.names:
            self._unresolved(ns, name, f"is bound inside a `{kind}` statement, which static "
                                       "loading does not run", src, stmt)

    def _class(self, ns: dict[str, Any], cd: cst.ClassDef, prog: ProgCtx) -> None:
        _check_decorators(prog, cd)
        decorators = [d for d in cd.decorators if is_program_decorator(prog, d)]
        if not decorators:
            self._unresolved(ns, cd.name.value, "is a class that is not a @pl.program, and static "
                                                "loading runs no class body", prog.src, cd)
            # A test class's methods build programs as builder functions do (`self` unbound).
            body = cd.body.body if isinstance(cd.body, cst.IndentedBlock) else ()
            for method in body:
                if isinstance(method, cst.FunctionDef):
                    unbound = not any(isinstance(d.decorator, cst.Name)
                                      and d.decorator.value == "staticmethod"
                                      for d in method.decorators)
                    where = f"{cd.name.value}.{method.name.value}.<locals>"
                    for built in _built_programs(prog.src, ns, method, skip=int(unbound)):
                        ns[f"{where}.{built.name}"] = built
                    for name, jit_def in _nested_jit_defs(prog.src, ns, method):
                        ns[f"{where}.{name}"] = jit_def
            return
        strict = False
        dec = decorators[0].decorator
        if isinstance(dec, cst.Call):
            for a in dec.args:
                if a.keyword is not None and a.keyword.value == "strict_ssa":
                    strict = bool(self._value(ns, a.value, prog.src))
        ns[cd.name.value] = lower_class_node(ProgCtx(prog.src, ns, strict_ssa=strict), cd)

    def _value(self, ns: dict[str, Any], node: cst.BaseExpression, src: SourceFile) -> Any:
        try:
            return constant_value(ns, node, src)
        except NotStatic as e:
            raise src.error(e.node, f"this value cannot be read statically: {e.reason}",
                            hint=EXEC_HINT) from None

    def _small(self, ns: dict[str, Any], small: cst.BaseSmallStatement, prog: ProgCtx,
               folder: Path) -> None:
        src = prog.src
        if isinstance(small, cst.Import):
            self._import(ns, small, src)
        elif isinstance(small, cst.ImportFrom):
            self._import_from(ns, small, folder, src)
        elif isinstance(small, cst.Assign | cst.AnnAssign) and small.value is not None:
            targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) \
                else [small.target]
            self._assign(ns, targets, small.value, small, src)
        elif isinstance(small, cst.AugAssign) and isinstance(small.target, cst.Name):
            name = small.target.value
            try:
                value = binary(small, small.operator, constant_value(ns, small.target, src),
                               constant_value(ns, small.value, src))
            except NotStatic as e:
                self._not_static(ns, small.target, e, src, small)
            except FailsWhenRun as e:
                raise src.error(e.node, str(e), hint=_FAILS_HINT) from None
            else:
                ns[name] = value
        elif isinstance(small, cst.Del):
            bound = _Bound()
            bound.target(small.target)
            for name in bound.names:
                ns.pop(name, None)
        elif isinstance(small, cst.Global | cst.Nonlocal | cst.Pass | cst.Assert | cst.Raise |
                        cst.Return | cst.Break | cst.Continue | cst.AnnAssign):
            return  # binds nothing (and is not run)
        else:  # an expression (which binds only through `:=`), `exec`-like statements
            bound = _Bound()
            small.visit(bound)
            for name in bound.names:
                self._unresolved(ns, name, "is bound by a statement static loading does not run",
                                 src, small)

    def _assign(self, ns: dict[str, Any], targets: Sequence[cst.BaseExpression],
                value_node: cst.BaseExpression, stmt: cst.CSTNode, src: SourceFile) -> None:
        try:
            value: Any = constant_value(ns, value_node, src)
        except NotStatic as e:
            for target in targets:
                self._not_static(ns, target, e, src, stmt)
            return
        for target in targets:
            self._bind(ns, target, value, src, stmt)

    def _not_static(self, ns: dict[str, Any], target: cst.BaseExpression, e: NotStatic,
                    src: SourceFile, stmt: cst.CSTNode) -> None:
        """The names `target` binds, unresolved because their value is not static (`e`). A value
        computed from an unresolved name is unresolved for that name's reason, which is passed
        on as it is: quoted at each step, a chain of N names made a message of N^2 characters."""
        if isinstance(e, TooBig):
            self._unbind(ns, target, f"is refused: {e.reason}", src, stmt, LIMIT_HINT)
            return
        if e.origin is None:
            self._unbind(ns, target, f"cannot be computed statically: {e.reason}", src, stmt)
            return
        bound = _Bound()
        bound.target(target)
        for name in bound.names:
            ns[name] = dataclasses.replace(e.origin, name=name)

    def _bind(self, ns: dict[str, Any], target: cst.BaseExpression, value: Any, src: SourceFile,
              stmt: cst.CSTNode) -> None:
        if isinstance(target, cst.Name):
            ns[target.value] = value
        elif isinstance(target, cst.Tuple | cst.List):
            items = [el.value for el in target.elements]
            if any(isinstance(el, cst.StarredElement) for el in target.elements) or \
                    not isinstance(value, tuple | list) or len(value) != len(items):
                self._unbind(ns, target, "is unpacked from a value static loading cannot split",
                             src, stmt)
                return
            for item, v in zip(items, value, strict=True):
                self._bind(ns, item, v, src, stmt)
        # `obj.attr = ...` / `seq[i] = ...` bind no module name.

    def _unbind(self, ns: dict[str, Any], target: cst.BaseExpression, why: str, src: SourceFile,
                stmt: cst.CSTNode, hint: str | None = None) -> None:
        bound = _Bound()
        bound.target(target)
        for name in bound.names:
            self._unresolved(ns, name, why, src, stmt, hint)


def constant_value(ns: dict[str, Any], node: cst.BaseExpression, src: SourceFile) -> Any:
    """The value of a module-level expression over the names bound so far in `ns` (the static
    evaluator: lowering/source/static_eval.py); NotStatic when it has none without running code. An
    expression Python would fail on too is a located `PlError`."""
    def lookup(name: cst.Name) -> Any:
        if name.value in ns:
            return ns[name.value]
        if name.value == "float":  # the one builtin the evaluator calls (float('-inf'))
            return builtins.float
        if hasattr(builtins, name.value):
            raise NotStatic(name, f"`{name.value}` is a Python builtin, and static loading calls "
                                  "no function")
        raise FailsWhenRun(name, NameError(f"name '{name.value}' is not defined"))

    try:
        return evaluate(node, lookup)
    except FailsWhenRun as e:
        raise src.error(e.node, str(e), hint=_FAILS_HINT) from None


def _check_decorators(prog: ProgCtx, node: cst.ClassDef | cst.FunctionDef) -> None:
    """The errors Python would raise applying a `pl` decorator to this definition: a kernel-only
    DSL object (`@pl.range`, `@pl.add`) fails when called, `@pl.program` takes only a class."""
    ctx = FnCtx(prog, "<module>", None)
    for dec in node.decorators:
        target = dec.decorator.func if isinstance(dec.decorator, cst.Call) else dec.decorator
        obj = ctx.try_resolve(target) if isinstance(target, cst.Name | cst.Attribute) else None
        if isinstance(obj, KernelOnly | DslOp):
            try:
                obj()  # pl's own object: its call only raises the misuse error
            except PlError as e:
                raise prog.src.locate(e, dec) from None
        if isinstance(node, cst.FunctionDef) and obj is program:
            raise prog.src.locate(program_target_error(f"function '{node.name.value}'", None),
                                  dec)


def _built_programs(src: SourceFile, ns: dict[str, Any], fd: cst.FunctionDef,
                    skip: int = 0) -> list[Program]:
    """The `@pl.program` classes a builder function defines in its body (`def build(batch,
    head_dim=128): ... @pl.program class P: ...; return P`), lowered for the arguments of the
    file's first call of it whose arguments are static (literals, constants, names the file binds
    to such values before the call; its parameters' defaults fill the rest), or, when the file
    has no such call, for its parameters' defaults; the function's statements run statically
    (`_run_static`: helper functions of the file it calls included), up to its last class (what
    follows cannot change the classes: a test function's `Before` and `Expected` programs load
    whatever it then does with them). None when it defines none or nothing static gives its
    arguments (static loading then says the class is not loaded, as before). `skip`: leading
    parameters left unbound (a method's `self`, `cls`), which a statement reading them stops."""
    body = list(fd.body.body) if isinstance(fd.body, cst.IndentedBlock) else []
    classes = [s for s in body if isinstance(s, cst.ClassDef) and has_program_decorator(s)]
    if not classes:
        return []
    args = _static_call(src, ns, fd, skip)
    if args is None:
        return []
    scope: dict[str, Any] = dict(args)
    try:
        _run_static(src, ns, body[:body.index(classes[-1]) + 1], scope, 0)
    except _Returned:
        pass  # `return P`: the class is lowered by then
    except _NoStaticValue:
        return []
    built = [scope.get(cd.name.value) for cd in classes]
    return [p for p in built if isinstance(p, Program)]


def _nested_jit_defs(src: SourceFile, ns: dict[str, Any], fd: cst.FunctionDef,
                     depth: int = 0) -> list[tuple[str, JitDef]]:
    """The `@pl.jit*` defs a function defines in its body (a test function's entry and the
    `.extern` / `.incore` functions it calls), by their qualified name below it (`entry`,
    `make_entry.<locals>.entry` for one a nested plain def defines). Each sees the names of
    the function as a closure does: its parameters, and what its statements bind, unresolved
    where static loading cannot tell them (an error only where a kernel reads one); its
    statements are read as `_run_static` reads a builder's, a compound statement's blocks
    included (a jit def under `with pytest.raises(...)` is a def like any), up to a `return`.
    Nothing is specialised here: an entry when show_inferred shows it, a callee when an entry
    calls it."""
    if not _holds_jit_def(fd):
        return []
    scope: dict[str, Any] = {}
    params = [*fd.params.posonly_params, *fd.params.params, *fd.params.kwonly_params]
    for p in params:
        _unbind_static(src.stmt_span(fd), p.name, scope)
    found: list[tuple[str, JitDef]] = []

    def walk(body: Sequence[cst.BaseStatement]) -> bool:
        """False once a `return` is reached."""
        for stmt in body:
            if isinstance(stmt, cst.FunctionDef):
                jit = jit_decorator(FnCtx(ProgCtx(src, ns, scope), "<locals>", None), stmt)
                if jit is not None:
                    scope[stmt.name.value] = _jit_def(src, ns, stmt, *jit, closure=scope)
                    found.append((stmt.name.value, scope[stmt.name.value]))
                    continue
                # Another def: its value is not needed (a kernel reading it gets an error
                # there); a factory's jit defs are found in it.
                _unbind_static(src.stmt_span(stmt), stmt.name, scope)
                if depth < _MAX_HELPER_DEPTH:
                    found.extend((f"{stmt.name.value}.<locals>.{name}", inner) for name, inner
                                 in _nested_jit_defs(src, ns, stmt, depth + 1))
            elif isinstance(stmt, cst.SimpleStatementLine):
                for small in stmt.body:
                    try:
                        _run_static(src, ns, [small], scope, depth)
                    except _Returned:
                        return False
                    except (_NoStaticValue, PlError):  # a helper it calls fails statically
                        bound = _Bound()
                        small.visit(bound)
                        for name in bound.names:
                            _unbind_static(src.stmt_span(stmt), cst.Name(name), scope)
            elif isinstance(stmt, cst.ClassDef):
                _unbind_static(src.stmt_span(stmt), stmt.name, scope)
            elif isinstance(stmt, cst.BaseCompoundStatement):  # if / for / with / try ...
                bound = _Bound()
                stmt.visit(bound)
                for name in bound.names:
                    _unbind_static(src.stmt_span(stmt), cst.Name(name), scope)
                for block in _blocks(stmt):
                    if not walk(block):
                        return False
        return True

    if isinstance(fd.body, cst.IndentedBlock):
        walk(fd.body.body)
    return found


def _holds_jit_def(fd: cst.FunctionDef) -> bool:
    """Whether a def nested in `fd` has a decorator spelled `...jit...` (a guess by name, before
    anything is resolved: only such functions are read for jit defs)."""
    found = False

    class _Find(cst.CSTVisitor):
        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            nonlocal found
            if node is not fd and any("jit" in dotted(
                    d.decorator.func if isinstance(d.decorator, cst.Call) else d.decorator
                    ).split(".") for d in node.decorators
                    if isinstance(d.decorator, cst.Call | cst.Name | cst.Attribute)):
                found = True
            return not found

    fd.visit(_Find())
    return found


def _blocks(stmt: cst.BaseCompoundStatement) -> list[Sequence[cst.BaseStatement]]:
    """The statement blocks of a compound statement, in source order."""
    blocks: list[Sequence[cst.BaseStatement]] = []

    def add(suite: cst.BaseSuite | None) -> None:
        if isinstance(suite, cst.IndentedBlock):
            blocks.append(suite.body)

    add(stmt.body)
    if isinstance(stmt, cst.Try | cst.TryStar):
        for handler in stmt.handlers:
            add(handler.body)
        for part in (stmt.orelse, stmt.finalbody):
            if part is not None:
                add(part.body)
    elif isinstance(stmt, cst.If | cst.For | cst.While):
        orelse = stmt.orelse
        while orelse is not None:
            if isinstance(orelse, cst.If):
                add(orelse.body)
                orelse = orelse.orelse
            else:
                add(orelse.body)
                break
    return blocks


class _NoStaticValue(Exception):
    """A builder's statement static loading cannot run (a loop, a call of an unknown function,
    a raise it reaches)."""


class _Returned(Exception):
    def __init__(self, value: Any) -> None:
        super().__init__()
        self.value = value


_MAX_HELPER_DEPTH = 8


def _run_static(src: SourceFile, ns: dict[str, Any],
                body: Sequence[cst.BaseStatement | cst.BaseSmallStatement], scope: dict[str, Any],
                depth: int) -> None:
    """Runs a builder's (or a helper's) statements over `scope`, statically: assignments of
    static values (a call of another def of the file runs that def the same way), an `if` whose
    test is static, the `@pl.function` / `@pl.inline` defs and `@pl.program` classes it defines
    (lowered), a docstring or an expression statement (skipped: its value is not needed), a
    `return` (raises `_Returned`). Anything else raises `_NoStaticValue`."""
    for stmt in body:
        if isinstance(stmt, cst.SimpleStatementLine):
            _run_static(src, ns, stmt.body, scope, depth)
        elif isinstance(stmt, cst.Expr | cst.Pass):
            continue
        elif isinstance(stmt, cst.Return):
            raise _Returned(None if stmt.value is None
                            else _static_value(src, ns, scope, stmt.value, depth))
        elif isinstance(stmt, cst.Assign | cst.AnnAssign):
            if stmt.value is None:
                continue
            targets = [t.target for t in stmt.targets] if isinstance(stmt, cst.Assign) \
                else [stmt.target]
            try:
                value = _static_value(src, ns, scope, stmt.value, depth)
            except _NoStaticValue:  # `torch = pytest.importorskip("torch")`: an error only
                for target in targets:  # where a kernel reads it, as at module level
                    _unbind_static(src.stmt_span(stmt), target, scope)
                continue
            for target in targets:
                _bind_static(target, value, scope)
        elif isinstance(stmt, cst.If):
            if _static_value(src, ns, scope, stmt.test, depth):
                _run_static(src, ns, stmt.body.body, scope, depth)
            elif isinstance(stmt.orelse, cst.If):
                _run_static(src, ns, [stmt.orelse], scope, depth)
            elif stmt.orelse is not None:
                _run_static(src, ns, stmt.orelse.body.body, scope, depth)
        elif isinstance(stmt, cst.FunctionDef):
            prog = ProgCtx(src, ns, dict(scope))
            if is_inline_decorated(prog, stmt):
                scope[stmt.name.value] = inline_function(prog, stmt)
            elif function_decorator(prog, stmt) is not None:
                scope[stmt.name.value] = lower_function_node(prog, stmt)
            else:
                raise _NoStaticValue
        elif isinstance(stmt, cst.ClassDef) and has_program_decorator(stmt):
            scope[stmt.name.value] = lower_class_node(ProgCtx(src, ns, dict(scope)), stmt)
        else:
            raise _NoStaticValue


def _unbind_static(span: Span, target: cst.BaseExpression, scope: dict[str, Any]) -> None:
    """Binds the names of `target` to what static loading cannot tell (`Unresolved`)."""
    if isinstance(target, cst.Name):
        scope[target.value] = Unresolved(target.value, f"`{target.value}` is bound to a value "
                                                       f"static loading cannot tell (line "
                                                       f"{span.line})", span)
    elif isinstance(target, cst.Tuple | cst.List):
        for element in target.elements:
            _unbind_static(span, element.value, scope)
    else:
        raise _NoStaticValue


def _bind_static(target: cst.BaseExpression, value: Any, scope: dict[str, Any]) -> None:
    if isinstance(target, cst.Name):
        scope[target.value] = value
    elif isinstance(target, cst.Tuple | cst.List) and isinstance(value, tuple | list) \
            and len(value) == len(target.elements) \
            and not any(isinstance(e, cst.StarredElement) for e in target.elements):
        for element, item in zip(target.elements, value, strict=True):
            _bind_static(element.value, item, scope)
    else:
        raise _NoStaticValue


def _static_value(src: SourceFile, ns: dict[str, Any], scope: dict[str, Any],
                  node: cst.BaseExpression, depth: int) -> Any:
    """`node`'s value over `scope`: a call of a def of the file (a helper: `rows, cols =
    shape_of(branches=4)`, a factory returning a `@pl.function`) runs that def statically with
    its arguments (and its parameters' defaults); anything else is the static evaluator's."""
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) \
            and node.func.value not in scope:
        helper = next((s for s in src.module.body if isinstance(s, cst.FunctionDef)
                       and s.name.value == node.func.value and not s.decorators), None)
        if helper is not None:
            if depth >= _MAX_HELPER_DEPTH:
                raise _NoStaticValue
            params = [*helper.params.posonly_params, *helper.params.params]
            bound: dict[str, Any] = {}
            for i, a in enumerate(node.args):
                if a.star:
                    raise _NoStaticValue
                key = a.keyword.value if a.keyword is not None else \
                    params[i].name.value if i < len(params) else None
                if key is None:
                    raise _NoStaticValue
                bound[key] = _static_value(src, ns, scope, a.value, depth)
            for p in [*params, *helper.params.kwonly_params]:
                if p.name.value not in bound:
                    if p.default is None:
                        raise _NoStaticValue
                    bound[p.name.value] = _static_value(src, ns, {}, p.default, depth)
            body = list(helper.body.body) if isinstance(helper.body, cst.IndentedBlock) else []
            try:
                _run_static(src, ns, body, bound, depth + 1)
            except _Returned as r:
                return r.value
            return None
    try:
        return constant_value({**ns, **scope}, node, src)
    except (NotStatic, PlError):
        raise _NoStaticValue from None


def _static_call(src: SourceFile, ns: dict[str, Any], fd: cst.FunctionDef, skip: int = 0
                 ) -> dict[str, Any] | None:
    """The parameters of `fd` (but the first `skip`) bound to the static arguments of the
    file's first call of it whose arguments are all static (see `_built_programs`), or None."""
    params = list(fd.params.params)[skip:] + list(fd.params.kwonly_params)
    if not params:
        return {}  # every call of it is static
    names = [p.name.value for p in params]
    env: dict[str, Any] = {}
    found: list[dict[str, Any]] = []

    def value(node: cst.BaseExpression) -> Any:
        try:
            return constant_value({**ns, **env}, node, src)
        except (NotStatic, PlError):
            return _NO_VALUE

    class _Walk(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            for t in node.targets:
                if isinstance(t.target, cst.Name):
                    v = value(node.value)
                    if v is _NO_VALUE:
                        env.pop(t.target.value, None)
                    else:
                        env[t.target.value] = v

        def visit_Call(self, node: cst.Call) -> None:
            if found or not isinstance(node.func, cst.Name) or node.func.value != fd.name.value:
                return
            bound: dict[str, Any] = {}
            for i, a in enumerate(node.args):
                key = a.keyword.value if a.keyword is not None else \
                    names[i] if i < len(names) and not a.star else None
                v = value(a.value)
                if key is None or v is _NO_VALUE:
                    return
                bound[key] = v
            for p in params:
                if p.name.value not in bound:
                    if p.default is None:
                        return
                    v = value(p.default)
                    if v is _NO_VALUE:
                        return
                    bound[p.name.value] = v
            found.append(bound)

    src.module.visit(_Walk())
    if found:
        return found[0]
    # No static call: the parameters' defaults, when each has a static one (a builder the file
    # calls through a value, or not at all, shown for the shapes it gives itself).
    defaults: dict[str, Any] = {}
    for p in params:
        v = _NO_VALUE if p.default is None else value(p.default)
        if v is _NO_VALUE:
            return None
        defaults[p.name.value] = v
    return defaults


_NO_VALUE = object()


def _jit_def(src: SourceFile, ns: dict[str, Any], node: cst.FunctionDef, kind: str,
             level: Any, auto_scope: bool, external: Any,
             closure: dict[str, Any] | None = None) -> JitDef:
    """A `@pl.jit*` def of a file read statically: specialised when a kernel calls it, or
    (an entry) when show_inferred shows it. `closure`: the names of the function it is
    defined in (a test function's), read when it is specialised, as a closure's are."""
    return JitDef(kind, node.name.value, level, auto_scope,
                  lambda: (ProgCtx(src, ns, {} if closure is None else closure, jit=True), node),
                  external)


def _public(names: dict[str, Any]) -> dict[str, Any]:
    exported = names.get("__all__")
    if isinstance(exported, list | tuple) and all(isinstance(n, str) for n in exported):
        return {n: names[n] for n in exported if n in names}
    return {k: v for k, v in names.items() if not k.startswith("_")}

