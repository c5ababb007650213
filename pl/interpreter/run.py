"""`pl.interpret(program, *args)` (this module is `pl.interpreter`): a NumPy reference interpreter for the IR.

Guarantees:
* Tensors are NumPy arrays with real aliasing: tensor.slice / view / reshape / transpose are views
  of their root, tile.store / tensor.assemble / tensor.write write into the target array, and
  tensor.create allocates zeros. An argument array whose dtype already is the parameter's storage
  dtype is used in place, so Out / InOut parameters are written straight into the caller's array;
  an array of another dtype is refused with a PlError naming the parameter and both dtypes (a
  float64 array for an FP16 tensor would otherwise run on other values than the caller's; BF16's
  storage dtype is float32). A list has no dtype: it is converted to a copy. A BF16 parameter's
  array and a Tile parameter's array are always copies (rounded; a tile is a value the kernel owns,
  docs/tile_params.md), copied back into the caller's array at the end for Out / InOut.
* Tiles are arrays owned by the kernel: loads, moves and extracts copy; memory spaces never change
  values. tile.slice / reshape / transpose_view are views; tile.assemble / write / fillpad_inplace
  write their target (as the hardware buffers do).
* dtypes: FP16 -> float16, FP32 -> float32, BF16 -> float32 rounded to bfloat16 precision after
  every op producing BF16, INT*/UINT* -> int*/uint*, INDEX -> int64, BOOL -> bool. Matmuls
  accumulate in float32 (float inputs) or int64 (integers) before taking the result dtype.
* Control flow: every loop kind runs sequentially; ifs bind their phis; break/continue; scopes are
  transparent; calls between functions follow the callee's return values.
* Ordering-only system ops (fences, barriers) are no-ops: statements already run in order.
* A distributed program (`ranks=N`) runs its HOST orchestrator's dispatches as N ranks, one thread
  each, with their own window slices (pl.interpreter.ranks, pl.interpreter.ops.distributed); a
  wait no rank can satisfy, and a meaning the reference leaves undefined, are located PlErrors, never a hang.
* An op without a handler raises `PlError("pl.interpret: op 'x' is not supported by the
  interpreter")`; nothing is approximated silently.
* The covered ops are the `@interprets`-marked ones, `supported_ops()`; every other registered
  op is named with its reason in `pl.interpreter.handlers.WITHOUT_NUMERICS`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pl.deep_stack import on_deep_stack
from pl.errors import PlError
from pl.gc_pause import gc_paused
from pl.interpreter.execute import Machine
from pl.interpreter.handlers import HANDLERS
from pl.interpreter.ranks import Dispatched, World
from pl.interpreter.values import coerce_array, coerce_element, np_dtype
from pl.ir.enums import FunctionType, ParamDirection
from pl.ir.expr import Call, GlobalVar
from pl.ir.function import Function, Program
from pl.ir.names import user_name
from pl.ir.span import Span
from pl.ir.stmt import Stmt
from pl.ir.traverse import stmt_exprs, walk_exprs, walk_stmts
from pl.ir.types import ScalarType, TensorType, TileType, static_shape

__all__ = ["interpret", "supported_ops", "entry_function"]


def supported_ops() -> frozenset[str]:
    """Names of the ops the interpreter executes."""
    return frozenset(HANDLERS)


@gc_paused()
def interpret(program: Program | Function, *args: Any, entry: str | Function | None = None,
              function: str | Function | None = None, ranks: int | None = None) -> Any:
    """Run `program`'s entry function on `args` (arrays for tensors/tiles, numbers for scalars).

    `entry` names the function to run (`function` is its older name, still accepted); without
    it the entry is chosen by `entry_function`. `ranks` is the world size of a distributed
    program (`pld.world_size()`): its HOST orchestrator's dispatches (`device=r`) run as that
    many ranks, each with its own window slices (pl.interpreter.ranks).

    Returns the entry's return value (a tuple when it returns several, None when it returns none).
    Returned tensors that are the caller's own arrays come back as those very arrays.
    """
    if isinstance(program, Function):
        program = Program(program.name, (program,))
    if entry is not None and function is not None and entry is not function:
        raise PlError("pl.interpret: give the entry once, as entry=... (function=... is its "
                      "older name)")
    func = entry_function(program, entry if entry is not None else function)
    if len(args) != len(func.params):
        raise PlError(f"pl.interpret: '{func.name}' takes {len(func.params)} arguments "
                      f"({', '.join(p.name for p in func.params)}), got {len(args)}", func.span)
    values: list[Any] = []
    write_back: list[tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]] = []
    for param, direction, arg in zip(func.params, func.directions, args, strict=True):
        span = param.span if param.span.line > 0 else func.span
        value, copied = _convert_arg(user_name(param.name), param.type, arg, span)
        values.append(value)
        if copied and direction is not ParamDirection.In and isinstance(arg, np.ndarray):
            write_back.append((arg, value))
    if ranks is not None and (isinstance(ranks, bool) or not isinstance(ranks, int) or ranks < 1):
        raise PlError(f"pl.interpret: ranks must be a positive int, got {ranks!r}")
    machine = Machine(program)
    machine.state.world = World(ranks)
    results = on_deep_stack(lambda: _run_entry(machine, func, values))
    originals: dict[int, Any] = {}
    for user, inner in write_back:
        user[...] = inner.astype(user.dtype)
        originals[id(inner)] = user
    out = tuple(originals.get(id(r), r) for r in results)
    if not out:
        return None
    return out[0] if len(out) == 1 else out


def _run_entry(machine: Machine, func: Function, values: list[Any]) -> tuple[Any, ...]:
    """The entry's results, once every task it dispatched has run."""
    world = machine.state.world
    results = machine.run_function(func, values)
    world.flush(machine.run_task)
    return tuple(world.result(r, machine.run_task) if isinstance(r, Dispatched) else r
                 for r in results)


def entry_function(program: Program, entry: str | Function | None = None) -> Function:
    """The function `interpret` runs: the one named by `entry`; else, among the functions no
    other function calls (the roots), the single Orchestration root, else the single root, else
    the program's only function. Any other case is a PlError listing the candidates."""
    if isinstance(entry, Function):
        return entry
    if isinstance(entry, str):
        found = program.get(entry)
        if found is None:
            names = ", ".join(f.name for f in program.functions)
            raise PlError(f"pl.interpret: program '{program.name}' has no function '{entry}' "
                          f"(it has {names})")
        return found
    if len(program.functions) == 1:
        return program.functions[0]
    called = {name for f in program.functions for name in _callees(f.body)}
    roots = [f for f in program.functions if f.name not in called]
    orchestration = [f for f in roots if f.func_type is FunctionType.Orchestration]
    for chosen in (orchestration, roots):
        if len(chosen) == 1:
            return chosen[0]
    candidates = orchestration or roots or list(program.functions)
    names = ", ".join(f"'{f.name}'" for f in candidates)
    raise PlError(f"pl.interpret: cannot choose the entry of program '{program.name}': "
                  f"{len(candidates)} functions could be it ({names})",
                  hint="name the one to run: pl.interpret(program, *args, entry='<name>')")


def _convert_arg(name: str, t: Any, arg: Any, span: Span) -> tuple[Any, bool]:
    """The interpreter value of one argument, and whether it is a copy of the caller's object.

    A NumPy array must already have its parameter's storage dtype (float32 for BF16): converting a
    float64 array to FP16, or an int64 one to INT32, would silently run the kernel on other values
    than the caller's. Lists and Python numbers carry no dtype and are converted."""
    if isinstance(t, (TensorType, TileType)):
        if isinstance(arg, np.ndarray) and arg.dtype != np_dtype(t.dtype):
            want_np = np.dtype(np_dtype(t.dtype)).name
            raise PlError(f"pl.interpret: argument '{name}' is a {arg.dtype.name} array, but its "
                          f"parameter is declared pl.{t.dtype.name} (stored as {want_np})", span,
                          hint=f"pass an array of the declared dtype, e.g. {name}.astype(np.{want_np})")
        if not isinstance(arg, np.ndarray) and not isinstance(arg, (list, tuple)):
            raise PlError(f"pl.interpret: argument '{name}' must be an array, got {type(arg).__name__}")
        want = static_shape(t.shape)
        shape = tuple(np.shape(arg))
        if want is not None and shape != want:
            raise PlError(f"pl.interpret: argument '{name}' has shape {list(shape)}, its parameter "
                          f"type needs {list(want)}")
        alias = isinstance(arg, np.ndarray) and arg.dtype == np_dtype(t.dtype) \
            and isinstance(t, TensorType) and t.dtype.name != "BF16"
        if alias:
            return arg, False
        return coerce_array(np.array(arg), t.dtype), True
    if isinstance(t, ScalarType):
        if isinstance(arg, np.ndarray) and arg.ndim > 0:
            raise PlError(f"pl.interpret: argument '{name}' is a scalar parameter, got an array")
        return coerce_element(arg, t.dtype), False
    return arg, False


def _callees(stmt: Stmt | None) -> set[str]:
    """Names of program functions called anywhere in a body."""
    return {e.op.name for s in walk_stmts(stmt) for root in stmt_exprs(s) for e in walk_exprs(root)
            if isinstance(e, Call) and isinstance(e.op, GlobalVar)}
