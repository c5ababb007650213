"""Placeholder: the op spellings of the DSL (owned by the op-builders work)."""

__all__: list[str] = []
