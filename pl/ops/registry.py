"""The operator registry, built once from `data/ops.tsv` (the facts checked on the reference)
and `data/system_ops.tsv` (the reference's system.* sync / cross-core / task ops, level "system").

One `OpDef` per op: positional and keyword signature, ordered input-memory constraints, the
output-memory rule, inheritance / retargetable flags, category and effects. Nothing here is written
per op by hand except what the TSV cannot say (a few flags parsed out of its notes). The table is
parsed lazily on first use and then cached for the life of the process. `data/dsl_positional.tsv` adds
how many positional arguments each DSL spelling's reference wrapper takes (its signature, measured).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

from pl.ir.enums import MemorySpace


@dataclass(frozen=True, slots=True)
class ArgSpec:
    """One positional argument. `kind` is tile / tensor / scalar / tuple / any."""

    name: str
    kind: str
    optional: bool = False


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
    level: str                                   # "tile" | "tensor" | "system"
    spellings: tuple[str, ...]
    args: tuple[ArgSpec, ...]
    kwargs: tuple[KwargSpec, ...]
    input_constraints: tuple[tuple[MemorySpace, ...], ...]
    output_memory: OutputMemory
    retargetable: bool
    inherits_input: bool
    family: str                                  # e.g. "elementwise-binary", "matmul"
    category: str                                # e.g. "TileOp", "CrossCoreOp", "SyncOp"
    effects: str
    notes: str
    not_inplace_safe: bool = False
    output_reuses_input: int | None = None
    converts_to: str = ""                        # tensor ops: ConvertTensorToTileOps target text
    conversion_reqs: dict[int, tuple[MemorySpace, str | None]] = field(default_factory=dict)

    @property
    def written_args(self) -> tuple[int, ...]:
        """The positional args this op writes, read off the effects column (`writes arg0 (ReadWrite)`,
        `writes GM arg2 ...`, `writes 0:Write`; `writes no_arg_writes` and pure ops write none)."""
        return _written_args(self.effects)

    @property
    def has_memory_spec(self) -> bool:
        return self.output_memory.kind != "no_spec" and self.level == "tile"

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


_SPACE = {m.name: m for m in MemorySpace}


def _split_top(text: str, sep: str) -> list[str]:
    """Split on `sep` outside parentheses/brackets."""
    parts: list[str] = []
    depth = 0
    cur: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if depth == 0 and text.startswith(sep, i):
            parts.append("".join(cur))
            cur = []
            i += len(sep)
            continue
        cur.append(ch)
        i += 1
    parts.append("".join(cur))
    return [p.strip() for p in parts if p.strip()]


def _parse_args(text: str) -> tuple[ArgSpec, ...]:
    if text.strip() in ("-", ""):
        return ()
    out = []
    for part in _split_top(text, ","):
        name, _, kind = part.partition(":")
        kind = kind.strip()
        optional = "?" in kind.split("(")[0] or kind.endswith("?") or "?" in part.split(" ")[0]
        base = re.match(r"[a-z]+", kind)
        out.append(ArgSpec(name.strip().split(" ")[0], base.group(0) if base else "any", optional))
    return tuple(out)


def _parse_kwargs(text: str) -> tuple[KwargSpec, ...]:
    if text.strip() in ("-", ""):
        return ()
    out = []
    for part in _split_top(text, ";"):
        m = re.match(r"\s*([A-Za-z_]\w*)\s*:\s*([A-Za-z_]\w*)\s*(=\s*([^\s(]+))?(.*)$", part)
        if not m:
            continue
        name, type_name, default, rest = m.group(1), m.group(2), m.group(4), m.group(5)
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


_WRITES = re.compile(r"\bwrites\s+(?:GM\s+)?(?:arg(\d+)|(\d+):)")


def _written_args(effects: str) -> tuple[int, ...]:
    return tuple(sorted({int(m.group(1) or m.group(2)) for m in _WRITES.finditer(effects)}))


def _reuses(notes: str, effects: str) -> int | None:
    m = re.search(r"output_reuses_input\s*=\s*(\d+)", notes + " " + effects)
    if m:
        return int(m.group(1))
    m = re.search(r"reuses arg(\d+)", notes)
    return int(m.group(1)) if m else None


# The tensor section of ops.tsv carries no `?` markers; these trailing args are optional in the
# reference's deducers (argument-count checks) and are omitted by the DSL wrappers.
_TENSOR_OPTIONAL: dict[str, frozenset[str]] = {
    "tensor.slice": frozenset({"valid_shape", "drop_dims"}),
    "tensor.reshape": frozenset({"valid_shape"}),
    "tensor.view": frozenset({"shape", "valid_shape"}),
    "tensor.transpose": frozenset({"valid_shape"}),
    "tensor.matmul_acc": frozenset({"init_cond"}),
    "tensor.gather_row": frozenset({"valid_shape"}),
    "tensor.mrgsort_format2": frozenset({"src2", "src3"}),
    "tensor.reinterpret_view": frozenset({"shape"}),
}


def _tile_row(cols: list[str], level: str) -> OpDef:
    family, category = _category(cols[8])
    notes = cols[10]
    return OpDef(
        name=cols[0], level=level, spellings=tuple(s.strip() for s in _split_top(cols[1], ",")),
        args=_parse_args(cols[2]), kwargs=_parse_kwargs(cols[3]),
        input_constraints=_parse_constraints(cols[4]), output_memory=_parse_output(cols[5]),
        retargetable=cols[6].strip() == "yes", inherits_input=cols[7].strip() == "yes",
        family=family, category=category, effects=cols[9], notes=notes,
        not_inplace_safe="not_inplace_safe" in notes, output_reuses_input=_reuses(notes, cols[9]))


def _tensor_row(cols: list[str]) -> OpDef:
    family, category = _category(cols[7])
    optional = _TENSOR_OPTIONAL.get(cols[0], frozenset())
    args = tuple(ArgSpec(a.name, a.kind, a.optional or a.name in optional)
                 for a in _parse_args(cols[2]))
    return OpDef(
        name=cols[0], level="tensor", spellings=tuple(s.strip() for s in _split_top(cols[1], ",")),
        args=args, kwargs=_parse_kwargs(cols[3]), input_constraints=(),
        output_memory=OutputMemory("none"), retargetable=False,
        inherits_input=cols[6].strip() == "yes", family=family, category=category,
        effects=cols[8], notes=cols[9], converts_to=cols[4], conversion_reqs=_parse_reqs(cols[5]),
        output_reuses_input=_reuses(cols[9], cols[8]))


def _rows(filename: str) -> list[tuple[str, list[str]]]:
    """(section, columns) per data row; a `#` line naming `tensor.` starts the tensor section."""
    text = resources.files("pl.ops").joinpath(f"data/{filename}").read_text(encoding="utf-8")
    out: list[tuple[str, list[str]]] = []
    section = "tile"
    for line in text.splitlines():
        if not line.strip() or line.startswith("op\t"):
            continue
        if line.startswith("#"):
            if "tensor." in line:
                section = "tensor"
            continue
        cols = line.split("\t")
        cols += ["-"] * (11 - len(cols))
        out.append((section, cols))
    return out


@dataclass(frozen=True, slots=True)
class _Registry:
    ops: dict[str, OpDef]
    # DSL spelling -> the positional parameters its reference wrapper takes (dsl_positional.tsv).
    positional: dict[str, tuple[str, ...]]


@lru_cache(maxsize=1)
def _registry() -> _Registry:
    table: dict[str, OpDef] = {}
    for section, cols in _rows("ops.tsv"):
        table[cols[0]] = _tile_row(cols, "tile") if section == "tile" else _tensor_row(cols)
    for _, cols in _rows("system_ops.tsv"):
        table[cols[0]] = _tile_row(cols, "system")
    positional: dict[str, tuple[str, ...]] = {}
    for _, cols in _rows("dsl_positional.tsv"):
        if cols[0] != "spelling":
            positional[cols[0]] = tuple(_split_top(cols[1], ",")) if cols[1] != "-" else ()
    return _Registry(table, positional)


def _table() -> dict[str, OpDef]:
    return _registry().ops


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
    return _registry().positional.get(spelling)


def get_op(name: str) -> OpDef | None:
    """The registered op of this IR name (`tile.add`, `tensor.matmul`), or None."""
    return _table().get(name)


def all_ops() -> dict[str, OpDef]:
    """Every registered op by IR name: tile.*, tensor.* (ops.tsv) and system.* (system_ops.tsv)."""
    return dict(_table())
