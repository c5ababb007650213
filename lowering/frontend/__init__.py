"""The frontend: `@pl.program` classes, `@pl.function` functions and program text to IR.

Entry points: `lower_class`, `lower_function` (decorated Python objects, `lower`) and `parse`
(text, `parse` / `text`).
"""
