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
from typing import Any, TypeVar

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


def _prototype(node: N, *fields: str) -> Callable[..., N]:
    """A builder of copies of `node`, validated once by its constructor: called with values for
    `fields` (positionally, in that order), it copies `node` with those fields replaced, without
    validating the copy.

    The builder is a function generated for the prototype with one slot store per field written
    out: a loop over the fields costs about three times as much, and these copies are a large part
    of printing a big program."""
    cls = type(node)
    setters = _setters(cls)
    unknown = set(fields) - set(setters)
    if unknown:
        raise TypeError(f"{cls.__name__} has no field {sorted(unknown)}")
    scope: dict[str, Any] = {"_new": _new, "_cls": cls}
    stores = []
    for i, (name, set_field) in enumerate(setters.items()):
        scope[f"_set{i}"] = set_field
        if name in fields:
            stores.append(f"    _set{i}(new, v{fields.index(name)})")
        else:
            scope[f"_default{i}"] = getattr(node, name)
            stores.append(f"    _set{i}(new, _default{i})")
    params = ", ".join(f"v{i}" for i in range(len(fields)))
    source = f"def build({params}):\n    new = _new(_cls)\n" + "\n".join(stores) + "\n    return new\n"
    exec(source, scope)  # the source is made above of field indices only
    builder: Callable[..., N] = scope["build"]
    return builder


# The builders' prototypes; their copies share the prototypes' whitespace nodes (immutable).
_TIGHT_EQUAL = cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""),
                               whitespace_after=cst.SimpleWhitespace(""))
_NAME = _prototype(cst.Name("x"), "value")
_ARG = _prototype(cst.Arg(cst.Name("x")), "value")
_KWARG = _prototype(cst.Arg(cst.Name("x"), keyword=cst.Name("k"), equal=_TIGHT_EQUAL), "keyword", "value")
_CALL = _prototype(cst.Call(cst.Name("f")), "func", "args")
_BROKEN_CALL = _prototype(cst.Call(cst.Name("f")), "func", "args", "whitespace_before_args")
_ANNOTATION = _prototype(cst.Annotation(cst.Name("T")), "annotation")
_LINE = _prototype(cst.SimpleStatementLine([cst.Pass()]), "body")
_ANN_ASSIGN = _prototype(cst.AnnAssign(cst.Name("x"), cst.Annotation(cst.Name("T")), cst.Name("v")),
                         "target", "annotation", "value")
_EXPR = _prototype(cst.Expr(cst.Name("v")), "value")
_ELEMENT = _prototype(cst.Element(cst.Name("x")), "value")
_LIST = _prototype(cst.List([]), "elements")


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
