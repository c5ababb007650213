"""SSA conversion (the reference's ConvertToSSA pass).

`convert_to_ssa(program)` returns a new Program in which every Var is defined once: every
definition gets a fresh versioned Var (`x__ssa_v0`, loop vars `i__idx_vN`, synthesized iter args
`x__iter_vN`, loop results `x__rv_vN`, if merges `x__phi_vN`), with one version counter per source
Var advanced in the reference's order. Values rebound inside a loop become iter_args/return_vars
with a trailing yield, values first defined in a loop and used after it escape the same way, and
values rebound in a branch get phi return_vars with yields in both branches (a missing else is
created). Explicit init_values/yield forms keep their iter arg and return var names. The input is
never mutated; running the pass on its own output gives a structurally equal program.

Control flow: `break`/`continue` are first made structured (lowering/ssa/flow.py), so every
loop body runs to its trailing yield. A `return` stays where it is, and the statements after an
`if` that may return are copied into each of its paths that falls through (lowering/ssa/flow.py's
`fold_early_returns`): no phi takes a value from a path that returns; a `return` inside an `if`
whose branches yield values is a located PlError, and statements after a `return`,
or after an `if` all of whose branches return, are unreachable and dropped here (as the reference,
pl accepts such dead code and never runs it; show_inferred keeps its text). A use of a name that no path defines (bound only
inside a loop it is not carried out of, or in one branch of an if) is a located PlError at the use,
never a placeholder name. A value first bound in a loop and used after it starts from a stand-in
(a value of its type, else a zero of its scalar type; a non-scalar one without a stand-in is that
error at the loop); a statement every iteration runs that reads it before the loop binds it would
read the stand-in, and is that error too (`_check_read_before_bound`).

Variables: a source variable may be several Vars before SSA, since a Var has one type and a
variable's value may differ in type on two paths: the frontend records which Vars stand for one
variable (`Function.same_variable`: a later branch's first binding of a name an earlier branch of
the if bound first, and an iter arg's rebinding), and versions, carries and phis are kept per
variable (`_Converter.same`), never matched by name.

The use-after analysis of a sequence (`suffix_needs`) tells each loop, if and scope in it which
values the statements after it need.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from typing_extensions import assert_never

from pl.errors import PlError
from pl.ir import (
    AssignStmt,
    BreakStmt,
    ConstBool,
    ConstFloat,
    ConstInt,
    ContinueStmt,
    DType,
    EvalStmt,
    Expr,
    ForStmt,
    Function,
    IfStmt,
    IterArg,
    ParamDirection,
    Program,
    ReturnStmt,
    ScalarType,
    ScopeStmt,
    SeqStmts,
    Stmt,
    TensorType,
    TileType,
    Type,
    Var,
    WhileStmt,
    YieldStmt,
    make_body,
    static_shape,
)
from pl.ir.names import user_name
from pl.ir.span import Span
from pl.ir.stmt import stmt_kind
from pl.ir.traverse import map_stmt, stmt_defs, stmt_exprs, walk_exprs, walk_stmts
from pl.lowering.outline import OUTLINING, outlined_region
from pl.lowering.ssa.flow import fold_early_returns, lower_break_continue, never_falls_through
from pl.lowering.ssa.support import (
    Misses,
    Substituter,
    assigned_vars,
    assignment_type,
    assignment_types,
    is_transparent_scope,
    suffix_needs,
    versioned_name,
)
from pl.lowering.ssa.verify import verify_ssa

__all__ = ["convert_function", "convert_to_ssa", "verify_ssa"]


def convert_to_ssa(program: Program) -> Program:
    """Every function of `program` in SSA form (see the module docstring)."""
    funcs = tuple(convert_function(f) for f in program.functions)
    return dataclasses.replace(program, functions=funcs)


def convert_function(func: Function) -> Function:
    if func.host_body is not None or func.external_source is not None:
        return func  # its Python / C++ names the parameters as written: not renamed
    source = func
    body = fold_early_returns(lower_break_continue(func.body))
    if body is not func.body:
        func = dataclasses.replace(func, body=body)
    return _Converter(func, source).run()


def _name_key(v: Var) -> str:
    return v.name


def _check_read_before_bound(body: Stmt, starts: dict[IterArg, Var]) -> None:
    """`starts`: the iter args of values a loop binds that no path before it binds, whose first
    value is a stand-in (`find_init`, as in the reference). A statement every iteration runs (at
    the top of the body, or in a scope there) that reads one, before the body binds it, reads
    the stand-in in the first iteration: the kernel never bound that value, so that read is the
    user's error, never a silent stand-in. A read in a branch (`if k == 0: acc = pl.matmul(..)`
    `else: acc = pl.matmul_acc(acc, ..)`) may be guarded by the first iteration, and a yield or a
    nested loop's init_values only passes the value on: both are accepted, as in the
    reference."""
    todo = [body]
    while todo:
        st = todo.pop()
        k = stmt_kind(st)
        match k:
            case SeqStmts():
                todo.extend(reversed(k.stmts))
                continue
            case ScopeStmt():
                todo.append(k.body)
                exprs: tuple[Expr, ...] = stmt_exprs(k)
            case AssignStmt() | EvalStmt():
                exprs = stmt_exprs(k)
            case IfStmt():
                exprs = (k.condition,)
            case ForStmt():
                exprs = (k.start, k.stop, k.step)
            case WhileStmt() | ReturnStmt() | YieldStmt() | BreakStmt() | ContinueStmt():
                # Not checked: a nested loop's init_values and a yield only pass the value on
                # (see above), and a return, break or continue ends the iteration.
                continue
            case _:
                assert_never(k)
        for e in exprs:
            for sub in walk_exprs(e):
                key = starts.get(sub) if isinstance(sub, IterArg) else None
                if key is not None:
                    raise _not_on_every_path(key.name, st.span)


def _not_on_every_path(name: str, span: Span) -> PlError:
    return PlError(f"'{name}' is not defined on every path to this use: it is bound only inside "
                   "a loop it is not carried out of, or in one branch of an if", span,
                   hint=f"assign '{name}' before the loop or if, or carry it out of the loop "
                        "with init_values and pl.yield_")


class _Converter:
    """One function's conversion state: current version and next version number per source Var."""

    def __init__(self, func: Function, source: Function) -> None:
        self.func = func
        # The function as written: what it defines includes the dead code (after a `continue`
        # or a `return`) that `func` no longer holds, so a read of a value bound only there is
        # the user's located error, never a free Var.
        self.source = source
        self.cur: dict[Var, Var] = {}
        # Version counters are per NAME, so printed versions never collide: two variables may
        # share a name (an inlined helper's local and the caller's value).
        self.ver: dict[str, int] = {}
        self.future: set[Var] = set()
        self.misses = Misses()
        # One key per source variable: the frontend's record of the Vars that stand for one.
        self.same: dict[Var, Var] = dict(func.same_variable)
        # The values an outlined scope's body defined (pl/lowering/outline.py): another task's
        # tiles, which no loop after that scope may start a carry from.
        self.task_local: set[Var] = set()
        self.substituter = Substituter(self.cur, self.misses, same=self.same)

    # ── versions ──

    def next_version(self, key: Var) -> int:
        name = key.name
        v = self.ver.get(name, 0)
        self.ver[name] = v + 1
        return v

    def alloc(self, key: Var, t: Type, span: Span) -> Var:
        var = Var(versioned_name(key.name, "ssa", self.next_version(key)), self.subst_type(t), span=span)
        self.cur[key] = var
        return var

    def sub(self) -> Substituter:
        """A Substituter over the current versions (`self.cur` is replaced at loops and ifs)."""
        if self.substituter.versions is not self.cur:
            self.substituter = Substituter(self.cur, self.misses, self.substituter.static, self.same)
        return self.substituter

    def subst(self, e: Expr) -> Expr:
        return self.sub().expr(e)

    def subst_type(self, t: Type) -> Type:
        return self.sub().type(t)

    def subst_value(self, v: Any) -> Any:
        return self.sub().value(v)

    # ── function ──

    def run(self) -> Function:
        f = self.func
        params = tuple(self.alloc(p, p.type, p.span) for p in f.params)
        body = self.stmt(f.body)
        attrs = self.subst_value(f.attrs)
        self.check_unbound()
        # (Every variable is now its versions' Vars: the frontend's identities are spent.)
        return dataclasses.replace(f, params=params, body=body, attrs=attrs, same_variable=())

    def check_unbound(self) -> None:
        """A use of a name the function defines but no path to the use binds is the user's error
        (printing it would need a placeholder name that does not parse back)."""
        if not self.misses.found:
            return
        defined = _source_definitions(self.source)
        for var, span in self.misses.found.items():
            if var in defined:  # (else a free Var, a dynamic dim: it has no versions)
                raise _not_on_every_path(var.name, span)

    # ── statements ──

    def stmt(self, stmt: Stmt) -> Stmt:
        self.misses.where = stmt.span
        s = stmt_kind(stmt)
        match s:
            case AssignStmt():
                return self.assign(s)
            case SeqStmts():
                return self.seq(s)
            case ForStmt() | WhileStmt():
                return self.loop(s)
            case IfStmt():
                return self.if_(s)
            case ReturnStmt() | YieldStmt() | EvalStmt():
                return map_stmt(s, expr=self.subst)
            case ScopeStmt():
                return self.scope(s)
            case BreakStmt() | ContinueStmt():
                return s  # (lower_break_continue has removed them before conversion)
            case _:
                assert_never(s)

    def assign(self, s: AssignStmt) -> Stmt:
        sub = self.sub()
        value = sub.expr(s.value)
        key = self.same.get(s.var, s.var)
        var = Var(versioned_name(key.name, "ssa", self.next_version(key)),
                  sub.type(assignment_type(key.var_type, value)), span=key.span)
        self.cur[key] = var
        return AssignStmt(var, value, span=s.span, comments=s.comments)

    def seq(self, s: SeqStmts) -> Stmt:
        _check_no_mid_yield(s)
        stmts = _reachable(s.stmts)
        needs = suffix_needs(stmts)
        # What follows this sequence (after the if whose branch it is, say) follows each child too.
        after = self.future
        out = []
        for i, child in enumerate(stmts):
            later = needs.get(i)
            # Only a statement that holds statements reads self.future (see suffix_needs).
            self.future = after if later is None else {self.same.get(v, v) for v in later} | after
            out.append(self.stmt(child))
        return _with_span(make_body(out), s)

    def scope(self, s: ScopeStmt) -> Stmt:
        # Args are evaluated at scope entry, so they see the versions visible before the body.
        args = self.subst_value(s.args)
        boundary = not is_transparent_scope(s)
        saved = self.future
        if boundary:
            # A loop inside an outlined scope cannot carry a value to a use after the scope.
            self.future = {v for v in self.future if v in self.cur}
        known = set(self.cur.values())
        body = self.stmt(s.body)
        if boundary:
            self.future = saved
        if self.func.func_type in OUTLINING and outlined_region(s) is not None:
            self.task_local.update(v for v in self.cur.values()
                                   if v not in known and isinstance(v.type, TileType))
        # Bindings made in the scope body stay visible after it (cur is not restored); the task
        # id (`as tid`) is bound when the scope ends.
        tid = s.task_id
        if tid is not None:
            tid = self.alloc(tid, tid.type, tid.span)
        return dataclasses.replace(s, body=body, args=args, task_id=tid)

    def loop(self, s: ForStmt | WhileStmt) -> Stmt:
        needs = self.future
        if isinstance(s, ForStmt):
            start, stop, step = self.subst(s.start), self.subst(s.stop), self.subst(s.step)
        before = dict(self.cur)

        existing = [IterArg(ia.name, self.subst_type(ia.type), init=self.subst(ia.init), span=ia.span)
                    for ia in s.iter_args]
        sources: list[Var] = list(s.iter_args)  # the source Var each new iter arg stands for
        skip = set(s.iter_args) | ({s.loop_var} if isinstance(s, ForStmt) else set())
        assigned = [v for v in dict.fromkeys(self.same.get(v, v) for v in assigned_vars(s.body))
                    if v not in skip]
        carried = sorted((v for v in assigned if v in before), key=_name_key)
        escaping = sorted((v for v in assigned if v not in before and v in needs), key=_name_key)
        types = {self.same.get(v, v): t for v, t in assignment_types(s.body).items()}

        ias: list[IterArg] = list(existing)
        new_rvs: list[Var] = []
        for key in carried:
            init = before[key]
            ias.append(IterArg(versioned_name(key.name, "iter", self.next_version(key)), init.type,
                               init=init, span=s.span))
            sources.append(key)
            new_rvs.append(Var(versioned_name(key.name, "rv", self.next_version(key)), init.type,
                               span=s.span))
        for key in escaping:
            t = self.subst_type(types[key])
            found = self.find_init(t, before)
            start_value = found if found is not None else _zero_of(t, key, s.span)
            ias.append(IterArg(versioned_name(key.name, "iter", self.next_version(key)), t,
                               init=start_value, span=s.span))
            sources.append(key)
            new_rvs.append(Var(versioned_name(key.name, "rv", self.next_version(key)), t, span=s.span))

        loop_var = None
        if isinstance(s, ForStmt):
            lv = s.loop_var
            loop_var = Var(versioned_name(lv.name, "idx", self.next_version(lv)), lv.type, span=lv.span)
            self.cur[lv] = loop_var
        for src, ia in zip(sources, ias, strict=True):
            self.cur[src] = ia
            self.cur[ia] = ia

        condition = self.subst(s.condition) if isinstance(s, WhileStmt) else None
        body = self.stmt(s.body)
        if escaping:
            _check_read_before_bound(body, dict(zip(ias[len(existing) + len(carried):], escaping,
                                                    strict=True)))
        after = self.cur

        self.cur = dict(before)
        for key, rv in zip(carried + escaping, new_rvs, strict=True):
            self.cur[key] = rv
        old_rvs = []
        for rv in s.return_vars:  # (a result is its source variable's new version)
            nrv = Var(rv.name, self.subst_type(rv.type), span=rv.span)
            self.cur[self.same.get(rv, rv)] = nrv
            old_rvs.append(nrv)
        for src, nrv in zip(s.iter_args, old_rvs, strict=False):
            self.cur[src] = nrv

        yields = list(y.values) if (y := _trailing_yield(body)) is not None else []
        yields += [after[k] for k in carried + escaping]
        if yields:
            body = _replace_or_append_yield(body, tuple(yields), s.span)
        rvs = tuple(old_rvs + new_rvs)
        if isinstance(s, ForStmt):
            assert loop_var is not None
            return dataclasses.replace(s, loop_var=loop_var, start=start, stop=stop, step=step,
                                       iter_args=tuple(ias), body=body, return_vars=rvs)
        assert condition is not None
        return dataclasses.replace(s, condition=condition, iter_args=tuple(ias), body=body,
                                   return_vars=rvs)

    def find_init(self, t: Type, before: dict[Var, Var]) -> Var | None:
        """Initial value of an escaping iter arg: an Out/InOut param of that type, else any value."""
        for p, d in zip(self.func.params, self.func.directions, strict=False):
            if d in (ParamDirection.Out, ParamDirection.InOut) and p in before and before[p].type == t:
                return before[p]
        # Dict order is first-definition order, our stand-in for the reference's creation order.
        for v in before.values():
            if v.type == t and v not in self.task_local:
                return v
        return None

    def if_(self, s: IfStmt) -> Stmt:
        needed = self.future  # uses after the if (the branches' own sequences reset self.future)
        cond = self.subst(s.condition)
        before = dict(self.cur)
        then_body = self.stmt(s.then_body)
        then_ver = self.cur
        self.cur = dict(before)
        else_body = self.stmt(s.else_body) if s.else_body is not None else None
        else_ver = self.cur if s.else_body is not None else before
        then_returns, else_returns = never_falls_through(s.then_body), never_falls_through(s.else_body)
        if (then_returns or else_returns) and not s.return_vars:
            # Only a branch that falls through reaches the code after the if: no merge.
            self.cur = dict(before if then_returns and else_returns
                            else else_ver if then_returns else then_ver)
            return dataclasses.replace(s, condition=cond, then_body=then_body, else_body=else_body,
                                       return_vars=())

        # Keys are source variables (Function.same_variable): one bound before the if that a
        # path rebinds is merged, and so is one both paths bind first that is read after the if.
        phis = [key for key, v in then_ver.items()
                if (v is not before[key] or else_ver[key] is not before[key] if key in before
                    else key in else_ver and key in needed)]
        phis.sort(key=_name_key)

        self.cur = dict(before)
        if not phis and not s.return_vars:
            return dataclasses.replace(s, condition=cond, then_body=then_body, else_body=else_body,
                                       return_vars=())
        rvs: list[Var] = []
        then_y: list[Expr] = []
        else_y: list[Expr] = []
        for key in phis:
            tv, ev = then_ver[key], else_ver[key]
            _check_merge(key.name, tv.type, ev.type, s.span)
            phi = Var(versioned_name(key.name, "phi", self.next_version(key)), tv.type, span=s.span)
            rvs.append(phi)
            then_y.append(tv)
            else_y.append(ev)
            self.cur[key] = phi
        for rv in s.return_vars:
            key = self.same.get(rv, rv)
            if key in phis:
                continue
            nrv = Var(versioned_name(rv.name, "rv", self.next_version(rv)), self.subst_type(rv.type),
                      span=rv.span)
            rvs.append(nrv)
            self.cur[key] = nrv
        if phis:
            # The phis come first; a branch's own yield (the explicit return vars) follows them.
            then_body = _replace_or_append_yield(then_body, (*then_y, *_yielded(then_body)), s.span)
            else_body = (_replace_or_append_yield(else_body, (*else_y, *_yielded(else_body)), s.span)
                         if else_body is not None else YieldStmt(tuple(else_y), span=s.span, comments=()))
        return dataclasses.replace(s, condition=cond, then_body=then_body, else_body=else_body,
                                   return_vars=tuple(rvs))


# ── control flow ─────────────────────────────────────────────────────────────────────────────────


def _check_merge(name: str, then_type: Type, else_type: Type, span: Span) -> None:
    """A located PlError when the two paths through an if give `name` tiles (or tensors) of
    different dtypes or static shapes: the merged value has one type (memory spaces may differ:
    inference reconciles them), and compiling would read one path's value as the other's."""
    for kind in (TileType, TensorType):
        if not (isinstance(then_type, kind) and isinstance(else_type, kind)):
            continue
        a, b = static_shape(then_type.shape), static_shape(else_type.shape)
        if then_type.dtype != else_type.dtype or (a is not None and b is not None and a != b):
            what = "tile" if kind is TileType else "tensor"
            raise PlError(
                f"'{user_name(name)}' is a {what} of shape {list(a) if a is not None else '?'} "
                f"and dtype {then_type.dtype.name} after the if's first branch, but of shape "
                f"{list(b) if b is not None else '?'} and dtype {else_type.dtype.name} on the "
                "other path: the value after the if has one type", span,
                hint=f"give '{user_name(name)}' values of one shape and dtype on both paths, "
                     "or another name on one of them")


def _reachable(stmts: tuple[Stmt, ...]) -> tuple[Stmt, ...]:
    """`stmts` up to and including the first one that never falls through."""
    for i, c in enumerate(stmts):
        if type(c) is not AssignStmt and never_falls_through(c):
            return stmts[:i + 1]
    return stmts


def _source_definitions(func: Function) -> set[Var]:
    """Every Var the (pre-SSA) function binds: params, assignments, loop vars, carries, results."""
    out: set[Var] = set(func.params)
    for stmt in walk_stmts(func.body):
        out.update(stmt_defs(stmt))
    return out


def _zero_of(t: Type, key: Var, span: Span) -> Expr:
    """The start value of a scalar first bound inside a loop and used after it, when no value of
    its type exists before the loop (only read if the loop runs no trip, where the source would
    have no value at all)."""
    if not isinstance(t, ScalarType):
        raise PlError(f"'{key.name}' is first bound inside this loop and used after it, and no "
                      "value of its type exists before the loop to start it from", span,
                      hint=f"assign '{key.name}' before the loop, or carry it out with "
                           "init_values and pl.yield_")
    if t.dtype is DType.BOOL:
        return ConstBool(False, span=span)
    if t.dtype.is_float():
        return ConstFloat(0.0, t.dtype, span=span)
    return ConstInt(0, t.dtype, span=span)


# ── yields ───────────────────────────────────────────────────────────────────────────────────────


def _check_no_mid_yield(s: Stmt) -> None:
    if isinstance(s, SeqStmts):
        for i, c in enumerate(s.stmts[:-1]):
            if isinstance(c, YieldStmt):
                raise ValueError(f"convert_to_ssa: a yield at position {i} of {len(s.stmts)}; "
                                 "a yield must be the last statement of its body")


def _trailing_yield(s: Stmt) -> YieldStmt | None:
    """The yield ending a body, looking through `pl.scope()` wrappers."""
    _check_no_mid_yield(s)
    k = stmt_kind(s)
    match k:
        case YieldStmt():
            return k
        case ScopeStmt():
            return _trailing_yield(k.body) if is_transparent_scope(k) else None
        case SeqStmts():
            return _trailing_yield(k.stmts[-1]) if k.stmts else None
        case AssignStmt() | EvalStmt() | ReturnStmt() | IfStmt() | ForStmt() | WhileStmt() \
                | BreakStmt() | ContinueStmt():
            return None
        case _:
            assert_never(k)


def _yielded(s: Stmt) -> tuple[Expr, ...]:
    """The values of the yield that ends `s`, if any."""
    y = _trailing_yield(s)
    return y.values if y is not None else ()


def _replace_or_append_yield(s: Stmt, values: tuple[Expr, ...], span: Span) -> Stmt:
    """`s` ending in `yield values`: an existing trailing yield is replaced, else one is appended."""
    _check_no_mid_yield(s)
    new = YieldStmt(values, span=span, comments=())
    k = stmt_kind(s)
    match k:
        case YieldStmt():
            return dataclasses.replace(k, values=values)
        case ScopeStmt() if is_transparent_scope(k):
            return dataclasses.replace(k, body=_replace_or_append_yield(k.body, values, span))
        case SeqStmts():
            stmts = list(k.stmts)
            if stmts and _trailing_yield(stmts[-1]) is not None:
                stmts[-1] = _replace_or_append_yield(stmts[-1], values, span)
            else:
                stmts.append(new)
            return _with_span(make_body(stmts), k)
        case ScopeStmt() | AssignStmt() | EvalStmt() | ReturnStmt() | IfStmt() | ForStmt() \
                | WhileStmt() | BreakStmt() | ContinueStmt():
            return make_body([k, new])
        case _:
            assert_never(k)


def _with_span(body: Stmt, like: SeqStmts) -> Stmt:
    """Keep a rebuilt SeqStmts' span and comments."""
    if isinstance(body, SeqStmts):
        return dataclasses.replace(body, span=like.span, comments=like.comments)
    return body
