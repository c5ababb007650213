"""The shapes a `@pl.jit` entry is shown for, found without running anything.

Guarantees: for each parameter of an entry, in this order: the `--shape` option given for it
(`NAME=16x128:FP16`, or `ENTRY.NAME=...` for one entry); else the argument of the file's first
call of the entry whose arrays are all readable: a name bound, earlier in the file (its
`__main__` block included), to an array built with literal extents and dtype by the usual torch /
NumPy constructors (`torch.randn(M, N, dtype=torch.float16)`, `torch.zeros((M, N))`,
`np.zeros((M, N), np.float32)`, `np.random.randn(M, N).astype(np.float32)`, `.to(...)`,
`torch.zeros_like(x)`, `torch.tensor([..], dtype=...)`, ...), a call of `ENTRY.lower(...)` or
`ENTRY.compile(...)` counting as a call,
extents being integer literals, names bound to integers or module constants; a number for a
scalar parameter. Else nothing: its written annotation, or the located error saying how to give
it (lowering/frontend/jit.py). Nothing is imported and no code is run.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import libcst as cst

from pl.errors import PlError
from pl.ir.enums import DType
from pl.lowering.frontend.jit import Sample, TensorSpec

_DTYPES: Mapping[str, DType] = MappingProxyType({
    "bool": DType.BOOL, "int8": DType.INT8, "int16": DType.INT16, "int32": DType.INT32,
    "int64": DType.INT64, "uint8": DType.UINT8, "float16": DType.FP16, "half": DType.FP16,
    "float32": DType.FP32, "float": DType.FP32, "bfloat16": DType.BF16, "int": DType.INT32,
    "float64": DType.INDEX, "double": DType.INDEX,  # no pl dtype: INDEX marks "unreadable"
})
_ROOTS = ("torch", "np", "numpy")
_SHAPE_FIRST = ("zeros", "ones", "empty", "full", "randn", "rand")
_DEFAULT_DTYPE: Mapping[str, DType] = MappingProxyType(
    {"torch": DType.FP32, "np": DType.INDEX, "numpy": DType.INDEX})


def parse_shape(text: str) -> tuple[str, TensorSpec]:
    """`NAME=16x128:FP16` (the `--shape` option) -> (NAME, its TensorSpec)."""
    hint = "write --shape NAME=16x128:FP16 (or ENTRY.NAME=...), extents joined by x, a pl dtype"
    name, eq, rest = text.partition("=")
    extents, colon, dtype = rest.partition(":")
    found = DType.__members__.get(dtype.strip().upper())
    dims = extents.strip().split("x")
    if not eq or not colon or not name.strip() or found is None or \
            not all(d.isdigit() and int(d) > 0 for d in dims):
        raise PlError(f"--shape {text!r} is not NAME=EXTENTSxEXTENTS:DTYPE", hint=hint)
    return name.strip(), TensorSpec(tuple(int(d) for d in dims), found)


def entry_samples(name: str, params: list[str], module: cst.Module,
                  constants: Mapping[str, Any], shapes: Mapping[str, TensorSpec]
                  ) -> list[Sample]:
    """One sample per parameter of entry `name` (see the module); None where none is found."""
    found = _from_calls(name, params, module, constants)
    out: list[Sample] = []
    for i, p in enumerate(params):
        given = shapes.get(f"{name}.{p}", shapes.get(p))
        out.append(given if given is not None else found[i] if found is not None else None)
    return out


def _from_calls(name: str, params: list[str], module: cst.Module,
                constants: Mapping[str, Any]) -> list[Sample] | None:
    env: dict[str, Any] = {k: v for k, v in constants.items() if type(v) is int}
    result: list[list[Sample]] = []

    class _Walk(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            if len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name):
                value = _value(node.value, env)
                target = node.targets[0].target.value
                if value is None:
                    env.pop(target, None)
                else:
                    env[target] = value

        def visit_Call(self, node: cst.Call) -> None:
            func = node.func
            if isinstance(func, cst.Attribute) and func.attr.value in ("lower", "compile"):
                func = func.value  # `entry.lower(x, out)`: samples too
            if result or not isinstance(func, cst.Name) or func.value != name:
                return
            args: list[Sample] = [None] * len(params)
            for i, a in enumerate(node.args):
                key = a.keyword.value if a.keyword is not None else None
                slot = params.index(key) if key in params else i if key is None else None
                if slot is None or slot >= len(params) or a.star:
                    continue
                value = _value(a.value, env)
                args[slot] = value if isinstance(value, TensorSpec | int | float) else None
            if all(a is not None for a in args):
                result.append(args)

    module.visit(_Walk())
    return result[0] if result else None


def _value(node: cst.BaseExpression, env: Mapping[str, Any]) -> Any:
    """An array's TensorSpec, an int or float, or None (unreadable)."""
    if isinstance(node, cst.Integer):
        return int(node.value, 0)
    if isinstance(node, cst.Float):
        return float(node.value)
    if isinstance(node, cst.Name):
        return env.get(node.value)
    if isinstance(node, cst.BinaryOperation):
        a, b = _value(node.left, env), _value(node.right, env)
        if type(a) is int and type(b) is int:
            op = type(node.operator)
            if op is cst.Add:
                return a + b
            if op is cst.Subtract:
                return a - b
            if op is cst.Multiply:
                return a * b
            if op is cst.FloorDivide and b:
                return a // b
        return None
    if isinstance(node, cst.Call):
        made = _array(node, env)
        return None if made is None or made.dtype is DType.INDEX else made
    return None


def _dotted(node: cst.BaseExpression) -> list[str]:
    if isinstance(node, cst.Name):
        return [node.value]
    if isinstance(node, cst.Attribute):
        head = _dotted(node.value)
        return [*head, node.attr.value] if head else []
    return []


def _dtype(node: cst.BaseExpression | None) -> DType | None:
    if node is None:
        return None
    parts = _dotted(node)
    if isinstance(node, cst.SimpleString):
        parts = [str(node.evaluated_value)]
    return _DTYPES.get(parts[-1]) if parts else None


def _shape(args: list[cst.Arg], env: Mapping[str, Any]) -> tuple[int, ...] | None:
    if not args:
        return None
    first = args[0].value
    items = [e.value for e in first.elements] if isinstance(first, cst.Tuple | cst.List) else \
        [a.value for a in args]
    dims = [_value(e, env) for e in items]
    if not dims or not all(type(d) is int and d > 0 for d in dims):
        return None
    return tuple(dims)


def _array(call: cst.Call, env: Mapping[str, Any]) -> TensorSpec | None:
    func = call.func
    if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Call):
        base = _array(func.value, env)  # `.astype(np.float32)`, `.to(torch.float16)`, `.float()`
        if base is None:
            return None
        method = func.attr.value
        conv = {"float": DType.FP32, "half": DType.FP16, "bfloat16": DType.BF16,
                "int": DType.INT32, "contiguous": base.dtype, "clone": base.dtype}
        if method in conv:
            dtype: DType | None = conv[method]
        elif method in ("astype", "to", "type"):
            named = next((a.value for a in call.args
                          if a.keyword and a.keyword.value == "dtype"), None)
            dtype = _dtype(named if named is not None else
                           call.args[0].value if call.args else None)
        else:
            return None
        return _spec(base.shape, dtype)  # INDEX: NumPy's default float64, which no pl dtype is
    parts = _dotted(func)
    if len(parts) < 2 or parts[0] not in _ROOTS:
        return None
    kind = parts[-1]
    pos = [a for a in call.args if a.keyword is None]
    kw = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
    dtype = _dtype(kw.get("dtype"))
    if kind.endswith("_like") and pos:  # torch.zeros_like(x), np.empty_like(x, dtype=...)
        base = _value(pos[0].value, env) if not isinstance(pos[0].value, cst.Call) else \
            _array(pos[0].value, env)
        if not isinstance(base, TensorSpec):
            return None
        return _spec(base.shape, dtype or base.dtype)
    if kind in _SHAPE_FIRST:
        shape_args = pos[:1] if kind == "full" or (pos and isinstance(
            pos[0].value, cst.Tuple | cst.List)) else pos
        if "size" in kw:
            shape_args = [cst.Arg(kw["size"])]
        shape = _shape(shape_args, env)
        if dtype is None and parts[0] != "torch" and kind != "full" and len(pos) == 2:
            dtype = _dtype(pos[1].value)  # np.zeros((M, N), np.float32)
    elif kind == "randint":  # torch.randint(low, high, (M, N), dtype=...)
        size = kw.get("size") or (pos[-1].value if pos else None)
        shape = _shape([cst.Arg(size)], env) if size is not None else None
        if dtype is None and parts[0] == "torch":
            dtype = DType.INT64
    elif kind == "tensor" and pos:  # torch.tensor([1, 48, 64], dtype=torch.int64)
        shape = _literal_shape(pos[0].value)
        if dtype is None:
            dtype = DType.INDEX  # inferred from the values: not read here
    elif kind == "arange" and len(pos) == 1:
        n = _value(pos[0].value, env)
        shape = (n,) if type(n) is int and n > 0 else None
    else:
        return None
    if dtype is None:
        dtype = _DEFAULT_DTYPE[parts[0]]
    return None if shape is None else _spec(shape, dtype)


def _literal_shape(node: cst.BaseExpression) -> tuple[int, ...] | None:
    """The shape of a nested list / tuple literal of numbers (None: ragged or not literal)."""
    if not isinstance(node, cst.List | cst.Tuple):
        return ()
    inner = [_literal_shape(e.value) for e in node.elements]
    if not inner or any(s is None or s != inner[0] for s in inner):
        return None
    first = inner[0]
    return None if first is None else (len(inner), *first)


def _spec(shape: tuple[int, ...], dtype: DType | None) -> TensorSpec | None:
    """The array's spec; its dtype INDEX while unreadable (NumPy's float64 default, which a
    later `.astype(...)` may replace), None when not given at all."""
    return None if dtype is None else TensorSpec(shape, dtype)
