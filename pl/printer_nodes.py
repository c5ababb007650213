"""LibCST nodes of the printer's hot shapes, built without LibCST's per-node validation.

LibCST validates every node it constructs (`__post_init__`), and a node's default whitespace
fields are fresh `SimpleWhitespace` nodes that are validated by a regular expression each. The
printer builds a handful of node shapes many thousands of times (calls, arguments, annotated
assignments, statement lines), each from parts that are valid by construction, so those shapes
are copied from a prototype validated once here, with only the changing fields replaced.

Guarantees: `replace_unchecked(node, **changes)` equals `node.with_changes(**changes)` field by
field (it only skips re-validation), and every builder below returns a node equal (by LibCST's
`deep_equals`) to the one its validated LibCST constructor call in the docstring builds.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, Generic, TypeVar

import libcst as cst

__all__ = ["ann_assign", "annotation", "arg", "call_node_of", "element", "expr_statement", "keyword_arg",
           "list_of", "name_node", "replace_unchecked", "simple_line"]

N = TypeVar("N", bound=cst.CSTNode)
_FIELDS: dict[type, tuple[str, ...]] = {}
_new = object.__new__
_set = object.__setattr__


def replace_unchecked(node: N, **changes: Any) -> N:
    """`node.with_changes(**changes)` without LibCST's re-validation of the copy: for changes
    that keep a node valid by construction (whitespace, commas, parts of an already valid kind)."""
    cls = type(node)
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls))
    new = _new(cls)
    for name in names:
        _set(new, name, changes[name] if name in changes else getattr(node, name))
    return new


class _Prototype(Generic[N]):
    """A node validated once; calling it copies it with some fields replaced, without validating
    the copy."""

    __slots__ = ("cls", "fields")

    def __init__(self, node: N) -> None:
        self.cls = type(node)
        self.fields = {f.name: getattr(node, f.name) for f in dataclasses.fields(node)}

    def __call__(self, **changes: Any) -> N:
        new = _new(self.cls)
        for name, value in (self.fields | changes).items():
            _set(new, name, value)
        return new


# The builders' prototypes; their copies share the prototypes' whitespace nodes (immutable).
_TIGHT_EQUAL = cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""),
                               whitespace_after=cst.SimpleWhitespace(""))
_NAME = _Prototype(cst.Name("x"))
_ARG = _Prototype(cst.Arg(cst.Name("x")))
_KWARG = _Prototype(cst.Arg(cst.Name("x"), keyword=cst.Name("k"), equal=_TIGHT_EQUAL))
_CALL = _Prototype(cst.Call(cst.Name("f")))
_ANNOTATION = _Prototype(cst.Annotation(cst.Name("T")))
_LINE = _Prototype(cst.SimpleStatementLine([cst.Pass()]))
_ANN_ASSIGN = _Prototype(cst.AnnAssign(cst.Name("x"), cst.Annotation(cst.Name("T")), cst.Name("v")))
_EXPR = _Prototype(cst.Expr(cst.Name("v")))
_ELEMENT = _Prototype(cst.Element(cst.Name("x")))
_LIST = _Prototype(cst.List([]))


def name_node(value: str) -> cst.Name:
    """`cst.Name(value)`; LibCST itself builds (and rejects) a value that is not an identifier."""
    if not value.isidentifier():
        return cst.Name(value)  # raises LibCST's own validation error
    return _NAME(value=value)


def arg(value: cst.BaseExpression) -> cst.Arg:
    """`cst.Arg(value)`."""
    return _ARG(value=value)


@lru_cache(maxsize=256)
def _keyword(name: str) -> cst.Name:
    return cst.Name(name)  # validated: a keyword must be an identifier


def keyword_arg(name: str, value: cst.BaseExpression) -> cst.Arg:
    """`cst.Arg(value, keyword=cst.Name(name), equal=AssignEqual(no spaces))`: `name=value`."""
    return _KWARG(keyword=_keyword(name), value=value)


def call_node_of(func: cst.BaseExpression, args: Sequence[cst.Arg]) -> cst.Call:
    """`cst.Call(func=func, args=args)` (the printer never parenthesises a call)."""
    return _CALL(func=func, args=args)


def annotation(node: cst.BaseExpression) -> cst.Annotation:
    """`cst.Annotation(node)`."""
    return _ANNOTATION(annotation=node)


def simple_line(small: cst.BaseSmallStatement) -> cst.SimpleStatementLine:
    """`cst.SimpleStatementLine([small])`."""
    return _LINE(body=[small])


def ann_assign(target: cst.Name, ann: cst.Annotation, value: cst.BaseExpression) -> cst.AnnAssign:
    """`cst.AnnAssign(target=target, annotation=ann, value=value)`: `target: T = value`."""
    return _ANN_ASSIGN(target=target, annotation=ann, value=value)


def expr_statement(value: cst.BaseExpression) -> cst.Expr:
    """`cst.Expr(value)`."""
    return _EXPR(value=value)


def element(value: cst.BaseExpression) -> cst.Element:
    """`cst.Element(value)`."""
    return _ELEMENT(value=value)


def list_of(items: Sequence[cst.BaseExpression]) -> cst.List:
    """`cst.List([cst.Element(i) for i in items])`."""
    return _LIST(elements=[element(i) for i in items])
