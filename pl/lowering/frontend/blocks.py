"""Blocks and the statements that hold them: if/else, `with` scopes, `for` over
pl.range/parallel/unroll/pipeline/while_/spmd/split_aiv, `while` (one module: they lower each
other's bodies).

Guarantees: leading `#` comments of a statement become the `comments` of the first IR statement
it produces (comments above a `pass` move on to the next one); if-branches with assignment-form
`pl.yield_` get return vars, otherwise their bindings stay visible after the if (non-SSA, fixed
by SSA conversion); a loop with `init_values=` gets one IterArg per name (visible only in the body) and
return vars named by the assignment-form `pl.yield_` (or `<iter>_out` when the body yields
nothing); a loop without init_values has no iter args, and its body bindings stay visible after
it (non-SSA; SSA conversion adds the carried values). Scopes are transparent the same way; the
task id `with pl.at(...) as tid:` / `with pl.spmd(...) as tid:` binds is visible after the scope
(their arguments: lowering.frontend.scope_args). `for i in pl.spmd(n)` is a Spmd scope around an
InCore scope starting with `i = pl.tile.get_block_idx()`, `for aiv_id in pl.split_aiv(2, mode=M)`
a SplitAiv scope starting with `aiv_id = pl.tile.get_subblock_idx()` (as the reference builds
them). Any other iterator is a located error.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType
from typing import Any, Final, TypeGuard

import libcst as cst
from typing_extensions import assert_never

from pl.errors import InternalError, PlError
from pl.ir.enums import DType, ForKind, FunctionType, Level, ScopeKind
from pl.ir.expr import ConstBool, ConstFloat, ConstInt, Expr, IterArg, Var
from pl.ir.stmt import (
    AssignStmt,
    BreakStmt,
    ContinueStmt,
    ForStmt,
    IfStmt,
    ReturnStmt,
    ScopeStmt,
    Stmt,
    WhileStmt,
    YieldStmt,
    flatten_body,
    make_body,
)
from pl.ir.types import ScalarType, TileType, Type
from pl.language import dsl
from pl.lowering.frontend.context import FnCtx, YieldSite
from pl.lowering.frontend.exprs import hoist_nested, lower_expr, lower_value
from pl.lowering.frontend.op_builders import build_call
from pl.lowering.frontend.positions import compound_kind
from pl.lowering.frontend.scope_args import (
    OpenScope,
    check_runtime_scope,
    check_spmd_body,
    in_scope,
    split_aiv_mode,
    spmd_args,
    task_id_target,
    with_args,
)
from pl.lowering.frontend.stmts import comments_of, declared_literal, dsl_callee, lower_small
from pl.lowering.frontend.types import type_text

_KINDS: Final[Mapping[int, ForKind]] = MappingProxyType({
    id(dsl.range): ForKind.Sequential, id(dsl.parallel): ForKind.Parallel,
    id(dsl.unroll): ForKind.Unroll, id(dsl.pipeline): ForKind.Pipeline})
_ITER_MSG = ("For loop must use pl.range(), pl.parallel(), pl.unroll(), pl.pipeline(), "
             "pl.while_(), pl.spmd(), or pl.split_aiv()")
# Loop arguments that have no meaning on the loop form of pl.spmd (its blocks are not iterations).
_SPMD_LOOP_ONLY = ("init_values", "chunk", "chunk_policy", "attrs", "step", "stage")
_BARE_YIELD = ("Loop with init_values requires an assignment-form pl.yield_(...) — the LHS "
               "supplies the post-loop binding name. Bare pl.yield_(...) is rejected here.")


def lower_block(ctx: FnCtx, stmts: Sequence[cst.CSTNode]) -> list[Stmt]:
    out: list[Stmt] = []
    pending: list[str] = []
    outer_span = ctx.cur_span
    src = ctx.src
    for s in stmts:
        if ctx.result_types and type(s) is not cst.If and not declaration_line(s):
            raise _misplaced_declaration(ctx)
        if getattr(s, "leading_lines", None):
            pending += comments_of(s)
        if type(s) is cst.SimpleStatementLine and len(s.body) == 1:  # the common line
            small = s.body[0]
            ctx.cur_span = src.stmt_span(small)
            produced = lower_small(ctx, small)
        elif isinstance(s, cst.SimpleStatementLine):
            produced = []
            for small in s.body:
                ctx.cur_span = src.stmt_span(small)
                produced += lower_small(ctx, small)
        elif isinstance(s, cst.BaseCompoundStatement):
            ctx.cur_span = ctx.src.stmt_span(s)
            produced = _header_first(ctx, lower_compound, s)
        else:
            raise InternalError(f"a suite holds a {type(s).__name__}, not a statement")
        if ctx.result_types and not declaration_line(s):  # `p: T; x = 1` before the if
            raise _misplaced_declaration(ctx)
        ctx.emitted += len(produced)
        if produced and isinstance(produced[-1], YieldStmt) and s is not stmts[-1]:
            raise ctx.error(s, "pl.yield_ must be the last statement of its loop or branch body",
                            hint="move the statements after it above the yield")
        if produced and pending:
            # Before any the statement has already (an inline function's, spliced first).
            produced[0] = replace(produced[0],  # type: ignore[type-var]
                                  comments=(*pending, *produced[0].comments))
            pending = []
        out += produced
    if ctx.result_types:
        raise _misplaced_declaration(ctx)
    ctx.cur_span = outer_span
    return out


def _header_first(ctx: FnCtx, lower: Callable[[FnCtx, Any], list[Stmt]], node: cst.CSTNode
                  ) -> list[Stmt]:
    """The statements `lower` makes for the compound statement `node`, after those its header puts
    first (see `FnCtx.hoisted`: a loop's initial values bound to names, an inline function's
    body), which the header evaluates once, before its body. A while's condition has none
    (`_bool_cond`); the bodies' statements put their own."""
    outer, ctx.hoisted = ctx.hoisted, []
    try:
        produced = lower(ctx, node)
        hoisted: list[Stmt] = ctx.hoisted
    finally:
        ctx.hoisted = outer
    return hoisted + produced if hoisted else produced


def declaration_line(s: cst.CSTNode) -> TypeGuard[cst.SimpleStatementLine]:
    """Whether `s` is a line of bare annotations (`p: T`), which type the if after them."""
    return isinstance(s, cst.SimpleStatementLine) and all(
        isinstance(small, cst.AnnAssign) and small.value is None for small in s.body)


def _misplaced_declaration(ctx: FnCtx) -> PlError:
    name, (_, node) = next(iter(ctx.result_types.items()))
    ctx.result_types.clear()
    return ctx.error(node, f"'{name}: ...' without a value must stand right before an if that "
                           f"yields '{name}'",
                     hint=f"give it a value (`{name}: T = ...`), or annotate the yield "
                          f"(`{name}: T = pl.yield_(...)`)")


def suite(body: cst.BaseSuite) -> Sequence[cst.CSTNode]:
    if isinstance(body, cst.IndentedBlock):
        return body.body
    assert isinstance(body, cst.SimpleStatementSuite)
    return [cst.SimpleStatementLine(body=[b]) for b in body.body]


def lower_compound(ctx: FnCtx, node: cst.BaseCompoundStatement) -> list[Stmt]:
    kind = compound_kind(node)
    match kind:
        case cst.If():
            return lower_if(ctx, kind)
        case cst.For():
            return lower_for(ctx, kind)
        case cst.While():
            return lower_while(ctx, kind)
        case cst.With():
            return lower_with(ctx, kind)
        case cst.Try() | cst.TryStar() | cst.FunctionDef() | cst.ClassDef() | cst.Match():
            raise ctx.error(node, f"Unsupported statement type: {type(node).__name__}")
        case _:
            assert_never(kind)


def _bool_cond(ctx: FnCtx, node: cst.BaseExpression) -> Expr:
    """A while's condition. It is evaluated before every iteration, so nothing of it is put before
    the loop (an inline function's body would be computed once there), and the flatten_call_expr
    pass leaves its nested op calls where they are written (inference moves their operands in
    place)."""
    outer, ctx.hoisted = ctx.hoisted, None
    try:
        cond = lower_expr(ctx, node)
    finally:
        ctx.hoisted = outer
    if cond.type != ScalarType(DType.BOOL):
        raise ctx.error(node, "Loop condition must be a Bool-typed scalar expression, got "
                              f"{type_text(cond.type)}")
    return cond


def _inits(ctx: FnCtx, node: cst.BaseExpression) -> list[Expr]:
    if not isinstance(node, cst.List | cst.Tuple):
        raise ctx.error(node, "init_values must be a list or tuple literal, e.g. init_values=(x,)")
    return [hoist_nested(ctx, lower_expr(ctx, el.value)) for el in node.elements]


def _carried_names(ctx: FnCtx, node: cst.BaseExpression) -> list[cst.Name]:
    if not isinstance(node, cst.Tuple | cst.List) or not all(
            isinstance(el.value, cst.Name) for el in node.elements):
        raise ctx.error(node, "Loop-carried names must be a tuple of names, e.g. (acc,)")
    return [el.value for el in node.elements]  # type: ignore[misc]


def _body(ctx: FnCtx, kind: str, node: cst.For | cst.While, binds: list[Var],
          skip_first: bool = False) -> tuple[list[Stmt], dict[str, Var], list[YieldSite]]:
    ctx.push()
    for v in binds:
        ctx.bind(v.name, v)
    ctx.loops.append((kind, node))
    ctx.loop_scopes.append(len(ctx.scopes) - 1)
    ctx.yields.append([])
    stmts = list(suite(node.body))
    body = lower_block(ctx, stmts[1:] if skip_first else stmts)
    sites = ctx.yields.pop()
    ctx.loop_scopes.pop()
    ctx.loops.pop()
    names = ctx.pop()
    for v in binds:
        if names.get(v.name) is v:
            del names[v.name]
    return body, names, sites


def _return_vars(ctx: FnCtx, iter_args: list[IterArg], sites: list[YieldSite],
                 loop: cst.For) -> tuple[Var, ...]:
    for s in sites:
        if s.names is None:
            raise ctx.error(s.node, _BARE_YIELD)
    if not sites:
        # Its carried names have no value after it: a read of one says the yield is missing.
        for ia in iter_args:
            ctx.unyielded[ia.name] = loop
        return tuple(Var(f"{ia.name}_out", ia.type) for ia in iter_args)
    site = sites[-1]
    assert site.names is not None
    if len(site.names) != len(iter_args):
        raise ctx.error(site.node, f"pl.yield_ gives {len(site.names)} value(s) but the loop "
                                   f"carries {len(iter_args)} iter_args")
    # A loop's results are typed like its iter args (dsl.md 1.5), as the reference's loop
    # builder types them; an annotation on the yield is not their type. It could not be: once SSA
    # adds carried values the yield prints as `a, b = pl.yield_(...)`, which has no annotation,
    # and reading that back must give the same program.
    return tuple(Var(n, iter_args[i].type) for i, n in enumerate(site.names))


def lower_for(ctx: FnCtx, node: cst.For) -> list[Stmt]:
    if node.orelse is not None:
        raise ctx.error(node.orelse, "Unsupported statement type: For-else")
    obj = dsl_callee(ctx, node.iter)
    if obj is dsl.while_:
        return _while_for(ctx, node)
    if (obj is dsl.spmd or obj is dsl.split_aiv) and isinstance(node.iter, cst.Call):
        return _spmd_for(ctx, node) if obj is dsl.spmd else _split_aiv_for(ctx, node)
    if id(obj) not in _KINDS or _KINDS.get(id(obj)) is None or not isinstance(node.iter, cst.Call):
        raise ctx.error(node.iter, _ITER_MSG)
    kind = _KINDS[id(obj)]
    call = node.iter
    bounds = [a for a in call.args if a.keyword is None]
    kw = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
    if not 1 <= len(bounds) <= 3:
        raise ctx.error(call, "pl.range takes 1 to 3 positional arguments (start, stop, step)")
    vals = [lower_expr(ctx, a.value) for a in bounds]
    one, zero = ConstInt(1, DType.INDEX), ConstInt(0, DType.INDEX)
    start, stop, step = (zero, vals[0], one) if len(vals) == 1 else (
        vals[0], vals[1], vals[2] if len(vals) == 3 else one)
    if kind is ForKind.Unroll and not all(isinstance(v, ConstInt) for v in (start, stop, step)):
        raise ctx.error(call, "pl.unroll needs integer-literal bounds")
    if kind is ForKind.Unroll and isinstance(step, ConstInt) and step.value == 0:
        # (Any other loop with a step of 0 runs no iteration, as the reference counts it.)
        raise ctx.error(call, "pl.unroll's step must not be zero")
    attrs: list[tuple[str, Any]] = []
    inits: list[Expr] | None = None
    for key, val in kw.items():
        if key == "init_values":
            if kind is ForKind.Unroll:
                raise ctx.error(val, "pl.unroll does not take init_values")
            inits = _inits(ctx, val)
        elif key == "stage" and kind is ForKind.Pipeline:
            stage = lower_expr(ctx, val)
            if not isinstance(stage, ConstInt):
                raise ctx.error(val, "pl.pipeline's stage must be an integer literal")
            if stage.value < 1:
                raise ctx.error(val, f"pl.pipeline() stage must be >= 1, got {stage.value}",
                                hint="stage is how many iterations are in flight at once")
            attrs.append(("pipeline_stages", stage.value))
        elif key == "attrs" and isinstance(val, cst.Dict):
            attrs.extend(_loop_attrs(ctx, val))
        else:
            raise ctx.error(val, f"Unknown loop argument '{key}'")
    if kind is ForKind.Pipeline and "stage" not in kw:
        raise ctx.error(call, "pl.pipeline() requires stage=N, the iterations in flight at once",
                        hint="for i in pl.pipeline(8, stage=2): ...")
    target = node.target
    if inits is None:
        if not isinstance(target, cst.Name):
            raise ctx.error(target, "A loop without init_values takes a single loop variable")
        loop_name = target
        carried: list[cst.Name] = []
    else:
        if not (isinstance(target, cst.Tuple) and len(target.elements) == 2
                and isinstance(target.elements[0].value, cst.Name)):
            raise ctx.error(target, "With init_values the loop target must be `i, (a, b, ...)`")
        loop_name = target.elements[0].value
        carried = _carried_names(ctx, target.elements[1].value)
        if len(carried) != len(inits):
            raise ctx.error(target.elements[1].value, f"Mismatch: {len(carried)} iter_args but "
                                                      f"{len(inits)} init_values")
    span = ctx.src.stmt_span(node)
    dt = stop.type.dtype if isinstance(stop.type, ScalarType) and stop.type.dtype.is_int() \
        and not isinstance(stop, ConstInt) else DType.INDEX
    loop_var = Var(loop_name.value, ScalarType(dt if dt != DType.INT64 else DType.INDEX), span=span)
    iter_args = [IterArg(n.value, e.type, init=e, span=span) for n, e in zip(carried, inits or [],
                                                                           strict=True)]
    body, names, sites = _body(ctx, kind.name, node, [loop_var, *iter_args])
    rvs: tuple[Var, ...] = ()
    if inits is not None:
        rvs = _return_vars(ctx, iter_args, sites, node)
        for v in rvs:
            ctx.bind_new(v)
    else:
        if sites:
            raise ctx.error(sites[0].node, "pl.yield_ in a loop needs init_values=(...) on the loop")
        ctx.leak(names)
    return [ForStmt(loop_var, start, stop, step, tuple(iter_args), make_body(body), rvs, kind,
                    tuple(attrs), span=span)]


def _while_for(ctx: FnCtx, node: cst.For) -> list[Stmt]:
    call = node.iter
    assert isinstance(call, cst.Call)
    kw = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
    if "init_values" not in kw or len(kw) != len(call.args):
        raise ctx.error(call, "pl.while_ takes only init_values=(...)")
    inits = _inits(ctx, kw["init_values"])
    carried = _carried_names(ctx, node.target)
    if len(carried) != len(inits):
        raise ctx.error(node.target, f"Mismatch: {len(carried)} iter_args but {len(inits)} "
                                     "init_values")
    span = ctx.src.stmt_span(node)
    iter_args = [IterArg(n.value, e.type, init=e, span=span) for n, e in zip(carried, inits,
                                                                           strict=True)]
    stmts = list(suite(node.body))
    first = stmts[0] if stmts else None
    cond_call = first.body[0].value if isinstance(first, cst.SimpleStatementLine) and isinstance(
        first.body[0], cst.Expr) else None
    if cond_call is None or dsl_callee(ctx, cond_call) is not dsl.cond:
        raise ctx.error(first or node, "The first statement of a pl.while_ loop must be "
                                       "pl.cond(<condition>)")
    assert isinstance(cond_call, cst.Call)
    ctx.push()
    for ia in iter_args:
        ctx.bind(ia.name, ia)
    cond = _bool_cond(ctx, cond_call.args[0].value)
    ctx.pop()
    body, _names, sites = _body(ctx, "While", node, list(iter_args), skip_first=True)
    rvs = _return_vars(ctx, iter_args, sites, node)
    for v in rvs:
        ctx.bind_new(v)
    return [WhileStmt(tuple(iter_args), cond, make_body(body), rvs, span=span)]


def lower_while(ctx: FnCtx, node: cst.While) -> list[Stmt]:
    if node.orelse is not None:
        raise ctx.error(node.orelse, "Unsupported statement type: While-else")
    cond = _bool_cond(ctx, node.test)
    body, names, sites = _body(ctx, "While", node, [])
    if sites:
        raise ctx.error(sites[0].node, "pl.yield_ in a while loop needs pl.while_(init_values=...)")
    ctx.leak(names)
    return [WhileStmt((), cond, make_body(body), span=ctx.src.stmt_span(node))]


# -- if / with --------------------------------------------------------------------------------


def lower_if(ctx: FnCtx, node: cst.If) -> list[Stmt]:
    cond = lower_expr(ctx, node.test)
    if cond.type != ScalarType(DType.BOOL):
        raise ctx.error(node.test, "if condition must be a Bool-typed scalar expression, got "
                                   f"{type_text(cond.type)}",
                        hint="Compare explicitly, e.g. `if n > 0:`")
    # The bare annotations right before this if (lowered before it by lower_block).
    declared_types, ctx.result_types = ctx.result_types, {}
    ctx.yields.append([])
    ctx.push()
    then = lower_block(ctx, suite(node.body))
    then_names = ctx.pop()
    then_sites = ctx.yields.pop()
    ctx.yields.append([])
    ctx.push()
    other: list[Stmt] | None = None
    # A name the first branch bound first (or rebound from an iter arg) is one source variable
    # with the other branch's binding of it (FnCtx.sibling_vars, Function.same_variable).
    siblings = ctx.sibling_vars
    ctx.sibling_vars = {**siblings, **{n: v for n, v in then_names.items()
                                       if not isinstance(v, IterArg) and (
                                           (outer := ctx.lookup_var(n)) is None
                                           or isinstance(outer, IterArg))}}
    if isinstance(node.orelse, cst.Else):
        other = lower_block(ctx, suite(node.orelse.body))
    elif isinstance(node.orelse, cst.If):  # an elif's calls are evaluated only when it is reached
        other = _header_first(ctx, lower_if, node.orelse)
    ctx.sibling_vars = siblings
    else_names = ctx.pop()
    else_sites = ctx.yields.pop()
    span = ctx.src.stmt_span(node)
    sites = then_sites + else_sites
    # A bare `pl.yield_()` yields nothing: the if merges no values and, as with no yield at
    # all, names bound in a branch stay visible after it (the reference reads it the same way).
    if all(s.names is None and not s.values for s in sites):
        _check_declared(ctx, declared_types, [])
        # A branch that ends in a break, continue or return never reaches the code after the
        # if, so its rebinding of a name bound before the if (a new Var where the name is an
        # iter arg's) must not hide that binding there.
        bound_before = {n for n in (*then_names, *else_names) if ctx.lookup_var(n) is not None}
        leaked = [{n: v for n, v in names.items()
                   if not (n in bound_before and _ends_its_path(stmts))}
                  for names, stmts in ((then_names, then), (else_names, other or []))]
        for names in leaked:
            ctx.leak(names)
        # A tile both branches bind, in different spaces: SSA merges the two into one value
        # typed as the then branch's, so the code after the if reads it with that type.
        ctx.leak({n: v for n, v in leaked[0].items()
                  if n in leaked[1] and _spaces_differ(v.type, leaked[1][n].type)})
        return [IfStmt(cond, make_body(then), make_body(other) if other is not None else None,
                       span=span)]
    for s in sites:
        if s.names is None:
            raise ctx.error(s.node, "pl.yield_ in an if needs the assignment form: x = pl.yield_(e)")
    n_then = len(then_sites[-1].values) if then_sites else 0
    n_else = len(else_sites[-1].values) if else_sites else 0
    if n_then != n_else:
        culprit: cst.CSTNode = (else_sites[-1].node if else_sites
                                else node.orelse if node.orelse is not None else node)
        raise ctx.error(culprit, "Both branches of an if must yield the same number of values "
                                 f"({n_then} vs {n_else})",
                        hint="end each branch with `name = pl.yield_(value)`")
    order: list[tuple[str, Any]] = []
    for s in then_sites + else_sites:
        for i, n in enumerate(s.names or []):
            annotated = s.types[i] if i < len(s.types) else None
            if n in declared_types and annotated is not None \
                    and annotated != declared_types[n][0]:
                raise ctx.error(s.node, f"'{n}' is annotated {type_text(annotated)} here but "
                                        f"declared {type_text(declared_types[n][0])} before "
                                        "the if")
            if n not in [o[0] for o in order]:
                t = declared_types[n][0] if n in declared_types \
                    else annotated if annotated is not None else s.values[i].type
                order.append((n, t))
    _check_declared(ctx, declared_types, [o[0] for o in order])
    rvs = tuple(Var(n, t, span=span) for n, t in order)
    for v in rvs:
        ctx.bind_new(v)
    declared = dict(order)
    then = _declared_literals(then, then_sites, declared)
    if other is not None:
        other = _declared_literals(other, else_sites, declared)
    return [IfStmt(cond, make_body(then), make_body(other) if other is not None else None, rvs,
                   span=span)]


def _spaces_differ(a: Type, b: Type) -> bool:
    """Both tiles, in different memory spaces."""
    return isinstance(a, TileType) and isinstance(b, TileType) \
        and a.memory_space is not b.memory_space


def _ends_its_path(stmts: list[Stmt]) -> bool:
    """Whether a block never falls through: one of its statements is a return, break or
    continue, or an if both of whose branches never fall through."""
    for st in stmts:
        if isinstance(st, (ReturnStmt, BreakStmt, ContinueStmt)):
            return True
        if isinstance(st, IfStmt) and st.else_body is not None \
                and _ends_its_path(flatten_body(st.then_body)) \
                and _ends_its_path(flatten_body(st.else_body)):
            return True
    return False


def _check_declared(ctx: FnCtx, declared: dict[str, tuple[Type, cst.AnnAssign]],
                    results: list[str]) -> None:
    for name, (_, decl) in declared.items():
        if name not in results:
            raise ctx.error(decl, f"'{name}: ...' without a value types a result of the if right "
                                  f"after it, but that if yields no '{name}'",
                            hint=f"yield it in each branch (`{name} = pl.yield_(...)`), or give "
                                 "the annotation a value")


def _declared_literals(body: list[Stmt], sites: list[YieldSite], declared: dict[str, Type]
                       ) -> list[Stmt]:
    """`body` with the literals its closing yield gives under an annotated if result written
    with the annotated dtype (`stmts.declared_literal`: `n: pl.Scalar[pl.INT64] = pl.yield_(2)`).
    The value and the name it binds then agree, so the if reads back the same once SSA gives it
    more values: `n, o = pl.yield_(pl.const(2, pl.INT64), o1)` carries no annotation."""
    if not body or type(body[-1]) is not YieldStmt or not sites or sites[-1].names is None:
        return body
    y = body[-1]
    values = tuple(declared_literal(v, declared[n])
                   for v, n in zip(y.values, sites[-1].names, strict=True))
    if all(a is b for a, b in zip(values, y.values, strict=True)):
        return body
    return [*body[:-1], replace(y, values=values)]


def lower_with(ctx: FnCtx, node: cst.With) -> list[Stmt]:
    """`with pl.scope() / pl.manual_scope() / pl.at(...) / pl.cluster() / pl.spmd(n) [as tid]:`;
    the task id `as` binds is visible after the scope."""
    if len(node.items) != 1:
        raise ctx.error(node, "Only one context manager per `with` is supported")
    item = node.items[0]
    call = item.item
    obj = dsl_callee(ctx, call)
    if not isinstance(call, cst.Call) or obj not in (dsl.scope, dsl.manual_scope, dsl.at,
                                                     dsl.cluster, dsl.spmd):
        raise ctx.error(call, "Unsupported context manager: use pl.scope(), pl.at(...), "
                              "pl.cluster() or pl.spmd(n)")
    spelling = "pl." + _code(call.func).rsplit(".", 1)[-1]
    tid = task_id_target(ctx, item, obj, spelling)
    args, user_split = with_args(ctx, call, obj, spelling, tid is not None)
    kind = ScopeKind.Runtime
    if obj is dsl.manual_scope:
        args = [("mode", dsl.ScopeMode.MANUAL)]
    manual = obj in (dsl.scope, dsl.manual_scope) and dict(args).get("mode") is dsl.ScopeMode.MANUAL
    if obj in (dsl.scope, dsl.manual_scope):
        check_runtime_scope(ctx, call, manual)
    elif obj is dsl.at:
        level = dict(args).get("level")
        kind = ScopeKind.InCore if level is Level.CORE_GROUP else ScopeKind.Hierarchy
    elif obj is dsl.cluster:
        kind = ScopeKind.Cluster
    elif obj is dsl.spmd:
        kind = ScopeKind.Spmd
    body = _scope_body(ctx, OpenScope(kind, user_split, manual=manual), suite(node.body), [])
    if kind is ScopeKind.Spmd:
        check_spmd_body(ctx, node, args, user_split, body)
    if tid is not None:
        ctx.bind(tid.name, tid)
    return [ScopeStmt(kind, make_body(body), tuple(args), tid, span=ctx.src.stmt_span(node))]


def _scope_body(ctx: FnCtx, scope: OpenScope, stmts: Sequence[cst.CSTNode],
                head: Sequence[Stmt]) -> list[Stmt]:
    """The statements of a scope's body after `head` (a binding the scope itself makes). Scopes
    are transparent: names bound inside stay visible after the scope."""
    ctx.open_scopes.append(replace(scope, loops=len(ctx.loops), yields=len(ctx.yields)))
    try:
        return [*head, *lower_block(ctx, stmts)]
    finally:
        ctx.open_scopes.pop()


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def _index_binding(ctx: FnCtx, node: cst.For, what: str, op: str) -> AssignStmt:
    """`i = pl.tile.<op>()`: how the loop forms of pl.spmd / pl.split_aiv bind their variable."""
    if not isinstance(node.target, cst.Name):
        raise ctx.error(node.target, f"for ... in {what}(...) must use a single loop variable")
    span = ctx.src.stmt_span(node)
    value = build_call(f"pl.tile.{op}", (), {}, span)
    var = Var(node.target.value, value.type, span=span)
    ctx.bind(var.name, var)
    return AssignStmt(var, value, span=span)


def _spmd_for(ctx: FnCtx, node: cst.For) -> list[Stmt]:
    """`for i in pl.spmd(n, ...):` -> Spmd scope around an InCore scope whose body starts with
    `i = pl.tile.get_block_idx()` (the reference's form: the body runs once per block, `i` its
    index); `optimizations=` belong to the InCore scope, the other arguments to the Spmd one."""
    call = node.iter
    assert isinstance(call, cst.Call)
    args, user_split = spmd_args(ctx, call, allow_deps=False, loop_only=_SPMD_LOOP_ONLY)
    incore_args: list[tuple[str, Any]] = [("level", Level.CORE_GROUP)]
    incore_args += [(k, v) for k, v in args if k in ("split", "slot_num")]
    spmd = [(k, v) for k, v in args if k not in ("split", "slot_num")]
    span = ctx.src.stmt_span(node)
    ctx.open_scopes.append(OpenScope(ScopeKind.Spmd, loops=len(ctx.loops), yields=len(ctx.yields)))
    try:  # transparent, as the with-form: the names bound inside stay visible after the loop
        head = [_index_binding(ctx, node, "pl.spmd", "get_block_idx")]
        body = _scope_body(ctx, OpenScope(ScopeKind.InCore, user_split), suite(node.body), head)
    finally:
        ctx.open_scopes.pop()
    incore = ScopeStmt(ScopeKind.InCore, make_body(body), tuple(incore_args), span=span)
    return [ScopeStmt(ScopeKind.Spmd, incore, tuple(spmd), span=span)]


def _split_aiv_for(ctx: FnCtx, node: cst.For) -> list[Stmt]:
    """`for aiv_id in pl.split_aiv(2, mode=M):` -> a SplitAiv scope whose body starts with
    `aiv_id = pl.tile.get_subblock_idx()` (the body runs on each of the two AIV lanes, `aiv_id`
    its lane); outside an InCore scope or function it is wrapped in one, as the reference does."""
    call = node.iter
    assert isinstance(call, cst.Call)
    for s in ctx.open_scopes:
        if s.kind is ScopeKind.SplitAiv:
            raise ctx.error(node, "nested 'for ... in pl.split_aiv(...)' is not allowed: a "
                                  "split_aiv body already stands for the two AIV lanes")
    user = next((s.user_split for s in reversed(ctx.open_scopes) if s.kind is ScopeKind.InCore),
                None)
    if user is not None:
        raise ctx.error(node, f"this scope combines optimizations=[pl.split(pl.SplitMode."
                              f"{user.name})] with a pl.split_aiv region; these are mutually "
                              "exclusive ways of splitting the AIV lanes",
                        hint="Remove optimizations=[pl.split(...)] or the pl.split_aiv region "
                             "(pl.cross_core_slot(slot_num=N) sets a slot count alone)")
    mode = split_aiv_mode(ctx, call)
    span = ctx.src.stmt_span(node)
    head = [_index_binding(ctx, node, "pl.split_aiv", "get_subblock_idx")]
    body = _scope_body(ctx, OpenScope(ScopeKind.SplitAiv, split_aiv=mode), suite(node.body), head)
    region = ScopeStmt(ScopeKind.SplitAiv, make_body(body), (("mode", mode),), span=span)
    if in_scope(ctx, ScopeKind.InCore) or ctx.func_type is FunctionType.InCore:
        return [region]
    return [ScopeStmt(ScopeKind.InCore, region, (("level", Level.CORE_GROUP),), span=span)]


def _loop_attrs(ctx: FnCtx, node: cst.Dict) -> list[tuple[str, Any]]:
    """`attrs={"k": v}` of a loop: string-literal keys, constant values (int, float, bool, str),
    as the reference's parser takes them. A value computed in the kernel would be a Var that no
    pass renames or keeps alive, so it is refused where it stands."""
    out: list[tuple[str, Any]] = []
    for el in node.elements:
        if not isinstance(el, cst.DictElement) or not isinstance(el.key, cst.SimpleString):
            raise ctx.error(el, "A loop's attrs keys must be string literals")
        key = str(el.key.evaluated_value)
        v = lower_value(ctx, el.value)
        if isinstance(v, ConstInt | ConstFloat | ConstBool):
            v = v.value
        if isinstance(v, bool | int | float | str):
            out.append((key, v))
            continue
        raise ctx.error(el.value, f"Unsupported value type for attrs key '{key}'",
                        hint="A loop's attrs values are integer, float, bool or string constants")
    return out
