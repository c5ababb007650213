"""The arguments of the scope constructs: `with pl.at / pl.spmd / pl.scope / pl.manual_scope /
pl.cluster(...) [as tid]:` and the loop forms `for i in pl.spmd(n, ...)` and
`for aiv_id in pl.split_aiv(2, mode=...)`.

Guarantees: a scope's arguments come back as the (key, value) pairs a ScopeStmt keeps, in source
order; `optimizations=[pl.split(MODE), pl.cross_core_slot(slot_num=N)]` becomes ("split", MODE)
and ("slot_num", N) (no "split" for `pl.SplitMode.NONE`: as in the reference, NONE is "no split",
so the two spellings are one IR); `pl.spmd`'s block count is ("core_num", <integer Expr>). What
the reference's parser refuses here is a located PlError: `as` on a scope that runs no task of
its own, `deps=` on a `pl.spmd` that binds no task id, a task id or dispatch hint on a `pl.spmd`
inside `pl.cluster()` (it never becomes a task there), a non-literal flag, a block count that is
not a positive integer, `optimizations=` away from `level=pl.Level.CORE_GROUP`, and malformed
`pl.split` / `pl.cross_core_slot` entries; a `with pl.spmd(...)` body that neither dispatches one kernel nor
reads its block index (`check_spmd_body`); a keyword the scope does not take (any argument to
`pl.manual_scope()`), a `name_hint=` that is not a string literal naming a non-keyword identifier,
`no_dep_args=` / `dumps=` that are not a list literal of distinct tensors named bare, and a runtime
scope nested in a MANUAL one or an AUTO one in a function without `auto_scope=False`
(`check_runtime_scope`).
"""

from __future__ import annotations

import keyword
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final

import libcst as cst

from pl.ir.enums import DType, Level, ScopeKind, SplitMode
from pl.ir.expr import Call, ConstInt, GlobalVar, Var
from pl.ir.stmt import ScopeStmt, Stmt
from pl.ir.traverse import stmt_exprs, walk_exprs, walk_stmts
from pl.ir.types import ScalarType, TensorType
from pl.language import dsl
from pl.lowering.frontend.context import FnCtx
from pl.lowering.frontend.exprs import lower_deps, lower_expr, lower_value
from pl.lowering.frontend.predicate import check_predicate
from pl.lowering.frontend.stmts import dsl_callee
from pl.lowering.frontend.types import type_text

# The scope constructs that run their body as a task of its own, whose id `as tid` binds.
_TASK_SCOPES = (dsl.at, dsl.spmd)
_SPMD_HINT = ("Use 'with pl.spmd(4):' / 'for i in pl.spmd(4):', or 'with pl.spmd(4, deps=[...]) as "
              "tid:' to also bind the dispatch's task id")
_SPMD_KEYWORDS = ("core_num", "sync_start", "name_hint", "optimizations", "allow_early_resolve",
                  "predicate")
_FLAGS = ("sync_start", "allow_early_resolve", "windowize")
# The keywords each `with` scope takes, as the reference's parser accepts them (pl.spmd: above).
_WITH_KEYWORDS: Final[Mapping[Any, tuple[str, ...]]] = MappingProxyType({
    dsl.at: ("level", "role", "optimizations", "deps", "no_dep_args", "dumps",
             "allow_early_resolve", "name_hint", "windowize"),
    dsl.scope: ("mode",),
    dsl.cluster: ("name_hint",),
    dsl.manual_scope: (),
})
# `pl.at` keywords that list tensors of the enclosing function by bare name.
_TENSOR_LISTS = ("no_dep_args", "dumps")


@dataclass(frozen=True, slots=True)
class OpenScope:
    """A scope whose body is being lowered: its kind, the `pl.split(...)` its author wrote on
    it (`pl.SplitMode.NONE` included, which the IR does not keep), for a `pl.split_aiv`
    region its mode, and whether it is a MANUAL runtime scope."""

    kind: ScopeKind
    user_split: SplitMode | None = None
    split_aiv: SplitMode | None = None
    manual: bool = False
    loops: int = 0  # the loops open around the scope (`FnCtx.loops`) when its body began
    yields: int = 0  # the loops and ifs `pl.yield_` may end there (`FnCtx.yields`)



def task_id_target(ctx: FnCtx, item: cst.WithItem, obj: Any, spelling: str) -> Var | None:
    """The Scalar[TASK_ID] Var `with <scope>(...) as tid:` binds (None without `as`)."""
    if item.asname is None:
        return None
    if obj not in _TASK_SCOPES:
        raise ctx.error(item.asname, f"`with {spelling}(...) as ...:` is not supported: the `as` "
                                     "clause only applies to `with pl.at(...) as tid:` and "
                                     "`with pl.spmd(...) as tid:`",
                        hint="Drop the `as` target: only pl.at and pl.spmd scopes run as a task "
                             "whose id can be bound")
    target = item.asname.name
    if not isinstance(target, cst.Name):
        raise ctx.error(target, f"The `as` target of `with {spelling}(...)` must be a plain "
                                "variable name", hint=f"Use `with {spelling}(...) as tid:`")
    if obj is dsl.spmd and in_scope(ctx, ScopeKind.Cluster):
        raise ctx.error(item.asname, "`with pl.spmd(...) as tid:` cannot bind a task id inside "
                                     "`pl.cluster()`: a pl.spmd there is part of the cluster's "
                                     "task, not a task of its own",
                        hint="Use a standalone `with pl.spmd(...) as tid:`")
    return Var(target.value, ScalarType(DType.TASK_ID), span=ctx.src.stmt_span(target))


def check_runtime_scope(ctx: FnCtx, call: cst.Call, manual: bool) -> None:
    """Where a hand-placed runtime scope may stand, as the runtime (and so the reference's
    parser) requires: never inside a MANUAL scope; an AUTO one only in a function that places
    its AUTO scopes itself (`@pl.function(auto_scope=False)`)."""
    if any(s.manual for s in ctx.open_scopes):
        what = "a manual scope" if manual else "an AUTO scope"
        raise ctx.error(call, f"{what} may not be nested inside a manual scope",
                        hint="Move it outside the enclosing manual scope" if not manual else
                             "Flatten it into the enclosing manual scope, or move it outside")
    if not manual and ctx.auto_scope:
        raise ctx.error(call, "a hand-placed AUTO 'with pl.scope()' requires "
                              "@pl.function(auto_scope=False)",
                        hint="In the default auto_scope=True mode the compiler places AUTO "
                             "scopes; set auto_scope=False to place them yourself, or use "
                             "pl.scope(mode=pl.ScopeMode.MANUAL)")


def in_scope(ctx: FnCtx, kind: ScopeKind) -> bool:
    return any(s.kind is kind for s in ctx.open_scopes)


def with_args(ctx: FnCtx, call: cst.Call, obj: Any, spelling: str, binds_task: bool
              ) -> tuple[list[tuple[str, Any]], SplitMode | None]:
    """The args of a `with` scope call, and the `pl.split(...)` mode written in it."""
    if obj is dsl.spmd:
        return spmd_args(ctx, call, allow_deps=binds_task)
    args: list[tuple[str, Any]] = []
    user_split: SplitMode | None = None
    has_opts = False
    positional = ("level", "role") if obj is dsl.at else ()  # pl.at(level, role=None, *, ...)
    accepted = _WITH_KEYWORDS[obj]
    for i, a in enumerate(call.args):
        if not accepted:
            raise ctx.error(a, f"{spelling}() does not accept arguments",
                            hint=f"Use 'with {spelling}():' (or 'with pl.scope(mode="
                                 "pl.ScopeMode.MANUAL):')")
        if a.keyword is None:
            if i >= len(positional):
                raise ctx.error(a, "Scope arguments are keywords" if not positional else
                                   "pl.at() takes at most 2 positional arguments (level, role)")
            args.append((positional[i], lower_value(ctx, a.value)))
            continue
        key = a.keyword.value
        if key not in accepted:
            raise ctx.error(a, f"Unknown keyword argument '{key}' in {spelling}()",
                            hint="Supported arguments: " + ", ".join(accepted))
        if key == "name_hint":
            name_hint(ctx, a.value, spelling)
        elif key in _TENSOR_LISTS:
            _tensor_names(ctx, a.value, f"{spelling}({key}=...)")
        if key == "optimizations":
            if obj is not dsl.at:
                raise ctx.error(a, f"{spelling}() does not take optimizations=")
            opts, user_split = optimizations(ctx, a.value)
            args += opts
            has_opts = has_opts or bool(opts) or user_split is not None
        elif key == "deps":
            args.append((key, lower_deps(ctx, a.value)))
        else:
            args.append((key, _flag(ctx, a) if key in _FLAGS else lower_value(ctx, a.value)))
    if has_opts and dict(args).get("level") is not Level.CORE_GROUP:
        raise ctx.error(call, "optimizations=[pl.split(...)] / [pl.cross_core_slot(...)] are only "
                              "supported with level=pl.Level.CORE_GROUP",
                        hint="Use pl.at(level=pl.Level.CORE_GROUP, optimizations=[...])")
    return args, user_split


def spmd_args(ctx: FnCtx, call: cst.Call, *, allow_deps: bool,
              loop_only: Sequence[str] = ()) -> tuple[list[tuple[str, Any]], SplitMode | None]:
    """`pl.spmd(core_num, *, sync_start=, name_hint=, optimizations=, allow_early_resolve=,
    predicate=[, deps=])`: ("core_num", n) first, the others in source order."""
    pos = [a for a in call.args if a.keyword is None]
    if len(pos) > 1:
        raise ctx.error(pos[1], "pl.spmd() accepts at most one positional argument (core_num)",
                        hint=_SPMD_HINT)
    args: list[tuple[str, Any]] = []
    core: cst.BaseExpression | None = pos[0].value if pos else None
    user_split: SplitMode | None = None
    pred_node: cst.BaseExpression | None = None
    for a in call.args:
        if a.keyword is None:
            continue
        key = a.keyword.value
        if key in loop_only:
            raise ctx.error(a, f"pl.spmd() loop form does not accept '{key}='", hint=_SPMD_HINT)
        if key == "deps" and not allow_deps:
            raise ctx.error(a, "pl.spmd() does not accept 'deps=' here",
                            hint="Use `with pl.spmd(n, deps=[...]) as tid:` (the with-form) to "
                                 "declare explicit task-id deps")
        if key == "core_num":
            if core is not None:
                raise ctx.error(a, "pl.spmd() got multiple values for argument 'core_num'",
                                hint=_SPMD_HINT)
            core = a.value
        elif key == "optimizations":
            opts, user_split = optimizations(ctx, a.value)
            args += opts
        elif key in _FLAGS:
            args.append((key, _flag(ctx, a)))
        elif key == "deps":
            args.append((key, lower_deps(ctx, a.value)))
        elif key == "predicate":
            args.append((key, lower_expr(ctx, a.value)))
            pred_node = a.value
        elif key in _SPMD_KEYWORDS:
            if key == "name_hint":
                name_hint(ctx, a.value, "pl.spmd")
            args.append((key, lower_value(ctx, a.value)))
        else:
            raise ctx.error(a, f"pl.spmd() got unexpected keyword argument '{key}'",
                            hint="Supported keywords: " + ", ".join(
                                k for k in (*_SPMD_KEYWORDS[1:], "deps") if allow_deps or k != "deps"))
    if pred_node is not None:  # checked once deps= (written before or after it) is known
        given = dict(args)
        check_predicate(ctx, given["predicate"], pred_node, "pl.spmd()", given.get("deps"))
    if core is None:
        raise ctx.error(call, "pl.spmd() requires core_num (first positional argument)",
                        hint=_SPMD_HINT)
    n = lower_expr(ctx, core)
    t = n.type
    if not (isinstance(t, ScalarType) and t.dtype.is_int()):
        raise ctx.error(core, f"core_num must be an integer expression, got {type_text(t)}",
                        hint=_SPMD_HINT)
    if isinstance(n, ConstInt) and n.value <= 0:
        raise ctx.error(core, f"core_num must be a positive integer, got {n.value}", hint=_SPMD_HINT)
    if in_scope(ctx, ScopeKind.Cluster):
        for key, v in args:
            if (key == "allow_early_resolve" and v is True) or key == "predicate":
                raise ctx.error(call, f"`pl.spmd(..., {key}=...)` cannot be nested inside "
                                      "`pl.cluster()`: a pl.spmd there is part of the cluster's "
                                      "task, so the dispatch hint would be lost",
                                hint=f"Use a standalone `with pl.spmd(..., {key}=...):`")
    return [("core_num", n), *args], user_split


def name_hint(ctx: FnCtx, node: cst.BaseExpression, spelling: str) -> None:
    """A scope's `name_hint=`: a string literal naming the scope (the outlined function's name),
    so empty or a valid non-keyword Python identifier, as the reference's parser requires."""
    if not isinstance(node, cst.SimpleString) or not isinstance(node.evaluated_value, str):
        raise ctx.error(node, f"{spelling}() 'name_hint' argument must be a string literal",
                        hint='Use name_hint="my_scope_name"')
    text = node.evaluated_value
    if text and (not text.isidentifier() or keyword.iskeyword(text)):
        raise ctx.error(node, f"{spelling}() 'name_hint' must be a valid non-keyword identifier, "
                              f"got {text!r}", hint="Use a valid Python identifier like 'fused_matmul_add'")


def _tensor_names(ctx: FnCtx, node: cst.BaseExpression, what: str) -> None:
    """`no_dep_args=[t1, t2]` / `dumps=[t1, t2]` of pl.at: a list literal of distinct tensors
    of the enclosing function, each named bare, as the reference's parser requires."""
    if not isinstance(node, cst.List | cst.Tuple):
        raise ctx.error(node, f"{what} must be a list literal of tensor names",
                        hint="Use e.g. `no_dep_args=[t1, t2]` with bare tensor names")
    seen: list[Var] = []
    for el in node.elements:
        entry = el.value
        if not isinstance(entry, cst.Name):
            raise ctx.error(entry, f"{what} entries must be bare tensor names")
        var = ctx.lookup_var(entry.value)
        if var is None:
            raise ctx.error(entry, f"{what} references unknown name '{entry.value}'")
        if not isinstance(var.type, TensorType):
            raise ctx.error(entry, f"{what} entry '{entry.value}' is not a tensor (got "
                                   f"{type_text(var.type)})")
        if any(v is var for v in seen):
            raise ctx.error(entry, f"{what} lists '{entry.value}' more than once",
                            hint="Each tensor may appear at most once")
        seen.append(var)


def _flag(ctx: FnCtx, a: cst.Arg) -> bool:
    v = a.value
    if isinstance(v, cst.Name) and v.value in ("True", "False"):
        return v.value == "True"
    assert a.keyword is not None
    raise ctx.error(v, f"{a.keyword.value} must be a boolean literal (True/False)")


def optimizations(ctx: FnCtx, node: cst.BaseExpression
                  ) -> tuple[list[tuple[str, Any]], SplitMode | None]:
    """`[pl.split(MODE[, slot_num=N]), pl.cross_core_slot(slot_num=N)]` -> ("split", MODE) (not
    for NONE) and ("slot_num", N); also the mode written (NONE included)."""
    if not isinstance(node, cst.List | cst.Tuple):
        raise ctx.error(node, "optimizations= takes a list literal, e.g. "
                              "optimizations=[pl.split(pl.SplitMode.UP_DOWN)]")
    split: SplitMode | None = None
    slot: int | None = None
    for el in node.elements:
        entry = el.value
        obj = dsl_callee(ctx, entry)
        if not isinstance(entry, cst.Call) or obj not in (dsl.split, dsl.cross_core_slot):
            raise ctx.error(entry, "optimizations= entries are pl.split(mode) or "
                                   "pl.cross_core_slot(slot_num=N)")
        pos = [a for a in entry.args if a.keyword is None]
        kws = {a.keyword.value: a for a in entry.args if a.keyword is not None}
        if obj is dsl.split:
            if len(pos) != 1 or set(kws) - {"slot_num"}:
                raise ctx.error(entry, "pl.split takes one split mode and optionally slot_num=, "
                                       "e.g. pl.split(pl.SplitMode.UP_DOWN)")
            mode = lower_value(ctx, pos[0].value)
            if not isinstance(mode, SplitMode):
                raise ctx.error(pos[0], "pl.split's mode is a pl.SplitMode member "
                                        "(NONE, UP_DOWN or LEFT_RIGHT)")
            if split is not None:
                raise ctx.error(entry, "optimizations= lists pl.split(...) twice")
            split = mode
        elif pos or set(kws) != {"slot_num"}:
            raise ctx.error(entry, "pl.cross_core_slot takes only slot_num=N")
        if "slot_num" in kws:
            if slot is not None:
                raise ctx.error(kws["slot_num"], "optimizations= gives slot_num twice")
            slot = _slot_num(ctx, kws["slot_num"].value)
    out: list[tuple[str, Any]] = []
    if split is not None and split is not SplitMode.NONE:
        out.append(("split", split))
    if slot is not None:
        out.append(("slot_num", slot))
    return out, split


def _slot_num(ctx: FnCtx, node: cst.BaseExpression) -> int:
    v = lower_value(ctx, node)
    if not isinstance(v, ConstInt) or v.value <= 0:
        raise ctx.error(node, "slot_num must be a positive integer literal")
    return v.value


def split_aiv_mode(ctx: FnCtx, call: cst.Call) -> SplitMode:
    """`pl.split_aiv(2, mode=pl.SplitMode.X)`: the mode (the lane count is fixed at 2)."""
    hint = "Use 'for aiv_id in pl.split_aiv(2, mode=pl.SplitMode.NONE):' (2 is the AIV lane count)"
    pos = [a for a in call.args if a.keyword is None]
    if len(pos) != 1:
        raise ctx.error(call, "pl.split_aiv() takes exactly one positional argument (n, the AIV "
                              "sub-core count)", hint=hint)
    n = lower_value(ctx, pos[0].value)
    if not (isinstance(n, ConstInt) and n.value == 2):
        raise ctx.error(pos[0], "pl.split_aiv(n) requires n == 2 (the AIV sub-core count is fixed "
                                "at 2)", hint=hint)
    mode: SplitMode | None = None
    for a in call.args:
        if a.keyword is None:
            continue
        if a.keyword.value != "mode":
            raise ctx.error(a, f"pl.split_aiv() got unexpected keyword argument "
                               f"'{a.keyword.value}'", hint=hint)
        value = lower_value(ctx, a.value)
        if not isinstance(value, SplitMode):
            raise ctx.error(a.value, "pl.split_aiv's mode is a pl.SplitMode member", hint=hint)
        mode = value
    if mode is None:
        raise ctx.error(call, "pl.split_aiv() requires mode= (pl.SplitMode.NONE for task-parallel "
                              "lanes, UP_DOWN / LEFT_RIGHT for data-parallel halving)", hint=hint)
    return mode


def check_spmd_body(ctx: FnCtx, node: cst.With, args: Sequence[tuple[str, Any]],
                    user_split: SplitMode | None, body: Sequence[Stmt]) -> None:
    """What `with pl.spmd(...)`'s body must be, as the reference's parser requires: a kernel
    dispatch (one `self.kernel(...)` call; the callee reads its block index), per-block work that
    reads `pl.tile.get_block_idx()` itself, or one explicit `pl.at(level=pl.Level.CORE_GROUP)`
    scope; and `optimizations=` only once, on the scope that runs on the core."""
    has_opts = user_split is not None or any(k == "slot_num" for k, _ in args)
    if len(body) == 1 and isinstance(body[0], ScopeStmt) and body[0].kind is ScopeKind.InCore:
        if has_opts:
            twice = any(k in ("split", "slot_num") for k, _ in body[0].args)
            where = ("is specified twice: on `pl.spmd(...)` and on the inner" if twice else
                     "belongs on the InCore scope, but the body already provides one as the inner")
            raise ctx.error(node.items[0].item, f"`optimizations=` {where} "
                                                "`pl.at(level=pl.Level.CORE_GROUP, ...)`",
                            hint="Keep `optimizations=[...]` on the inner `pl.at(...)` only")
        return
    calls = [e for s in body for x in walk_stmts(s) for top in stmt_exprs(x)
             for e in walk_exprs(top) if isinstance(e, Call)]
    if any(c.op_name.endswith(".get_block_idx") for c in calls):
        return
    dispatches = sum(isinstance(c.op, GlobalVar) for c in calls)
    if dispatches == 0:
        raise ctx.error(node.items[0].item, "`with pl.spmd(...)` body neither reads the per-block "
                                            "index via `pl.tile.get_block_idx()` nor dispatches a "
                                            "`self.<kernel>(...)` call, so every block would run "
                                            "identical work",
                        hint="Add `i = pl.tile.get_block_idx()` inside the scope, dispatch a "
                             "kernel that reads it, or use `for i in pl.spmd(n):`")
    if dispatches > 1:
        raise ctx.error(node.items[0].item, f"`with pl.spmd(...)` dispatch body launches "
                                            f"{dispatches} kernels; only one kernel dispatch per "
                                            "SPMD scope is supported",
                        hint="Use one `pl.spmd(...)` scope per kernel, or read "
                             "`pl.tile.get_block_idx()` in the body")
