"""Typed tiles under mypy: the stubs in stubs/pl and pl/mypy_plugin.py, checked through `mypy.api.run`.

One mypy run (session fixture, cache under a tmp dir) covers the fixtures in tests/typing_fixtures,
the kernels in examples/ and the stubs themselves, all under `--strict`. Each `# E: <message>`
marker in a fixture must produce an error on its line whose message starts with <message>; no
other error may appear anywhere.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

mypy_api = pytest.importorskip("mypy.api")

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = sorted((ROOT / "tests" / "typing_fixtures").glob("*.py"))
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))
JIT_KERNELS = sorted((ROOT / "tests" / "jit_kernels").glob("*.py"))  # `@pl.jit` kernels
STUBS = sorted((ROOT / "stubs" / "pl").rglob("*.pyi"))

_ERROR = re.compile(r"^(?P<path>[^:]+):(?P<line>\d+): error: (?P<msg>.*?)(?:  \[[\w-]+\])?$")
_MARK = re.compile(r"#\s*E:\s*(?P<msg>.+?)\s*$")

# Kernels re-annotate rebound names (`out_0: T = pl.store(..., out_0)`, the seed's own spelling);
# stubs/mypy.ini turns mypy's no-redef off for kernel files, so no example has a known error.
KNOWN_EXAMPLE_ERRORS: dict[str, list[str]] = {}
GOLDENS = sorted((ROOT / "tests" / "golden").glob("*.expected.py"))

Errors = dict[tuple[str, int], list[str]]


@pytest.fixture(scope="session")
def mypy_errors(tmp_path_factory: pytest.TempPathFactory) -> Errors:
    cache = tmp_path_factory.mktemp("mypy_cache")
    files = [str(p.relative_to(ROOT)) for p in FIXTURES + EXAMPLES + JIT_KERNELS + GOLDENS + STUBS]
    # stubs/mypy.ini: the stubs (mypy_path) and the plugin, as a kernel author configures them.
    # Imports outside these files are silenced: this suite judges the stubs, not other modules.
    previous = os.getcwd()
    os.chdir(ROOT)
    try:
        out, err, _ = mypy_api.run(["--strict", "--config-file", str(ROOT / "stubs" / "mypy.ini"), "--cache-dir",
                                    str(cache), "--follow-imports", "silent",
                                    "--no-error-summary", "--show-traceback", *files])
    finally:
        os.chdir(previous)
    assert "INTERNAL ERROR" not in out + err, out + err
    errors: Errors = {}
    for line in out.splitlines():
        m = _ERROR.match(line)
        if m:
            errors.setdefault((Path(m["path"]).name, int(m["line"])), []).append(m["msg"])
        else:
            assert ": note: " in line, f"unexpected mypy output: {line}\n{err}"
    return errors


def _markers() -> list[tuple[str, int, str]]:
    found = []
    for path in FIXTURES:
        for no, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            m = _MARK.search(text)
            if m:
                found.append((path.name, no, m["msg"]))
    return found


MARKERS = _markers()


def test_fixtures_have_enough_cases() -> None:
    assert len(MARKERS) >= 15


@pytest.mark.parametrize(("name", "line", "message"), MARKERS, ids=[f"{n}:{li}" for n, li, _ in MARKERS])
def test_marked_line_reports_its_error(mypy_errors: Errors, name: str, line: int, message: str) -> None:
    got = mypy_errors.get((name, line), [])
    assert any(msg.startswith(message) for msg in got), f"{name}:{line}: expected {message!r}, got {got}"


@pytest.mark.parametrize("path", FIXTURES, ids=[p.name for p in FIXTURES])
def test_fixture_has_no_unmarked_error(mypy_errors: Errors, path: Path) -> None:
    marked = {(n, li) for n, li, _ in MARKERS if n == path.name}
    extra = {k: v for k, v in mypy_errors.items() if k[0] == path.name and k not in marked}
    assert not extra, f"errors without a `# E:` marker: {extra}"


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_example_is_strict_clean(mypy_errors: Errors, path: Path) -> None:
    got = sorted(msg for (n, _), msgs in mypy_errors.items() if n == path.name for msg in msgs)
    assert got == sorted(KNOWN_EXAMPLE_ERRORS.get(path.name, [])), got


@pytest.mark.parametrize("path", GOLDENS, ids=[p.name for p in GOLDENS])
def test_show_inferred_output_is_strict_clean(mypy_errors: Errors, path: Path) -> None:
    """What `python -m pl.show_inferred` writes for every example type-checks too."""
    got = sorted(msg for (n, _), msgs in mypy_errors.items() if n == path.name for msg in msgs)
    assert got == [], got


def test_stubs_are_strict_clean(mypy_errors: Errors) -> None:
    stub_names = {p.name for p in STUBS}
    assert not {k: v for k, v in mypy_errors.items() if k[0] in stub_names}


def test_generated_stubs_are_current() -> None:
    run = subprocess.run([sys.executable, str(ROOT / "stubs" / "generate.py"), "--check"], cwd=ROOT,
                         capture_output=True, text=True)
    assert run.returncode == 0, "stubs/pl op stubs are stale: run `python stubs/generate.py`"


def test_every_published_op_has_a_stub() -> None:
    from pl.language.dsl_ops import op_object, spelling_index

    modules = {"pl": "_ops", "pl.tile": "tile", "pl.tensor": "tensor", "pl.system": "system",
               "pl.array": "array", "pl.prefetch": "prefetch"}
    texts = {m: (ROOT / "stubs" / "pl" / f"{m}.pyi").read_text(encoding="utf-8") for m in modules.values()}
    missing = []
    for spelling in spelling_index():
        prefix, name = spelling.rsplit(".", 1)
        if op_object(spelling) is not None and f"def {name}(" not in texts[modules[prefix]]:
            missing.append(spelling)
    assert not missing


def test_plugin_entry_point_returns_a_plugin_class() -> None:
    from mypy.plugin import Plugin

    from pl.mypy_plugin import plugin

    assert issubclass(plugin("2.4.1"), Plugin)


def test_enum_stubs_match_the_runtime_enums() -> None:
    """stubs/pl/ir/enums.pyi is a copy of the runtime enums: every member, same names. (A
    member-less base such as `IrEnum` is left out: mypy rejects an enum without members in a
    stub, and kernels never name it.)"""
    import ast
    import enum

    import pl.ir.enums as runtime

    tree = ast.parse((Path(__file__).resolve().parent.parent / "stubs" / "pl" / "ir" / "enums.pyi")
                     .read_text(encoding="utf-8"))
    stub: dict[str, list[str]] = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            stub[node.name] = [t.id for s in node.body if isinstance(s, ast.Assign)
                               for t in s.targets if isinstance(t, ast.Name)]
    real = {name: [m.name for m in cls] for name, cls in vars(runtime).items()
            if isinstance(cls, type) and issubclass(cls, enum.Enum) and cls.__module__ == runtime.__name__
            and len(cls) > 0}
    assert stub == real
