"""What the user declares is checked where it is used, as far as the reference checks it: a
program call's argument has its parameter's kind and dtype, a function returns as many values as
its `->` annotation declares, each of the declared kind and dtype. Shapes are the reference's to
bind: a callee's dims bind to its arguments' (its own kernels pass and return other shapes and
ranks than declared), and a `->` annotation with another shape is kept as written by compiling,
never rewritten to the returned value's shape.

Table-driven over `type_mismatch` (the one comparison the call and return checks share), plus
whole kernels for what stays accepted and what is kept.
"""

from __future__ import annotations

import pytest

from pl.errors import PlError
from pl.ir import Program
from pl.ir.enums import DType, MemorySpace
from pl.ir.expr import ConstInt, Var
from pl.ir.types import ScalarType, TensorType, TileType, Type, UnknownType
from pl.lowering.frontend.parse import parse
from pl.lowering.frontend.types import type_mismatch


def _d(*dims: int | str) -> tuple[ConstInt | Var, ...]:
    return tuple(ConstInt(d) if isinstance(d, int) else Var(d, ScalarType(DType.INDEX)) for d in dims)


def _t(*dims: int | str, dt: DType = DType.FP32) -> TensorType:
    return TensorType(_d(*dims), dt)


_TILE = TileType(_d(16, 128), DType.FP32, MemorySpace.Vec)

# (declared, actual, None when accepted else a substring of the reason)
MISMATCHES: list[tuple[Type, Type, str | None]] = [
    (_t(16, 128), _t(16, 128), None),
    (_t("M", 128), _t(16, 128), None),          # a dynamic declared dim binds to a static one
    (_t(16, 128), _t("N", 128), None),          # and a dynamic actual dim is not provably wrong
    (_t(16, 128), _t(16, 128, dt=DType.BF16), "has dtype bf16 but fp32 is declared"),
    (_t(16, 128), _t(16, 64), None),            # static dims: the reference's to bind
    (_t(16, 128), _t(2048), None),              # and its rank
    (_t(16, 128, dt=DType.INT32), _t(16, 128, dt=DType.INDEX), None),  # an int literal's INDEX
    (_t(16, 128), _TILE, "is pl.Tile but pl.Tensor is declared"),
    (_TILE, _t(16, 128), "is pl.Tensor but pl.Tile is declared"),
    (_t(16, 128), UnknownType(), None),         # nothing known: nothing to contradict
    (ScalarType(DType.INT32), ScalarType(DType.INDEX), None),  # scalars: not compared here
]


@pytest.mark.parametrize(("declared", "actual", "why"), MISMATCHES)
def test_type_mismatch(declared: Type, actual: Type, why: str | None) -> None:
    got = type_mismatch(declared, actual)
    if why is None:
        assert got is None
    else:
        assert got is not None and why in got, got


HEAD = "import pl\n\nM = pl.dynamic(\"M\")\n\n\n@pl.program\nclass K:\n"

KERNEL = """
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[M, 128], pl.FP32], out: pl.Out[pl.Tensor[[M, 128], pl.FP32]]) -> pl.Tensor[[M, 128], pl.FP32]:
        x = pl.load(a, [0, 0], [16, 128])
        out = pl.store(x, [0, 0], out)
        return out
"""


def _main(arg_type: str, call: str = "self.k(a, out)") -> str:
    return f"""
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: {arg_type}, out: pl.Out[pl.Tensor[[64, 128], pl.FP32]]) -> pl.Tensor[[64, 128], pl.FP32]:
        r = {call}
        return r
"""


def test_a_dynamic_parameter_accepts_a_static_argument() -> None:
    p = parse(HEAD + KERNEL + _main("pl.Tensor[[64, 128], pl.FP32]"))
    assert isinstance(p, Program)
    assert [f.name for f in p.functions] == ["k", "main"]


@pytest.mark.parametrize("arg_type", ["pl.Tensor[[64, 64], pl.FP32]", "pl.Tensor[[8192], pl.FP32]"])
def test_other_dims_or_rank_are_the_references_to_bind(arg_type: str) -> None:
    assert isinstance(parse(HEAD + KERNEL + _main(arg_type)), Program)


@pytest.mark.parametrize(("arg_type", "message"), [
    ("pl.Tensor[[64, 128], pl.BF16]", "Argument 'a' of 'k' has dtype bf16 but fp32 is declared"),
    ("pl.Tensor[[64, 128], pl.INT32]", "Argument 'a' of 'k' has dtype int32 but fp32 is declared"),
])
def test_a_mismatching_argument_is_located_at_the_argument(arg_type: str, message: str) -> None:
    text = HEAD + KERNEL + _main(arg_type)
    with pytest.raises(PlError) as info:
        parse(text, filename="k.py")
    assert message in info.value.message
    span = info.value.span
    assert span is not None
    line = text.splitlines()[span.line - 1]
    assert line[span.col - 1:].startswith("a, out)")


def test_a_matching_return_annotation_with_a_dynamic_dim_is_accepted() -> None:
    p = parse(HEAD + KERNEL)
    assert isinstance(p, Program)
    (k,) = p.functions
    assert isinstance(k.return_types[0], TensorType)
    assert isinstance(k.return_types[0].shape[0], Var)


RETURN_MISMATCH = """import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[16, 128], pl.FP32], out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 2147483648], pl.FP32]:
        x = pl.load(a, [0, 0], [16, 128])
        out = pl.store(x, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[16, 128], pl.FP32], out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
        r = self.k(a, out)
        return out
"""


@pytest.mark.parametrize("declared", [[16, 2147483648], [2048]])
def test_a_return_annotation_of_another_shape_is_kept_by_compiling(declared: list[int]) -> None:
    import pl

    text = RETURN_MISMATCH.replace("[[16, 2147483648], pl.FP32]:", f"[{declared}, pl.FP32]:")
    compiled = pl.compile(parse(text, filename="k.py"), backend="910B")
    k = compiled.program.get("k")
    assert k is not None
    (rt,) = k.return_types
    assert isinstance(rt, TensorType)
    assert [d.value for d in rt.shape if isinstance(d, ConstInt)] == declared
    again = parse(compiled.as_python(), filename="k.py")  # and the compiled text reads back
    assert isinstance(again, Program)
