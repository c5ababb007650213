"""Source locations. 1-based lines and 1-based character columns (LibCST's convention + 1)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Span:
    """A region of a source file: `line:col` up to `end_line:end_col` (end exclusive)."""

    filename: str
    line: int
    col: int
    end_line: int = 0
    end_col: int = 0

    def __str__(self) -> str:
        """`file:line:col`, the one place a location is written (errors, notes, the CLI)."""
        return f"{self.filename}:{self.line}:{self.col}"


UNKNOWN_SPAN = Span("<unknown>", 0, 0)
