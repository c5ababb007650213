"""The operator registry: one table, built from data, read by every layer."""

from pl.ops.registry import (
    ArgSpec,
    KwargSpec,
    OpDef,
    OutputMemory,
    all_ops,
    get_op,
)

__all__ = ["ArgSpec", "KwargSpec", "OpDef", "OutputMemory", "all_ops", "get_op"]
