"""Op semantics of the interpreter, part 3: the on-core arrays (`pl.array.*`).

Guarantees: an array value is an immutable tuple of its elements, so `array.update_element`
returns a new value and never changes the one it was given (the IR's functional update); a new
array holds zeros (the reference's code generator declares it `dtype name[N] = {0};`), except an
array of task ids, which are opaque: an element of one never written is `None`, and reading it
is a PlError; an index outside the extent is a PlError, never wrapped; a stored value is
converted to the element dtype as a scalar store is.
"""

from __future__ import annotations

from typing import Any

from pl.errors import PlError
from pl.interpreter.context import OpCtx
from pl.interpreter.values import coerce_element, coerce_scalar
from pl.ir.enums import DType
from pl.ir.types import ArrayType
from pl.ops.marks import interprets


def _elements(c: OpCtx) -> tuple[Any, ...]:
    v = c.arg(0)
    if not isinstance(v, tuple):
        raise PlError(f"pl.interpret: op '{c.name}' expects an array as argument 0")
    return v


def _index(c: OpCtx, extent: int) -> int:
    i = int(c.arg(1))
    if not 0 <= i < extent:
        raise PlError(f"pl.interpret: op '{c.name}': index {i} is out of range for an array of "
                      f"{extent} elements")
    return i


@interprets("array.create")
def _create(c: OpCtx) -> Any:
    t = c.result_type
    assert isinstance(t, ArrayType)  # the type rule gives array.create an ArrayType
    if t.dtype is DType.TASK_ID:
        return (None,) * t.extent
    return (coerce_scalar(0, t.dtype),) * t.extent


@interprets("array.get_element")
def _get_element(c: OpCtx) -> Any:
    elements = _elements(c)
    i = _index(c, len(elements))
    if elements[i] is None:
        raise PlError(f"pl.interpret: op '{c.name}' reads element {i} of a task-id array before "
                      "any write to it (a task id has no initial value)")
    return elements[i]


@interprets("array.update_element")
def _update_element(c: OpCtx) -> Any:
    elements = _elements(c)
    i = _index(c, len(elements))
    t = c.result_type
    assert isinstance(t, ArrayType)  # the type rule gives array.update_element an ArrayType
    return (*elements[:i], coerce_element(c.arg(2), t.dtype), *elements[i + 1:])
