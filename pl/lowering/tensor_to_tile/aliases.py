"""GM storage that a call shares between caller and callee: which tensor parameters of a function
its callers may pass the same storage through (`param_aliases`), and which results of an InCore
function are views of one of its parameters (`returned_view`).

A caller may pass one tensor (or two views of it) as an In and an Out argument of an InCore
function: `x = self.kernel(x, x)`. The source then reads, through the In parameter, what it wrote
through the Out one, so ConvertTensorToTileOps must not load that In parameter once at entry.

Guarantees: `param_aliases(program)` maps a function's name to the pairs of its parameter positions
(each a frozenset of two) that some call site passes storage of one root through, where the callee
writes at least one of the two (an Out / InOut parameter); functions with none are left out. A
root is a caller's parameter or a tensor it makes; views (`pl.slice`, `pl.reshape`, ...), the
results of writes (`pl.assemble`, `pl.write`), loop carries and the result of a call that writes
one tensor (or returning a view of a parameter) lead back to their root. Two parameters of a caller that its own callers may alias are
one root too, so the pairs are closed over the call chain (rounds repeat until none adds a pair).
Two distinct parameters of the entry function are distinct storage. The program is only read.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from pl.errors import PlError
from pl.ir.enums import ParamDirection
from pl.ir.expr import Call, Expr, GlobalVar, IterArg, MakeTuple, TupleGetItem, Var
from pl.ir.function import Function, Program
from pl.ir.stmt import AssignStmt, EvalStmt, ForStmt, IfStmt, ReturnStmt, WhileStmt, flatten_body
from pl.ir.traverse import last_yield, walk_exprs, walk_stmts
from pl.ir.types import TensorType
from pl.lowering.tensor_to_tile.common import base_name
from pl.ops.registry import get_op

Pairs = frozenset[frozenset[int]]

_WRITES = (ParamDirection.Out, ParamDirection.InOut)


def param_aliases(program: Program) -> dict[str, Pairs]:
    funcs = {f.name: f for f in program.functions}
    pairs: dict[str, set[frozenset[int]]] = {f.name: set() for f in program.functions}
    for _ in range(len(funcs) + 1):
        grew = False
        for f in program.functions:
            for callee, pair in _call_site_pairs(f, frozenset(pairs[f.name]), funcs):
                if pair not in pairs[callee]:
                    pairs[callee].add(pair)
                    grew = True
        if not grew:
            break
    return {name: frozenset(p) for name, p in pairs.items() if p}


def _written(f: Function) -> set[int]:
    return {i for i, d in enumerate(f.directions) if d in _WRITES}


def _call_site_pairs(f: Function, own: Pairs, funcs: Mapping[str, Function]
                     ) -> list[tuple[str, frozenset[int]]]:
    """(callee, pair of its parameter positions) for each call in `f` passing one root twice."""
    root: dict[int, object] = {id(p): ("param", i) for i, p in enumerate(f.params)}
    # Parameters `f`'s callers may alias (pairs chained through a shared one included) are one
    # root: the lowest position of their group.
    group = list(range(len(f.params)))

    def find(i: int) -> int:
        while group[i] != i:
            i = group[i]
        return i

    for pair in own:
        a, b = sorted(find(i) for i in pair)
        group[b] = a
    for i, p in enumerate(f.params):
        root[id(p)] = ("param", find(i))

    def of(e: Expr) -> object:
        if id(e) in root:
            return root[id(e)]
        source = _storage_of(e, funcs) if isinstance(e, Call) else None  # a nested view
        return of(source) if source is not None else ("local", id(e))

    found: list[tuple[str, frozenset[int]]] = []
    for s in walk_stmts(f.body):
        if isinstance(s, (ForStmt, WhileStmt)):
            for ia, rv in zip(s.iter_args, s.return_vars, strict=False):
                root[id(ia)] = root[id(rv)] = of(ia.init)
            continue
        if isinstance(s, AssignStmt):
            value: Expr = s.value
        elif isinstance(s, EvalStmt):
            value = s.expr
        else:
            continue
        for e in walk_exprs(value):
            if isinstance(e, Call) and isinstance(e.op, GlobalVar) and e.op.name in funcs:
                found.extend((e.op.name, p) for p in _aliased_actuals(funcs[e.op.name], e, of))
        if isinstance(s, AssignStmt):
            source = _storage_of(value, funcs)
            if source is not None:
                root[id(s.var)] = of(source)
    return found


def _aliased_actuals(callee: Function, call: Call, of: Callable[[Expr], object]
                     ) -> list[frozenset[int]]:
    written = _written(callee)
    tensors = [(i, of(a)) for i, a in enumerate(call.args[:len(callee.params)])
               if isinstance(a.type, TensorType)]
    return [frozenset((i, j)) for k, (i, ri) in enumerate(tensors) for j, rj in tensors[k + 1:]
            if ri == rj and (i in written or j in written)]


def _storage_of(value: Expr, funcs: Mapping[str, Function]) -> Expr | None:
    """The expression whose storage `value` names: itself when it is a variable, the viewed tensor
    of a view op, the written tensor of a write op or of a call writing one tensor; else None."""
    if isinstance(value, Var):
        return value
    if not isinstance(value, Call) or not isinstance(value.type, TensorType):
        return None
    if isinstance(value.op, GlobalVar):
        callee = funcs.get(value.op.name)
        if callee is None:
            return None
        # An InCore function returning a view of a parameter: its caller's result is that view.
        view = returned_view(callee, 0) if callee.func_type.is_incore_kind() else None
        if view is not None:
            return value.args[view.position] if view.position < len(value.args) else None
        written = sorted(_written(callee))
        return value.args[written[0]] if len(written) == 1 and written[0] < len(value.args) \
            else None
    op = get_op(value.op.name)
    if op is None or op.level != "tensor":
        return None
    if op.written_args:
        i = op.written_args[0]
        return value.args[i] if i < len(value.args) else None
    return value.args[0] if op.inherits_input and value.args else None


@dataclass(frozen=True)
class View:
    """A returned view of a parameter: the parameter's position, the view calls (innermost
    first), and the scalars of the function their operands use, each with the expression of
    parameters and constants it is bound to (in binding order)."""

    position: int
    chain: tuple[Call, ...]
    scalars: tuple[tuple[Var, Expr], ...]


def returned_view(f: Function, position: int) -> View | None:
    """How `f`'s result at `position` views one of its tensor parameters, when it is a chain of
    view ops (`pl.slice`, `pl.reshape`, ...) of it bound in the function's top-level block and
    returned by its one return, at its end, and declaring its whole shape valid (a narrowed
    result is stored as its valid region, a copy): the caller then passes that view of its own actual as
    the Out tensor the result is stored into, so the result names the parameter's storage as the
    source's does. None for any other result. Its offsets and shapes may use scalars bound in that
    block to expressions of parameters and constants (`off = n * 32`); a view using any other
    value computed in the function cannot be rebuilt by the caller: a located PlError."""
    stmts = flatten_body(f.body)
    returns = [s for s in walk_stmts(f.body) if isinstance(s, ReturnStmt)]
    if len(returns) != 1 or not stmts or stmts[-1] is not returns[0] \
            or position >= len(returns[0].values):
        _refuse_hidden_view(f, returns, position)
        return None
    defs = {id(s.var): s.value for s in stmts if isinstance(s, AssignStmt)}
    params = {id(p): i for i, p in enumerate(f.params)}
    chain: list[Call] = []
    e = returns[0].values[position]
    while not (isinstance(e, Var) and id(e) in params):
        if isinstance(e, Var) and not isinstance(e, IterArg) and id(e) in defs:
            e = defs[id(e)]
        elif (item := _tuple_item(e, defs)) is not None:
            e = item
        elif _is_view(e):
            assert isinstance(e, Call)
            chain.append(e)
            e = e.args[0]
        else:
            _refuse_hidden_view(f, returns, position)
            return None
    result = returns[0].values[position].type
    if not chain or not isinstance(e.type, TensorType) or not isinstance(result, TensorType) \
            or _narrowed(result):
        return None  # a narrowed result is stored as its valid region, a copy on both sides
    scalars: dict[int, tuple[Var, Expr]] = {}
    order = {id(s.var): k for k, s in enumerate(stmts) if isinstance(s, AssignStmt)}
    pending = [x for c in chain for a in [*c.args[1:], *(v for _, v in c.kwargs
                                                         if isinstance(v, Expr))]
               for x in walk_exprs(a) if isinstance(x, Var)]
    while pending:
        local = pending.pop()
        if id(local) in params or id(local) in scalars:
            continue
        bound = defs.get(id(local))
        if bound is None or isinstance(local, IterArg) or any(
                isinstance(x, Call) for x in walk_exprs(bound)):
            raise PlError(
                f"{f.name} returns a view of its parameter `{base_name(e.name)}` whose offsets "
                f"or shapes use `{base_name(local.name)}`, a value computed inside it: the caller's result names the "
                "parameter's storage, so the caller rebuilds the view from its own arguments, "
                "which it cannot do from that value. Compute the view from the function's "
                "parameters and constants, or return a computed tile", returns[0].span)
        scalars[id(local)] = (local, bound)
        pending.extend(x for x in walk_exprs(bound) if isinstance(x, Var))
    bindings = tuple(sorted(scalars.values(), key=lambda b: order[id(b[0])]))
    return View(params[id(e)], tuple(reversed(chain)), bindings)


def _refuse_hidden_view(f: Function, returns: list[ReturnStmt], position: int) -> None:
    """A located PlError when a result of `f` that `returned_view` cannot rebuild as a chain of
    view ops in the top-level block may still be a view of a tensor parameter: returned by one of
    several returns, or bound in a loop or an if (a carry, a branch's value). The caller would
    get a copy in a fresh tensor where the source's result names the parameter's storage, so its
    writes through the result would never reach the parameter. A narrowed result is a copy on
    both sides (see `returned_view`)."""
    defs = {id(s.var): s.value for s in walk_stmts(f.body) if isinstance(s, AssignStmt)}
    merges: dict[int, list[Expr]] = {}
    for s in walk_stmts(f.body):
        if isinstance(s, IfStmt):
            for branch in (s.then_body, s.else_body):
                y = last_yield(branch)
                for rv, v in zip(s.return_vars, y.values if y is not None else (), strict=False):
                    merges.setdefault(id(rv), []).append(v)
        elif isinstance(s, (ForStmt, WhileStmt)):
            y = last_yield(s.body)
            for i, ia in enumerate(s.iter_args):
                sources = [ia.init, *([y.values[i]] if y is not None and i < len(y.values)
                                      else [])]
                merges.setdefault(id(ia), []).extend(sources)
                if i < len(s.return_vars):
                    merges.setdefault(id(s.return_vars[i]), []).append(ia)
    params = {id(p) for p in f.params if isinstance(p.type, TensorType)}

    def views_param(e: Expr, seen: set[int]) -> bool:
        while True:
            if id(e) in seen:
                return False
            seen.add(id(e))
            if _is_view(e):
                return _reaches_param(e.args[0], seen)  # type: ignore[attr-defined]
            if isinstance(e, Var) and id(e) in defs:
                e = defs[id(e)]
                continue
            if (item := _tuple_item(e, defs)) is not None:
                e = item
                continue
            return isinstance(e, Var) and any(views_param(m, seen)
                                              for m in merges.get(id(e), ()))

    def _reaches_param(e: Expr, seen: set[int]) -> bool:
        while True:
            if isinstance(e, Var) and id(e) in params:
                return True
            if id(e) in seen:
                return False
            seen.add(id(e))
            if _is_view(e):
                e = e.args[0]  # type: ignore[attr-defined]
            elif isinstance(e, Var) and id(e) in defs:
                e = defs[id(e)]
            elif (item := _tuple_item(e, defs)) is not None:
                e = item
            else:
                return isinstance(e, Var) and any(_reaches_param(m, seen)
                                                  for m in merges.get(id(e), ()))

    for ret in returns:
        if position >= len(ret.values):
            continue
        value = ret.values[position]
        if isinstance(value.type, TensorType) and not _narrowed(value.type) \
                and views_param(value, set()):
            raise PlError(
                f"{f.name} returns a view of one of its tensor parameters "
                f"(pl.slice, pl.reshape, ...) "
                + ("from one of several returns" if len(returns) > 1 else
                   "bound in a loop or an if") +
                ": the caller's result would be a copy in a fresh tensor, where the source's "
                "names the parameter's storage, so writes through it would not reach the "
                "parameter", ret.span,
                hint="compute the view in the function's top-level block and return it from "
                     "its one return at the end, or return a computed tensor "
                     "(pl.add(v, 0.0)) if a copy is meant")


def _tuple_item(e: Expr, defs: Mapping[int, Expr]) -> Expr | None:
    """The element `e` reads when it is an item of a tuple bound to a literal
    (`v, w = pl.slice(a, ..), b` is `_tuple_tmp = [..]; v = _tuple_tmp[0]`), else None."""
    if not isinstance(e, TupleGetItem):
        return None
    t = e.tuple_expr
    while isinstance(t, Var) and id(t) in defs:
        t = defs[id(t)]
    if isinstance(t, MakeTuple) and 0 <= e.index < len(t.elements):
        return t.elements[e.index]
    return None


def _narrowed(t: TensorType) -> bool:
    """Whether the type declares a valid region other than its whole shape."""
    valid = t.view.valid_shape if t.view is not None else ()
    return bool(valid) and tuple(valid) != tuple(t.shape)


def _is_view(e: Expr) -> bool:
    if not isinstance(e, Call) or isinstance(e.op, GlobalVar) or not e.args:
        return False
    op = get_op(e.op.name)
    return op is not None and op.level == "tensor" and op.inherits_input
