"""A function whose compiled body is not its statements plus moves, regenerated at the level it
compiles to (issue 31, item 3): the compiled statements stand at the place of the user's
statements they came from, typed, with everything else the user wrote kept.

Guarantees: `rewrite_lowered` returns the user's FunctionDef with its decorators, signature and
docstring as written, and its body made of LibCST statements: each compiled statement is the
printer's text of that one statement (parsed alone, at its block's indentation; a loop, an if
or a scope gets a body of such statements in turn). No whole function or module is printed and
re-parsed. Every comment and blank line the user wrote stays: a user statement's leading lines
go before the first statement compiled from it, its trailing comment onto that statement's line
(a loop's or an if's header comment onto its header); the comments of a statement nothing was
compiled from (a `pl.yield_` folded into its loop, a statement inlined away) go before the next
statement that stands, or at the end of the function. Names are the user's (`x__ssa_v1` is `x`);
a value the compiler made gets a readable name derived from the user's (`rhs_n__tile` in Mat is
`rhs_n_mat` when `rhs_n` is spelled in the function), unique in the function. Raises
`Unsupported` for a compiled statement it cannot place (then the function is left as written,
with a note).
"""

from __future__ import annotations

import itertools
import keyword
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, cast

import libcst as cst
from typing_extensions import assert_never

from pl.errors import python_lines
from pl.ir.enums import FunctionType, ParamDirection
from pl.ir.expr import Call, GlobalVar, TupleGetItem, Var
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
    make_body,
    stmt_kind,
)
from pl.ir.traverse import child_bodies, map_stmt, stmt_defs, stmt_exprs, walk_exprs, walk_stmts
from pl.ir.types import TileType, TupleType, Type
from pl.lowering.frontend.stmts import rebinds_as_same
from pl.printer.doc import WIDTH, group_lines
from pl.printer.exprs import PrintContext, type_text
from pl.printer.program import decorator_text
from pl.printer.stmts import scope_loop_form, statement_text
from pl.show_inferred.edit import BoundNames, Unsupported, fresh_name

__all__ = ["LoweredResult", "compiler_made", "readable_base", "rewrite_lowered", "rewrite_region"]

Key = tuple[int, int]

# A compiled name with text after its SSA version (`lhs__ssa_v0_mat`) or a compiler suffix
# (`rhs_n__tile`) names a value the compiler made, not one the user named.
_AFTER_VERSION = re.compile(r"__(?:[a-z]+_)*v\d+.")


@dataclass
class LoweredResult:
    """What `rewrite_lowered` made: the def, the output name of every value (`name_of`: a Var,
    never a compiled name, which two values may share), and by compiled name the first such
    name of every value the output names otherwise than `user_name` does; the def is rendered
    with the module (no text edits)."""

    node: cst.FunctionDef
    move_names: dict[str, str]
    name_of: Callable[[Var], str]  # the output name of each value (one binding, one Var)
    move_lines: dict[str, int] = field(default_factory=dict)
    edits: None = None
    changed: bool = True
    # The tasks shown as methods of their own, to stand before the def in its class.
    before: tuple[cst.FunctionDef, ...] = ()


def compiler_made(name: str, moves: set[str]) -> bool:
    """Whether the compiled name `name` names a value the compiler made, not one the user
    named (`moves`: the names of the inserted moves)."""
    return name in moves or "__" in user_name(name) or _AFTER_VERSION.search(name) is not None


def _spellable(name: str) -> bool:
    """Whether `name` can name a value in Python (`break__ssa_v0`, a value the IR text named
    `break`, cannot: `break_scalar` does)."""
    return name.isidentifier() and not keyword.iskeyword(name)


def _suffix(v: Var) -> str:
    t = v.type
    if isinstance(t, TileType) and t.memory_space is not None:
        return t.memory_space.name.lower()
    return "tile" if isinstance(t, TileType) else "tensor"


def _stem(name: str) -> str:
    """A compiler-made name without its compiler words: `c_n__tile_l0_c_first` -> `c_n_l0_c_first`,
    `rhs_n__tile` -> `rhs_n`."""
    first, *rest = user_name(name).split("__")
    parts = [first, *(re.sub(r"^(?:tile|tmp)(?:_|$)", "", p) for p in rest)]
    return "_".join(p for p in parts if p) or "t"


def readable_base(v: Var, taken: set[str]) -> str:
    """A readable name for a value the compiler made, from the user's name it was made from
    (`rhs_n__tile` in Mat: `rhs_n`, or `rhs_n_mat` where `rhs_n` is taken); `fresh_name` makes
    it unique."""
    stem = _stem(v.name)
    suffix = _suffix(v)
    # (a space said once: `lhs_mat_1` beside `lhs_mat`, not `lhs_mat_mat`)
    once = stem not in taken or stem.endswith(f"_{suffix}")
    base = stem if once and _spellable(stem) else f"{stem}_{suffix}"
    return base if _spellable(base) else "t"


def _targets(fd: cst.FunctionDef, positions: object) -> dict[Key, str]:
    """The one name each simple statement of `fd` binds (`x = ...`, `x: T = ...`), by its
    position."""
    out: dict[Key, str] = {}

    class _Find(cst.CSTVisitor):
        def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
            for small in node.body:
                target = small.targets[0].target if isinstance(small, cst.Assign) \
                    and len(small.targets) == 1 else \
                    small.target if isinstance(small, cst.AnnAssign) else None
                rng = positions.get(small)  # type: ignore[attr-defined]
                if isinstance(target, cst.Name) and rng is not None:
                    out[(rng.start.line, rng.start.column + 1)] = target.value

    fd.body.visit(_Find())
    return out


class _Names:
    """The output name of every Var the function (and the functions outlined from its scopes)
    binds: the user's name where the user named it, else a readable unique one. Keyed by the
    Var itself: the compiler may give two values one name (`r1__rows` before and after a
    reshape)."""

    def __init__(self, functions: Sequence[Function], moves: set[str], taken: set[str],
                 dims: Mapping[str, str], bound: set[str],
                 targets: Mapping[Key, str] | None = None) -> None:
        self.dims = dims
        self.names: dict[Var, str] = {}
        made: list[Var] = []
        # The Var each compiled name first stood for. A function outlined from a scope names
        # the caller's values it reads and the values it returns to the caller as the caller
        # does (its statements stand in the caller's `with` block): one output name.
        first: dict[str, Var] = {}
        shared: dict[Var, Var] = {}
        # A name the user's def does not bind, given to values of different types (`load`, the
        # temporaries nested `pl.load(...)` calls were taken out into): the compiler's, one
        # name per value. (Values of one type may share it: the versions of a carry.)
        # So are the values one user statement binds to one such name (`pl.add(pl.mul(a, b),
        # pl.mul(b, b))`: two temporaries `mul`, both read by the add).
        types: dict[str, set[Any]] = {}
        at_one: dict[tuple[str, Key], set[Var]] = {}
        for f in functions:
            for v in f.params:
                types.setdefault(user_name(v.name), set()).add(v.type)
            for s in walk_stmts(f.body):
                for v in stmt_defs(s):
                    types.setdefault(user_name(v.name), set()).add(v.type)
                    if isinstance(s, AssignStmt):
                        at_one.setdefault((user_name(v.name), _key(s)), set()).add(v)
        clash = {n for n, ts in types.items() if len(ts) > 1 and n not in bound}
        clash |= {n for (n, _), vs in at_one.items() if len(vs) > 1 and n not in bound}
        # A loop's iter arg and its result may have one name, as the user wrote them (`for _i,
        # (out,) in pl.range(2, init_values=(out,))`, `out = pl.yield_(...)`): one output name.
        result_of = {ia: rv for f in functions for s in walk_stmts(f.body)
                     if isinstance(s, ForStmt | WhileStmt)
                     for ia, rv in zip(s.iter_args, s.return_vars, strict=False)
                     if ia.name == rv.name}
        for i, f in enumerate(functions):
            mine: set[str] = set()
            for v in (*f.params, *(d for s in walk_stmts(f.body) for d in stmt_defs(s))):
                if v in first.values() or v in shared or v.name in mine and v in made:
                    continue
                if v in result_of and result_of[v] in shared:
                    shared[v] = shared[result_of[v]]
                elif v in result_of and result_of[v] in self.names:
                    self.names[v] = self.names[result_of[v]]
                elif v.name in first and v.name not in mine and i > 0 \
                        and rebinds_as_same(first[v.name].type, v.type):
                    shared[v] = first[v.name]
                elif v.name in mine or compiler_made(v.name, moves) \
                        or user_name(v.name) in clash or not _spellable(user_name(v.name)):
                    made.append(v)
                else:
                    self.names[v] = user_name(v.name)
                first.setdefault(v.name, v)
                mine.add(v.name)
        taken = taken | set(self.names.values())
        # A name the user rebinds to a value of another shape or dtype (the copies of a
        # `pl.unroll` loop loading `(i + 1) * 16` rows) cannot be so rebound in the output (pl
        # refuses it): each value of another type than the name's first gets a name of its own.
        first_type: dict[str, Type] = {}
        for v, name in list(self.names.items()):
            if not rebinds_as_same(first_type.setdefault(name, v.type), v.type):
                self.names[v] = fresh_name(name, taken)
        # An inserted move of `x` to Left is `x_Left` (`x_Left_1` where that is taken): named
        # from its value's output name, not from its compiled name (two moves may share one).
        moved = {s.var: (s.value.args[0], t.memory_space) for f in functions
                 for s in walk_stmts(f.body)
                 if isinstance(s, AssignStmt) and s.var.name in moves and isinstance(s.value, Call)
                 and s.value.args and isinstance(s.value.args[0], Var)
                 and isinstance(t := s.var.type, TileType) and t.memory_space is not None}
        # The name the user's statement binds where each value is bound (`targets`: the
        # single-name target of each user statement, by position).
        at = {d: targets[_key(s)] for f in functions for s in walk_stmts(f.body)
              if targets and _key(s) in targets for d in stmt_defs(s)}
        given: set[str] = set()
        for v in made:
            if v in moved:
                of, space = moved[v]
                assert space is not None
                base = f"{self(of)}_{space.name}"
            else:
                base = readable_base(v, taken)
            if not _spellable(base):
                base = "t"
            if at.get(v) == base and base not in given and base not in self.names.values():
                # The name its own statement binds (the text read back is this output): kept,
                # or the output would change on every run.
                self.names[v] = base
                taken.add(base)
            else:
                self.names[v] = fresh_name(base, taken)
            given.add(self.names[v])
        for v, w in shared.items():
            self.names[v] = self.names[w]

    def __call__(self, v: Var) -> str:
        return self.names.get(v) or self.dims.get(v.name) or user_name(v.name)

    def tie(self, ties: Sequence[tuple[Any, ...]], functions: Sequence[Function]) -> None:
        """Gives the values of each tie (the values of one carry the output leaves to the
        read-back, `_shown_form`) one name: the name of the first of them defined (a tie
        sharing a value with another is one with it)."""
        group: dict[Var, Var] = {}

        def root(v: Var) -> Var:
            while group.get(v, v) is not v:
                v = group[v]
            return v
        for tie in ties:
            vs = [v for v in tie if isinstance(v, Var)]
            for v in vs[1:]:
                a, b = root(vs[0]), root(v)
                if a is not b:
                    group[b] = a
        if not group:
            return
        order = {v: i for i, v in enumerate(
            v for f in functions for v in (*f.params, *(d for s in walk_stmts(f.body)
                                                        for d in stmt_defs(s))))}
        first: dict[Var, Var] = {}
        for v in sorted(group.keys() | group.values(), key=lambda v: order.get(v, len(order))):
            first.setdefault(root(v), v)
        for v in group.keys() | group.values():
            self.names[v] = self(first[root(v)])


def _key(s: Stmt) -> Key:
    return (s.span.line, s.span.col)


class _Comments(cst.CSTVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[cst.Comment] = []

    def visit_Comment(self, node: cst.Comment) -> None:
        self.found.append(node)


def _inner_comments(node: cst.BaseStatement) -> list[cst.EmptyLine]:
    """The comments written inside a statement's expressions (`y = (  # why` ..., or a loop's
    or an if's header written over several lines: `for i in pl.range(  # why`), each as a line
    of its own: the statements printed in its place do not hold them. A compound statement's
    leading lines, header comment and nested blocks are not its expressions (they are placed
    apart)."""
    found = _Comments()
    if isinstance(node, cst.SimpleStatementLine):
        for small in node.body:
            small.visit(found)
    else:
        skip = {id(line) for line in getattr(node, "leading_lines", ())}
        for child in node.children:
            if id(child) not in skip and not isinstance(child, (cst.BaseSuite, cst.If, cst.Else)):
                child.visit(found)
    return [cst.EmptyLine(comment=c) for c in found.found]


def _comment_lines(node: cst.BaseStatement) -> list[cst.EmptyLine]:
    """The leading lines of a user statement, the comments inside it, and its trailing comment,
    each as a line of its own."""
    lines = [*getattr(node, "leading_lines", ()), *_inner_comments(node)]
    trailing = node.trailing_whitespace if isinstance(node, cst.SimpleStatementLine) else \
        getattr(getattr(node, "body", None), "header", None)
    if isinstance(trailing, cst.TrailingWhitespace) and trailing.comment is not None:
        lines.append(cst.EmptyLine(comment=trailing.comment))
    return lines


def _func_attr(node: cst.BaseStatement) -> bool:
    """Whether `node` is a `pl.func_attr({...})` line (the function's attributes)."""
    return isinstance(node, cst.SimpleStatementLine) and len(node.body) == 1 and \
        isinstance(node.body[0], cst.Expr) and isinstance(node.body[0].value, cst.Call) and \
        isinstance(node.body[0].value.func, cst.Attribute) and \
        node.body[0].value.func.attr.value == "func_attr"


def _docstring(node: cst.BaseStatement) -> bool:
    return isinstance(node, cst.SimpleStatementLine) and len(node.body) == 1 and \
        isinstance(node.body[0], cst.Expr) and \
        isinstance(node.body[0].value, cst.SimpleString | cst.ConcatenatedString)


class _Lowered:
    def __init__(self, fd: cst.FunctionDef, positions: object, compiled: Function,
                 outlined: Mapping[str, tuple[Function, set[str]]], moves: set[str], indent: int,
                 root: str, names: Callable[[Var], str], methods: set[str], added: int,
                 dim_names: Mapping[int, str], region: cst.BaseStatement | None = None) -> None:
        self.fd = fd
        self.added = added
        self.dim_names = dim_names
        self.methods = methods
        self.positions = positions
        self.compiled = compiled
        self.outlined = outlined
        self.moves = moves
        self.indent = indent
        self.root = root
        self.name_of = names
        self.user: dict[Key, cst.BaseStatement] = {}   # a statement's position -> its line
        self.order: list[cst.BaseStatement] = []      # the user's statements, in file order
        self.parent: dict[int, Key | None] = {}       # a user statement -> its compound's position
        self.compound: Key | None = None
        if region is None:
            self._index(fd.body)
        else:  # only the statement shown as it compiles (`rewrite_region`)
            self.order.append(region)
            self.parent[id(region)] = None
            if isinstance(region, cst.SimpleStatementLine):
                for small in region.body:
                    k = self._pos(small)
                    if k is not None:
                        self.user.setdefault(k, region)
            else:
                self._index_compound(region)
        # The user statement -> the compiled statement that carries its comments.
        self.claimer: dict[int, int] = {}
        self.extra: dict[int, list[cst.EmptyLine]] = {}
        # A compiled statement -> the user statement whose comments it carries though it was
        # not compiled from it (`rewrite_region`'s `first_claims`).
        self.forced: dict[int, cst.BaseStatement] = {}

    def _pos(self, node: cst.CSTNode) -> Key | None:
        rng = self.positions.get(node)  # type: ignore[attr-defined]
        return None if rng is None else (rng.start.line, rng.start.column + 1)

    def _index(self, suite: cst.BaseSuite) -> None:
        if not isinstance(suite, cst.IndentedBlock):
            raise Unsupported("a one-line block")
        for stmt in suite.body:
            self.order.append(stmt)
            self.parent[id(stmt)] = self.compound
            if isinstance(stmt, cst.SimpleStatementLine):
                for small in stmt.body:
                    k = self._pos(small)
                    if k is not None:
                        self.user.setdefault(k, stmt)
                continue
            self._index_compound(stmt)

    def _index_compound(self, stmt: cst.BaseStatement | cst.If) -> None:
        k = self._pos(stmt)
        if k is not None:
            self.user.setdefault(k, stmt)
        saved, self.compound = self.compound, k
        body = getattr(stmt, "body", None)
        if isinstance(body, cst.BaseSuite):
            self._index(body)
        orelse = getattr(stmt, "orelse", None)
        if isinstance(orelse, cst.If):  # an `elif`: an if of its own
            self.parent[id(orelse)] = k
            self._index_compound(orelse)
        elif isinstance(orelse, cst.Else):
            self._index(orelse.body)
        self.compound = saved

    def _claim(self, stmts: Sequence[Stmt], parent: Key | None, late: dict[int, int]) -> None:
        """Chooses the compiled statement each user statement's comments go before: the first
        compiled from it inside the compound it was written in (a load hoisted out of its loop
        leaves the comments with the loop's statements), else the first compiled from it."""
        for s in stmts:
            user = self.user.get(_key(s))
            if user is not None:
                if self.parent.get(id(user)) == parent:
                    self.claimer.setdefault(id(user), id(s))
                else:
                    late.setdefault(id(user), id(s))
            here = _key(s) if isinstance(s, ForStmt | WhileStmt | IfStmt | ScopeStmt) else parent
            for body in child_bodies(s):
                self._claim(flatten_body(body), here, late)
    # -- where the user's comments go --------------------------------------------------------------
    def _place_comments(self, keys: set[Key]) -> list[cst.EmptyLine]:
        """Which user statements stand (something compiled from them), and the comments of those
        that do not, moved onto the next that does; returns those left for the function's end."""
        standing = {id(self.user[k]) for k in keys if k in self.user}
        pending: list[cst.EmptyLine] = []
        for node in self.order:
            if id(node) in standing:
                if pending:
                    self.extra[id(node)] = pending
                    pending = []
            elif _func_attr(node):
                pass  # kept whole, at the top of the body
            elif not _docstring(node) or node is not self.fd.body.body[0]:
                pending.extend(_comment_lines(node))
                footer = getattr(getattr(node, "body", None), "footer", ())
                pending.extend(footer)
        return pending

    # -- the body --------------------------------------------------------------------------------
    def function(self) -> cst.FunctionDef:
        stmts = flatten_body(self.compiled.body)
        keys = {_key(x) for s in stmts for x in walk_stmts(s)}
        late: dict[int, int] = {}
        self._claim(stmts, None, late)
        for user, s in late.items():
            self.claimer.setdefault(user, s)
        leftover = self._place_comments(keys)
        block = self.fd.body
        assert isinstance(block, cst.IndentedBlock)  # (`_index` refused one-line bodies)
        body: list[cst.BaseStatement] = []
        first = block.body[0] if block.body else None
        if first is not None and _docstring(first) and id(first) not in \
                {id(self.user.get(k)) for k in keys}:
            body.append(first)
        # The user's `pl.func_attr({...})` line, with its comments: the function's attributes,
        # not a statement's (those given by the decorator's `attrs=` stay there).
        body.extend(x for x in block.body if _func_attr(x))
        body.extend(self._stmts(stmts, (), 1))
        if not body:
            raise Unsupported("the compiled body is empty")
        return self._signature(self.fd.with_changes(body=block.with_changes(
            body=body, footer=[*leftover, *block.footer])))

    def _signature(self, fd: cst.FunctionDef) -> cst.FunctionDef:
        """`fd` with the parameters compilation added after the user's (a returned tile's `Out`
        tensor, `ret0__out`: the compiled body stores into it), each as the printer spells it;
        a one-line signature that grows past the printer's width is broken, one parameter a
        line, as the printer breaks one."""
        added = self.compiled.params[len(self.compiled.params) - self.added:] if self.added else ()
        if not added:
            return fd
        directions = self.compiled.directions
        ctx = self._context(set())
        new = []
        for i, v in enumerate(added, len(self.compiled.params) - len(added)):
            t = type_text(v.type, ctx)
            d = directions[i] if i < len(directions) else ParamDirection.In
            text = t if d is ParamDirection.In else f"{self.root}.{d.name}[{t}]"
            # (`star=""`: as LibCST parses a parameter: the output's tree is its parse)
            new.append(cst.Param(cst.Name(self.name_of(v)), cst.Annotation(
                cst.parse_expression(text), whitespace_before_indicator=cst.SimpleWhitespace("")),
                star=""))
        params = list(fd.params.params)
        last = params[-1]
        sep = params[-2].comma if len(params) > 1 and isinstance(params[-2].comma, cst.Comma) \
            else cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
        params[-1] = last.with_changes(comma=sep)
        params += [p.with_changes(comma=sep) for p in new[:-1]]
        params.append(new[-1].with_changes(comma=last.comma))
        fd = fd.with_changes(params=fd.params.with_changes(params=params))
        header = cst.Module([]).code_for_node(fd.with_changes(
            body=cst.IndentedBlock([cst.SimpleStatementLine([cst.Pass()])]), decorators=[],
            leading_lines=[])).split("\n")[0]
        if "\n" in cst.Module([]).code_for_node(fd.params) or \
                len(header) + self.indent * 4 <= WIDTH:
            return fd
        # (`indent=True`: after the def's own indentation.)
        inner = cst.ParenthesizedWhitespace(first_line=cst.TrailingWhitespace(), indent=True,
                                            last_line=cst.SimpleWhitespace("    "))
        closing = cst.ParenthesizedWhitespace(first_line=cst.TrailingWhitespace(), indent=True,
                                              last_line=cst.SimpleWhitespace(""))
        broken = [p.with_changes(comma=cst.Comma(whitespace_after=inner if i + 1 < len(params)
                                                 else closing))
                  for i, p in enumerate(params)]
        return fd.with_changes(params=fd.params.with_changes(params=broken),
                               whitespace_before_params=inner)

    def task(self, f: Function, decorator: str | None = None) -> cst.FunctionDef:
        """The function compilation outlined from a scope whose returned tile it stores into a
        tensor the scope creates, as a method of its own: the printer's decorator, the
        parameters named as the caller's values they stand for, its statements typed. With
        `decorator`, a module-level def of its own so decorated (no `self`)."""
        ctx = self._context(set())
        directions = (*f.directions, *[ParamDirection.In] * (len(f.params) - len(f.directions)))
        params = [*(["self"] if decorator is None else []), *(f"{self.name_of(p)}: " + (
            type_text(p.type, ctx) if d is ParamDirection.In else
            f"{self.root}.{d.name}[{type_text(p.type, ctx)}]")
            for p, d in zip(f.params, directions, strict=True))]
        returns = [type_text(t, ctx) for t in f.return_types]
        arrow = "" if not returns else " -> " + (returns[0] if len(returns) == 1 else
                                                 "tuple[" + ", ".join(returns) + "]")
        head = (decorator or decorator_text(f, self.root)) + "\n" + group_lines(
            "", f"def {f.name}(", params, f"){arrow}:", WIDTH - self.indent * 4) + "    pass\n"
        fd = cst.parse_statement(head)
        assert isinstance(fd, cst.FunctionDef)
        body = self._stmts(flatten_body(f.body), (), 1)
        return fd.with_changes(body=cst.IndentedBlock(body=body))

    def _context(self, callees: set[str]) -> PrintContext:
        return PrintContext(name_of=self.name_of, root=self.root,
                            in_program=bool(callees & self.methods),  # `self.f(...)`
                            dim_names=self.dim_names)

    def _stmts(self, stmts: Sequence[Stmt], rvs: tuple[Var, ...], depth: int
               ) -> list[cst.BaseStatement]:
        out: list[cst.BaseStatement] = []
        for s in stmts:
            out.extend(self._stmt(s, rvs, depth))
        return out

    def _printed(self, s: Stmt, rvs: tuple[Var, ...], depth: int) -> list[cst.BaseStatement]:
        indent = " " * ((self.indent + depth) * 4)
        callees = {e.op.name for root in stmt_exprs(s) for e in walk_exprs(root)
                   if isinstance(e, Call) and isinstance(e.op, GlobalVar)}
        if callees & self.methods and callees - self.methods:
            raise Unsupported(f"the statement at line {s.span.line} calls a method and a "
                              "function of the module")
        ctx = self._context(callees)
        bare: Stmt = replace(cast(Any, s), comments=())  # the user's comments are placed below
        text = statement_text(bare, ctx, indent, rvs)
        nodes: list[cst.BaseStatement] = list(cst.parse_module(reindented(text, indent, "")).body)
        if isinstance(s, AssignStmt) and isinstance(s.var.type, TupleType):
            # A tuple is printed as a list literal, which a `pl.Tuple[...]` annotation does not
            # type-check against (mypy: list is not tuple); unannotated, it reads back the same.
            nodes = [_unannotated(n) for n in nodes]
        return nodes

    def _stmt(self, s: Stmt, rvs: tuple[Var, ...], depth: int) -> list[cst.BaseStatement]:
        nodes = self._printed(s, rvs, depth)
        kind = stmt_kind(s)
        match kind:
            case ForStmt(body=body, return_vars=r) | WhileStmt(body=body, return_vars=r):
                last = nodes[-1]
                assert isinstance(last, cst.For | cst.While)
                assert isinstance(last.body, cst.IndentedBlock)
                kept = list(last.body.body[:1]) if isinstance(s, WhileStmt) and s.iter_args \
                    else []  # `pl.cond(...)`, the first line of a `pl.while_` loop
                nodes[-1] = last.with_changes(body=cst.IndentedBlock(
                    body=[*kept, *self._stmts(flatten_body(body), r, depth + 1)] or
                    [cst.SimpleStatementLine([cst.Pass()])]))
            case IfStmt(then_body=then, else_body=other, return_vars=r):
                last = nodes[-1]
                assert isinstance(last, cst.If)
                new = last.with_changes(body=self._block(then, r, depth))
                orelse = None if other is None else self._block(other, r, depth)
                if orelse is not None and not _only_pass(orelse):
                    assert isinstance(last.orelse, cst.Else)
                    new = new.with_changes(orelse=last.orelse.with_changes(body=orelse))
                elif orelse is not None:
                    new = new.with_changes(orelse=None)  # it only carried values: the user's form
                nodes[-1] = new
            case ScopeStmt(body=body):
                last = nodes[-1]
                loop = scope_loop_form(kind, PrintContext(name_of=self.name_of))
                if isinstance(last, cst.For) and loop is not None:
                    # `for i in pl.spmd(...)`, `for aiv_id in pl.split_aiv(...)`: the index
                    # binding the body starts with is the loop's variable.
                    inner = self._stmts(loop[1], rvs, depth + 1)
                elif isinstance(last, cst.With):
                    inner = self._stmts(flatten_body(body), rvs, depth + 1)
                else:
                    raise Unsupported(f"the scope at line {s.span.line} is printed otherwise "
                                      "than a with or a loop")
                nodes[-1] = last.with_changes(body=cst.IndentedBlock(
                    body=inner or [cst.SimpleStatementLine([cst.Pass()])]))
            case AssignStmt() | EvalStmt() | ReturnStmt() | YieldStmt() | SeqStmts() | BreakStmt() \
                    | ContinueStmt():
                pass  # no nested block: printed whole
            case _:
                assert_never(kind)
        return self._with_user_text(s, nodes)

    def _block(self, body: Stmt, rvs: tuple[Var, ...], depth: int) -> cst.IndentedBlock:
        """A branch of an if: its statements (`pass` for none)."""
        stmts = flatten_body(body)
        return cst.IndentedBlock(body=self._stmts(stmts, rvs, depth + 1) or
                                 [cst.SimpleStatementLine([cst.Pass()])])

    def _with_user_text(self, s: Stmt, nodes: list[cst.BaseStatement]) -> list[cst.BaseStatement]:
        """`nodes`, the statements printed for `s`, given the user's leading lines and trailing
        comment when `s` is the first statement compiled from its user statement."""
        user = self.forced.get(id(s)) or self.user.get(_key(s))
        if user is None or self.claimer.get(id(user)) != id(s) or not nodes:
            return nodes
        head = nodes[0]
        leading = [*self.extra.get(id(user), ()), *getattr(user, "leading_lines", ()),
                   *_inner_comments(user)]
        head = head.with_changes(leading_lines=leading)
        if isinstance(user, cst.SimpleStatementLine) and isinstance(head, cst.SimpleStatementLine):
            head = head.with_changes(trailing_whitespace=user.trailing_whitespace)
        elif isinstance(user, cst.SimpleStatementLine):
            if user.trailing_whitespace.comment is not None:
                head = head.with_changes(leading_lines=[
                    *leading, cst.EmptyLine(comment=user.trailing_whitespace.comment)])
        else:
            header = getattr(getattr(user, "body", None), "header", None)
            body = getattr(head, "body", None)
            if isinstance(body, cst.IndentedBlock) and isinstance(header, cst.TrailingWhitespace):
                footer = getattr(getattr(user, "body", None), "footer", ())
                head = head.with_changes(body=body.with_changes(
                    header=header, footer=[*body.footer, *footer]))
            elif isinstance(header, cst.TrailingWhitespace) and header.comment is not None:
                head = head.with_changes(leading_lines=[
                    *leading, cst.EmptyLine(comment=header.comment)])
            if isinstance(user, cst.If) and isinstance(user.orelse, cst.Else):
                head = _else_text(user.orelse, head)
        return [head, *nodes[1:]]


def rewrite_region(fd: cst.FunctionDef, user: cst.BaseStatement, positions: object,
                   compiled: Function, stmts: Sequence[Stmt], moves: set[str], indent: int,
                   depth: int, root: str, name_of: Callable[[Var], str], methods: set[str],
                   dim_names: Mapping[int, str], first_claims: bool) -> list[cst.BaseStatement]:
    """The compiled statements `stmts` that stand in the place of the user's statement `user`
    of `fd` (at `depth`: 1 for the function's body), each printed as in a function shown as it
    compiles, named by `name_of`; the rest of the function is annotated as written
    (pl/show_inferred/plan.py). `user`'s comments go as there: before the first statement
    compiled from the statement they preceded, a trailing comment onto its line; with
    `first_claims` (a simple line standing for several statements: an inline helper's call)
    onto the first of `stmts`. Raises `Unsupported` when a comment would have no statement to
    go with, or a statement cannot be printed alone (a scope, a call of a function the
    compiler made)."""
    if any(isinstance(x, ScopeStmt) for s in stmts for x in walk_stmts(s)):
        raise Unsupported(f"the statement at line {stmts[0].span.line} holds a scope")
    region = _Lowered(fd, positions, compiled, {}, moves, indent, root, name_of, methods, 0,
                      dim_names, region=user)
    keys = {_key(x) for s in stmts for x in walk_stmts(s)}
    late: dict[int, int] = {}
    if first_claims and stmts:
        region.claimer[id(user)] = id(stmts[0])
        region.forced[id(stmts[0])] = user
        keys |= {k for k, v in region.user.items() if v is user}
    region._claim(stmts, None, late)
    for node, s in late.items():
        region.claimer.setdefault(node, s)
    if region._place_comments(keys):
        raise Unsupported(f"a comment of the statement at line {stmts[0].span.line} has no "
                          "compiled statement to go with")
    out = region._stmts(stmts, (), depth)
    if not out:
        raise Unsupported("the compiled statements are none")
    return out


def _is_jit(fd: cst.FunctionDef) -> bool:
    """Whether `fd` is decorated `@pl.jit` (however `pl` is imported), with or without a call."""
    for d in fd.decorators:
        e = d.decorator.func if isinstance(d.decorator, cst.Call) else d.decorator
        if isinstance(e, cst.Attribute) and e.attr.value == "jit" or \
                isinstance(e, cst.Name) and e.value == "jit":
            return True
    return False


def _else_text(user: cst.Else, head: cst.BaseStatement) -> cst.BaseStatement:
    """`head`, printed for a user's if, given the comments of that if's `else:` line (before it,
    on it, and at the end of its block): on its own `else:`, or, printed without one (its
    branch only carried values), at the end of the if's block."""
    header = user.body.header if isinstance(user.body, cst.IndentedBlock) else None
    footer = user.body.footer if isinstance(user.body, cst.IndentedBlock) else ()
    if isinstance(head, cst.If) and isinstance(head.orelse, cst.Else) \
            and isinstance(head.orelse.body, cst.IndentedBlock) and header is not None:
        other = head.orelse.body
        return head.with_changes(orelse=head.orelse.with_changes(
            leading_lines=[*user.leading_lines, *head.orelse.leading_lines],
            body=other.with_changes(header=header, footer=[*other.footer, *footer])))
    lines = [*user.leading_lines, *footer]
    if header is not None and header.comment is not None:
        lines.insert(len(user.leading_lines), cst.EmptyLine(comment=header.comment))
    if not any(line.comment is not None for line in lines):
        return head
    body = getattr(head, "body", None)
    if isinstance(body, cst.IndentedBlock):
        return head.with_changes(body=body.with_changes(footer=[*body.footer, *lines]))
    return head.with_changes(leading_lines=[*getattr(head, "leading_lines", ()), *lines])


def _trailing_yield(body: Stmt | None) -> YieldStmt | None:
    stmts = flatten_body(body)
    return stmts[-1] if stmts and isinstance(stmts[-1], YieldStmt) else None


def _yield_kept(body: Stmt, kept: slice) -> Stmt:
    """`body` (ending in a yield) with only the `kept` values of its trailing yield (none: no
    yield, as the user's `pl.yield_()` reads back)."""
    stmts = flatten_body(body)
    last = stmts[-1]
    assert isinstance(last, YieldStmt)
    values = last.values[kept]
    return make_body([*stmts[:-1], *([replace(last, values=values)] if values else [])])


def _shown_form(s: Stmt, written: Mapping[tuple[bool, int, int], int],
                ties: list[tuple[Any, ...]]) -> Stmt:
    """`s` as the output writes it: without the carries SSA conversion added to it, which the
    read-back adds again, by name (so `ties` gets, for each carry dropped, the values that must
    share one name for it to: its start value, iter arg, yielded value and result, or an if's
    result and the value each branch yields for it). They are
    - the phis of an if, yielded where the if is written (its branches rebind a value): written
      out, they would be yields of the user's beside those the read-back adds;
    - the carries added to a loop or an if whose own yields the user wrote (`for cnt, x in
      pl.while_(init_values=(n, x0))` and its `pl.yield_`, an if's `a, b = pl.yield_(...)` in
      each branch) for a value its body rebinds (a `brk` flag): conversion appends them to the
      loop's carries and puts them before the if's own yielded values.
    `written`: how many results the user's own if (True) or loop (False) at each position has
    (an if the compiler made may stand at a loop's position: the guard of a loop's body)."""
    n = written.get((isinstance(s, IfStmt), *_key(s)), 0)
    k = stmt_kind(s)
    match k:
        case ForStmt() | WhileStmt():
            y = _trailing_yield(k.body)
            if not 0 < n < len(k.return_vars) == len(k.iter_args) or y is None \
                    or len(y.values) != len(k.return_vars):
                return s
            ties.extend(zip(k.iter_args[n:], [ia.init for ia in k.iter_args[n:]], y.values[n:],
                            k.return_vars[n:], strict=True))
            return replace(k, iter_args=k.iter_args[:n], return_vars=k.return_vars[:n],
                           body=_yield_kept(k.body, slice(0, n)))
        case IfStmt():
            then_y, else_y = _trailing_yield(k.then_body), _trailing_yield(k.else_body)
            if then_y is None or else_y is None or k.else_body is None:
                return s
            added = len(k.return_vars) - n
            if added <= 0 or not len(then_y.values) == len(else_y.values) == len(k.return_vars):
                return s
            ties.extend(zip(k.return_vars[:added], then_y.values[:added], else_y.values[:added],
                            strict=True))
            kept = slice(added, None)
            return replace(k, return_vars=k.return_vars[kept],
                           then_body=_yield_kept(k.then_body, kept),
                           else_body=_yield_kept(k.else_body, kept))
        case AssignStmt() | EvalStmt() | ReturnStmt() | YieldStmt() | SeqStmts() | ScopeStmt() \
                | BreakStmt() | ContinueStmt():
            return s
        case _:
            assert_never(k)


def reindented(text: str, old: str, new: str) -> str:
    """The printer's `text` (each line starting with `old`) with `new` in place of `old`."""
    if old == new:
        return text
    return "".join(new + line[len(old):] if line.strip() else line
                   for line in python_lines(text))


def _only_pass(block: cst.IndentedBlock) -> bool:
    return len(block.body) == 1 and isinstance(block.body[0], cst.SimpleStatementLine) and \
        isinstance(block.body[0].body[0], cst.Pass)


def _blocks(stmt: cst.BaseStatement) -> list[cst.BaseSuite]:
    out: list[cst.BaseSuite] = []
    body = getattr(stmt, "body", None)
    if isinstance(body, cst.BaseSuite):
        out.append(body)
    orelse = getattr(stmt, "orelse", None)
    if isinstance(orelse, cst.If):
        out.extend(_blocks(orelse))
    elif isinstance(orelse, cst.Else):
        out.append(orelse.body)
    return out


def _inlined(body: Stmt, outlined: Mapping[str, tuple[Function, set[str]]],
             ties: dict[Var, Var], tasks: list[Function]) -> Stmt:
    """`body` with each call of a function compilation outlined from a scope (`pl.at`'s,
    `pl.spmd`'s body) replaced by that function's statements, as the user wrote them inside the
    scope: the file compiles them into that function again. `ties` gets, for each of the
    function's parameters and returned values, the caller's Var it stands for (one name in the
    output). A call passing a tensor the scope creates for it (an `Out` the task's returned tile
    is stored into) stays, and its function goes to `tasks`: written in the scope, the create
    would be the task's own, so the task is shown as a method of its own, which the scope
    calls (a scope of calls and creates is not outlined again)."""
    def stmt(x: Stmt) -> Stmt:
        if not isinstance(x, ScopeStmt):
            return map_stmt(x, stmt)
        out: list[Stmt] = []
        items: dict[Var, tuple[Var, int]] = {}  # a tuple temporary's items: var -> (tmp, index)
        inner = flatten_body(x.body)
        for y in inner:
            if isinstance(y, AssignStmt) and isinstance(y.value, TupleGetItem) \
                    and isinstance(y.value.tuple_expr, Var):
                items[y.var] = (y.value.tuple_expr, y.value.index)
        taken: set[Var] = set()
        created = {y.var for y in inner if isinstance(y, AssignStmt)
                   and isinstance(y.value, Call) and y.value.op_name == "tensor.create"}
        for y in inner:
            call = y.value if isinstance(y, AssignStmt) else y.expr if isinstance(y, EvalStmt) \
                else None
            if not (isinstance(call, Call) and isinstance(call.op, GlobalVar)
                    and call.op.name in outlined):
                out.append(stmt(y))
                continue
            fn = outlined[call.op.name][0]
            for p, a in zip(fn.params, call.args, strict=False):
                if isinstance(a, Var):
                    ties[p] = a
            if any(a in created for a in call.args):
                tasks.append(fn)
                out.append(y)
                continue
            rets = [r for r in walk_stmts(fn.body) if isinstance(r, ReturnStmt)]
            values = rets[-1].values if rets else ()
            if isinstance(y, AssignStmt) and len(values) == 1:
                bound: list[Var | None] = [y.var]
            else:
                bound = [None] * len(values)
                for v, (tmp, i) in items.items():
                    if isinstance(y, AssignStmt) and tmp is y.var and i < len(values):
                        bound[i] = v
                        taken.add(v)
            for r, b in zip(values, bound, strict=True):
                if isinstance(r, Var) and b is not None:
                    ties[r] = b
            out.extend(stmt(z) for z in flatten_body(fn.body) if not isinstance(z, ReturnStmt))
        out = [z for z in out if not (isinstance(z, AssignStmt) and z.var in taken)]
        return replace(x, body=make_body(out))
    return stmt(body)


def rewrite_lowered(fd: cst.FunctionDef, positions: object, compiled: Function, moves: set[str],
                    indent: int, taken: set[str], root: str = "pl",
                    dims: Mapping[str, str] | None = None,
                    outlined: Mapping[str, tuple[Function, set[str]]] | None = None,
                    methods: set[str] | None = None, added: int = 0,
                    dim_names: Mapping[int, str] | None = None,
                    source: Function | None = None) -> LoweredResult:
    """The user's `fd` with its body the compiled function's statements (see the module doc).
    `taken`: the identifiers the function spells (a name made here avoids them); `methods`: the
    functions the file defines in the program's class (a call of one is `self.f(...)`);
    `added`: how many parameters compilation added after the user's (written into the
    signature); `dim_names`: the module constant each constant dim of a type is spelled by
    (`plan.shape_constants`); `source`: the function as the frontend read it (the values each
    loop and if the user gave yields of its own carries)."""
    outlined = outlined or {}
    all_moves = set(moves).union(*(m for _, m in outlined.values()))
    bound = BoundNames()
    fd.body.visit(bound)
    names = _Names([compiled, *(f for f, _ in outlined.values())], all_moves, taken, dims or {},
                   {*bound.names, *(p.name.value for p in fd.params.params)},
                   _targets(fd, positions))
    # The user's parameters keep the names the kept signature spells (even `x__ssa_v0`).
    written = [p.name.value for p in fd.params.params if p.name.value != "self"]
    for v, name in zip(compiled.params, written, strict=False):
        names.names[v] = name
    ties: dict[Var, Var] = {}
    tasks: list[Function] = []
    compiled = replace(compiled, body=_inlined(compiled.body, outlined, ties, tasks))
    for v, w in ties.items():
        names.names[v] = names(w)
    results: dict[tuple[bool, int, int], int] = {} if source is None else {
        (isinstance(x, IfStmt), *_key(x)): len(x.return_vars) for x in walk_stmts(source.body)
        if isinstance(x, ForStmt | WhileStmt | IfStmt)}
    carries: list[tuple[Any, ...]] = []

    def user_form(x: Stmt) -> Stmt:
        return _shown_form(map_stmt(x, user_form), results, carries)
    compiled = replace(compiled, body=user_form(compiled.body))
    names.tie(carries, [compiled])
    # A module-level function's tasks stand before it as module-level defs (a `@pl.jit`
    # entry's as `@pl.jit.incore` dependencies, which its module provides), called by name.
    module_level = not methods
    decorator: str | None = None
    if tasks and module_level:
        if not _is_jit(fd):
            raise Unsupported("a scope of it runs as a task that returns a tile, which "
                              "compilation stores into a tensor the scope creates, and a "
                              "module-level @pl.function has no class to show that task in")
        if any(f.func_type is not FunctionType.InCore for f in tasks):
            raise Unsupported("a scope of it runs as a task that returns a tile, and only an "
                              "InCore one can be shown as a @pl.jit.incore function")
        decorator = f"@{root}.jit.incore"
    else:
        methods = {*(methods or ()), *(f.name for f in tasks)}
    lowered = _Lowered(fd, positions, compiled, outlined, moves, indent, root, names,
                       methods or set(), added, dim_names or {})
    node = lowered.function()
    before = tuple(lowered.task(f, decorator) for f in tasks)
    if before:  # the blank lines before the def go before the first task, as many after each
        blank = list(itertools.takewhile(lambda line: line.comment is None, fd.leading_lines))
        # (as LibCST parses a blank line: at module level its indentation is the empty one)
        apart = [cst.EmptyLine(indent=True)] * 2 if module_level else [cst.EmptyLine(indent=False)]
        before = tuple(t.with_changes(leading_lines=blank if i == 0 else apart)
                       for i, t in enumerate(before))
        node = node.with_changes(leading_lines=[*apart, *fd.leading_lines[len(blank):]])
    shown: dict[str, str] = {}  # every compiled name the output spells otherwise than user_name
    for v, name in names.names.items():
        if name != user_name(v.name):
            shown.setdefault(v.name, name)
    return LoweredResult(node, shown, names, before=before)


def _unannotated(node: cst.BaseStatement) -> cst.BaseStatement:
    """`x: T = v` as `x = v` (any other statement as it is)."""
    if not isinstance(node, cst.SimpleStatementLine):
        return node
    body = [cst.Assign(targets=[cst.AssignTarget(small.target)], value=small.value)
            if isinstance(small, cst.AnnAssign) and small.value is not None else small
            for small in node.body]
    return node.with_changes(body=body)
