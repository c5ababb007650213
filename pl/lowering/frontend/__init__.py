"""The frontend: `@pl.program` classes, `@pl.function` functions and program text to IR.

Entry points: the decorators `function` / `program` and `lower_class`, `lower_function`
(decorated Python objects, `lower`), and `parse` (program text, `parse`).
"""
