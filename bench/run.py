"""Compile-time benchmark: `python bench/run.py [N ...] [--memory] [--stages]` (default N = 1000
5000 20000; `--stages` times only the parse, lowering, passes and print, for quick iteration).

For each N it generates the kernel of bench/generate.py and times, side by side in one process:
  libcst.parse_module      the bare LibCST parse of the text (the yardstick);
  CPython parse (ast)      pl's other parse of the text, `parse_python` (CPython's parser, which
                           checks the text before LibCST sees it and gives every position): a
                           parse, like the row above, so not in "after parse, total";
  lower (CST -> IR)        lowering to IR WITHOUT the parses: the trees the two parses made are
                           lowered by `lowering.frontend.parse.parse_tree` under fresh names
                           (pairing the statements of the two trees is inside the timing);
  each pass                of the default pipeline (910B), on the previous pass's output, with
                           the cyclic GC paused as `pl.compile` runs them (lowering and print
                           pause it themselves);
  print                    `pl.python_print` of the compiled program;
  show_inferred            `pl.show_inferred.run.run_text(text, filename, backend="910B")`: the whole
                           regeneration an editor runs on save (reading the file, which parses it
                           once and lowers it, compiling, and rendering the rewritten tree),
                           no cache;
  cache cold / warm        the same with a fresh cache folder, then again (a hit).
Stage rows are the best of 5 rounds (of 25 timings for lowering, the passes and print, which
cost little beside a parse), after a round that is not counted; within a round each stage runs
for every size back to back, so a slow spell of the machine (they last seconds to minutes here)
falls on the sizes it compares alike, and each timing at a smaller size runs the stage on
(largest N / N) distinct inputs in a row, so timings span about the same wall time at every size
(see `_stage_round`). The show_inferred and cache rows are the best of 4 rounds made the same
way (see `measure_regeneration`). It prints one table per N with each row's best seconds, its
ratio to the bare parse and its cost per statement; "after parse, total" sums lowering, the passes
and print. Then the scaling factor of every row between consecutive sizes (linear: x4 for 5000 ->
20000): the median, over the timings of the row, of (time at the larger size / time at the smaller
size) for the two timings taken back to back, beside the ratio of the two best times (see
`scaling`).
`--memory` also reports the peak traced memory (tracemalloc) of show_inferred at the largest N.

`python bench/run.py --process [N ...]` (default N = 5000 20000) times what a user waits for,
whole cold processes on the benchmark kernel written to a file: the bare LibCST parse
(`python -c "import libcst; libcst.parse_module(open(F).read())"`, the yardstick), the LibCST
parses of the file and of its regenerated text (what a read-back that parsed the output cost;
pl/show_inferred/verify.py reads back the output's tree assembled from the input's parse
instead) and `python -m pl.show_inferred --no-cache F` plain, with
--explain, --json and --ir, the commands
taking turns, PROCESS_ROUNDS rounds; per command the best CPU seconds (user + system of the
process, which the machine's other tenants hardly move) and wall seconds, each also as a multiple
of the bare parse's, and the peak resident memory. Then the growth of
`pl.passes.infer_tile_memory_space` called through the public API from 2,000 to 8,000
statements (see `infer_scaling`). Every process runs with bytecode caching on
(`PYTHONDONTWRITEBYTECODE` removed from its environment, and each command run once on a small
kernel first, uncounted, which writes the `__pycache__` files), as bench/startup.py runs them:
an installed package has its `.pyc` files (pip writes them), and the yardstick's LibCST has
them, so compiling pl's sources again in every process (about 0.5 s of CPU, half a bare parse
at 5,000 statements) would be counted against pl alone.
"""

from __future__ import annotations

import ast
import gc
import os
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Iterable
from functools import partial
from itertools import count
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import libcst  # noqa: E402

from bench.generate import kernel_source  # noqa: E402
from pl.compiler import default_passes  # noqa: E402
from pl.gc_pause import gc_paused  # noqa: E402
from pl.lowering.frontend.parse import parse_tree  # noqa: E402
from pl.lowering.source.python import parse_python  # noqa: E402
from pl.passes import infer_tile_memory_space  # noqa: E402
from pl.printer.program import print_node  # noqa: E402
from pl.show_inferred.annotate import load_programs  # noqa: E402
from pl.show_inferred.run import run_text  # noqa: E402

_NAMES = count()
# Every timing of every row, per size, in the order taken: the i-th timings of a row at two sizes
# were taken back to back (see `scaling`).
Samples = dict[int, dict[str, list[float]]]
_NOT_IN_TOTAL = {"libcst.parse_module", "CPython parse (ast)", "show_inferred", "cache cold",
                 "cache warm"}


def mean_over(fn: Callable[[Any], Any], inputs: list[Any], sweeps: int = 1) -> tuple[float, list[Any]]:
    """The mean time of `fn` on each input, `sweeps` times over all inputs back to back in one
    timing, and the last sweep's results (every result lives until the timing ends, so none is
    freed inside it). The stages it times pause the cyclic GC, so garbage left between timings
    never runs inside one; the caller collects once per stage (see `_stage_round`)."""
    t = time.perf_counter()
    results = [[fn(x) for x in inputs] for _ in range(sweeps)]
    return (time.perf_counter() - t) / (len(inputs) * sweeps), results[-1]


def _timed_lowering(text: str, trees: list[tuple[libcst.Module, ast.Module]]
                    ) -> tuple[float, list[Any]]:
    """The mean time of lowering each (LibCST, CPython) pair of trees of `text` in `trees`
    (without the parses), each under a fresh file name."""
    return mean_over(lambda pair: parse_tree(text, *pair, filename=f"<bench{next(_NAMES)}>"),
                      trees)


def _paused(p: Any, program: Any) -> Any:
    with gc_paused():
        return p(program)


def _copies(sizes: Iterable[int]) -> dict[int, int]:
    """Per size N, the runs one timing makes: (largest N / N), so that timings span about the same
    wall time at every size."""
    largest = max(sizes)
    return {n: max(1, round(largest / n)) for n in sizes}


ROUNDS = 5
REPEATS = 5  # timings of lowering, each pass and print per size and round (cheap beside a parse)
SWEEP_SECONDS = 0.2  # the least length of a pass's or print's timing (see `_stage_round`)


def _stage_round(texts: dict[int, str], backend: str | None, sweeps: dict[str, int]) -> Samples:
    """One timing of every stage (the parse, lowering, each pass, print) for every size.

    The order is stage-major: a stage runs for each size back to back, so the machine is in the
    same state when the sizes it compares are timed. Each timing at a size n runs the stage on
    `largest / n` inputs back to back and counts the mean, so timings span about the same wall
    time at every size: best-of timings favour short ones, which are likelier to slip between two
    of this machine's slow spells. The inputs are distinct objects, never one input repeated
    within a timing (a compile never finds its program in cache, so neither may a timing): the
    parse makes a new tree per run, lowering lowers those trees, each under a new file name, and
    each pass and print take the distinct programs the stage before made. At every size the inputs of a timing together span about the largest
    size's program, more than this machine's caches hold. Lowering, the passes and print are timed
    REPEATS times per round. A pass or print that takes less than SWEEP_SECONDS at the largest
    size runs `sweeps[stage]` times over its inputs per timing: a timing of a few milliseconds is
    at the mercy of the machine's shortest hiccups, and sweeping again reuses the same memory at
    every size."""
    copies = _copies(texts)
    times: Samples = {n: {} for n in texts}

    def record(n: int, stage: str, sec: float) -> None:
        times[n].setdefault(stage, []).append(sec)

    trees: dict[int, list[tuple[libcst.Module, ast.Module]]] = {}
    for n, text in texts.items():
        gc.collect()
        sec, cst_trees = mean_over(libcst.parse_module, [text] * copies[n])
        record(n, "libcst.parse_module", sec)
        gc.collect()
        sec, python_trees = mean_over(lambda t: parse_python(t, "<bench>"), [text] * copies[n])
        record(n, "CPython parse (ast)", sec)
        trees[n] = list(zip(cst_trees, python_trees, strict=True))
    programs: dict[int, list[Any]] = {}
    gc.collect()
    for _ in range(REPEATS):
        for n, text in texts.items():
            sec, programs[n] = _timed_lowering(text, trees[n])
            record(n, "lower (CST -> IR)", sec)
    del trees
    for p in default_passes(backend):
        outputs = {}
        gc.collect()
        for _ in range(REPEATS):
            for n in texts:
                sec, outputs[n] = mean_over(partial(_paused, p), programs[n], sweeps.get(p.name, 1))
                record(n, p.name, sec)
        programs = outputs
    gc.collect()
    for _ in range(REPEATS):
        for n in texts:
            sec, _ = mean_over(print_node, programs[n], sweeps.get("print", 1))
            record(n, "print", sec)
    return times


def measure_stages(sizes: list[int], backend: str | None = "910B") -> Samples:
    """The timings of ROUNDS rounds for every stage and size (see `_stage_round` for the order),
    after one round that warms the process up and sets each stage's sweeps, and is not counted."""
    texts = {n: kernel_source(n) for n in sizes}
    first = _stage_round(texts, backend, {})[max(sizes)]
    sweeps = {stage: max(1, round(SWEEP_SECONDS / min(secs))) for stage, secs in first.items()}
    samples: Samples = {n: {} for n in sizes}
    for _ in range(ROUNDS):
        for n, times in _stage_round(texts, backend, sweeps).items():
            for stage, secs in times.items():
                samples[n].setdefault(stage, []).extend(secs)
    return samples


REGENERATION_ROUNDS = 4
WARM_TIMINGS = 3


def measure_regeneration(sizes: list[int], backend: str | None = "910B") -> Samples:
    """The whole show_inferred regeneration and the same through the compile cache, cold (an
    empty cache folder) and warm (a hit), the sizes taking turns and each timing spanning about
    the same wall time, as in `_stage_round`: at a smaller size N a timing runs (largest N / N)
    regenerations, under new file names, or cold runs, each under a new file name with its own
    empty folder, then as many warm runs of those. REGENERATION_ROUNDS timings of each row, and
    WARM_TIMINGS per round of the warm one."""
    texts = {n: kernel_source(n) for n in sizes}
    copies = _copies(sizes)
    rows = ("show_inferred", "cache cold", "cache warm")
    times: Samples = {n: {row: [] for row in rows} for n in sizes}

    def record(n: int, row: str, sec: float) -> None:
        times[n][row].append(sec)

    for _ in range(REGENERATION_ROUNDS):
        for n, text in texts.items():
            names = [f"<show{next(_NAMES)}>" for _ in range(copies[n])]
            gc.collect()
            record(n, "show_inferred", mean_over(partial(_regenerate, text, backend), names)[0])
        for n, text in texts.items():
            with tempfile.TemporaryDirectory() as root:
                runs = [(f"<cached{next(_NAMES)}>", str(Path(root, str(i)))) for i in range(copies[n])]
                cached = partial(_cached_run, text, backend)
                gc.collect()
                record(n, "cache cold", mean_over(cached, runs)[0])
                for _ in range(WARM_TIMINGS):
                    record(n, "cache warm", mean_over(cached, runs)[0])
    return times


def _cached_run(text: str, backend: str | None, run: tuple[str, str]) -> Any:
    """show_inferred of `text` through the compile cache, under `run`'s (file name, cache folder):
    a new file name per cold run, so no LibCST parse is reused, and the same again when warm."""
    filename, folder = run
    return run_text(text, filename, backend=backend, cache_dir=folder)


def _regenerate(text: str, backend: str | None, filename: str) -> Any:
    """One show_inferred regeneration of `text` under `filename`, a new one (no parse is reused)."""
    return run_text(text, filename, backend=backend)


def peak_memory(n: int) -> float:
    """Peak traced memory (MiB) of one show_inferred run at N statements."""
    text = kernel_source(n)
    gc.collect()
    tracemalloc.start()
    run_text(text, f"<mem{n}>", backend="910B")
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 2**20


# -- whole processes ------------------------------------------------------------------------------
PROCESS_ROUNDS = 3
# The commands timed as whole processes, on the kernel file F: the yardstick first.
BARE_PARSE = "bare LibCST parse"
PARSE_BOTH = "LibCST parse, input + output"
PROCESS_ROWS: dict[str, list[str]] = {
    BARE_PARSE: ["-c", "import sys, libcst; libcst.parse_module(open(sys.argv[1]).read())"],
    # The file and its regenerated text (which `measure_processes` writes beside it as
    # F.inferred): what a verified run parsed while it read the output back by parsing it
    # (pl/show_inferred/verify.py now loads the tree assembled from the input's parse).
    PARSE_BOTH: ["-c", "import sys, libcst; [libcst.parse_module(open(f).read()) "
                       "for f in (sys.argv[1], sys.argv[1] + '.inferred')]"],
    "show_inferred --no-cache": ["-m", "pl.show_inferred", "--no-cache"],
    "  --explain": ["-m", "pl.show_inferred", "--no-cache", "--explain"],
    "  --json": ["-m", "pl.show_inferred", "--no-cache", "--json"],
    "  --ir": ["-m", "pl.show_inferred", "--no-cache", "--ir"],
}


# The environment of every process: bytecode caching on (see the module doc).
_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def process_seconds(args: list[str], path: str) -> tuple[float, float, float]:
    """One cold Python process `python ARGS PATH` (output discarded): its CPU seconds (user +
    system: what the process itself did, whatever else the machine runs), wall seconds and peak
    resident memory (MiB). A non-zero exit is an error: a crash must not pass for a fast run."""
    start = time.perf_counter()
    child = subprocess.Popen([sys.executable, *args, path], stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, env=_ENV)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    err = child.stderr.read().decode() if child.stderr is not None else ""
    if child.stderr is not None:
        child.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"{' '.join(args)} {path} failed: {err}")
    return usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss / 1024


def measure_processes(sizes: list[int]) -> dict[int, dict[str, list[tuple[float, float, float]]]]:
    """PROCESS_ROUNDS runs of every PROCESS_ROWS command per size, the rows taking turns within a
    round (so a slow spell of the machine falls on the commands it compares alike), each on the
    benchmark kernel written to a file."""
    out: dict[int, dict[str, list[tuple[float, float, float]]]] = {n: {} for n in sizes}
    with tempfile.TemporaryDirectory() as folder:
        files = {n: Path(folder, f"kernel_{n}.py") for n in sizes}
        # Uncounted: each command once on a small kernel, which writes the `__pycache__` files.
        small = Path(folder, "warm_up.py")
        small.write_text(kernel_source(10), encoding="utf-8")
        small.with_name(f"{small.name}.inferred").write_text(kernel_source(10), encoding="utf-8")
        for args in PROCESS_ROWS.values():
            process_seconds(args, str(small))
        for n, f in files.items():
            f.write_text(kernel_source(n), encoding="utf-8")
            # Regenerated by a child: a child's peak resident memory counts its parent's at the
            # fork, so the parent must not hold a compile's heap when it starts the rows.
            with open(f"{f}.inferred", "wb") as inferred:
                subprocess.run([sys.executable, "-m", "pl.show_inferred", "--no-cache", str(f)],
                               stdout=inferred, check=True, env=_ENV)
        for _ in range(PROCESS_ROUNDS):
            for n, f in files.items():
                for row, args in PROCESS_ROWS.items():
                    out[n].setdefault(row, []).append(process_seconds(args, str(f)))
    return out


def _process_table(n: int, runs: dict[str, list[tuple[float, float, float]]]) -> None:
    """Best CPU and wall seconds per command, and each as a multiple of the bare parse's."""
    cpu = {row: min(r[0] for r in rs) for row, rs in runs.items()}
    wall = {row: min(r[1] for r in rs) for row, rs in runs.items()}
    print(f"\nwhole processes, N = {n} (best of {len(runs[BARE_PARSE])})")
    print(f"{'command':28} {'CPU s':>7} {'x bare':>7} {'wall s':>7} {'x bare':>7} {'peak MiB':>9}")
    for row, rs in runs.items():
        peak = max(r[2] for r in rs)
        print(f"{row:28} {cpu[row]:7.2f} {cpu[row] / cpu[BARE_PARSE]:7.2f} "
              f"{wall[row]:7.2f} {wall[row] / wall[BARE_PARSE]:7.2f} {peak:9.0f}")
    sys.stdout.flush()


# -- one public pass, with the collector as a caller finds it ----------------------------------------
INFER_TIMINGS = 9


def infer_scaling(small: int = 2000, large: int = 8000) -> tuple[float, float]:
    """How `pl.passes.infer_tile_memory_space("910B")` grows from `small` to `large` statements
    when called through the public API, the cyclic GC in whatever state the caller left it (on):
    the median over INFER_TIMINGS paired timings (the two sizes back to back) of large / small,
    and the ratio of the best times. Its input is the benchmark program after the passes before
    it, each also called through `pl.passes`."""
    programs = {}
    for n in (small, large):
        (program,) = load_programs(kernel_source(n), f"<infer{n}>")
        for p in default_passes("910B")[:-1]:
            program = p(program)
        programs[n] = program
    infer = infer_tile_memory_space("910B")
    infer(programs[small])  # warm-up
    times: dict[int, list[float]] = {small: [], large: []}
    for _ in range(INFER_TIMINGS):
        for n in (small, large):
            gc.collect()
            t = time.perf_counter()
            infer(programs[n])
            times[n].append(time.perf_counter() - t)
    return scaling(times[small], times[large])


def main(argv: list[str]) -> None:
    if "--process" in argv:  # whole processes only (see the module doc)
        sizes = [int(a) for a in argv if not a.startswith("--")] or [5000, 20000]
        for n, runs in measure_processes(sizes).items():
            _process_table(n, runs)
        paired, of_best = infer_scaling()
        print("\npl.passes.infer_tile_memory_space, 2000 -> 8000 statements (x4): "
              f"x{paired:.2f} paired median, x{of_best:.2f} ratio of best times")
        return
    memory = "--memory" in argv
    stages_only = "--stages" in argv
    sizes = [int(a) for a in argv if not a.startswith("--")] or [1000, 5000, 20000]
    samples = measure_stages(sizes)
    if not stages_only:
        for n, times in measure_regeneration(sizes).items():
            samples[n].update(times)
    for n in sizes:
        _table(n, {row: min(secs) for row, secs in samples[n].items()})
    for a, b in zip(sizes, sizes[1:], strict=False):
        print(f"\nscaling {a} -> {b} (x{b / a:g} statements): median of paired timings, "
              "ratio of best times")
        for row in samples[a]:
            paired, of_best = scaling(samples[a][row], samples[b][row])
            print(f"  {row:28} x{paired:.2f}   x{of_best:.2f}")
    if memory:
        print(f"\npeak traced memory of show_inferred at N = {sizes[-1]}: "
              f"{peak_memory(sizes[-1]):.0f} MiB")


def scaling(smaller: list[float], larger: list[float]) -> tuple[float, float]:
    """How a row's time grows from one size to the next: the median over its paired timings (the
    i-th timing at each size, taken back to back) of larger / smaller, and the ratio of the best
    times.

    Timings here vary by up to half from one second to the next (the machine's other tenants), in
    spells shorter than a round. A pair shares the machine's state, so its ratio carries little of
    that, and the median drops the pairs a spell split. The ratio of two best-of times instead
    rests on the luck of each size's single fastest timing: resampling 150 pairs of this
    benchmark's timings 25 at a time (SSA, tensor-to-tile and inference at 5,000 and 20,000), its
    90% range was 1.2 to 4.2 times as wide as the paired median's, both centred alike."""
    paired = statistics.median(b / a for a, b in zip(smaller, larger, strict=True))
    return paired, min(larger) / min(smaller)


def _table(n: int, times: dict[str, float]) -> None:
    base = times["libcst.parse_module"]
    print(f"\nN = {n}")
    print(f"{'stage':28} {'seconds':>9} {'x parse':>8} {'us/stmt':>9}")
    after = 0.0
    for stage, sec in times.items():
        if stage not in _NOT_IN_TOTAL:
            after += sec
        print(f"{stage:28} {sec:9.4f} {sec / base:8.3f} {sec / n * 1e6:9.1f}")
    print(f"{'after parse, total':28} {after:9.4f} {after / base:8.3f} {after / n * 1e6:9.1f}")
    if "cache warm" in times:
        print(f"{'cache warm / cold':28} {times['cache warm'] / times['cache cold']:9.4f}")
    sys.stdout.flush()


if __name__ == "__main__":
    main(sys.argv[1:])
