"""The layering of architecture.md, checked by reading every module's imports.

- the IR core (pl/ir, pl/ops, pl/errors.py) imports nothing of lowering, infer or libcst;
- infer/ imports only the IR core (and the standard library);
- lowering/ imports the IR core and libcst, never infer/.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CORE = [ROOT / "pl" / "ir", ROOT / "pl" / "ops", ROOT / "pl" / "errors.py"]
CORE_MODULES = ("pl.ir", "pl.ops", "pl.errors")


def _modules(paths: list[Path]) -> list[Path]:
    out: list[Path] = []
    for p in paths:
        out.extend(sorted(p.rglob("*.py")) if p.is_dir() else [p])
    return out


def _imports(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, a.name) for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
    return found


def _top(name: str) -> str:
    return name.split(".")[0]


@pytest.mark.parametrize("path", _modules(CORE), ids=lambda p: str(p.relative_to(ROOT)))
def test_core_imports_no_upper_layer(path: Path) -> None:
    bad = [(ln, m) for ln, m in _imports(path) if _top(m) in ("lowering", "infer", "libcst")]
    assert not bad, f"{path.relative_to(ROOT)} imports {bad}"


@pytest.mark.parametrize("path", _modules([ROOT / "infer"]), ids=lambda p: str(p.relative_to(ROOT)))
def test_infer_imports_only_the_core(path: Path) -> None:
    bad = [(ln, m) for ln, m in _imports(path)
           if _top(m) in ("lowering", "libcst")
           or (_top(m) == "pl" and not m.startswith(CORE_MODULES) and m != "pl")]
    assert not bad, f"{path.relative_to(ROOT)} imports {bad}"


@pytest.mark.parametrize("path", _modules([ROOT / "lowering"]), ids=lambda p: str(p.relative_to(ROOT)))
def test_lowering_never_imports_infer(path: Path) -> None:
    bad = [(ln, m) for ln, m in _imports(path) if _top(m) == "infer"]
    assert not bad, f"{path.relative_to(ROOT)} imports {bad}"


def test_layering_test_sees_the_modules() -> None:
    # Guards against the checks above passing vacuously after a move or a rename.
    assert len(_modules(CORE)) >= 5
    assert _modules([ROOT / "infer"]) and _modules([ROOT / "lowering"])


def test_the_package_imports_without_optional_dependencies() -> None:
    """Runtime dependencies are libcst and typing_extensions only: numpy (the interpreter's
    extra) must not be needed to import pl or run show_inferred."""
    import subprocess
    import sys

    code = ("import sys; sys.modules['numpy'] = None\n"
            "import pl, pl.show_inferred, pl.compiler\n"
            "try:\n    pl.interpret\nexcept ImportError as e:\n    print('lazy:', e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert "pl.interpret needs numpy" in out.stdout
