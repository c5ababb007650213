"""`@pl.jit`: kernels written as plain functions, specialised on the arrays they are called with.

The reference's front door. `@pl.jit` marks an entry (an Orchestration function), `@pl.jit.host` a
HOST orchestrator entry, `@pl.jit.incore` (optionally `level=`), `.opaque` and `.inline` the
functions an entry calls by name, and `.extern` a C++ kernel's signature. How a def specialises
(parameter types from the arguments, `a.shape` in the body, callees found by name) is
pl/lowering/frontend/jit.py; this module is what the decorators return.

Guarantees:
- `f.lower(*samples)` is the specialised `pl.Program` (the frontend's, before any pass);
  `f.compile(*samples)` its `pl.Compiled`; with every parameter's shape written, neither needs
  samples. A sample is a NumPy array, a CPU torch tensor (pl never imports torch), a
  `pl.jit.spec(shape, dtype)`, or a number for a scalar parameter.
- `f(*arrays)` compiles (once per shape and dtype of its arguments, the extents of dynamic dims
  aside, the compilation held by `f` itself, in memory) and runs the compiled program on pl's
  NumPy interpreter (`pl.interpret`); the arrays it writes (`pl.Out` / `pl.InOut`) are written in
  place (a torch tensor through its NumPy view). The reference's `config=` (a RunConfig) is
  accepted and ignored: there is no device.
- every user mistake is a located `PlError`. An `.extern` kernel (`core_type=`, `source=` or
  `aic_source=` / `aiv_source=`, `dual_aiv_dispatch=`, `include_dirs=`, the paths relative to
  the stub's file and required to exist; the options the reference refuses are refused alike)
  is a declared external function of the program that calls it (its body C++ source:
  lowering/frontend/jit.py's `ExternSpec`): it compiles and round-trips, and running it is a
  located error at the call.
"""

from __future__ import annotations

import os
import sys
import types
from collections.abc import Callable, Sequence
from typing import Any

import libcst as cst

from pl.errors import PlError
from pl.gc_pause import gc_paused
from pl.ir.enums import DType, Level
from pl.ir.expr import ConstInt
from pl.ir.function import Program
from pl.ir.target import DEFAULT_BACKEND
from pl.ir.types import TensorType
from pl.lowering.frontend.context import ProgCtx
from pl.lowering.frontend.jit import (
    ENTRY_KINDS,
    ExternSpec,
    JitDef,
    Sample,
    TensorSpec,
    extern_spec,
    program_of,
)
from pl.lowering.frontend.lower import _closure, _find, _source_of

__all__ = ["JitFunction", "TensorSpec", "extern", "host", "incore", "inline", "jit", "opaque",
           "spec"]

_DTYPES = types.MappingProxyType({"bool": DType.BOOL, "int8": DType.INT8, "int16": DType.INT16, "int32": DType.INT32,
           "int64": DType.INT64, "uint8": DType.UINT8, "uint16": DType.UINT16,
           "uint32": DType.UINT32, "uint64": DType.UINT64, "float16": DType.FP16,
           "float32": DType.FP32, "bfloat16": DType.BF16})


def spec(shape: Sequence[int], dtype: DType) -> TensorSpec:
    """`pl.jit.spec([16, 128], pl.FP16)`: a sample standing for an array of that shape and dtype."""
    if not isinstance(dtype, DType) or not all(type(d) is int and d > 0 for d in shape):
        raise PlError("pl.jit.spec(shape, dtype) takes positive integer extents and a pl dtype, "
                      f"got {list(shape)!r}, {dtype!r}")
    return TensorSpec(tuple(shape), dtype)


def _is_torch(value: Any) -> bool:
    return type(value).__module__.split(".")[0] == "torch" and hasattr(value, "numpy")


def sample_of(name: str, value: Any) -> Sample:
    """What an argument gives its parameter `name`: a TensorSpec for an array, else the number."""
    if isinstance(value, TensorSpec | bool | int | float):
        return value
    shape, dtype = getattr(value, "shape", None), getattr(value, "dtype", None)
    if shape is None or dtype is None:
        raise PlError(f"argument '{name}' must be an array (NumPy or torch), a pl.jit.spec or a "
                      f"number, got {type(value).__name__}")
    dname = str(dtype).removeprefix("torch.")
    found = _DTYPES.get(dname)
    if found is None:
        raise PlError(f"argument '{name}' has dtype {dname}, which no pl dtype stores",
                      hint="pass float16, bfloat16 (torch), float32 or an integer type")
    return TensorSpec(tuple(int(d) for d in shape), found)


class JitFunction(JitDef):
    """What `@pl.jit` (and `.host`, `.incore`, `.opaque`, `.inline`, `.extern`) makes of a def."""

    def __init__(self, fn: Callable[..., Any], kind: str, level: Level | None = None,
                 auto_scope: bool = True, scope: dict[str, Any] | None = None,
                 external: ExternSpec | None = None) -> None:
        if not callable(fn) or not hasattr(fn, "__code__"):
            raise PlError(f"@pl.jit{'' if kind == 'entry' else '.' + kind} must decorate a def")
        self.fn = fn
        self.scope = scope or {}
        super().__init__(kind, fn.__name__, level, auto_scope, self._definition, external)
        self.__wrapped__ = fn
        self.__doc__ = fn.__doc__
        # Compiled specialisations, by backend and the shapes (dynamic dims left out) and dtypes
        # of the arguments: held by this object only, never by pl.
        self._compiled: dict[tuple[Any, ...], Any] = {}
        # The entry parameters' dynamic dims (by index), known after the first specialisation.
        self._dynamic: dict[int, frozenset[int]] = {}

    def _definition(self) -> tuple[ProgCtx, cst.FunctionDef]:
        src, glb = _source_of(self.fn, "function")
        closure = dict(self.scope) if self.scope and self.scope is not glb else {}
        closure.update(_closure(self.fn))
        node = _find(src, self.fn.__qualname__, self.fn.__code__.co_firstlineno, "function")
        assert isinstance(node, cst.FunctionDef)
        return ProgCtx(src, glb, closure, jit=True), node

    def _bind(self, samples: tuple[Any, ...], named: dict[str, Any]) -> list[Sample] | None:
        """One sample per parameter (None: no samples at all)."""
        code = self.fn.__code__
        names = list(code.co_varnames[:code.co_argcount])
        named.pop("config", None)  # the reference's RunConfig: no device here
        if not samples and not named:
            return None
        if len(samples) > len(names):
            raise PlError(f"'{self.name}' takes {len(names)} arguments ({', '.join(names)}), "
                          f"got {len(samples)}")
        values: list[Any] = list(samples) + [None] * (len(names) - len(samples))
        for key, v in named.items():
            if key not in names:
                raise PlError(f"'{self.name}' has no parameter '{key}'")
            values[names.index(key)] = v
        missing = [n for n, v in zip(names, values, strict=True) if v is None]
        if missing:
            raise PlError(f"'{self.name}' is missing argument(s): {', '.join(missing)}")
        return [sample_of(n, v) for n, v in zip(names, values, strict=True)]

    def _program(self, given: list[Sample] | None) -> Program:
        try:
            program = program_of(self, given)
        except PlError as error:
            raise error.uncaught() from None
        entry = program.functions[0]
        self._dynamic = {i: frozenset(k for k, d in enumerate(p.type.shape)
                                      if not isinstance(d, ConstInt))
                         for i, p in enumerate(entry.params) if isinstance(p.type, TensorType)}
        return program

    @gc_paused()
    def lower(self, *samples: Any, **named: Any) -> Program:
        """The program this entry makes for arguments like `samples` (none: every parameter's
        shape is written in the signature)."""
        return self._program(self._bind(samples, named))

    def _key(self, given: list[Sample] | None) -> tuple[Any, ...]:
        if given is None:
            return ()
        return tuple((tuple(None if k in self._dynamic.get(i, ()) else d
                            for k, d in enumerate(g.shape)), g.dtype)
                     if isinstance(g, TensorSpec) else type(g).__name__
                     for i, g in enumerate(given))

    @gc_paused()
    def compile(self, *samples: Any, backend: str | None = DEFAULT_BACKEND, **named: Any) -> Any:
        """The compiled program (`pl.Compiled`) for arguments like `samples`, compiled once per
        shape and dtype and held by this function."""
        from pl.compiler import compile_program

        given = self._bind(samples, named)
        hit = self._compiled.get((backend, self._key(given)))
        if hit is not None:
            return hit
        program = self._program(given)
        try:
            compiled = compile_program(program, backend)
        except PlError as error:
            raise error.uncaught() from None
        self._compiled[(backend, self._key(given))] = compiled
        return compiled

    @gc_paused()
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Compile for these arguments (once per shape and dtype) and run on pl's interpreter;
        `pl.Out` / `pl.InOut` arrays are written in place."""
        import numpy as np

        from pl.interpreter import interpret

        if self.kind not in ENTRY_KINDS:
            raise PlError(f"'{self.name}' is a @pl.jit.{self.kind} function: it runs when the "
                          "@pl.jit entry that calls it runs")
        ranks = _world_size(kwargs.pop("config", None))
        compiled = self.compile(*args, **kwargs)
        code = self.fn.__code__
        names = code.co_varnames[:code.co_argcount]
        values = list(args) + [kwargs[n] for n in names[len(args):]]
        arrays: list[Any] = []
        copied: list[tuple[Any, Any]] = []  # torch tensors without a NumPy view (bfloat16)
        for v in values:
            if _is_torch(v) and str(v.dtype) == "torch.bfloat16":
                a = v.float().numpy()
                copied.append((v, a))
            elif _is_torch(v):
                a = v.detach().numpy()  # shares the CPU tensor's memory: writes go through
            else:
                a = np.asarray(v) if isinstance(v, list) else v
            arrays.append(a)
        result = interpret(compiled.program, *arrays, entry=self.name, ranks=ranks)
        for tensor, array in copied:
            tensor.copy_(sys.modules["torch"].from_numpy(array))
        by_id = {id(a): v for a, v in zip(arrays, values, strict=True)}
        if isinstance(result, tuple):
            return tuple(by_id.get(id(r), r) for r in result)
        return by_id.get(id(result), result)


def _world_size(config: Any) -> int | None:
    """The rank count a reference `config=RunConfig(distributed_config=DistributedConfig(
    device_ids=[...]))` gives a distributed program (one rank per device id), read by attribute:
    pypto is never imported. None without one."""
    ids = getattr(getattr(config, "distributed_config", None), "device_ids", None)
    return None if ids is None else len(ids)


class _Kind:
    """`pl.jit.<kind>` / `pl.jit.<kind>(level=..., auto_scope=...)`."""

    def __init__(self, kind: str) -> None:
        self.kind = kind

    def __call__(self, fn: Callable[..., Any] | None = None, /, *, level: Level | None = None,
                 auto_scope: bool = True, **options: Any) -> Any:
        if level is not None and self.kind != "incore":
            raise PlError(f"@pl.jit.{self.kind} does not take level=").uncaught()
        if options and self.kind != "extern":
            raise PlError(f"@pl.jit.{self.kind} does not take {', '.join(options)}").uncaught()
        return _decorate(fn, self.kind, level, auto_scope, dict(sys._getframe(1).f_locals),
                         options if self.kind == "extern" else None)


def _extern(fn: Callable[..., Any], options: dict[str, Any]) -> ExternSpec:
    """`@pl.jit.extern(**options)` of `fn`: its sources and include folders resolved from the
    folder of the file defining the stub, and required to exist (as the reference does)."""
    folder = os.path.dirname(os.path.abspath(fn.__code__.co_filename))
    resolved = dict(options)
    for key in ("source", "aic_source", "aiv_source"):
        if resolved.get(key) is not None:
            path = os.path.join(folder, os.fspath(resolved[key]))
            if not os.path.isfile(path):
                raise PlError(f"@pl.jit.extern source file not found: {os.path.abspath(path)}",
                              hint="give an absolute path, or one relative to the file defining "
                                   "the kernel")
            resolved[key] = os.path.abspath(path)
    dirs = resolved.get("include_dirs")
    if isinstance(dirs, list | tuple):
        found = []
        for d in dirs:
            path = os.path.abspath(os.path.join(folder, os.fspath(d)))
            if not os.path.isdir(path):
                raise PlError(f"@pl.jit.extern include directory not found: {path}",
                              hint="give absolute paths, or paths relative to the file defining "
                                   "the kernel")
            found.append(path)
        resolved["include_dirs"] = found
    elif dirs is not None and not isinstance(dirs, str):
        resolved["include_dirs"] = os.fspath(dirs)  # refused by extern_spec as a single path
    return extern_spec(resolved)


def _decorate(fn: Callable[..., Any] | None, kind: str, level: Level | None, auto_scope: bool,
              scope: dict[str, Any], options: dict[str, Any] | None = None) -> Any:
    if options is not None:
        try:  # the options the reference refuses before it sees the def
            extern_spec({k: "<given>" if k in ("source", "aic_source", "aiv_source") and v is not None
                         else v
                         for k, v in options.items() if k != "include_dirs" or
                         isinstance(v, str | list | tuple) or v is None})
        except PlError as error:
            raise error.uncaught() from None

    def make(f: Callable[..., Any]) -> JitFunction:
        try:
            external = _extern(f, options) if options is not None else None
            return JitFunction(f, kind, level, auto_scope, scope, external)
        except PlError as error:
            raise error.uncaught() from None

    return make if fn is None else make(fn)


host = _Kind("host")
incore = _Kind("incore")
opaque = _Kind("opaque")
inline = _Kind("inline")
extern = _Kind("extern")


def jit(fn: Callable[..., Any] | None = None, /, *, auto_scope: bool = True) -> Any:
    """`@pl.jit` / `@pl.jit(auto_scope=False)`: an entry (an Orchestration function)."""
    return _decorate(fn, "entry", None, auto_scope, dict(sys._getframe(1).f_locals))


class _CallableModule(types.ModuleType):
    """`pl.jit` is this module (Python binds a package's submodule as its attribute once it is
    imported), and calling it is `jit`."""

    def __call__(self, fn: Callable[..., Any] | None = None, /, *, auto_scope: bool = True
                 ) -> Any:
        return _decorate(fn, "entry", None, auto_scope, dict(sys._getframe(1).f_locals))


sys.modules[__name__].__class__ = _CallableModule
