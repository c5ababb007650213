"""Shared pytest options: `--update-goldens` rewrites tests/golden/*.expected.py from the code."""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-goldens", action="store_true", default=False,
                     help="rewrite the golden files under tests/golden/ instead of comparing")
