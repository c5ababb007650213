"""The language surface: every object kernel text names (`pl.Tile`, `pl.range`, `pl.add`, ...).

Guarantees: this layer sits below lowering (it imports only the IR core, the error type and the
op registry), so the frontend recognises these objects by identity without importing the
compiler; importing it changes nothing outside pl. `pl/__init__.py` re-exports it. The
decorators `@pl.function` / `@pl.program` lower what they decorate and so live in
`lowering.frontend.lower`.
"""

from typing import Final

from pl.language import dsl as dsl
from pl.language import dsl_ops as dsl_ops
from pl.language import optimizations as optimizations
from pl.language.dsl import *  # noqa: F403  (pl.Tile / pl.Tensor / ..., loops, dtypes)
from pl.language.dsl_ops import *  # noqa: F403  (pl.add, ..., namespaces pl.tile / pl.tensor / pl.system)

__all__ = [*dsl.__all__, *dsl_ops.__all__, "optimizations"]

# `__all__` as a set: `pl/__init__.py` looks every access `pl.X` of the surface up in it.
NAMES: Final = frozenset(__all__)
