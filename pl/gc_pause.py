"""`gc_paused()`: the cyclic garbage collector kept out of the compiler's hot phases.

Guarantees: the collector is disabled for the duration of a `with` block and its previous state
restored after it (nesting is fine). Why: the parses, lowering, the passes and the printer
allocate hundreds of thousands of small acyclic objects, which reference counting frees, and the
collector would otherwise rescan the growing heap again and again for cycles that are not there.

Where it is used: around each parse of a file (pl/lowering/frontend/source.py), lowering, every
`Pass` run (pl/passes.py, so a pass called on its own grows linearly too), the printer, and one
pause around a whole show_inferred run (`run_text`, and per file in the CLI), which covers the
verification's read-back of the output. Nothing is collected on leaving: what the block left
behind is freed by reference counting as its owner drops it, and the next automatic collection
finds only what is still alive then.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused() -> Iterator[None]:
    """The cyclic GC off inside the block; its previous state restored after it."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
