"""The operator registry: ONE record (`OpDef`) per op, found from its name with `op(name)`.

A record carries everything the layers know about its op, or points to it:
- its facts, one row of `data/ops.tsv` (tile.* and tensor.*, checked on the reference) or of
  `data/system_ops.tsv` (system.* and array.*): positional and keyword signature (optional and
  DSL-derived arguments marked), ordered input-memory constraints, the output-memory rule,
  inheritance / retargetable flags, category, and the typed columns `effects` (written / in-place
  written arguments, kept by dead-code elimination), `buffer` (reused argument, fresh buffer) and
  `layout` (row-major input slots), `conversion` (tensor ops) and `result` (system / distributed
  ops), each read by name and parsed once (ops.tsv's header comment gives their vocabulary; an
  unknown word stops the build). Prose columns (`effects_evidence`, `notes`, `converts_to`) are
  read by no code;
- its typing facts, one row of `data/op_types.tsv`: the result kind the stubs (stubs/generate.py)
  read from the record (the row's shape / dtype / view rules are the reference's prose; the type
  rule below applies them, and the mypy plugin runs that rule);
- its scalar-rhs variant (`tile.add` -> `tile.adds`), read off the spellings the two rows share;
- its result-type rule, the function marked `@type_rule(name)` in a pl/ops/rules/*.py module;
- its interpreter function (`@interprets(name)` in pl/interpreter: `handler(name)`) and its
  tensor-to-tile converter (`@converts(name)` in lowering/tensor_to_tile: `converter_for(name)`),
  each found by name in the layer that owns it (a layer above this one; the record does not
  reach up to them).
Adding an op: a row in ops.tsv and op_types.tsv, a marked type rule, a marked interpreter function
(or a "no numerics" entry in pl/interpreter/handlers.py), a marked converter for a tensor op the
reference converts, and `python stubs/generate.py`; tests/test_op_records.py names what is missing.

Guarantees: `REGISTRY` is built once, explicitly, when this module is imported (`build_registry`;
every record is made once, with all its fields: every compile pays for this build at start-up),
and is read-only afterwards (mappings are `MappingProxyType`s, records are frozen); nothing here
caches. `data/dsl_positional.tsv` adds the positional parameters each DSL spelling's reference
wrapper takes (its signature, measured); `data/kwarg_codes.tsv` the string spellings of int-coded
kwargs. No per-op fact is written in Python beside these tables.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum, IntEnum
from types import MappingProxyType
from typing import Any, Final

from pl.ir.enums import AtomicType, DType, MemorySpace, PadValue, PipeType, TensorLayout, TileLayout
from pl.ir.expr import space_code, stored_space
from pl.ir.types import ScalarType, Type, UnknownType
from pl.ops.marks import collect
from pl.ops.rules import (
    array,
    distributed,
    handle,
    tensor,
    tensor_view,
    tile_ew,
    tile_mem,
    tile_misc,
    tile_view,
)
from pl.ops.rules.util import Deduction

Rule = Callable[[Deduction], Type]

# The modules whose `@type_rule` marks give the ops their result-type rules.
_RULE_MODULES = (tile_ew, tile_mem, tile_view, tile_misc, tensor, tensor_view, array, handle,
                 distributed)


# What a positional argument of each kind (the positional_args column's `name:kind`) is, in
# messages: the vocabulary of kinds (a kind outside it stops the registry build).
ARG_KINDS: Final[Mapping[str, str]] = MappingProxyType({
    "tile": "a tile", "tensor": "a tensor", "scalar": "a scalar", "tuple": "a list such as [0, 0]",
    "space": "a memory space such as pl.Mem.Vec", "any": "a kernel value"})


@dataclass(frozen=True, slots=True)
class KwargType:
    """A type the kwargs column writes (`target_memory:MemorySpace`): the Python values a kwarg of
    it holds once the frontend converted it (`values`; empty: never given as a value, see
    `TaskIds`), how messages say it (`words`), how the stubs annotate it (`stub`), and the enum
    whose members an int given for it converts to, which the call column spells `Enum.member`
    (`enum`). A kwarg of an `attr` type is stored as the call's attr of its name, never as a
    kwarg: the frontend stores it so, the printer spells it back from there. A `coded` type is an
    int-coded enum: the IR keeps the int (as the reference's does), whichever spelling the kernel
    used, and the printer spells it as the member (`pipe=pl.PipeType.MTE3`)."""

    values: tuple[type, ...]
    words: str
    stub: str
    enum: type[Enum] | None = None
    attr: bool = False
    coded: type[IntEnum] | None = None

    @property
    def stores_int(self) -> bool:
        """A value of this type is stored as a plain int (`int`, or an int-coded enum)."""
        return self.values == (int,)


# The vocabulary of kwarg types (a type outside it stops the registry build).
KWARG_TYPES: Final[Mapping[str, KwargType]] = MappingProxyType({
    "int": KwargType((int,), "an integer constant", "int | str | _Scalar"),
    "bool": KwargType((bool, int), "True or False", "bool"),
    "double": KwargType((int, float), "a number", "float"),
    "str": KwargType((str,), "a string", "str"),
    "DataType": KwargType((DType,), "a dtype such as pl.FP32", "DType"),
    "PadValue": KwargType((PadValue,), "a pl.PadValue member", "PadValue | int | float", PadValue),
    "MemorySpace": KwargType((MemorySpace,), "a pl.MemorySpace member", "MemorySpace",
                             MemorySpace),
    "TileLayout": KwargType((TileLayout,), "a pl.TileLayout member", "TileLayout"),
    "TensorLayout": KwargType((TensorLayout,), "a pl.TensorLayout member", "TensorLayout",
                              TensorLayout),
    "AtomicType": KwargType((int,), "an integer constant", "int | str | _Scalar",
                            coded=AtomicType),
    "PipeType": KwargType((int,), "an integer constant", "int | str | _Scalar", coded=PipeType),
    # system.task_dummy's deps=[...]: the call's "deps" attr, as on pl.submit.
    "TaskIds": KwargType((), "a list of task ids", "Any", attr=True),
})


@dataclass(frozen=True, slots=True)
class ArgSpec:
    """One positional argument. `kind` is one of ARG_KINDS; `optional`: the IR
    op takes the call without it (`?`); `derived`: the IR op needs it, the DSL wrapper derives it
    when the call omits it (`=derived`: tile.load's valid_shape); `omitted`: optional, and left out
    of the Call when not given, so later ones move up (`?=omitted`: tile.mgather's scratch)."""

    name: str
    kind: str
    optional: bool = False
    derived: bool = False
    omitted: bool = False

    def stored(self, value: Any) -> Any:
        """`value`, given for this argument, as the IR Call stores it: a memory space given for a
        `space` operand (`pl.tile.alloc(pl.Mem.Vec, n)`) as its integer code, as the reference's
        IR stores it; any other value as it is. The frontend stores through it and the printer
        reads back through `space_of`: the one place the operand's spelling is written."""
        return space_code(value) if self.kind == "space" and isinstance(value, MemorySpace) \
            else value

    def space_of(self, stored: Any) -> MemorySpace | None:
        """The memory space a stored `space` operand stands for (what `stored` made), else None."""
        return stored_space(stored) if self.kind == "space" else None


@dataclass(frozen=True, slots=True)
class KwargSpec:
    """One keyword argument. `default` is the TSV's default text (None = no default)."""

    name: str
    type_name: str
    default: str | None = None
    required: bool = False


@dataclass(frozen=True, slots=True)
class OutputMemory:
    """How an op's result space is decided.

    kind: `fixed` (space), `kwarg` (from `target_memory`, `space` = default or None when the op is
    retargetable), `inherit` (first tile input), `no_resolver` (a memory spec without an output
    resolver), `no_spec` (no memory spec at all), `none` (tensor ops).
    """

    kind: str
    space: MemorySpace | None = None

    def resolve(self, kwargs: dict[str, object]) -> MemorySpace | None:
        """`deduce_output_memory(kwargs)` of the reference: a space, or None for "no answer"."""
        if self.kind == "fixed":
            return self.space
        if self.kind == "kwarg":
            v = kwargs.get("target_memory")
            if isinstance(v, MemorySpace):
                return v
            return self.space
        return None

    @property
    def has_resolver(self) -> bool:
        return self.kind in ("fixed", "kwarg", "inherit")


@dataclass(frozen=True, slots=True)
class OpDef:
    name: str
    level: str                                   # "tile" | "tensor" | "system" | "array" | "prefetch" | "pld"
    spellings: tuple[str, ...]
    args: tuple[ArgSpec, ...]
    kwargs: tuple[KwargSpec, ...]
    input_constraints: tuple[tuple[MemorySpace, ...], ...]
    output_memory: OutputMemory
    retargetable: bool
    inherits_input: bool
    family: str                                  # e.g. "elementwise-binary", "matmul"
    category: str                                # e.g. "TileOp", "CrossCoreOp", "SyncOp"
    notes: str                                   # prose, read by no code
    # The effects column: the positional args this op writes (passes ask it for every call they
    # visit), and of those the ones whose write lands in the very buffer the caller passed, so
    # that every other reader of that buffer sees it (`writes:N`: tile.write, fillpad_inplace,
    # scatter_update, assemble, ...; `accumulates:N`, a matmul's accumulator, is written but gives
    # the accumulated tile as its result); `keep`: the statement survives dead-code elimination.
    written_args: tuple[int, ...] = ()
    inplace_args: tuple[int, ...] = ()
    keep: bool = False
    # The buffer column: `fresh` (the result needs a buffer of its own), `reuses:N`.
    not_inplace_safe: bool = False
    output_reuses_input: int | None = None
    # The layout column: input slots that must be row_major on a backend honouring layout needs.
    row_major_inputs: tuple[int, ...] = ()
    # The call column: how a DSL call is completed and checked (pl/lowering/frontend/op_args.py)
    # and whether the tensor-to-tile converter loads its own tensor inputs.
    dim_first: bool = False                      # `dim_first`: also called (input, dim, ...)
    all_or_none: bool = False                    # `all_or_none`: every positional argument or none
    required_kwargs: tuple[str, ...] = ()        # `requires:KW`: a kwarg the call must name
    always_kwargs: tuple[tuple[str, Any], ...] = ()  # `always:KW=V`: stored even when not given
    # `default:ARG=V`: an omitted positional argument the Call stores with its default.
    arg_defaults: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    # `droppable:KW=V`: a tensor-only flag a tile operand accepts as long as it keeps V.
    droppable_defaults: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    self_loading: bool = False                   # `self_loading`: no entry load for tensor args
    # `choices:KW=a|b`: the strings a str kwarg accepts.
    kwarg_choices: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: MappingProxyType({}))
    converts_to: str = ""                        # tensor ops: ConvertTensorToTileOps target (prose)
    # The conversion column (tensor ops): the tile op a 1:1 rename converts it to, or whether it
    # stays a tensor op inside InCore functions.
    renamed_to: str = ""
    passthrough: bool = False
    conversion_reqs: Mapping[int, tuple[MemorySpace, str | None]] = field(
        default_factory=lambda: MappingProxyType({}))
    result_kind: str = ""                        # op_types.tsv: Tile / Tensor / Scalar / Ptr / ...
                                                 # ("": no typing row)
    scalar_variant: str | None = None            # the op a scalar rhs selects (tile.add: tile.adds)
    type_rule: Rule | None = field(default=None, compare=False, repr=False)
    # A tile op whose output memory the data table specifies (inference asks it of every call).
    has_memory_spec: bool = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "has_memory_spec",
                           self.output_memory.kind != "no_spec" and self.level == "tile")

    @property
    def dsl_min_args(self) -> int:
        """The fewest positional arguments a DSL call takes (a wrapper may derive one the IR needs)."""
        return sum(1 for a in self.args if not a.optional and not a.derived)

    @property
    def min_args(self) -> int:
        return sum(1 for a in self.args if not a.optional)

    @property
    def is_buffer_view(self) -> bool:
        """Zero-copy views: inherit-input ops that are in-place safe."""
        return self.inherits_input and not self.not_inplace_safe

    def kwarg_spec(self, name: str) -> KwargSpec | None:
        for k in self.kwargs:
            if k.name == name:
                return k
        return None


_SPACE: Final = MappingProxyType({m.name: m for m in MemorySpace})


def _depth(text: str) -> int:
    """How many brackets `text` leaves open."""
    return (text.count("(") + text.count("[") + text.count("{")
            - text.count(")") - text.count("]") - text.count("}"))


def _split_top(text: str, sep: str) -> list[str]:
    """Split on `sep` (one character, not a bracket) outside parentheses/brackets."""
    # Split everywhere, then rejoin the pieces a bracket spans: string methods only (the
    # registry splits a thousand cells on import).
    parts: list[str] = []
    pending: list[str] = []
    for piece in text.split(sep):
        pending.append(piece)
        joined = sep.join(pending)
        if _depth(joined) == 0:
            parts.append(joined)
            pending = []
    if pending:
        parts.append(sep.join(pending))
    return [p.strip() for p in parts if p.strip()]


_KIND: Final = re.compile(r"[a-z]+")
_KWARG: Final = re.compile(r"\s*([A-Za-z_]\w*)\s*:\s*([A-Za-z_]\w*)\s*(=\s*([^\s(]+))?(.*)$")


def _parse_args(text: str) -> tuple[ArgSpec, ...]:
    if text.strip() in ("-", ""):
        return ()
    out = []
    for part in _split_top(text, ","):
        name, _, kind = part.partition(":")
        kind = kind.strip()
        optional = "?" in kind.split("(")[0] or kind.endswith("?") or "?" in part.split(" ")[0]
        derived = part.endswith("=derived")
        base = _KIND.match(kind)
        word = base.group(0) if base else "any"
        if word not in ARG_KINDS:
            raise ValueError(f"positional_args column: unknown kind {word!r} in {text!r}")
        out.append(ArgSpec(name.strip().split(" ")[0].rstrip("?"), word, optional, derived,
                           "?=omitted" in part))
    return tuple(out)


def _parse_kwargs(text: str) -> tuple[KwargSpec, ...]:
    if text.strip() in ("-", ""):
        return ()
    out = []
    for part in _split_top(text, ";"):
        m = _KWARG.match(part)
        if not m:
            continue
        name, type_name, default, rest = m.group(1), m.group(2), m.group(4), m.group(5)
        if type_name not in KWARG_TYPES:
            raise ValueError(f"kwargs column: unknown type {type_name!r} in {text!r}")
        required = "required" in rest or (default is None and "optional" not in rest
                                          and "only passed" not in rest)
        out.append(KwargSpec(name, type_name, default, required and default is None))
    return tuple(out)


def _parse_constraints(text: str) -> tuple[tuple[MemorySpace, ...], ...]:
    if text.strip() in ("-", ""):
        return ()
    slots: dict[int, tuple[MemorySpace, ...]] = {}
    for tok in text.split():
        idx, _, spaces = tok.partition(":")
        if spaces == "-" or not idx.isdigit():
            continue
        slots[int(idx)] = tuple(_SPACE[s] for s in spaces.split("|"))
    n = max(slots) + 1 if slots else 0
    return tuple(slots.get(i, ()) for i in range(n))


def _parse_output(text: str) -> OutputMemory:
    t = text.strip()
    if t in _SPACE:
        return OutputMemory("fixed", _SPACE[t])
    if t == "inherit":
        return OutputMemory("inherit")
    if t.startswith("kwarg:target_memory"):
        m = re.search(r"default (\w+)", t)
        return OutputMemory("kwarg", _SPACE[m.group(1)] if m else None)
    if "no_memory_spec" in t:
        return OutputMemory("no_spec")
    return OutputMemory("no_resolver")


def _category(text: str) -> tuple[str, str]:
    m = re.match(r"\s*(.*?)\s*\[(\w+)\]", text)
    if m:
        return m.group(1), m.group(2)
    return text.strip(), ""


def _parse_reqs(text: str) -> dict[int, tuple[MemorySpace, str | None]]:
    out: dict[int, tuple[MemorySpace, str | None]] = {}
    if text.strip() in ("-", ""):
        return out
    for tok in text.split():
        m = re.match(r"(\d+)(?:-(\d+))?:(\w+)(?:\((\w+)\))?", tok)
        if not m:
            continue
        lo = int(m.group(1))
        hi = int(m.group(2)) if m.group(2) else lo
        for i in range(lo, hi + 1):
            out[i] = (_SPACE[m.group(3)], m.group(4))
    return out


def _effects(text: str) -> tuple[tuple[int, ...], tuple[int, ...], bool]:
    """The effects column: (written args, in-place written args, keep)."""
    written: set[int] = set()
    inplace: set[int] = set()
    keep = False
    for word in text.split():
        kind, _, slot = word.partition(":")
        if kind in ("writes", "accumulates") and slot.isdigit():
            written.add(int(slot))
            if kind == "writes":
                inplace.add(int(slot))
        elif word == "keep":
            keep = True
        elif word != "pure":
            raise ValueError(f"effects column: unknown word {word!r} in {text!r}")
    return tuple(sorted(written)), tuple(sorted(inplace)), keep


def _buffer(text: str) -> tuple[int | None, bool]:
    """The buffer column: (the argument the result reuses, whether it needs a fresh buffer)."""
    reuses: int | None = None
    fresh = False
    for word in text.split():
        kind, _, slot = word.partition(":")
        if kind == "reuses" and slot.isdigit():
            reuses = int(slot)
        elif word == "fresh":
            fresh = True
        elif word != "-":
            raise ValueError(f"buffer column: unknown word {word!r} in {text!r}")
    return reuses, fresh


def _layout(text: str) -> tuple[int, ...]:
    """The layout column: the input slots that must be row_major."""
    if text.strip() in ("-", ""):
        return ()
    kind, _, slots = text.strip().partition(":")
    if kind != "row_major" or not all(s.isdigit() for s in slots.split(",")):
        raise ValueError(f"layout column: expected row_major:N,M or -, got {text!r}")
    return tuple(int(s) for s in slots.split(","))


# The enum types of kwargs (KWARG_TYPES' `enum`), by type name.
KWARG_ENUMS: Final[Mapping[str, type[Enum]]] = MappingProxyType({
    name: t.enum for name, t in KWARG_TYPES.items() if t.enum is not None})
_CALL_FLAGS: Final = ("dim_first", "all_or_none", "self_loading")


def _call_value(text: str) -> Any:
    """A value of the call column: True, False, None, an int, or Enum.member of KWARG_ENUMS."""
    literals: dict[str, Any] = {"True": True, "False": False, "None": None}
    if text in literals:
        return literals[text]
    if text.lstrip("-").isdigit():
        return int(text)
    enum, _, member = text.partition(".")
    if enum in KWARG_ENUMS and member in KWARG_ENUMS[enum].__members__:
        return KWARG_ENUMS[enum][member]
    raise ValueError(f"call column: unknown value {text!r}")


def _call(text: str) -> dict[str, Any]:
    """The call column: `-`, or words among `dim_first`, `all_or_none`, `self_loading`,
    `requires:KW`, `always:KW=V`, `default:ARG=V`, `droppable:KW=V` (in the order given) and
    `choices:KW=a|b`."""
    flags = dict.fromkeys(_CALL_FLAGS, False)
    pairs: dict[str, list[tuple[str, Any]]] = {"always": [], "default": [], "droppable": []}
    required: list[str] = []
    choices: dict[str, tuple[str, ...]] = {}
    for word in text.split():
        kind, _, rest = word.partition(":")
        name, eq, value = rest.partition("=")
        if word in flags:
            flags[word] = True
        elif kind == "requires" and name.isidentifier() and not eq:
            required.append(name)
        elif kind == "choices" and name.isidentifier() and value:
            choices[name] = tuple(value.split("|"))
        elif kind in pairs and name.isidentifier() and eq:
            pairs[kind].append((name, _call_value(value)))
        elif word != "-":
            raise ValueError(f"call column: unknown word {word!r} in {text!r}")
    return {**flags, "required_kwargs": tuple(required), "always_kwargs": tuple(pairs["always"]),
            "arg_defaults": MappingProxyType(dict(pairs["default"])),
            "droppable_defaults": MappingProxyType(dict(pairs["droppable"])),
            "kwarg_choices": MappingProxyType(choices)}


def _conversion(text: str) -> dict[str, Any]:
    """The conversion column of a tensor op: `rename:tile.X`, `passthrough` or `custom`."""
    kind, _, target = text.strip().partition(":")
    if kind == "rename" and target.startswith("tile."):
        return {"renamed_to": target}
    if text.strip() in ("passthrough", "custom"):
        return {"passthrough": text.strip() == "passthrough"}
    raise ValueError(f"conversion column: expected rename:tile.X, passthrough or custom, got {text!r}")


def _kwarg_codes() -> Mapping[str, Mapping[str, int]]:
    """kwarg_codes.tsv: kwarg -> {spelling: code}."""
    out: dict[str, Mapping[str, int]] = {}
    for _, cols in _rows("kwarg_codes.tsv"):
        pairs = (w.partition("=") for w in cols["codes"].split())
        out[cols["kwarg"]] = MappingProxyType({name: int(code) for name, _, code in pairs})
    return MappingProxyType(out)


Row = Mapping[str, str]  # one data row: column name (its section's header) -> cell


def _spellings(cols: Row) -> tuple[str, ...]:
    return tuple(_split_top(cols["dsl_spellings"], ","))


def _typed_columns(cols: Row) -> dict[str, Any]:
    """The typed columns every op table has: effects and buffer (and layout, tile rows)."""
    written, inplace, keep = _effects(cols["effects"])
    reuses, fresh = _buffer(cols["buffer"])
    return {"written_args": written, "inplace_args": inplace, "keep": keep,
            "output_reuses_input": reuses, "not_inplace_safe": fresh,
            "row_major_inputs": _layout(cols.get("layout", "-")), **_call(cols["call"])}


def _tile_row(cols: Row, level: str, spellings: tuple[str, ...], facts: dict[str, Any]) -> OpDef:
    family, category = _category(cols["category"])
    return OpDef(
        name=cols["op"], level=level, spellings=spellings,
        args=_parse_args(cols["positional_args"]), kwargs=_parse_kwargs(cols["kwargs"]),
        input_constraints=_parse_constraints(cols["input_memory"]),
        output_memory=_parse_output(cols["output_memory"]),
        retargetable=cols["retargetable_kwarg"].strip() == "yes",
        inherits_input=cols["output_inherits_input"].strip() == "yes",
        family=family, category=category, notes=cols["notes"], **_typed_columns(cols), **facts)


def _tensor_row(cols: Row, spellings: tuple[str, ...], facts: dict[str, Any]) -> OpDef:
    family, category = _category(cols["category"])
    return OpDef(
        name=cols["op"], level="tensor", spellings=spellings,
        args=_parse_args(cols["positional_args"]), kwargs=_parse_kwargs(cols["kwargs"]),
        input_constraints=(), output_memory=OutputMemory("none"), retargetable=False,
        inherits_input=cols["output_inherits_input"].strip() == "yes", family=family,
        category=category, notes=cols["notes"],
        converts_to=cols["converts_to (ConvertTensorToTileOps)"],
        **_conversion(cols["conversion"]),
        conversion_reqs=MappingProxyType(_parse_reqs(cols["conversion_input_reqs"])),
        **_typed_columns(cols), **facts)


def _rows(filename: str) -> list[tuple[str, Row]]:
    """(section, row) per data row, each row keyed by the column names of the header line
    (`op\t...`) above it; a header with `conversion_input_reqs` starts the tensor section."""
    # Beside this module, as pl's other folders are read (pl.errors.PL_SOURCE_FOLDERS): pl is
    # installed as files, and `importlib.resources` alone would cost every compile's start-up
    # more than reading all four tables.
    with open(os.path.join(os.path.dirname(__file__), "data", filename), encoding="utf-8") as f:
        text = f.read()
    out: list[tuple[str, Row]] = []
    section = "tile"
    header: list[str] = []
    for i, line in enumerate(text.splitlines()):
        if not line.strip() or line.startswith("#"):
            continue
        cells = line.split("\t")
        if not header:
            header = cells
            section = "tensor" if "conversion_input_reqs" in header else "tile"
            continue
        if cells[0] == header[0]:  # the next section's header
            header = cells
            section = "tensor" if "conversion_input_reqs" in header else "tile"
            continue
        if len(cells) > len(header):
            raise ValueError(f"{filename}:{i + 1}: {len(cells)} cells under {len(header)} columns")
        out.append((section, MappingProxyType(dict(zip(header, cells + ["-"] * (len(header) - len(cells)),
                                                       strict=True)))))
    return out


def _typing_rows() -> dict[str, str]:
    """op_types.tsv: op -> result kind (its shape / dtype / view rules are prose: the type rule
    is the code that applies them, checked on the `verified` examples by tests/test_deduce.py)."""
    return {cols["op"]: cols["result_kind"].strip() for _, cols in _rows("op_types.tsv")}


def _system_rule(result: Type) -> Rule:
    """system.* ops: the result column of system_ops.tsv (Unknown or Scalar[DTYPE]); no checks."""
    def rule(ctx: Deduction) -> Type:
        return result
    return rule


_RESULT_KINDS = frozenset({"Unknown", "Tile", "Tensor", "Ptr", "Scalar"})


def _result(text: str) -> tuple[str, DType | None]:
    """The result column of system_ops.tsv / distributed_ops.tsv: a kind (`Tile`, `Tensor`,
    `Ptr`, `Scalar`, `Unknown`), `Scalar[DTYPE]`, or `-` (the kind is op_types.tsv's)."""
    t = text.strip()
    if t == "-" or t in _RESULT_KINDS:
        return t, None
    if t.startswith("Scalar[") and t.endswith("]") and t[7:-1] in DType.__members__:
        return "Scalar", DType[t[7:-1]]
    raise ValueError(f"result column: expected a kind or Scalar[DTYPE], got {text!r}")


def _record_facts(level: str, result: str, kind: str | None, rule: Rule | None,
                  scalar_variant: str | None) -> dict[str, Any]:
    """The fields of a record that come from outside its own data row: op_types.tsv's result
    kind, the marked type rule (system ops: their result column) and the scalar variant."""
    kind = kind or ""
    written, dtype = _result(result)
    if level == "system":
        rule = _system_rule(ScalarType(dtype) if dtype is not None else UnknownType())
    if written != "-":
        kind = written
    return {"result_kind": kind, "type_rule": rule,
            "scalar_variant": scalar_variant}


def _bare(spelling: str) -> str:
    """`pl.add(tile, scalar)` -> `pl.add`: the spelling without its operand-kind note."""
    return spelling.split("(", 1)[0].strip()


def _scalar_variant(name: str, spellings: Mapping[str, tuple[str, ...]]) -> str | None:
    """`L.Xs` when it exists and one DSL spelling reaches both it and `L.X` (ops.md 11)."""
    other = spellings.get(name + "s")
    if other is None:
        return None
    shared = {_bare(s) for s in spellings[name]} & {_bare(s) for s in other}
    return name + "s" if shared else None


@dataclass(frozen=True, slots=True)
class Registry:
    """Every op's record by IR name, and the DSL wrappers' positional parameters."""

    ops: Mapping[str, OpDef]
    # DSL spelling -> the positional parameters its reference wrapper takes (dsl_positional.tsv).
    positional: Mapping[str, tuple[str, ...]]
    # kwarg -> {spelling: code} of the int-coded kwargs (kwarg_codes.tsv).
    kwarg_codes: Mapping[str, Mapping[str, int]]


def build_registry() -> Registry:
    """Read the data files and collect the `@type_rule` marks into one read-only registry."""
    rows: dict[str, tuple[str, Row]] = {}  # op -> (level, columns)
    for section, cols in _rows("ops.tsv"):
        rows[cols["op"]] = (section, cols)  # "tile" or "tensor"
    for table_file in ("system_ops.tsv", "distributed_ops.tsv"):
        for _, cols in _rows(table_file):
            # "system", "array", "prefetch"; "pld" for the distributed ops
            rows[cols["op"]] = (cols["op"].split(".", 1)[0], cols)
    typing = _typing_rows()
    rules = collect("type_rule", _RULE_MODULES)
    unknown = sorted(set(rules) - set(rows))
    if unknown:
        raise ValueError(f"type rules for ops without a data row: {', '.join(unknown)}")
    spellings = {name: _spellings(cols) for name, (_, cols) in rows.items()}
    table: dict[str, OpDef] = {}
    for name, (level, cols) in rows.items():
        facts = _record_facts(level, cols.get("result", "-"), typing.get(name), rules.get(name),
                              _scalar_variant(name, spellings))
        table[name] = _tensor_row(cols, spellings[name], facts) if level == "tensor" else \
            _tile_row(cols, level, spellings[name], facts)
    positional: dict[str, tuple[str, ...]] = {}
    for _, cols in _rows("dsl_positional.tsv"):
        text = cols["positional"]
        positional[cols["spelling"]] = tuple(_split_top(text, ",")) if text != "-" else ()
    return Registry(MappingProxyType(table), MappingProxyType(positional), _kwarg_codes())


REGISTRY: Final = build_registry()
# String spellings of int-coded kwargs (kwarg_codes.tsv): kwarg -> {spelling: code}.
KWARG_CODES: Final = REGISTRY.kwarg_codes


def rebinding_slot(spelling: str, op: OpDef, nargs: int, extra_names: tuple[str, ...] = ()
                   ) -> int | None:
    """The first of `nargs` positional arguments of a call of `op` spelled `spelling` that the
    reference's wrapper binds to another parameter than the IR's order (`op.args`, then
    `op.kwargs`, then `extra_names`) does, or None when the two agree: the wrapper's parameter at
    that index names another IR parameter (`pl.tensor.matmul_acc`'s 4th is `a_trans`, the IR's
    `init_cond`), or lies past the IR's positional slots with no IR name (`tmp_tile` of
    `pl.row_sum` on a tensor). A wrapper name the IR does not know within the IR's positional
    slots is that slot under another name (`input` for `tile`). System ops bind by position: their
    wrappers' `event_id` is the IR's static-or-dynamic id slot, not the keyword of that name."""
    if op.level == "system":
        return None
    params = dsl_positional(spelling)
    if params is None:
        return None
    names = [a.name for a in op.args] + [k.name for k in op.kwargs] + list(extra_names)
    for i in range(min(nargs, len(params))):
        p = params[i]
        if p in names:
            if i >= len(names) or names[i] != p:
                return i
        elif i >= len(op.args):
            return i
    return None


def dsl_positional(spelling: str) -> tuple[str, ...] | None:
    """The positional parameters the reference's wrapper of this DSL spelling takes (`pl.row_sum`
    -> (input, tmp_tile)), or None when it has no such wrapper or takes any number (*args)."""
    return REGISTRY.positional.get(spelling)


def op(name: str) -> OpDef:
    """The record of the op of this IR name (`tile.add`); KeyError when there is none."""
    return REGISTRY.ops[name]


def get_op(name: str) -> OpDef | None:
    """The registered op of this IR name (`tile.add`, `tensor.matmul`), or None."""
    return REGISTRY.ops.get(name)


def all_ops() -> Mapping[str, OpDef]:
    """Every registered op by IR name: tile.*, tensor.* (ops.tsv), system.* and array.*
    (system_ops.tsv)."""
    return REGISTRY.ops
