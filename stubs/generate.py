"""Generate the op stubs of `pl` (stubs/pl/_ops.pyi, tile.pyi, tensor.pyi, system.pyi, array.pyi,
prefetch.pyi) from the registry.

Guarantees: every spelling of `pl.language.dsl_ops.spelling_index()` (plus the scalar-only `pl.min` / `pl.max`
family) gets one stub function in the module that matches its namespace; a spelling that reaches ops
of several levels (`pl.add`: tile and tensor) gets one `@overload` per level, told apart by the kind
of its first operand. Positional parameters follow the op's registry arguments (tile -> Tile,
tensor -> Tensor, scalar -> int/float/Scalar, tuple -> a list of dims), keyword parameters follow
its kwargs and may also be given positionally after them, as `lowering.frontend.op_builders` accepts. The
return type is the op record's result kind (`OpDef.result_kind`, its op_types.tsv row);
`pl.mypy_plugin` refines dtype and space from the same record.

Run `python stubs/generate.py` after ops.tsv changes; `--check` exits 1 when the files are stale.
"""

from __future__ import annotations

import keyword
import re
import sys
from collections.abc import Iterable
from pathlib import Path
from types import MappingProxyType
from typing import Final

# Run as a script, this file's folder (stubs/, which holds a `pl` stub tree) would come first on
# sys.path and shadow the real package's submodules; the generator needs the real `pl`.
_HERE = str(Path(__file__).resolve().parent)
sys.path[:] = [p for p in sys.path if str(Path(p or ".").resolve()) != _HERE]

from pl.language import distributed  # noqa: E402
from pl.language.dsl_ops import SCALAR_ONLY_SPELLINGS, DslOp, op_object, spelling_index  # noqa: E402
from pl.ops.registry import KWARG_TYPES, ArgSpec, KwargSpec, OpDef, get_op  # noqa: E402

OUT = Path(__file__).resolve().parent / "pl"

TILE, TENSOR, SCALAR, DIMS = "_Tile", "_Tensor", "_ScalarArg", "_Dims"

# Tensor-section args are all of kind `any`; their names say what they are.
_DIM_NAMES = frozenset({"shape", "shapes", "offset", "offsets", "valid_shape", "dst_offset",
                        "src_offset", "drop_dims"})
_SCALAR_NAMES = frozenset({"axis", "axis1", "axis2", "block_len", "counter0", "counter1", "counter2",
                           "counter3", "key0", "key1", "scalar", "size", "start", "value", "valid_rows",
                           "valid_cols", "init_cond", "memory_space", "kvalue"})

_RESULT: Final = MappingProxyType({"Tile": TILE, "Tensor": TENSOR, "Scalar": "_Scalar", "Ptr": "Any",
                                   "Array": "Any", "Unknown": "Any"})

# Unified spellings that also build scalar arithmetic when both operands are scalars.
_SCALAR_FORMS = frozenset({"pl.add", "pl.sub", "pl.mul", "pl.div", "pl.maximum", "pl.minimum",
                           "pl.tile.add", "pl.tile.sub", "pl.tile.mul", "pl.tile.div"})


def _tile_form_kind(op: OpDef, arg: ArgSpec) -> str | None:
    """The kind the tile form of tensor op `op` (`tensor.read` -> `tile.read`) gives its argument
    of `arg`'s name: `pl.tensor.read(t, [0])` takes the index list `pl.tile.read` types."""
    if op.level != "tensor":
        return None
    tile_op = get_op("tile." + op.name.removeprefix("tensor."))
    return next((a.kind for a in tile_op.args if a.name == arg.name), None) if tile_op else None


def _arg_type(op: OpDef, index: int, arg: ArgSpec) -> str:
    if arg.name in _DIM_NAMES and arg.kind in ("scalar", "tuple", "any"):
        return DIMS  # tile.reshape's `shape` is registered as a scalar slot
    match arg.kind:
        case "tile":
            return TILE
        case "tensor":
            return TENSOR
        case "scalar":
            return SCALAR
        case "tuple":
            return DIMS
        case "space":
            return "MemorySpace"
    if arg.name in _DIM_NAMES or _tile_form_kind(op, arg) == "tuple":
        return DIMS
    if arg.name in _SCALAR_NAMES:
        return SCALAR
    if op.level == "tensor":
        return TENSOR if index == 0 else f"{TENSOR} | {SCALAR}"
    return "Any"


def _optional(op: OpDef, index: int, arg: ArgSpec) -> bool:
    return arg.optional or index >= op.dsl_min_args


def _required(spec: KwargSpec) -> bool:
    # The DSL wrappers default int / bool options the IR op marks required (`pl.row_max(t)` on a
    # tensor reduces the last axis); a dtype or a memory space has no default.
    return spec.required and spec.type_name != "bool" and not KWARG_TYPES[spec.type_name].stores_int


def _kwarg_type(spec: KwargSpec) -> str:
    text = KWARG_TYPES[spec.type_name].stub
    return text + " | None" if spec.default == "None" else text


def _merge(types: Iterable[str]) -> str:
    parts: list[str] = []
    for t in types:
        for p in t.split(" | "):
            if p not in parts:
                parts.append(p)
    return "Any" if "Any" in parts else " | ".join(parts)


def _result(ops: list[OpDef]) -> str:
    kinds = []
    for op in ops:
        kinds.append(_RESULT.get(op.result_kind, "Any"))
    return _merge(kinds)


def _signature(name: str, ops: list[OpDef]) -> str:
    """One stub `def` covering every op of one level (slots merged position by position)."""
    width = max(len(op.args) for op in ops)
    params: list[str] = []
    seen: set[str] = set()
    defaulted = False
    for i in range(width):
        present = [op for op in ops if i < len(op.args)]
        arg_name = present[0].args[i].name
        typ = _merge(_arg_type(op, i, op.args[i]) for op in present)
        opt = len(present) < len(ops) or any(_optional(op, i, op.args[i]) for op in present)
        defaulted = defaulted or opt
        seen.add(arg_name)
        params.append(f"{arg_name}: {typ}" + (" = ..." if defaulted else ""))
    kw_types: dict[str, list[str]] = {}
    kw_required: dict[str, bool] = {}
    for op in ops:
        for spec in op.kwargs:
            kw_types.setdefault(spec.name, []).append(_kwarg_type(spec))
            kw_required[spec.name] = kw_required.get(spec.name, True) and _required(spec)
    keyword_only = False
    for kw, types in kw_types.items():
        if kw in seen:
            continue
        required = kw_required[kw] and all(op.kwarg_spec(kw) for op in ops)
        if required and defaulted and not keyword_only:
            params.append("*")
            keyword_only = True
        defaulted = defaulted or not required
        params.append(f"{kw}: {_merge(types)}" + ("" if required else " = ..."))
    return f"def {name}({', '.join(params)}) -> {_result(ops)}: ..."


def _functions(spelling: str, op_names: tuple[str, ...]) -> list[str]:
    name = spelling.rsplit(".", 1)[1]
    by_level: dict[str, list[OpDef]] = {}
    for op_name in op_names:
        op = get_op(op_name)
        if op is not None:
            by_level.setdefault(op.level, []).append(op)
    defs = [_signature(name, ops) for ops in by_level.values()]
    if spelling in SCALAR_ONLY_SPELLINGS or spelling in _SCALAR_FORMS:
        defs.append(f"def {name}(lhs: {SCALAR}, rhs: {SCALAR}, /) -> _Scalar: ...")
    if len(defs) == 1:
        return defs
    return [line for d in defs for line in ("@overload", d)]


_ALIASES = (
    ("_Tile", "Tile[Any, Any]"), ("_Tensor", "Tensor[Any]"), ("_Scalar", "Scalar[Any]"),
    ("_ScalarArg", "int | float | bool | Scalar[Any]"), ("_Dims", "Sequence[int | Scalar[Any]]"),
)
_ENUMS = ("DType", "MemorySpace", "PadValue", "TensorLayout", "TileLayout")


# Names of a namespace that are no ops (pl/language/dsl_ops.py), re-exported by its stub.
_REEXPORTS: Final = MappingProxyType({
    "tile": ("from pl.ir.enums import MaskPattern as MaskPattern",),
    "system": ("from pl import AUTO as AUTO",),
    # The distributed module's names that are no ops (pl/language/distributed.py).
    "distributed/__init__": (
        "from pl.ir.enums import AtomicType as AtomicType",
        "from pl.ir.enums import NotifyOp as NotifyOp",
        "from pl.ir.enums import ReduceOp as ReduceOp",
        "from pl.ir.enums import WaitCmp as WaitCmp",
        "from pl.distributed import system as system",
        "from pl.distributed import tensor as tensor",
        "from pl.distributed import tile as tile",
        "",
        "class DistributedTensor(Tensor[Any]): ...",
        "class CommCtx: ...",
        "",
        "CommCtxType = CommCtx",
    )})


def _header(body: str, reexports: tuple[str, ...] = ()) -> str:
    """Docstring, the imports the body needs (sorted as ruff wants them) and the shared aliases."""
    typing_names = ["Any"] + (["overload"] if "@overload" in body else [])
    enums = [e for e in _ENUMS if re.search(rf"\b{e}\b", body)]
    lines = ['"""Generated by stubs/generate.py from the op registry: do not edit by hand."""', "",
             "from collections.abc import Sequence",
             f"from typing import {', '.join(typing_names)}", "",
             f"from pl._core import {', '.join(sorted(['Scalar', 'Tensor', 'Tile', *enums]))}",
             *(("", *reexports) if reexports else ()), ""]  # ruff sorts them in a block of their own
    lines += [f"{name} = {value}" for name, value in _ALIASES]
    return "\n".join(lines) + "\n"


_NAMESPACES: Final = MappingProxyType({"pl": "_ops", "pl.tile": "tile", "pl.tensor": "tensor",
                                       "pl.system": "system", "pl.array": "array",
                                       "pl.prefetch": "prefetch", "pld": "distributed/__init__",
                                       "pld.system": "distributed/system",
                                       "pld.tensor": "distributed/tensor",
                                       "pld.tile": "distributed/tile"})


def _published(spelling: str) -> bool:
    """The runtime defines an object for this spelling (`pl.X` in pl/language/dsl_ops.py,
    `pld.X` in pl/language/distributed.py)."""
    if not spelling.startswith("pld."):
        return op_object(spelling) is not None
    obj: object = distributed
    for part in spelling.split(".")[1:]:
        obj = getattr(obj, part, None)
    return isinstance(obj, DslOp)


def render() -> dict[str, str]:
    """Module file name -> stub text."""
    spellings = dict(spelling_index())
    for s in SCALAR_ONLY_SPELLINGS:
        spellings.setdefault(s, ())
    bodies: dict[str, list[str]] = {m: [] for m in _NAMESPACES.values()}
    for spelling in sorted(spellings):
        prefix, name = spelling.rsplit(".", 1)
        module = _NAMESPACES.get(prefix)
        # Only what the runtime publishes (pl/language/dsl.py owns `pl.range` and friends).
        if module is None or not _published(spelling) or keyword.iskeyword(name):
            continue
        bodies[module].extend(_functions(spelling, spellings[spelling]))
    out = {}
    for module, lines in bodies.items():
        body = "\n".join(lines) + "\n"
        out[f"{module}.pyi"] = _header(body, _REEXPORTS.get(module, ())) + "\n" + body
    return out


def main(argv: list[str]) -> int:
    stale = False
    for filename, text in render().items():
        path = OUT / filename
        if "--check" in argv:
            stale = stale or not path.exists() or path.read_text(encoding="utf-8") != text
        else:
            path.parent.mkdir(exist_ok=True)
            path.write_text(text, encoding="utf-8")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
