"""Map one compiled function back onto the user's `def` and rewrite only what compilation changed.

Guarantees: `rewrite_function` returns the user's FunctionDef with (a) each tile assignment /
yield annotated with its inferred memory space, (b) each inserted `tile.move` written as
`name: pl.Tile[...] = pl.move(src, ...)` right before its consumer, whose argument is renamed
(a consumer after a `;` splits its line there: the statements before it stay on the user's line,
the moves and the rest of the line follow),
(c) statements the compiler moved out of a loop moved before it, (d) changed `target_memory`
kwargs rewritten or appended. Nothing else changes, byte for byte. Statements are matched by the
`(line, column)` of the span every IR statement carries. A `pl.unroll` loop's copies that all
compile alike are planned once, against the loop's body; the statements an `@pl.inline` helper
of the file wrote at a call are planned against the helper's own body (`InlineHelpers`: the
helper is rewritten when all its calls plan alike). When the compiled body holds a statement
the user did not write (tensor-level code lowered to tile ops), copies or calls that differ, or
an edit that cannot be placed, it raises `Unsupported` and the caller shows the function as it
compiles instead (pl/show_inferred/lowered.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

import libcst as cst
from libcst.metadata import CodeRange
from typing_extensions import assert_never

from pl.errors import PlError, source_lines
from pl.infer.common import top_level_call
from pl.ir.enums import ForKind
from pl.ir.expr import Call, ConstInt, Expr, GlobalVar, Op, Var
from pl.ir.function import Function
from pl.ir.names import user_name
from pl.ir.stmt import (
    AssignStmt,
    BreakStmt,
    ContinueStmt,
    EvalStmt,
    ForStmt,
    IfStmt,
    ReturnStmt,
    ScopeStmt,
    SeqStmts,
    Stmt,
    WhileStmt,
    YieldStmt,
    flatten_body,
    stmt_kind,
)
from pl.ir.traverse import stmt_defs, stmt_exprs, walk_exprs, walk_stmts
from pl.ir.types import TileType, Type, effective_tile_view
from pl.lowering.flatten_call import statement_temps
from pl.lowering.frontend.blocks import declaration_line
from pl.lowering.frontend.positions import compound_kind
from pl.lowering.frontend.source import MAX_LINE_OPERATORS, check_expression_size
from pl.lowering.frontend.stmts import rebinds_as_same
from pl.lowering.outline import is_dispatch, outlined_region
from pl.printer.doc import INDENT, WIDTH, group_lines
from pl.show_inferred.edit import (
    BoundNames,
    Spelling,
    Unsupported,
    annotate_small,
    fresh_name,
    names_in,
    rename_arg,
    set_target_memory,
    value_call,
    with_value_call,
)
from pl.show_inferred.lowered import compiler_made, readable_base, rewrite_region

Key = tuple[int, int]
Block = cst.IndentedBlock


@dataclass
class _Entry:
    stmt: cst.BaseStatement          # the line (or compound statement) inside `block`
    small: cst.BaseSmallStatement | None
    block: cst.BaseSuite


def _yielded_result(small: cst.BaseSmallStatement | None, ret_vars: tuple[Var, ...]) -> Var | None:
    """The result the user's one-name yield (`p = pl.yield_(u)`) binds, among the compiled
    results: SSA may have added others (a value the branches rebind), which the user's line
    does not show."""
    target = small.target if isinstance(small, cst.AnnAssign) else \
        small.targets[0].target if isinstance(small, cst.Assign) and len(small.targets) == 1 \
        else None
    if not isinstance(target, cst.Name):
        return None
    named = [v for v in ret_vars if user_name(v.name) == target.value]
    return named[0] if len(named) == 1 else None


@dataclass
class _Edit:
    annotate: Any = None              # the compiled Type to show in the annotation
    target_memory: Any = None         # a MemorySpace to write into target_memory=
    renames: list[tuple[int, str, str]] = field(default_factory=list)
    column: int = 0                   # where the statement starts on its line (0-based)
    line: int = 0                     # the statement's line
    # The calls nested in the statement that change, by id of the user's node: a name that
    # replaces the call (it was taken out to a statement of its own), or the edit of its call.
    nested: dict[int, Any] = field(default_factory=dict)


@dataclass
class _Insert:
    """A line that goes before a statement: an inserted move (`move`, spelled by `spell` at
    `indent`), a line made with its node (`line` at `indent`, whose statement is `parsed`: a
    call taken out of a nested expression), or a line of the user's hoisted out of a loop
    (`hoisted`)."""

    move: AssignStmt | None = None
    indent: str = ""
    spell: Spelling | None = None
    hoisted: cst.BaseStatement | None = None
    line: str | None = None
    parsed: cst.BaseStatement | None = None

    @cached_property
    def new(self) -> str:
        """The inserted line's text at `indent` (a move's is made only when the text or the
        tree of the output is: a run that shows no text needs only the move's name)."""
        if self.line is not None:
            return self.line
        assert self.move is not None and self.spell is not None
        return self.spell.statement(self.move, self.indent)

    def node(self) -> cst.BaseStatement:
        """The inserted line as the LibCST statement its text parses to (for the output's
        tree), indented by the block it goes into."""
        if self.parsed is not None:
            return self.parsed
        assert self.move is not None and self.spell is not None
        return self.spell.statement_node(self.move, self.new)


class FunctionResult:
    """The rewritten def and the names the output gives to the compiler's inserted moves."""

    def __init__(self, planner: _Planner) -> None:
        self._planner = planner
        self.move_names = {**planner.move_names, **planner.temp_names}
        self.move_lines = planner.move_lines
        # Why each statement shown as it compiles in the function is (`_Planner._region`).
        self.region_notes = list(planner.region_notes)
        # The def is built now where the output is shown (its tree is rendered), so that a
        # change it cannot make raises `Unsupported` here, where the caller shows the function
        # as it compiles instead; where no text is shown (--explain, --json), nothing is built:
        # whether it changes is read from the plan.
        self.changed = self.node is not planner.fd if planner.shows_text else \
            bool(planner.edits or planner.inserts or planner.appends or planner.removed
                 or planner.regions)

    @cached_property
    def node(self) -> cst.FunctionDef:
        return self._planner.apply()


def _already_shown(small: cst.BaseSmallStatement | None, shown: Any, spell: Spelling) -> bool:
    """Whether `small` is `name: T = v` whose annotation already says what annotating it would
    (`annotate_small` leaves it as it is): then the line needs no edit (an inferred file read
    back, as verification does, would otherwise re-render every line to its own text)."""
    return isinstance(small, cst.AnnAssign) and annotate_small(small, shown, spell) is small


def _annotatable(small: cst.BaseSmallStatement | None) -> bool:
    """Whether `small` binds one name, which an annotation can type (not a tuple target, nor
    the `return` of an inline helper, whose value the caller's line types)."""
    return isinstance(small, cst.AnnAssign) or isinstance(small, cst.Assign) and \
        len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name)


def _key(line: int, col: int) -> Key:
    return (line, col)


def _call_op(e: Expr) -> str | None:
    return e.op.name if isinstance(e, Call) else None


def _source_index(f: Function) -> dict[Key, list[Stmt]]:
    """The source's statements by position: several at one position where the frontend wrote
    one user statement as several (`a, b = f(x)`: the tuple, then each name)."""
    out: dict[Key, list[Stmt]] = {}
    for x in walk_stmts(f.body):
        if not isinstance(x, SeqStmts):
            out.setdefault(_key(x.span.line, x.span.col), []).append(x)
    return out


class _Planner:
    def __init__(self, fd: cst.FunctionDef, positions: Any, compiled: Function, source: Function,
                 moves: set[str], indent: int, text: str | None = None, root: str = "pl",
                 dims: Mapping[str, str] | None = None,
                 outlined: Mapping[str, tuple[Function, set[str]]] | None = None,
                 consts: Mapping[str, int] | None = None,
                 helpers: InlineHelpers | None = None, methods: set[str] | None = None,
                 regions: bool = False) -> None:
        self.fd = fd
        self.methods = methods or set()
        # Whether a statement that cannot be annotated in place may be shown as it compiles at
        # its place (`_region`), and those so shown: the user's statement -> its compiled
        # statements, the positions of the user's statements they replace, and why.
        self.regions_allowed = regions
        self.regions: dict[int, list[cst.BaseStatement]] = {}
        self.replaced: set[Key] = set()
        self.region_notes: list[str] = []
        self.foreign_names: set[str] = set()  # names of an inline helper's values (`_region_names`)
        self.outlined = outlined or {}
        self.root = root
        self.text = text
        self.dims = dims
        self.consts = consts
        self.helpers = helpers
        self.spell = Spelling(root, dims, shape_constants(fd, consts or {}))
        self.positions = positions
        self.compiled = compiled
        self.source_fn = source
        self.sources = _source_index(source)
        # Position -> how many statements the source has there (for a call site of an inline
        # helper: how many its call compiled there, `_walk_site`; the source has every call's).
        self.written: dict[Key, int] = {k: len(v) for k, v in self.sources.items()}
        # Position -> how many compiled statements there were planned so far (see `_src`).
        self.count: dict[Key, int] = {}
        # A call site of an inline helper (pl/lowering/frontend/inline.py): the helper's name
        # for each value of the caller it reads, by compiled name (`t` for `a_tile`).
        self.spelled: dict[str, str] = {}
        # The call sites of inline helpers planned in this function: (the helper's def, the
        # planner of the site), committed to `helpers` once the whole function is planned.
        self.sites: list[tuple[cst.FunctionDef, _Planner]] = []
        self.shows_text = True  # False: the output is not shown, only the plan is used
        self.result: FunctionResult | None = None  # a site's rewrite of its helper
        self.moves = moves
        self.indent = indent
        self.index: dict[Key, _Entry] = {}
        # id of an `if` -> the lines of bare annotations right before it (its results' types).
        self.declarations: dict[int, list[cst.SimpleStatementLine]] = {}
        # id of a block -> the position of the compound statement it is the body of; and the
        # blocks statements were moved out of (checked once the walk is done).
        self.owners: dict[int, Key] = {}
        self.moved_from: list[tuple[cst.BaseSuite, Key]] = []
        self.edits: dict[int, _Edit] = {}
        self.inserts: dict[int, list[_Insert]] = {}
        self.appends: dict[int, list[_Insert]] = {}
        self.removed: set[int] = set()
        self.seen: set[Key] = set()
        self.taken = _identifiers(fd, positions, text)
        self.move_names: dict[str, str] = {}
        self.move_lines: dict[str, int] = {}
        self.producers: dict[str, str] = {}
        # The calls the user nested, which flatten_call_expr gave statements of their own: the
        # source's temporaries of each statement and how many of them were met; the user's
        # nodes of those calls; the name of each one taken out (compiled name -> shown name) and
        # its statement and node; the nested edits of each statement (see `_Edit.nested`).
        self.temps: dict[Key, tuple[list[AssignStmt], int]] = {}
        self.temp_nodes: dict[Key, list[cst.Call] | None] = {}
        self.temp_names: dict[str, str] = {}
        self.taken_out: dict[str, tuple[Key, cst.Call]] = {}
        self.nested: dict[Key, dict[int, Any]] = {}
        # Compiled var name -> the type the file shows for it (see `_shown`).
        self.user_types: dict[str, Type] = {
            p.name: sp.type for p, sp in zip(compiled.params, source.params, strict=False)}
        self.unroll_loops = _unroll_loops(source)
        self._index_suite(fd.body, 1)

    def _src(self, k: Key) -> Stmt | None:
        """The source statement the compiled statement being planned at `k` comes from: the
        n-th written there for the n-th compiled there."""
        found = self.sources.get(k, ())
        n = max(self.count.get(k, 1), 1)
        return found[n - 1] if n <= len(found) else None

    def _spelling(self, name: str) -> str:
        """How the function's text names the compiled value `name`."""
        return self.spelled.get(name) or user_name(name)

    # -- the user's statements, by position ------------------------------------------------------
    def _pos(self, node: cst.CSTNode) -> Key | None:
        rng: CodeRange | None = self.positions.get(node)
        return None if rng is None else _key(rng.start.line, rng.start.column + 1)

    def _index_suite(self, suite: cst.BaseSuite, depth: int) -> None:
        body = suite.body
        if isinstance(suite, cst.SimpleStatementSuite):
            for small in suite.body:
                k = self._pos(small)
                if k is not None:
                    self.index[k] = _Entry(suite, small, suite)  # type: ignore[arg-type]
            return
        declared: list[cst.SimpleStatementLine] = []  # the declaration lines just passed
        for stmt in body:
            assert isinstance(stmt, cst.BaseStatement)
            if isinstance(stmt, cst.If) and declared:
                self.declarations[id(stmt)] = declared
            declared = [*declared, stmt] if declaration_line(stmt) else []
            if isinstance(stmt, cst.SimpleStatementLine):
                for small in stmt.body:
                    k = self._pos(small)
                    if k is not None:
                        self.index[k] = _Entry(stmt, small, suite)
                continue
            k = self._pos(stmt)
            if k is not None:
                self.index[k] = _Entry(stmt, None, suite)
            for sub in _sub_suites(stmt):
                if k is not None:
                    self.owners[id(sub)] = k
                self._index_suite(sub, depth + 1)

    # -- walking the compiled body ---------------------------------------------------------------
    def plan(self) -> None:
        self._walk(flatten_body(self.compiled.body), self.fd.body, (), 1)
        self._check_moved()

    def _check_moved(self) -> None:
        for block, k in self.moved_from:
            owner = self.owners.get(id(block))
            if owner is not None and owner not in self.seen:
                # Its loop is gone (a `pl.unroll(1)` unrolled): the statement did not move out
                # of a loop, the loop was removed around it.
                raise Unsupported(f"lowering removed the loop around the statement at line {k[0]}")

    def _shown(self, var: Var, source_type: Type | None) -> Type:
        """The type an annotation of `var` shows: the compiled one, but with the user's shape
        where lowering flattened an N-D tile to 2-D (`flatten_tile_nd_to_2d`): the file keeps
        the shape its own statements produce, so it reads back to the same program."""
        t = var.type
        if isinstance(t, TileType) and isinstance(source_type, TileType) \
                and len(source_type.shape) != len(t.shape):
            # The user's shape and valid shape; the space and layout inference chose.
            placed = effective_tile_view(t)
            view = replace(effective_tile_view(source_type), blayout=placed.blayout,
                           slayout=placed.slayout, fractal=placed.fractal)
            t = TileType(source_type.shape, source_type.dtype, t.memory_space, view)
        self.user_types[var.name] = t
        return t

    def _walk(self, stmts: Sequence[Stmt], block: cst.BaseSuite, ret_vars: tuple[Var, ...],
              depth: int) -> None:
        pending: list[_Insert] = []
        moved = {s.value.args[0].name for s in stmts if isinstance(s, AssignStmt)
                 and s.var.name in self.moves and isinstance(s.value, Call) and s.value.args
                 and isinstance(s.value.args[0], Var)}
        # A call the user nested that flatten_call_expr took out before a move inference then
        # put before the statement (`t = pl.add(mm_Vec, pl.load(b, ...))`: the load, then the
        # move of mm): kept nested, the read-back computes it after that move. It is taken out
        # too, before the move, in the compiled order.
        for j, x in enumerate(stmts):
            if isinstance(x, AssignStmt) and x.var.name in self.moves:
                for y in reversed(stmts[:j]):
                    if not isinstance(y, AssignStmt) or y.span != x.span:
                        break
                    if y.var.name not in self.moves:
                        moved.add(y.var.name)
        segments = self._segments(stmts, block)
        i = 0
        while i < len(segments):
            s = segments[i]
            i += 1
            if isinstance(s, _Unrolled):
                self._walk_unrolled(s, block, pending, depth)
                pending = []
                continue
            if isinstance(s, _Site):
                try:
                    self._walk_site(s)
                except Unsupported as e:
                    if not self.regions_allowed:
                        raise
                    i = self._site_region(segments, i - 1, block, pending, depth, e)
                    pending = []
                continue
            if isinstance(s, AssignStmt) and s.var.name in self.moves:
                pending.append(self._move(s, depth))
                continue
            k = _key(s.span.line, s.span.col)
            if k in self.replaced:
                raise Unsupported(f"a statement compiled from line {k[0]} stands apart from "
                                  "the others compiled from it")
            entry = self.index.get(k)
            if entry is not None and s.span.filename != self.compiled.span.filename:
                entry = None  # a statement an inline function of another file wrote
            if entry is None:
                if isinstance(s, YieldStmt):
                    continue  # a carry SSA conversion adds; re-derived on every compile
                raise Unsupported(f"the compiled body has a statement the source does not "
                                  f"(line {s.span.line})")
            if isinstance(s, AssignStmt) and entry.small is not None and k not in self.seen \
                    and self._temp(s, k, entry, depth, pending, moved):
                continue
            if isinstance(s, YieldStmt) and entry.small is None:
                # The carry SSA conversion adds to a loop or an if, located at its header: the
                # file has no line for it, so one yielding an inserted move cannot be shown.
                if self._renames(s.values):
                    raise Unsupported(f"a move feeds the value the statement at line {k[0]} "
                                      "carries")
                continue
            # Several statements at one position: the frontend wrote a tuple assignment (`a, b =
            # f(x)`: the tuple, then each name) as several, which are shown by its line as it
            # is, unedited. Any other (a nested call taken out before its statement) is split.
            n = self.count[k] = self.count.get(k, 0) + 1
            several = self.written.get(k, 0) > 1
            if n > self.written.get(k, 0) or several and (
                    _annotatable(entry.small) or pending or entry.block is not block):
                raise Unsupported(f"lowering split the statement at line {k[0]}")
            self.seen.add(k)
            if entry.small is None and isinstance(s, AssignStmt | EvalStmt):
                raise Unsupported(f"lowering computes a call of the header at line {k[0]} "
                                  "before it")
            self._check_same_kind(s, k)
            self._check_moves_renamed(s, k)
            if entry.block is block:
                if pending:
                    # In a one-line suite, and after a `;` (`x = ..; z = pl.matmul(x, y)`), the
                    # moves go right before their own statement; else before its line.
                    at = entry.small if isinstance(entry.stmt, cst.SimpleStatementSuite) or (
                        isinstance(entry.stmt, cst.SimpleStatementLine)
                        and entry.small is not entry.stmt.body[0]) else entry.stmt
                    self.inserts.setdefault(id(at), []).extend(pending)
                    pending = []
            else:
                if not isinstance(entry.stmt, cst.SimpleStatementLine) or len(entry.stmt.body) != 1:
                    raise Unsupported(f"the statement at line {k[0]} moved and cannot follow")
                pending.append(_Insert(hoisted=entry.stmt))
                self.removed.add(id(entry.stmt))
                self.moved_from.append((entry.block, k))
            self._plan_stmt(s, entry, ret_vars, depth)
            if several and entry.small is not None and id(entry.small) in self.edits:
                raise Unsupported(f"lowering split the statement at line {k[0]}")
        if pending:
            if not isinstance(block, cst.IndentedBlock):
                raise Unsupported("a move must go into a one-line block")
            self.appends.setdefault(id(block), []).extend(pending)

    # -- pl.unroll loops: their copies, shown as the loop once they agree -----------------------
    def _is_move(self, s: object) -> bool:
        return isinstance(s, AssignStmt) and s.var.name in self.moves

    def _unrolled_loop(self, s: Stmt, block: cst.BaseSuite) -> _UnrollLoop | None:
        """The user's `pl.unroll` loop, written directly in `block` and not planned yet, whose
        body `s` (a statement of one of its copies, written inside the loop: not one an inline
        helper the copy calls wrote) comes from."""
        if s.span.filename != self.compiled.span.filename:
            return None
        k = _key(s.span.line, s.span.col)
        for loop in self.unroll_loops:
            entry = self.index.get(loop.key)
            if k in loop.keys and loop.lines[0] <= k[0] <= loop.lines[1] \
                    and loop.key not in self.seen and entry is not None and entry.block is block:
                return loop
        return None

    def _segments(self, stmts: Sequence[Stmt], block: cst.BaseSuite
                  ) -> list[Stmt | _Unrolled | _Site]:
        """`stmts`, with each run of the copies of a `pl.unroll` loop written in `block` (and the
        moves before them) gathered into one `_Unrolled`, and each run of statements an inline
        helper of the file wrote split into its call sites (`_Site`)."""
        out: list[Stmt | _Unrolled | _Site] = []
        i = 0
        while i < len(stmts):
            j = i
            while j < len(stmts) and self._is_move(stmts[j]):
                j += 1
            loop = self._unrolled_loop(stmts[j], block) if j < len(stmts) else None
            helper = self._helper_of(stmts[j]) if j < len(stmts) and loop is None else None
            if helper is not None:
                end = j
                for n in range(j + 1, len(stmts)):
                    if self._is_move(stmts[n]):
                        continue
                    if self._helper_of(stmts[n]) is None:
                        break
                    end = n
                out.extend(self._sites(stmts[i:end + 1]))
                i = end + 1
                continue
            if loop is None:
                out.extend(stmts[i:j + 1])
                i = j + 1
                continue
            # The run ends with the last statement written in the loop: the statements of an
            # inline helper the loop calls are in it when one of the loop's follows them.
            end = j
            for n in range(j + 1, len(stmts)):
                k = _key(stmts[n].span.line, stmts[n].span.col)
                if self._is_move(stmts[n]):
                    continue
                if k not in loop.keys:
                    break
                if loop.lines[0] <= k[0] <= loop.lines[1]:
                    end = n
            out.append(_Unrolled(loop, stmts[i:end + 1]))
            i = end + 1
        return out

    def _copies(self, u: _Unrolled) -> list[list[Stmt]]:
        """The run split into the loop's copies, each with the moves before its statements;
        raises `Unsupported` where they do not compile alike (other types, spaces or moves)."""
        line = u.loop.key[0]
        differ = Unsupported(f"the copies of the pl.unroll loop at line {line} compile "
                             "differently (other types, spaces or moves)")
        own = [n for n, s in enumerate(u.stmts) if not self._is_move(s)]
        if u.loop.count == 0 or len(own) % u.loop.count:
            raise differ
        size = len(own) // u.loop.count
        starts = [own[c * size] for c in range(u.loop.count)]
        # The moves right before a copy's first statement are that copy's.
        for c in range(1, len(starts)):
            while starts[c] > 0 and self._is_move(u.stmts[starts[c] - 1]):
                starts[c] -= 1
        starts[0] = 0
        copies = [list(u.stmts[a:b]) for a, b in zip(starts, [*starts[1:], len(u.stmts)],
                                                      strict=True)]
        first = self._signature(copies[0])
        if any(self._signature(c) != first for c in copies[1:]):
            raise differ
        return copies

    def _signature(self, copy: Sequence[Stmt]) -> list[tuple[Any, ...]]:
        """What annotating a copy shows: per statement (nested ones included), where it was
        written, what it binds and in which types, its target_memory, and which of its
        arguments are moves; per move, its type and arguments."""
        out: list[tuple[Any, ...]] = []
        for top in copy:
            for s in walk_stmts(top):
                if isinstance(s, SeqStmts):
                    continue
                if isinstance(s, AssignStmt) and s.var.name in self.moves:
                    value = s.value
                    out.append(("move", s.var.type,
                                value.kwargs if isinstance(value, Call) else None))
                    continue
                call = top_level_call(s)
                out.append((_key(s.span.line, s.span.col), type(s).__name__,
                             tuple(v.type for v in stmt_defs(s)),
                             None if call is None else dict(call.kwargs).get("target_memory"),
                             () if call is None else tuple(
                                 i for i, a in enumerate(call.args)
                                 if isinstance(a, Var) and a.name in self.moves)))
        return out

    def _walk_unrolled(self, u: _Unrolled, block: cst.BaseSuite, pending: list[_Insert],
                       depth: int) -> None:
        """A `pl.unroll` loop whose copies compile alike is planned as the loop: its first copy
        against the loop's body (each later copy's moves get the first copy's names)."""
        entry = self.index[u.loop.key]
        try:
            copies = self._copies(u)
        except Unsupported as e:
            if not self.regions_allowed:
                raise
            self._region(entry, u.stmts, depth, pending, {u.loop.key, *u.loop.keys},
                         f"the pl.unroll loop at line {u.loop.key[0]}", e, first_claims=False)
            return
        if pending:
            self.inserts.setdefault(id(entry.stmt), []).extend(pending)
        self.seen.add(u.loop.key)
        self._walk(copies[0], _suite(entry.stmt, 0), (), depth + 1)
        first = [s.var.name for top in copies[0] for s in walk_stmts(top)
                 if isinstance(s, AssignStmt) and s.var.name in self.move_names]
        for copy in copies[1:]:
            later = [s.var.name for top in copy for s in walk_stmts(top)
                     if isinstance(s, AssignStmt) and s.var.name in self.moves]
            for a, b in zip(first, later, strict=False):
                self.move_names[b] = self.move_names[a]
                self.move_lines[b] = self.move_lines[a]

    # -- @pl.inline helpers: each call site planned against the helper's own body ---------------
    def _helper_of(self, s: Stmt) -> cst.FunctionDef | None:
        """The inline helper of this file whose body the compiled statement `s` comes from,
        where `s` is not a statement of this function's own."""
        if self.helpers is None or s.span.filename != self.compiled.span.filename \
                or _key(s.span.line, s.span.col) in self.index:
            return None
        return self.helpers.def_of(s.span.line)

    def _sites(self, run: Sequence[Stmt]) -> list[_Site]:
        """A run of statements inline helpers wrote (with the moves before them) split into
        call sites: a site starts with the moves before its first statement, and a new one
        where the first statement's position comes again."""
        own = [n for n, x in enumerate(run) if not self._is_move(x)]
        first = _key(run[own[0]].span.line, run[own[0]].span.col)
        starts = [n for n in own if _key(run[n].span.line, run[n].span.col) == first]
        for c in range(1, len(starts)):
            while self._is_move(run[starts[c] - 1]):
                starts[c] -= 1
        starts[0] = 0
        fd = self._helper_of(run[own[0]])
        assert fd is not None
        return [_Site(fd, run[a:b]) for a, b in zip(starts, [*starts[1:], len(run)], strict=True)]

    def _walk_site(self, site: _Site) -> None:
        """Plans one call site of an inline helper against the helper's body, in a planner of
        its own (every site of the helper must plan alike: `InlineHelpers.settle`)."""
        assert self.helpers is not None
        name = site.fd.name.value
        why = self.helpers.differ.get(id(site.fd))
        if why is not None:
            raise Unsupported(f"the calls of the @pl.inline helper {name} compile differently "
                              f"({why})")
        sub = _Planner(site.fd, self.positions, self.compiled, self.source_fn, self.moves, 0,
                       self.text, self.root, self.dims, None, self.consts, self.helpers)
        sub.shows_text = self.shows_text
        sub.written = {}
        for top in site.stmts:
            for x in walk_stmts(top):
                if not isinstance(x, SeqStmts) and not self._is_move(x):
                    k = _key(x.span.line, x.span.col)
                    sub.written[k] = sub.written.get(k, 0) + 1
        sub.spelled = _helper_spelling(sub, site.stmts, self.moves)
        try:
            sub._walk(site.stmts, site.fd.body, (), 1)
            sub._check_moved()
            sub.result = FunctionResult(sub)
        except Unsupported as e:
            raise Unsupported(f"a call of the @pl.inline helper {name} cannot be shown in its "
                              f"body: {e}") from None
        self.sites.extend([*sub.sites, (site.fd, sub)])
        self.move_names.update(sub.move_names)
        self.move_lines.update(sub.move_lines)

    # -- statements shown as they compile, at their place --------------------------------------
    def _site_region(self, segments: Sequence[Stmt | _Unrolled | _Site], start: int,
                     block: cst.BaseSuite, pending: list[_Insert], depth: int,
                     why: Unsupported) -> int:
        """The call of an inline helper whose site `segments[start]` cannot be planned in the
        helper's body (its calls compile differently) shown as it compiles: the user's line
        holding the call stands for the statements of its sites and its own (`_region`).
        Returns where the walk goes on."""
        end = start
        while end < len(segments) and (isinstance(segments[end], _Site)
                                       or self._is_move(segments[end])):
            end += 1
        line = segments[end] if end < len(segments) else None
        if not isinstance(line, AssignStmt | EvalStmt | ReturnStmt | YieldStmt):
            raise why
        k = _key(line.span.line, line.span.col)
        entry = self.index.get(k)
        if entry is None or entry.block is not block or entry.small is None \
                or not isinstance(entry.stmt, cst.SimpleStatementLine) \
                or len(entry.stmt.body) != 1 or k in self.seen or k in self.temps:
            raise why
        # The line's own statements (a tuple's items too), with the moves before them.
        n = end
        while n < len(segments):
            m = n
            while m < len(segments) and self._is_move(segments[m]):
                m += 1
            x = segments[m] if m < len(segments) else None
            if not isinstance(x, Stmt) or _key(x.span.line, x.span.col) != k:
                break
            n = end = m + 1
        stmts: list[Stmt] = []
        for seg in segments[start:end]:
            if isinstance(seg, _Unrolled):
                raise why
            stmts.extend(seg.stmts if isinstance(seg, _Site) else [seg])
        helper = next(seg.fd.name.value for seg in segments[start:end] if isinstance(seg, _Site))
        self._region(entry, stmts, depth, pending, {k},
                     f"the call of the @pl.inline helper {helper} at line {k[0]}", why,
                     first_claims=True)
        return end

    def _region(self, entry: _Entry, stmts: Sequence[Stmt], depth: int, pending: list[_Insert],
                keys: set[Key], what: str, why: Unsupported, first_claims: bool) -> None:
        """The user's statement `entry` shown as it compiles, below the level it is written at:
        replaced by the compiled statements `stmts` (pl/show_inferred/lowered.py
        `rewrite_region`), typed, named from the user's names, its comments kept; the rest of
        the function is annotated as written. `keys`: the positions of the user's statements
        it replaces (a loop's body too). Raises `Unsupported` when it cannot be shown so."""
        if any(k in self.seen for k in keys):
            raise Unsupported(f"{what} is planned already")
        name_of = self._region_names(stmts)
        nodes = rewrite_region(self.fd, entry.stmt, self.positions, self.compiled, stmts,
                               self.moves, self.indent, depth, self.root, name_of, self.methods,
                               self.spell.dim_names, first_claims)
        for node in nodes:  # (what pl reads back: see `_updated_line`)
            try:
                check_expression_size("", cst.Module([]).code_for_node(node))
            except PlError:
                raise Unsupported(f"{what}, shown as it compiles, would be longer than pl reads "
                                  f"({MAX_LINE_OPERATORS} operators at most)") from None
        if pending:
            self.inserts.setdefault(id(entry.stmt), []).extend(pending)
        self.regions[id(entry.stmt)] = nodes
        self.replaced |= keys
        self.seen |= keys
        self.region_notes.append(f"{what} is shown as it compiles, at its place, below the "
                                 f"level it is written at ({why}); the rest of the function is "
                                 "annotated as written")

    def _region_names(self, stmts: Sequence[Stmt]) -> Callable[[Var], str]:
        """The output name of each value the statements `stmts` (shown as they compile, in the
        user's function) bind or read: a value the user named keeps the name, unless the
        function binds that name to a value of another shape or dtype (pl refuses the
        rebinding: a fresh name, which the statements after read); a value the compiler made
        (a move, a tile of a tensor) a readable name from the user's; a value bound elsewhere,
        the name the rest of the output gives it."""
        inside = [d for top in stmts for x in walk_stmts(top) for d in stmt_defs(x)]
        # The values a statement of another def (an inline helper's) binds: its names are not
        # this function's, so one the function spells is named apart.
        foreign = {d for top in stmts for x in walk_stmts(top) for d in stmt_defs(x)
                   if _key(x.span.line, x.span.col) not in self.index
                   or x.span.filename != self.compiled.span.filename}
        mine = set(inside)
        types: dict[str, list[Type]] = {}
        for v in (*self.compiled.params,
                  *(d for x in walk_stmts(self.compiled.body) for d in stmt_defs(x))):
            if v not in mine:
                types.setdefault(user_name(v.name), []).append(v.type)
        names: dict[Var, str] = {}

        def name_of(v: Var) -> str:
            return names.get(v) or self.move_names.get(v.name) or \
                self.temp_names.get(v.name) or (self.dims or {}).get(v.name) or user_name(v.name)

        moves = {x.var: (x.value.args[0], x.span.line) for top in stmts for x in walk_stmts(top)
                 if isinstance(x, AssignStmt) and x.var.name in self.moves
                 and isinstance(x.value, Call) and x.value.args
                 and isinstance(x.value.args[0], Var)}
        for v in inside:
            if v in names:
                continue
            own = user_name(v.name)
            t = v.type
            if v in moves:
                space = t.memory_space if isinstance(t, TileType) else None
                producer, line = moves[v]
                base = f"{name_of(producer)}_{space.name}" if space is not None else own
                names[v] = fresh_name(base, self.taken)
                self.move_names[v.name] = names[v]
                self.move_lines[v.name] = line
                self.producers[v.name] = producer.name
                continue
            if compiler_made(v.name, self.moves):
                names[v] = fresh_name(readable_base(v, self.taken), self.taken)
            elif v in foreign and own in self.taken and own not in self.foreign_names:
                names[v] = fresh_name(own, self.taken)
            else:
                if v in foreign and own not in self.taken:
                    self.taken.add(own)
                    self.foreign_names.add(own)
                seen = types.setdefault(own, [])
                if all(rebinds_as_same(u, t) for u in seen):
                    names[v] = own
                    seen.append(t)
                    continue
                names[v] = fresh_name(own, self.taken)
            # Read by the statements after it under this name (see `_renames`).
            self.move_names[v.name] = names[v]
            self.producers[v.name] = v.name
        return name_of

    def _temp(self, s: AssignStmt, k: Key, entry: _Entry, depth: int, pending: list[_Insert],
              moved: set[str]) -> bool:
        """Whether `s` is a temporary flatten_call_expr made of a call the user nested in the
        statement at `k` (they come first, inner calls first). Such a call stays nested as
        written, its changes edited in place, unless a move reads its result or follows it
        (`moved`): then it alone is taken out, to a statement of its own named from the user's
        names, before the statement (`pending`), and its name (the move's) stands where it
        was."""
        temps, index = self.temps.get(k) or ([], 0)
        if k not in self.temps:
            src = self._src(k)
            if isinstance(src, AssignStmt | EvalStmt | ReturnStmt | YieldStmt):
                temps = statement_temps(src)
        if index == len(temps):
            return False
        self.temps[k] = (temps, index + 1)
        src_temp = temps[index]
        if _call_op(s.value) != _call_op(src_temp.value) \
                or isinstance(s.var.type, TileType) != isinstance(src_temp.var.type, TileType):
            raise Unsupported(f"lowering rewrote the statement at line {k[0]}")
        shown = self._shown(s.var, src_temp.var.type)
        edit = self._nested_edit(s.value, src_temp.value)
        taken_out = s.var.name in moved
        if not taken_out and edit is None:
            return True
        node = self._temp_node(k, entry, temps, index)
        nested = self.nested.setdefault(k, {})
        if edit is not None:
            nested[id(node)] = edit
        if taken_out:
            code = cst.Module([]).code_for_node(_nested_edited(node, nested, self.spell))
            target = _target_name(entry.small)
            name = fresh_name(f"{target}_{_func_word(node)}" if target else _func_word(node),
                              self.taken)
            self.temp_names[s.var.name] = name
            self.spelled[s.var.name] = name  # (its move is named from it: `_move`)
            self.taken_out[s.var.name] = (k, node)
            nested[id(node)] = name  # a move's name once the move is met
            indent = " " * ((self.indent + depth) * 4)
            line = cst.parse_statement(f"{name}: {self.spell.type_text(shown)} = {code}\n")
            assert isinstance(line, cst.SimpleStatementLine)
            small = _wrapped(line.body[0], len(indent),  # (as a line annotated in place is)
                             cst.Module([]).code_for_node(line.body[0]))
            code = cst.Module([]).code_for_node(line.with_changes(body=[small]))
            text = "".join(indent + x for x in code.splitlines(keepends=True))
            pending.append(_Insert(line=text, indent=indent,
                                   parsed=line.with_changes(body=[small])))
        return True

    def _nested_edit(self, value: Expr, src_value: Expr) -> _Edit | None:
        """The edit of a call the user nested (`src_value` as parsed, `value` compiled): its
        target_memory and the moves it reads of the user's values; None: none."""
        if not isinstance(value, Call):
            return None
        new_tm = dict(value.kwargs).get("target_memory")
        old_tm = dict(src_value.kwargs).get("target_memory") if isinstance(src_value, Call) else None
        edit = _Edit(target_memory=new_tm if new_tm is not None and new_tm != old_tm else None,
                     renames=self._renames(value.args))
        return edit if edit.target_memory is not None or edit.renames else None

    def _temp_node(self, k: Key, entry: _Entry, temps: list[AssignStmt], index: int) -> cst.Call:
        """The user's node of `temps[index]`, a call flatten_call_expr takes out of the statement
        at `k`: the calls written as arguments of calls (or returned), inner first, matched in
        order to the temporaries by their op's name."""
        nodes = self.temp_nodes.get(k)
        if k not in self.temp_nodes:
            nodes = self.temp_nodes[k] = _pair_nested(entry.small, temps)
        if nodes is None:
            raise Unsupported(f"cannot tell which nested call of line {k[0]} is moved")
        return nodes[index]

    def _check_same_kind(self, s: Stmt, k: Key) -> None:
        src = self._src(k)
        if src is None or type(src) is not type(s):
            raise Unsupported(f"lowering rewrote the statement at line {k[0]}")
        match s, src:
            case (AssignStmt(var=v, value=val), AssignStmt(var=sv, value=sval)):
                if _call_op(val) != _call_op(sval) or \
                        isinstance(v.type, TileType) != isinstance(sv.type, TileType):
                    raise Unsupported(f"lowering rewrote the statement at line {k[0]}")
            case (EvalStmt(expr=e), EvalStmt(expr=se)):
                if _call_op(e) != _call_op(se):
                    raise Unsupported(f"lowering rewrote the statement at line {k[0]}")
            case _:
                pass

    def _check_moves_renamed(self, s: Stmt, k: Key) -> None:
        """A statement reading an inserted move where its edit cannot rename the user's name (in
        a call nested in its expressions, a scalar expression, a condition or a loop bound: only
        its top-level call's arguments and the values it yields are renamed) cannot be edited in
        place: the output would read the value unmoved."""
        if not self.move_names:
            return
        call = top_level_call(s)
        direct = call.args if call is not None else s.values if isinstance(s, YieldStmt) else ()
        loop = isinstance(s, ForStmt | WhileStmt)  # (a loop starting from a move: `_plan_stmt`)
        roots = [r for r in stmt_exprs(s) if not (loop and isinstance(r, Var))]
        names = self.move_names
        read = sum(1 for root in roots for e in walk_exprs(root)
                   if isinstance(e, Var) and e.name in names)
        if read != sum(1 for a in direct if isinstance(a, Var) and a.name in names):
            raise Unsupported(f"an inserted move feeds an expression nested in the statement at "
                              f"line {k[0]}")

    def _plan_stmt(self, s: Stmt, entry: _Entry, ret_vars: tuple[Var, ...], depth: int) -> None:
        src = self._src(_key(s.span.line, s.span.col))
        k = stmt_kind(s)
        match k:
            case AssignStmt(var=v, value=value):
                edit = self._call_edit(value, k)
                edit.nested = self.nested.pop(_key(s.span.line, s.span.col), {})
                shown = self._shown(v, src.var.type if isinstance(src, AssignStmt) else None)
                if isinstance(v.type, TileType) and v.type.memory_space is not None \
                        and _annotatable(entry.small) \
                        and not _already_shown(entry.small, shown, self.spell):
                    edit.annotate = shown
                self._record(entry, edit)
            case EvalStmt(expr=e):
                edit = self._call_edit(e, k)
                edit.nested = self.nested.pop(_key(s.span.line, s.span.col), {})
                self._record(entry, edit)
            case YieldStmt(values=vals):
                edit = _Edit(renames=self._renames(vals))  # a diverging branch's phi move
                edit.nested = self.nested.pop(_key(s.span.line, s.span.col), {})
                rv = _yielded_result(entry.small, ret_vars)
                if rv is not None and isinstance(rv.type, TileType):
                    edit.annotate = self.user_types.get(rv.name, rv.type)
                self._record(entry, edit)
            case ForStmt(body=body, return_vars=rv) | WhileStmt(body=body, return_vars=rv):
                if any(isinstance(ia.init, Var) and ia.init.name in self.move_names
                       for ia in k.iter_args):
                    # A carry that starts from a move (inference re-placed the loop where its
                    # initial value cannot go): the header's init_values would need the edit.
                    raise Unsupported(f"the loop at line {k.span.line} starts from an inserted move")
                self._record_types(k, src)
                self._walk(flatten_body(body), _suite(entry.stmt, 0), rv, depth + 1)
            case ScopeStmt(body=body):
                callee = self._outlined_callee(k)
                if callee is None:
                    self._walk(flatten_body(body), _suite(entry.stmt, 0), (), depth + 1)
                else:
                    self._walk_outlined(k, callee, entry, depth)
            case IfStmt(then_body=then, else_body=other, return_vars=rv):
                self._record_types(k, src)
                self._plan_declarations(entry, rv)
                self._walk(flatten_body(then), _suite(entry.stmt, 0), rv, depth + 1)
                if other is not None:
                    self._walk(flatten_body(other), _suite(entry.stmt, 1), rv, depth + 1)
            case ReturnStmt():
                self._record(entry, _Edit(nested=self.nested.pop(_key(s.span.line, s.span.col), {})))
            case BreakStmt() | ContinueStmt() | SeqStmts():
                pass  # nothing shown
            case _:
                assert_never(k)

    def _outlined_callee(self, s: ScopeStmt) -> tuple[Function, set[str]] | None:
        """The function compilation outlined `s`'s body into (pl/lowering/outline.py), with the
        names of the moves inferred in it, when the user wrote that body (it was not a call)."""
        region = outlined_region(s)
        src = self._src(_key(s.span.line, s.span.col))
        if region is None or not isinstance(src, ScopeStmt):
            return None
        src_region = outlined_region(src)
        if src_region is None or is_dispatch(src_region.body):
            return None
        for x in flatten_body(region.body):
            call = top_level_call(x)
            if call is not None and isinstance(call.op, GlobalVar) \
                    and call.op.name in self.outlined:
                return self.outlined[call.op.name]
        return None

    def _walk_outlined(self, s: ScopeStmt, callee: tuple[Function, set[str]], entry: _Entry,
                       depth: int) -> None:
        """The outlined function's statements, planned where the user wrote them: inside the
        `with` block (its `return` is the compiler's, and so is the block index `for i in
        pl.spmd(n)` binds on the loop's own line)."""
        fn, moves = callee
        here = _key(s.span.line, s.span.col)
        stmts = [x for x in flatten_body(fn.body) if not isinstance(x, ReturnStmt)
                 and _key(x.span.line, x.span.col) != here]
        saved, self.moves = self.moves, moves
        try:
            self._walk(stmts, _suite(entry.stmt, 0), (), depth + 1)
        finally:
            self.moves = saved

    def _plan_declarations(self, entry: _Entry, ret_vars: tuple[Var, ...]) -> None:
        """Shows the inferred space in the user's declarations of the if's results (`p: T`
        lines right before it), as in an annotated assignment."""
        for line in self.declarations.get(id(entry.stmt), ()):
            for small in line.body:
                rv = _yielded_result(small, ret_vars)
                if rv is None or not isinstance(rv.type, TileType):
                    continue
                shown = self.user_types.get(rv.name, rv.type)
                if not _already_shown(small, shown, self.spell):
                    self._record(_Entry(line, small, entry.block), _Edit(annotate=shown))

    def _record_types(self, s: ForStmt | WhileStmt | IfStmt, src: Stmt | None) -> None:
        """Records the shown types of a compound statement's iter args and results (their
        source counterparts are the same statement's, by position)."""
        if type(src) is not type(s):
            return
        for v, sv in zip(s.return_vars, getattr(src, "return_vars", ()), strict=False):
            self._shown(v, sv.type)
        if not isinstance(s, IfStmt):
            for a, sa in zip(s.iter_args, getattr(src, "iter_args", ()), strict=False):
                self._shown(a, sa.type)

    def _call_edit(self, value: Expr, s: Stmt) -> _Edit:
        edit = _Edit()
        if not isinstance(value, Call):
            return edit
        src = self._src(_key(s.span.line, s.span.col))
        src_value = src.value if isinstance(src, AssignStmt) else \
            src.expr if isinstance(src, EvalStmt) else None
        new_tm = dict(value.kwargs).get("target_memory")
        old_tm = dict(src_value.kwargs).get("target_memory") if isinstance(src_value, Call) else None
        if new_tm is not None and new_tm != old_tm:
            edit.target_memory = new_tm
        edit.renames = self._renames(value.args)
        return edit

    def _renames(self, args: Sequence[Expr]) -> list[tuple[int, str, str]]:
        """(position, the user's name, the shown move's name) of every argument that is a move."""
        return [(i, self._spelling(self.producers[a.name]), self.move_names[a.name])
                for i, a in enumerate(args) if isinstance(a, Var) and a.name in self.move_names
                and self.producers[a.name] not in self.taken_out]  # (that one: `_move`)

    def _record(self, entry: _Entry, edit: _Edit) -> None:
        if edit.annotate is None and edit.target_memory is None and not edit.renames \
                and not edit.nested:
            return
        if entry.small is None:
            raise Unsupported("cannot edit a compound statement")
        if id(entry.small) in self.edits:
            raise Unsupported("two compiled statements edit one statement")
        pos = self._pos(entry.small)
        edit.line, edit.column = (0, 0) if pos is None else (pos[0], pos[1] - 1)
        self.edits[id(entry.small)] = edit

    def _move(self, s: AssignStmt, depth: int) -> _Insert:
        value = s.value
        if not isinstance(value, Call) or len(value.args) != 1 or not isinstance(value.args[0], Var):
            raise Unsupported("an inserted move is not a plain tile.move of a value")
        producer = value.args[0]
        base = user_name(s.var.name)
        spelled = self.spelled.get(producer.name)
        if spelled is not None:  # a caller's value, named as the inline helper names it
            made = user_name(producer.name)
            base = spelled + base[len(made):] if base.startswith(made) else spelled
            producer = Var(spelled, producer.type)
        name = fresh_name(base, self.taken)
        out = self.taken_out.get(value.args[0].name)
        if out is not None:  # a call the user nested, taken out: its move stands in its place
            self.nested[out[0]][id(out[1])] = name
        produced = self.user_types.get(value.args[0].name)
        shown = self._shown(s.var, produced)
        self.move_names[s.var.name] = name
        self.move_lines[s.var.name] = s.span.line
        self.producers[s.var.name] = value.args[0].name
        # Printed as the user writes a move, `name: T = pl.move(src, k=v)` (`move`: the DSL's
        # spelling of `tile.move`, which the printer writes `pl.<op name>`), wrapped as the
        # printer wraps it in a canonical print of the function (4 columns a level).
        move = AssignStmt(Var(name, shown), Call(Op("move"), (producer,), value.kwargs, (), shown))
        indent = " " * ((self.indent + depth) * 4)
        return _Insert(move=move, indent=indent, spell=self.spell)

    # -- applying ------------------------------------------------------------------------------
    def apply(self) -> cst.FunctionDef:
        body = _Apply(self).suite(self.fd.body)
        return self.fd if body is self.fd.body else self.fd.with_changes(body=body)


@dataclass(frozen=True)
class _Site:
    """The compiled statements one call of an inline helper spliced into its caller, in order,
    with their moves."""

    fd: cst.FunctionDef
    stmts: Sequence[Stmt]


def _helper_spelling(sub: _Planner, stmts: Sequence[Stmt], moves: set[str]) -> dict[str, str]:
    """The helper's name for each value of the caller its statements read, by compiled name:
    a tile argument of a call is matched with the name the helper's text passes there (through
    the move that feeds it, if any)."""
    producer = {x.var.name: x.value.args[0].name for top in stmts for x in walk_stmts(top)
                if isinstance(x, AssignStmt) and x.var.name in moves and isinstance(x.value, Call)
                and x.value.args and isinstance(x.value.args[0], Var)}
    out: dict[str, str] = {}
    for top in stmts:
        for x in walk_stmts(top):
            if isinstance(x, AssignStmt) and x.var.name in moves:
                continue  # (located at the statement it feeds)
            entry = sub.index.get(_key(x.span.line, x.span.col))
            call = top_level_call(x)
            text = value_call(entry.small) if entry is not None and entry.small is not None \
                else None
            if call is None or text is None:
                continue
            positional = [a.value for a in text.args if a.keyword is None and not a.star]
            for arg, written in zip(call.args, positional, strict=False):
                if isinstance(arg, Var) and isinstance(written, cst.Name):
                    name = producer.get(arg.name, arg.name)
                    if written.value != user_name(name):
                        out.setdefault(name, written.value)
    return out


class InlineHelpers:
    """The module-level `@pl.inline` defs of the file being regenerated, and the plan of each
    of their call sites (`_Planner._walk_site`) in the functions planned so far. A helper whose
    sites all plan alike (the same types, spaces and moves) is annotated in its own body
    (`results`); one whose sites differ stays as written, and the functions that call it are
    shown as they compile, each call's statements at its place (`differ`: why, by helper)."""

    def __init__(self, tree: cst.Module, positions: Any) -> None:
        self.defs = [(fd, positions[fd].start.line, positions[fd].end.line) for fd in tree.body
                     if isinstance(fd, cst.FunctionDef) and _is_inline(fd)]
        self.positions = positions
        self.differ: dict[int, str] = {}
        self.sites: dict[int, list[_Planner]] = {}

    def def_of(self, line: int) -> cst.FunctionDef | None:
        return next((fd for fd, a, b in self.defs if a <= line <= b), None)

    def commit(self, sites: Sequence[tuple[cst.FunctionDef, _Planner]]) -> None:
        for fd, planner in sites:
            self.sites.setdefault(id(fd), []).append(planner)

    def settle(self) -> bool:
        """Finds the helpers whose sites plan differently; True when there is a new one (the
        file must then be planned again, its callers shown as they compile)."""
        new = False
        for fd, _, _ in self.defs:
            plans = self.sites.get(id(fd), [])
            if id(fd) in self.differ or len(plans) < 2:
                continue
            first = _site_plan(plans[0])
            other = next((p for p in plans[1:] if _site_plan(p) != first), None)
            if other is not None:
                line = _first_difference(first, _site_plan(other), plans[0])
                self.differ[id(fd)] = f"its calls give the statement at line {line} other " \
                    "types, spaces or moves"
                new = True
        return new

    def results(self) -> list[tuple[cst.FunctionDef, FunctionResult]]:
        """Each helper whose sites agree, with its rewrite (the plan of its first site)."""
        out = []
        for fd, _, _ in self.defs:
            plans = self.sites.get(id(fd))
            if plans and id(fd) not in self.differ:
                assert plans[0].result is not None
                out.append((fd, plans[0].result))
        return out

    def reset(self) -> None:
        """Forgets the sites planned so far. A site's planner and its rewrite refer to each
        other and to these helpers: cycles that hold the file's parse, so they are undone here
        rather than left to the collector (paused during a compile: pl/gc_pause.py)."""
        for plans in self.sites.values():
            for p in plans:
                p.result = None
        self.sites.clear()


def _is_inline(fd: cst.FunctionDef) -> bool:
    """Whether `fd` is decorated `@pl.inline` (or `@inline`, however `pl` is imported)."""
    for d in fd.decorators:
        e = d.decorator
        if isinstance(e, cst.Name) and e.value == "inline" or \
                isinstance(e, cst.Attribute) and e.attr.value == "inline":
            return True
    return False


def _site_plan(p: _Planner) -> dict[int, tuple[Any, ...]]:
    """What a site's plan changes in the helper's text, by node: comparable between sites."""
    out: dict[int, tuple[Any, ...]] = {}
    for k, e in p.edits.items():
        out[k] = ("edit", e.annotate, e.target_memory, tuple(e.renames))
    for what, table in (("insert", p.inserts), ("append", p.appends)):
        for k, ins in table.items():
            out[k] = (*out.get(k, ()), what,
                      tuple((i.new if i.hoisted is None else None,
                             id(i.hoisted) if i.hoisted is not None else None) for i in ins))
    for k in p.removed:
        out[k] = (*out.get(k, ()), "removed")
    return out


def _first_difference(a: Mapping[int, Any], b: Mapping[int, Any], p: _Planner) -> int:
    """The first line of the helper that two site plans change differently."""
    line_of: dict[int, int] = {}
    for k, e in p.index.items():
        line_of.setdefault(id(e.stmt), k[0])
        if e.small is not None:
            line_of[id(e.small)] = k[0]
    lines = [line_of.get(n, 0) for n in set(a) | set(b) if a.get(n) != b.get(n)]
    return min(lines, default=0)


@dataclass(frozen=True)
class _UnrollLoop:
    """A `pl.unroll` loop of the source: where it is written, how many copies unrolling makes,
    and where the statements of its body (nested ones included) are written."""

    key: Key
    lines: tuple[int, int]
    count: int
    keys: frozenset[Key]


@dataclass(frozen=True)
class _Unrolled:
    """The compiled statements of one `pl.unroll` loop's copies, in order, with their moves."""

    loop: _UnrollLoop
    stmts: Sequence[Stmt]


def _unroll_loops(source: Function) -> list[_UnrollLoop]:
    """The `pl.unroll` loops of the source function, outermost first."""
    out: list[_UnrollLoop] = []
    for s in walk_stmts(source.body):
        if isinstance(s, ForStmt) and s.kind is ForKind.Unroll and \
                all(isinstance(e, ConstInt) for e in (s.start, s.stop, s.step)) and \
                isinstance(s.step, ConstInt) and s.step.value != 0:
            assert isinstance(s.start, ConstInt) and isinstance(s.stop, ConstInt)
            keys = frozenset(_key(x.span.line, x.span.col) for x in walk_stmts(s.body)
                             if not isinstance(x, SeqStmts))
            out.append(_UnrollLoop(_key(s.span.line, s.span.col),
                                   (s.span.line, max(s.span.line, s.span.end_line)),
                                   len(range(s.start.value, s.stop.value, s.step.value)), keys))
    return out


def _sub_suites(stmt: cst.BaseStatement) -> list[cst.BaseSuite]:
    if isinstance(stmt, cst.SimpleStatementLine):
        return []
    assert isinstance(stmt, cst.BaseCompoundStatement)
    kind = compound_kind(stmt)
    match kind:
        case cst.For(body=b, orelse=None) | cst.While(body=b, orelse=None) | cst.With(body=b):
            return [b]
        case cst.If(body=b, orelse=cst.Else(body=e)):
            return [b, e]
        case cst.If(body=b, orelse=None):
            return [b]
        case cst.For() | cst.While() | cst.If() | cst.Try() | cst.TryStar() | cst.FunctionDef() \
                | cst.ClassDef() | cst.Match():
            return []  # an else clause on a loop, an elif, or no kernel statement
        case _:
            assert_never(kind)


def _suite(stmt: cst.BaseStatement, i: int) -> cst.BaseSuite:
    subs = _sub_suites(stmt)
    if i >= len(subs):
        raise Unsupported("the compiled control flow does not match the source")
    return subs[i]


class _Apply:
    """Rebuilds only the statement lists that change (a full CSTTransformer visit of a large
    kernel costs more than everything else the regeneration does)."""

    def __init__(self, plan: _Planner) -> None:
        self.plan = plan
        self.updated: dict[int, cst.BaseStatement] = {}

    def stmt(self, s: cst.BaseStatement) -> cst.BaseStatement:
        if isinstance(s, cst.SimpleStatementLine):
            out = _updated_line(s, self.plan.edits, self.plan.spell)
            self.updated[id(s)] = out
            return out
        changes: dict[str, Any] = {}
        body = getattr(s, "body", None)
        if isinstance(body, cst.BaseSuite):
            new = self.suite(body)
            if new is not body:
                changes["body"] = new
        orelse = getattr(s, "orelse", None)
        if isinstance(orelse, cst.If):
            new_if = self.stmt(orelse)
            if new_if is not orelse:
                changes["orelse"] = new_if
        elif isinstance(orelse, cst.Else):
            new_else = self.suite(orelse.body)
            if new_else is not orelse.body:
                changes["orelse"] = orelse.with_changes(body=new_else)
        return s.with_changes(**changes) if changes else s

    def suite(self, block: cst.BaseSuite) -> cst.BaseSuite:
        if isinstance(block, cst.SimpleStatementSuite):
            return self._one_line(block)
        if not isinstance(block, cst.IndentedBlock):
            return block
        plan = self.plan
        done = [self.stmt(orig) for orig in block.body]  # inner statements first: hoists read them
        body: list[cst.BaseStatement] = []
        changed = False
        for orig, upd in zip(block.body, done, strict=True):
            for ins in plan.inserts.get(id(orig), []):
                body.append(self._insert(ins))
                changed = True
            parts = _split_line(orig, upd, plan) if isinstance(orig, cst.SimpleStatementLine) \
                and isinstance(upd, cst.SimpleStatementLine) else None
            if id(orig) in plan.removed:
                changed = True
            elif id(orig) in plan.regions:
                body.extend(plan.regions[id(orig)])
                changed = True
            elif parts is not None:
                body.extend(x if isinstance(x, cst.BaseStatement) else self._insert(x)
                            for x in parts)
                changed = True
            else:
                body.append(upd)
                changed = changed or upd is not orig
        for ins in plan.appends.get(id(block), []):
            body.append(self._insert(ins))
            changed = True
        return block.with_changes(body=body) if changed else block

    def _one_line(self, suite: cst.SimpleStatementSuite) -> cst.BaseSuite:
        """A one-line suite (`for i in pl.range(2): t = pl.matmul(a, b)`) that gains a move or
        an annotation becomes an indented block, one line per statement, its moves before it
        and its comment after the colon: every change is shown, and the text reads back."""
        if not _one_line_changes(self.plan, suite):
            return suite
        lines: list[cst.BaseStatement] = []
        for small in suite.body:
            lines.extend(self._insert(ins) for ins in self.plan.inserts.get(id(small), []))
            edit = self.plan.edits.get(id(small))
            new = small if edit is None else _edited(small, edit, self.plan.spell)
            lines.append(cst.SimpleStatementLine(
                body=[new.with_changes(semicolon=cst.MaybeSentinel.DEFAULT)]))
        return cst.IndentedBlock(body=lines, header=suite.trailing_whitespace)

    def _insert(self, ins: _Insert) -> cst.BaseStatement:
        if ins.hoisted is None:
            return ins.node()
        assert ins.hoisted is not None
        return self.updated.get(id(ins.hoisted), ins.hoisted)


def _split_line(orig: cst.SimpleStatementLine, updated: cst.SimpleStatementLine, plan: _Planner
                ) -> list[cst.SimpleStatementLine | _Insert] | None:
    """A line of `;`-separated statements (`updated`: `orig` with its edits) where moves go
    before a statement after its first, split there: the statements before it stay on the
    user's line (its leading lines kept), the moves follow on their own lines, then the rest
    of the line (its trailing comment kept). Every statement keeps its text; only the `; `
    before a split becomes a line break. None: no move goes inside the line."""
    smalls = list(updated.body)
    cuts = [i for i, small in enumerate(orig.body) if i > 0 and id(small) in plan.inserts]
    if not cuts:
        return None
    out: list[cst.SimpleStatementLine | _Insert] = []
    for n, (start, stop) in enumerate(zip([0, *cuts], [*cuts, len(smalls)], strict=True)):
        if n:
            out.extend(plan.inserts[id(orig.body[start])])
        part = smalls[start:stop]
        last = stop == len(smalls)
        if not last:
            part[-1] = part[-1].with_changes(semicolon=cst.MaybeSentinel.DEFAULT)
        out.append(cst.SimpleStatementLine(
            body=part, leading_lines=orig.leading_lines if n == 0 else (),
            trailing_whitespace=updated.trailing_whitespace if last else cst.TrailingWhitespace()))
    return out


def _one_line_changes(plan: _Planner, suite: cst.SimpleStatementSuite) -> bool:
    """Whether a statement of the one-line `suite` is edited or gains a move before it."""
    return any(id(small) in plan.edits or id(small) in plan.inserts for small in suite.body) \
        or id(suite) in plan.appends


def _updated_line(s: cst.SimpleStatementLine, edits: dict[int, _Edit], spell: Spelling
                  ) -> cst.SimpleStatementLine:
    """The line with its statements' edits. Each edited statement is rendered once, for the
    width of the line (`_wrapped`) and for what pl reads back: an added annotation can take a
    line the reader accepted over its operator limit (then `Unsupported`)."""
    if not any(id(small) in edits for small in s.body):
        return s
    module = cst.Module(body=[])
    body: list[cst.BaseSmallStatement] = []
    for small in s.body:
        edit = edits.get(id(small))
        if edit is None:
            body.append(small)
            continue
        new = _edited(small, edit, spell)
        text = module.code_for_node(new)
        if len(s.body) == 1 and edit.annotate is not None:
            # (A statement after a `;` is not broken: only a line of its own.)
            wrapped = _wrapped(new, edit.column, text)
            if wrapped is not new:
                new, text = wrapped, module.code_for_node(wrapped)
        try:
            check_expression_size("", text)
        except PlError:
            raise Unsupported(f"annotated, line {edit.line} would be longer than pl reads "
                              f"({MAX_LINE_OPERATORS} operators at most)") from None
        body.append(new)
    return s.with_changes(body=body)


def _wrapped(small: cst.BaseSmallStatement, column: int, text: str) -> cst.BaseSmallStatement:
    """An annotated `x: T = f(a, b)` (`text`: its rendering) written on one line, broken by the
    printer's rule when it is longer than the printer's width (pl/printer/doc.py `group_lines`:
    the arguments on a line of their own, else one a line), as the inserted statements are;
    where the annotation alone takes the line up to `f(` past the width (a type with a
    `pl.TileView`), its own bracketed list is broken first, one item a line, as the printer
    breaks it (pl/printer/stmts.py `_typed`), then `] = f(` and the arguments by the rule (a
    call written over several lines keeps them as written). Any other statement, a call
    written over several lines whose first line fits, or one holding a comment, as it is."""
    if not isinstance(small, cst.AnnAssign) or not isinstance(small.value, cst.Call) \
            or not small.value.args:
        return small
    module = cst.Module(body=[])
    first = text.split("\n", 1)[0]
    if "#" in text or column + len(first) <= WIDTH:
        return small
    call = small.value
    annotation = small.annotation.annotation
    head = column + len(first) - len(module.code_for_node(call)) + \
        len(module.code_for_node(call.func)) + 1 if first == text else column + len(first)
    items = [module.code_for_node(a.with_changes(comma=cst.MaybeSentinel.DEFAULT,
                                                 whitespace_after_arg=cst.SimpleWhitespace("")))
             for a in call.args]
    joined = ", ".join(items)
    if head > WIDTH and isinstance(annotation, cst.Subscript):
        kinds = [module.code_for_node(e.with_changes(comma=cst.MaybeSentinel.DEFAULT))
                 for e in annotation.slice]
        rest = group_lines("", f"] = {module.code_for_node(call.func)}(", items, ")",
                           WIDTH - column) if first == text \
            else f"] = {module.code_for_node(call)}\n"
        line = cst.parse_statement("".join([
            f"{module.code_for_node(small.target)}: {module.code_for_node(annotation.value)}[\n",
            *(f"{INDENT}{k},\n" for k in kinds), rest]))
        assert isinstance(line, cst.SimpleStatementLine)
        return line.body[0]
    if first != text:
        return small

    def broken(last_line: str) -> cst.ParenthesizedWhitespace:
        return cst.ParenthesizedWhitespace(first_line=cst.TrailingWhitespace(), indent=True,
                                           last_line=cst.SimpleWhitespace(last_line))
    args = list(call.args)
    if head <= WIDTH and column + len(INDENT) + len(joined) <= WIDTH:
        args = [a.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")),
                               whitespace_after_arg=cst.SimpleWhitespace(""))
                for a in args[:-1]] + [args[-1].with_changes(
                    comma=cst.MaybeSentinel.DEFAULT, whitespace_after_arg=broken(""))]
    else:
        args = [a.with_changes(comma=cst.Comma(whitespace_after=broken(INDENT)),
                               whitespace_after_arg=cst.SimpleWhitespace(""))
                for a in args[:-1]] + [args[-1].with_changes(
                    comma=cst.Comma(whitespace_after=broken("")),
                    whitespace_after_arg=cst.SimpleWhitespace(""))]
    return small.with_changes(value=call.with_changes(
        args=args, whitespace_before_args=broken(INDENT)))


def _edited(small: cst.BaseSmallStatement, edit: _Edit, spell: Spelling) -> cst.BaseSmallStatement:
    if edit.nested:
        small = _nested_edited(small, edit.nested, spell)
    call = value_call(small)
    if edit.target_memory is not None or edit.renames:
        if call is None:
            raise Unsupported("the changed call is nested in an expression")
        if edit.target_memory is not None:
            call = set_target_memory(call, edit.target_memory, spell.root)
        for i, old, new in edit.renames:
            call = rename_arg(call, i, old, new)
        small = with_value_call(small, call)
    if edit.annotate is not None:
        small = annotate_small(small, edit.annotate, spell)
    return small


def _nested_edited(node: cst.CSTNode, nested: Mapping[int, Any], spell: Spelling) -> Any:
    """`node` with the calls nested in it (by id, see `_Edit.nested`) replaced by a name or
    edited; inner calls first."""

    class _Replace(cst.CSTTransformer):
        def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
            change = nested.get(id(original))
            if change is None or original is node:
                return updated
            if isinstance(change, str):
                return cst.Name(change)
            return _edited_call(updated, change, spell)

    out = node.visit(_Replace())
    top = nested.get(id(node))
    if isinstance(node, cst.Call) and isinstance(out, cst.Call) and isinstance(top, _Edit):
        out = _edited_call(out, top, spell)
    return out


def _edited_call(call: cst.Call, edit: _Edit, spell: Spelling) -> cst.Call:
    if edit.target_memory is not None:
        call = set_target_memory(call, edit.target_memory, spell.root)
    for i, old, new in edit.renames:
        call = rename_arg(call, i, old, new)
    return call


def _target_name(small: cst.BaseSmallStatement | None) -> str | None:
    """The one name `small` assigns, if it assigns one."""
    match small:
        case cst.Assign(targets=[cst.AssignTarget(target=cst.Name(value=n))]) | \
                cst.AnnAssign(target=cst.Name(value=n)):
            return n
        case _:
            return None


def _func_word(call: cst.Call) -> str:
    """The last word of the called name (`pl.mul` -> `mul`)."""
    func = call.func
    if isinstance(func, cst.Attribute):
        return func.attr.value
    return func.value if isinstance(func, cst.Name) else "call"


def _pair_nested(small: cst.BaseSmallStatement | None, temps: Sequence[AssignStmt]
                 ) -> list[cst.Call] | None:
    """The user's call node of each of `temps` (flatten_call_expr's temporaries of the statement,
    in order): the calls written as another call's argument or as a returned value, inner
    first, left to right, matched in order to the temporaries whose op has their name (`pl.mul`
    to `tile.muls`); None when some temporary has none (a call the frontend made, such as a
    subscript's)."""
    if small is None:
        return None
    marked: set[int] = set()
    found: list[cst.Call] = []

    class _Find(cst.CSTVisitor):
        def visit_Arg(self, node: cst.Arg) -> None:
            marked.add(id(node.value))

        def visit_Return(self, node: cst.Return) -> None:
            value = node.value
            for v in value.elements if isinstance(value, cst.Tuple) else (value,):
                marked.add(id(v.value if isinstance(v, cst.BaseElement) else v))

        def leave_Call(self, node: cst.Call) -> None:
            if id(node) in marked:
                found.append(node)

    small.visit(_Find())
    out: list[cst.Call] = []
    i = 0
    for t in temps:
        word = _call_op(t.value)
        word = word.rsplit(".", 1)[-1] if word else ""
        while i < len(found) and not (word.startswith(_func_word(found[i]))
                                      or _func_word(found[i]).startswith(word)):
            i += 1
        if i == len(found):
            return None
        out.append(found[i])
        i += 1
    return out


_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _identifiers(fd: cst.FunctionDef, positions: Any, text: str | None) -> set[str]:
    """Every identifier spelled in the function (a superset is fine: new names only avoid them).
    Read off the file's text when it is at hand: a CST visit of a large kernel is slow."""
    rng = positions.get(fd) if text is not None else None
    if text is None or rng is None:
        return names_in(fd)
    lines = source_lines(text)[rng.start.line - 1:rng.end.line]
    return set(_IDENT.findall("\n".join(lines)))


def module_constants(tree: cst.Module) -> dict[str, int]:
    """The file's module constants: each name the module's own statements bind exactly once,
    by `NAME = <int literal>` (or `NAME: int = <int literal>`), with its value."""
    count: dict[str, int] = {}
    values: dict[str, int] = {}
    for stmt in tree.body:
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                for n, value in _module_bindings(small):
                    count[n] = count.get(n, 0) + 1
                    if value is not None:
                        values[n] = value
        else:  # a def, a class, or a compound statement whose body may bind a name again
            bound = BoundNames()
            stmt.visit(bound)
            for n in bound.names:
                count[n] = count.get(n, 0) + 1
    return {n: v for n, v in values.items() if count[n] == 1}


def _module_bindings(small: cst.BaseSmallStatement) -> list[tuple[str, int | None]]:
    """The names a module-level statement binds, each with its int value where it is
    `NAME = <int literal>`."""
    match small:
        case cst.Assign(targets=[cst.AssignTarget(target=cst.Name(n))], value=cst.Integer(value=v)) | \
                cst.AnnAssign(target=cst.Name(n), value=cst.Integer(value=v)):
            return [(n, int(v.replace("_", ""), 0))]
        case cst.Assign(targets=targets):
            return [(x.value, None) for t in targets for x in _target_names(t.target)]
        case cst.AnnAssign(target=t) | cst.AugAssign(target=t):
            return [(x.value, None) for x in _target_names(t)]
        case cst.Import(names=names) | cst.ImportFrom(names=names) if not isinstance(names, cst.ImportStar):
            return [(_alias_name(a), None) for a in names]
        case _:
            return []


def _alias_name(a: cst.ImportAlias) -> str:
    """The name `import a.b as c` (c) or `import a.b` (a) binds."""
    node: cst.BaseExpression = a.asname.name if a.asname is not None else a.name
    while isinstance(node, cst.Attribute):
        node = node.value
    return node.value if isinstance(node, cst.Name) else ""


def shape_constants(fd: cst.FunctionDef, consts: Mapping[str, int]) -> dict[int, str]:
    """The name an inserted type spells a constant dim with: value -> the module constant
    (`consts`: the file's module-level ints) that `fd` writes in its shape text (a name inside a
    list, `[R, C]`) and does not bind itself, where it is the only such constant with that
    value and no list of `fd` writes that value as a literal (`[N, 64]` with `N = 64`: which
    64 is N is not known). Any other dim keeps its literal."""
    if not consts:
        return {}  # (nothing to look for: a visit of a large def costs more than its inference)
    listed: set[str] = set()
    literals: set[int] = set()
    bound: set[str] = {p.name.value for p in (*fd.params.posonly_params, *fd.params.params,
                                              *fd.params.kwonly_params)}

    class _Find(cst.CSTVisitor):
        def visit_List(self, node: cst.List) -> None:
            listed.update(e.value.value for e in node.elements if isinstance(e.value, cst.Name))
            literals.update(int(e.value.value.replace("_", ""), 0) for e in node.elements
                            if isinstance(e.value, cst.Integer))

        def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
            bound.update(n.value for n in _target_names(node.target))

        def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
            bound.update(n.value for n in _target_names(node.target))

        def visit_For(self, node: cst.For) -> None:
            bound.update(n.value for n in _target_names(node.target))

        def visit_AsName(self, node: cst.AsName) -> None:
            bound.update(n.value for n in _target_names(node.name))

    fd.visit(_Find())
    by_value: dict[int, list[str]] = {}
    for name in sorted(listed - bound):
        if name in consts:
            by_value.setdefault(consts[name], []).append(name)
    return {v: names[0] for v, names in by_value.items() if len(names) == 1 and v not in literals}


def _target_names(node: cst.BaseExpression) -> list[cst.Name]:
    match node:
        case cst.Name():
            return [node]
        case cst.Tuple(elements=es) | cst.List(elements=es):
            return [n for e in es for n in _target_names(e.value)]
        case cst.StarredElement(value=v):
            return _target_names(v)
        case _:
            return []


def rewrite_function(fd: cst.FunctionDef, positions: Any, compiled: Function, source: Function,
                     moves: set[str], indent: int, text: str | None = None, root: str = "pl",
                     dims: Mapping[str, str] | None = None,
                     outlined: Mapping[str, tuple[Function, set[str]]] | None = None,
                     consts: Mapping[str, int] | None = None,
                     helpers: InlineHelpers | None = None, shows_text: bool = True,
                     methods: set[str] | None = None, regions: bool = False) -> FunctionResult:
    """The user's `fd` with the compiled function's changes; raises `Unsupported` (see above).
    `root` is the name the file imports `pl` as: every inserted `pl.` is spelled `root.`;
    `dims`: the name the file binds each `pl.dynamic` dimension to, by the dimension's name;
    `outlined`: the functions compilation made of `pl.at` scopes' bodies, by name, each with the
    names of the moves inferred in it (their statements are planned inside the `with` block);
    `consts`: the file's module-level int constants (see `shape_constants`); `helpers`: the
    file's inline helpers, whose call sites in `fd` are planned in their own bodies;
    `shows_text=False`: the output is neither printed nor written, only the plan is used (the
    def is not built); `methods`: the functions the file defines in the program's class (a call
    of one is `self.f(...)` in a statement shown as it compiles); `regions`: a `pl.unroll` loop
    whose copies compile differently, or a call of an inline helper whose calls do, is shown as
    it compiles at its place (`FunctionResult.region_notes` say which) rather than raising
    `Unsupported`."""
    planner = _Planner(fd, positions, compiled, source, moves, indent, text, root, dims, outlined,
                       consts, helpers, methods, regions)
    planner.shows_text = shows_text
    planner.plan()
    if helpers is not None:
        helpers.commit(planner.sites)
    return FunctionResult(planner)
