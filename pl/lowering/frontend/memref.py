"""`pl.MemRef(base, byte_offset, size)` inside a Tile / Tensor annotation: IR after memory allocation.

Guarantees: the allocated form (three positional arguments, the base a bare name or a string, an
optional `slots=N`, an optional slot subscript `[i]`) becomes a `pl.ir.types.MemRef` whose base is
a Var of PtrType: the Var of that name in scope (an alloc's result, `m: pl.Ptr =
pl.tile.alloc(...)`), else one Var per name per function (a forward reference, as a signature
spells a base its body allocates, or a DDR base no statement allocates). A name in scope that is
not a Ptr, a byte offset that is not an integer, a size or a slot count that is not a
non-negative / positive integer literal are located errors. The declared forms (`pl.MemRef("name")`,
`slots=` alone, a module constant) and the legacy integer-address form are not carried: `placed_memref`
returns None for them and the annotation drops them, as before; `check_declared` still refuses, located,
the declared forms the reference refuses (a name that is not a string literal, a name for two
declarations, two names for one, slot counts that disagree, a slot index out of range or on a single
slot).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import libcst as cst

from pl.ir.expr import ConstInt, Expr, Var
from pl.ir.types import MemRef, PtrType, ScalarType
from pl.language import dsl
from pl.lowering.frontend.context import FnCtx

LowerExpr = Callable[[FnCtx, cst.BaseExpression], Expr]


def placed_memref(ctx: FnCtx, node: cst.BaseExpression, lower_expr: LowerExpr) -> MemRef | None:
    """The MemRef `node` (a `pl.MemRef(...)` call, or a subscript of one) spells, or None when it
    is a form pl does not carry (see the module docstring)."""
    index_node: cst.BaseExpression | None = None
    call = node.value if isinstance(node, cst.Subscript) else node
    if not isinstance(call, cst.Call):
        return None
    positional = [a.value for a in call.args if a.keyword is None and not a.star]
    if len(positional) != 3 or isinstance(positional[0], cst.Integer):
        return None
    if isinstance(node, cst.Subscript):
        if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
            raise ctx.error(node, "A MemRef slot is one index: pl.MemRef(base, 0, 64, slots=2)[1]")
        index_node = node.slice[0].slice.value
    node = call
    slots = 1
    for a in node.args:
        if a.keyword is None:
            continue
        if a.keyword.value != "slots":
            raise ctx.error(a, f"pl.MemRef takes no keyword argument '{a.keyword.value}'",
                            hint="pl.MemRef(base, byte_offset, size) or pl.MemRef(base, byte_offset, size, slots=N)")
        slots = _int_literal(ctx, a.value, "slot count", least=1)
    base = _base(ctx, positional[0])
    offset = lower_expr(ctx, positional[1])
    if not (isinstance(offset.type, ScalarType) and offset.type.dtype.is_int()):
        raise ctx.error(positional[1], "A MemRef's byte offset must be an integer",
                        hint="e.g. pl.MemRef(mem_vec_0, 16384, 4096)")
    size = _int_literal(ctx, positional[2], "size", least=0)
    index = None
    if index_node is not None:
        if slots < 2:
            raise ctx.error(index_node, "Only a MemRef with slots=N (N >= 2) takes a slot index")
        index = lower_expr(ctx, index_node)
    return MemRef(base, offset, size, slots, index)


def _base(ctx: FnCtx, node: cst.BaseExpression) -> Var:
    if isinstance(node, cst.SimpleString):
        name = node.evaluated_value
        if not isinstance(name, str) or not name.isidentifier():
            raise ctx.error(node, "A MemRef's base must name a pointer", hint='e.g. pl.MemRef("mem_vec_0", 0, 4096)')
    elif isinstance(node, cst.Name):
        name = node.value
    else:
        raise ctx.error(node, "A MemRef's base is a pointer's name or a string",
                        hint='e.g. pl.MemRef(mem_vec_0, 0, 4096) after mem_vec_0: pl.Ptr = pl.tile.alloc(...)')
    var = ctx.lookup_var(name)
    if var is not None:
        if not isinstance(var.type, PtrType):
            raise ctx.error(node, f"'{name}' is not a pointer: a MemRef's base is a pl.Ptr",
                            hint=f"Bind it first: {name}: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, size)")
        return var
    ptr = ctx.ptrs.get(name)
    if ptr is None:
        ptr = ctx.ptrs[name] = Var(name, PtrType(), span=ctx.cur_span)
    return ptr


def _int_literal(ctx: FnCtx, node: cst.BaseExpression, what: str, least: int) -> int:
    value = ctx.try_resolve(node) if isinstance(node, cst.Name | cst.Attribute) else None
    if isinstance(node, cst.Integer):
        value = node.evaluated_value
    if isinstance(value, ConstInt):
        value = value.value
    if not isinstance(value, int) or isinstance(value, bool) or value < least:
        raise ctx.error(node, f"A MemRef's {what} must be an integer >= {least}")
    return value


def check_declared(ctx: FnCtx, node: cst.BaseExpression) -> None:
    """The declared forms pl does not carry (`pl.MemRef("name", slots=N)`, a module constant
    `ping = pl.MemRef()`, either subscripted `[k]`) still follow the reference's rules, so what it
    refuses is refused here, located: a name stands for one declaration (an unnamed one is named
    after its variable, so `alias = ping` would be a second name for it, and two declarations
    under one name would be one allocation); every use of a name agrees on its slot count; only
    a declaration of several slots is subscripted, by a constant within them."""
    head = node.value if isinstance(node, cst.Subscript) else node
    if isinstance(head, cst.Call):
        positional = [a.value for a in head.args if a.keyword is None]
        slots_arg = next((a.value for a in head.args
                          if a.keyword is not None and a.keyword.value == "slots"), None)
        if len(positional) != 1:
            return
        name = positional[0].evaluated_value if isinstance(positional[0], cst.SimpleString) else None
        if not isinstance(name, str) or not name:  # the name identifies the allocation while parsing
            raise ctx.error(positional[0], "A declared allocation's name must be a non-empty "
                                           "string literal", hint='e.g. pl.MemRef("scratch")')
        slots: Any = 1 if slots_arg is None else \
            slots_arg.evaluated_value if isinstance(slots_arg, cst.Integer) else None
        if slots_arg is not None and not (isinstance(slots, int) and slots >= 1):
            raise ctx.error(slots_arg, "slots must be a positive integer literal",
                            hint=f'e.g. pl.MemRef("{name}", slots=2)')
    elif isinstance(head, cst.Name):
        declared = ctx.try_resolve(head)
        if not isinstance(declared, dsl.MemRef) or len(declared.args) > 1:
            return
        explicit = declared.args[0] if declared.args else None
        name, slots = explicit or head.value, declared.kwargs.get("slots", 1)
        _check_one_name(ctx, head, name, id(declared))
    else:
        return
    if not isinstance(name, str) or not isinstance(slots, int) or isinstance(slots, bool):
        return
    known = ctx.declared_slots.setdefault(name, slots)
    if known != slots:
        raise ctx.error(head, f"Declarations of '{name}' disagree on how many slots it has "
                              f"({known} and {slots})",
                        hint=f"Give every pl.MemRef(\"{name}\", ...) the same slots=")
    if isinstance(node, cst.Subscript):
        _check_slot(ctx, node, name, slots)


def _check_one_name(ctx: FnCtx, node: cst.Name, name: str, owner: int) -> None:
    """`owner` (the declaration's id) goes by `name` alone, and `name` stands for it alone."""
    other = next((n for n, o in ctx.declared_owners.items() if o == owner and n != name), None)
    if other is not None:
        raise ctx.error(node, f"Declared allocation '{other}' is also referenced as '{name}'",
                        hint=f"An unnamed pl.MemRef() is named after its variable: refer to it "
                             f"as '{other}', or declare a separate pl.MemRef()")
    if ctx.declared_owners.setdefault(name, owner) != owner:
        raise ctx.error(node, f"Two separate pl.MemRef() declarations both resolve to the name "
                              f"'{name}'",
                        hint='Give one of them an explicit name with pl.MemRef("...")')


def _check_slot(ctx: FnCtx, node: cst.Subscript, name: str, slots: int) -> None:
    if slots <= 1:
        raise ctx.error(node, f"'{name}' was declared with a single slot, so it cannot be "
                              "subscripted",
                        hint=f"Declare it with pl.MemRef(slots=N) to subscript it, or refer to "
                             f"'{name}' without a subscript")
    if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
        raise ctx.error(node, "A MemRef slot is one index, e.g. buf[1]")
    index = node.slice[0].slice.value
    value = index.evaluated_value if isinstance(index, cst.Integer) else None
    if isinstance(index, cst.UnaryOperation) and isinstance(index.operator, cst.Minus) \
            and isinstance(index.expression, cst.Integer):
        value = -index.expression.evaluated_value
    if value is not None and not 0 <= value < slots:
        raise ctx.error(index, f"Slot index {value} is out of range for '{name}', declared with "
                               f"{slots} slot(s)", hint=f"Subscript within [0, {slots})")
