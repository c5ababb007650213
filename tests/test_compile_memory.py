"""Compiling many different files in one process keeps memory flat.

Nothing a compile builds outlives it: no module-level table (nor Python's `linecache`) keeps a parsed
file, its LibCST tree, its IR or its printed text (issue 16, item 6). The test compiles 1,000 small
distinct kernels (their names, shapes, dtypes, ops, constants and loops vary with the index) with
`pl.parse` + `pl.compile` + printing, and compares what is alive after compile 1,000 with what was
alive before compile 100 (the first 100 warm up what is built once per process: imports, the op
registry, interned strings):
- the objects the garbage collector tracks (every IR node, LibCST node, list, dict and tuple of
  them), counted by type, so a failure names what piles up;
- the memory blocks Python's allocator hands out (`sys.getallocatedblocks()`, which also sees
  strings and numbers).
A table that keeps something per compile grows by its entries for each of the 900 compiles; a
bounded one grows to its bound and stays there, which the object count still sees unless the bound
is tiny. (`tracemalloc` measures the same in bytes but slows the compiles about four times, which
would take this test past 20 s; these counts cost nothing while the compiles run.)
"""

from __future__ import annotations

import collections
import gc
import linecache
import sys

import pytest

import pl
from pl.show_inferred.run import run_text

COMPILES, WARM_UP = 1000, 100
# Allowed growth over the 900 measured compiles. One kept kernel is hundreds of objects (its LibCST
# tree alone) and thousands of blocks, so keeping anything per compile exceeds these many times;
# they leave room for a few objects made once, late (a lazily built table, a warning registry).
OBJECTS_GROWTH, BLOCKS_GROWTH = 200, 4000

_DTYPES = ("FP32", "FP16")
_BINARY = ("add", "sub", "mul", "maximum", "minimum")
_UNARY = ("exp", "abs", "neg")


def distinct_kernel(i: int) -> str:
    """The i-th kernel: a program whose class, function and value names, shape, dtype, op
    sequence, scalar constant and loop structure depend on i (no two are the same text)."""
    rows = (8, 16, 32, 64)[i % 4]
    cols = (16, 32, 64, 128)[(i // 4) % 4]
    dtype = _DTYPES[(i // 16) % 2]
    steps = 1 + i % 5
    body: list[str] = [f"        a{i} = pl.load(x, [0, 0], [{rows}, {cols}])",
                       f"        b{i} = pl.load(y, [0, 0], [{rows}, {cols}])",
                       f"        v{i}_0 = pl.add(a{i}, b{i})"]
    for s in range(1, steps + 1):
        prev = f"v{i}_{s - 1}"
        k = (i + s) % 3
        if k == 0:
            body.append(f"        v{i}_{s} = pl.{_BINARY[(i + s) % 5]}({prev}, a{i})")
        elif k == 1:
            body.append(f"        v{i}_{s} = pl.mul({prev}, {0.5 + i / 1000})")
        else:
            body.append(f"        v{i}_{s} = pl.{_UNARY[(i * s) % 3]}({prev})")
    last = f"v{i}_{steps}"
    if i % 7 == 0:  # a loop carrying the output through
        body += [f"        for j{i}, (acc{i},) in pl.range(0, {cols}, {cols}, init_values=(out,)):",
                 f"            nxt{i} = pl.store({last}, [0, j{i}], acc{i})",
                 f"            res{i} = pl.yield_(nxt{i})",
                 f"        return res{i}"]
    else:
        body += [f"        out = pl.store({last}, [0, 0], out)", "        return out"]
    tensor = f"pl.Tensor[[{rows}, {cols}], pl.{dtype}]"
    return "\n".join([
        "import pl",
        "",
        "",
        "@pl.program",
        f"class Program{i}:",
        "    @pl.function(type=pl.FunctionType.InCore)",
        f"    def kernel_{i}(self, x: {tensor}, y: {tensor},",
        f"                   out: pl.Out[{tensor}]) -> {tensor}:",
        *body,
        "",
    ])


def compile_and_print(text: str, filename: str) -> str:
    program = pl.parse(text, filename=filename)
    return program.as_python() + pl.compile(program, backend="910B").as_python()


def test_the_kernels_are_distinct_and_compile() -> None:
    texts = [distinct_kernel(i) for i in range(COMPILES)]
    assert len(set(texts)) == COMPILES
    for i in range(40):  # every shape / dtype / loop combination of the generator's first cycle
        assert "Program" in compile_and_print(texts[i], f"<distinct{i}>")


def _live_objects() -> collections.Counter[str]:
    gc.collect()
    return collections.Counter(type(o).__qualname__ for o in gc.get_objects())


def test_a_parse_keeps_nothing_and_its_errors_show_their_lines() -> None:
    """`pl.parse` registers nothing in `linecache`; an error carries the text it points into."""
    pl.parse(distinct_kernel(3), filename="<parse_keeps_nothing>")
    assert "<parse_keeps_nothing>" not in linecache.cache
    bad = distinct_kernel(4).replace("pl.load(y,", "pl.lood(y,")
    with pytest.raises(pl.PlError) as info:
        pl.parse(bad, filename="<parse_error_lines>")
    assert "<parse_error_lines>" not in linecache.cache
    assert info.value.source is not None
    assert "pl.lood(y," in info.value.render(color=False)


# Parses, and fails in the compile (flattening to 2-D): a located error of a pass.
COMPILE_ERROR = """import pl


@pl.program
class Nd:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[2, 8, 16], pl.FP32],
          out: pl.Out[pl.Tensor[[8, 8, 16], pl.FP32]]) -> pl.Tensor[[8, 8, 16], pl.FP32]:
        t = pl.load(x, [0, 0, 0], [2, 8, 16])
        u = pl.transpose(t, axis1=0, axis2=1)
        out = pl.store(u, [0, 0, 0], out)
        return out
"""


@pytest.mark.parametrize("execute", [False, True], ids=["read", "exec"])
def test_show_inferred_keeps_nothing_and_its_errors_show_their_lines(execute: bool) -> None:
    """The CLI's load-compile-regenerate leaves `linecache` as it found it (`--exec` registers the
    text only while the module runs), and its errors, from the load or from the compile, carry
    the text they point into."""
    name = f"<show_keeps_nothing_{execute}>"
    run_text(distinct_kernel(5), name, execute=execute)
    assert name not in linecache.cache
    load_error = distinct_kernel(6).replace("pl.load(y,", "pl.lood(y,")
    compile_error = COMPILE_ERROR
    for bad, line in ((load_error, "pl.lood(y,"), (compile_error, "pl.transpose(t, axis1=0, axis2=1)")):
        with pytest.raises(pl.PlError) as info:
            run_text(bad, name, execute=execute)
        assert name not in linecache.cache
        assert line in info.value.render(color=False), info.value.render(color=False)


def test_memory_stays_flat_over_many_compiles() -> None:
    for i in range(WARM_UP):
        compile_and_print(distinct_kernel(i), f"<flat{i}>")
    objects_before = _live_objects()
    blocks_before = sys.getallocatedblocks()
    for i in range(WARM_UP, COMPILES):
        compile_and_print(distinct_kernel(i), f"<flat{i}>")
    objects_grown = _live_objects() - objects_before
    blocks_grown = sys.getallocatedblocks() - blocks_before
    assert sum(objects_grown.values()) < OBJECTS_GROWTH, (
        f"{sum(objects_grown.values())} more live objects after {COMPILES - WARM_UP} compiles: "
        f"{objects_grown.most_common(10)}")
    assert blocks_grown < BLOCKS_GROWTH, (
        f"{blocks_grown} more allocated blocks after {COMPILES - WARM_UP} compiles")


# Module-level `@pl.inline` helpers: in the static namespace, each helper's globals are that very
# namespace, a reference cycle.
INLINE_HELPERS = """import pl

N = 32


@pl.inline
def twice(t: pl.Tile[[N, N], pl.FP32]) -> pl.Tile[[N, N], pl.FP32]:
    return pl.add(t, t)


@pl.program
class WithHelper:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[N, N], pl.FP32],
          out: pl.Out[pl.Tensor[[N, N], pl.FP32]]) -> pl.Tensor[[N, N], pl.FP32]:
        t = pl.load(x, [0, 0], [N, N])
        u = twice(t)
        out = pl.store(u, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.InCore)
    def plain(self, x: pl.Tensor[[N, N], pl.FP32],
              out: pl.Out[pl.Tensor[[N, N], pl.FP32]]) -> pl.Tensor[[N, N], pl.FP32]:
        t = pl.load(x, [0, 0], [N, N])
        e = pl.exp(t)
        out = pl.store(e, [0, 0], out)
        return out
"""


def _parses_alive(filename: str) -> tuple[int, int]:
    """(`SourceFile`s of `filename`, LibCST modules) that are alive, the collector not asked."""
    from libcst import Module

    from pl.lowering.frontend.source import SourceFile

    objects = gc.get_objects()
    return (sum(isinstance(o, SourceFile) and o.filename == filename for o in objects),
            sum(isinstance(o, Module) for o in objects))


@pytest.mark.parametrize("execute", [False, True], ids=["read", "exec"])
@pytest.mark.parametrize("kernel", [INLINE_HELPERS, distinct_kernel(8)], ids=["inline", "plain"])
def test_a_regeneration_frees_its_parse_by_reference_counting(kernel: str, execute: bool) -> None:
    """What a show_inferred run holds when its verification reads the output back: the first
    run's result (`annotate.rerun` is that run: its result keeps no tree) and nothing of the
    file's parse, even with the collector paused, as a compile runs (pl.gc_pause): the
    read-back holds the output's tree, which shares the input's statements, and no other tree
    of the input may add to it. The same for
    `load_programs`, whose programs hold no tree either; `--exec` too, where the imported
    module's namespace holds the parse."""
    from pl.show_inferred.annotate import load_programs, rerun

    name = "<frees_its_parse>"
    gc.collect()
    modules_before = _parses_alive(name)[1]
    gc.disable()
    try:
        r = rerun(backend="910B", residency=True, program=None, execute=execute)(kernel, name)
        assert r.compiled and r.output != kernel
        assert _parses_alive(name) == (0, modules_before)
        programs = load_programs(kernel, name, execute=execute)
        assert programs
        assert _parses_alive(name) == (0, modules_before)
    finally:
        gc.enable()
