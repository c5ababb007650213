"""`show_inferred`: a kernel file regenerated with its inferred memory spaces (source-preserving).

Guarantees: the file is loaded the way Python imports it (its folder on sys.path, module-level
names resolved as in the user's code) and every `@pl.program` defined in it is compiled. The
returned text equals the input byte for byte outside the changed statements of those programs'
functions; a function whose compiled body is not the user's statements plus inserted moves
(tensor-level code rewritten by lowering) is replaced by its canonical print, with the compiler's
`x__ssa_v0` names shown as the user's `x`. Errors are `PlError`s located in the user's file.

Cost: the file is parsed by LibCST once (when it runs, by the frontend; `regenerate` reuses that
parse), and the output is the user's text with the changed statements spliced in
(pl/annotate_splice.py) rather than a rendering of the whole rewritten module.
"""

from __future__ import annotations

import linecache
import os
import pickle
import re
import sys
import types
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import count
from pathlib import Path
from typing import Any

import libcst as cst

import infer
import lowering
from lowering.frontend_source import check_expression_size, source_file
from pl.annotate_edit import Unsupported, user_name
from pl.annotate_plan import FunctionResult, rewrite_function
from pl.annotate_splice import Edit, NotSpliceable, SourceText, splice
from pl.cache import gc_paused
from pl.compiler import Compiled, compile_program
from pl.errors import PlError, frame_span
from pl.ir.function import Function, Program
from pl.ir.span import Span
from pl.printer import print_node
from pl.written_spaces import space_changes

__all__ = ["FunctionInfo", "Regenerated", "load_programs", "regenerate", "run_text",
           "show_inferred"]

_MODULE_IDS = count()


@dataclass(frozen=True)
class FunctionInfo:
    """How one function was regenerated: the output names of the inserted moves, and whether it
    was printed canonically (`canonical_reason` then says why)."""

    program: str
    name: str
    move_names: dict[str, str]
    canonical_reason: str = ""


@dataclass(frozen=True)
class Regenerated:
    """One file's result: the input text, the regenerated text, and what was compiled.

    Pickled (the compile cache), the compiled programs travel as one nested pickle that is only
    unpickled when `compiled` is first read: they are most of an entry, and the plain regeneration
    an editor asks for on every save reads only `output` and `notes`."""

    filename: str
    text: str
    output: str
    _compiled: tuple[Compiled, ...] | bytes = field(compare=False)
    functions: tuple[FunctionInfo, ...] = ()
    notes: tuple[PlError, ...] = field(default=())

    @property
    def compiled(self) -> tuple[Compiled, ...]:
        value = self._compiled
        if isinstance(value, bytes):
            with gc_paused():  # a large IR: no collector passes while it is built
                value = pickle.loads(value)
            object.__setattr__(self, "_compiled", value)
        assert isinstance(value, tuple)
        return value

    def __reduce__(self) -> tuple[Any, ...]:
        blob = self._compiled
        if not isinstance(blob, bytes):
            blob = pickle.dumps(blob, protocol=pickle.HIGHEST_PROTOCOL)
        return (Regenerated, (self.filename, self.text, self.output, blob, self.functions, self.notes))

    def info(self, program: str, function: str) -> FunctionInfo | None:
        return next((i for i in self.functions if i.program == program and i.name == function), None)


# -- loading ---------------------------------------------------------------------------------------
def _exec_error(e: BaseException, filename: str) -> PlError:
    """The user's module failed while it was imported: a located error worded without Python's
    exception class names (the expression that raised, by CPython's position table)."""
    span = Span(filename, 1, 1)
    tb = e.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == filename:
            span = frame_span(tb.tb_frame, tb.tb_lasti)
        tb = tb.tb_next
    return PlError(_exec_message(e), span,
                   hint="the kernel file raised this while it was being imported")


_PACKAGES = tuple(str(Path(m.__file__ or "").resolve().parent) + os.sep
                  for m in (sys.modules["pl"], infer, lowering))


def _raised_inside_pl(e: BaseException, filename: str) -> bool:
    """Whether pl's own code ran between the user's last line and the exception: then it is a
    bug of pl (a failure in a library pl called included), not of the user's module."""
    tb = e.__traceback__
    inside = False
    while tb is not None:
        frame_file = tb.tb_frame.f_code.co_filename
        if frame_file == filename:
            inside = False
        elif str(Path(frame_file).resolve()).startswith(_PACKAGES):
            inside = True
        tb = tb.tb_next
    return inside


def _exec_message(e: BaseException) -> str:
    if isinstance(e, ModuleNotFoundError):
        return f"cannot import module '{e.name}'"
    if isinstance(e, ImportError):
        return f"cannot import: {e}"
    if isinstance(e, RecursionError):
        return "the kernel file nests too deeply to import"
    text = str(e) or "raised an error"
    return re.sub(r"\b[A-Z]\w*(?:Error|Exception)\b:?\s*", "", text) or "raised an error"


def load_programs(text: str, filename: str) -> list[Program]:
    """Execute `text` as a fresh module named after no real module; return its programs."""
    lines = text.splitlines(keepends=True)
    linecache.cache[filename] = (len(text), None, lines, filename)
    check_expression_size(filename, text)  # before CPython's compiler recurses on a huge one
    try:
        code = compile(text, filename, "exec", dont_inherit=True)
    except SyntaxError as e:
        raise PlError(f"invalid Python syntax: {e.msg}",
                      Span(filename, e.lineno or 1, e.offset or 1)) from None
    name = f"_pl_kernel_{next(_MODULE_IDS)}"
    module = types.ModuleType(name)
    module.__file__ = filename
    folder = str(Path(filename).resolve().parent) if not filename.startswith("<") else os.getcwd()
    sys.path.insert(0, folder)
    sys.modules[name] = module
    try:
        exec(code, module.__dict__)
    except PlError as e:
        if e.span is None or e.span.line <= 0:  # raised by a DSL object misused at module level
            located = _exec_error(e, filename)
            raise e.located(located.span) from None  # type: ignore[arg-type]
        raise
    except Exception as e:
        if _raised_inside_pl(e, filename):  # a bug of pl met while the module ran: an internal error
            raise
        raise _exec_error(e, filename) from None  # the user's own code failed: located
    finally:
        if folder in sys.path:
            sys.path.remove(folder)
        sys.modules.pop(name, None)
    seen: dict[int, Program] = {}
    for v in vars(module).values():
        if isinstance(v, Program):
            seen.setdefault(id(v), v)
    return list(seen.values())


# -- canonical fallback ----------------------------------------------------------------------------
class _Rename(cst.CSTTransformer):
    def __init__(self, mapping: dict[str, str]) -> None:
        super().__init__()
        self.mapping = mapping

    def leave_Name(self, original_node: cst.Name, updated_node: cst.Name) -> cst.Name:
        new = self.mapping.get(original_node.value)
        return updated_node if new is None else updated_node.with_changes(value=new)


def _user_names(fd: cst.FunctionDef) -> dict[str, str]:
    """Compiler names in printed code (`x__ssa_v0`) -> distinct user names (`x`, `x_1`, ...)."""
    order: list[str] = []

    class _Collect(cst.CSTVisitor):
        def visit_Name(self, n: cst.Name) -> None:
            if n.value not in order:
                order.append(n.value)

    fd.visit(_Collect())
    taken = {n for n in order if "__" not in n}
    mapping: dict[str, str] = {}
    for n in order:
        if "__" not in n:
            continue
        base, i = user_name(n), 0
        new = base
        while new in taken:
            i += 1
            new = f"{base}_{i}"
        taken.add(new)
        mapping[n] = new
    return mapping


def canonical_def(program: Program, name: str) -> tuple[cst.FunctionDef, dict[str, str]]:
    """The canonical print of one method of `program`, with user names, and the rename map."""
    module = cst.parse_module(print_node(program))
    for stmt in module.body:
        if isinstance(stmt, cst.ClassDef):
            for m in stmt.body.body:
                if isinstance(m, cst.FunctionDef) and m.name.value == name:
                    mapping = _user_names(m)
                    out = m.visit(_Rename(mapping))
                    assert isinstance(out, cst.FunctionDef)
                    return out, mapping
    raise AssertionError(f"printer lost function {name}")


# -- regeneration ----------------------------------------------------------------------------------
def _is_program_class(cd: cst.ClassDef) -> bool:
    for d in cd.decorators:
        match d.decorator:
            case cst.Attribute(attr=cst.Name("program")) | cst.Name("program"):
                return True
            case cst.Call(func=cst.Attribute(attr=cst.Name("program")) | cst.Name("program")):
                return True
            case _:
                pass
    return False


def _same_file(a: str, b: str) -> bool:
    if a == b:
        return True
    if a.startswith("<") or b.startswith("<"):
        return False
    return os.path.realpath(a) == os.path.realpath(b)


def _find_class(tree: cst.Module, positions: Any, filename: str, program: Program) -> cst.ClassDef | None:
    lines = [f.span.line for f in program.functions if _same_file(f.span.filename, filename)]
    if not lines:
        return None
    for stmt in tree.body:
        if isinstance(stmt, cst.ClassDef) and stmt.name.value == program.name and _is_program_class(stmt):
            rng = positions[stmt]
            if all(rng.start.line <= ln <= rng.end.line for ln in lines):
                return stmt
    return None


def _moves_of(c: Compiled, function: str) -> set[str]:
    log = c.decisions
    if log is None:
        return set()
    return {m.name for m in log.moves if m.function == function}


Replacement = FunctionResult | cst.FunctionDef  # a rewritten def, or a canonical one


def _replace_functions(tree: cst.Module, replacements: dict[int, Replacement]) -> cst.Module:
    """`tree` with the given methods of its top-level classes swapped (only those paths rebuilt)."""
    body: list[cst.BaseStatement] = []
    for stmt in tree.body:
        if isinstance(stmt, cst.ClassDef) and isinstance(stmt.body, cst.IndentedBlock) and any(
                id(fd) in replacements for fd in stmt.body.body):
            members = [_replacement(replacements[id(fd)]) if id(fd) in replacements else fd
                       for fd in stmt.body.body]
            stmt = stmt.with_changes(body=stmt.body.with_changes(body=members))
        body.append(stmt)
    return tree.with_changes(body=body)


def _replacement(r: Replacement) -> cst.FunctionDef:
    return r.node if isinstance(r, FunctionResult) else r


def regenerate(text: str, filename: str, compiled: Sequence[Compiled], *,
               splice_text: bool = True) -> Regenerated:
    """`text` with each compiled program's functions rewritten in place (see the module doc).

    The output is the rewritten module's text. It is built by splicing the changed statements
    into `text` (pl/annotate_splice.py) unless a change cannot be placed that way, or
    `splice_text=False` (the reference the tests compare with): then LibCST renders the module."""
    # The frontend parsed this very text when the file ran: reuse its tree, and locate statements
    # by their cheap spans (only statements are ever looked up here).
    parsed = source_file(filename, text)
    positions = parsed.statement_positions()
    tree = parsed.module
    source = SourceText(text, parsed.stmt_span, tree) if splice_text else None
    edits: list[Edit] | None = []
    replacements: dict[int, Replacement] = {}
    infos: list[FunctionInfo] = []
    notes: list[PlError] = []
    for c in compiled:
        cd = _find_class(tree, positions, filename, c.source)
        if cd is None:
            notes.append(PlError(f"program {c.source.name} is not defined in this file; "
                                 "it is left as written"))
            continue
        for fd in cd.body.body:
            if not isinstance(fd, cst.FunctionDef):
                continue
            fn, src = c.program.get(fd.name.value), c.source.get(fd.name.value)
            if fn is None or src is None:
                continue
            info, fn_edits = _rewrite_one(fd, positions, c, fn, src, replacements, notes, text,
                                          source)
            infos.append(info)
            edits = None if edits is None or fn_edits is None else edits + fn_edits
    lines = text.splitlines()
    for c in compiled:  # a space the user wrote is never changed silently
        if c.decisions is not None:
            notes.extend(PlError(ch.message(), ch.span, source=text)
                         for ch in space_changes(lines, c.decisions.spaces))
    output: str | None = None
    if source is not None:
        # LibCST renders an unchanged parse to the very text it was parsed from.
        output = _spliced(text, edits) if replacements else text
    if output is None:
        output = _replace_functions(tree, replacements).code if replacements else tree.code
    return Regenerated(filename, text, output, tuple(compiled), tuple(infos), tuple(notes))


def _spliced(text: str, edits: list[Edit] | None) -> str | None:
    if edits is None:
        return None
    try:
        return splice(text, edits)
    except NotSpliceable:
        return None


def _rewrite_one(fd: cst.FunctionDef, positions: Any, c: Compiled, fn: Function, src: Function,
                 replacements: dict[int, Replacement], notes: list[PlError],
                 text: str, source: SourceText | None) -> tuple[FunctionInfo, list[Edit] | None]:
    """One method rewritten, and its changes as text edits (None: the module must be rendered)."""
    try:
        res = rewrite_function(fd, positions, fn, src, _moves_of(c, fn.name), indent=1, text=text,
                               source_text=source)
        if res.changed:  # only changed statement lists are rebuilt
            replacements[id(fd)] = res  # its def is built only if the module is rendered
        return FunctionInfo(c.source.name, fn.name, res.move_names), res.edits
    except Unsupported as e:
        canon, mapping = canonical_def(c.program, fn.name)
        replacements[id(fd)] = canon.with_changes(leading_lines=fd.leading_lines)
        notes.append(PlError(f"{c.source.name}.{fn.name} is printed canonically: {e}",
                             Span(src.span.filename, src.span.line, src.span.col)))
        moves = {m: mapping.get(m, user_name(m)) for m in _moves_of(c, fn.name)}
        # A whole def is not located as text (decorators, nested footers): render the module.
        return FunctionInfo(c.source.name, fn.name, moves, str(e)), None


def run_text(text: str, filename: str, *, backend: str | None = "910B", residency: bool = True,
             program: str | None = None, dump_passes: Path | None = None,
             cache_dir: str | os.PathLike[str] | None = None) -> Regenerated:
    """Load, compile and regenerate one file's text (what the CLI does per file).

    With `cache_dir`, an unchanged file (same text, name, options and `pl`) is answered from the
    compile cache in that folder (pl.cache); `dump_passes` always compiles."""
    if cache_dir is not None and dump_passes is None:
        from pl.cache import cached_call

        return cached_call(cache_dir, "run_text", text, filename,  # type: ignore[no-any-return]
                           {"backend": backend, "residency": residency, "program": program},
                           lambda: run_text(text, filename, backend=backend, residency=residency,
                                            program=program))
    programs = load_programs(text, filename)
    if program is not None:
        programs = [p for p in programs if p.name == program]
    if not programs:
        what = f"no @pl.program named {program!r}" if program else "no @pl.program"
        raise PlError(f"{what} found in {filename}", Span(filename, 1, 1))
    compiled = []
    for p in programs:
        dump = None
        if dump_passes is not None:
            dump = dump_passes if len(programs) == 1 else dump_passes / p.name
        compiled.append(compile_program(p, backend, residency=residency, dump_passes=dump))
    with gc_paused():  # rewriting builds thousands of small acyclic LibCST nodes (pl.cache)
        return regenerate(text, filename, compiled)


_LOOKS_LIKE_SOURCE = re.compile(r"[\n;]")


def show_inferred(path_or_text: str | os.PathLike[str], *, backend: str | None = "910B",
                  residency: bool = True, filename: str | None = None) -> str:
    """The kernel file (a path, or source text when it contains a newline) regenerated with
    every tile's inferred memory space, its inserted moves and hoisted loads."""
    if backend == "none":
        backend = None
    if isinstance(path_or_text, str) and _LOOKS_LIKE_SOURCE.search(path_or_text):
        text, name = path_or_text, filename or "<string>"
    else:
        path = Path(path_or_text)
        if not path.is_file():
            raise PlError(f"no such file: {path}")
        text, name = path.read_text(encoding="utf-8"), filename or str(path)
    return run_text(text, name, backend=backend, residency=residency).output
