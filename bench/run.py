"""Compile-time benchmark: `python bench/run.py [N ...]` (default N = 1000 5000 20000).

For each N it generates the kernel of bench/generate.py and times, side by side in one process:
the bare `libcst.parse_module`, lowering to IR, each pass of the default pipeline, and printing.
It prints one table per N with each stage's time, its ratio to the bare parse, and its cost per
statement, then the scaling factor of every stage between consecutive sizes.
"""

from __future__ import annotations

import gc
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import libcst  # noqa: E402

from bench.generate import kernel_source  # noqa: E402
from lowering.text import parse  # noqa: E402
from pl.compiler import default_passes  # noqa: E402


def _best(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    best, result = float("inf"), None
    for _ in range(repeat):
        gc.collect()
        t = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t)
    return best, result


def measure(n: int, backend: str | None = "910B") -> dict[str, float]:
    text = kernel_source(n)
    repeat = 3 if n <= 5000 else 1
    times: dict[str, float] = {}
    times["libcst.parse_module"], _ = _best(lambda: libcst.parse_module(text), repeat)
    times["lower (parse -> IR)"], program = _best(lambda: parse(text, filename=f"<bench{n}>"), repeat)
    for p in default_passes(backend):
        times[p.name], program = _best(lambda p=p, prog=program: p(prog), repeat)
    times["print"], _ = _best(lambda: program.as_python(), repeat)
    return times


def main(argv: list[str]) -> None:
    sizes = [int(a) for a in argv] or [1000, 5000, 20000]
    results = {n: measure(n) for n in sizes}
    for n, times in results.items():
        base = times["libcst.parse_module"]
        print(f"\nN = {n}")
        print(f"{'stage':28} {'seconds':>9} {'x parse':>8} {'us/stmt':>9}")
        after = 0.0
        for stage, sec in times.items():
            if stage != "libcst.parse_module":
                after += sec
            print(f"{stage:28} {sec:9.4f} {sec / base:8.3f} {sec / n * 1e6:9.1f}")
        print(f"{'after parse, total':28} {after:9.4f} {after / base:8.3f} {after / n * 1e6:9.1f}")
    for a, b in zip(sizes, sizes[1:]):
        print(f"\nscaling {a} -> {b} (x{b / a:g} statements)")
        for stage in results[a]:
            print(f"  {stage:28} x{results[b][stage] / results[a][stage]:.2f}")


if __name__ == "__main__":
    main(sys.argv[1:])
