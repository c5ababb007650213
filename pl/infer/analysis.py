"""Phases 1 and 2 of memory-space inference: forward analysis and move collection.

Guarantees: `analyze(body, demands, params)` visits a function body in program order and returns
the `var_memory` map of pass.md section 2 (only values the reference records get an entry, and a
while loop's carries, placed as a for loop's are: the reference records none) together
with the reason and defining span of every tile value, recorded or not. Tile parameters come first:
each is recorded in the space its type names (Vec when it names none) and is never re-placed, so a
consumer that needs another space reads a move of it (docs/tile_params.md).
`collect_moves(body, var_memory)` returns the global set of (producer var, target space) keys of
section 3, in first-need order.
Nothing is mutated; keys are Var objects (identity).

An alias `y = x` (x a Var or, unlike the reference, an IterArg) and its source are one value: they
form an alias group that always has one space, as does an if-phi whose two branches yield members
of one group. A space recorded for any member later on (loop back-propagation re-placing an iter
arg or its initial value) is recorded for every member. The reference records `y` once, from `x`'s
space at that point, and leaves an IterArg's alias unrecorded (pass.md 2, AssignStmt): when the
source is re-placed afterwards, its output assigns a tile of one space to a variable of another,
and a phi of an iter arg keeps the space the carry had before it was re-placed.

A tile bound to allocated memory (its type has a MemRef: IR printed after memory allocation) is
never re-placed: its space is the allocation's (docs/memory_allocation.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from typing_extensions import assert_never

from pl.infer import decisions as d
from pl.infer.common import (
    NO_CALLEES,
    Callees,
    CallSite,
    Constraints,
    call_sites,
    nested_calls,
    op_facts,
    var_like,
    var_only,
    written_result_arg,
)
from pl.infer.demand import Demand
from pl.ir.enums import MemorySpace
from pl.ir.expr import (
    MAT_BRIDGE_ATTR,
    BinaryExpr,
    Call,
    ConstBool,
    ConstFloat,
    ConstInt,
    Expr,
    IterArg,
    MakeTuple,
    Op,
    TupleGetItem,
    UnaryExpr,
    Var,
    expr_kind,
)
from pl.ir.span import Span
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
    stmt_kind,
)
from pl.ir.traverse import last_yield, walk_stmts
from pl.ir.types import TileType, UnknownType
from pl.ops.registry import OpDef, get_op

# Retargetable producers that read GM: their `target_memory` is Vec or Mat only (ops.md, tile.load),
# so a loop's back-propagation never re-places them further (the loop starts from a move).
DDR_FACING = frozenset({"tile.load"})


@dataclass
class Analysis:
    """Result of phase 1. `order` lists every tile value once, in definition order."""

    var_memory: dict[Var, MemorySpace] = field(default_factory=dict)
    reasons: dict[Var, d.Reason] = field(default_factory=dict)
    spans: dict[Var, Span] = field(default_factory=dict)
    order: list[Var] = field(default_factory=list)
    # Alias groups (see the module docstring): a member maps to the list of its group's members,
    # one list object shared by the whole group.
    groups: dict[Var, list[Var]] = field(default_factory=dict)
    # The spaces back-propagation may re-place a value into, for values it may not re-place into
    # any: none for a call whose op cannot be retargeted and a loop's return var (its loop places
    # it with the carry); Vec and Mat for a load (`DDR_FACING`).
    reach: dict[Var, tuple[MemorySpace, ...]] = field(default_factory=dict)

    def define(self, var: Var, span: Span) -> None:
        if isinstance(var.var_type, TileType) and var not in self.spans:
            self.spans[var] = span
            self.order.append(var)

    def record(self, var: Var, space: MemorySpace, reason: d.Reason) -> None:
        """`var` and every member of its alias group are in `space`."""
        for member in self.groups.get(var) or (var,):
            self.var_memory[member] = space
            self.reasons[member] = reason

    def alias(self, alias: Var, source: Var, space: MemorySpace | None) -> None:
        """`alias` (new, so in no group yet) is `source` again: it joins `source`'s group and
        takes `space` (`source`'s, when it has one) with the reason `alias`."""
        group = self.groups.get(source)
        if group is None:
            group = self.groups[source] = [source]
        group.append(alias)
        self.groups[alias] = group
        if space is not None:
            self.var_memory[alias] = space
            self.reasons[alias] = d.Reason(d.ALIAS, var=source.name)

    def replaceable(self, var: Var, space: MemorySpace) -> bool:
        """Whether loop back-propagation may re-place `var`'s alias group into `space`: its root
        (the value the group aliases) reaches `space` and is no iter arg (which its own loop
        places)."""
        root = self.groups[var][0] if var in self.groups else var
        return space in self.reach.get(root, (space,)) and not isinstance(root, IterArg)

    def same_value(self, a: Var, b: Var) -> bool:
        """Whether `a` and `b` are one value (the same Var or members of one alias group)."""
        return a is b or (a in self.groups and self.groups[a] is self.groups.get(b))


class _Analyzer:
    def __init__(self, demands: dict[Var, Demand]) -> None:
        self.demands = demands
        self.out = Analysis()
        # The reasons that name only an op (fixed output, explicit kwarg, ...), one object per
        # (kind, op) for this run: a body repeats a few ops, and a Reason is a frozen value.
        self.op_reasons: dict[tuple[str, str], d.Reason] = {}

    def op_reason(self, kind: str, op: str) -> d.Reason:
        """`Reason(kind, op=op)`."""
        reason = self.op_reasons.get((kind, op))
        if reason is None:
            reason = self.op_reasons[(kind, op)] = d.Reason(kind, op=op)
        return reason

    def params(self, params: Sequence[Var]) -> None:
        """A Tile parameter is a value fixed in the space its type names, or in Vec when it names
        none (docs/tile_params.md): recorded first, never re-placed by a loop's
        back-propagation (`reach` empty), so a consumer needing another space gets a move."""
        for p in params:
            t = p.type
            if not isinstance(t, TileType):
                continue
            self.out.define(p, p.span)
            self.out.reach[p] = ()
            if t.memory_space is not None:
                self.out.record(p, t.memory_space, d.Reason(d.PARAMETER, var=p.name))
            else:
                self.out.record(p, MemorySpace.Vec, d.Reason(d.PARAMETER_DEFAULT, var=p.name))

    def inherit(self, call: Call) -> tuple[MemorySpace, d.Reason]:
        for arg in call.args:
            v = var_like(arg)
            if v is not None and v in self.out.var_memory:
                return self.out.var_memory[v], d.Reason(d.INHERITED, op=call.op_name, var=v.name)
        return MemorySpace.Vec, d.Reason(d.DEFAULT)

    def infer_from_op(self, lhs: Var, call: Call, op: OpDef | None) -> tuple[MemorySpace, d.Reason]:
        """The space of `lhs = call` (`op`: the call's registered op, None when there is none)."""
        if op is None:
            return MemorySpace.Vec, d.Reason(d.DEFAULT)
        out = op.output_memory
        if not op.has_memory_spec or not out.has_resolver:
            # An op without a result rule (a cross-core pop) is typed by its annotation: the
            # reference's parser stores that type on the call, ours on the variable.
            t = call.type if not isinstance(call.type, UnknownType) else lhs.type
            if isinstance(t, TileType) and t.memory_space not in (None, MemorySpace.DDR):
                assert t.memory_space is not None
                return t.memory_space, self.op_reason(d.CALL_RESULT, op.name)
            return MemorySpace.Vec, d.Reason(d.DEFAULT)
        if out.kind == "fixed" and out.space is not None:
            return out.space, self.op_reason(d.FIXED_OUTPUT, op.name)
        kwargs = dict(call.kwargs)
        resolved = out.resolve(kwargs)
        if resolved is not None:
            if call.attr(MAT_BRIDGE_ATTR) is True:
                return resolved, self.op_reason(d.COMPILER_LOAD, op.name)
            if out.kind == "kwarg" and isinstance(kwargs.get("target_memory"), MemorySpace):
                return resolved, self.op_reason(d.EXPLICIT_KWARG, op.name)
            return resolved, self.op_reason(d.FIXED_OUTPUT, op.name)
        if op.inherits_input:
            return self.inherit(call)
        if op.retargetable:
            dem = self.demands.get(lhs)
            # A DDR-facing producer stops at Vec/Mat; phase 2 moves it on to Left/Right/Acc/Bias.
            if dem is not None and dem.space in (MemorySpace.Vec, MemorySpace.Mat):
                return dem.space, d.Reason(d.DEMAND, op=dem.op, arg_index=dem.arg_index)
        return self.inherit(call)

    def assign(self, stmt: AssignStmt) -> None:
        lhs = stmt.var
        if not isinstance(lhs.var_type, TileType):
            return
        self.out.define(lhs, stmt.span)
        value = expr_kind(stmt.value)
        match value:
            case Call():
                op = op_facts(value)[0]
                i = written_result_arg(value, op)
                written = value.args[i] if i is not None else None
                if isinstance(written, Var) and written in self.out.var_memory:
                    # An in-place op gives back the buffer it wrote: its result is that value
                    # again, in its space, also when the op is handed a move of it (phase 3
                    # writes the move back; the result is the written-back tile).
                    self.out.alias(lhs, written, self.out.var_memory[written])
                    return
                if op is None or not op.retargetable:
                    self.out.reach[lhs] = ()
                elif op.name in DDR_FACING:
                    self.out.reach[lhs] = (MemorySpace.Vec, MemorySpace.Mat)
                if isinstance(value.op, Op) and value.op.name.startswith("tile."):
                    space, reason = self.infer_from_op(lhs, value, op)
                    if lhs.var_type.memref is not None:
                        # Bound to allocated memory (IR after memory allocation): back-propagation
                        # never re-places it; a carry that must live elsewhere starts from a move.
                        self.out.reach[lhs] = ()
                    self.out.record(lhs, space, reason)
                else:
                    self.out.record(lhs, MemorySpace.Vec, self.op_reason(d.DEFAULT, value.op_name))
            case Var():  # a Var or an IterArg (IterArg is a Var subclass)
                if not isinstance(value.type, TileType):
                    return
                self.out.alias(lhs, value, self.out.var_memory.get(value))
            case ConstInt() | ConstFloat() | ConstBool() | BinaryExpr() | UnaryExpr() | MakeTuple() \
                    | TupleGetItem():
                pass  # not a tile's producer: nothing to infer from
            case _:
                assert_never(value)

    def space_of_value(self, e: Expr, *, like: bool) -> MemorySpace | None:
        """Recorded space of a yielded value, else its annotated space."""
        v = var_like(e) if like else var_only(e)
        if v is None:
            return None
        if v in self.out.var_memory:
            return self.out.var_memory[v]
        t = v.type
        return t.memory_space if isinstance(t, TileType) else None

    def for_stmt(self, stmt: ForStmt | WhileStmt) -> None:
        for ia in stmt.iter_args:
            if not isinstance(ia.type, TileType):
                continue
            self.out.define(ia, stmt.span)
            init = var_like(ia.init)
            if init is not None and init in self.out.var_memory:
                self.out.record(ia, self.out.var_memory[init], d.Reason(d.ALIAS, var=init.name))
            elif isinstance(ia.init.type, TileType) and ia.init.type.memory_space is not None:
                name = init.name if init is not None else ""
                self.out.record(ia, ia.init.type.memory_space, d.Reason(d.ANNOTATION, var=name))
        self.visit(stmt.body)
        for rv in stmt.return_vars:
            self.out.define(rv, stmt.span)
            self.out.reach[rv] = ()  # placed with its loop's carry, never on its own
        y = last_yield(stmt.body)
        if not stmt.return_vars or y is None:
            return
        for i, rv in enumerate(stmt.return_vars):
            if not isinstance(rv.type, TileType) or i >= len(y.values):
                continue
            yv = var_only(y.values[i])
            space = self.space_of_value(y.values[i], like=False)
            if yv is None or space is None:
                continue
            reason = d.Reason(d.LOOP_BACKPROP, var=yv.name)
            self.out.record(rv, space, reason)
            if i < len(stmt.iter_args):
                ia = stmt.iter_args[i]
                self.out.record(ia, space, reason)
                init = var_only(ia.init)
                # An initial value whose producer cannot make `space` (the reference re-places it
                # anyway, leaving e.g. a tile.sub or tile.load typed Acc) stays: phase 3 moves it
                # to the carry's space before the loop (`Mutator.init_value`).
                if init is not None and isinstance(init.type, TileType) \
                        and self.out.replaceable(init, space):
                    self.out.record(init, space, reason)

    def if_stmt(self, stmt: IfStmt) -> None:
        self.visit(stmt.then_body)
        self.visit(stmt.else_body)
        then_y, else_y = last_yield(stmt.then_body), last_yield(stmt.else_body)
        for i, rv in enumerate(stmt.return_vars):
            if not isinstance(rv.type, TileType):
                continue
            self.out.define(rv, stmt.span)
            sides: list[tuple[MemorySpace | None, Expr | None]] = []
            for y in (then_y, else_y):
                if y is not None and i < len(y.values):
                    sides.append((self.space_of_value(y.values[i], like=True), y.values[i]))
                else:
                    sides.append((None, None))
            (ts, tv), (es, ev) = sides
            if ts is not None and es is not None and ts is not es:
                # Divergent branches: the phi stays unrecorded, its branches disagreeing, as in
                # the reference (pass.md, IfStmt) - unless its consumer cannot read one of the
                # two spaces. Then the phi takes the space that consumer demands, and phase 3
                # moves each diverging yield there (`Mutator.merge_branches`), instead of leaving the
                # consumer reading a space its op refuses.
                dem = self.demands.get(rv)
                if dem is not None and not _accepts(dem, ts, es):
                    self.out.record(rv, dem.space, d.Reason(d.DEMAND, op=dem.op,
                                                            arg_index=dem.arg_index))
                continue
            if ts is not None and isinstance(tv, Var) and isinstance(ev, Var) \
                    and self.out.same_value(tv, ev):
                # Both branches give one value (an iter arg and its `continue` copy, say): the
                # phi is one more alias of it, re-placed with it by a loop's back-propagation.
                self.out.alias(rv, tv, ts)
            elif ts is not None and isinstance(tv, Var):
                self.out.record(rv, ts, d.Reason(d.ALIAS, var=tv.name))
            elif es is not None and isinstance(ev, Var):
                self.out.record(rv, es, d.Reason(d.ALIAS, var=ev.name))
            elif rv.type.memory_space is not None:
                self.out.record(rv, rv.type.memory_space, d.Reason(d.ANNOTATION, var=rv.name))

    def visit(self, s: Stmt | None) -> None:
        if s is None:
            return
        stmt = stmt_kind(s)
        match stmt:
            case AssignStmt():
                self.assign(stmt)
            case SeqStmts():
                for child in stmt.stmts:
                    self.visit(child)
            case ForStmt() | WhileStmt():  # a while's carries merge as a for's do
                self.for_stmt(stmt)
            case IfStmt():
                self.if_stmt(stmt)
            case ScopeStmt():
                self.visit(stmt.body)
            case EvalStmt() | ReturnStmt() | YieldStmt() | BreakStmt() | ContinueStmt():
                pass  # they define nothing
            case _:
                assert_never(stmt)


def analyze(body: Stmt, demands: dict[Var, Demand], params: Sequence[Var] = ()) -> Analysis:
    """Phase 1 over a function body whose parameters are `params`."""
    a = _Analyzer(demands)
    a.params(params)
    a.visit(body)
    return a.out


def _accepts(dem: Demand, *spaces: MemorySpace) -> bool:
    """Whether the op slot behind demand `dem` accepts every one of `spaces`."""
    opdef = get_op(dem.op)
    constraints = opdef.input_constraints if opdef is not None and opdef.has_memory_spec else ()
    allowed = constraints[dem.arg_index] if dem.arg_index < len(constraints) else ()
    return not allowed or all(sp in allowed for sp in spaces)


def collect_moves(body: Stmt, var_memory: dict[Var, MemorySpace], sites: list[CallSite] | None = None,
                  callees: Callees = NO_CALLEES) -> dict[tuple[Var, MemorySpace], None]:
    """Phase 2: keys (var, allowed[0]) for every constrained Var or IterArg arg in a disallowed
    space (`sites`: the body's `call_sites`, when the caller has them already). The reference
    skips IterArgs, leaving e.g. a Vec loop carry read by a matmul unmoved; here they move too."""
    keys: dict[tuple[Var, MemorySpace], None] = {}

    def need(call: Call, constraints: Constraints) -> None:
        for i, allowed in enumerate(constraints[: len(call.args)]):
            v = call.args[i]
            if not allowed or not isinstance(v, Var):
                continue
            space = var_memory.get(v)
            if space is None and isinstance(v.type, TileType):
                # A value phase 1 did not record (an item of a tuple) is where its type says.
                space = v.type.memory_space
            if space is not None and space not in allowed:
                keys[(v, allowed[0])] = None

    for _, call, _, constraints in call_sites(body) if sites is None else sites:
        need(call, constraints)
    # A call nested in a statement's expressions reads its operands where the statement stands
    # (a while's condition excepted: phase 3 moves those operands in place).
    for stmt in walk_stmts(body):
        for call in nested_calls(stmt, condition=False):
            need(call, op_facts(call, callees)[1])
    return keys
