"""A kernel file loaded, compiled and regenerated with its inferred memory spaces
(source-preserving): what `run_text` (pl/show_inferred/run.py) does when the compile cache has no
answer.

Guarantees: the file is READ, never run (lowering/source/static_module.py: its imports of `pl` and of
the project's own modules are followed, its constants evaluated statically); only `execute=True`
(the CLI's `--exec`) imports it the way Python does. Every `@pl.program` defined in it is
compiled. The returned text equals the input byte for byte outside the changed statements of
those programs' functions (plus, for a file that only imports names *from* `pl`, an added
`import pl`, see pl/show_inferred/imports.py), so no comment or docstring is ever lost. A function
whose compiled body is not the user's statements plus inserted moves (tensor-level code rewritten
by lowering) is left exactly as written, with a note; its compiled form is what `--ir` prints.
Inserted text spells the DSL the way the file imports it (`import pl as p` gives `p.Tile[...]`).
`run_file` verifies its result before returning it (pl/show_inferred/verify.py: it reads back, compiles
to the same programs and is a fixed point), else raises `InternalError`. Errors in the kernel are
`PlError`s located in the user's file.

Cost: the file is parsed by LibCST once (by the loader; `regenerate` reuses that parse, and so do
the decorators of a file run by `--exec`). The output is never parsed by LibCST either: its tree
is assembled from the input's parse and the changed and inserted statements (`Regenerated.tree`;
an inserted move is built as a node, `Spelling.statement_node`, not parsed), the output is that
tree rendered once (LibCST renders every node it parsed to exactly its text, so the lines that
did not change are the user's), and verification reads that tree back
(pl/show_inferred/verify.py). A run that shows no text (`verify=False`: the command's --explain,
--json, --ir) builds no tree. Memory: once a run
returns, nothing of its parse is alive (its result holds texts and programs, no tree), even
with the collector paused; during verification the input's parse lives on in the output's tree,
in place of the parse of the output the read-back used to make.
"""

from __future__ import annotations

import dataclasses
import linecache
import os
import sys
import types
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import libcst as cst

from pl.compiler import Compiled, compile_program
from pl.errors import InternalError, PlError, frame_span, is_pl_source
from pl.ir.expr import Call, GlobalVar, Var
from pl.ir.function import Function, Program
from pl.ir.names import user_name
from pl.ir.span import Span
from pl.ir.traverse import holds_tiles, stmt_exprs, walk_exprs, walk_stmts
from pl.language.dsl import DynVar
from pl.lowering.frontend.jit import ENTRY_KINDS, JitDef, program_of
from pl.lowering.frontend.lower import MODULE_PARSE
from pl.lowering.frontend.source import SourceFile
from pl.lowering.source.python import (
    UserLines,
    content_hash,
    kernel_folder,
    python_lines,
    python_view,
    restore,
)
from pl.lowering.source.static_eval import python_failure
from pl.lowering.source.static_module import has_program_decorator, load_static, read_kernel
from pl.show_inferred.bindings import shown_names
from pl.show_inferred.edit import Unsupported
from pl.show_inferred.imports import DslRoot, dsl_root
from pl.show_inferred.jit_callees import callee_programs
from pl.show_inferred.jit_samples import entry_samples, parse_shape
from pl.show_inferred.lowered import LoweredResult, rewrite_lowered
from pl.show_inferred.plan import (
    FunctionResult,
    InlineHelpers,
    _identifiers,
    module_constants,
    rewrite_function,
    shape_constants,
)
from pl.show_inferred.result import FunctionInfo, Regenerated, kernel_options
from pl.show_inferred.verify import ProgramNotVerified, Rerun, verify_output
from pl.show_inferred.written_spaces import space_changes, written_in
from pl.structural import structural_equal

if TYPE_CHECKING:
    from pl.lowering.source.static_module import Reads

__all__ = ["load_programs", "regenerate", "rerun", "run_file"]

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
    return PlError(python_failure(e), span,
                   hint="the kernel file fails this way while it is being imported (--exec)")


def _raised_inside_pl(e: BaseException, filename: str) -> bool:
    """Whether pl's own code ran between the user's last line and the exception: then it is a
    bug of pl (a failure in a library pl called included), not of the user's module."""
    tb = e.__traceback__
    inside = False
    while tb is not None:
        frame_file = tb.tb_frame.f_code.co_filename
        if frame_file == filename:
            inside = False
        elif is_pl_source(frame_file):
            inside = True
        tb = tb.tb_next
    return inside


def load_programs(text: str, filename: str, *, execute: bool = False,
                  reads: Reads | None = None) -> list[Program]:
    """The `@pl.program`s defined in (or imported by) the kernel file `text`.

    By default the file is READ, never run (lowering/source/static_module.py): a name the kernels use
    that only running the file could give is a located error naming `--exec`. `execute=True`
    imports the file as a fresh module, as Python would (its top-level code runs). The files the
    load depended on besides `text` are recorded in `reads` (path -> sha256; None: absent). An
    error located in `text` carries it (`PlError.source`): nothing keeps the text afterwards."""
    try:
        src, code = read_kernel(filename, text)
    except PlError as e:
        raise e.in_text(filename, text) from None
    return _load(src, code, execute, {} if reads is None else reads)[0]


def _load(src: SourceFile, code: types.CodeType, execute: bool, reads: Reads,
          shapes: Sequence[str] = ()
          ) -> tuple[list[Program], dict[str, str], list[str], list[PlError]]:
    """`load_programs` of a file the caller has read (and keeps, to regenerate it), and the
    name the file binds each `pl.dynamic` dimension to (`n = pl.dynamic("N")`: N -> n), which
    is how an inferred type must spell that dimension in the file. Each `@pl.jit` entry the
    file defines is one program, specialised for the shapes pl/show_inferred/jit_samples.py
    finds (`shapes`: the `--shape` options); the third value names the file's other `@pl.jit`
    functions (shown through the entries that call them)."""
    try:
        namespace = _exec_module(src, code, reads) if execute else load_static(src, reads)
        given = dict(parse_shape(t) for t in shapes)
        seen: dict[int, Program] = {}
        dims: dict[str, str] = {}
        callees: list[str] = []
        callee_defs: list[JitDef] = []
        load_notes: list[PlError] = []
        alone: list[Function] = []
        for k, v in namespace.items():
            if isinstance(v, Program):
                seen.setdefault(id(v), v)
            elif isinstance(v, Function) and k == v.name and v.func_type.is_incore_kind() \
                    and _same_file(v.span.filename, src.filename):
                alone.append(v)
            elif isinstance(v, DynVar) and (v.name not in dims or k == v.name):
                dims[v.name] = k
            elif isinstance(v, JitDef) and v.kind in ENTRY_KINDS and _own_name(k, v) \
                    and _same_file(v.definition()[0].src.filename, src.filename):
                samples = entry_samples(v.name, v.param_names(), src.module, namespace, given,
                                        v.definition()[1])
                missing = v.unshaped(samples) if k != v.name else []
                if missing:  # an entry a test function defines and never calls with arrays
                    outer = k.rsplit(".<locals>.", 1)[0]
                    options = " ".join(f"--shape {v.name}.{p}=16x128:FP32" for p in missing)
                    load_notes.append(PlError(
                        f"{v.name}, defined in {outer}, is not shown: no call there gives the "
                        f"shapes of {', '.join(missing)}; give them to show it ({options})",
                        src.stmt_span(v.definition()[1])))
                    continue
                program = program_of(v, samples)
                seen[id(program)] = program
            elif isinstance(v, JitDef) and _own_name(k, v) \
                    and _same_file(v.definition()[0].src.filename, src.filename):
                callees.append(k)
                if k == v.name:  # a module-level one: another file's entry may call it
                    callee_defs.append(v)
        # A module-level kernel (`@pl.function(type=pl.FunctionType.InCore)`) no program of
        # the file calls is a program of its own, named after it: it is shown like a method.
        called = {(f.span.filename, f.span.line) for p in seen.values() for f in p.functions}
        for f in alone:
            if (f.span.filename, f.span.line) not in called:
                program = Program(f.name, (f,), span=f.span)
                seen[id(program)] = program
        # A file of callees only: each shown for its call by an entry of its package.
        if not seen and callee_defs:
            shown, notes = callee_programs(src, callee_defs, reads, given)
            seen.update((id(p), p) for p in shown)
            load_notes.extend(notes)
    except PlError as e:
        raise e.in_text(src.filename, src.text) from None
    # Only the programs (IR data) are used from here on. The namespace is a reference cycle
    # holding the file's parse, its LibCST and CPython trees: an `@pl.inline` helper's globals
    # are that namespace, and an imported module's functions its dict, which also keeps the
    # parse (MODULE_PARSE). Left to the collector, which a compile pauses (pl.gc_pause), the
    # parse would stay alive while the output is read back for verification, beside that
    # read-back's own peak. Emptying the namespace frees it by reference counting (the
    # imported module is out of sys.modules already).
    namespace.clear()
    return list(seen.values()), dims, callees, load_notes


def _own_name(key: str, jit: JitDef) -> bool:
    """Whether the namespace's `key` is the jit function's own name (not another name bound to
    it): `entry`, or `test_x.<locals>.entry` for one a test function defines."""
    return key == jit.name or key.endswith(f".<locals>.{jit.name}")


def _exec_module(src: SourceFile, code: types.CodeType, reads: Reads) -> dict[str, Any]:
    """`--exec`: run the file as a fresh module named after no real module. Any exception it
    raises, `SystemExit` and `KeyboardInterrupt` included, is a located error for this file.
    The project modules it imports (files under the kernel's folder, outside any site-packages)
    are recorded in `reads` and forgotten afterwards, so the next file imports its own."""
    filename, text = src.filename, src.text
    module = types.ModuleType("_pl_kernel")
    name = module.__name__ = f"_pl_kernel_{id(module):x}"  # unique while it is in sys.modules
    module.__file__ = filename
    # The decorators lower from the parse the module's namespace holds (MODULE_PARSE): the one
    # `read_kernel` made of this very text, rather than a second parse of it.
    module.__dict__[MODULE_PARSE] = src
    folder = str(kernel_folder(filename))
    sys.path.insert(0, folder)
    sys.modules[name] = module
    before = set(sys.modules)
    # The decorators read their class's lines through `linecache` (as `inspect` does): the text
    # is there while the module runs, and only then.
    cached_lines = linecache.cache.get(filename)
    linecache.cache[filename] = (len(text), None, python_lines(text), filename)
    try:
        exec(code, module.__dict__)
    except PlError as e:
        if e.span is None or e.span.line <= 0:  # raised by a DSL object misused at module level
            located = _exec_error(e, filename)
            raise e.located(located.span) from None  # type: ignore[arg-type]
        raise
    except BaseException as e:  # noqa: BLE001  the user's module failed on import (even exit()):
        if isinstance(e, Exception) and _raised_inside_pl(e, filename):
            raise  # a bug of pl met while the module ran: an internal error
        raise _exec_error(e, filename) from None  # the user's own code failed: located
    finally:
        if cached_lines is None:
            linecache.cache.pop(filename, None)
        else:
            linecache.cache[filename] = cached_lines
        if folder in sys.path:
            sys.path.remove(folder)
        sys.modules.pop(name, None)
        _forget_project_modules(set(sys.modules) - before, folder, reads)
    return vars(module)


def _forget_project_modules(names: set[str], folder: str, reads: Reads) -> None:
    root = folder.rstrip(os.sep) + os.sep
    for mod_name in names:
        path = getattr(sys.modules.get(mod_name), "__file__", None)
        if not isinstance(path, str) or is_pl_source(path):
            continue  # the compiler's own modules stay (a kernel may sit beside them)
        real = os.path.realpath(path)
        parts = set(Path(real).parts)
        if real.startswith(root) and not parts & {"site-packages", "dist-packages"}:
            sys.modules.pop(mod_name, None)
            try:
                reads[real] = content_hash(Path(real).read_bytes())
            except OSError:
                reads[real] = None


# -- regeneration ----------------------------------------------------------------------------------
def _same_file(a: str, b: str) -> bool:
    if a == b:
        return True
    if a.startswith("<") or b.startswith("<"):
        return False
    return os.path.realpath(a) == os.path.realpath(b)


def _nested(body: Sequence[cst.CSTNode], depth: int = 0
            ) -> Iterator[tuple[cst.FunctionDef | cst.ClassDef, int]]:
    """The defs and classes of a module (or of a def's or class's body), with their depth: 0 at
    module level, 1 in a def or class (a builder function's `@pl.program` class, a method)."""
    for stmt in body:
        if isinstance(stmt, cst.FunctionDef | cst.ClassDef):
            yield stmt, depth
            if isinstance(stmt.body, cst.IndentedBlock):
                yield from _nested(stmt.body.body, depth + 1)


def _find_class(tree: cst.Module, positions: Any, filename: str, program: Program
                ) -> tuple[cst.ClassDef, int] | None:
    """The program's class and its depth (1: built inside a builder function)."""
    # The program's own line where it has one: functions it calls from outside the class
    # (module-level `@pl.function`s) lie elsewhere.
    lines = [program.span.line] if program.span.line > 0 \
        and _same_file(program.span.filename, filename) else \
        [f.span.line for f in program.functions if _same_file(f.span.filename, filename)]
    if not lines:
        return None
    for stmt, depth in _nested(tree.body):
        if isinstance(stmt, cst.ClassDef) and stmt.name.value == program.name and has_program_decorator(stmt):
            rng = positions[stmt]
            if all(rng.start.line <= ln <= rng.end.line for ln in lines):
                return stmt, depth
    return None


def _def_at(tree: cst.Module, positions: Any, line: int) -> tuple[cst.FunctionDef, int] | None:
    """The innermost def whose lines hold `line` (a function's own line), and its depth: a
    kernel a builder function defines is that def, not the builder."""
    found: tuple[cst.FunctionDef, int] | None = None
    for stmt, depth in _nested(tree.body):
        rng = positions[stmt]
        if isinstance(stmt, cst.FunctionDef) and rng.start.line <= line <= rng.end.line \
                and (found is None or depth > found[1]):
            found = (stmt, depth)
    return found


def _moves_of(c: Compiled, function: str) -> set[str]:
    log = c.decisions
    if log is None:
        return set()
    return {m.name for m in log.moves if m.function == function}


class _Swap(cst.CSTTransformer):
    """Swaps the defs `replacements` names (by the id of the parsed def), at any depth; a
    method's replacement brings the methods that stand before it in its class (`before`).
    Visits statements only (a def is in a statement list), and never the body of a def it
    replaces."""

    def __init__(self, replacements: dict[int, FunctionResult | LoweredResult]) -> None:
        self.replacements = replacements
        self.in_class: list[bool] = [False]  # whether each open def or class is a class

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.in_class.append(True)

    def leave_ClassDef(self, original_node: cst.ClassDef, updated_node: cst.ClassDef
                       ) -> cst.ClassDef:
        self.in_class.pop()
        return updated_node

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        self.in_class.append(False)
        return id(node) not in self.replacements  # (a replaced def's body is not visited)

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> bool:
        return False  # (no def inside)

    def leave_FunctionDef(self, original_node: cst.FunctionDef, updated_node: cst.FunctionDef
                          ) -> cst.FunctionDef | cst.FlattenSentinel[cst.BaseStatement]:
        self.in_class.pop()
        found = self.replacements.get(id(original_node))
        if found is None:
            return updated_node
        assert isinstance(found.node, cst.FunctionDef)
        # (in a class, or at module level: not in a def)
        before = tuple(getattr(found, "before", ())) \
            if self.in_class[-1] or len(self.in_class) == 1 else ()
        return cst.FlattenSentinel([*before, found.node]) if before else found.node


def _replace_functions(tree: cst.Module, replacements: dict[int, FunctionResult | LoweredResult],
                       root: DslRoot) -> cst.Module:
    """`tree` with the given defs swapped wherever they are (module level, methods, a builder
    function's class; only those paths rebuilt) and the import `root` asks for added."""
    body: list[cst.BaseStatement] = []
    for stmt in tree.body:
        swapped = stmt.visit(_Swap(replacements))
        if isinstance(swapped, cst.FlattenSentinel):  # a module-level def and its tasks
            body.extend(swapped)
        else:
            assert isinstance(swapped, cst.BaseStatement)
            body.append(swapped)
        if stmt is root.after:
            body.append(cst.parse_statement(root.import_line))
    return tree.with_changes(body=body)


def regenerate(text: str, filename: str, compiled: Sequence[Compiled]) -> Regenerated:
    """`text` with each compiled program's functions rewritten in place (see the module doc).

    The output is the rewritten module's text, its tree rendered by LibCST. A text Python reads otherwise than it is written (line breaks other than `\\n`, NFKC names,
    form feeds; `python_view`) is regenerated as read, then given the user's lines back
    (`restore`), as `run_file` does; `compiled` is then the compile of that view."""
    view = python_view(text)
    r = _regenerate(SourceFile(filename, view), compiled)
    return r if view == text else _restored(r, text, view)


def _restored(r: Regenerated, text: str, view: str) -> Regenerated:
    """`r`, the regeneration of `view = python_view(text)`, in the user's `text`: its lines, line
    breaks and spellings back, and every place in the user's coordinates."""
    output = restore(text, view, r.output)
    if python_view(output) != r.output:  # what Python reads of it must be what was verified
        raise InternalError(f"{r.filename}: the regenerated text respelled in the file's own "
                            "spelling and line breaks does not read as the verified one")
    lines = UserLines(text, view)
    return dataclasses.replace(r, text=text, output=output,
                               warnings=tuple(dataclasses.replace(w, span=lines.span(w.span))
                                              for w in r.warnings))


def _regenerate(parsed: SourceFile, compiled: Sequence[Compiled], *,
                dims: Mapping[str, str] | None = None,
                lowered: Mapping[str, str] | None = None, helpers: InlineHelpers | None = None,
                shows_text: bool = True) -> Regenerated:
    """`regenerate` of the file the programs were loaded from: its parse is reused, and
    statements are located by their spans (only statements are ever looked up here).
    `lowered`: by program name, why a function of that program that cannot be annotated in
    place is left as written rather than shown as it compiles (pl/show_inferred/lowered.py),
    when `run_file` found that form does not verify; a program not in it (the default: none)
    has such functions shown. `helpers`: the file's inline helpers, with the
    ones found to compile differently at their calls (the file is then planned again).
    `shows_text=False`: for a caller that neither prints nor writes the regenerated text
    (`run_file(verify=False)`): every function is planned (the moves' names, the notes) but no
    tree is assembled; the result's `output` is then the input text."""
    text, filename = parsed.text, parsed.filename
    positions = parsed.statement_positions()
    tree = parsed.module
    if helpers is None:
        helpers = InlineHelpers(tree, positions)
    helpers.reset()
    replacements: dict[int, FunctionResult | LoweredResult] = {}
    infos: list[FunctionInfo] = []
    notes: list[PlError] = []
    root = dsl_root(tree)
    if root is None:
        notes.append(PlError("this file binds `pl` to something else and imports no name for "
                             "the pl module, so inferred types cannot be spelled in it; it is "
                             "left as written", Span(filename, 1, 1),
                             hint="import the DSL module, e.g. `import pl as p`"))
    shown: set[int] = set()  # the module-level defs of @pl.jit functions shown so far
    consts = module_constants(tree)
    for c in compiled if root is not None else ():
        found_class = _find_class(tree, positions, filename, c.source)
        cd = found_class[0] if found_class is not None else None
        pairs: list[tuple[cst.FunctionDef, int]] = []
        methods: set[int] = set()
        if found_class is not None:
            cd, depth = found_class
            pairs = [(fd, depth + 1) for fd in cd.body.body if isinstance(fd, cst.FunctionDef)]
            methods = {id(fd) for fd, _ in pairs}
            pairs += _module_defs(tree, positions, filename, c.source, cd, shown)
        else:
            pairs = _jit_defs(tree, positions, filename, c.source, shown, notes)
            if not pairs:
                notes.append(PlError(f"program {c.source.name} is not defined in this file; "
                                     "it is left as written"))
                continue
        for fd, indent in pairs:
            name = fd.name.value if id(fd) in methods else _jit_name(c.source, fd, positions)
            fn, src = c.program.get(name), c.source.get(name)
            if fn is None or src is None:
                continue
            assert root is not None
            fn_infos = _rewrite_one(fd, positions, c, fn, src, replacements, notes,
                                    text, root.name, dims, indent,
                                    set() if cd is None or id(fd) not in methods else
                                    {m.name.value for m in cd.body.body
                                     if isinstance(m, cst.FunctionDef)},
                                    (lowered or {}).get(c.source.name, ""),
                                    consts, helpers, shows_text)
            infos.extend(fn_infos)
    if helpers.settle():  # a helper's calls disagree: its callers are shown as they compile
        return _regenerate(parsed, compiled, dims=dims, lowered=lowered,
                           helpers=helpers, shows_text=shows_text)
    for helper, res in helpers.results():
        if res.changed:
            replacements[id(helper)] = res
    for helper, _, _ in helpers.defs:
        why = helpers.differ.get(id(helper))
        if why is not None:
            rng = positions[helper]
            notes.append(PlError(f"the @pl.inline helper {helper.name.value} stays as written: "
                                 f"{why}, so each call's compiled statements stand at the call",
                                 Span(filename, rng.start.line, rng.start.column + 1)))
    notes.extend(_imported_notes(compiled, filename))
    kept = {(i.program, i.name) for i in infos if i.kept_reason}
    for c in compiled:  # a space the user wrote is never changed silently
        if c.decisions is not None:
            notes.extend(PlError(ch.message((c.source.name, ch.function) not in kept), ch.span,
                                 source=text)
                         for ch in space_changes(written_in(c.source), c.decisions.spaces))
    warnings = tuple(w for c in compiled for w in c.warnings)
    if not shows_text:
        helpers.reset()  # (see below)
        return Regenerated(filename, text, text, tuple(compiled), tuple(infos), tuple(notes),
                           warnings)
    # The output's tree: the input's parse with the rewritten functions (and the added import)
    # in place, sharing every node of the input that did not change; the output is its
    # rendering (an unchanged parse renders to the very text it was parsed from). Verification
    # reads it back instead of parsing the output.
    assembled, output = (_replace_functions(tree, replacements, root), None) \
        if replacements and root is not None else (tree, text)
    if output is None:
        output = assembled.code
    # The sites' planners refer back to `helpers` (a cycle that holds the parse); the output and
    # its tree are built, so they are dropped, and the parse is freed by reference counting
    # (the collector is paused during a compile: pl/gc_pause.py).
    helpers.reset()
    return Regenerated(filename, text, output, tuple(compiled), tuple(infos), tuple(notes),
                       warnings, assembled)


def _imported_notes(compiled: Sequence[Compiled], filename: str) -> list[PlError]:
    """A note for each function with tiles a program of this file compiles from a project
    module it imports (a `@pl.function` defined in another file beside it): it is regenerated
    in that file, where it is defined (`python -m pl.show_inferred that_file.py`: a module-level
    kernel is compiled there as a program of its own, and inferred alone as it is here), not in
    this one, which does not hold its text."""
    notes: list[PlError] = []
    seen: set[tuple[str, int]] = set()
    for c in compiled:
        where = Span(filename, c.source.span.line, c.source.span.col) \
            if _same_file(c.source.span.filename, filename) else Span(filename, 1, 1)
        for f in c.source.functions:
            home = f.span.filename
            if _same_file(home, filename) or home.startswith("<") or is_pl_source(home) \
                    or (home, f.span.line) in seen:
                continue
            compiled_f = c.program.get(f.name)
            if compiled_f is None or not holds_tiles(compiled_f.params, compiled_f.body):
                continue
            seen.add((home, f.span.line))
            there = f"it is regenerated there (python -m pl.show_inferred {home})" \
                if f.func_type.is_incore_kind() else \
                "it is not regenerated: only an InCore, AIC or AIV kernel is compiled in its " \
                "own file (--ir shows its compiled form)"
            notes.append(PlError(f"{c.source.name}.{f.name} is defined in "
                                 f"{os.path.basename(home)}, which this file imports: {there}",
                                 where))
    return notes


def _jit_defs(tree: cst.Module, positions: Any, filename: str, program: Program, shown: set[int],
              notes: list[PlError]) -> list[tuple[cst.FunctionDef, int]]:
    """The module-level defs of a `@pl.jit` program's functions (or of a module-level kernel
    no program calls, a program of its own) in this file, each shown once:
    a def specialised again (another entry's call, other argument types) is shown for its first
    specialisation, with a note. An external kernel's stub (`@pl.jit.extern`: the functions
    declared from it, their bodies C++) has nothing to show and stays as written."""
    found: list[tuple[cst.FunctionDef, int]] = []
    stubs = {f.span.line for f in program.functions if f.external_source is not None}
    for f in program.functions:
        if not _same_file(f.span.filename, filename) or f.span.line in stubs:
            continue
        at = _def_at(tree, positions, f.span.line)
        if at is None:
            continue
        fd, depth = at
        if id(fd) in shown:
            notes.append(PlError(f"{fd.name.value} is shown for its first specialisation; "
                                 f"{program.name} specialises it again ({f.name})",
                                 Span(filename, f.span.line, f.span.col)))
            continue
        shown.add(id(fd))
        found.append((fd, depth))
    return found


def _module_defs(tree: cst.Module, positions: Any, filename: str, program: Program,
                 cd: cst.ClassDef, shown: set[int]) -> list[tuple[cst.FunctionDef, int]]:
    """The module-level defs of this file that `program` (defined by the class `cd`) compiled:
    its methods call a `@pl.function` written outside the class by its bare name. Each def is
    shown once, for the first program that compiles it (its compiled form is its own: a
    function is inferred alone, whichever program calls it)."""
    rng = positions[cd]
    found: list[tuple[cst.FunctionDef, int]] = []
    for f in program.functions:
        if not _same_file(f.span.filename, filename) or \
                rng.start.line <= f.span.line <= rng.end.line:
            continue
        at = _def_at(tree, positions, f.span.line)
        if at is None or id(at[0]) in shown:
            continue
        shown.add(id(at[0]))
        found.append(at)
    return found


def _jit_name(program: Program, fd: cst.FunctionDef, positions: Any) -> str:
    """The name of the function of a `@pl.jit` program lowered from the def `fd`."""
    rng = positions[fd]
    return next(f.name for f in program.functions
                if rng.start.line <= f.span.line <= rng.end.line)


def _rewrite_one(fd: cst.FunctionDef, positions: Any, c: Compiled, fn: Function, src: Function,
                 replacements: dict[int, FunctionResult | LoweredResult], notes: list[PlError],
                 text: str, root: str,
                 dims: Mapping[str, str] | None, indent: int = 1,
                 methods: frozenset[str] | set[str] = frozenset(), lowered: str = "",
                 consts: Mapping[str, int] | None = None, helpers: InlineHelpers | None = None,
                 shows_text: bool = True) -> list[FunctionInfo]:
    """One method rewritten (its def, when it changes, in `replacements`). The functions compilation outlined from its `pl.at` scopes are regenerated with it, inside
    their `with` blocks: each gets the method's info (its moves are named in the method)."""
    outlined = {}
    for name in _outlined_from(fn, c):
        f = c.program.get(name)
        assert f is not None
        outlined[name] = (f, _moves_of(c, name))
    try:
        if len(fn.params) != len(src.params):
            # (Its statements may be the user's, but its signature is not: written in place,
            # its callers' calls would not pass what the compiled ones do.)
            raise Unsupported("compilation added parameters to it")
        if _passes_added(fn, c):
            # (Written in place, its call would not pass what the compiled one does.)
            raise Unsupported("it calls a function compilation added parameters to")
        res = rewrite_function(fd, positions, fn, src, _moves_of(c, fn.name), indent=indent, text=text,
                               root=root, dims=dims, outlined=outlined,
                               consts=consts, helpers=helpers, shows_text=shows_text,
                               methods=set(methods), regions=not lowered)
    except Unsupported as e:
        # The compiled statements, at the places of the user's statements they came from,
        # with the user's comments, docstring, decorators and signature kept.
        try:
            if lowered:
                raise Unsupported(lowered)
            if not any(holds_tiles(f.params, f.body) for f in (fn, *(g for g, _ in outlined.values()))) \
                    and not _passes_added(fn, c):
                raise Unsupported("it holds no tiles, so it has no inference to show")
            if not outlined and structural_equal(src, fn):
                # The text already is its compiled form (every tile typed with its space, every
                # move written: `--ir`'s text read back): shown as it compiles it would only be
                # renamed, so it stays as written, and nothing is hidden by that.
                return _infos(c, (fn,), lambda v: user_name(v.name))
            shown = rewrite_lowered(fd, positions, fn, _moves_of(c, fn.name), indent=indent,
                                    taken=_identifiers(fd, positions, text), root=root,
                                    dims=dims, outlined=outlined, methods=set(methods),
                                    added=len(fn.params) - len(src.params),
                                    dim_names=shape_constants(fd, consts or {}), source=src)
        except Unsupported as e2:
            notes.append(PlError(f"{c.source.name}.{fn.name} is left as written ({e}; {e2}); "
                                 "--ir shows its compiled form",
                                 Span(src.span.filename, src.span.line, src.span.col)))
            return [FunctionInfo(c.source.name, name, (), f"{e}; {e2}")
                    for name in (fn.name, *outlined)]
        notes.append(PlError(f"{c.source.name}.{fn.name} {_SHOWN_COMPILED}, below the "
                             f"level it is written at ({e}): its compiled statements stand where "
                             "the statements they come from were written",
                             Span(src.span.filename, src.span.line, src.span.col)))
        replacements[id(fd)] = shown
        return _infos(c, (fn, *(g for g, _ in outlined.values())), shown.name_of)
    for why in res.region_notes:
        notes.append(PlError(f"{c.source.name}.{fn.name}: {why}",
                             Span(src.span.filename, src.span.line, src.span.col)))
    if res.changed:  # only changed statement lists are rebuilt
        replacements[id(fd)] = res
    moved = res.move_names
    return _infos(c, (fn, *(g for g, _ in outlined.values())),
                  lambda v: moved.get(v.name) or user_name(v.name))


def _infos(c: Compiled, functions: Sequence[Function], name_of: Callable[[Var], str]
           ) -> list[FunctionInfo]:
    """Each regenerated function's info: the name its shown text gives each of its bindings."""
    return [FunctionInfo(c.source.name, f.name, shown_names(f, name_of)) for f in functions]


_SHOWN_COMPILED = "is shown as it compiles"


def _passes_added(fn: Function, c: Compiled) -> bool:
    """Whether `fn` calls a function of its program that compilation gave parameters the
    user's def has not (a returned tile's `Out` tensor): that function is shown with them, so
    `fn`, even without tiles of its own, is shown as it compiles, passing them (the tensors it
    creates for them). A call in a scope compilation outlined (a `pl.spmd` block's body, in a
    function of its own) is `fn`'s: the outlined function is shown inside `fn`."""
    for s in walk_stmts(fn.body):
        for root in stmt_exprs(s):
            for e in walk_exprs(root):
                if isinstance(e, Call) and isinstance(e.op, GlobalVar):
                    callee, written = c.program.get(e.op.name), c.source.get(e.op.name)
                    if callee is not None and written is not None \
                            and len(callee.params) > len(written.params):
                        return True
                    if callee is not None and written is None and _passes_added(callee, c):
                        return True
    return False


def _outlined_from(fn: Function, c: Compiled) -> list[str]:
    """The functions `fn` calls that compilation made (of its `pl.at` scopes' bodies,
    pl/lowering/outline.py), in call order."""
    names = (e.op.name for s in walk_stmts(fn.body) for root in stmt_exprs(s)
             for e in walk_exprs(root) if isinstance(e, Call) and isinstance(e.op, GlobalVar))
    return list(dict.fromkeys(n for n in names if c.source.get(n) is None))


def rerun(*, backend: str | None, residency: bool, program: str | None, execute: bool = False,
          shapes: Sequence[str] = (), lowered: Mapping[str, str] | None = None) -> Rerun:
    """Unverified load-compile-regenerate of a text with these options (what verification
    runs on the printed text; `lowered`: see `_regenerate`). Its third argument is the LibCST
    tree of the text when the caller holds it (the output's assembled tree, checked to render
    to the text: pl/show_inferred/verify.py), which the load then uses instead of parsing the
    text with LibCST; None: the text is parsed. The result keeps no tree."""
    def run(text: str, filename: str, tree: cst.Module | None = None) -> Regenerated:
        r = _run(text, filename,
                 kernel_options(filename, backend, residency, program, execute, shapes),
                 None, {}, lowered, tree)
        return dataclasses.replace(r, tree=None)
    return run


def run_file(text: str, filename: str, options: dict[str, Any], dump_passes: Path | None,
             reads: Reads, *, verify: bool = True) -> Regenerated:
    """Load, compile and regenerate one file's text with `options`
    (`pl.show_inferred.result.kernel_options`), and verify the result (raises `InternalError` when
    it fails pl/show_inferred/verify.py's checks); the files the load read besides `text` are
    recorded in `reads`. What `pl.show_inferred.run.run_text` does on a cache miss.

    `verify=False` neither makes the regenerated text nor checks it (`output` is the input
    text): for a caller that neither prints nor writes it (the command's --json, --explain and
    --ir, which report on the compiled programs, the move names and the notes)."""
    view = python_view(text)
    if view != text:  # compile what Python reads (lowering/source/python.py); keep the user's lines
        try:
            r = run_file(view, filename, options, dump_passes, reads, verify=verify)
        except PlError as e:  # located in the view: point into the user's text instead
            if e.span is not None and e.span.filename == filename:
                e.span, e.source = UserLines(text, view).span(e.span), text
            raise
        return _restored(r, text, view)
    r = _run(text, filename, options, dump_passes, reads, shows_text=verify)
    if not verify:
        return r
    again = {"backend": options["backend"], "residency": options["residency"],
             "program": options["program"], "execute": options["execute"],
             "shapes": options.get("shapes", ())}
    try:
        verify_output(r, rerun(**again))
    except InternalError as e:
        if not any(_SHOWN_COMPILED in n.message for n in r.notes):
            raise
        # A function shown as it compiles that does not read back as the same program is left
        # as written, with a note saying so (a bug of pl, reported, not an exit 123): those of
        # the program the check names, else of every program, one program more each time.
        everything = {c.source.name for c in r.compiled}
        lowered: dict[str, str] = {}
        while True:
            why = "its compiled form, written out, does not verify: " + str(e).split(": ", 1)[-1]
            failed = e.program if isinstance(e, ProgramNotVerified) else None
            if failed is not None and failed not in lowered:
                lowered[failed] = why
            elif lowered.keys() >= everything:
                raise e
            else:
                lowered.update({name: why for name in everything - lowered.keys()})
            r = _run(text, filename, options, None, {}, lowered)
            try:
                verify_output(r, rerun(**again, lowered=lowered))
                break
            except InternalError as again_failed:
                e = again_failed
    # Verified: the result keeps no tree (the input's parse is freed with it).
    return dataclasses.replace(r, tree=None)


def _run(text: str, filename: str, options: dict[str, Any], dump_passes: Path | None,
         reads: Reads, lowered: Mapping[str, str] | None = None, tree: cst.Module | None = None, *,
         shows_text: bool = True) -> Regenerated:
    try:
        return _compile_text(text, filename, options, dump_passes, reads, lowered, tree,
                             shows_text)
    except PlError as e:  # a compile error shows the lines of the text it points into
        raise e.in_text(filename, text) from None


def _compile_text(text: str, filename: str, options: dict[str, Any], dump_passes: Path | None,
                  reads: Reads, lowered: Mapping[str, str] | None, tree: cst.Module | None,
                  shows_text: bool) -> Regenerated:
    program, backend = options["program"], options["backend"]
    src, code = read_kernel(filename, text, tree)
    programs, dims, callees, load_notes = _load(src, code, options["execute"], reads,
                                                options.get("shapes", ()))
    if program is not None:
        programs = [p for p in programs if p.name == program]
    if not programs and (callees or load_notes) and program is None:
        # Functions only an entry of another file specialises: nothing to compile on their own.
        note = PlError(f"{', '.join(callees)}: @pl.jit function(s) with no entry in this file, "
                       "specialised and shown where a @pl.jit entry calling them is",
                       Span(filename, 1, 1))
        return Regenerated(filename, text, text, (), (), tuple(load_notes) or (note,))
    if not programs:
        what = f"no @pl.program named {program!r}" if program else "no @pl.program"
        raise PlError(f"{what} found in {filename}", Span(filename, 1, 1))
    compiled = []
    for p in programs:
        dump = None
        if dump_passes is not None:
            dump = dump_passes if len(programs) == 1 else dump_passes / p.name
        compiled.append(compile_program(p, backend, residency=options["residency"],
                                        dump_passes=dump))
    r = _regenerate(src, compiled, dims=dims, lowered=lowered, shows_text=shows_text)
    return dataclasses.replace(r, notes=(*load_notes, *r.notes)) if load_notes else r
