"""The statement and expression evaluator of `pl.interpret`.

Guarantees: the IR is only read, never changed. Every loop kind runs sequentially in index order;
a loop's iter_args start at their `init` values and take each iteration's yielded values; return
vars receive the final values (also after `break`). `if` phis bind the branch's yielded values.
Scopes are transparent; a `pl.spmd(n)` scope runs its body once per block in order and a
`pl.split_aiv` region of mode NONE once per AIV lane (`Machine._scope`), each from the names
bound at scope entry (they run side by side: a rebinding in one block is not the next one's
input), the block and lane ids reading the running one (block 0 of 1, lane 0, outside any); a
task id is an opaque `TaskId`.
A Group function's statements run in the order `pl.interpreter.group_order` gives (its cube
and vector sides meet at the pipes). A call of a program function (`GlobalVar`) binds its parameters to the
argument values themselves, so tensors are shared by reference and writes reach the caller. Each
op call is dispatched through the interpreter's op table (`pl.interpreter.handlers`); its result is coerced to the dtype of the
Call's result type and checked against the type's static shape. An op outside the tables raises
`PlError("pl.interpret: op 'x' is not supported by the interpreter")` located at the call; an
op whose operands NumPy refuses (a ValueError or IndexError) raises a PlError located there too.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

import numpy as np
from typing_extensions import assert_never

from pl.errors import PlError
from pl.interpreter.context import Lanes, OpCtx, RunState, unsupported
from pl.interpreter.group_order import group_order
from pl.interpreter.handlers import WITHOUT_NUMERICS
from pl.interpreter.handlers import handler as handler_of
from pl.interpreter.ranks import Dispatched, Task, Window
from pl.interpreter.values import (
    TaskId,
    coerce_array,
    coerce_element,
    scalar_binary,
    scalar_unary,
)
from pl.ir.enums import FunctionType, ScopeKind, SplitMode
from pl.ir.expr import (
    BinaryExpr,
    Call,
    ConstBool,
    ConstFloat,
    ConstInt,
    Expr,
    GlobalVar,
    MakeTuple,
    TupleGetItem,
    UnaryExpr,
    Var,
    expr_kind,
    is_submit,
)
from pl.ir.function import Function, Program
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
from pl.ir.traverse import stmt_exprs, walk_exprs, walk_stmts
from pl.ir.types import ScalarType, TensorType, TileType, static_shape

_MAX_CALL_DEPTH = 64


@dataclass(frozen=True, slots=True)
class Flow:
    """How a statement ended when it did not simply fall through."""

    kind: str                              # "yield" | "break" | "continue" | "return"
    values: tuple[Any, ...] | None = None


class Env(dict[Var, Any]):
    """The values of one call's variables. Before convert_to_ssa, several Vars may stand for one
    source variable (`Function.same_variable`: a later branch's binding of a name an earlier
    branch bound first, an iter arg's rebinding): each is read and written as that variable, so
    after an `if` a name is the value the branch that ran gave it."""

    __slots__ = ("same",)

    def __init__(self, same: Mapping[Var, Var], items: Iterable[tuple[Var, Any]] = ()) -> None:
        super().__init__(items)
        self.same = same

    def __getitem__(self, var: Var) -> Any:
        return super().__getitem__(self.same.get(var, var))

    def __setitem__(self, var: Var, value: Any) -> None:
        super().__setitem__(self.same.get(var, var), value)


def _external(func: Function, where: Span) -> PlError:
    """The error of running a declared external kernel (its body is C++ source)."""
    return PlError(f"pl.interpret: '{func.name}' is an external kernel: its body is C++ source "
                   f"({func.external_source}), which pl cannot interpret", where,
                   hint="write the kernel's body in pl (a @pl.jit.incore function or a "
                        "@pl.function(type=pl.FunctionType.InCore)) to run it on CPU")


def _external_in(program: Program, func: Function) -> Function | None:
    """`func` when it is an external kernel, or the first external kernel a Group `func`
    calls (a mixed external kernel's members): what a call of `func` cannot run."""
    if func.external_source is not None:
        return func
    if func.func_type is not FunctionType.Group:
        return None
    for s in walk_stmts(func.body):
        for root in stmt_exprs(s):
            for e in walk_exprs(root):
                if isinstance(e, Call) and isinstance(e.op, GlobalVar):
                    callee = program.get(e.op.name)
                    if callee is not None and callee.external_source is not None:
                        return callee
    return None


def _bind_dynamic_dims(func: Function, args: Sequence[Any], env: Env) -> None:
    """A dynamic dim of a tensor or tile parameter (`pl.dynamic("M")` in `[M, N]`) takes the extent
    the argument array has in that position, as a caller's call binds it."""
    for p, a in zip(func.params, args, strict=True):
        shape = getattr(p.type, "shape", None)
        extents = getattr(a, "shape", None)
        if shape is None or extents is None or len(shape) != len(extents):
            continue
        for d, n in zip(shape, extents, strict=True):
            if isinstance(d, Var) and d not in env:
                env[d] = int(n)


class Machine:
    """Runs the functions of one program."""

    def __init__(self, program: Program) -> None:
        self.program = program
        self.depth = 0
        self.state = RunState()
        self.lanes = Lanes()
        self.on_chip = False  # running an InCore, AIC or AIV function (see OpCtx.on_chip)

    # ---- functions ------------------------------------------------------------------------------

    def run_function(self, func: Function, args: Sequence[Any]) -> tuple[Any, ...]:
        if func.host_body is not None:
            raise PlError(f"pl.interpret: '{func.name}' is a HOST SubWorker: its Python runs on "
                          "the host and is not interpreted", func.span)
        if func.external_source is not None:
            raise _external(func, func.span)
        if len(args) != len(func.params):
            raise PlError(f"pl.interpret: function '{func.name}' takes {len(func.params)} arguments, "
                          f"got {len(args)}", func.span)
        self.depth += 1
        if self.depth > _MAX_CALL_DEPTH:
            raise PlError(f"pl.interpret: call depth exceeds {_MAX_CALL_DEPTH} (recursive call of "
                          f"'{func.name}'?)", func.span)
        outer, self.on_chip = self.on_chip, func.func_type.is_incore_kind()
        try:
            env = Env(dict(func.same_variable), zip(func.params, args, strict=True))
            _bind_dynamic_dims(func, args, env)
            body = func.body
            if func.func_type is FunctionType.Group and isinstance(body, SeqStmts):
                # Its cube and vector calls run at once on the device (group_order says how).
                body = SeqStmts(group_order(self.program, body.stmts), span=body.span)
            flow = self.exec(body, env)
        finally:
            self.depth -= 1
            self.on_chip = outer
        values = flow.values if flow is not None and flow.kind == "return" else ()
        if flow is not None and flow.kind != "return":
            raise PlError(f"pl.interpret: '{flow.kind}' escaped the body of '{func.name}'", func.span)
        return values or ()

    # ---- statements -----------------------------------------------------------------------------

    def exec(self, stmt: Stmt, env: Env) -> Flow | None:
        try:
            return self._exec(stmt, env)
        except PlError as err:
            # Calls built by the frontend may lack spans; the statement's span still points home.
            raise err.located(stmt.span) from None

    def _exec(self, stmt: Stmt, env: Env) -> Flow | None:
        kind = stmt_kind(stmt)
        match kind:
            case AssignStmt(var=var, value=value):
                env[var] = self.eval(value, env)
            case EvalStmt(expr=expr):
                self.eval(expr, env)
            case ReturnStmt(values=values):
                return Flow("return", tuple(self.returned(v, env) for v in values))
            case YieldStmt(values=values):
                return Flow("yield", tuple(self.eval(v, env) for v in values))
            case BreakStmt():
                return Flow("break")
            case ContinueStmt():
                return Flow("continue")
            case SeqStmts(stmts=stmts):
                return self._seq(stmts, env)
            case ScopeStmt():
                return self._scope(kind, env)
            case IfStmt():
                return self._if(kind, env)
            case ForStmt():
                return self._for(kind, env)
            case WhileStmt():
                return self._while(kind, env)
            case _:
                assert_never(kind)
        return None

    def returned(self, value: Expr, env: Env) -> Any:
        """A returned value. An InCore, AIC or AIV function returns a tensor by storing it into an
        output tensor, which receives only its valid region: one whose type declares a narrower
        region comes back with the rest zero (a fresh output's), whatever its padding held."""
        out = self.eval(value, env)
        t = value.type
        if not (self.on_chip and isinstance(t, TensorType) and isinstance(out, np.ndarray)
                and t.view is not None and t.view.valid_shape):
            return out
        valid = tuple(int(self.eval(d, env)) for d in t.view.valid_shape)
        if len(valid) != out.ndim or all(v >= n for v, n in zip(valid, out.shape, strict=True)):
            return out
        stored = np.zeros_like(out)
        region = tuple(slice(0, v) for v in valid)
        stored[region] = out[region]
        return stored

    def _scope(self, stmt: ScopeStmt, env: Env) -> Flow | None:
        """A scope runs its body once, a `pl.spmd(n)` scope once per block (0 to n-1, in order),
        a `pl.split_aiv` region of mode NONE once per AIV lane (0, 1), each from the names bound
        at scope entry; a task id the scope binds names a task that has run (`as tid`)."""
        outer = self.lanes
        runs: Iterable[Lanes] = [outer]
        if stmt.kind is ScopeKind.Spmd:
            n = int(self.eval(dict(stmt.args)["core_num"], env))
            # Made one at a time: a block count of 2**31 is a long run, not gigabytes of them.
            runs = (replace(outer, block_idx=b, block_num=n) for b in range(n))
        elif stmt.kind is ScopeKind.SplitAiv:
            mode = dict(stmt.args).get("mode")
            if mode is not SplitMode.NONE:
                raise PlError(f"pl.interpret: a pl.split_aiv region of mode {mode} is not "
                              "interpretable: the compiler halves its vector work between the two "
                              "lanes, which the interpreter does not model", stmt.span)
            runs = [replace(outer, subblock_idx=lane) for lane in (0, 1)]
        flow = None
        # Blocks and lanes run side by side: each starts from the names bound at scope entry (a
        # rebinding in one is not another's input, as SSA conversion reads the body), and the
        # last one's bindings are what follows the scope sees. Memory they write is shared.
        entry = dict(env)
        try:
            for lanes in runs:
                self.lanes = lanes
                env.clear()
                env.update(entry)
                flow = self.exec(stmt.body, env)
                if flow is not None and flow.kind != "yield":
                    break  # a return leaves every block (a pl.spmd body has no break of its own)
        finally:
            self.lanes = outer
        if stmt.task_id is not None:
            env[stmt.task_id] = TaskId(valid=True)
        return flow

    def _seq(self, stmts: Sequence[Stmt], env: Env) -> Flow | None:
        pending: Flow | None = None
        for s in stmts:
            flow = self.exec(s, env)
            if flow is None:
                continue
            if flow.kind == "yield":
                pending = flow  # a yield normally ends a body; a trailing break/continue keeps it
                continue
            if flow.kind in ("break", "continue") and flow.values is None and pending is not None:
                return Flow(flow.kind, pending.values)
            return flow
        return pending

    def _if(self, stmt: IfStmt, env: Env) -> Flow | None:
        cond = self.eval(stmt.condition, env)
        branch = stmt.then_body if _truth(cond) else stmt.else_body
        flow = self.exec(branch, env) if branch is not None else None
        if flow is not None and flow.kind == "yield":
            self._bind(stmt.return_vars, flow.values or (), stmt, env)
            return None
        if flow is None and stmt.return_vars:
            raise PlError("pl.interpret: an if with results ran a branch that yields nothing", stmt.span)
        return flow

    def _bind(self, targets: Sequence[Var], values: Sequence[Any], stmt: Stmt, env: Env) -> None:
        if len(targets) != len(values):
            raise PlError(f"pl.interpret: if expects {len(targets)} yielded values, got {len(values)}",
                          stmt.span)
        for var, value in zip(targets, values, strict=True):
            env[var] = value

    def _for(self, stmt: ForStmt, env: Env) -> Flow | None:
        start, stop, step = (int(self.eval(e, env)) for e in (stmt.start, stmt.stop, stmt.step))
        values = tuple(self.eval(a.init, env) for a in stmt.iter_args)
        # A step of 0 runs no iteration: the reference's trip count (and its generated loop).
        for i in range(start, stop, step) if step != 0 else ():
            env[stmt.loop_var] = i
            values, stop_loop, ret = self._iteration(stmt, stmt.body, env, values)
            if ret is not None:
                return ret
            if stop_loop:
                break
        self._finish(stmt, stmt.return_vars, values, env)
        return None

    def _while(self, stmt: WhileStmt, env: Env) -> Flow | None:
        values = tuple(self.eval(a.init, env) for a in stmt.iter_args)
        while True:
            for arg, v in zip(stmt.iter_args, values, strict=True):
                env[arg] = v
            if not _truth(self.eval(stmt.condition, env)):
                break
            values, stop_loop, ret = self._iteration(stmt, stmt.body, env, values)
            if ret is not None:
                return ret
            if stop_loop:
                break
        self._finish(stmt, stmt.return_vars, values, env)
        return None

    def _iteration(self, stmt: ForStmt | WhileStmt, body: Stmt, env: Env,
                   values: tuple[Any, ...]) -> tuple[tuple[Any, ...], bool, Flow | None]:
        """One trip through a loop body: (next iter values, leave the loop?, a return to pass up)."""
        for arg, v in zip(stmt.iter_args, values, strict=True):
            env[arg] = v
        flow = self.exec(body, env)
        if flow is None:
            if stmt.iter_args:
                # The next trip's carried values are then not defined (the reference's own
                # lowering needs the yield too): refused rather than guessed.
                raise PlError("pl.interpret: a loop with iter_args finished an iteration without a yield, "
                              "so the values it carries into the next iteration are not defined",
                              stmt.span)
            return values, False, None
        if flow.kind == "return":
            return values, True, flow
        nxt = flow.values if flow.values is not None and len(flow.values) == len(values) else values
        if flow.kind == "yield" and len(flow.values or ()) != len(values):
            raise PlError(f"pl.interpret: loop expects {len(values)} yielded values, "
                          f"got {len(flow.values or ())}", stmt.span)
        return tuple(nxt), flow.kind == "break", None

    def _finish(self, stmt: Stmt, targets: Sequence[Var], values: tuple[Any, ...], env: Env) -> None:
        if targets and len(targets) != len(values):
            raise PlError(f"pl.interpret: loop has {len(targets)} return vars for {len(values)} iter_args",
                          stmt.span)
        for var, v in zip(targets, values, strict=False):
            env[var] = v

    # ---- expressions ----------------------------------------------------------------------------

    def eval(self, expr: Expr, env: Env) -> Any:
        kind = expr_kind(expr)
        match kind:
            case Var():
                try:
                    value = env[kind]
                except KeyError:
                    raise PlError(f"pl.interpret: '{kind.name}' is used before it has a value",
                                  kind.span) from None
                if isinstance(value, Dispatched):  # a dispatched task's result: run it first
                    value = self.state.world.result(value, self.run_task)
                    env[kind] = value
                return value
            case ConstBool(value=v):
                return bool(v)
            case ConstInt(value=v):
                return int(v)
            case ConstFloat(value=v):
                return float(v)
            case BinaryExpr(op=op, left=left, right=right, dtype=dtype):
                return scalar_binary(op, self.eval(left, env), self.eval(right, env), dtype)
            case UnaryExpr(op=op, operand=operand, dtype=dtype):
                return scalar_unary(op, self.eval(operand, env), dtype)
            case MakeTuple(elements=elements):
                return tuple(self.eval(e, env) for e in elements)
            case TupleGetItem(tuple_expr=inner, index=index):
                value = self.eval(inner, env)
                if not isinstance(value, tuple) or not 0 <= index < len(value):
                    raise PlError(f"pl.interpret: tuple index {index} out of range", kind.span)
                return value[index]
            case Call():
                return self._call(kind, env)
            case _:
                assert_never(kind)

    def run_task(self, task: Task) -> tuple[Any, ...]:
        """A dispatched task, run on its rank (pl.interpreter.ranks) by a machine of its own."""
        machine = Machine(self.program)
        machine.state.world = self.state.world
        return machine.run_function(task.func, self.state.world.bind(task))

    def _call(self, call: Call, env: Env) -> Any:
        args = tuple(self.eval(a, env) for a in call.args)
        world = self.state.world
        if world.pending and not _keeps_dispatches_queued(call):
            world.flush(self.run_task)  # the host reads or writes what the queued tasks may
        if isinstance(call.op, GlobalVar):
            callee = self.program.get(call.op.name)
            if callee is None:
                raise PlError(f"pl.interpret: call of unknown function '{call.op.name}'", call.span)
            external = _external_in(self.program, callee)
            if external is not None:
                raise _external(external, call.span)
            device = dict(call.attrs).get("device")
            if isinstance(device, Expr):
                rank = int(self.eval(device, env))
                return world.dispatch(Task(rank, callee, args, call.span))
            if any(isinstance(a, Window) for a in args):
                raise PlError(f"pl.interpret: a window (pld.window) passed to '{callee.name}' "
                              "without device=: a window is one rank's slice only in a task "
                              "dispatched to that rank", call.span)
            values = self.run_function(callee, args)
            if is_submit(call):
                # The task runs to completion right here (one core, in order).
                return (*values, TaskId(valid=True))
            return values[0] if len(values) == 1 else (None if not values else values)
        handler = handler_of(call.op_name)
        if handler is None:
            raise unsupported(call.op_name, WITHOUT_NUMERICS.get(call.op_name)).located(call.span)
        kwargs = {k: (self.eval(v, env) if isinstance(v, Expr) else v) for k, v in call.kwargs}
        ctx = OpCtx(call, args, kwargs, lambda dims: tuple(int(self.eval(d, env)) for d in dims),
                    self.state, self.lanes, self.on_chip)
        try:
            result = handler(ctx)
        except PlError as err:
            raise err.located(call.span) from None
        except (ValueError, IndexError) as err:
            # NumPy's complaint about operands that do not fit (shapes that do not broadcast, an
            # index past the end, a window of another rank): the kernel's input, not a bug in pl.
            raise PlError(f"pl.interpret: op '{call.op_name}' cannot run on these operands: {err}",
                          call.span) from None
        return _conform(call, result)


# Ops a HOST orchestrator runs between its dispatches that neither read nor write what a queued
# task may (views of its tensors, the run's size, window buffers and views): they leave the
# dispatched tasks queued, so one round's tasks run together (pl.interpreter.ranks).
_VIEWS: Final = frozenset({
    "tensor.slice", "tensor.view", "tensor.reshape", "tensor.transpose",
    "pld.system.world_size", "pld.tensor.alloc_window_buffer", "pld.tensor.window"})


def _keeps_dispatches_queued(call: Call) -> bool:
    if isinstance(call.op, GlobalVar):
        return any(k == "device" for k, _ in call.attrs)
    return call.op_name in _VIEWS


def _truth(value: Any) -> bool:
    if isinstance(value, np.ndarray):
        raise PlError("pl.interpret: a condition must be a scalar, not a tile or tensor")
    return bool(value)


def _conform(call: Call, value: Any) -> Any:
    t = call.result_type
    if isinstance(t, (TileType, TensorType)) and isinstance(value, np.ndarray):
        value = coerce_array(value, t.dtype)
        want = static_shape(t.shape)
        if want is not None and tuple(value.shape) != want:
            raise PlError(f"pl.interpret: op '{call.op_name}' produced shape {list(value.shape)} but its "
                          f"type says {list(want)}", call.span)
        return value
    if isinstance(t, ScalarType) and not isinstance(value, np.ndarray):
        return coerce_element(value, t.dtype)
    return value
