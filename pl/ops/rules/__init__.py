"""The ops' result-type rules, one module per family (tile elementwise, memory, views, the rest;
tensor ops and their views; arrays, handles, the distributed module) and their shared helpers
(`util`). Each rule is a function marked `@type_rule(op names)`; `pl.ops.registry` collects the
marks into the op records, and `pl.ops.deduce` runs them. Nothing is imported here.
"""
