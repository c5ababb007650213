"""How a kernel file spells the DSL, so that the text show_inferred inserts uses the file's spelling.

Guarantees: `dsl_root(module)` reads only the file's top-level import statements and returns
* `DslRoot("p")` for `import pl as p` (likewise `import pl`, `import pypto.language as pl`,
  `from pypto import language as pl`; `import pypto.language` gives `pypto.language`): inserted
  annotations and moves then say `p.Tile[...]`, `p.move(...)`, `p.MemorySpace.Vec`;
* `DslRoot("pl", "import pl\\n", stmt)` when the file only imports names *from* the DSL
  (`from pl import Tile, load`): inserted text says `pl.` and `import pl` (or
  `import pypto.language as pl`) is added right after `stmt`, the last such import;
* None when no spelling is safe: the file imports names from the DSL but binds `pl` itself to
  something else. The caller then leaves the file as written.
A file with no DSL import at all gets `DslRoot("pl")` (its names come from elsewhere; the
verification of the output, pl/show_inferred/verify.py, catches a spelling that does not read back).
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

__all__ = ["DslRoot", "dsl_root"]

_MODULES = ("pl", "pypto.language")


@dataclass(frozen=True)
class DslRoot:
    """`name`: how inserted text reaches the DSL; `import_line`, `after`: the import to add (after
    that top-level statement) when the file binds no such name yet."""

    name: str
    import_line: str = ""
    after: cst.SimpleStatementLine | None = None


def _dotted(node: cst.BaseExpression) -> str:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return f"{_dotted(node.value)}.{node.attr.value}"
    return ""


def _is_dsl(module: str) -> bool:
    return any(module == m or module.startswith(m + ".") for m in _MODULES)


def _as_name(alias: cst.ImportAlias) -> str | None:
    return _dotted(alias.asname.name) if alias.asname is not None else None


def dsl_root(module: cst.Module) -> DslRoot | None:
    """The spelling of the DSL module for text inserted into `module` (see the module doc)."""
    bound: list[str] = []      # names bound to the DSL module, in file order
    others: set[str] = set()   # top-level names bound to anything else
    from_import: tuple[cst.SimpleStatementLine, str] | None = None
    for stmt in module.body:
        if isinstance(stmt, cst.FunctionDef | cst.ClassDef):
            others.add(stmt.name.value)
            continue
        if not isinstance(stmt, cst.SimpleStatementLine):
            continue
        for small in stmt.body:
            if isinstance(small, cst.Import):
                for alias in small.names:
                    full, asname = _dotted(alias.name), _as_name(alias)
                    if full in _MODULES:
                        bound.append(asname or full)
                    else:
                        others.add(asname or full.split(".")[0])
            elif isinstance(small, cst.ImportFrom) and small.module is not None and not small.relative:
                source = _dotted(small.module)
                names = small.names if isinstance(small.names, list | tuple) else ()
                for alias in names:
                    name = _dotted(alias.name)
                    if source == "pypto" and name == "language":
                        bound.append(_as_name(alias) or name)
                    else:
                        others.add(_as_name(alias) or name)
                if _is_dsl(source):
                    line = "import pl\n" if source.split(".")[0] == "pl" else \
                        "import pypto.language as pl\n"
                    from_import = (stmt, line)
            elif isinstance(small, cst.Assign | cst.AnnAssign | cst.AugAssign):
                targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) \
                    else [small.target]
                others.update(t.value for t in targets if isinstance(t, cst.Name))
    if bound:
        return DslRoot("pl" if "pl" in bound else bound[-1])
    if from_import is None:
        return DslRoot("pl")
    if "pl" in others:
        return None
    return DslRoot("pl", from_import[1], from_import[0])
