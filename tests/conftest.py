"""Shared pytest options (`--update-goldens` rewrites tests/golden/*.expected.py from the code) and
fixtures."""

from __future__ import annotations

import libcst as cst
import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-goldens", action="store_true", default=False,
                     help="rewrite the golden files under tests/golden/ instead of comparing")


@pytest.fixture(autouse=True)
def _private_cache_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """The CLI caches in $XDG_CACHE_HOME/pl by default: tests never touch the user's cache."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.getbasetemp() / "xdg-cache"))


@pytest.fixture
def libcst_parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts `libcst.parse_module` is given from here on in the test, in order (how many
    times pl parses a file; `monkeypatch.undo()` stops the count)."""
    parses: list[str] = []
    real = cst.parse_module

    def counting(text: str, *args: object, **kwargs: object) -> cst.Module:
        parses.append(text)
        return real(text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(cst, "parse_module", counting)
    return parses
