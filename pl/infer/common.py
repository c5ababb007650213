"""Small shared helpers of the memory-space inference phases.

Guarantees: pure functions over the frozen IR; the two value matchers of pass.md section 0 are here
so every phase uses the same one: `var_only` (exactly a Var, never an IterArg) and `var_like` (Var or
IterArg). A call of a program function constrains its tile arguments like an op's slots do: each
to the space of the callee's Tile parameter (`Callees`, built by `callee_spaces`), so phases 0-3
and the verifier treat `self.f(t)` as they treat an op (docs/tile_params.md).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from types import MappingProxyType

from pl.ir.enums import MemorySpace
from pl.ir.expr import Call, ConstBool, ConstFloat, ConstInt, Expr, GlobalVar, IterArg, Var
from pl.ir.function import Function, Program
from pl.ir.stmt import (
    AssignStmt,
    EvalStmt,
    Stmt,
    WhileStmt,
)
from pl.ir.traverse import expr_children, stmt_exprs, walk_exprs, walk_stmts
from pl.ir.types import TileType
from pl.ops.registry import OpDef, get_op


def var_only(e: object) -> Var | None:
    """`e` when it is a plain Var (C++ `As<Var>`: an IterArg does not match)."""
    return e if type(e) is Var else None


def var_like(e: object) -> Var | None:
    """`e` when it is a Var or an IterArg (C++ `AsVarLike`)."""
    return e if isinstance(e, (Var, IterArg)) else None


Constraints = tuple[tuple[MemorySpace, ...], ...]
OpFacts = tuple[OpDef | None, Constraints]
# Program function name -> the space each parameter must be given in (`()`: any, or not a tile).
Callees = Mapping[str, Constraints]
_NO_FACTS: OpFacts = (None, ())
NO_CALLEES: Callees = MappingProxyType({})


def inferred(f: Function) -> bool:
    """Whether inference places `f`'s tiles: an InCore, AIC or AIV function, or a function of
    another kind that holds a tile op itself (an Opaque function written at tile level: its tiles
    get moves where an op takes another space, as in an InCore function, rather than a refusal;
    docs/compatibility.md). An Orchestration function holds calls of its kernels only."""
    if f.func_type.is_incore_kind():
        return True
    return f.host_body is None and any(
        isinstance(e, Call) and e.op_name.startswith("tile.")
        for s in walk_stmts(f.body) for root in stmt_exprs(s) for e in walk_exprs(root))


def param_space(f: Function, p: Var) -> MemorySpace | None:
    """The space Tile parameter `p` of `f` holds its value in: the one its type names, else Vec
    when `f` is transformed by inference (InCore/AIC/AIV), else None (any: `f` is not placed)."""
    t = p.type
    if not isinstance(t, TileType):
        return None
    if t.memory_space is not None:
        return t.memory_space
    return MemorySpace.Vec if f.func_type.is_incore_kind() else None


def callee_spaces(program: Program) -> Callees:
    """The `Callees` of a program: its functions that take a Tile parameter of a known space."""
    out: dict[str, Constraints] = {}
    for f in program.functions:
        spaces = [param_space(f, p) for p in f.params]
        if any(sp is not None for sp in spaces):
            out[f.name] = tuple(() if sp is None else (sp,) for sp in spaces)
    return out


def op_facts(call: Call, callees: Callees = NO_CALLEES) -> OpFacts:
    """(registered op or None, allowed spaces per positional arg) of a call, in one look-up; a
    program function's call has no op and the constraints `callees` gives it."""
    op = call.op
    if type(op) is GlobalVar:
        return (None, callees.get(op.name, ())) if callees else _NO_FACTS
    opdef = get_op(op.name)
    if opdef is None or not opdef.has_memory_spec:
        return (opdef, ())
    return (opdef, opdef.input_constraints)


def input_constraints(call: Call, callees: Callees = NO_CALLEES) -> Constraints:
    """Allowed spaces per positional arg of a call (empty when none)."""
    return op_facts(call, callees)[1]


CallSite = tuple[Stmt, Call, OpDef | None, Constraints]


def call_sites(body: Stmt | None, callees: Callees = NO_CALLEES) -> list[CallSite]:
    """(statement, its top-level call, op, constraints) for every statement of `body` that
    evaluates a Call at top level, pre-order: phases 0 and 2 share one walk of the body."""
    sites: list[CallSite] = []
    for stmt in walk_stmts(body):
        call = top_level_call(stmt)
        if call is not None:
            op, constraints = op_facts(call, callees)
            sites.append((stmt, call, op, constraints))
    return sites


def top_level_call(stmt: Stmt) -> Call | None:
    """The Call an AssignStmt / EvalStmt evaluates at top level (nested calls do not count).

    Asked of every statement by several phases: exact type tests, no class patterns (the IR
    classes have no subclasses)."""
    kind = type(stmt)
    if kind is AssignStmt:
        value = stmt.value  # type: ignore[attr-defined]
    elif kind is EvalStmt:
        value = stmt.expr  # type: ignore[attr-defined]
    else:
        return None
    return value if type(value) is Call else None




_LEAVES = (Var, IterArg, ConstInt, ConstFloat, ConstBool)  # expressions that hold no other


def nested_calls(stmt: Stmt, *, condition: bool = True) -> Iterator[Call]:
    """The calls `stmt` evaluates itself besides its `top_level_call`, outermost first: those
    nested in that call's arguments, in scalar arithmetic, tuples, an if's or while's condition,
    a loop's bounds and initial values, returned or yielded values. `condition=False` leaves out
    a while's condition, which is evaluated again before every iteration: a value moved for it
    must be moved where it stands, not before the loop.

    The frontend gives a tile op nested in another op's arguments a statement of its own, but
    not every nesting (a tile op under a scalar operator or in a loop header stays where it is
    written), and a program built through the pass-level API may nest anything: inference sees
    these calls too, so no tile op escapes it."""
    top = top_level_call(stmt)
    if top is not None:
        roots: tuple[Expr, ...] = (top,)
    elif not condition and type(stmt) is WhileStmt:
        roots = tuple(ia.init for ia in stmt.iter_args if ia.init is not None)
    else:
        roots = stmt_exprs(stmt)
    # Pre-order, as `walk_exprs`, but only through the expressions that hold others: asked of
    # every statement by four phases, and most arguments are names.
    stack = [r for r in reversed(roots) if type(r) not in _LEAVES]
    while stack:
        e = stack.pop()
        if type(e) is Call and e is not top:
            yield e
        stack.extend(c for c in reversed(expr_children(e)) if type(c) not in _LEAVES)


def written_result_arg(call: Call, op: OpDef | None) -> int | None:
    """The argument an in-place op (`OpDef.inplace_args`) writes and gives back as its result,
    when that argument's slot constrains its space (so inference may hand the op a move of it):
    `pl.write(acc, ...)` is `acc` again, its buffer written. None for other calls."""
    if op is None or not op.has_memory_spec:
        return None
    for i in op.inplace_args:
        if i < len(call.args) and i < len(op.input_constraints) and op.input_constraints[i] \
                and isinstance(call.args[i], Var) and isinstance(call.args[i].type, TileType):
            return i
    return None
