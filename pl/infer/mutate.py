"""Phase 3 of memory-space inference: rewrite a function body (pass.md section 4).

Guarantees: every value recorded by phase 1 is replaced by one Var/IterArg (memoised, so all
uses share it; the value itself when its type already holds its space) typed with its space, the
view refreshed for that space; a `tile.move` is inserted right before the first consumer of every
needed (producer, space) key, once per body (a SeqStmts, or a loop / branch / scope body that is
one bare statement: a move made in one body never leaks to siblings or later outer statements;
the reference inserts none into a bare body, which would leave its call reading the wrong
space); calls whose
arguments changed are rebuilt through `make_call` so result types are re-deduced; retargetable
producers get their `target_memory` rewritten or appended; the LHS type is synced to the rebuilt
call; `dump_vars`-style attrs follow the rewrite; a call of a program function is given its
arguments in the spaces of the callee's Tile parameters (`callees`), moved like an op's. A branch
whose closing yield hands an if-phi a tile in another space than the phi's (divergent branches)
moves it to the phi's space before the yield; a loop whose carry was placed in another space than its initial value starts from a move
of that value, inserted right before the loop; an alias `y = x` takes `x`'s placed type when
they agree on space, shape and dtype (its view included); a return var takes the placed type of
what it reads back from (iter arg, then-yield), so the printed program compiles to itself. The
input IR is never mutated.

In-place writes (`pl/infer/writes.py`): a move is reused only while its source's buffer is not
written - a statement writing it in place (or a loop whose body does, already before the loop)
drops the moves of every value sharing that buffer, so the next consumer gets a fresh move. An
in-place op handed a move of the argument it writes wrote a copy: a `tile.assemble` of the copy
back into the argument follows it, and when the op gives that argument back as its result
(`r = tile.write(acc, ...)`), that assemble defines `r` (phase 1 made `r` an alias of `acc`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from pl.errors import PlError
from pl.infer.common import (
    NO_CALLEES,
    Callees,
    Constraints,
    nested_calls,
    op_facts,
    top_level_call,
    var_like,
    written_result_arg,
)
from pl.infer.decisions import MoveDecision
from pl.infer.writes import InPlaceWrites, writes_of
from pl.ir.enums import DType, MemorySpace, TileLayout
from pl.ir.expr import Call, ConstInt, Expr, IterArg, MakeTuple, Var
from pl.ir.names import user_name
from pl.ir.rewriter import Rewriter, body_of, same_items
from pl.ir.span import Span
from pl.ir.stmt import (
    AssignStmt,
    EvalStmt,
    ForStmt,
    IfStmt,
    SeqStmts,
    Stmt,
    WhileStmt,
    YieldStmt,
    flatten_body,
    make_body,
)
from pl.ir.traverse import last_yield, walk_stmts
from pl.ir.types import TileType, Type, declared_valid, effective_tile_view, implicit_tile_view
from pl.ops.backend import input_layouts
from pl.ops.registry import OpDef

MoveKey = tuple[Var, MemorySpace]
MakeCall = Callable[..., Call]

_VAR_LIST_ATTRS = ("manual_dep_edges", "compiler_manual_dep_edges", "arg_direction_overrides_vars",
                   "dump_vars")


def default_make_call() -> MakeCall:
    from pl.ops.deduce import make_call

    return make_call


def retype(t: TileType, space: MemorySpace) -> TileType:
    """`t` placed in `space`; when the space changes the layout fields become the new space's."""
    if t.memory_space is space:
        return t
    old = effective_tile_view(t)
    imp = implicit_tile_view(t.shape, space)
    view = replace(old, blayout=imp.blayout, slayout=imp.slayout, fractal=imp.fractal)
    return TileType(t.shape, t.dtype, space, view, t.memref)


class Mutator(Rewriter):
    """The phase-3 rewrite: a `Rewriter` whose variables are placed (`var`), whose bodies get
    their moves (`body`), whose loops start from their carries' spaces (`init_value`) and whose
    ifs' branches hand their results one space (`merge_branches`). Loops and ifs are retyped by
    the Rewriter's one rule."""

    def __init__(self, function: str, var_memory: dict[Var, MemorySpace],
                 needed: dict[MoveKey, None], backend: str | None,
                 make_call: MakeCall | None = None, callees: Callees = NO_CALLEES,
                 writes: InPlaceWrites | None = None) -> None:
        super().__init__()
        self.function_name = function
        self.writes = writes
        self.callees = callees
        self.var_memory = var_memory
        self.needed = needed
        self.needed_vars = {v for v, _ in needed}
        self.differs: dict[tuple[int, int], tuple[TileType, TileType, bool]] = {}
        self.backend = backend
        self.make_call = make_call or default_make_call()
        self.cache: dict[Var, Var] = {}
        self.moves: dict[MoveKey, Var] = {}
        self.log: list[MoveDecision] = []
        # Buffer class -> (the if's span, its result, the tile a branch hands it a copy of): an
        # if result whose branch yields a copy of a tile code after the if can still name.
        self.copied: dict[Var, tuple[Span, str, str]] = {}

    # -- expressions -------------------------------------------------------------------------

    def var(self, v: Var) -> Var:
        """The one Var `v` becomes: typed with its space (an iter arg, its loop's `iter_args`)."""
        hit = self.cache.get(v)
        if hit is not None:
            return hit
        new = self.placed(v)
        self.cache[v] = new
        return new

    def placed(self, v: Var) -> Var:
        """`v` typed with the space phase 2 gave it (`v` itself when it has none, or is in it)."""
        space = self.var_memory.get(v)
        t = v.var_type
        if not isinstance(t, TileType) or space is None:
            return v
        placed = retype(t, space)
        if placed is t:  # already in its space: the value stays as it is
            return v
        if isinstance(v, IterArg):
            return IterArg(v.name, placed, span=v.span, init=v.init)
        return Var(v.name, placed, span=v.span)

    def map_var(self, old: Var, new: Expr) -> None:
        assert isinstance(new, Var)
        self.cache[old] = new

    def call(self, call: Call) -> Call:
        return self._call(call, *op_facts(call, self.callees))

    def _call(self, call: Call, op: OpDef | None, constraints: Constraints) -> Call:
        """`call` with its arguments rewritten (`op`, `constraints`: its `op_facts`)."""
        moves, cache = self.moves, self.cache
        new_args: list[Expr] = []
        changed = False
        for i, arg in enumerate(call.args):
            new: Expr | None
            if type(arg) is Var or type(arg) is IterArg:
                new = None
                if moves and i < len(constraints) and constraints[i]:
                    new = moves.get((arg, constraints[i][0]))
                if new is None:
                    new = cache.get(arg) or self.var(arg)
            else:
                new = self.expr(arg)
            assert new is not None
            if i < len(constraints) and constraints[i]:
                t = new.type
                if type(t) is TileType and t.memory_space is not None \
                        and t.memory_space not in constraints[i]:
                    # An operand no statement before this one could move (a tile op nested in
                    # another's arguments, a value a while's condition reads): moved where it
                    # stands.
                    target = constraints[i][0]
                    new = self._move_in_place(new, target, self._layouts(call, i, target),
                                              call.op_name, i, call.span)
            changed = changed or new is not arg
            new_args.append(new)
        attrs = self.remap_attrs(call, new_args) if call.attrs else call.attrs
        out = call
        if attrs is not call.attrs or changed:
            out = Call(call.op, tuple(new_args), call.kwargs, attrs, call.result_type,
                       span=call.span) if op is None else \
                self.make_call(call.op.name, new_args, call.kwargs, attrs=attrs, span=call.span)
        rt = out.result_type
        if op is not None and op.retargetable and type(rt) is TileType and rt.memory_space is None:
            out = _retarget(out, MemorySpace.Vec)  # a nested producer nothing placed: the default
        return out

    def _move_in_place(self, value: Expr, target: MemorySpace, kwargs: tuple[tuple[str, Any], ...],
                       consumer_op: str, arg_index: int, span: Span) -> Call:
        """`tile.move(value, target_memory=target, **kwargs)`, to stand where `value` stood (as
        argument `arg_index` of `consumer_op`), logged; it binds no name."""
        producer = value.name if isinstance(value, Var) else getattr(value, "op_name", "a value")
        self.log.append(MoveDecision(self.function_name, f"tile.move({producer})", producer, target,
                                     consumer_op, span, arg_index))
        return self._move_call(value, target, kwargs, span)

    def remap_attrs(self, call: Call, new_args: list[Expr]) -> tuple[tuple[str, Any], ...]:
        out: list[tuple[str, Any]] = []
        changed = False
        for key, value in call.attrs:
            new_value = value
            if key in _VAR_LIST_ATTRS and isinstance(value, (list, tuple)):
                items: list[Any] = []
                for entry in value:
                    if not isinstance(entry, Var):
                        items.append(entry)
                        continue
                    mapped = self.var(entry)
                    if key == "dump_vars":
                        # A value fed to several slots may now be several moves: dump them all.
                        repl: list[Expr] = []
                        for old, new in zip(call.args, new_args, strict=True):
                            if var_like(old) is entry and not any(new is r for r in repl):
                                repl.append(new)
                        if repl and not (len(repl) == 1 and repl[0] is mapped):
                            items.extend(repl)
                            continue
                    items.append(mapped)
                if not same_items(tuple(items), tuple(value)):
                    new_value = type(value)(items)
            elif key == "device" and isinstance(value, Expr):
                new_value = self.expr(value)
            if new_value is not value:
                changed = True
            out.append((key, new_value))
        return tuple(out) if changed else call.attrs

    # -- statements --------------------------------------------------------------------------

    def assign(self, s: AssignStmt) -> list[Stmt]:
        return [self._assign(s)]

    def _assign(self, stmt: AssignStmt) -> AssignStmt:
        orig = stmt.var
        lhs = self.cache.get(orig) or self.var(orig)
        if type(stmt.value) is not Call:
            value = self.expr(stmt.value)
            lhs = self._sync_alias(orig, lhs, value.type)
            return stmt if lhs is orig and value is stmt.value else \
                AssignStmt(lhs, value, span=stmt.span, comments=stmt.comments)
        op, constraints = op_facts(stmt.value, self.callees)  # the rewritten call: same op
        value = self._call(stmt.value, op, constraints)
        if op is not None and op.retargetable:
            space = self.var_memory.get(orig)
            if space is not None and value.kwarg("target_memory") is not space:
                value = _retarget(value, space)
        ct, lt = value.result_type, lhs.var_type
        if ct is not lt and type(ct) is TileType and type(lt) is TileType:
            if ct.memory_space is lt.memory_space and (ct.memref is not None or lt.memref is None):
                synced = ct  # what the rebuild below would give: skip building and comparing it
            else:
                synced = TileType(ct.shape, ct.dtype, lt.memory_space, ct.view,
                                  ct.memref if ct.memref is not None else lt.memref)
            synced = declared_valid(lt, synced) or synced  # a declared valid region stays
            if ct.memory_space is not lt.memory_space:
                value = Call(value.op, value.args, value.kwargs, value.attrs, synced, span=value.span)
            if self._differ(synced, lt):
                lhs = Var(lhs.name, synced, span=lhs.span)
                self.cache[orig] = lhs
        if lhs is stmt.var and value is stmt.value:
            return stmt
        return AssignStmt(lhs, value, span=stmt.span, comments=stmt.comments)

    def _sync_alias(self, orig: Var, lhs: Var, got: Type) -> Var:
        """`lhs` (placed `orig`) of an alias `lhs = value` whose placed value has type `got`: when
        both agree on space, shape and dtype but not on the view, the alias takes the value's type.
        An alias copies its value, so a view it had before placement (e.g. the col_major view of
        an elementwise op on a Mat tile, gone once a move feeds that op Vec; the SSA pass's
        `x_next = carry` before a `continue`) must not outlive it: the program would be ill-typed.
        The reference syncs only a call's LHS; it has no alias statements of this kind."""
        want = lhs.type
        if not isinstance(got, TileType) or not isinstance(want, TileType) or got == want \
                or (got.memory_space, got.shape, got.dtype) != (want.memory_space, want.shape,
                                                               want.dtype):
            return lhs
        memref = got.memref if got.memref is not None else want.memref
        synced = Var(lhs.name, TileType(got.shape, got.dtype, got.memory_space, got.view, memref),
                     span=lhs.span)
        self.cache[orig] = synced
        return synced

    def _differ(self, a: TileType, b: TileType) -> bool:
        """`a != b`, remembered per pair of type objects: a body repeats the same few pairs, and
        comparing tile types walks their shapes and views. The entry keeps both objects alive, so
        their ids cannot be reused for other types while this Mutator lives."""
        key = (id(a), id(b))
        hit = self.differs.get(key)
        if hit is None:
            hit = self.differs[key] = (a, b, a != b)
        return hit[2]

    def init_value(self, ia: IterArg, position: int, before: list[Stmt]) -> Expr:
        """The initial value of `ia`: a carry that back-propagation placed where its initial
        value's producer cannot go (see `analyze`) starts from a copy of that value in the
        carry's space, made right before the loop (or where the value stands, a tile op written
        in init_values)."""
        init = self.expr(ia.init)
        t, it = self.placed(ia).type, init.type
        if isinstance(t, TileType) and t.memory_space is not None and isinstance(it, TileType) \
                and it.memory_space not in (None, t.memory_space):
            if isinstance(init, Var):
                move = self._move(init, t.memory_space, (), "init_values", position, ia.span)
                before.append(move)
                return move.var
            return self._move_in_place(init, t.memory_space, (), "init_values", position, ia.span)
        return init

    def branches_start(self, s: IfStmt) -> None:
        if self.writes is not None:
            # A write in the condition is made before either branch runs: a move taken before
            # it is stale there.
            self._forget(self._own_writes(s))

    def merge_branches(self, s: IfStmt, then_body: Stmt,
                       else_body: Stmt | None) -> tuple[Stmt, Stmt | None]:
        """Only the phis whose branches yield different spaces are reconciled: a phi retyped by a
        loop's back-propagation keeps its branches as they are (pass.md)."""
        divergent = _divergent(then_body, else_body)
        if not divergent:
            return then_body, else_body
        then_body = self._reconcile(then_body, s.return_vars, divergent)
        else_body = None if else_body is None else \
            self._reconcile(else_body, s.return_vars, divergent)
        if self.writes is not None:
            self._copied_merges(s, divergent)
        return then_body, else_body

    def _copied_merges(self, s: IfStmt, divergent: set[int]) -> None:
        """Record (`self.copied`) each divergent result of `s` whose reconciling move copies a
        tile that is still named after the if: the yielded value itself, or the tile it aliases
        or views, defined before the if. After the move, the result and that tile are two
        buffers where the source has one, so an in-place write into either after the if would
        not reach the other (`_refuse_copied_write`). A tile made in the branch is not named
        after it: its copy is all that is left of it."""
        writes = self.writes
        assert writes is not None
        for branch in (s.then_body, s.else_body):
            y = last_yield(branch)
            if y is None:
                continue
            local = {id(st.var): st.value for st in walk_stmts(branch)
                     if isinstance(st, AssignStmt)}
            for i in divergent:
                phi = s.return_vars[i] if i < len(s.return_vars) else None
                value = y.values[i] if i < len(y.values) else None
                space = self.var_memory.get(phi) if phi is not None else None
                if phi is None or not isinstance(value, Var) or space is None:
                    continue
                t = self.var(value).type
                if not isinstance(t, TileType) or t.memory_space in (None, space):
                    continue  # this branch hands the result its own tile
                outer = _named_outside(value, local)
                if outer is not None:
                    self.copied[writes.root(phi)] = (s.span, user_name(phi.name),
                                                    user_name(outer.name))

    def _refuse_copied_write(self, written: frozenset[Var], at: Stmt) -> None:
        """A located error when `at` writes in place (`written`: its buffer classes) a tile an
        earlier if result was reconciled from by a copy (`self.copied`)."""
        for root in written:
            hit = self.copied.get(root)
            if hit is None:
                continue
            span, result, tile = hit
            raise PlError(
                f"this writes in place a tile that shares its buffer with '{result}', the result "
                f"of the if at line {span.line}, whose branches give it tiles in different memory "
                f"spaces: compiling makes '{result}' a copy of '{tile}' in one space, so the "
                f"write would not reach both as it does in the source", at.span,
                hint=f"write '{tile}' before the if, or merge a copy the code names "
                     "(a computed tile) so that no write is meant to reach both")

    def _reconcile(self, body: Stmt, phis: tuple[Var, ...], divergent: set[int]) -> Stmt:
        """A branch body whose closing yield gives a phi a tile in another space than the phi's
        (divergent branches, see `analyze`) moves that tile to the phi's space right before the
        yield: both branches then hand the phi the same space, so the program is consistent and
        computes what it did (a move copies)."""
        stmts = flatten_body(body)
        y = stmts[-1] if stmts else None
        if not isinstance(y, YieldStmt):
            return body
        moves: list[Stmt] = []
        values = list(y.values)
        for i, (phi, value) in enumerate(zip(phis, y.values, strict=False)):
            if i not in divergent:
                continue
            space = self.var_memory.get(phi)
            t = value.type
            if space is None or not isinstance(value, Var) or not isinstance(t, TileType) \
                    or t.memory_space in (None, space):
                continue
            move = self._move(value, space, (), "pl.yield_", i, y.span)
            moves.append(move)
            values[i] = move.var
        if not moves:
            return body
        new = make_body([*stmts[:-1], *moves, replace(y, values=tuple(values))])
        return replace(new, span=body.span) if isinstance(new, SeqStmts) else new

    def _move(self, producer: Var, target: MemorySpace, kwargs: tuple[tuple[str, Any], ...],
              consumer_op: str, arg_index: int, span: Span) -> AssignStmt:
        """`<producer>_<target> = tile.move(producer, target_memory=target, **kwargs)`, logged.
        `producer` is the placed value; an Acc tile moved to Vec is always row_major/none_box."""
        move = self._move_call(producer, target, kwargs, span)
        moved = Var(f"{producer.name}_{target.name}", move.type, span=span)
        self.cache[moved] = moved
        self.log.append(MoveDecision(self.function_name, moved.name, producer.name, target,
                                     consumer_op, span, arg_index))
        return AssignStmt(moved, move, span=span, comments=())

    def _move_call(self, producer: Expr, target: MemorySpace, kwargs: tuple[tuple[str, Any], ...],
                   span: Span) -> Call:
        """`tile.move(producer, target_memory=target, **kwargs)`, typed in `target`; an Acc tile
        moved to Vec is always row_major/none_box."""
        args: dict[str, Any] = {"target_memory": target, **dict(kwargs)}
        t = producer.type
        if isinstance(t, TileType) and t.memory_space is MemorySpace.Acc \
                and target is MemorySpace.Vec:
            args["blayout"] = TileLayout.row_major
            args["slayout"] = TileLayout.none_box
        move = self.make_call("tile.move", [producer], list(args.items()), span=span)
        mt = move.type
        assert isinstance(mt, TileType)
        if mt.memory_space is not target:
            move = replace(move, result_type=TileType(mt.shape, mt.dtype, target, mt.view, mt.memref))
        return move

    def _layouts(self, call: Call, i: int, target: MemorySpace) -> tuple[tuple[str, Any], ...]:
        """The layout keywords a move feeding argument `i` of `call` carries for the backend."""
        layouts = input_layouts(self.backend, call.op_name)
        if i not in layouts:
            return ()
        kwargs: tuple[tuple[str, Any], ...] = (("blayout", layouts[i]),)
        if target is MemorySpace.Vec:
            kwargs += (("slayout", TileLayout.none_box),)
        return kwargs

    def body(self, s: Stmt) -> Stmt:
        """A body (a SeqStmts, or one bare statement) with its moves: its own move scope."""
        stmts = flatten_body(s)
        opened: list[MoveKey] = []
        out: list[Stmt] = []
        needed, writes = self.needed, self.writes
        for child in stmts:
            written = writes.written(child) if writes is not None else frozenset()
            if written and self.copied:
                self._refuse_copied_write(written, child)
            if written and isinstance(child, (ForStmt, WhileStmt)):
                # A later trip reads what this one wrote: a move taken before the loop is stale.
                self._forget(written)
            if needed or written:
                moves = self.moves_for(child, opened)
                if moves:
                    out.extend(moves)
            if written:
                nested = self._nested_write_backs(child)
                done = self._written(child)
                if nested:
                    done = self._after_header(done, nested, child)
                out.extend(done)
                self._forget(written)
                if self.copied and isinstance(child, (ForStmt, WhileStmt)):
                    self._refuse_copied_write(written, child)  # a later trip writes it
            else:
                out.extend(self.stmt(child))
        for key in opened:
            self.moves.pop(key, None)  # (gone already when a write made it stale)
        return body_of(s, out)

    def _forget(self, written: frozenset[Var]) -> None:
        """Drop the moves of every value in the buffer classes `written`: they copied the
        buffer before the write, so a later consumer gets a fresh move."""
        writes = self.writes
        assert writes is not None
        for key in [k for k in self.moves if writes.same_buffer(k[0], written)]:
            del self.moves[key]

    def _write_backs(self, consumer: Stmt) -> dict[int, Call]:
        """An in-place op (`OpDef.inplace_args`) that wrote a move of its argument (the slot
        takes another space) wrote a copy: per such argument, the `tile.assemble` of the copy
        back into the argument's buffer, to stand right after the op, so that every later reader
        of that buffer (the argument, its aliases and views, a later trip of a loop) reads the
        written value, as in the source."""
        call = top_level_call(consumer)
        if call is None:
            return {}
        op, constraints = op_facts(call, self.callees)
        out: dict[int, Call] = {}
        for i in op.inplace_args if op is not None else ():
            v = call.args[i] if i < len(call.args) and i < len(constraints) else None
            if not isinstance(v, Var) or not constraints[i]:
                continue
            copy = self.moves.get((v, constraints[i][0]))
            if copy is not None:
                out[i] = self._assemble(v, copy, consumer.span)
        return out

    def _nested_write_backs(self, consumer: Stmt) -> list[Call]:
        """The write-backs of the in-place ops nested in `consumer`'s expressions (a tuple, an
        if's condition, ...: `nested_calls`) that were handed a move of the argument they write,
        taken right before `consumer`. Such an op wrote a copy; where no write-back can follow it
        (a loop's header, a while's condition, a return or yield, an operand moved where it
        stands) the write is a located error rather than a copy no later read sees."""
        out: list[Call] = []
        for call in nested_calls(consumer):
            op, constraints = op_facts(call, self.callees)
            for i in op.inplace_args if op is not None else ():
                v = call.args[i] if i < len(call.args) and i < len(constraints) else None
                if not isinstance(v, Var) or not constraints[i]:
                    continue
                placed = self.var(v).type
                if not isinstance(placed, TileType) or placed.memory_space in constraints[i]:
                    continue
                copy = self.moves.get((v, constraints[i][0]))
                if copy is None or not isinstance(consumer, (AssignStmt, EvalStmt, IfStmt)):
                    name = user_name(v.name)
                    raise PlError(
                        f"{call.op_name} writes '{name}' in place here, but '{name}' is in "
                        f"{placed.memory_space.name if placed.memory_space else 'no space'} "
                        f"and the op takes {constraints[i][0].name}: the write would reach a "
                        f"copy, which no later read of '{name}' sees",
                        call.span if call.span is not None else consumer.span,
                        hint="write it in a statement of its own, before the loop or the "
                             f"statement (`{name} = pl.{call.op_name}(...)`)")
                out.append(self._assemble(v, copy, consumer.span))
        return out

    def _own_writes(self, s: Stmt) -> frozenset[Var]:
        """The buffer classes the calls `s` evaluates itself (not its bodies) write in place."""
        writes = self.writes
        assert writes is not None
        return frozenset(writes.root(v) for call in nested_calls(s)
                         for i in writes_of(call, writes.callees)
                         if i < len(call.args) and isinstance((v := call.args[i]), Var)
                         and isinstance(v.type, TileType))

    def _after_header(self, done: list[Stmt], backs: list[Call], consumer: Stmt) -> list[Stmt]:
        """`done` (the rewritten `consumer`) followed by `backs`, the write-backs of the in-place
        ops nested in its expressions: right after an assignment or evaluation, at the head of
        both branches of an if (its condition is evaluated before either)."""
        evals: list[Stmt] = [EvalStmt(b, span=consumer.span) for b in backs]
        if not isinstance(consumer, IfStmt):
            return [*done, *evals]
        *before, rewritten = done
        assert isinstance(rewritten, IfStmt)
        then_body = make_body([*evals, *flatten_body(rewritten.then_body)])
        else_body = make_body([*evals, *flatten_body(rewritten.else_body)]) \
            if rewritten.else_body is not None else make_body(evals)
        return [*before, replace(rewritten, then_body=then_body, else_body=else_body)]

    def _assemble(self, v: Var, written: Var, span: Span) -> Call:
        """`tile.assemble(<placed v>, written, [0, ...])`: `written` copied back into `v`."""
        rank = len(written.type.shape) if isinstance(written.type, TileType) else 0
        zeros = MakeTuple(tuple(ConstInt(0, DType.INDEX, span=span) for _ in range(rank)),
                          span=span)
        return self.make_call("tile.assemble", [self.var(v), written, zeros], [], span=span)

    def _written(self, child: Stmt) -> list[Stmt]:
        """`child` (an in-place op) rewritten, followed by its write-backs. When the op gives the
        argument it wrote as its result (`written_result_arg`: `r = pl.write(acc, ...)`), `r`
        is the argument's buffer once written back, the value analysis gave it (an alias of the
        argument): the op's own result (the written copy, typed by the op: fillpad_inplace's is
        valid everywhere) takes the copy's name, and its write-back defines `r`."""
        backs = self._write_backs(child)
        if not backs:
            return self.stmt(child)
        call = top_level_call(child)
        assert call is not None
        op, constraints = op_facts(call, self.callees)
        result = written_result_arg(call, op) if isinstance(child, AssignStmt) else None
        if not isinstance(child, AssignStmt) or result not in backs:
            return [*self.stmt(child), *(EvalStmt(b, span=child.span) for b in backs.values())]
        assert result is not None
        done = self._call(call, op, constraints)
        copy = backs[result].args[1]
        assert isinstance(copy, Var)
        written = Var(f"{copy.name}_written", done.type, span=child.span)
        self.cache[written] = written
        back = self._assemble(call.args[result], written, child.span)  # type: ignore[arg-type]
        r = self.cache[child.var] = Var(child.var.name, back.type, span=child.var.span)
        return [AssignStmt(written, done, span=child.span),
                AssignStmt(r, back, span=child.span, comments=child.comments),
                *(EvalStmt(b, span=child.span) for i, b in backs.items() if i != result)]

    def moves_for(self, consumer: Stmt, opened: list[MoveKey]) -> Sequence[Stmt]:
        """The moves to insert right before `consumer`: for the operands of its top-level call,
        then of the calls nested in its expressions (`nested_calls`; a while's condition
        excepted, whose operands are moved in place)."""
        out: list[Stmt] = []
        call = top_level_call(consumer)
        if call is not None and (not self.needed_vars.isdisjoint(call.args) or _writes(call)):
            self._moves_before(call, consumer, opened, out)
        for nested in nested_calls(consumer, condition=False):
            if not self.needed_vars.isdisjoint(nested.args) or _writes(nested):
                self._moves_before(nested, consumer, opened, out)
        return out

    def _moves_before(self, call: Call, consumer: Stmt, opened: list[MoveKey],
                      out: list[Stmt]) -> None:
        op, constraints = op_facts(call, self.callees)
        for i, allowed in enumerate(constraints[: len(call.args)]):
            v = call.args[i]
            if not allowed or not isinstance(v, Var):  # a Var or an IterArg (see collect_moves)
                continue
            key = (v, allowed[0])
            if key in self.moves:
                continue
            if key not in self.needed:
                # An argument the op writes in place that phase 2 saw in an allowed space but
                # that is placed in another (an alias of a value re-placed later): a move named
                # here, so the write-back after the op finds the copy it wrote.
                t = self.var(v).type
                if op is None or i not in op.inplace_args or not isinstance(t, TileType) \
                        or t.memory_space in (None, *allowed):
                    continue
            target = allowed[0]
            target = allowed[0]
            move = self._move(self.var(v), target, self._layouts(call, i, target), call.op_name, i,
                              consumer.span)
            self.moves[key] = move.var
            opened.append(key)
            out.append(move)


def _writes(call: Call) -> bool:
    """`call` is of an op that writes an argument in place."""
    op = op_facts(call)[0]
    return op is not None and bool(op.inplace_args)


def _named_outside(value: Var, local: dict[int, Expr]) -> Var | None:
    """The tile defined outside a branch that `value`, a tile the branch yields, shares its
    buffer with (`local`: the branch's definitions): through aliases, views and in-place results
    made in the branch; None when the branch made it."""
    e: Expr = value
    while True:
        if isinstance(e, Var) and id(e) not in local:
            return e
        if isinstance(e, Var):
            e = local[id(e)]
            continue
        if isinstance(e, Call) and e.args:
            op = op_facts(e)[0]
            if op is not None and op.is_buffer_view:
                e = e.args[0]
                continue
            if op is not None and op.inplace_args and op.inplace_args[0] < len(e.args):
                e = e.args[op.inplace_args[0]]
                continue
        return None


def _retarget(call: Call, space: MemorySpace) -> Call:
    """Rewrite (or append) `target_memory` and give the result the space's implicit view."""
    if any(k == "target_memory" for k, _ in call.kwargs):
        kwargs = tuple((k, space if k == "target_memory" else v) for k, v in call.kwargs)
    else:
        kwargs = call.kwargs + (("target_memory", space),)
    t = call.type
    new_type = TileType(t.shape, t.dtype, space, None, t.memref) if isinstance(t, TileType) else t
    return replace(call, kwargs=kwargs, result_type=new_type)


def _divergent(then_body: Stmt, else_body: Stmt | None) -> set[int]:
    """The positions at which the two branches' closing yields hand an if's phis tiles in
    different memory spaces."""
    if else_body is None:
        return set()
    ends = [flatten_body(b) for b in (then_body, else_body)]
    ys = [e[-1] if e and isinstance(e[-1], YieldStmt) else None for e in ends]
    if ys[0] is None or ys[1] is None:
        return set()
    out: set[int] = set()
    for i, (a, b) in enumerate(zip(ys[0].values, ys[1].values, strict=False)):
        ta, tb = a.type, b.type
        if isinstance(ta, TileType) and isinstance(tb, TileType) and ta.memory_space is not None \
                and tb.memory_space is not None and ta.memory_space is not tb.memory_space:
            out.add(i)
    return out
