"""The last step of show_inferred: every text it prints or writes is checked before it leaves.

Guarantees: `verify_output(r, rerun)` returns only when the regenerated file `r.output`, which
is its assembled tree `r.tree` rendered by LibCST (pl/show_inferred/annotate.py makes the text
from the tree, never beside it), so that tree is the one `libcst.parse_module` would make of the
output (LibCST renders a tree to exactly the text it parsed it from; the tests check that they
are deep-equal) and the read-back loads it instead of parsing the output again,
(1) reads back: it loads and its programs are found again, one per compiled program, by name,
(2) compiles, program by program, to a program structurally equal (pl/structural.py: up to names
and spans) to the input's compiled program, and
(3) is a fixed point: regenerating it gives it back byte for byte (so `--check` on it exits 0).
`verify_ir(r, rerun)` checks (1) to (3) of the canonical IR text `--ir` prints for each program
(parsed, its long function bodies a piece at a time: pl/lowering/source/pieces.py), and that it
loads back as that very compiled program.
`rerun(text, filename, tree)` is the unverified load-compile-regenerate of
pl/show_inferred/annotate.py with the options of the first run (`tree`: the text's LibCST tree,
or None to parse it).

Anything else is a bug in `pl`, never the kernel author's mistake: an `InternalError` saying which
check failed and where, so that the command writes nothing and exits 123.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from pl.compiler import Compiled
from pl.errors import InternalError, PlError, source_lines
from pl.ir.expr import Call, Expr, GlobalVar
from pl.ir.function import Function, Program
from pl.ir.stmt import Stmt
from pl.ir.traverse import map_expr, map_stmt, stmt_defs, stmt_exprs, walk_exprs, walk_stmts
from pl.lowering.source.python import python_view
from pl.printer.program import print_node
from pl.structural import assert_structural_equal

if TYPE_CHECKING:
    import libcst as cst

    from pl.show_inferred.result import Regenerated


class ProgramNotVerified(InternalError):
    """A check that failed on the functions of one program (`program`, its name): the caller
    may show that program's functions otherwise and check again (pl/show_inferred/annotate.py
    `run_file`)."""

    def __init__(self, message: str, program: str) -> None:
        super().__init__(message)
        self.program = program


class Rerun(Protocol):
    """pl/show_inferred/annotate.py's `rerun`: the unverified load-compile-regenerate of `text`
    under `filename`, loading `tree` (the text's LibCST tree) instead of parsing the text
    with LibCST when it is given."""

    def __call__(self, text: str, filename: str, tree: cst.Module | None = None) -> Regenerated:
        ...

__all__ = ["ProgramNotVerified", "Rerun", "ir_text", "verify_ir", "verify_output"]


_SHADOW = " (inferred)"


def _shadow(filename: str) -> str:
    """The name the checked text is loaded under, so it never stands in for the user's file in
    the line cache or the frontend's parse of it."""
    return filename + _SHADOW


def shadowed(filename: str) -> str:
    """The user's file a name `_shadow` made stands for (any other name: itself)."""
    return filename.removesuffix(_SHADOW)


def _first_difference(a: str, b: str) -> tuple[int, str]:
    """The first line where `a` and `b` differ (0: only in length), and what changed there."""
    for n, (x, y) in enumerate(zip(source_lines(a), source_lines(b), strict=False), 1):
        if x != y:
            return n, f"line {n}: {x.strip()!r} became {y.strip()!r}"
    return 0, "they differ in length"


def _reread(text: str, tree: cst.Module | None, filename: str, what: str,
            rerun: Rerun) -> Regenerated:
    try:
        return rerun(text, _shadow(filename), tree)
    except PlError as e:
        lines = source_lines(text)
        line = lines[e.span.line - 1].strip() \
            if e.span is not None and 0 < e.span.line <= len(lines) else ""
        where = f" at line {e.span.line} ({line!r})" if e.span is not None and e.span.line > 0 else ""
        raise InternalError(f"{filename}: {what} does not read back{where}: {e.message}") from None


def _same_programs(first: Sequence[Compiled], again: Sequence[Compiled], filename: str,
                   what: str) -> None:
    names, names_again = [c.source.name for c in first], [c.source.name for c in again]
    if names != names_again:
        raise InternalError(f"{filename}: {what} holds the programs {names_again}, "
                            f"not {names}")
    for a, b in zip(first, again, strict=True):
        made = frozenset(f.name for f in a.program.functions) - \
            frozenset(f.name for f in a.source.functions)
        try:
            assert_structural_equal(_tasks_in_caller_order(a.program, made),
                                    _tasks_in_caller_order(b.program, made))
        except AssertionError as e:
            raise ProgramNotVerified(f"{filename}: {what} compiles to another program than "
                                     f"the input ({a.source.name}): {e}",
                                     a.source.name) from None


def _tasks_in_caller_order(program: Program, made: frozenset[str]) -> Program:
    """`program` with the parameters of each function compilation made (`made`: an outlined
    scope's task) that one call gives every argument, in the order its caller defines those
    arguments (the caller's parameters, then its statements' definitions), and that call's
    arguments alike. Outlining orders them by first use in the scope, which the shown compiled
    form may change (a load hoisted before a loop is written there, before the loop that read
    another value first): the same task, called with the same values, either way."""
    sites: dict[str, list[tuple[Function, Call]]] = {}
    for f in program.functions:
        for s in walk_stmts(f.body):
            for root in stmt_exprs(s):
                for e in walk_exprs(root):
                    if isinstance(e, Call) and isinstance(e.op, GlobalVar):
                        sites.setdefault(e.op.name, []).append((f, e))
    functions = list(program.functions)
    for k, f in enumerate(functions):
        found = sites.get(f.name, [])
        if f.name not in made or len(found) != 1 or len(found[0][1].args) != len(f.params):
            continue
        caller, call = found[0]
        defined = (*caller.params, *(v for s in walk_stmts(caller.body) for v in stmt_defs(s)))
        rank = {id(v): i for i, v in reversed(list(enumerate(defined)))}
        order = sorted(range(len(f.params)),
                       key=lambda i: (rank.get(id(call.args[i]), len(rank)), i))
        if order == sorted(order):
            continue
        directions = tuple(f.directions[i] for i in order) \
            if len(f.directions) == len(f.params) else f.directions
        functions[k] = dataclasses.replace(f, params=tuple(f.params[i] for i in order),
                                           directions=directions)
        reordered = dataclasses.replace(call, args=tuple(call.args[i] for i in order))

        def expr(e: Expr, site: Call = call, new: Call = reordered) -> Expr:
            return new if e is site else map_expr(e, expr)

        def body(s: Stmt) -> Stmt:
            return map_stmt(s, body, expr)

        at = next(i for i, g in enumerate(functions) if g.name == caller.name)
        functions[at] = dataclasses.replace(functions[at], body=body(functions[at].body))
    return dataclasses.replace(program, functions=tuple(functions))


def _check(text: str, tree: cst.Module | None, expected: Sequence[Compiled], filename: str,
           what: str, rerun: Rerun) -> Regenerated:
    again = _reread(text, tree, filename, what, rerun)
    _same_programs(expected, again.compiled, filename, what)
    if again.output != text:
        line, change = _first_difference(text, again.output)
        message = f"{filename}: {what} is not a fixed point (regenerating it changes {change})"
        # The program whose function holds that line of the text read back.
        owner = next((c.source.name for c in again.compiled for f in c.source.functions
                      if f.span.line <= line <= max(f.span.line, f.span.end_line)), None)
        if owner is not None:
            raise ProgramNotVerified(message, owner)
        raise InternalError(message)
    return again


def verify_output(r: Regenerated, rerun: Rerun) -> None:
    """Checks the regenerated file (see the module doc); raises `InternalError`."""
    if r.output == r.text:
        return  # the input itself: it loaded, compiled to these programs and regenerated to itself
    what = "the regenerated file"
    if r.tree is None:
        raise InternalError(f"{r.filename}: {what} has no tree to read back")
    _check(r.output, r.tree, r.compiled, r.filename, what, rerun)


def ir_text(c: Compiled) -> str:
    """The canonical IR text `--ir` prints for one compiled program."""
    return print_node(c.program)


def verify_ir(r: Regenerated, rerun: Rerun) -> None:
    """Checks the canonical IR text of every compiled program (see the module doc)."""
    import libcst as cst

    from pl.lowering.source.pieces import parse_in_pieces

    for c in r.compiled:
        text, what = ir_text(c), f"the IR of {c.source.name}"
        # Parsed in pieces (LibCST's parser would hold five times the input's bytes at once),
        # and checked to render to exactly the text, as the regenerated file's assembled tree.
        try:
            view = python_view(text)
            tree = parse_in_pieces(view)
        except (SyntaxError, cst.ParserSyntaxError) as e:
            raise InternalError(f"{r.filename}: {what} does not parse: {e}") from None
        if tree.code != view:
            raise InternalError(f"{r.filename}: {what} is not what its tree parsed in pieces "
                                f"renders to ({_first_difference(view, tree.code)})")
        again = _check(text, tree, [c], r.filename, what, rerun)
        # The program the IR text loads as, before compiling it again (the read-back above
        # loaded it: no second parse of the text).
        try:
            assert_structural_equal(again.compiled[0].source, c.program)
        except AssertionError as e:
            raise InternalError(f"{r.filename}: {what} reads back to another program: {e}") \
                from None
