"""The IR values a kernel module holds: what `@pl.program` and `@pl.function` return."""

from typing import Any

class Function:
    name: str
    def as_python(self, **options: Any) -> str: ...

class Program:
    name: str
    functions: tuple[Function, ...]
    def get(self, name: str) -> Function | None: ...
    def as_python(self, **options: Any) -> str: ...
