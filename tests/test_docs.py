"""Documentation that restates code stays equal to it."""

from __future__ import annotations

import re
from pathlib import Path

from pl.infer.residency.apply import RULES

ROOT = Path(__file__).resolve().parent.parent


def test_residency_rule_table_matches_the_code() -> None:
    text = (ROOT / "docs" / "residency_rules.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `([a-z-]+)` \| (.*) \|$", text, re.M))
    assert rows == RULES
