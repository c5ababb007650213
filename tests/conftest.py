"""Shared pytest options: `--update-goldens` rewrites tests/golden/*.expected.py from the code."""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-goldens", action="store_true", default=False,
                     help="rewrite the golden files under tests/golden/ instead of comparing")


@pytest.fixture(autouse=True)
def _private_cache_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """The CLI caches in $XDG_CACHE_HOME/pl by default: tests never touch the user's cache."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.getbasetemp() / "xdg-cache"))
