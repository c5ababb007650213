"""Documentation that restates code stays equal to it."""

from __future__ import annotations

import io
import re
import shlex
from pathlib import Path

import pytest

from pl.infer.residency.apply import RULES
from pl.show_inferred import main

ROOT = Path(__file__).resolve().parent.parent


def test_residency_rule_table_matches_the_code() -> None:
    text = (ROOT / "docs" / "residency_rules.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `([a-z-]+)` \| (.*) \|$", text, re.M))
    assert rows == RULES


def _quoted_commands() -> list[tuple[str, list[str]]]:
    """README.md's quoted `$ python -m pl.show_inferred ...` runs: the command and the lines quoted
    after it (`...` stands for lines left out)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    runs = []
    for block in re.findall(r"^```[a-z]*\n(.*?)^```$", text, re.M | re.S):
        first, *rest = block.splitlines()
        if first.startswith("$ python -m pl.show_inferred "):
            runs.append((first[2:], rest))
    return runs


QUOTED = _quoted_commands()


def test_readme_quotes_show_inferred_runs() -> None:
    assert len(QUOTED) >= 4  # the README's own examples: none may be lost by a wrong pattern here


@pytest.mark.parametrize(("command", "quoted"), QUOTED, ids=[c for c, _ in QUOTED])
def test_readme_quote_is_what_the_command_prints(command: str, quoted: list[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Each quoted line is a line of the output (standard output, then standard error), in order;
    a quoted line ending in `...` is the start of its line. A command ending in `> /dev/null`
    quotes standard error only, as the shell would show it."""
    argv = shlex.split(command)[3:]
    quiet = argv[-2:] == [">", "/dev/null"]
    if quiet:
        argv = argv[:-2]
    monkeypatch.chdir(ROOT)  # the quotes name files relative to the repository
    out, err = io.StringIO(), io.StringIO()
    assert main([*argv, "--no-cache"], stdout=out, stderr=err) in (0, 1), err.getvalue()
    printed = iter(((out.getvalue() if not quiet else "") + err.getvalue()).splitlines())
    for line in quoted:
        if line.strip() == "...":
            continue
        if line.endswith("..."):
            assert any(p.startswith(line[:-3]) for p in printed), f"not printed (in this order): {line}"
        else:
            assert line in printed, f"not printed (in this order): {line}"
