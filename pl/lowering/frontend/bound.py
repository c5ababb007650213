"""The names a piece of code binds, read off its LibCST tree (nothing is evaluated).

Guarantees: `BoundNames` collects, in order, every name an assignment (`x =`, `x: T =`, `x +=`,
tuple / list / starred targets), a `for` target, an `as` name, a `:=`, an import and a def or
class statement binds; it does not look into nested defs and classes (their bodies bind their own
names). Static loading uses it for the names a statement it does not run would bind; inline
expansion for the parameters a helper's body rebinds.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

import libcst as cst

from pl.lowering.frontend.context import dotted

_TARGET_FIELDS: Final[Mapping[type, str]] = MappingProxyType({
    cst.AssignTarget: "target", cst.AnnAssign: "target", cst.AugAssign: "target",
    cst.For: "target", cst.AsName: "name", cst.NamedExpr: "target",
})


class BoundNames(cst.CSTVisitor):
    """`node.visit(BoundNames())` then `.names`: the names the code binds (module doc)."""

    def __init__(self) -> None:
        super().__init__()
        self.names: list[str] = []

    def target(self, node: cst.BaseExpression) -> None:
        if isinstance(node, cst.Name):
            self.names.append(node.value)
        elif isinstance(node, cst.Tuple | cst.List):
            for el in node.elements:
                self.target(el.value)
        elif isinstance(node, cst.StarredElement):
            self.target(node.value)

    def on_visit(self, node: cst.CSTNode) -> bool:
        field = _TARGET_FIELDS.get(type(node))
        if field is not None:  # `x = `, `x: T = `, `x += `, `for x in`, `as x`, `x :=`
            self.target(getattr(node, field))
        return super().on_visit(node)

    def visit_Import(self, node: cst.Import) -> None:
        for a in node.names:
            if a.asname is None:
                self.names.append(dotted(a.name).split(".")[0])

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        if not isinstance(node.names, cst.ImportStar):
            for a in node.names:
                if a.asname is None:
                    self.names.append(dotted(a.name))

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        self.names.append(node.name.value)
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        self.names.append(node.name.value)
        return False
