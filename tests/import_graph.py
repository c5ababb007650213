"""The import graph of pl (with pl.lowering and pl.infer), read from the source text (nothing is imported).

Guarantees:
- `imports(root)` lists every import of every module under pl/ (pl/lowering/ and pl/infer/ included): module-level
  and inside functions, `import x`, `from x import y` (relative ones resolved), and
  `importlib.import_module("x")` / `__import__("x")` with a literal string; an import of a
  module's attribute (`from pl.ir import expr` vs `from pl.ir.expr import Var`) names the module
  that is actually loaded.
- `cycles(root)` gives every strongly connected component of more than one module of the graph
  whose edges are those imports, every one of them, call-time ones included (a package's
  `__init__` is the package's own node; importing `a.b` is an edge to `a.b`, not to `a`),
  leaving out only the imports under `if TYPE_CHECKING:`, which never run (the layering test
  still checks them against the layer table); `leave_out` drops the edges it names.
- Run as a script (`python tests/import_graph.py [ROOT]`) it prints the number of cycles and
  their sizes and members, counting every import, for the repository at ROOT (any commit's
  checkout).
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path

PACKAGES = ("pl",)


@dataclass(frozen=True)
class Import:
    """One import statement's target: `module` imports `target` at `line` (`type_only`: under
    `if TYPE_CHECKING:`, for the type checker only)."""

    module: str
    target: str
    line: int
    type_only: bool = False


def module_files(root: Path) -> dict[str, Path]:
    """Every module of the package, by dotted name (a package by its `__init__`)."""
    out: dict[str, Path] = {}
    for pkg in PACKAGES:
        for path in sorted((root / pkg).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


def _absolute(module: str, is_package: bool, level: int, name: str | None) -> str:
    """The absolute name of `from <level dots><name> import ...` written in `module`."""
    if level == 0:
        return name or ""
    base = module.split(".")
    if not is_package:
        base.pop()
    if level > 1:
        base = base[: len(base) - (level - 1)]
    return ".".join([*base, *([name] if name else [])])


def _literal_import(node: ast.Call) -> str | None:
    """The module named by `importlib.import_module("x")` or `__import__("x")`, if literal."""
    func = node.func
    named = (isinstance(func, ast.Attribute) and func.attr == "import_module") or (
        isinstance(func, ast.Name) and func.id in ("import_module", "__import__"))
    if named and node.args and isinstance(node.args[0], ast.Constant):
        value = node.args[0].value
        return value if isinstance(value, str) else None
    return None


def _type_checking_lines(tree: ast.Module) -> set[int]:
    """The lines of the bodies of `if TYPE_CHECKING:` / `if typing.TYPE_CHECKING:` blocks."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) in ("TYPE_CHECKING",
                                                                    "typing.TYPE_CHECKING"):
            for stmt in node.body:
                lines.update(range(stmt.lineno, (stmt.end_lineno or stmt.lineno) + 1))
    return lines


def imports(root: Path) -> list[Import]:
    """Every import of every module under root's pl/ (pl/lowering/ and pl/infer/ included) (see Guarantees)."""
    files = module_files(root)
    found: list[Import] = []
    for module, path in files.items():
        is_package = path.name == "__init__.py"
        tree = ast.parse(path.read_text(encoding="utf-8"))
        typing_only = _type_checking_lines(tree)
        for node in ast.walk(tree):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _absolute(module, is_package, node.level, node.module)
                # `from pkg import sub` loads the submodule pkg.sub when there is one.
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in files else base
                           for a in node.names]
            elif isinstance(node, ast.Call) and (target := _literal_import(node)) is not None:
                targets = [target]
            found.extend(Import(module, t, node.lineno, node.lineno in typing_only)
                         for t in targets)
    return found


# The upward edge the layer table allows (docs/architecture.md, under the table), an import
# inside one method, run when called: the IR core's `as_python()` / `str()` import the printer
# (the reference's nodes print themselves).
CALL_TIME_EDGES = frozenset({("pl.ir.function", "pl.printer.program")})


def graph(root: Path, leave_out: frozenset[tuple[str, str]] = frozenset()) -> dict[str, set[str]]:
    """Module -> the project modules it imports (imports of other distributions, type-only
    imports and the edges of `leave_out` left out)."""
    files = module_files(root)
    edges: dict[str, set[str]] = {m: set() for m in files}
    for imp in imports(root):
        if imp.target in files and imp.target != imp.module and not imp.type_only \
                and (imp.module, imp.target) not in leave_out:
            edges[imp.module].add(imp.target)
    return edges


def strongly_connected(edges: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components, iteratively (each sorted; largest first)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                components.append(sorted(component))
    return sorted(components, key=lambda c: (-len(c), c))


def cycles(root: Path, leave_out: frozenset[tuple[str, str]] = frozenset()) -> list[list[str]]:
    """Every import cycle: each strongly connected component of more than one module."""
    return [c for c in strongly_connected(graph(root, leave_out)) if len(c) > 1]


def main(argv: list[str]) -> int:
    root = Path(argv[1]) if len(argv) > 1 else Path(__file__).resolve().parent.parent
    found = cycles(root)
    print(f"{len(found)} import cycle(s); sizes {[len(c) for c in found]}")
    for c in found:
        print(f"  {len(c)}: {' '.join(c)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
