"""The one user-facing error type, and the one type of a bug in pl."""

from typing import Any

class PlError(Exception):
    message: str
    span: Any
    hint: str | None
    note: str | None
    def __init__(self, message: str, span: Any = None, *, hint: str | None = None,
                 note: str | None = None, source: str | None = None) -> None: ...
    def render(self, color: bool | None = None) -> str: ...

class InternalError(Exception): ...
