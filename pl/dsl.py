"""Placeholder: the DSL surface (owned by the frontend work)."""

__all__: list[str] = []
