"""A file of `@pl.jit` callees only, shown alone: the kernels other files' entries call.

Guarantees: each `@pl.jit.incore` / `.opaque` / `.inline` def of a file that defines no entry
and no program is specialised as a program of its own, each parameter typed by, in this order:
the `--shape` option given for it (`NAME=16x128:FP16`, or `CALLEE.NAME=...`); else the type of
its argument in the first call of it made while a `@pl.jit` entry of another file of its
package is specialised (the package: the folders above the file that hold an `__init__.py`,
else the file's own folder; each file read statically as show_inferred reads any, its entries
specialised for the shapes their own calls give: pl/show_inferred/jit_samples.py). A tensor
argument with a dynamic dim, a tile or a tuple gives no shape. The function is of its def's
kind: `.incore` InCore, `.opaque` Opaque, `.inline` the kind of the function the call splices
it into (an entry's: Orchestration). A note located at the def says which call (or option) it
is shown for. A callee no call and no option types is not shown: a note names the `--shape`
options that would. `.extern` stubs declare C++ kernels: nothing to show. Nothing is run; every
file read is recorded in `reads`, so the compile cache sees an entry file change.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType

from pl.errors import PlError
from pl.ir.enums import DType, FunctionType
from pl.ir.expr import ConstInt
from pl.ir.function import Program
from pl.ir.types import ScalarType, TensorType, Type
from pl.lowering.frontend.jit import ENTRY_KINDS, JitDef, Sample, TensorSpec
from pl.lowering.frontend.source import SourceFile
from pl.lowering.source.python import content_hash, decode
from pl.lowering.source.static_module import Reads, load_static, read_kernel
from pl.show_inferred.jit_samples import entry_samples
from pl.show_inferred.verify import shadowed

__all__ = ["callee_programs"]

# The jit kind an `.inline` callee is shown as, by the kind of the function it is spliced into.
_KIND_OF: Mapping[FunctionType, str] = MappingProxyType({
    FunctionType.Orchestration: "entry", FunctionType.InCore: "incore",
    FunctionType.AIC: "incore", FunctionType.AIV: "incore", FunctionType.Opaque: "opaque"})
_MAX_FILES = 200  # the package's files read at most (a package is a few dozen)

# What the package's entries give each callee: its arguments' types, the kind of the function
# calling it, and which entry of which file that is.
Calls = dict[tuple[str, str], tuple[tuple[Type, ...], FunctionType, str]]


def callee_programs(src: SourceFile, callees: list[JitDef], reads: Reads,
                    shapes: Mapping[str, TensorSpec]) -> tuple[list[Program], list[PlError]]:
    """The programs the callees of `src` are shown as, and the notes (see the module)."""
    shown = [c for c in callees if c.kind not in ENTRY_KINDS and c.kind != "extern"]
    if not shown:
        return [], []
    # The file verification reads back (pl/show_inferred/verify.py) is this one, under another
    # name: the entries of the package call the file on disk.
    filename = shadowed(src.filename)
    calls = _package_calls(filename, {c.name for c in shown}, reads)
    here = os.path.realpath(filename) if not filename.startswith("<") else filename
    programs: list[Program] = []
    notes: list[PlError] = []
    for c in shown:
        _, node = c.definition()
        at = src.stmt_span(node)
        params = [p.name.value for p in node.params.params]
        found = calls.get((here, c.name))
        given: list[Sample] = [shapes.get(f"{c.name}.{p}", shapes.get(p)) for p in params]
        if found is not None and len(found[0]) == len(params):
            given = [g if g is not None else _sample(t) for g, t in zip(given, found[0],
                                                                         strict=True)]
        missing = [p for p, g in zip(params, given, strict=True) if g is None]
        if missing:
            why = "no @pl.jit entry of its package calls it" if found is None else \
                f"{found[2]} calls it with arguments of no fixed shape"
            options = " ".join(f"--shape {c.name}.{p}=16x128:FP32" for p in missing)
            notes.append(PlError(f"{c.name} is not shown: {why}, and this file has no entry "
                                 f"of its own; give its shapes to show it ({options})", at))
            continue
        kind = c.kind if c.kind != "inline" else \
            _KIND_OF.get(found[1], "entry") if found is not None else "entry"
        alone = JitDef(kind, c.name, c.level, c.auto_scope, c.definition, c.external)
        programs.append(alone.specialise(given))
        source = "the shapes --shape gives" if found is None else f"its call by {found[2]}"
        notes.append(PlError(f"{c.name} is a @pl.jit.{c.kind} function and this file has no "
                             f"entry: it is shown specialised for {source}", at))
    return programs, notes


def _sample(t: Type) -> Sample:
    """The sample an argument of type `t` stands for (None: no fixed shape)."""
    if isinstance(t, TensorType) and all(isinstance(d, ConstInt) for d in t.shape):
        return TensorSpec(tuple(d.value for d in t.shape if isinstance(d, ConstInt)), t.dtype)
    if isinstance(t, ScalarType):
        return False if t.dtype is DType.BOOL else 0 if t.dtype.is_int() or \
            t.dtype is DType.INDEX else 0.0
    return None


def package_root(filename: str) -> Path:
    """The folder whose files may hold the entries calling a callee of `filename`."""
    folder = Path(os.path.realpath(filename)).parent
    root = folder
    while (root / "__init__.py").is_file() and (root.parent / "__init__.py").is_file():
        root = root.parent
    return root


def _package_calls(filename: str, names: set[str], reads: Reads) -> Calls:
    """The calls of the package's entries (see the module), by callee."""
    if filename.startswith("<"):
        return {}
    me = os.path.realpath(filename)
    found: Calls = {}
    files = sorted(p for p in package_root(filename).rglob("*.py")
                   if os.path.realpath(p) != me)[:_MAX_FILES]
    for path in files:
        try:
            data = path.read_bytes()
        except OSError:
            continue
        reads[str(path)] = content_hash(data)
        try:
            text, _ = decode(data, str(path))
        except PlError:
            continue
        if "jit" not in text or not any(n in text for n in names):
            continue
        try:
            other, _ = read_kernel(str(path), text)
            namespace = load_static(other, reads)
        except PlError:
            continue  # a file static loading refuses calls nothing here
        for key, v in list(namespace.items()):
            if not isinstance(v, JitDef) or v.kind not in ENTRY_KINDS or \
                    not (key == v.name or key.endswith(f".<locals>.{v.name}")) or \
                    os.path.realpath(v.definition()[0].src.filename) != os.path.realpath(path):
                continue
            record: dict[tuple[str, str], tuple[tuple[Type, ...], FunctionType]] = {}
            try:
                samples = entry_samples(v.name, v.param_names(), other.module, namespace, {},
                                        v.definition()[1])
                v.specialise(samples, record)
            except PlError:
                pass  # the calls lowered before it stopped are recorded
            line = other.stmt_span(v.definition()[1]).line
            for callee, (types, caller) in record.items():
                found.setdefault(callee, (types, caller, f"{path.name}'s entry {v.name} "
                                                         f"(line {line})"))
    return found
