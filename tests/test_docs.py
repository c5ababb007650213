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


DOCS = [ROOT / "README.md", ROOT / "bench" / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def _quoted_commands() -> list[tuple[str, list[str]]]:
    """The quoted `$ python -m pl.show_inferred ...` runs of README.md and docs/: the command and
    the lines quoted after it (`...` stands for lines left out)."""
    runs = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        for block in re.findall(r"^```[a-z]*\n(.*?)^```$", text, re.M | re.S):
            first, *rest = block.splitlines()
            if first.startswith("$ python -m pl.show_inferred "):
                runs.append((first[2:], rest))
    return runs


QUOTED = _quoted_commands()


def test_readme_quotes_show_inferred_runs() -> None:
    assert len(QUOTED) >= 6  # the docs' own examples: none may be lost by a wrong pattern here


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


# A repository path named in the docs: a word with a slash or a known suffix, in backquotes or a link.
_PATH = re.compile(r"(?:`|\]\()((?:\.\./|/)?[\w.-]+(?:/[\w.-]+)*(?:/|\.(?:py|md|tsv|png|toml|ini|lua)))[`)]")


@pytest.mark.parametrize("doc", DOCS, ids=[d.name for d in DOCS])
def test_docs_point_only_inside_the_repository(doc: Path) -> None:
    """Every file the docs name in one of the repository's folders exists, relative to its root or to
    the page; nothing points outside it (a sibling checkout, an absolute path, a tracker's issue).
    A path in a folder the repository does not have (`models/...`, `tests/st/...`) names a file of
    the reference, hw-native-sys/pypto, as docs/compatibility.md's tables do."""
    text = doc.read_text(encoding="utf-8")
    assert not re.search(r"\.\./|/work/|shared/|\bissue \d", text), doc
    missing = []
    for name in _PATH.findall(text):
        if name.startswith("/") or "/" not in name and not name.endswith((".md", ".png")):
            continue  # a device such as /dev/null, or a bare file name of an example command
        bases = [base for base in (ROOT, doc.parent) if (base / name).parent.is_dir()]
        if bases and not any((base / name).exists() for base in bases):
            missing.append(name)
    assert not missing, f"{doc.name} names files that are not in the repository: {missing}"
