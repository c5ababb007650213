"""ConvertTensorToTileOps: tensor kernels -> the tile IR memory-space inference consumes.

Guarantees (pass.md 7, ops.md 10), for InCore / AIC / AIV functions only:
* every convertible `tensor.*` call becomes its tile form; its result var is `<base>__tile`;
* tensor operands of ops with input-space requirements (matmul: Mat) are loaded right before the
  op as `<arg>_<space>` (Mat loads carry the private bridge marker), plus `tile.transpose_view`
  named `<load>_t` when `a_trans`/`b_trans` is set;
* a `tensor.slice` of a GM tensor whose (back-propagated) consumer needs a space becomes a load
  into that space (marked when Mat); otherwise a Vec load;
* tensor params consumed directly by converted ops get an entry `tile.load(..., Vec)`; any other
  tensor a converted op reads whole (a loop's or an if's result, an alias, what a store returned)
  is loaded (Vec) right before that op, where the source reads it;
* returned tiles are stored into new `Out` params `ret<i>__out` right before each return, which
  stays where it is (an early return still ends the function there), and every call site in the
  other functions passes a fresh `tensor.create` for them;
* a merge of values (a loop carry, an if's result) that is a tile on one path and a GM tensor on
  another holds a tile: the tensor is loaded (Vec) where it flows in (before the loop for an
  initial value, before the yield for a yielded one). So does a carry that converted ops read in
  its loop (a param initial value is loaded at entry, as above). The source reads such a tensor
  where the merged value is read, the conversion where it flows in, so `check_gm_writes` is run
  again with those merges as on-chip copies: a write to the tensor in between is a located
  error, never a changed result.
Other functions only see their call sites updated. The input program is never mutated.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from dataclasses import replace
from typing import Any

from pl.errors import PlError
from pl.ir.enums import FunctionType, MemorySpace, ParamDirection, TensorLayout
from pl.ir.expr import (
    MAT_BRIDGE_ATTR,
    Call,
    ConstInt,
    Expr,
    GlobalVar,
    IterArg,
    TupleGetItem,
    Var,
    is_submit,
    program_call_type,
)
from pl.ir.function import Function, Program
from pl.ir.names import user_name
from pl.ir.rewriter import Rewriter, body_of, same_items, yield_types
from pl.ir.span import Span
from pl.ir.stmt import (
    AssignStmt,
    EvalStmt,
    ForStmt,
    IfStmt,
    ReturnStmt,
    ScopeStmt,
    Stmt,
    WhileStmt,
    YieldStmt,
    flatten_body,
)
from pl.ir.traverse import walk_exprs
from pl.ir.types import TensorType, TileType, Type
from pl.lowering.tensor_to_tile.aliases import Pairs, View, param_aliases, returned_view
from pl.lowering.tensor_to_tile.common import (
    base_name,
    dims_text,
    mk,
    op_name,
    rededuce_call,
    same_extents,
    shape_tuple,
    tile_name,
    widen_to_tensor_valid,
    with_attrs,
    zeros,
)
from pl.lowering.tensor_to_tile.convert import (
    IN_RESULT_DTYPE,
    SELF_LOADING,
    Converter,
    check_convertible,
    converter_for,
)
from pl.lowering.tensor_to_tile.scan import (
    Scan,
    hoist_and_scan,
)
from pl.lowering.tensor_to_tile.writes import check_gm_writes
from pl.ops.registry import get_op


def _marker(space: MemorySpace) -> tuple[tuple[str, Any], ...]:
    return ((MAT_BRIDGE_ATTR, True),) if space is MemorySpace.Mat else ()


def load_whole(tensor: Expr, space: MemorySpace, span: Span) -> Call:
    """`tile.load` of all of the tensor `tensor` into `space`."""
    t = tensor.type
    assert isinstance(t, TensorType)
    return mk("tile.load", [tensor, zeros(t.rank, span), shape_tuple(t.shape, span),
                            shape_tuple(t.shape, span)],
              [("target_memory", space)], _marker(space), span)


class _TensorToTile(Rewriter):
    """One conversion of a function body. `tile_carries`: the source iter args that must hold
    tiles, so a tensor initial value is loaded before the loop: those converted ops read
    (`Scan.entry_loaded`), and those into which an earlier conversion found a tile yielded
    (`new_tile_carries`)."""

    def __init__(self, demands: dict[int, MemorySpace], func: Function,
                 tile_carries: AbstractSet[int],
                 retake: AbstractSet[tuple[int, int]] = frozenset()) -> None:
        super().__init__(rededuce_call)
        # (statement, slice var) pairs whose slice is loaded again right before the statement
        # (`check_gm_writes`), and the assignment of each slice var converted so far.
        self.retake = retake
        self.slice_defs: dict[int, AssignStmt] = {}
        self.demands = demands
        self.func = func
        self.outs: dict[int, Var] = {}  # return position -> the Out param its tiles are stored in
        self.return_types: list[Type] | None = None  # those of the first return rewritten
        self.tile_carries = tile_carries
        # Source iter args still carrying a tensor where their loop yields a tile: a conversion
        # with them in `tile_carries` must follow.
        self.new_tile_carries: set[int] = set()
        # Source merge vars (iter args, loop and if results) into which a GM tensor is loaded.
        self.loaded_merges: set[int] = set()

    def stmt(self, stmt: Stmt) -> list[Stmt]:
        if self.retake and isinstance(stmt, (AssignStmt, EvalStmt)):
            return self.retaking(stmt)
        return super().stmt(stmt)

    def retaking(self, s: AssignStmt | EvalStmt) -> list[Stmt]:
        """`s` converted after a fresh load of each slice it reads whose copy a write through an
        aliased parameter made stale; the statements after it go on reading the earlier load."""
        value = s.value if isinstance(s, AssignStmt) else s.expr
        stale = {id(v): self.slice_defs[id(v)] for v in walk_exprs(value)
                 if isinstance(v, Var) and (id(s), id(v)) in self.retake
                 and id(v) in self.slice_defs}
        if not stale:
            return super().stmt(s)
        saved = {key: self.remap.get(key) for key in stale}
        out = [x for d in stale.values() for x in self.assign(d)]
        out.extend(super().stmt(s))
        for key, old in saved.items():
            if old is None:
                self.remap.pop(key, None)
            else:
                self.remap[key] = old
        return out

    def init_value(self, ia: IterArg, position: int, before: list[Stmt]) -> Expr:
        """The initial value of one of `tile_carries` loaded when it is a tensor, right before
        the loop."""
        init = self.expr(ia.init)
        if id(ia) in self.tile_carries and isinstance(init.type, TensorType):
            self.loaded_merges.add(id(ia))
            return self.loaded(init, ia.name, ia.span, before)
        return init

    def loop_body_done(self, new: ForStmt | WhileStmt, old: ForStmt | WhileStmt,
                       iter_args: tuple[IterArg, ...]) -> ForStmt | WhileStmt:
        """A tensor yielded into a tile carry is loaded before the yield; a carry still a tensor
        while a tile is yielded into it is noted in `new_tile_carries`."""
        to_load = []
        for i, (ia, t) in enumerate(zip(iter_args, yield_types(new.body), strict=False)):
            if isinstance(ia.type, TileType) and isinstance(t, TensorType):
                to_load.append(i)
                self.loaded_merges.add(id(old.iter_args[i]))
            elif isinstance(ia.type, TensorType) and isinstance(t, TileType):
                self.new_tile_carries.add(id(old.iter_args[i]))
        return replace(new, body=self.load_yielded(new.body, to_load)) if to_load else new

    def merge_branches(self, s: IfStmt, then_body: Stmt,
                       else_body: Stmt | None) -> tuple[Stmt, Stmt | None]:
        """An if whose branches yield a tile and a tensor in one position yields a tile there:
        the tensor is loaded before its branch's yield."""
        then_types, else_types = yield_types(then_body), yield_types(else_body)
        mixed = [i for i, (a, b) in enumerate(zip(then_types, else_types, strict=False))
                 if {type(a), type(b)} == {TileType, TensorType}]
        if not mixed:
            return then_body, else_body
        assert else_body is not None  # it yields
        self.loaded_merges.update(id(s.return_vars[i]) for i in mixed)
        return self.load_yielded(then_body, mixed), self.load_yielded(else_body, mixed)

    def load_yielded(self, body: Stmt, positions: list[int]) -> Stmt:
        """`body` with each tensor its trailing yield gives at `positions` loaded before it."""
        stmts = flatten_body(body)
        last = stmts[-1] if stmts else None
        if isinstance(last, ScopeStmt):
            return body_of(body, [*stmts[:-1], replace(last, body=self.load_yielded(last.body,
                                                                                  positions))])
        if not isinstance(last, YieldStmt):
            return body
        loads: list[Stmt] = []
        values = list(last.values)
        for i in positions:
            v = values[i]
            if isinstance(v.type, TensorType):
                name = v.name if isinstance(v, Var) else "yielded"
                values[i] = self.loaded(v, name, last.span, loads)
        return body_of(body, [*stmts[:-1], *loads, replace(last, values=tuple(values))])

    @staticmethod
    def loaded(tensor: Expr, name: str, span: Span, stmts: list[Stmt]) -> Var:
        """A Var holding a Vec load of all of `tensor`, its assignment appended to `stmts`."""
        load = load_whole(tensor, MemorySpace.Vec, span)
        var = Var(tile_name(name), load.type, span=span)
        stmts.append(AssignStmt(var, load, span=span))
        return var

    def ret(self, s: ReturnStmt) -> list[Stmt]:
        """A returned tile is stored into the Out param of its position right before the return,
        which stays where it is (every return of the function shares the Out params)."""
        f = self.func
        stmts: list[Stmt] = []
        values: list[Expr] = []
        types: list[Type] = []
        for i, v in enumerate(s.values):
            e = self.expr(v)
            t = e.type
            if isinstance(t, TileType) and i < len(f.return_types) \
                    and isinstance(f.return_types[i], TensorType):
                declared = f.return_types[i]
                assert isinstance(declared, TensorType)
                if isinstance(v.type, TensorType) \
                        and not same_extents(v.type.shape, declared.shape):
                    raise PlError(
                        f"this returns a {dims_text(v.type.shape)} tensor where the function "
                        f"declares {dims_text(declared.shape)}: inside an InCore function a "
                        "returned tile is stored into an Out tensor of the declared type, so "
                        "their shapes must agree", s.span)
                out = self.outs.get(i)
                if out is None:
                    out = self.outs[i] = Var(f"ret{len(self.outs)}__out", f.return_types[i],
                                             span=f.span)
                store = mk("tile.store", [e, zeros(t.rank, f.span), out], (), (), f.span)
                store_var = Var(out.name.replace("__out", "__store"), store.type, span=f.span)
                stmts.append(AssignStmt(store_var, store, span=f.span))
                e = store_var
                types.append(e.type)
            else:
                types.append(_declared_or(f.return_types[i] if i < len(f.return_types) else None,
                                          e.type))
            values.append(e)
        if self.return_types is None:
            self.return_types = types
        stmts.append(s if same_items(values, s.values)
                     else ReturnStmt(tuple(values), span=s.span, comments=s.comments))
        return stmts

    def rebuild_call(self, e: Call, args: tuple[Expr, ...],
                     kwargs: tuple[tuple[str, Any], ...]) -> Call:
        op = None if isinstance(e.op, GlobalVar) else get_op(e.op.name)
        if op is not None and (op.level == "tensor" or converter_for(op.name) is not None):
            # Converted below from its new arguments; re-deducing the tensor form could fail.
            return Call(e.op, args, kwargs, e.attrs, e.result_type, span=e.span)
        return super().rebuild_call(e, args, kwargs)

    def assign(self, s: AssignStmt) -> list[Stmt]:
        if op_name(s.value) == "tensor.slice":
            self.slice_defs[id(s.var)] = s
        value = self.expr(s.value)
        if not isinstance(value, Call) or isinstance(value.op, GlobalVar):
            return [self.pass_through(s, value)]
        name = value.op.name
        if name == "tensor.slice" and id(s.var) in self.demands \
                and isinstance(value.args[0].type, TensorType):
            return [self.consumer_driven_load(s, value, self.demands[id(s.var)])]
        conv = converter_for(name)
        if conv is None or (name == "tensor.slice" and isinstance(value.type, TensorType)
                            and value.type.distributed):
            # A slice of a window-bound tensor stays a window-bound view, as in the reference:
            # the `pld.*` ops it feeds reach the peers' windows through it.
            check_convertible(value)
            return [self.pass_through(s, value)]
        stmts, args = self.bridge(value)
        prologue, result = convert_in_dtype(name, conv, args, dict(value.kwargs), value.span,
                                            s.var.type)
        stmts.extend(prologue)
        result = with_attrs(result, value.attrs) if isinstance(result, Call) else result
        new_var = Var(tile_name(s.var.name), result.type, span=s.var.span)
        self.map_var(s.var, new_var)
        stmts.append(AssignStmt(new_var, result, span=s.span, comments=s.comments))
        widened = widen_to_tensor_valid(new_var, s.var.type, s.span)
        if widened is not None:
            self.map_var(s.var, widened.var)
            stmts.append(widened)
        return stmts

    def eval(self, s: EvalStmt) -> list[Stmt]:
        e = self.expr(s.expr)
        if not isinstance(e, Call) or isinstance(e.op, GlobalVar):
            return [EvalStmt(e, span=s.span, comments=s.comments)]
        conv = converter_for(e.op.name)
        if conv is None:
            check_convertible(e)
            return [EvalStmt(e, span=s.span, comments=s.comments)]
        stmts, args = self.bridge(e)
        prologue, result = conv(args, dict(e.kwargs), e.span)
        stmts.extend(prologue)
        stmts.append(EvalStmt(result, span=s.span, comments=s.comments))
        return stmts

    def consumer_driven_load(self, s: AssignStmt, call: Call, space: MemorySpace) -> AssignStmt:
        src, shape, offset = call.args[0], call.args[1], call.args[2]
        valid = call.args[3] if len(call.args) > 3 else shape
        load = mk("tile.load", [src, offset, shape, valid], [("target_memory", space)],
                  _marker(space), call.span)
        new_var = Var(tile_name(s.var.name), load.type, span=s.var.span)
        self.map_var(s.var, new_var)
        return AssignStmt(new_var, load, span=s.span, comments=s.comments)

    def bridge(self, call: Call) -> tuple[list[Stmt], tuple[Expr, ...]]:
        op = get_op(call.op.name)
        reqs = op.conversion_reqs if op is not None else {}
        args = list(call.args)
        stmts: list[Stmt] = []
        span = call.span

        def emit(name: str, value: Call) -> Var:
            var = Var(name, value.type, span=span)
            stmts.append(AssignStmt(var, value, span=span))
            return var

        def view(v: Var) -> Var:
            return emit(f"{v.name}_t", mk("tile.transpose_view", [v], (), (), span))

        for idx in sorted(reqs):
            if idx >= len(args):
                continue
            space, trans_kw = reqs[idx]
            transposed = bool(call.kwarg(trans_kw, False)) if trans_kw else False
            arg = args[idx]
            t = arg.type
            if isinstance(t, TensorType):
                load = load_whole(arg, space, span)
                name = f"{arg.name}_{space.name.lower()}" if isinstance(arg, Var) \
                    else f"bridged_{idx}"
                loaded = emit(name, load)
                args[idx] = view(loaded) if transposed else loaded
            elif transposed and isinstance(arg, Var) and isinstance(t, TileType):
                if t.memory_space is not MemorySpace.Mat:
                    arg = emit(f"{arg.name}_mat", mk("tile.move", [arg],
                                                     [("target_memory", MemorySpace.Mat)], (),
                                                     span))
                args[idx] = view(arg)
        if call.op.name not in SELF_LOADING:
            # A tensor read whole that no entry load covers (a loop's or an if's result, an
            # alias, what a store returned) is loaded here, where the source reads it.
            for idx, arg in enumerate(args):
                if idx not in reqs and isinstance(arg.type, TensorType):
                    name = tile_name(arg.name) if isinstance(arg, Var) else f"loaded_{idx}"
                    args[idx] = emit(name, load_whole(arg, MemorySpace.Vec, span))
        return stmts, tuple(args)


def convert_in_dtype(name: str, conv: Converter, args: tuple[Expr, ...], kwargs: dict[str, Any],
              span: Span, want: Type) -> tuple[list[Stmt], Expr]:
    """`conv(args, kwargs, span)` with a tile result of the dtype of the tensor-level result `want`.

    An elementwise tensor op computes in its result dtype, the one its type rule deduces from all
    operands (`pl.add(int32_tensor, 0.5)` is FP32, `pl.exp(int8_tensor)` FP32), where its tile op
    keeps its first operand's (tile.adds ignores the scalar's, tile.exp keeps an integer one) or
    refuses operands of two dtypes (tile.row_expand_add, tile.concat): every tile operand of
    another dtype is cast to it first (`IN_RESULT_DTYPE`). A result still of another dtype (the
    FP32 accumulator of `pl.matmul(bf16, bf16)`, which is BF16) is cast after the op."""
    dtype = want.dtype if isinstance(want, TensorType) else None
    stmts: list[Stmt] = []
    if dtype is not None and name in IN_RESULT_DTYPE:
        cast_args = list(args)
        for i, a in enumerate(args):
            if isinstance(a.type, TileType) and a.type.dtype is not dtype:
                cast = mk("tile.cast", [a], [("target_type", dtype), ("mode", _CAST_MODE)], (),
                          span)
                hint = base_name(a.name) if isinstance(a, Var) else "operand"
                cast_var = Var(f"{hint}__{dtype.short.lower()}", cast.type, span=span)
                stmts.append(AssignStmt(cast_var, cast, span=span))
                cast_args[i] = cast_var
        args = tuple(cast_args)
    prologue, result = conv(args, kwargs, span)
    stmts.extend(prologue)
    if dtype is not None and isinstance(result.type, TileType) and result.type.dtype is not dtype:
        computed = Var("computed", result.type, span=span)
        stmts.append(AssignStmt(computed, result, span=span))
        result = mk("tile.cast", [computed], [("target_type", dtype), ("mode", _CAST_MODE)], (),
                    span)
    return stmts, result


# tile.cast's mode for the casts `convert_in_dtype` inserts ("none", as the conversions' other
# casts): they turn integers into floats, widen, or narrow a float accumulator, which rounds to nearest.
_CAST_MODE = 0


def _convert_incore(f: Function, callee_writes: dict[str, tuple[int, ...]],
                    aliases: Pairs = frozenset()) -> tuple[Function, int, dict[str, View]]:
    """The converted function, how many Out params it gained, and for each of those that stores a
    view of a parameter (aliases.py, `returned_view`) that view, by the Out param's name."""
    body, facts = hoist_and_scan(f.body)
    used = facts.entry_loaded
    # A parameter a caller passes the storage of another (written) one through is read where
    # the source reads it: loaded before each op that reads it whole, never once at entry.
    aliased = {id(f.params[i]) for pair in aliases for i in pair}
    entry_loaded = used - aliased
    _check_whole_and_windowed(f, facts, entry_loaded)
    retake = check_gm_writes(f, body, entry_loaded, callee_writes, aliases=aliases)
    # A conversion that finds a loop carrying a tensor into which it yields a tile is done again
    # with that carry's initial value loaded: the carry then holds a tile in every iteration, which
    # may in turn make a loop around it yield a tile. Each round adds a carry, so they end.
    tile_carries = frozenset(used)
    while True:
        rw = _TensorToTile(facts.demands, f, tile_carries, retake)
        entry = _entry_loads(f, entry_loaded, rw)
        new_stmts = entry + flatten_body(rw.body(body))
        if rw.new_tile_carries <= tile_carries:
            break
        tile_carries |= rw.new_tile_carries
    if rw.loaded_merges:
        # The loads at merges are on-chip copies the first check did not know of.
        check_gm_writes(f, body, entry_loaded, callee_writes, rw.loaded_merges, aliases)

    params = list(f.params) + list(rw.outs.values())
    directions = list(f.directions) + [ParamDirection.Out] * len(rw.outs)
    added = len(rw.outs)
    return_types = rw.return_types if rw.return_types is not None else list(f.return_types)
    body = body_of(f.body, new_stmts)
    rtypes = f.return_types if _same_types(return_types, f.return_types) else tuple(return_types)
    views = {out.name: view for i, out in rw.outs.items()
             if (view := returned_view(f, i)) is not None}
    if body is f.body and not added and rtypes is f.return_types:
        return f, 0, views  # nothing to convert: the function is handed on as it is
    new_f = Function(f.name, tuple(params), tuple(directions), rtypes, body, f.func_type, f.level,
                     f.role, f.attrs, span=f.span, comments=f.comments)
    return new_f, added, views


def _check_whole_and_windowed(f: Function, facts: Scan, entry_loaded: AbstractSet[int]) -> None:
    """A tensor param read whole by a converted op is loaded into a tile at entry, and every use
    of it reads that tile; a `pl.load` of the same param reads the tensor itself, and would be
    handed the tile. Refused at the whole read, which is what to change. (A write into such a
    param is check_gm_writes' error.)"""
    for p in f.params:
        whole = facts.whole_uses.get(id(p))
        windowed = facts.tensor_uses.get(id(p))
        if id(p) not in entry_loaded or whole is None or windowed is None:
            continue
        name = user_name(p.name)
        (span, op), (w_span, w_op) = whole, windowed
        raise PlError(
            f"{_spelling(op)} reads the tensor parameter '{name}' whole, which in an InCore "
            f"function loads all of '{name}' into a tile (TileType) at function entry and reads "
            f"that tile wherever '{name}' is used; but {_spelling(w_op)} at line {w_span.line} "
            f"also uses '{name}', and needs the tensor (TensorType) itself", span,
            hint=f"here, use the tile {_spelling(w_op)} made at line {w_span.line} instead of "
                 f"'{name}' (or a tile of the whole of '{name}' loaded with pl.load), so that "
                 f"'{name}' itself is only loaded from")


def _spelling(op: str) -> str:
    """`tile.load` -> `pl.load`, `tensor.add` -> `pl.add`: the name the user wrote, roughly."""
    return "pl." + op.split(".", 1)[1]


def _entry_loads(f: Function, used: set[int], rw: _TensorToTile) -> list[Stmt]:
    """A Vec load at function entry of each tensor param in `used`, which `rw` maps to it."""
    entry: list[Stmt] = []
    for p in f.params:
        if id(p) in used and isinstance(p.type, TensorType):
            rw.map_var(p, rw.loaded(p, p.name, f.span, entry))
    return entry


def _declared_or(declared: Type | None, value: Type) -> Type:
    """The return type to keep for a returned tensor: the user's `->` declaration when it gives
    another rank or other static dims than the value has (the reference keeps an annotation as
    written, and callers were typed by it), else the value's own type (which may carry a view)."""
    if isinstance(declared, TensorType) and isinstance(value, TensorType) and (
            len(declared.shape) != len(value.shape) or any(
                isinstance(d, ConstInt) and isinstance(v, ConstInt) and d.value != v.value
                for d, v in zip(declared.shape, value.shape, strict=True))):
        return declared
    return value


def _same_types(new: list[Type], old: tuple[Type, ...]) -> bool:
    """Equal types that also print the same (a memref is not compared by `==`)."""
    return len(new) == len(old) and all(
        a is b or (a == b and getattr(a, "memref", None) is None
                   and getattr(b, "memref", None) is None)
        for a, b in zip(new, old, strict=True))


class _CallSites(Rewriter):
    """Gives every call of a function that gained Out params or result types (`changed`: the new
    function and how many params it appended) the callee's result type and an actual for each new
    param: a fresh `tensor.create` placed before the
    statement (`forward=False`), or, in an InCore-kind / Group / Spmd function that cannot allocate
    a GM tensor, a new Out param of its own that its callers provide in turn (`forward=True`).
    Every call is covered: assigned, evaluated, nested in an expression, or launched by a Submit
    (whose (*returns, TASK_ID) type is kept). An Out param that a result viewing a parameter of
    the callee is stored into (`views`: callee name -> Out param name -> the view) gets that view
    of the call's own actual instead, so the call's result names the actual's storage as in the
    source; in an InCore-kind caller, which cannot hold a GM view, that is a located error."""

    def __init__(self, changed: dict[str, tuple[Function, int]], forward: bool,
                 views: Mapping[str, Mapping[str, View]], incore: bool) -> None:
        super().__init__(rededuce_call)
        self.changed = changed
        self.forward = forward
        self.views = views
        self.incore = incore
        self.pending: list[Stmt] = []
        self.new_params: list[Var] = []

    def stmt(self, s: Stmt) -> list[Stmt]:
        saved, self.pending = self.pending, []
        out = super().stmt(s)
        created, self.pending = self.pending, saved
        return created + out

    def actual(self, p: Var, call: Call, dims: dict[Var, Expr]) -> Var:
        span = call.span
        view = self.views.get(call.op.name, {}).get(p.name)
        if view is not None:
            return self.view_of_actual(view, call)
        t = p.type
        assert isinstance(t, TensorType)
        if any(isinstance(d, Var) and d in dims for d in t.shape):
            # The callee's dynamic dims (`pl.dynamic`) are bound by this call's arguments.
            t = dataclasses.replace(t, shape=tuple(dims.get(d, d) if isinstance(d, Var) else d
                                                   for d in t.shape))
        if self.forward:
            out = Var(f"{base_name(p.name)}_{len(self.new_params)}__out", t, span=span)
            self.new_params.append(out)
            return out
        layout = t.view.layout if t.view is not None else TensorLayout.ND
        create = mk("tensor.create", [shape_tuple(t.shape, span)],
                    [("dtype", t.dtype), ("layout", layout)], (), span)
        created = Var(p.name, create.type, span=span)
        self.pending.append(AssignStmt(created, create, span=span))
        return created

    def view_of_actual(self, view: View, call: Call) -> Var:
        """The view `view` (of the callee's parameter) of this call's actual, built before it."""
        position = view.position
        callee = self.changed[call.op.name][0]
        if self.incore:
            raise PlError(
                f"{call.op.name} returns a view of its parameter "
                f"`{base_name(callee.params[position].name)}`, "
                "which names that parameter's storage; called from an InCore function its result "
                "would be an on-chip copy instead. Call it from an orchestration function, or "
                "take the view in the caller", call.span)
        args = Rewriter(rededuce_call)
        for param, actual in zip(callee.params, call.args, strict=False):
            args.map_var(param, actual)
        for local, bound in view.scalars:
            args.map_var(local, args.expr(bound))
        current = call.args[position]
        for c in view.chain:
            kwargs = [(k, args.expr(v) if isinstance(v, Expr) else v) for k, v in c.kwargs]
            value = mk(c.op.name, [current, *(args.expr(a) for a in c.args[1:])], kwargs, (),
                       call.span)
            current = Var(f"{base_name(callee.params[position].name)}_view", value.type,
                          span=call.span)
            self.pending.append(AssignStmt(current, value, span=call.span))
        assert isinstance(current, Var)
        return current

    def expr(self, e: Expr) -> Expr:
        out = super().expr(e)
        if isinstance(out, TupleGetItem) and out is not e:
            return TupleGetItem(out.tuple_expr, out.index, span=out.span)
        if not (isinstance(out, Call) and isinstance(out.op, GlobalVar)
                and out.op.name in self.changed):
            return out
        callee, n = self.changed[out.op.name]
        rtypes = callee.return_types
        rtype = program_call_type(rtypes, submit=is_submit(out))
        if len(out.args) >= len(callee.params) or n == 0:  # already given its actuals (or none
            # is new: a submit may leave Out args out for the runtime to allocate)
            if rtype == out.result_type:
                return out
            # The callee's results became known (a function without a return annotation returns
            # what its converted body returns): the call's type follows, as a reparse deduces it.
            return Call(out.op, out.args, out.kwargs, out.attrs, rtype, span=out.span)
        dims = _dim_bindings(callee.params, out.args)
        extra = tuple(self.actual(p, out, dims) for p in callee.params[len(callee.params) - n:])
        return Call(out.op, out.args + extra, out.kwargs, out.attrs, rtype, span=out.span)



def _dim_bindings(params: tuple[Var, ...], args: tuple[Expr, ...]) -> dict[Var, Expr]:
    """Each dynamic dim of a callee's tensor params, bound to the extent the call's actual argument
    has in that position (`a: pl.Tensor[[M, N], ...]` called with a [128, 64] tensor: M -> 128)."""
    out: dict[Var, Expr] = {}
    for p, a in zip(params, args, strict=False):
        pt, at = p.type, getattr(a, "type", None)
        if isinstance(pt, TensorType) and isinstance(at, TensorType) \
                and len(pt.shape) == len(at.shape):
            for d, actual in zip(pt.shape, at.shape, strict=True):
                if isinstance(d, Var) and d not in out:
                    out[d] = actual
    return out


_FORWARDING = (FunctionType.Group, FunctionType.Spmd)


def _update_call_sites(funcs: list[Function], changed: dict[str, tuple[Function, int]],
                       views: Mapping[str, Mapping[str, View]]) -> list[Function]:
    """Update every caller of a changed function. A forwarding caller gains Out params and so
    changes in turn: rounds repeat until one changes nothing (a call that already has all its
    actuals is left alone, so each round settles at least one level of the call chain)."""
    # Each round settles one more level of an acyclic call chain; more rounds than functions
    # means the forwarding functions call each other in a cycle.
    for _ in range(len(funcs) + 1):
        progressed = False
        for i, f in enumerate(funcs):
            forward = f.func_type.is_incore_kind() or f.func_type in _FORWARDING
            rw = _CallSites(changed, forward, views, f.func_type.is_incore_kind())
            new_f = rw.function(f)
            if new_f is f:
                continue
            progressed = True
            if rw.new_params:
                new_f = replace(new_f, params=new_f.params + tuple(rw.new_params),
                                directions=new_f.directions
                                + (ParamDirection.Out,) * len(rw.new_params))
            if rw.new_params or f.name in changed:
                had = changed[f.name][1] if f.name in changed else 0
                changed[f.name] = (new_f, had + len(rw.new_params))
            funcs[i] = new_f
        if not progressed:
            return funcs
    cycle = [f.name for f in funcs if f.name in changed]
    raise PlError(f"the functions {', '.join(cycle)} call each other in a cycle, so the Out params "
                  "convert_tensor_to_tile_ops adds to an InCore function cannot be passed through "
                  "them", funcs[0].span)


def convert_tensor_to_tile_ops(program: Program) -> Program:
    """Convert tensor ops of InCore/AIC/AIV functions to tile ops (pass.md section 7)."""
    converted: dict[str, tuple[Function, int]] = {}
    funcs: list[Function] = []
    callee_writes = {f.name: tuple(i for i, d in enumerate(f.directions)
                                   if d in (ParamDirection.Out, ParamDirection.InOut))
                     for f in program.functions}
    aliases = param_aliases(program)
    views: dict[str, dict[str, View]] = {}
    for f in program.functions:
        if f.func_type.is_incore_kind():
            new_f, added, views[f.name] = _convert_incore(f, callee_writes,
                                                          aliases.get(f.name, frozenset()))
            if added or new_f.return_types != f.return_types:  # its callers' calls follow it
                converted[f.name] = (new_f, added)
            funcs.append(new_f)
        else:
            funcs.append(f)
    if converted:
        funcs = _update_call_sites(funcs, converted, views)
    if same_items(funcs, program.functions):
        return program
    return Program(program.name, tuple(funcs), span=program.span)

