"""The ops whose DSL call is not their IR Call's operands and kwargs in order, one entry each.

An op with a bespoke surface has an entry in SURFACES: how the frontend stores the shaped call
(`Surface.store`, after `shape_arguments` completed it) and how the printer spells a Call of it
back (`Surface.spell`), written side by side, so that the two directions are one fact. A kwarg
whose type is stored as the call's attr (`KwargType.attr`: system.task_dummy's deps=[...]) needs
no entry: both sides read its record.

Guarantees: `spell` gives the arguments of a DSL call that `store` (and the frontend's ordinary
shaping) turns back into the very Call it was given (tests/test_op_surfaces.py checks each entry
on each of its forms); `store` raises PlError (no span: the frontend locates it) for a call the
reference's wrapper refuses. Nothing here builds text: the printer renders what `spell` gives as
it renders any operand and kwarg.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final

from pl.errors import PlError
from pl.ir.enums import DType
from pl.ir.expr import Call, ConstFloat, ConstInt, Expr

Kwargs = list[tuple[str, Any]]


@dataclass(frozen=True, slots=True)
class Spelled:
    """A Call as the DSL spells it: its positional operands, then its keywords (a value is an
    Expr or a kwarg value, printed as a kwarg's is), in the order written."""

    positional: tuple[Expr, ...]
    keywords: tuple[tuple[str, Any], ...]


@dataclass(frozen=True, slots=True)
class Surface:
    """`store(spelling, operands, kwargs)`: the stored form of a shaped call (None: as shaped);
    `spell(call)`: its DSL form (None, or a `spell` giving None: the ordinary form, operands in
    order then kwargs)."""

    store: Callable[[str, list[Expr], Kwargs], tuple[list[Expr], Kwargs]] | None = None
    spell: Callable[[Call], Spelled | None] | None = None


def _store_syncall(spelling: str, exprs: list[Expr], kwargs: Kwargs) -> tuple[list[Expr], Kwargs]:
    """`pl.system.syncall(core_type=, mode=, gm_workspace=, used_cores=)` as the reference's
    wrapper stores it: `core_type` always ("mix" when omitted); the hard form (the default mode)
    has no operands and no `mode`; the soft form needs both operands, keeps `mode="soft"`, and an
    explicit `used_cores=0` ("let the launch decide") is the one-operand form."""
    values = dict(kwargs)
    core_type = values.get("core_type", "mix")
    if values.get("mode", "hard") == "hard":
        if exprs:
            raise PlError(f"{spelling}(mode='hard') takes no gm_workspace / used_cores",
                          hint="Pass mode='soft' for the GM-polling barrier")
        return [], [("core_type", core_type)]
    if len(exprs) != 2:
        missing = "gm_workspace" if not exprs else "used_cores"
        raise PlError(f"{spelling}(mode='soft') needs {missing}",
                      hint="Soft syncall takes a shared GM INT32 workspace and the participant "
                           "count: gm_workspace=ws, used_cores=N (0: the launch decides)")
    used = exprs[1]
    if isinstance(used, ConstInt) and used.value == 0:
        return exprs[:1], [("core_type", core_type), ("mode", "soft")]
    if isinstance(used, ConstInt) and used.dtype is DType.INDEX:  # a literal count is INT32
        exprs = [exprs[0], ConstInt(used.value, DType.INT32, span=used.span)]
    return exprs, [("core_type", core_type), ("mode", "soft")]


def _spell_syncall(call: Call) -> Spelled | None:
    """The soft form's operands are keyword-only in the reference's wrapper; one operand is
    `used_cores=0` (the launch decides the participant count). The hard form is as stored."""
    if not call.args:
        return None
    kw = dict(call.kwargs)
    used: Any = 0 if len(call.args) < 2 else (
        call.args[1].value if isinstance(call.args[1], ConstInt) else call.args[1])
    return Spelled((), (("mode", kw.get("mode", "soft")), ("core_type", kw.get("core_type", "mix")),
                        ("gm_workspace", call.args[0]), ("used_cores", used)))


def _store_event(spelling: str, exprs: list[Expr], kwargs: Kwargs) -> tuple[list[Expr], Kwargs]:
    """`pl.system.sync_set(4, pipe=...)`: the reference's wrapper stores a constant event id as
    the `event_id` kwarg and only a dynamic one as the operand; exactly one of them is given.
    (Printed as stored: `event_id=4` reads back the same.)"""
    names = [k for k, _ in kwargs]
    if exprs and isinstance(exprs[0], ConstInt):
        if "event_id" in names:
            raise PlError(f"{spelling}: got multiple values for argument 'event_id'")
        kwargs = [*kwargs[:1], ("event_id", exprs[0].value), *kwargs[1:]]
        return [], kwargs
    if bool(exprs) == ("event_id" in names):
        raise PlError(f"{spelling} takes one event id: a constant or a dynamic scalar",
                      hint="pl.system.sync_set(3, pipe=pl.PipeType.MTE3)")
    return exprs, kwargs


def _spell_full(call: Call) -> Spelled | None:
    """`pl.FP32` is not accepted as a positional value, so the reference spells full() by
    keyword: `full(shape, dtype=..., value=v, ...)`."""
    if len(call.args) != 2:
        return None
    shape, value = call.args
    val: Any = value.value if isinstance(value, ConstInt | ConstFloat) else value
    dtype = tuple((k, v) for k, v in call.kwargs if k == "dtype")
    rest = tuple((k, v) for k, v in call.kwargs if k != "dtype")
    return Spelled((shape,), (*dtype, ("value", val), *rest))


def _spell_mgather(call: Call) -> Spelled | None:
    """Its optional operands are keyword-only in the reference's wrapper: the scratch (present in
    element mode, `coalesce=1`: in row mode it is left out of the Call, `?=omitted`), then
    valid_shape."""
    if len(call.args) <= 2:
        return None
    names = ["scratch", "valid_shape"] if dict(call.kwargs).get("coalesce") == 1 \
        else ["valid_shape"]
    return Spelled(call.args[:2], (*zip(names, call.args[2:], strict=False), *call.kwargs))


SURFACES: Final[Mapping[str, Surface]] = MappingProxyType({
    "system.syncall": Surface(_store_syncall, _spell_syncall),
    "system.sync_set": Surface(_store_event),
    "system.sync_wait": Surface(_store_event),
    "tile.full": Surface(spell=_spell_full),
    "tensor.full": Surface(spell=_spell_full),
    "tile.mgather": Surface(spell=_spell_mgather),
})
