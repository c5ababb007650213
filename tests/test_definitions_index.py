"""The frontend's definition index equals a full CST visit.

`lowering.frontend.definitions` maps qualnames to class/def nodes with a LibCST visit that enters
only the nodes that can hold statements; the reference here is a visit of every node, as Python
computes `__qualname__`: no definition hides where the index does not look.
"""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest

from pl.lowering.frontend.lower import definitions

ROOT = Path(__file__).resolve().parent.parent

NESTED = '''
import pl

class A:
    def f(self):
        def g():
            class Local:
                def h(self): ...
        return g

    class Inner:
        @staticmethod
        def f(): ...

if True:
    def cond(): ...
elif False:
    def cond(): ...
else:
    class Cond: ...

for i in range(3):
    def in_for(): ...
else:
    def for_else(): ...

while False:
    def in_while(): ...

with open("x") as fh:
    class InWith:
        def m(self): ...

try:
    def in_try(): ...
except ValueError:
    def in_except(): ...
else:
    def try_else(): ...
finally:
    def in_finally(): ...

try:
    pass
except* TypeError:
    def in_except_star(): ...

match 1:
    case 1:
        def in_case(): ...

async def coro():
    async with x:
        def in_async_with(): ...
    async for y in z:
        class InAsyncFor: ...

def one_line(): return 1
class OneLine: x = 1
'''


class _Visitor(cst.CSTVisitor):
    def __init__(self) -> None:
        self.stack: list[str] = []
        self.found: dict[str, list[int]] = {}

    def _enter(self, node: cst.ClassDef | cst.FunctionDef, suffix: str) -> None:
        self.found.setdefault(".".join([*self.stack, node.name.value]), []).append(id(node))
        self.stack.append(node.name.value + suffix)

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._enter(node, "")

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self.stack.pop()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._enter(node, ".<locals>")

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.stack.pop()


SOURCES = {"nested": NESTED} | {
    str(p.relative_to(ROOT)): p.read_text(encoding="utf-8")
    for folder in ("examples", "pl", "tests/golden")
    for p in sorted((ROOT / folder).rglob("*.py"))
}


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_index_equals_a_full_visit(name: str) -> None:
    module = cst.parse_module(SOURCES[name])
    visitor = _Visitor()
    module.visit(visitor)
    ours = {q: [id(n) for n in nodes] for q, nodes in definitions(module).items()}
    assert list(ours.items()) == list(visitor.found.items())


def test_nested_source_has_every_kind_of_definition() -> None:
    found = definitions(cst.parse_module(NESTED))
    for qual in ("A.f.<locals>.g.<locals>.Local.h", "A.Inner.f", "Cond", "for_else", "InWith.m",
                 "in_except", "in_except_star", "in_finally", "in_case", "coro.<locals>.InAsyncFor", "OneLine"):
        assert qual in found, qual
    assert len(found["cond"]) == 2
