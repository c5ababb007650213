"""LibCST nodes of the printer's hot shapes, built without LibCST's per-node validation.

LibCST validates every node it constructs (`__post_init__`), and a node's default whitespace
fields are fresh `SimpleWhitespace` nodes that are validated by a regular expression each. The
printer builds a handful of node shapes many thousands of times (calls, arguments, annotated
assignments, statement lines), each from parts that are valid by construction, so those shapes
are copied from a prototype validated once here, with only the changing fields replaced (each
slot set through its descriptor, which is faster than `object.__setattr__`).

Guarantees: `replace_unchecked(node, **changes)` equals `node.with_changes(**changes)` field by
field (it only skips re-validation), and every builder below returns a node equal (by LibCST's
`deep_equals`) to the one its validated LibCST constructor call in the docstring builds.
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any, Generic, TypeVar

import libcst as cst

__all__ = ["ann_assign", "annotation", "arg", "call_node_of", "element", "expr_statement", "keyword_arg",
           "list_of", "name_node", "replace_unchecked", "simple_line"]

N = TypeVar("N", bound=cst.CSTNode)
_Setter = Callable[[Any, Any], None]
_SETTERS: dict[type, dict[str, _Setter]] = {}
_new = object.__new__


def _setters(cls: type) -> dict[str, _Setter]:
    """Per field of a LibCST node class, the setter of its slot. Setting a slot through its
    descriptor skips the frozen dataclass's `__setattr__` (like `object.__setattr__`), faster."""
    setters = _SETTERS.get(cls)
    if setters is None:
        setters = _SETTERS[cls] = {f.name: _slot_setter(cls, f.name) for f in dataclasses.fields(cls)}
    return setters


def _slot_setter(cls: type, name: str) -> _Setter:
    descriptor = getattr(cls, name, None)
    if type(descriptor) is types.MemberDescriptorType:
        return descriptor.__set__
    return lambda node, value: object.__setattr__(node, name, value)  # not a slot: the plain way


def replace_unchecked(node: N, **changes: Any) -> N:
    """`node.with_changes(**changes)` without LibCST's re-validation of the copy: for changes
    that keep a node valid by construction (whitespace, commas, parts of an already valid kind)."""
    cls = type(node)
    new = _new(cls)
    for name, set_field in _setters(cls).items():
        set_field(new, changes[name] if name in changes else getattr(node, name))
    return new


class _Prototype(Generic[N]):
    """A node validated once; calling it with values for the fields named at construction
    copies it with those fields replaced, without validating the copy."""

    __slots__ = ("cls", "defaults", "field_setters")

    def __init__(self, node: N, *fields: str) -> None:
        self.cls = type(node)
        setters = _setters(self.cls)
        self.defaults = tuple((set_field, getattr(node, name)) for name, set_field in setters.items()
                              if name not in fields)
        self.field_setters = tuple(setters[name] for name in fields)

    def __call__(self, *values: Any) -> N:
        new = _new(self.cls)
        for set_field, value in self.defaults:
            set_field(new, value)
        for set_field, value in zip(self.field_setters, values, strict=True):
            set_field(new, value)
        return new


# The builders' prototypes; their copies share the prototypes' whitespace nodes (immutable).
_TIGHT_EQUAL = cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""),
                               whitespace_after=cst.SimpleWhitespace(""))
_NAME = _Prototype(cst.Name("x"), "value")
_ARG = _Prototype(cst.Arg(cst.Name("x")), "value")
_KWARG = _Prototype(cst.Arg(cst.Name("x"), keyword=cst.Name("k"), equal=_TIGHT_EQUAL), "keyword", "value")
_CALL = _Prototype(cst.Call(cst.Name("f")), "func", "args")
_BROKEN_CALL = _Prototype(cst.Call(cst.Name("f")), "func", "args", "whitespace_before_args")
_ANNOTATION = _Prototype(cst.Annotation(cst.Name("T")), "annotation")
_LINE = _Prototype(cst.SimpleStatementLine([cst.Pass()]), "body")
_ANN_ASSIGN = _Prototype(cst.AnnAssign(cst.Name("x"), cst.Annotation(cst.Name("T")), cst.Name("v")),
                         "target", "annotation", "value")
_EXPR = _Prototype(cst.Expr(cst.Name("v")), "value")
_ELEMENT = _Prototype(cst.Element(cst.Name("x")), "value")
_LIST = _Prototype(cst.List([]), "elements")


def name_node(value: str) -> cst.Name:
    """`cst.Name(value)`; LibCST itself builds (and rejects) a value that is not an identifier."""
    if not value.isidentifier():
        return cst.Name(value)  # raises LibCST's own validation error
    return _NAME(value)


def arg(value: cst.BaseExpression) -> cst.Arg:
    """`cst.Arg(value)`."""
    return _ARG(value)


@lru_cache(maxsize=256)
def _keyword(name: str) -> cst.Name:
    return cst.Name(name)  # validated: a keyword must be an identifier


def keyword_arg(name: str, value: cst.BaseExpression) -> cst.Arg:
    """`cst.Arg(value, keyword=cst.Name(name), equal=AssignEqual(no spaces))`: `name=value`."""
    return _KWARG(_keyword(name), value)


def call_node_of(func: cst.BaseExpression, args: Sequence[cst.Arg],
                 whitespace_before_args: cst.BaseParenthesizableWhitespace | None = None) -> cst.Call:
    """`cst.Call(func=func, args=args)` (the printer never parenthesises a call), with
    `whitespace_before_args` if given (the line wrapper's break after the open paren)."""
    if whitespace_before_args is None:
        return _CALL(func, args)
    return _BROKEN_CALL(func, args, whitespace_before_args)


def annotation(node: cst.BaseExpression) -> cst.Annotation:
    """`cst.Annotation(node)`."""
    return _ANNOTATION(node)


def simple_line(small: cst.BaseSmallStatement) -> cst.SimpleStatementLine:
    """`cst.SimpleStatementLine([small])`."""
    return _LINE([small])


def ann_assign(target: cst.Name, ann: cst.Annotation, value: cst.BaseExpression) -> cst.AnnAssign:
    """`cst.AnnAssign(target=target, annotation=ann, value=value)`: `target: T = value`."""
    return _ANN_ASSIGN(target, ann, value)


def expr_statement(value: cst.BaseExpression) -> cst.Expr:
    """`cst.Expr(value)`."""
    return _EXPR(value)


def element(value: cst.BaseExpression) -> cst.Element:
    """`cst.Element(value)`."""
    return _ELEMENT(value)


def list_of(items: Sequence[cst.BaseExpression]) -> cst.List:
    """`cst.List([cst.Element(i) for i in items])`."""
    return _LIST([element(i) for i in items])
