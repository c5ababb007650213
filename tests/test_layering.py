"""The layering of docs/architecture.md, checked by reading every module's imports.

- The layer table is read from docs/architecture.md itself (layer, modules, may import), so the
  allow-list and the document cannot drift apart; every module of pl/ (pl/lowering/ and pl/infer/ included)
  belongs to exactly one row.
- Every import (module-level and inside functions, under `if TYPE_CHECKING:`, and literal
  `importlib.import_module("...")`) names the module's own layer, a layer or distribution its row
  allows, the standard library or `typing_extensions` (tests/import_graph.py reads them).
- No import cycle between modules; every module imports first in a fresh interpreter.
- `import pl` (and using its tools) changes nothing process-wide.
"""

from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from import_graph import CALL_TIME_EDGES, cycles, imports, module_files

ROOT = Path(__file__).resolve().parent.parent
ARCHITECTURE = ROOT / "docs" / "architecture.md"
EVERYWHERE = frozenset({"typing_extensions"})  # besides the standard library


@dataclass(frozen=True)
class Layer:
    """One row of the table: its name, its modules (folders `pl/ir/`, files `pl/errors.py`, or
    `pl/*.py`: the files directly in pl/ no other row names) and what it may import."""

    name: str
    paths: tuple[str, ...]
    layers: frozenset[str]
    distributions: frozenset[str]


def layer_table(text: str) -> list[Layer]:
    """The rows of the `| layer | modules | may import |` table in `text`."""
    lines = text.splitlines()
    start = lines.index("| layer | modules | may import |")
    rows: list[Layer] = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        assert len(cells) == 3, line
        name = cells[0].split(":")[0].strip()
        paths = tuple(re.findall(r"`([^`]+)`", cells[1]))
        allowed = [a.strip() for a in cells[2].split(",")]
        layers = frozenset(a for a in allowed if not a.startswith("`") and a != "nothing else")
        distributions = frozenset(a.strip("`") for a in allowed if a.startswith("`"))
        rows.append(Layer(name, paths, layers, distributions))
    return rows


LAYERS = layer_table(ARCHITECTURE.read_text(encoding="utf-8"))
FILES = module_files(ROOT)
IMPORTS = imports(ROOT)


def layer_of(module: str) -> Layer:
    """The row a module belongs to: the most specific path that covers its file."""
    rel = FILES[module].relative_to(ROOT).as_posix()
    best: tuple[int, Layer] | None = None
    for layer in LAYERS:
        for path in layer.paths:
            if path == rel:
                rank = 3
            elif path.endswith("/") and rel.startswith(path):
                rank = 2
            elif path.endswith("/*.py") and rel.count("/") == path.count("/") and \
                    rel.startswith(path[:-len("*.py")]):
                rank = 1
            else:
                continue
            assert best is None or best[0] != rank or best[1] == layer, \
                f"{rel} is in two rows of the layer table ({best[1].name}, {layer.name})"
            if best is None or rank > best[0]:
                best = (rank, layer)
    assert best is not None, f"{rel} is in no row of the layer table in docs/architecture.md"
    return best[1]


def _project_module(target: str) -> str | None:
    """The module of pl that `target` names (an attribute path resolves to the
    longest module prefix), or None for another distribution."""
    parts = target.split(".")
    for n in range(len(parts), 0, -1):
        if ".".join(parts[:n]) in FILES:
            return ".".join(parts[:n])
    return None


def violations(layer: Layer) -> list[str]:
    names = {x.name for x in LAYERS}
    everything = "every layer" in layer.layers
    bad: list[str] = []
    for imp in IMPORTS:
        if layer_of(imp.module) != layer or (imp.module, imp.target) in CALL_TIME_EDGES:
            continue
        where = f"{FILES[imp.module].relative_to(ROOT)}:{imp.line} imports {imp.target}"
        target = _project_module(imp.target)
        if target is not None:
            other = layer_of(target)
            if not (everything or other == layer or other.name in layer.layers):
                bad.append(f"{where} (layer {other.name})")
            continue
        top = imp.target.split(".")[0]
        if top == "pl":
            bad.append(f"{where} (no such module)")
        elif top not in sys.stdlib_module_names and top not in EVERYWHERE | layer.distributions:
            bad.append(f"{where} (distribution {top})")
    assert layer.layers - {"every layer"} <= names, f"unknown layers named in {layer.name}"
    return bad


def test_the_table_is_read_and_covers_every_module() -> None:
    # Guards against the checks below passing vacuously after an edit of the document.
    assert {x.name for x in LAYERS} >= {"IR core", "errors", "op registry", "language", "lowering",
                                        "inference", "tools"}
    members = {x.name: [m for m in FILES if layer_of(m) == x] for x in LAYERS}
    assert all(members.values()), [n for n, ms in members.items() if not ms]
    assert len(IMPORTS) > 500


@pytest.mark.parametrize("layer", LAYERS, ids=lambda x: x.name)
def test_every_import_is_allowed_by_the_layer_table(layer: Layer) -> None:
    bad = violations(layer)
    assert not bad, "\n".join(bad)


def test_the_import_reader_sees_every_kind_of_import(tmp_path: Path) -> None:
    pkg = tmp_path / "pl"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "b.py").write_text("", encoding="utf-8")
    (pkg / "a.py").write_text(
        "from typing import TYPE_CHECKING\nimport importlib\nfrom . import b\n"
        "if TYPE_CHECKING:\n    import pl.lowering.x\n"
        "def f():\n    import pl.infer.y\n    from pl.b import z\n"
        "    return importlib.import_module('numpy.linalg')\n", encoding="utf-8")
    found = {(i.target, i.line, i.type_only) for i in imports(tmp_path) if i.module == "pl.a"}
    assert found == {("typing", 1, False), ("importlib", 2, False), ("pl.b", 3, False),
                     ("pl.lowering.x", 5, True), ("pl.infer.y", 7, False), ("pl.b", 8, False),
                     ("numpy.linalg", 9, False)}


def test_no_import_cycles() -> None:
    """Counted over every import, the one cycle is the one the allowed upward edge closes (the
    IR core's `as_python()` and the printer); without it there is none."""
    found = cycles(ROOT)
    assert len(found) <= len(CALL_TIME_EDGES) and all(
        any(a in c and b in c for a, b in CALL_TIME_EDGES) for c in found), \
        "\n".join(f"{len(c)} modules: {' '.join(c)}" for c in found)
    rest = cycles(ROOT, leave_out=CALL_TIME_EDGES)
    assert not rest, "\n".join(f"{len(c)} modules: {' '.join(c)}" for c in rest)


def test_the_cycle_finder_reports_a_cycle(tmp_path: Path) -> None:
    pkg = tmp_path / "pl" / "infer"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "a.py").write_text("from pl.infer.b import x\n", encoding="utf-8")
    (pkg / "b.py").write_text("def f():\n    from pl.infer import c\n", encoding="utf-8")
    (pkg / "c.py").write_text("import pl.infer.a\n", encoding="utf-8")
    (pkg / "d.py").write_text("import pl.infer.a\n", encoding="utf-8")
    assert cycles(tmp_path) == [["pl.infer.a", "pl.infer.b", "pl.infer.c"]]


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                          timeout=300)


def test_every_module_imports_first() -> None:
    """`pl/__init__.py` runs before any module under pl/ (a package runs before its modules), so
    it may load only layers below lowering (it loads none: every name on first use): a module of
    lowering or infer imported first would otherwise be partly initialised when the face asks it
    for a name. This imports each of them first in a clean module table and names the ones that
    break."""
    names = sorted(m for m in FILES if m.startswith(("pl.lowering", "pl.infer")))
    code = ("import importlib, sys\n"
            "ours = ('pl',)\n"
            f"for name in {names!r}:\n"
            "    for m in [m for m in sys.modules if m.split('.')[0] in ours]:\n"
            "        del sys.modules[m]\n"
            "    try:\n"
            "        importlib.import_module(name)\n"
            "    except ImportError as e:\n"
            "        print(name, '->', e)\n")
    out = _run(code)
    assert out.returncode == 0, out.stderr
    assert out.stdout == "", out.stdout


def test_importing_pl_changes_nothing_process_wide() -> None:
    """No excepthook, no warnings filter, no gc or recursion setting, no foreign module replaced:
    `import pl`, and using its tools, leave the interpreter as they found it (pl's own modules
    and the standard library's and its dependencies' modules aside)."""
    code = """
import gc, sys, warnings
import libcst, typing_extensions

def state():
    return (sys.excepthook, sys.displayhook, sys.unraisablehook, sys.breakpointhook,
            list(warnings.filters), gc.isenabled(), gc.get_threshold(), sys.getrecursionlimit(),
            list(sys.path), list(sys.meta_path), list(sys.path_hooks), sys.getswitchinterval(),
            sys.get_int_max_str_digits() if hasattr(sys, 'get_int_max_str_digits') else None)

before, modules = state(), dict(sys.modules)
import pl
pl.parse('import pl\\n@pl.program\\nclass P:\\n    @pl.function\\n'
         '    def f(self, a: pl.Tensor[[8], pl.FP32]) -> pl.Tensor[[8], pl.FP32]:\\n        return a\\n')
pl.compile, pl.function, pl.program, pl.passes, pl.show_inferred
for after, was in zip(state(), before):
    assert after == was, (was, after)
assert all(sys.modules.get(k) is v for k, v in modules.items()), 'a module was replaced'
new = {m.split('.')[0] for m in sys.modules if m not in modules}
print(sorted(new - {'pl', 'libcst', 'typing_extensions'}
             - set(sys.stdlib_module_names)))
"""
    out = _run(code)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]", out.stdout


def test_the_package_imports_without_optional_dependencies() -> None:
    """Runtime dependencies are libcst and typing_extensions only: numpy (the interpreter's
    extra) must not be needed to import pl or run show_inferred."""
    code = ("import sys; sys.modules['numpy'] = None\n"
            "import pl, pl.show_inferred, pl.compiler\n"
            "try:\n    pl.interpret\nexcept ImportError as e:\n    print('lazy:', e)\n")
    out = _run(code)
    assert out.returncode == 0, out.stderr
    assert "pl.interpret needs numpy" in out.stdout


def test_the_kernel_surface_has_every_name_of_pl() -> None:
    """Static loading binds `import pl` to the kernel surface, which lowering builds without
    importing the face above it: the two must offer the same names (pl's tools unresolved)."""
    import pl
    from pl.lowering.source.static_eval import Unresolved
    from pl.lowering.source.static_module import PL_TOOLS, pl_surface

    names = pl_surface().names
    assert set(names) == {*pl.__all__, "interpret", "show_inferred"}
    for name, value in names.items():
        if name in PL_TOOLS:
            assert isinstance(value, Unresolved), name
        elif name == "jit":  # the decorators above lowering: markers of the same kinds
            assert all(callable(getattr(pl.jit, kind)) for kind in value.names), name
        else:
            assert value is getattr(pl, name), name


def test_the_type_checkers_imports_of_the_face_name_the_tool_table() -> None:
    """pl/__init__.py imports its tools for the type checker (mypy cannot read pl/face.py's
    table): those imports bind exactly the tools `__all__` lists."""
    import ast

    from pl.face import LOADED_ON_USE, TOOLS

    tree = ast.parse((ROOT / "pl" / "__init__.py").read_text(encoding="utf-8"))
    block = next(n for n in tree.body if isinstance(n, ast.If)
                 and isinstance(n.test, ast.Name) and n.test.id == "TYPE_CHECKING")
    # A tool whose name differs from its definition's is imported privately and bound by an
    # assignment (`compile = _compile_program`), which mypy counts as exported.
    bound = {a.asname or a.name for n in block.body if isinstance(n, ast.ImportFrom)
             for a in n.names if a.name != "*" and not (a.asname or a.name).startswith("_")}
    bound |= {t.id for n in block.body if isinstance(n, ast.Assign)
              for t in n.targets if isinstance(t, ast.Name)}
    assert bound == set(TOOLS) - LOADED_ON_USE
