"""The interpreter's op semantics, one module per family: `arith` (elementwise, scalar, unary,
reductions, broadcasts, comparisons, cast, creation), `mem` (memory, views, matmul), `index`
(gather / scatter and index ops), `array` (array.* ops), `cross_core` (the cross-core pipes) and
`distributed` (pld.* ops over the ranks). Each handler is marked `@interprets(...)`;
pl/interpreter/handlers.py collects the marks. Imports nothing itself.
"""
