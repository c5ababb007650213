"""The interpreter's op table: every op's interpreter function, or the reason it has none.

Guarantees: `HANDLERS` (op name -> handler) is built once, explicitly, when this module is imported,
from the `@interprets` marks of the pl/interpreter/ops/ modules (arith, mem, index, array,
cross_core, distributed) and this module, and is read-only.
`WITHOUT_NUMERICS` names every other registered op together with the reason the interpreter does
not compute it; an op is in exactly one of the two (tests/test_op_records.py checks both against
the registry), so adding an op means marking its handler or saying here why it has none. The
evaluator rejects an op without a handler with a located PlError; nothing is approximated.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final

from pl.interpreter.context import Handler, OpCtx
from pl.interpreter.ops import arith, array, cross_core, distributed, index, mem
from pl.ops.marks import collect, interprets


# The interpreter runs one statement at a time on one core, so a fence or a barrier orders
# nothing that is not already ordered: these ops compute nothing.
# Cross-core events, FFTS setup and cache invalidation order or publish memory between cores that
# the interpreter runs one after the other on the same arrays.
@interprets("system.sync_src", "system.sync_dst", "system.bar_v", "system.bar_m", "system.bar_all",
            "system.fence", "system.syncall", "system.sync_set", "system.sync_wait",
            "system.set_ffts", "system.cacheinvalid")
def _ordering_only(c: OpCtx) -> Any:
    return None


@interprets("tile.get_block_idx", "tensor.get_block_idx")
def _block_idx(c: OpCtx) -> Any:
    return c.lanes.block_idx


@interprets("tile.get_block_num", "tensor.get_block_num")
def _block_num(c: OpCtx) -> Any:
    return c.lanes.block_num


@interprets("tile.get_subblock_idx", "tensor.get_subblock_idx")
def _subblock_idx(c: OpCtx) -> Any:
    return c.lanes.subblock_idx


def build_handlers() -> Mapping[str, Handler]:
    """Op name -> handler, from the `@interprets` marks of the interpreter's modules."""
    return collect("interpreter", (arith, mem, index, array, cross_core, distributed,
                                   sys.modules[__name__]))


HANDLERS: Final = build_handlers()

_SPLIT = ("it splits a tile between the two vector lanes of a cluster, and the interpreter runs "
          "one lane")
_HARDWARE = "it reads the hardware (block / sub-block ids, core counts, addresses), which the interpreter has not"
# The reference defines these through pto-isa instructions and leaves the encodings to the
# target (its docs and runtime goldens do not pin them down); computing a guess would be worse
# than refusing (a wrong interpreter hides bugs).
_GATHER_COMPARE = ("it fills its index rows only up to each row's match count, and what the rest holds is "
              "the pto-isa instruction's, not defined by the reference")
_ISA_SORT = ("what its `exhausted` flag does and what fills its tmp-shaped result past the merged lists "
             "are the pto-isa instruction's, not defined by the reference")
_MX = "its microscaling (MX) element and scale formats are defined by the hardware, not by the reference"

WITHOUT_NUMERICS: Final[Mapping[str, str]] = MappingProxyType({
    **dict.fromkeys((
        "tile.aic_gather", "tile.aiv_shard", "tensor.aic_gather", "tensor.aiv_shard"), _SPLIT),
    **dict.fromkeys((
        "tile.tget_scale_addr",
        "system.available_cluster_count", "system.available_aiv_count"), _HARDWARE),
    **dict.fromkeys((
        "tile.gather_compare", "tensor.gather_compare"), _GATHER_COMPARE),
    **dict.fromkeys(("tile.mrgsort_format2", "tensor.mrgsort_format2"), _ISA_SORT),
    **dict.fromkeys(("tile.matmul_mx", "tile.matmul_mx_acc", "tile.matmul_mx_bias"), _MX),
})


def handler(name: str) -> Handler | None:
    """The interpreter function of op `name`, or None (see `WITHOUT_NUMERICS` for why)."""
    return HANDLERS.get(name)


__all__ = ["HANDLERS", "WITHOUT_NUMERICS", "build_handlers", "handler"]
