"""No process-global mutable state in pl, lowering or infer.

A module-level dict, list or set that a compile writes into outlives the compile: it keeps memory alive
for the whole process and can make one compile's result depend on what was compiled before. Constant
tables are written immutable (`types.MappingProxyType`, `frozenset`, `tuple`); a memo that is worth
keeping lives on an object that one compile creates and drops.

`global_state()` imports every module of the three packages and lists each module-level name bound by
that module's own code (not imported) whose value is a mutable container, an iterator (a shared
`itertools.count()` numbers things in the order they were compiled), or an `functools.lru_cache` /
`functools.cache` wrapped function, and the same for the class-level attributes of the classes the
module defines. The test fails naming each. Run `python -m tests.test_global_state` from the
repository root to print the list and the count at any commit.
"""

from __future__ import annotations

import ast
import collections.abc
import importlib
import inspect
import linecache
import pkgutil
import sys
from collections.abc import Iterator
from types import ModuleType

PACKAGES = ("pl",)

# dict/list/set/bytearray and their subclasses (defaultdict, OrderedDict, Counter), deque, weak
# containers and any user class registered as a mutable collection; iterators advance when used.
_MUTABLE = (dict, list, set, bytearray, collections.deque, collections.abc.MutableMapping,
            collections.abc.MutableSequence, collections.abc.MutableSet, collections.abc.Iterator)


def all_modules() -> list[ModuleType]:
    """Every module of PACKAGES, imported (a package's `__main__` is skipped: importing it runs it)."""
    modules: list[ModuleType] = []
    for name in PACKAGES:
        package = importlib.import_module(name)
        modules.append(package)
        for info in pkgutil.walk_packages(package.__path__, prefix=name + "."):
            if info.name.rsplit(".", 1)[-1] == "__main__":
                continue
            modules.append(importlib.import_module(info.name))
    return modules


def _bound_names(body: list[ast.stmt]) -> Iterator[str]:
    """Names a block of statements binds itself (assignments, defs, classes), looking into if/try/with."""
    for stmt in body:
        if isinstance(stmt, ast.Assign):
            for target in stmt.targets:
                yield from _target_names(target)
        elif isinstance(stmt, (ast.AnnAssign, ast.AugAssign)):
            yield from _target_names(stmt.target)
        elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield stmt.name
        elif isinstance(stmt, (ast.If, ast.For, ast.While)):
            yield from _bound_names(stmt.body)
            yield from _bound_names(stmt.orelse)
        elif isinstance(stmt, ast.With):
            yield from _bound_names(stmt.body)
        elif isinstance(stmt, ast.Try):
            yield from _bound_names(stmt.body)
            for handler in stmt.handlers:
                yield from _bound_names(handler.body)
            yield from _bound_names(stmt.orelse)
            yield from _bound_names(stmt.finalbody)


def _target_names(target: ast.expr) -> Iterator[str]:
    if isinstance(target, ast.Name):
        yield target.id
    elif isinstance(target, (ast.Tuple, ast.List)):
        for element in target.elts:
            yield from _target_names(element)
    elif isinstance(target, ast.Starred):
        yield from _target_names(target.value)


def _classes(body: list[ast.stmt]) -> Iterator[ast.ClassDef]:
    for stmt in body:
        if isinstance(stmt, ast.ClassDef):
            yield stmt
        elif isinstance(stmt, (ast.If, ast.Try)):
            yield from _classes(stmt.body)
            yield from _classes(stmt.orelse)


def is_global_state(value: object) -> bool:
    """A mutable container, an iterator, or a function wrapped by `functools.lru_cache` /
    `functools.cache`."""
    if isinstance(value, type):
        return False
    if isinstance(value, _MUTABLE):
        return True
    return callable(value) and hasattr(value, "cache_info") and hasattr(value, "cache_clear")


def global_state(modules: list[ModuleType] | None = None) -> list[str]:
    """`module.name` (or `module.Class.name`) of every piece of process-global mutable state, sorted."""
    found: list[str] = []
    for module in all_modules() if modules is None else modules:
        source = inspect.getsource(module) if getattr(module, "__file__", None) else ""
        tree = ast.parse(source)
        names = set(_bound_names(tree.body)) - {"__all__"}   # `__all__` is read by tools, never written
        for name in sorted(names):
            if is_global_state(module.__dict__.get(name)):
                found.append(f"{module.__name__}.{name}")
        for node in _classes(tree.body):
            cls = module.__dict__.get(node.name)
            if not isinstance(cls, type):
                continue
            for name in sorted(set(_bound_names(node.body))):
                if is_global_state(cls.__dict__.get(name)):
                    found.append(f"{module.__name__}.{node.name}.{name}")
    return sorted(found)


def test_no_module_level_mutable_state() -> None:
    found = global_state()
    assert not found, (f"{len(found)} process-global mutable containers or lru_caches (make a constant "
                       "table immutable; move a memo onto the compile that uses it):\n  " + "\n  ".join(found))


def test_the_census_sees_each_kind_of_state() -> None:
    """The census itself: it finds a dict, a defaultdict, a list, a set, a counter, an lru_cache, a
    class-level dict, and skips imported names, immutable tables and `__all__`."""
    module = ModuleType("census_probe")
    module.__file__ = "census_probe.py"
    source = '''
import collections, functools, itertools, types
from os import environ
__all__ = ["a"]
A = {}
B = collections.defaultdict(list)
C: list[int] = []
if True:
    D = set()
E = types.MappingProxyType({})
F = frozenset()
G = (1, 2)
N = itertools.count()
@functools.lru_cache(maxsize=None)
def h(x): return x
def i(x): return x
class K:
    TABLE = {}
    FIXED = ()
'''
    exec(compile(source, module.__file__, "exec"), module.__dict__)
    sys.modules[module.__name__] = module  # inspect.getsource reads the text through linecache
    linecache.cache[module.__file__] = (len(source), None, source.splitlines(keepends=True), module.__file__)
    try:
        found = global_state([module])
    finally:
        del sys.modules[module.__name__]
        linecache.cache.pop(module.__file__, None)
    assert found == [f"census_probe.{n}" for n in ("A", "B", "C", "D", "K.TABLE", "N", "h")]


if __name__ == "__main__":
    state = global_state()
    for entry in state:
        print(entry)
    print(f"{len(state)} module-level mutable containers or lru_caches in {', '.join(PACKAGES)}")
