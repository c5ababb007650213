"""Caller evidence of phase 4 (pass.md 6.1): storage roots, fresh allocations, proven-safe params.

Guarantees (pure analyses returning plain data keyed by Var identity):
- `storage_roots(program, func)` maps each tensor value of `func` to its canonical storage root as the
  reference does it: buffer roots (params, `tensor.create` / `tensor.slice`, `tensor.assemble` ->
  target, aliases, loop carries from their initial value, function results -> the matching Out /
  InOut actual), then refined in program order (`tensor.slice` / `tensor.view` / `tensor.assemble`
  and aliases follow arg 0 to its canonical root; `tensor.create` roots itself and is *fresh*);
- `write_roots(program, func, roots)`: roots written by every op whose effects column declares a
  write (`OpDef.written_args`: tile.store / mscatter / mgather arg 2, tensor.write / assemble arg 0,
  ...) and by Out / InOut actuals of calls (or Submits) to program functions; a written tensor whose
  root is unknown may be any root (`Writes.unknown`);
- besides the reference's buffer roots, a call's result aliases the argument its op reuses or views
  (`aliased_arg`: tile.store's destination, a tensor reshape / view / slice source), so a write
  through any view of a parameter is a write of the parameter;
- `caller_evidence(program)`: for every Tensor-In param of every InCore-kind function, the number of
  call sites and the reasons (rule names) that poison it. A param is proven safe iff it has a call
  site and no reason. Reasons: `submit-site`, `non-root-caller`, `external-input` (the actual's root
  is unknown or not a fresh `tensor.create` of the calling root), `write-alias` (a writable actual's
  root is unknown or is the candidate's root).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from typing_extensions import assert_never

from pl.infer.residency.effects import is_builtin
from pl.infer.residency.ir import call_like_args, callee_name, expr_calls
from pl.ir.enums import FunctionType, ParamDirection
from pl.ir.expr import Call, Expr, IterArg, TupleGetItem, Var, is_submit
from pl.ir.function import Function, Program
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
    WhileStmt,
    YieldStmt,
    stmt_kind,
)
from pl.ir.traverse import stmt_exprs, walk_stmts
from pl.ir.types import TensorType, TupleType, Type
from pl.ops.registry import get_op

Roots = dict[Var, Var]
_WRITABLE = (ParamDirection.Out, ParamDirection.InOut)


def aliased_arg(name: str) -> int | None:
    """The argument whose storage a call of op `name` returns: the one it writes in place and
    returns (`output_reuses_input`), or arg 0 of a tensor view (slice / view / reshape / ...)."""
    op = get_op(name)
    if op is None:
        return None
    if op.output_reuses_input is not None:
        return op.output_reuses_input
    return 0 if op.level == "tensor" and op.inherits_input else None


def written_args(name: str) -> tuple[int, ...]:
    """Positional args a call of op `name` writes, from the op table's effects column."""
    op = get_op(name)
    return () if op is None else op.written_args


def _var_like(e: object) -> Var | None:
    return e if isinstance(e, (Var, IterArg)) else None


def canonical_root(roots: Roots, v: Var) -> Var | None:
    """Follow root links to a self-rooted value; a missing link or a cycle gives None."""
    seen: set[Var] = set()
    cur: Var | None = v
    while cur is not None and cur not in seen:
        seen.add(cur)
        nxt = roots.get(cur)
        if nxt is None:
            return None
        if nxt is cur:
            return cur
        cur = nxt
    return None


def _same_shape_dtype(a: Type, b: Type) -> bool:
    return (isinstance(a, TensorType) and isinstance(b, TensorType) and a.dtype == b.dtype
            and a.shape == b.shape)


class _BufferRoots:
    """The reference's BufferRootCollector (one program-order walk)."""

    def __init__(self, program: Program, func: Function) -> None:
        self.program = program
        self.roots: Roots = {p: p for p in func.params}
        self.tuple_roots: dict[Var, list[Var | None]] = {}
        for stmt in walk_stmts(func.body):
            s = stmt_kind(stmt)
            match s:
                case ForStmt() | WhileStmt():
                    for i, ia in enumerate(s.iter_args):
                        root = self._resolve(ia.init)
                        if root is not None:
                            self.roots[ia] = root
                            if i < len(s.return_vars):
                                self.roots[s.return_vars[i]] = root
                case AssignStmt():
                    self._assign(s)
                case SeqStmts() | IfStmt() | ScopeStmt() | EvalStmt() | ReturnStmt() | YieldStmt() \
                        | BreakStmt() | ContinueStmt():
                    pass  # they bind no buffer root (an if's phis have none)
                case _:
                    assert_never(s)

    def _resolve(self, e: Expr | None) -> Var | None:
        v = _var_like(e)
        return None if v is None else self.roots.get(v)

    def _out_roots(self, call: Expr) -> list[tuple[Var | None, Type]]:
        callee = self.program.get(callee_name(call))
        if callee is None:
            return []
        args = call_like_args(call)
        return [(self._resolve(args[i]), args[i].type)
                for i, d in enumerate(callee.directions[:len(args)]) if d in _WRITABLE]

    def _assign(self, s: AssignStmt) -> None:
        value = s.value
        if isinstance(value, Call) or is_submit(value):
            name, args = callee_name(value), call_like_args(value)
            if name in ("tensor.create", "tensor.slice"):
                self.roots[s.var] = s.var
            elif name == "tensor.assemble":
                root = self._resolve(args[0]) if len(args) == 3 else None
                if root is not None:
                    self.roots[s.var] = root
            elif not is_builtin(name) or is_submit(value):
                outs = self._out_roots(value)
                if isinstance(value.type, TupleType):
                    self.tuple_roots[s.var] = [r for r, _ in outs]
                else:
                    root = _select_return_root(outs, value.type)
                    if root is not None:
                        self.roots[s.var] = root
        elif isinstance(value, TupleGetItem):
            tv = _var_like(value.tuple_expr)
            items = self.tuple_roots.get(tv) if tv is not None else None
            if items is not None and 0 <= value.index < len(items) and items[value.index] is not None:
                self.roots[s.var] = items[value.index]  # type: ignore[assignment]
        elif (src := _var_like(value)) is not None and src in self.roots:
            self.roots[s.var] = self.roots[src]


def _select_return_root(outs: list[tuple[Var | None, Type]], ret: Type) -> Var | None:
    if not outs:
        return None
    if len(outs) == 1:
        return outs[0][0]
    matches = {r for r, t in outs if r is not None and _same_shape_dtype(t, ret)}
    return next(iter(matches)) if len(matches) == 1 else None


@dataclass(frozen=True)
class StorageInfo:
    roots: Roots
    fresh: frozenset[Var]


def storage_roots(program: Program, func: Function) -> StorageInfo:
    roots = dict(_BufferRoots(program, func).roots)
    fresh: set[Var] = set()

    def alias(result: Var, source: Expr | None) -> None:
        src = _var_like(source)
        root = canonical_root(roots, src) if src is not None else None
        if root is not None:
            roots[result] = root
        else:
            roots.pop(result, None)

    for s in walk_stmts(func.body):
        if not isinstance(s, AssignStmt):
            continue
        if isinstance(s.value, Call):
            name = s.value.op_name
            source = aliased_arg(name)
            if name == "tensor.create":
                roots[s.var] = s.var
                fresh.add(s.var)
            elif source is not None and source < len(s.value.args):
                alias(s.var, s.value.args[source])
        elif _var_like(s.value) is not None:
            alias(s.var, s.value)
    return StorageInfo(roots, frozenset(fresh))


@dataclass(frozen=True)
class Writes:
    """The storage roots a function writes; `unknown`: it writes a tensor whose root is not known."""

    roots: frozenset[Var]
    unknown: bool

    def covers(self, root: Var) -> bool:
        return self.unknown or root in self.roots


def write_roots(program: Program, func: Function, roots: Roots) -> Writes:
    out: set[Var] = set()
    unknown = False

    def record(arg: Expr) -> None:
        nonlocal unknown
        if not isinstance(arg.type, TensorType):
            return  # an on-chip tile: never the storage of a tensor parameter
        v = _var_like(arg)
        root = canonical_root(roots, v) if v is not None else None
        if root is None:
            unknown = True
        else:
            out.add(root)

    for s in walk_stmts(func.body):
        for e in stmt_exprs(s):
            for call in expr_calls(e):
                name, args = callee_name(call), call_like_args(call)
                callee = program.get(name)
                if callee is not None:
                    written = [i for i, d in enumerate(callee.directions[:len(args)]) if d in _WRITABLE]
                else:
                    written = [i for i in written_args(name) if i < len(args)]
                for i in written:
                    record(args[i])
    return Writes(frozenset(out), unknown)


@dataclass
class ParamEvidence:
    call_sites: int = 0
    reasons: list[str] = field(default_factory=list)

    def poison(self, reason: str) -> None:
        self.call_sites += 1
        if reason not in self.reasons:
            self.reasons.append(reason)


def _read_params(f: Function) -> list[int]:
    return [i for i, (p, d) in enumerate(zip(f.params, f.directions, strict=True))
            if d is ParamDirection.In and isinstance(p.type, TensorType)]


def _function_calls(f: Function) -> list[Expr]:
    return [c for s in walk_stmts(f.body) for e in stmt_exprs(s) for c in expr_calls(e)]


def caller_evidence(program: Program) -> dict[Var, ParamEvidence]:
    """Evidence for every Tensor-In param of every InCore-kind function (keyed by the param Var)."""
    evidence = {f.params[i]: ParamEvidence() for f in program.functions
                if f.func_type.is_incore_kind() for i in _read_params(f)}
    calls = {f.name: _function_calls(f) for f in program.functions}
    targets = {callee_name(c) for cs in calls.values() for c in cs if program.get(callee_name(c))}
    for f in program.functions:
        is_root = f.func_type is FunctionType.Orchestration and f.name not in targets
        info = storage_roots(program, f) if is_root else None
        for call in calls[f.name]:
            callee = program.get(callee_name(call))
            if callee is None or not callee.func_type.is_incore_kind():
                continue
            if is_submit(call) or info is None:
                reason = "submit-site" if is_submit(call) else "non-root-caller"
                for i in _read_params(callee):
                    evidence[callee.params[i]].poison(reason)
                continue
            _root_call_site(callee, call_like_args(call), info, evidence)
    return evidence


def _root_call_site(callee: Function, args: tuple[Expr, ...], info: StorageInfo,
                    evidence: dict[Var, ParamEvidence]) -> None:
    def root_of(i: int) -> Var | None:
        v = _var_like(args[i]) if i < len(args) else None
        return canonical_root(info.roots, v) if v is not None else None

    writes: set[Var] = set()
    all_known = True
    for i, (p, d) in enumerate(zip(callee.params, callee.directions, strict=True)):
        if d in _WRITABLE and isinstance(p.type, TensorType):
            root = root_of(i)
            if root is None:
                all_known = False
            else:
                writes.add(root)
    for i in _read_params(callee):
        ev = evidence[callee.params[i]]
        read = root_of(i)
        if read is None or read not in info.fresh:
            ev.poison("external-input")
        elif not all_known or read in writes:
            ev.poison("write-alias")
        else:
            ev.call_sites += 1
