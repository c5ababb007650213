"""The stubs in stubs/pl cannot go stale: mypy's stubtest compares them with the package `pl` it
imports, with the allowlist stubs/stubtest-allowlist.txt (each entry deliberate, with its reason).
A new public name of a stubbed module without a stub, a stub of a name the package no longer has, a
signature that drifted, and an allowlist entry that matches nothing all fail here.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mypy.stubtest")

ROOT = Path(__file__).resolve().parent.parent


def stubtest(stubs: Path) -> subprocess.CompletedProcess[str]:
    """`python -m mypy.stubtest pl` against the stubs in `stubs` (stubs/README.md)."""
    env = {**os.environ, "MYPYPATH": str(stubs)}
    return subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "pl", "--mypy-config-file",
         str(ROOT / "stubs" / "mypy.ini"), "--allowlist", str(ROOT / "stubs" / "stubtest-allowlist.txt")],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)


def test_stubs_match_the_package() -> None:
    r = stubtest(ROOT / "stubs")
    assert r.returncode == 0, r.stdout + r.stderr


def test_a_public_name_without_a_stub_fails(tmp_path: Path) -> None:
    # The stubs with `unroll_loops` taken out of pl.passes: what a new pass without a stub looks like.
    import shutil

    copy = tmp_path / "stubs"
    shutil.copytree(ROOT / "stubs", copy)
    passes = copy / "pl" / "passes.pyi"
    text = passes.read_text(encoding="utf-8")
    assert "def unroll_loops() -> Pass: ...\n" in text
    passes.write_text(text.replace("def unroll_loops() -> Pass: ...\n", ""), encoding="utf-8")
    r = stubtest(copy)
    assert r.returncode != 0
    assert "pl.passes.unroll_loops is not present in stub" in r.stdout
