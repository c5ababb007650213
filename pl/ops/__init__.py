"""The operator registry: one record per op (`op(name)`), built from data, read by every layer."""

from pl.ops.registry import (
    ArgSpec,
    KwargSpec,
    OpDef,
    OutputMemory,
    all_ops,
    get_op,
    op,
)

__all__ = ["ArgSpec", "KwargSpec", "OpDef", "OutputMemory", "all_ops", "get_op", "op"]
