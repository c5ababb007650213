"""OutlineIncoreScopes: the statements a `with pl.at(level=pl.Level.CORE_GROUP):` scope runs on a
core become an InCore function of their own, so that tensor-to-tile conversion and memory-space
inference (which transform InCore/AIC/AIV functions only) place their tiles, as the reference's
pass of that name does before its conversion and inference.

Guarantees:
- Runs on SSA programs (after convert_to_ssa). In every Opaque, Orchestration or Graph function,
  each outermost *region* is outlined: the body of an InCore scope (`pl.at(level=CORE_GROUP)`, the
  inner scope of `for i in pl.spmd(n)`), and the body of a `with pl.spmd(n):` scope that does its
  own per-block work, reading its block index (pl's frontend does not wrap that body in an InCore
  scope, the reference's parser does). A region already made of nothing but calls of program
  functions (a dispatch; what this pass leaves behind) is left alone, so the pass is idempotent.
- The new function (kind InCore, named after the scope's `name_hint=`, else `<parent>_incore_<n>`,
  made unique in the program) takes the values the region reads but does not define, in order of
  first use, and returns the values it defines that the rest of the parent reads, in order of
  definition (a tile among those is a located PlError: a task's tiles live in its core's buffers
  only while it runs, and the reference's inference refuses an InCore function's Tile
  parameters). Its statements keep their spans, so diagnostics and `show_inferred` point at the
  lines inside the user's `with` block. A tensor parameter the region writes (an op's written
  argument, a callee's Out/InOut actual) is `Out` when the region only writes it, else `InOut`.
- The scope itself stays in the parent with its level, name, deps and task id (`as tid`): its
  body becomes the call, binding the returned values to the parent's own Vars (one value: the
  call; several: a tuple temporary and its items, as the frontend lowers `a, b = self.f(...)`).
  Tensors are shared by reference (pl.interpret), so the parent computes what it did.
- Scopes of other kinds (runtime, hierarchy, cluster) stay as they are; regions inside them are
  outlined. InCore, AIC and AIV functions are already inferred whole: their scopes stay. A
  program without a region comes back as the same object.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterator

from typing_extensions import assert_never

from pl.errors import PlError
from pl.ir.enums import FunctionType, ParamDirection, ScopeKind, default_level_role
from pl.ir.expr import Call, Expr, GlobalVar, IterArg, TupleGetItem, Var, program_call_type
from pl.ir.function import Function, Program
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
from pl.ir.traverse import map_stmt, stmt_defs, stmt_exprs, type_exprs, walk_exprs, walk_stmts
from pl.ir.types import TensorType, TileType, Type
from pl.lowering.ssa.support import Substituter
from pl.ops.registry import get_op

__all__ = ["OUTLINING", "is_dispatch", "outline_incore_scopes", "outlined_region"]

# The function kinds whose InCore scopes are outlined (the reference's: Opaque and the
# orchestration-like kinds); the others are inferred whole or hold no core work of their own.
OUTLINING = (FunctionType.Opaque, FunctionType.Orchestration, FunctionType.Graph)


def outline_incore_scopes(program: Program) -> Program:
    taken = {f.name for f in program.functions}
    out: list[Function] = []
    changed = False
    for f in program.functions:
        if f.func_type not in OUTLINING or f.host_body is not None \
                or f.external_source is not None:
            out.append(f)
            continue
        outliner = _Outliner(f, taken, program)
        body = outliner.stmt(f.body)
        if not outliner.made:
            out.append(f)
            continue
        changed = True
        out.extend(outliner.made)  # callees first, as the reference orders them
        out.append(dataclasses.replace(f, body=body))
    return dataclasses.replace(program, functions=tuple(out)) if changed else program


def is_dispatch(body: Stmt) -> bool:
    """Whether a region's body only calls program functions (and creates the tensors it passes
    them, as tensor-to-tile conversion adds an Out actual): nothing of it runs on the core but the
    callees, which are functions of their own (a region this pass already outlined)."""
    return all(not isinstance(e, Call) or isinstance(e.op, GlobalVar)
               or e.op_name == "tensor.create"
               for s in walk_stmts(body) for root in stmt_exprs(s) for e in walk_exprs(root))


def _outlined(region: ScopeStmt) -> bool:
    """Whether the pass outlines `region`: an InCore scope whose body is not a dispatch; a
    `pl.spmd` body (without an InCore scope inside) when it does per-block work itself, that is
    reads its block index or carries `optimizations=` - as the reference's parser wraps only
    such a body in an InCore scope (a dispatch body's other statements, a nested call hoisted out
    of the kernel's arguments, say, run where the dispatch is)."""
    if is_dispatch(region.body):
        return False
    if region.kind is ScopeKind.InCore:
        return True
    return any(k in ("split", "slot_num") for k, _ in region.args) or any(
        isinstance(e, Call) and e.op_name == "tile.get_block_idx"
        for s in walk_stmts(region.body) for root in stmt_exprs(s) for e in walk_exprs(root))


def outlined_region(s: ScopeStmt) -> ScopeStmt | None:
    """The scope whose body is a region (see the module doc) when `s` is or holds one: `s`
    itself, or for a `pl.spmd` scope around an InCore scope the inner one."""
    if s.kind is ScopeKind.Spmd:
        inner = flatten_body(s.body)
        if len(inner) == 1 and isinstance(inner[0], ScopeStmt) and inner[0].kind is ScopeKind.InCore:
            return outlined_region(inner[0])
        return s
    return s if s.kind is ScopeKind.InCore else None


def _uses(s: Stmt) -> Iterator[Var]:
    """Every Var `s` and the statements inside it read, in program order (types' dims too)."""
    for x in walk_stmts(s):
        roots: list[Expr] = list(stmt_exprs(x))
        roots.extend(e for v in stmt_defs(x) for e in type_exprs(v.type))
        for root in roots:
            for e in walk_exprs(root):
                if isinstance(e, Var):
                    yield e
                if isinstance(e, Call):
                    yield from (d for t in type_exprs(e.result_type) for d in walk_exprs(t)
                                if isinstance(d, Var))


def _defs(s: Stmt) -> list[Var]:
    return [v for x in walk_stmts(s) for v in stmt_defs(x)]


class _Outliner:
    def __init__(self, f: Function, taken: set[str], program: Program) -> None:
        self.f = f
        self.taken = taken
        self.program = program
        self.made: list[Function] = []
        self.counts = Counter(_uses(f.body))
        self.names = {v.name for v in _defs(f.body)} | {p.name for p in f.params}
        self.bound = set(_defs(f.body)) | set(f.params)

    def stmt(self, s: Stmt) -> Stmt:
        if isinstance(s, ScopeStmt):
            region = outlined_region(s)
            if region is not None and _outlined(region):
                return self._outline(s, region)
        return map_stmt(s, body=self.stmt)

    def _name(self, scope: ScopeStmt, region: ScopeStmt) -> str:
        hint = dict(region.args).get("name_hint") or dict(scope.args).get("name_hint")
        base = hint if isinstance(hint, str) and hint else f"{self.f.name}_incore_{len(self.made)}"
        name, i = base, 0
        while name in self.taken:
            i += 1
            name = f"{base}_{i}"
        self.taken.add(name)
        return name

    def _outline(self, scope: ScopeStmt, region: ScopeStmt) -> Stmt:
        body = region.body
        inside = Counter(_uses(body))
        defined = _defs(body)
        own = set(defined)
        inputs = list(dict.fromkeys(v for v in _uses(body) if v not in own))
        # A dim Var the parent does not bind (a `pl.dynamic` symbol, free in the whole program)
        # that an input's type names is bound by that parameter's type in the callee as in the
        # parent: it is no parameter of its own (one after the annotation naming it would shadow
        # the symbol, and the printed program would not read back).
        in_types = {d for v in inputs for t in type_exprs(v.type) for d in walk_exprs(t)
                    if isinstance(d, Var)}
        inputs = [v for v in inputs if v in self.bound or v not in in_types]
        outputs = [v for v in defined if self.counts[v] > inside[v]]
        for v in outputs:
            if isinstance(v.type, TileType):
                raise PlError(
                    f"'{user_name(v.name)}' is a tile the pl.at(level=pl.Level.CORE_GROUP) or "
                    "pl.spmd scope defines and code after the scope reads: the scope's body runs "
                    "as a task of its own (an InCore function), whose tiles live in its core's "
                    "buffers only while it runs", v.span if v.span.line > 0 else region.span,
                    hint=f"store {user_name(v.name)} to a tensor inside the scope (pl.store) and "
                         "load it where it is read")
        name = self._name(scope, region)
        params = tuple(Var(v.name, v.type, span=v.span) for v in inputs)
        versions: dict[Var, Expr] = dict(zip(inputs, params, strict=True))
        new_body = _Rebind(versions).stmt(body)
        returned = tuple(versions.get(v, v) for v in outputs)
        span = region.span
        level, role = default_level_role(FunctionType.InCore)
        ret = ReturnStmt(returned, span=span)
        callee = Function(name, params, tuple(_direction(v, body, self.program) for v in inputs),
                          tuple(v.type for v in outputs), make_body([*flatten_body(new_body), ret]),
                          func_type=FunctionType.InCore, level=level, role=role, span=span)
        self.made.append(callee)
        call = Call(GlobalVar(name), tuple(inputs), (), (), program_call_type(callee.return_types),
                    span=span)
        binds: list[Stmt]
        if not outputs:
            binds = [EvalStmt(call, span=span)]
        elif len(outputs) == 1:
            binds = [AssignStmt(outputs[0], call, span=span)]
        else:
            tmp = Var(self._fresh("_tuple_tmp"), call.type, span=span)
            binds = [AssignStmt(tmp, call, span=span),
                     *(AssignStmt(v, TupleGetItem(tmp, i, span=span), span=span)
                       for i, v in enumerate(outputs))]
        placed = dataclasses.replace(region, body=make_body(binds))
        if region is scope:
            return placed
        return dataclasses.replace(scope, body=placed)

    def _fresh(self, base: str) -> str:
        i = 0
        while f"{base}__ssa_v{i}" in self.names:
            i += 1
        name = f"{base}__ssa_v{i}"
        self.names.add(name)
        return name


def _direction(v: Var, body: Stmt, program: Program) -> ParamDirection:
    """In, or for a tensor the region writes, Out (every use of it is a written argument) or
    InOut (it is also read)."""
    if not isinstance(v.type, TensorType):
        return ParamDirection.In
    uses = written = 0
    for s in walk_stmts(body):
        for root in stmt_exprs(s):
            for e in walk_exprs(root):
                if e is v:
                    uses += 1
                elif isinstance(e, Call):
                    writes = _written_args(e, program)
                    written += sum(1 for i, a in enumerate(e.args) if a is v and i in writes)
    if not written:
        return ParamDirection.In
    return ParamDirection.Out if written == uses else ParamDirection.InOut


def _written_args(call: Call, program: Program) -> tuple[int, ...]:
    if isinstance(call.op, GlobalVar):
        callee = program.get(call.op.name)
        if callee is None:
            return ()
        return tuple(i for i, d in enumerate(callee.directions) if d is not ParamDirection.In)
    op = get_op(call.op.name)
    return op.written_args if op is not None else ()


class _Rebind:
    """The region's statements as the new function's own: every definition is a new Var (a
    value belongs to one function), uses follow through a Substituter (expressions and the
    types they carry), the parent's values read as the function's parameters."""

    def __init__(self, versions: dict[Var, Expr]) -> None:
        self.versions = versions
        self.sub = Substituter(versions)

    def define(self, v: Var) -> Var:
        t: Type = self.sub.type(v.type)
        new: Var
        if isinstance(v, IterArg):
            init = self.sub.expr(v.init) if v.init is not None else None
            new = IterArg(v.name, t, init=init, span=v.span)
        else:
            new = Var(v.name, t, span=v.span)
        self.versions[v] = new
        return new

    def defs(self, vs: tuple[Var, ...]) -> tuple[Var, ...]:
        out = tuple(self.define(v) for v in vs)
        return vs if all(a is b for a, b in zip(out, vs, strict=True)) else out

    def stmt(self, s: Stmt) -> Stmt:
        k = stmt_kind(s)
        match k:
            case AssignStmt():
                value = self.sub.expr(k.value)
                var = self.define(k.var)
                if value is k.value and var is k.var:
                    return s
                return AssignStmt(var, value, span=k.span, comments=k.comments)
            case EvalStmt() | ReturnStmt() | YieldStmt() | SeqStmts() | BreakStmt() \
                    | ContinueStmt():
                return map_stmt(s, body=self.stmt, expr=self.sub.expr)
            case IfStmt():
                branches = map_stmt(k, body=self.stmt, expr=self.sub.expr)
                rvs = self.defs(k.return_vars)
                return dataclasses.replace(branches, return_vars=rvs)
            case ForStmt():
                start, stop, step = (self.sub.expr(k.start), self.sub.expr(k.stop),
                                     self.sub.expr(k.step))
                loop_var = self.define(k.loop_var)
                ias = self.defs(k.iter_args)
                body = self.stmt(k.body)
                rvs = self.defs(k.return_vars)
                return dataclasses.replace(k, start=start, stop=stop, step=step, loop_var=loop_var,
                                           iter_args=ias, body=body, return_vars=rvs)  # type: ignore[arg-type]
            case WhileStmt():
                ias = self.defs(k.iter_args)
                condition = self.sub.expr(k.condition)
                body = self.stmt(k.body)
                rvs = self.defs(k.return_vars)
                return dataclasses.replace(k, iter_args=ias, condition=condition, body=body,  # type: ignore[arg-type]
                                           return_vars=rvs)
            case ScopeStmt():
                scope = map_stmt(k, body=self.stmt, expr=self.sub.expr)
                tid = None if k.task_id is None else self.define(k.task_id)
                return dataclasses.replace(scope, task_id=tid)
            case _:
                assert_never(k)

