"""The static evaluator: the value of a module-level constant, computed from its LibCST expression
without running any of the user's code.

It is what `show_inferred` (lowering/source/static_module.py) and `pl.parse` use to bind the names a
kernel reads from its module (`N = 128`, `SHAPE = [N, 2 * N]`, `X = pl.MemRef(...)`). It accepts
exactly these forms, and raises `NotStatic` (with the node and the reason) for anything else:

- literals: int, float, str (plain or concatenated; not f-strings), `True`, `False`, `None`;
- unary `-`, `+`, `~`, `not` on numbers and bools;
- binary `+ - * / // % ** << >> & | ^` on ints / floats (bools count as ints), `+` on two strs,
  tuples or lists and `*` of a str / tuple / list by an int; every int result, shift count,
  power and repetition is bounded (`MAX_INT_BITS`, `MAX_LENGTH`) so no expression can make the
  compiler spend unbounded time or memory;
- tuples and lists of accepted forms (no `*starred` elements), and `seq[i]` with an int index;
  a tuple or list a literal, `+` or `*` builds holds at most `MAX_ELEMENTS` items in all (every
  item of every nested tuple and list, counted as often as it is reached: `[[0] * 10000] * 10000`
  is 10^8 of them, each an IR constant where a kernel uses it) and nests at most `MAX_NESTING`
  deep (`measure`); beyond either it is `NotStatic`, naming the limit;
- names: whatever `lookup` returns for them (the module's other constants, the `pl` module, a
  module namespace of the project) - a name `lookup` does not know is `NotStatic`;
- `a.b` (`b` not starting with `_`) where `a` is the `pl` package (or one of its modules), a `pl` enum class
  (`pl.MemorySpace.Vec`, `pl.FP32`) or a `StaticNamespace` (a module of the project read the same
  way);
- calls of the DSL's value constructors only (`pl.MemRef(...)`, `pl.TileView(...)`,
  `pl.TensorView(...)`, `pl.dynamic("M")`) with accepted arguments (positional and keyword), and
  `float(s)` of one str (`float('-inf')`, `float('nan')`), when `lookup` gives the builtin.

Nothing else is ever called, and attributes are read only off the objects listed above. An
accepted form that Python itself would fail on (`1 // 0`, an index out of range, a constructor
given wrong arguments) raises `FailsWhenRun` instead: a user error in any loading mode.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType, ModuleType
from typing import Any, Final

import libcst as cst

from pl.deep_stack import MAX_NESTING
from pl.ir.operators import ATOM, BY_SYMBOL, BinaryOp, Kind
from pl.ir.span import Span
from pl.language import dsl

__all__ = ["EXEC_HINT", "LIMIT_HINT", "TooBig", "FailsWhenRun", "literal_number", "python_failure", "MAX_ELEMENTS", "MAX_INT_BITS", "MAX_LENGTH",
           "NotStatic", "StaticNamespace", "Unresolved", "binary", "evaluate", "measure", "size_problem"]

MAX_INT_BITS = 4096  # no constant needs more; bounds `1 << n`, `a ** b`, `a * b`
MAX_LENGTH = 1 << 16  # longest str / tuple / list a `*` may build
MAX_ELEMENTS = 1 << 16  # items of a constant in all, nested tuples and lists included

EXEC_HINT = ("show_inferred reads kernel files without running them; run it with --exec "
             "(execute=True from Python) to import the file as Python does, which runs the "
             "file's top-level code")

_CONSTRUCTORS = (dsl.MemRef, dsl.TileView, dsl.TensorView, dsl.dynamic, dsl.DynVar)
_NAMED: Final[Mapping[str, bool | None]] = MappingProxyType({"True": True, "False": False, "None": None})


class FailsWhenRun(Exception):
    """`node` would raise `error` when Python runs it too (`1 // 0`, `(1, 2)[5]`): a user error
    whatever the loading mode."""

    def __init__(self, node: cst.CSTNode, error: Exception) -> None:
        super().__init__(python_failure(error))
        self.node = node
        self.error = error


def python_failure(error: BaseException) -> str:
    """What Python's own failure says, in words: its message without the exception's class name
    (user-facing messages never name an exception class), or, for a message-less exit or
    interrupt, what happened."""
    if isinstance(error, SystemExit):
        return f"the file exits (status {error.code!r}) when it runs"
    if isinstance(error, KeyboardInterrupt):
        return "the file interrupts itself (a keyboard interrupt) when it runs"
    if isinstance(error, RecursionError):
        return "the file nests too deeply to run"
    # (a message may quote another exception: "... raised NameError: x" keeps only "x")
    text = re.sub(r"\b[A-Z]\w*(?:Error|Exception)\b:?\s*", "", str(error)).strip()
    return text[:1].lower() + text[1:] if text else "the file fails when it runs (no message)"


class NotStatic(Exception):
    """`node` has no value without running code; `reason` says what it is. `origin`: the
    Unresolved name it reads, when that is why (a name computed from it is unresolved for the
    same reason, which is passed on as it is rather than quoted in a longer one at each step of
    a chain of names)."""

    def __init__(self, node: cst.CSTNode, reason: str, origin: Unresolved | None = None) -> None:
        super().__init__(reason)
        self.node = node
        self.reason = reason
        self.origin = origin


class TooBig(NotStatic):
    """A tuple or list past pl's limits on a constant (`size_problem`): Python would build it,
    pl refuses it where a kernel uses it."""


LIMIT_HINT = ("a kernel constant becomes one IR constant per item: pass a large table to the "
              "kernel as a tensor instead")


@dataclass(frozen=True)
class Unresolved:
    """What a module-level name is bound to when static loading cannot tell its value (it comes
    from a def, a loop, a third-party import, ...). Using it in a kernel is a located error."""

    name: str
    reason: str
    span: Span | None = None
    # What to do about it; None: run the file (EXEC_HINT). A constant past pl's limits (`TooBig`)
    # says how to do without it: running the file would not help.
    hint: str | None = None


class StaticNamespace:
    """A module of the user's project (or a package prefix such as `pypto`) read statically: its
    names are attributes, as `import shapes` + `shapes.N` expects."""

    def __init__(self, name: str, names: dict[str, Any]) -> None:
        self.__name = name
        self.__names = names

    @property
    def name(self) -> str:
        return self.__name

    @property
    def names(self) -> dict[str, Any]:
        return self.__names

    def __getattr__(self, attr: str) -> Any:
        try:
            return self.__names[attr]
        except KeyError:
            raise AttributeError(f"module {self.__name!r} has no attribute {attr!r}") from None

    def __repr__(self) -> str:
        return f"<module {self.__name!r} (read statically)>"


def measure(value: Any) -> tuple[int, int]:
    """(items, depth) of a constant: every item of every tuple and list nested in it, counted as
    often as it is reached (a list shared by reference counts at each place), and how deep they
    nest (0 for a scalar). Iterative, each distinct list walked once; the count stops just past
    `MAX_ELEMENTS` and the depth just past `MAX_NESTING` (a list that holds itself is too deep)."""
    if not isinstance(value, tuple | list):
        return 0, 0
    known: dict[int, tuple[int, int]] = {}
    on_path = {id(value)}
    stack: list[list[Any]] = [[value, 0, len(value), 0]]  # sequence, next index, items, depth below
    while True:
        frame = stack[-1]
        seq, i = frame[0], frame[1]
        if i < len(seq) and frame[2] <= MAX_ELEMENTS:
            frame[1] = i + 1
            item = seq[i]
            if not isinstance(item, tuple | list):
                continue
            sub = known.get(id(item))
            if sub is None and (id(item) in on_path or len(stack) >= MAX_NESTING):
                return frame[2], MAX_NESTING + 1
            if sub is None:
                on_path.add(id(item))
                stack.append([item, 0, len(item), 0])
                continue
            frame[2] += sub[0]
            frame[3] = max(frame[3], sub[1])
            continue
        stack.pop()
        on_path.discard(id(seq))
        done = known[id(seq)] = (frame[2], frame[3] + 1)
        if not stack:
            return done
        stack[-1][2] += done[0]
        stack[-1][3] = max(stack[-1][3], done[1])


def size_problem(value: Any) -> str | None:
    """Why a constant is too big for pl (`measure` past a limit), naming the limit; else None."""
    items, depth = measure(value)
    if depth > MAX_NESTING:
        return f"the constant nests more than {MAX_NESTING} tuples or lists deep (pl's limit)"
    if items > MAX_ELEMENTS:
        return (f"the constant holds more than {MAX_ELEMENTS} items in all, counting those of "
                "its nested tuples and lists (pl's limit on a constant's total size)")
    return None


def _check_size(node: cst.CSTNode, value: Any) -> Any:
    problem = size_problem(value)
    if problem is not None:
        raise TooBig(node, problem)
    return value


def _is_pl_module(obj: Any) -> bool:
    return isinstance(obj, ModuleType) and (obj.__name__ == "pl" or obj.__name__.startswith("pl."))


def _attribute_readable(obj: Any) -> bool:
    return _is_pl_module(obj) or isinstance(obj, StaticNamespace) or (
        isinstance(obj, type) and issubclass(obj, Enum) and obj.__module__.startswith("pl."))


def literal_number(node: cst.Integer | cst.Float) -> int | float:
    """The value of a number literal, read off its text as Python reads it: `int(text, 0)`
    accepts every spelling of an integer literal CPython's parse let through (`0x1F`, `0o17`,
    `1_000`, `00`), `float(text)` every float's. (LibCST's `evaluated_value` runs
    `ast.literal_eval`, a CPython compile per literal.)"""
    return int(node.value, 0) if isinstance(node, cst.Integer) else float(node.value)


def _check_int(node: cst.CSTNode, value: Any) -> Any:
    if isinstance(value, int) and value.bit_length() > MAX_INT_BITS:
        raise NotStatic(node, f"the value has more than {MAX_INT_BITS} bits")
    return value


def _number(x: Any) -> bool:
    return isinstance(x, int | float) and not isinstance(x, Enum)


def written_operator(node: cst.CSTNode) -> BinaryOp | None:
    """The operator a LibCST operator node spells (`+`, `+=`, `<`, `and`: pl/ir/operators.py's
    symbols), or None for one the IR has not (`@`, `in`, `is`)."""
    token = cst.Module([]).code_for_node(node).strip()
    if isinstance(node, cst.BaseAugOp):
        token = token[:-1]  # `+=` -> `+`
    return BY_SYMBOL.get(token)


def binary(node: cst.CSTNode, op: cst.BaseBinaryOp | cst.BaseAugOp, left: Any, right: Any) -> Any:
    """`left op right` for the accepted operand kinds (`op` may be an augmented `+=` too), as
    Python computes it (the operator's `python`, pl/ir/operators.py)."""
    kind = written_operator(op)
    if kind is None or kind.kind not in (Kind.ARITH, Kind.BITWISE) or kind.precedence == ATOM:
        raise NotStatic(node, f"the operator {type(op).__name__} is not evaluated statically")
    fn = kind.python
    seq = (str, tuple, list)
    if _number(left) and _number(right):
        ints = isinstance(left, int) and isinstance(right, int)
        if ints and kind is BinaryOp.BitShiftLeft and right > 0 and left.bit_length() + right > MAX_INT_BITS:
            raise NotStatic(node, f"the shift makes a value of more than {MAX_INT_BITS} bits")
        if ints and kind is BinaryOp.Pow and right > 0 and \
                max(1, abs(left).bit_length() - 1) * right > MAX_INT_BITS:
            raise NotStatic(node, f"the power makes a value of more than {MAX_INT_BITS} bits")
        if kind.kind is Kind.BITWISE and not ints:
            raise NotStatic(node, "bit operations take ints")
    elif kind is BinaryOp.Add and type(left) is type(right) and isinstance(left, seq):
        if len(left) + len(right) > MAX_LENGTH:
            raise NotStatic(node, f"the result is longer than {MAX_LENGTH}")
    elif kind is BinaryOp.Mul and (isinstance(left, seq) and isinstance(right, int)
                                   or isinstance(right, seq) and isinstance(left, int)):
        items, times = (left, right) if isinstance(left, seq) else (right, left)
        assert isinstance(items, str | tuple | list) and isinstance(times, int)
        if len(items) * max(times, 0) > MAX_LENGTH:
            raise NotStatic(node, f"the result is longer than {MAX_LENGTH}")
    else:
        raise NotStatic(node, f"{type(op).__name__} of {type(left).__name__} and "
                              f"{type(right).__name__} is not evaluated statically")
    try:
        result = _check_int(node, fn(left, right))
    except (ArithmeticError, ValueError) as e:
        raise FailsWhenRun(node, e) from None
    return _check_size(node, result) if isinstance(result, tuple | list) else result


def _unary(node: cst.UnaryOperation, value: Any) -> Any:
    op = node.operator
    if isinstance(op, cst.Not) and (_number(value) or value is None):
        return not value
    if not _number(value):
        raise NotStatic(node, f"unary {type(op).__name__} of {type(value).__name__} is not "
                              "evaluated statically")
    if isinstance(op, cst.Minus):
        return -value
    if isinstance(op, cst.Plus):
        return +value
    if isinstance(op, cst.BitInvert) and isinstance(value, int):
        return ~value
    if isinstance(op, cst.BitInvert):  # `~1.5` fails in Python too
        raise FailsWhenRun(node, TypeError(f"bad operand type for unary ~: "
                                           f"'{type(value).__name__}'"))
    raise NotStatic(node, f"unary {type(op).__name__} is not evaluated statically")


def evaluate(node: cst.BaseExpression, lookup: Callable[[cst.Name], Any]) -> Any:
    """The value of `node` (see the module doc for the accepted forms). `lookup(name_node)` gives
    a name's value or raises `NotStatic`; an `Unresolved` value is `NotStatic` with its reason."""
    if isinstance(node, cst.Integer | cst.Float):
        return _check_int(node, literal_number(node))
    if isinstance(node, cst.SimpleString | cst.ConcatenatedString):
        value = node.evaluated_value
        if not isinstance(value, str):
            raise NotStatic(node, "a bytes literal is not a kernel constant")
        return value
    if isinstance(node, cst.Name):
        if node.value in _NAMED:
            return _NAMED[node.value]
        value = lookup(node)
        if isinstance(value, Unresolved):
            raise NotStatic(node, value.reason, value)
        return value
    if isinstance(node, cst.Attribute):
        base = evaluate(node.value, lookup)
        if node.attr.value.startswith("_"):
            raise NotStatic(node, "private and dunder attributes are not read statically")
        if not _attribute_readable(base):
            raise NotStatic(node, f"attributes of {type(base).__name__} values are not read "
                                  "statically")
        try:
            value = getattr(base, node.attr.value)
        except AttributeError:
            raise NotStatic(node, f"{cst.Module([]).code_for_node(node)} does not exist") from None
        if isinstance(value, Unresolved):
            raise NotStatic(node, value.reason, value)
        return value
    if isinstance(node, cst.UnaryOperation):
        return _unary(node, evaluate(node.expression, lookup))
    if isinstance(node, cst.BinaryOperation):
        return binary(node, node.operator, evaluate(node.left, lookup),
                      evaluate(node.right, lookup))
    if isinstance(node, cst.Comparison):
        return _comparison(node, lookup)
    if isinstance(node, cst.Tuple | cst.List):
        items = []
        for el in node.elements:
            if isinstance(el, cst.StarredElement):
                raise NotStatic(el, "a *starred element is not evaluated statically")
            items.append(evaluate(el.value, lookup))
        return _check_size(node, tuple(items) if isinstance(node, cst.Tuple) else items)
    if isinstance(node, cst.Subscript):
        return _subscript(node, lookup)
    if isinstance(node, cst.Call):
        return _call(node, lookup)
    raise NotStatic(node, f"a {type(node).__name__} expression is not evaluated statically")


_COMPARE: Mapping[type, Callable[[Any, Any], bool]] = MappingProxyType({
    cst.LessThan: lambda a, b: a < b, cst.LessThanEqual: lambda a, b: a <= b,
    cst.GreaterThan: lambda a, b: a > b, cst.GreaterThanEqual: lambda a, b: a >= b,
    cst.Equal: lambda a, b: a == b, cst.NotEqual: lambda a, b: a != b,
})


def _comparison(node: cst.Comparison, lookup: Callable[[cst.Name], Any]) -> bool:
    """`a <= b`, `0 < n < 8` of numbers (or of strings): what a builder's guard tests."""
    left = evaluate(node.left, lookup)
    for target in node.comparisons:
        right = evaluate(target.comparator, lookup)
        compare = _COMPARE.get(type(target.operator))
        same_kind = isinstance(left, str) == isinstance(right, str)
        if compare is None or not same_kind or not all(
                isinstance(v, int | float | str) for v in (left, right)):
            raise NotStatic(node, "only comparisons of numbers or strings are evaluated "
                                  "statically")
        if not compare(left, right):
            return False
        left = right
    return True


def _float(node: cst.Call, lookup: Callable[[cst.Name], Any]) -> float:
    """`float(s)` of one str (`float('-inf')`, `float('nan')`): what a kernel may write inline
    too (lowering/frontend/constants.py), and how the printer writes the floats no literal spells."""
    if len(node.args) != 1 or node.args[0].keyword is not None or node.args[0].star:
        raise NotStatic(node, "float(...) is evaluated statically only of one string")
    text = evaluate(node.args[0].value, lookup)
    if not isinstance(text, str):
        raise NotStatic(node, "float(...) is evaluated statically only of one string")
    try:
        return float(text)
    except ValueError as e:
        raise FailsWhenRun(node, e) from None


def _subscript(node: cst.Subscript, lookup: Callable[[cst.Name], Any]) -> Any:
    base = evaluate(node.value, lookup)
    if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
        raise NotStatic(node, "only seq[i] with one int index is evaluated statically")
    index = evaluate(node.slice[0].slice.value, lookup)
    if not isinstance(base, tuple | list | str) or not isinstance(index, int):
        raise NotStatic(node, "only seq[i] with one int index is evaluated statically")
    try:
        return base[index]
    except IndexError as e:
        raise FailsWhenRun(node, e) from None


def _call(node: cst.Call, lookup: Callable[[cst.Name], Any]) -> Any:
    func = evaluate(node.func, lookup)
    if func is float:
        return _float(node, lookup)
    if not any(func is c for c in _CONSTRUCTORS):
        raise NotStatic(node, "a call is evaluated statically only for the DSL's value "
                              "constructors (pl.MemRef, pl.TileView, pl.TensorView, pl.dynamic)")
    args: list[Any] = []
    kwargs: dict[str, Any] = {}
    for a in node.args:
        if a.star:
            raise NotStatic(a, "*args / **kwargs are not evaluated statically")
        value = evaluate(a.value, lookup)
        if a.keyword is None:
            args.append(value)
        else:
            kwargs[a.keyword.value] = value
    try:
        return func(*args, **kwargs)
    except TypeError as e:  # wrong arguments to a constructor: the user's error
        raise FailsWhenRun(node, e) from None
