"""`gc_paused()`: the cyclic garbage collector kept out of the compiler's hot phases.

Guarantees: the collector is disabled for the duration of a `with` block and its previous state
restored after it (nesting is fine). Why: the parses, lowering, the passes and the printer
allocate hundreds of thousands of small acyclic objects, which reference counting frees, and the
collector would otherwise rescan the growing heap again and again for cycles that are not there.

Where it is used: once per public API entry, as a decorator (`@gc_paused()`), and nowhere
inside: `pl.compile`, `pl.parse` (and `parse_tree`, the benchmark's parse), what `@pl.program` and
`@pl.function` call (`lower_class`, `lower_function`), `pl.python_print`, every `Pass` run
(`run_logged`, which `pl.passes.NAME(...)(program)` and `PassManager` go through), a
show_inferred run (`run_text`; the CLI pauses once per file, which also covers what its output
options re-read), `pl.interpret`, and a `@pl.jit` function's call, `.compile` and `.lower`. An
entry called by another (`pl.compile` running the passes) nests: the inner pause finds the
collector off and leaves it off. Nothing is collected on leaving: what the block left behind is
freed by reference counting as its owner drops it, and the next automatic collection finds only
what is still alive then.
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
