"""The distributed module (`import pl.distributed as pld`, the reference's
`pypto.language.distributed`): window-bound tensors, the communication-context handle, the
`pld.system.*` / `pld.tensor.*` / `pld.tile.*` op spellings and their short forms (`pld.window`),
and the enums of their keywords.

Guarantees: like the rest of the language surface, these objects only mean something to the
frontend, which recognises them by identity; the op objects are generated from the op registry
(pl/ops/data/distributed_ops.tsv), one per spelling, as `pl.language.dsl_ops` makes `pl`'s.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Final

from pl.ir.enums import AtomicType, NotifyOp, ReduceOp, WaitCmp
from pl.language.dsl import Handle, Tensor
from pl.language.dsl_ops import DslOp, OpNamespace, spelling_index


class DistributedTensor(Tensor):
    """`pld.DistributedTensor[[256], pl.FP32]`: one rank's slice of a communication window, as a
    parameter or the result of `pld.window(...)`; every `pl` tensor op reads it as a tensor."""


CommCtx: Final = Handle("CommCtx")
CommCtxType: Final = CommCtx  # the reference exports its IR type under this name too

system = OpNamespace("pld.system")
tensor = OpNamespace("pld.tensor")
tile = OpNamespace("pld.tile")
_NAMESPACES: Final = MappingProxyType({"system": system, "tensor": tensor, "tile": tile})


def _publish() -> list[str]:
    exported: list[str] = []
    g = globals()
    for spelling, ops in sorted(spelling_index().items()):
        parts = spelling.split(".")
        if parts[0] != "pld":
            continue
        obj = DslOp(spelling, ops)
        if len(parts) == 2:
            g[parts[1]] = obj
            exported.append(parts[1])
        elif len(parts) == 3 and parts[1] in _NAMESPACES:
            setattr(_NAMESPACES[parts[1]], parts[2], obj)
    return exported


__all__ = ["AtomicType", "CommCtx", "CommCtxType", "DistributedTensor", "NotifyOp", "ReduceOp", "WaitCmp",
           "system", "tensor", "tile", *_publish()]
