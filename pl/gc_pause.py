"""`gc_paused()`: the cyclic garbage collector kept out of the compiler's hot phases.

Guarantees: the collector is disabled for the duration of a `with` block and its previous state
restored after it (nesting is fine). Why: lowering, the passes and the printer allocate hundreds
of thousands of small acyclic objects, which reference counting frees, and the collector would
otherwise rescan the growing young heap again and again for cycles that are not there.
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
