"""The mypy plugin's op results against the compiler's own type rules, over every op.

Two checks, each one mypy run (with stubs/mypy.ini, as a kernel author configures the plugin):
- every `yes:` example of op_types.tsv's `verified` column (the reference's own runs, the cases
  tests/test_deduce.py builds through the type rules) is revealed by mypy with the dtype and space
  of the expected type;
- every op with a type rule and a stub spelling, called on operands its record's argument kinds
  name (FP16 tiles in each of its input spaces, FP16 tensors, INT32 scalars, `[16, 16]` tuples),
  is revealed with the dtype and space the rule deduces for the same call in the compiler
  (`build_call`, concrete 16 x 16 shapes) whenever the compiler accepts that call.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_deduce import EXAMPLES, LOCAL, OPERANDS, parse_type

from pl.errors import PlError
from pl.ir import DType, MemorySpace, ScalarType, TensorType, TileType, Type, Var, const_index
from pl.ir.span import UNKNOWN_SPAN
from pl.language.dsl_ops import spelling_index
from pl.lowering.frontend.op_builders import build_call
from pl.ops.registry import OpDef, all_ops
from pl.printer.program import print_type

mypy_api = pytest.importorskip("mypy.api")

ROOT = Path(__file__).resolve().parent.parent
_REVEALED = re.compile(r'^[^:]+:(?P<line>\d+): note: Revealed type is "(?P<type>.*)"$')
_MARK = re.compile(r"pl\._core\.(\w+)")


def _reveal(tmp: Path, functions: list[tuple[dict[str, str], str]]) -> dict[int, str]:
    """mypy's revealed type of each call (one function per call, its operands as parameters),
    by index."""
    lines = ["import pl", ""]
    where: dict[int, int] = {}
    for k, (params, call) in enumerate(functions):
        sig = ", ".join(f"{n}: {a}" for n, a in params.items())
        lines += [f"def f{k}({sig}) -> None:", f"    reveal_type({call})"]
        where[len(lines)] = k
    path = tmp / "reveal_ops.py"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    previous = os.getcwd()
    os.chdir(ROOT)
    try:
        out, err, _ = mypy_api.run(["--config-file", str(ROOT / "stubs" / "mypy.ini"), "--cache-dir",
                                    str(tmp / "cache"), "--follow-imports", "silent",
                                    "--no-error-summary", "--show-traceback", str(path)])
    finally:
        os.chdir(previous)
    assert "INTERNAL ERROR" not in out + err, out + err
    revealed: dict[int, str] = {}
    for line in out.splitlines():
        m = _REVEALED.match(line)
        if m and int(m["line"]) in where:
            revealed[where[int(m["line"])]] = m["type"]
    return revealed


def _expected(t: Type) -> str:
    """How mypy shows the plugin's type for an IR result type."""
    if isinstance(t, TileType):
        space = t.memory_space.name if t.memory_space else "Any"
        return f"pl._core.Tile[pl._core.{t.dtype.name}, pl._core.{space}]"
    if isinstance(t, TensorType):
        return f"pl._core.Tensor[pl._core.{t.dtype.name}]"
    assert isinstance(t, ScalarType), t
    return f"pl._core.Scalar[pl._core.{t.dtype.name}]"


def _shown(revealed: str) -> str:
    return revealed.replace("builtins.", "")


def _names(call: str) -> set[str]:
    return set(re.findall(r"\b[a-z_][a-z0-9_]*\b", call))


# Examples whose rule checks a shape fact mypy does not track: the plugin says Any (never wrong).
SHAPE_BOUND = {"pl.tile.matmul_bias(la, rgt, r0)": "the bias must be [1, N]"}


def test_every_verified_example_is_revealed_as_the_reference_types_it(tmp_path: Path) -> None:
    cases: list[tuple[str, str, str]] = []
    for p in EXAMPLES:
        op, call, expected = p.values
        if expected.startswith("ERROR") or p.marks or call in SHAPE_BOUND:
            continue
        cases.append((op, call, expected))
    functions = []
    for _, call, _ in cases:
        operands = {**OPERANDS, **LOCAL.get(call, {})}
        functions.append(({n: print_type(t) for n, t in operands.items() if n in _names(call)},
                          call))
    revealed = _reveal(tmp_path, functions)
    wrong = [f"{call}: mypy {revealed.get(k)}, reference {_expected(parse_type(expected))}"
             for k, (_, call, expected) in enumerate(cases)
             if isinstance(parse_type(expected), TileType | TensorType | ScalarType)
             and revealed.get(k) != _expected(parse_type(expected))]
    assert not wrong, "\n".join(wrong)
    assert len(cases) >= 240


_DIMS = (const_index(16), const_index(16))


_DTYPES = (DType.FP32, DType.FP16, DType.INT32, DType.INT8)


def _tensor_kind(op: OpDef, i: int) -> str:
    """The kind of a tensor op's argument `i` (the tensor section states none): its tile twin's,
    a tile read as a tensor; argument 0 of an op without a twin is a tensor."""
    twin = all_ops().get("tile." + op.name.split(".", 1)[1])
    if twin is not None and len(twin.args) == len(op.args):
        return twin.args[i].kind.replace("tile", "tensor")
    return "tensor" if i == 0 else "any"


def _operands(op: OpDef) -> Iterator[tuple[list[Any], dict[str, str]]]:
    """Calls of `op` on operands its record names, up to its first optional argument: tiles of
    each dtype in `_DTYPES` (in each space its first input may be in, the first allowed space of
    the others), tensors of that dtype,
    scalars of that dtype, `[0, 0]` offsets and `[16, 16]` other tuples (a tensor op's argument
    kinds are its tile twin's)."""
    first = op.input_constraints[0] if op.input_constraints and op.input_constraints[0] else (
        MemorySpace.Vec,)
    for dtype in _DTYPES:
        for space in first:
            args: list[Any] = []
            notes: dict[str, str] = {}
            for i, a in enumerate(op.args):
                if a.optional or a.derived:
                    break
                allowed = op.input_constraints[i] if i < len(op.input_constraints) else ()
                kind = _tensor_kind(op, i) if op.level == "tensor" else a.kind
                if kind == "tuple":
                    args.append([0, 0] if "offset" in a.name else [16, 16])
                    continue
                if kind == "tile":
                    t: Type = TileType(_DIMS, dtype, space if i == 0 else (
                        allowed[0] if allowed else MemorySpace.Vec))
                elif kind == "tensor":
                    t = TensorType(_DIMS, dtype)
                elif kind == "scalar":
                    t = ScalarType(dtype)
                else:
                    break
                name = f"x{i}"
                args.append(Var(name, t))
                notes[name] = print_type(t)
            yield args, notes


def _calls() -> list[tuple[str, str, dict[str, str], Type]]:
    """(op, call text, annotations, the compiler's result type) of every op's calls the compiler
    accepts."""
    out = []
    for spelling, names in sorted(spelling_index().items()):
        for name in names:
            op = all_ops()[name]
            if op.type_rule is None or op.level not in ("tile", "tensor") \
                    or op.result_kind not in ("Tile", "Tensor", "Scalar"):  # the stub says Any
                continue
            for args, notes in _operands(op):
                try:
                    built = build_call(spelling, args, {}, UNKNOWN_SPAN)
                except PlError:
                    continue
                if getattr(built, "op_name", None) != name:
                    continue  # the spelling picked a sibling for these operands
                text = ", ".join(a.name if isinstance(a, Var) else repr(a) for a in args)
                out.append((name, f"{spelling}({text})", notes, built.type))
    return out


def test_every_op_is_revealed_as_its_type_rule_types_it(tmp_path: Path) -> None:
    calls = _calls()
    revealed = _reveal(tmp_path, [(notes, call) for _, call, notes, _ in calls])
    ops = {name for name, _, _, t in calls if isinstance(t, TileType | TensorType | ScalarType)}
    wrong = [f"{call}: mypy {revealed.get(k)}, compiler {_expected(t)}"
             for k, (_, call, _, t) in enumerate(calls)
             if isinstance(t, TileType | TensorType | ScalarType)
             and revealed.get(k) != _expected(t)]
    assert not wrong, "\n".join(wrong)
    assert len(ops) >= 150, len(ops)
