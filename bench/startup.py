"""Start-up benchmark: `python bench/startup.py [--runs N] [FILE]` (default 21 runs of each case,
FILE = examples/attention.py, a 48-line kernel).

Each case is one whole process, as a user waits for it:
  python -c pass                the interpreter alone (the floor every row stands on);
  import libcst                 `python -c "import libcst"` (what a cold compile must import);
  --help                        `python -m pl.show_inferred --help`;
  cache hit                     `python -m pl.show_inferred FILE` with a cache folder that already
                                holds FILE's entry (filled by one uncounted run first);
  cold (--no-cache)             `python -m pl.show_inferred --no-cache FILE`.
Every process runs with bytecode caching on (`PYTHONDONTWRITEBYTECODE` removed from its
environment, and one uncounted round first writes the `__pycache__` files), as for an installed
package, whose `.pyc` files pip writes: compiling pl's sources again on every run would triple
the figures. Rounds run every case once in turn, so a slow spell of this shared machine falls on
all cases alike. For every case it prints the median and the minimum over the runs of the wall time and of
the CPU time (user + system, from `os.wait4`'s resource usage of the child), and the 1-minute load
average before and after. Every run must exit 0 with the expected output, or the benchmark stops.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def run_once(argv: list[str]) -> tuple[float, float]:
    """Wall and CPU (user + system) seconds of one process; it must exit 0."""
    t = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=ROOT, env=_ENV, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    assert proc.stderr is not None
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} exited {proc.returncode}:\n{err.decode()}")
    return wall, usage.ru_utime + usage.ru_stime


def cases(kernel: Path, cache_dir: Path) -> dict[str, list[str]]:
    py = sys.executable
    cli = [py, "-m", "pl.show_inferred"]
    return {"python -c pass": [py, "-c", "pass"],
            "import libcst": [py, "-c", "import libcst"],
            "--help": [*cli, "--help"],
            "cache hit": [*cli, "--cache-dir", str(cache_dir), str(kernel)],
            "cold (--no-cache)": [*cli, "--no-cache", str(kernel)]}


def measure(kernel: Path, runs: int) -> dict[str, list[tuple[float, float]]]:
    with tempfile.TemporaryDirectory(prefix="pl-startup-") as tmp:
        todo = cases(kernel, Path(tmp))
        for argv in todo.values():  # writes the bytecode caches and fills the compile cache
            run_once(argv)
        samples: dict[str, list[tuple[float, float]]] = {name: [] for name in todo}
        for _ in range(runs):
            for name, argv in todo.items():
                samples[name].append(run_once(argv))
        return samples


def main(argv: list[str]) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("file", nargs="?", type=Path, default=ROOT / "examples" / "attention.py")
    p.add_argument("--runs", type=int, default=21)
    args = p.parse_args(argv)
    lines = len(args.file.read_text(encoding="utf-8").splitlines())
    load_before = os.getloadavg()[0]
    samples = measure(args.file.resolve(), args.runs)
    load_after = os.getloadavg()[0]
    print(f"{args.runs} runs per case, {args.file.name} ({lines} lines), Python "
          f"{sys.version.split()[0]}, {os.cpu_count()} CPUs, load average {load_before:.2f} "
          f"before / {load_after:.2f} after")
    print(f"{'case':20} {'wall median':>12} {'wall min':>9} {'CPU median':>11} {'CPU min':>8}")
    for name, got in samples.items():
        wall = [w for w, _ in got]
        cpu = [c for _, c in got]
        print(f"{name:20} {statistics.median(wall):12.3f} {min(wall):9.3f} "
              f"{statistics.median(cpu):11.3f} {min(cpu):8.3f}")


if __name__ == "__main__":
    main(sys.argv[1:])
