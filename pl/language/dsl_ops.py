"""The op spellings of the DSL: one runtime object per spelling, generated from the op registry.

Guarantees:
- every spelling listed in the registry's `dsl_spellings` column, every canonical printed spelling
  (`pl.` + IR op name, keywords suffixed with `_`: `pl.tile.and_`) and every `pl.system.<name>` of a
  `system.*` op exists as an object carrying `__pl_op__ = "<spelling>"`;
- `pl.X` objects are listed in `__all__`; `pl.tile.X` / `pl.tensor.X` / `pl.system.X` live on the
  namespaces `tile`, `tensor`, `system`;
- calling one outside a kernel raises `PlError` (they only mean something to the frontend, which
  resolves them by identity and turns them into IR calls with `lowering.frontend.op_builders.build_call`);
- `spelling_index()` maps each spelling to the IR ops it may build, the table the builders dispatch on.

Names that `pl/language/dsl.py` and the frontend's decorators define (types, loops, dtypes) are never defined here.
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final, NoReturn

from pl.errors import PlError, UnknownNameError, suggest
from pl.ir.enums import MaskPattern
from pl.ir.operators import BinaryOp
from pl.language.dsl import AUTO
from pl.ops.registry import all_ops

# Spellings that build scalar expressions (BinaryExpr Min/Max), not registered ops (ops.md 11).
SCALAR_ONLY_SPELLINGS: Final[Mapping[str, BinaryOp]] = MappingProxyType({
    "pl.min": BinaryOp.Min, "pl.max": BinaryOp.Max, "pl.tile.min": BinaryOp.Min,
    "pl.tile.max": BinaryOp.Max,
})

# Names owned by pl/language/dsl.py and the decorators; an op spelling must never shadow them.
_DSL_NAMES = frozenset({
    "program", "function", "inline", "Tile", "Tensor", "Scalar", "Out", "InOut", "Array", "Tuple",
    "MemRef", "TileView", "TensorView", "range", "parallel", "unroll", "pipeline", "while_", "cond",
    "yield_", "const", "dynamic", "at", "scope", "manual_scope", "cluster", "spmd", "split_aiv",
    "submit", "spmd_submit", "func_attr", "static_print", "static_assert", "parse", "loads",
})

_SPELLING_RE = re.compile(r"^(pld?(?:\.[A-Za-z_]\w*)+)")


def canonical_spelling(op_name: str) -> str:
    """How the printer spells an IR op: `tile.and` -> `pl.tile.and_`; a distributed op's name
    is its spelling (`pld.tensor.window`)."""
    parts = [p + "_" if keyword.iskeyword(p) else p for p in op_name.split(".")]
    return ".".join(parts) if op_name.startswith("pld.") else "pl." + ".".join(parts)


def _index_spellings() -> dict[str, tuple[str, ...]]:
    index: dict[str, list[str]] = {}

    def add(spelling: str, op_name: str) -> None:
        ops = index.setdefault(spelling, [])
        if op_name not in ops:
            ops.append(op_name)

    for name, op in all_ops().items():
        for text in op.spellings:
            m = _SPELLING_RE.match(text.strip())
            if m:
                add(m.group(1), name)
        add(canonical_spelling(name), name)
        if name.startswith("system."):
            add("pl.system." + name.split(".", 1)[1], name)
    return {k: tuple(v) for k, v in index.items()}


# The registry is read once, when this module is imported (the op objects below need it anyway).
_SPELLING_INDEX: Final[Mapping[str, tuple[str, ...]]] = MappingProxyType(_index_spellings())


def spelling_index() -> Mapping[str, tuple[str, ...]]:
    """Spelling -> the IR ops it may build, in registry order (dispatch picks one per call)."""
    return _SPELLING_INDEX


def suggest_op(spelling: str) -> str | None:
    """The "did you mean" hint of an unknown op spelling (`pl.tile.ad` -> `pl.tile.add`), among
    the spellings of the same namespace."""
    head, _, name = spelling.rpartition(".")
    names = [s.rpartition(".")[2] for s in _all_spellings() if s.rpartition(".")[0] == head]
    return suggest(name, names, head + ".")


class DslOp:
    """A DSL op spelling. Meaningful only inside a kernel, where the frontend lowers it."""

    def __init__(self, spelling: str, ops: tuple[str, ...]) -> None:
        self.__pl_op__ = spelling
        self.__name__ = spelling.rsplit(".", 1)[1]
        self.__qualname__ = spelling
        targets = ", ".join(ops) if ops else "a scalar expression"
        self.__doc__ = f"`{spelling}`: builds {targets} inside a @pl.function kernel."

    def __call__(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise PlError(f"{self.__pl_op__} can only be used inside a @pl.function or @pl.program kernel",
                      hint="Kernel bodies are translated to IR, not executed by Python")

    def __repr__(self) -> str:
        return f"<pl op {self.__pl_op__}>"


class OpNamespace:
    """`pl.tile`, `pl.tensor`, `pl.system`: attribute access to the op objects of one level."""

    def __init__(self, prefix: str) -> None:
        self.__pl_namespace__ = prefix

    def __repr__(self) -> str:
        return f"<pl namespace {self.__pl_namespace__}>"

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):  # Python's own protocol probes (`__wrapped__`, ...)
            raise AttributeError(name)
        raise UnknownNameError(f"Unknown operation '{self.__pl_namespace__}.{name}'",
                               hint=suggest_op(f"{self.__pl_namespace__}.{name}")).uncaught()


tile = OpNamespace("pl.tile")
tensor = OpNamespace("pl.tensor")
system = OpNamespace("pl.system")
array = OpNamespace("pl.array")
prefetch = OpNamespace("pl.prefetch")
_NAMESPACES: Final[Mapping[str, OpNamespace]] = MappingProxyType(
    {"tile": tile, "tensor": tensor, "system": system, "array": array, "prefetch": prefetch})
# The names of a namespace that are no ops, as the reference has them.
setattr(tile, "MaskPattern", MaskPattern)  # noqa: B010  (OpNamespace declares no attributes)
setattr(system, "AUTO", AUTO)  # noqa: B010


def _all_spellings() -> dict[str, tuple[str, ...]]:
    spellings = dict(spelling_index())
    for s in SCALAR_ONLY_SPELLINGS:
        spellings.setdefault(s, ())
    return spellings


def _publish() -> list[str]:
    exported: list[str] = []
    g = globals()
    for spelling, ops in sorted(_all_spellings().items()):
        parts = spelling.split(".")
        if parts[0] != "pl":  # `pld.*`: the distributed module's (pl/language/distributed.py)
            continue
        obj = DslOp(spelling, ops)
        if len(parts) == 2:
            name = parts[1]
            if name in _DSL_NAMES or name in _NAMESPACES:
                continue
            g[name] = obj
            exported.append(name)
        elif len(parts) == 3 and parts[1] in _NAMESPACES:
            setattr(_NAMESPACES[parts[1]], parts[2], obj)
    return exported + list(_NAMESPACES)


def op_object(spelling: str) -> DslOp | None:
    """The runtime object of a spelling (`"pl.tile.load"`), or None."""
    parts = spelling.split(".")
    if len(parts) == 2 and parts[0] == "pl":
        obj = globals().get(parts[1])
    elif len(parts) == 3 and parts[0] == "pl" and parts[1] in _NAMESPACES:
        obj = _NAMESPACES[parts[1]].__dict__.get(parts[2])
    else:
        obj = None
    return obj if isinstance(obj, DslOp) else None


__all__: list[str] = _publish()
