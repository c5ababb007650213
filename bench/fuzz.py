"""Longer mutation-fuzz run: `python bench/fuzz.py --count 5000 --seed N [--shrink]
[--corpus OUT_DIR] [FILE ...]`.

Mutates the kernel files (default: every file in examples/; with `--corpus`, every kernel that
compiled in a corpus run, `../shared/corpus/run.py --out OUT_DIR`, each written to a file named
after its corpus id) with the seeded edits of
tests/fuzz_support.py (token edits, op and keyword swaps, injected statements, and whole-file
mutations: BOM, CRLF, deep nesting, huge numbers, module-level side effects), runs each mutant
through `python -m pl.show_inferred`'s code path in-process, verifies each successful run's
output (re-parses, fixed point, same programs, same results under pl.interpret), and prints a
summary: cases run, outcomes by kind, and each distinct failure (an exit status other than 0/2,
an exception escaping the CLI, a traceback, an exception class name, an unlocated diagnostic, a
hang, module code that ran, a broken invariant) with its first reproduction. Exit status 1 when
some failure was found, else 0.
"""

from __future__ import annotations

import argparse
import itertools
import json
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from fuzz_support import (  # noqa: E402
    CHECKS,
    EDIT_KINDS,
    FILE_KINDS,
    describe,
    fuzz,
    run_cli,
    shrink,
    signature,
    verify,
)

from bench.show_corpus import kernels  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python bench/fuzz.py", description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*", type=Path, help="kernel files (default: examples/*.py)")
    ap.add_argument("--count", type=int, default=1000, help="number of mutants (default 1000)")
    ap.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    ap.add_argument("--timeout", type=float, default=20.0, help="seconds per mutant (default 20)")
    ap.add_argument("--shrink", action="store_true",
                    help="reduce each failure's reproduction line by line")
    ap.add_argument("--file-kinds", default=",".join(FILE_KINDS),
                    help="whole-file mutations to use, comma-separated (default: all of "
                         f"{','.join(FILE_KINDS)}; '' for none)")
    ap.add_argument("--file-share", type=float, default=0.3,
                    help="share of whole-file mutations among the mutants (default 0.3)")
    ap.add_argument("--edit-kinds", default=",".join(EDIT_KINDS),
                    help=f"token-level edits to use (default: all of {','.join(EDIT_KINDS)})")
    ap.add_argument("--checks", default=",".join(CHECKS),
                    help="invariants checked beyond the exit status (default: all of "
                         f"{','.join(CHECKS)}; 'outputs': successful runs' outputs re-parse, are "
                         "fixed points, compile to the same programs and compute the same)")
    ap.add_argument("--corpus", type=Path, metavar="OUT_DIR",
                    help="also mutate every kernel that compiled in this corpus run's output "
                         "folder (the reference's own kernels: a far wider seed than the tests)")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="pl_fuzz_corpus_") as corpus_folder:
        sources = list(args.files)
        if args.corpus is not None:
            sources += corpus_files(args.corpus, Path(corpus_folder))
        return _run(args, sources or sorted((ROOT / "examples").glob("*.py")))


def corpus_files(out_dir: Path, folder: Path) -> list[Path]:
    """Every ready kernel of a corpus run that compiled there, written into `folder` as a file
    named after its corpus id (so a failure names the kernel)."""
    compiled = set()
    for line in (out_dir / "results.jsonl").read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        if rec.get("outcome") == "ok":
            compiled.add(rec["id"])
    paths = []
    for rec in kernels(out_dir):
        if rec["id"] in compiled:
            path = folder / (re.sub(r"[^A-Za-z0-9_]", "_", rec["id"]) + ".py")
            path.write_text(rec["src"], encoding="utf-8")
            paths.append(path)
    return paths


def _run(args: argparse.Namespace, sources: list[Path]) -> int:
    blank = [p for p in sources if not p.read_text(encoding="utf-8").strip()]
    if blank:  # nothing to mutate (a package's empty __init__.py)
        print(f"skipped {len(blank)} blank file(s): {', '.join(map(str, blank))}", file=sys.stderr)
        sources = [p for p in sources if p not in blank]
    if not sources:
        print("no kernel files to mutate", file=sys.stderr)
        return 2
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="pl_fuzz_") as tmp:
        folder = Path(tmp)

        def progress(n: int) -> None:
            if n % 250 == 0:
                print(f"  ... {n}/{args.count} ({time.perf_counter() - start:.0f}s)",
                      file=sys.stderr)

        chosen = {}
        for option, allowed in (("file_kinds", FILE_KINDS), ("edit_kinds", EDIT_KINDS),
                                ("checks", CHECKS)):
            chosen[option] = [k for k in getattr(args, option).split(",") if k]
            unknown = sorted(set(chosen[option]) - set(allowed))
            if unknown:
                print(f"unknown {option.replace('_', ' ')}: {', '.join(unknown)}", file=sys.stderr)
                return 2
        report = fuzz(sources, args.count, args.seed, folder, args.timeout, progress,
                      file_share=args.file_share, **chosen)
        elapsed = time.perf_counter() - start
        print(f"fuzz: {report.cases} cases from {len(sources)} file(s), seed {args.seed}, "
              f"{elapsed:.1f}s")
        for kind, n in sorted(report.kinds.items(), key=lambda kv: -kv[1]):
            print(f"  {kind:<11} {n}")
        print(f"distinct failures: {len(report.failures)}")
        tries = itertools.count()
        originals = {p.name: p.read_text(encoding="utf-8") for p in sources}
        for n, failure in enumerate(report.failures.values(), start=1):
            reduced = None
            if args.shrink:
                sig = failure.signature

                def fails(text: str, sig: str = sig, n: int = n) -> bool:
                    name = f"shrink_{n}_{next(tries)}"
                    out = run_cli(text, folder, name, args.timeout, chosen["checks"])
                    if "outputs" in chosen["checks"]:
                        out = verify(out, folder, name, args.timeout)
                    return out.failed and signature(out) == sig

                reduced = shrink(failure.mutant.text, fails)
            print(f"\n[{n}] " + describe(failure, originals[failure.source], reduced))
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main())
