"""`pl.parse(text, filename="<string>")`: program text (ours or the reference's) to IR.

Guarantees: see lowering/frontend/text.py. This module imports nothing at load time, so that
`pl/__init__.py` can re-export `parse` without an import cycle (the frontend imports `pl.dsl`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pl.ir.function import Function, Program


def parse(text: str | bytes, filename: str = "<string>") -> Program | Function:
    """The one `@pl.program` class or `@pl.function` function defined in `text`, read as Python
    reads a source file (bytes: BOM or coding cookie; form feeds; NFKC identifiers)."""
    from lowering.frontend.text import parse_text

    return parse_text(text, filename)
