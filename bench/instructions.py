"""Machine instructions per statement of the compile stages, counted by valgrind (deterministic).

`python bench/instructions.py [N ...]` (default 5000 20000; needs `valgrind` on the PATH; about
two minutes per 5,000 statements) runs the benchmark kernel of bench/generate.py under
`valgrind --tool=cachegrind --cache-sim=no` twice per N: once only parsing the text (LibCST's and
CPython's parses), once also lowering it, running the default pipeline (910B) and printing the
result. Both runs first compile a 10-statement kernel, so imports and first-use memos fall out of
the difference, which is the instructions of everything after the parses; the table gives it per
statement and the factor between consecutive sizes.

Wall-clock times on a shared 2-core machine drift by a third within minutes, and a large heap
runs slower per object than a small one (caches), so `bench/run.py`'s scaling factors carry noise.
Instruction counts carry none: a factor at or below x(N2/N1) here shows that the work itself
grows linearly, whatever the clock says.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Run under valgrind: parse (and, with "compile", lower + passes + print) the kernel of N statements.
_CHILD = """
import gc, sys
sys.path.insert(0, {root!r})
from bench.generate import kernel_source
import libcst
from pl.lowering.frontend.parse import parse_tree
from pl.lowering.source.python import parse_python
from pl.compiler import default_passes
from pl.printer.program import print_node


def compile_tree(text, trees, name):
    program = parse_tree(text, *trees, filename=name)
    for p in default_passes("910B"):
        program = p(program)
    print_node(program)
n, compile_it = int(sys.argv[1]), sys.argv[2] == "compile"
gc.disable()
warm = kernel_source(10)
compile_tree(warm, (libcst.parse_module(warm), parse_python(warm, "<w>")), "<warm-up>")  # imports, memos
text = kernel_source(n)
trees = (libcst.parse_module(text), parse_python(text, "<bench>"))
if compile_it:
    compile_tree(text, trees, "<bench>")
"""


def instructions(n: int, compile_it: bool) -> int:
    """Instructions valgrind counts for one child run."""
    run = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
         sys.executable, "-c", _CHILD.format(root=str(ROOT)), str(n), "compile" if compile_it else "parse"],
        capture_output=True, text=True, check=True)
    found = re.search(r"I\s+refs:\s+([\d,]+)", run.stderr)
    if found is None:
        raise RuntimeError(f"no instruction count in valgrind's output:\n{run.stderr}")
    return int(found[1].replace(",", ""))


def main(argv: list[str]) -> None:
    sizes = [int(a) for a in argv] or [5000, 20000]
    after: dict[int, int] = {}
    print(f"{'N':>7} {'parse run (with startup), instr/stmt':>38} {'after parse, instr/stmt':>24}")
    for n in sizes:
        parse_only = instructions(n, False)
        after[n] = instructions(n, True) - parse_only
        print(f"{n:>7} {parse_only / n:>38,.0f} {after[n] / n:>24,.0f}", flush=True)
    for a, b in zip(sizes, sizes[1:], strict=False):
        print(f"after parse, {a} -> {b} (x{b / a:g} statements): x{after[b] / after[a]:.2f}")


if __name__ == "__main__":
    main(sys.argv[1:])
