"""Which tensor parameters of a function its callers may pass the same GM storage through.

A caller may pass one tensor (or two views of it) as an In and an Out argument of an InCore
function: `x = self.kernel(x, x)`. The source then reads, through the In parameter, what it wrote
through the Out one, so ConvertTensorToTileOps must not load that In parameter once at entry.

Guarantees: `param_aliases(program)` maps a function's name to the pairs of its parameter positions
(each a frozenset of two) that some call site passes storage of one root through, where the callee
writes at least one of the two (an Out / InOut parameter); functions with none are left out. A
root is a caller's parameter or a tensor it makes; views (`pl.slice`, `pl.reshape`, ...), the
results of writes (`pl.assemble`, `pl.write`), loop carries and the result of a call that writes
one tensor lead back to their root. Two parameters of a caller that its own callers may alias are
one root too, so the pairs are closed over the call chain (rounds repeat until none adds a pair).
Two distinct parameters of the entry function are distinct storage. The program is only read.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from pl.ir.enums import ParamDirection
from pl.ir.expr import Call, Expr, GlobalVar, Var
from pl.ir.function import Function, Program
from pl.ir.stmt import AssignStmt, EvalStmt, ForStmt, WhileStmt
from pl.ir.traverse import walk_exprs, walk_stmts
from pl.ir.types import TensorType
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
    # A parameter `f`'s callers may alias with another stands for the lower of the two positions.
    for pair in sorted(own, key=sorted):
        low, high = sorted(pair)
        root[id(f.params[high])] = root.get(id(f.params[low]), ("param", low))

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
        written = sorted(_written(callee)) if callee is not None else []
        return value.args[written[0]] if len(written) == 1 and written[0] < len(value.args) \
            else None
    op = get_op(value.op.name)
    if op is None or op.level != "tensor":
        return None
    if op.written_args:
        i = op.written_args[0]
        return value.args[i] if i < len(value.args) else None
    return value.args[0] if op.inherits_input and value.args else None

