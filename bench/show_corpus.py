"""show_inferred, verified, on every kernel of the reference's corpus: `python bench/show_corpus.py
OUT_DIR [--backend 910B] [--jobs 2]`, where OUT_DIR is the output folder of a run of
`../shared/corpus/run.py` (its shards hold each kernel's text).

For each kernel the extractor made ready, it runs what `python -m pl.show_inferred` runs on the
file (load statically, compile, regenerate, and verify that the regenerated text reads back to the
same programs and is a fixed point), then checks the `--ir` text the same way. It prints each
kernel whose run is an internal error (exit 123 for the command), a timeout or a crash, then the
counts by outcome: "ok", "user error" (a located PlError: the kernel is refused, as by the
compile the corpus run does, or it needs `--exec`), "internal", "timeout", "crash". A kernel that
compiles can still fail here: the printed form the corpus run checks is not what show_inferred
writes into the user's text.

`--left-as-written [--sample N] [--seed S] PATH ...` measures instead what the regeneration
shows: over kernel files (a `.py` file, or a folder of them such as examples/) and the ready
kernels a corpus run extracted (an OUT_DIR's kernels.jsonl; `--sample N` takes N of them at
random), it counts the
functions whose compiled form holds tiles, how many of them are left as written (a function
`show_inferred` does not regenerate: its note's reason, or no note at all, as for a module-level
`@pl.function`), by reason, and checks that every comment token of the input is in the output,
in the same order. Exit status 1 when a function with tiles is left as written, a comment is
lost, or a kernel gives an internal error or a crash.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
import re
import signal
import sys
import tokenize
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pl.errors import InternalError, PlError  # noqa: E402
from pl.ir.traverse import holds_tiles as ir_holds_tiles  # noqa: E402
from pl.show_inferred.annotate import rerun  # noqa: E402
from pl.show_inferred.run import run_text  # noqa: E402
from pl.show_inferred.verify import verify_ir  # noqa: E402

TIMEOUT = 30  # seconds per kernel


class _Timeout(Exception):
    pass


def _alarm(_sig: int, _frame: object) -> None:
    raise _Timeout()


def kernels(out_dir: Path) -> list[dict[str, Any]]:
    """The ready kernels of a corpus run, in shard order."""
    found = []
    for shard in sorted(out_dir.glob("shards/*.in.jsonl")):
        for line in shard.read_text(encoding="utf-8").splitlines():
            rec = json.loads(line)
            if rec.get("status") == "ready":
                found.append(rec)
    return found


def check(rec: dict[str, Any], backend: str | None) -> tuple[str, str]:
    """(outcome, detail) of show_inferred and its --ir check on one kernel's text."""
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(TIMEOUT)
    filename = f"/corpus/{rec['id'].replace('/', '_').replace(':', '_')}.py"
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            r = run_text(rec["src"], filename, backend=backend)
            verify_ir(r, rerun(backend=backend, residency=True, program=None))
        return "ok", ""
    except InternalError as e:
        return "internal", str(e)[:400]
    except PlError:
        return "user error", ""
    except _Timeout:
        return "timeout", f"over {TIMEOUT} s"
    except Exception as e:  # noqa: BLE001 - a crash is reported, not raised
        return "crash", f"{type(e).__name__}: {str(e)[:300]}"
    finally:
        signal.alarm(0)


def _check_all(args: tuple[list[dict[str, Any]], str | None]) -> list[tuple[str, str, str]]:
    recs, backend = args
    return [(rec["id"], *check(rec, backend)) for rec in recs]


def comments(text: str) -> list[str]:
    """The comment tokens of a Python text, in order."""
    toks = tokenize.generate_tokens(io.StringIO(text).readline)
    return [t.string for t in toks if t.type == tokenize.COMMENT]


def kept_in_order(before: list[str], after: list[str]) -> bool:
    """Whether `before` is a subsequence of `after`."""
    rest = iter(after)
    return all(any(c == d for d in rest) for c in before)


def holds_tiles(fn: Any) -> bool:
    """Whether a compiled function has a tile parameter or defines a tile."""
    return ir_holds_tiles(fn.params, fn.body)


def measure(name: str, text: str, backend: str | None) -> dict[str, Any]:
    """What show_inferred shows of one kernel text: {"outcome", "detail", "tiles": [function],
    "left": [(function, reason)], "comments_kept": bool}."""
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(TIMEOUT)
    out: dict[str, Any] = {"outcome": "ok", "detail": "", "tiles": [], "left": [],
                           "comments_kept": True}
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            r = run_text(text, name, backend=backend)
    except InternalError as e:
        out.update(outcome="internal", detail=str(e)[:400])
        return out
    except PlError:
        out.update(outcome="user error")
        return out
    except _Timeout:
        out.update(outcome="timeout", detail=f"over {TIMEOUT} s")
        return out
    except Exception as e:  # noqa: BLE001 - a crash is reported, not raised
        out.update(outcome="crash", detail=f"{type(e).__name__}: {str(e)[:300]}")
        return out
    finally:
        signal.alarm(0)
    reasons = {(i.program, i.name): i.kept_reason for i in r.functions}
    for c in r.compiled:
        for fn in c.program.functions:
            if not holds_tiles(fn):
                continue
            key = (c.source.name, fn.name)
            out["tiles"].append(f"{key[0]}.{key[1]}")
            reason = reasons.get(key)
            if reason is None or reason:
                out["left"].append((f"{key[0]}.{key[1]}", reason or "not regenerated, no note"))
    out["comments_kept"] = kept_in_order(comments(r.text), comments(r.output))
    return out


def _measure_all(args: tuple[list[tuple[str, str]], str | None]
                 ) -> list[tuple[str, dict[str, Any]]]:
    items, backend = args
    return [(name, measure(name, text, backend)) for name, text in items]


def _reason_class(reason: str) -> str:
    """A note's reason without its line numbers and names (to count reasons by kind)."""
    return re.sub(r"\b(line|lines) \d+", r"\1 N", reason.split(" (")[0] if reason.startswith(
        "not regenerated") else reason)


def left_as_written(paths: list[Path], sample: int | None, seed: int, backend: str | None,
                    jobs: int) -> int:
    """The `--left-as-written` measure (see the module doc); its exit status."""
    items: list[tuple[str, str]] = []
    corpus: list[tuple[str, str]] = []
    for path in paths:
        if path.is_dir() and (path / "kernels.jsonl").is_file():
            # Every kernel the run extracted (its shards hold only those its --filter ran).
            recs = [json.loads(line) for line in
                    (path / "kernels.jsonl").read_text(encoding="utf-8").splitlines()]
            corpus.extend((f"/corpus/{rec['id'].replace('/', '_').replace(':', '_')}.py",
                           rec["src"]) for rec in recs if rec.get("status") == "ready")
        elif path.is_dir():
            items.extend((str(f), f.read_text(encoding="utf-8")) for f in sorted(path.glob("*.py")))
        else:
            items.append((str(path), path.read_text(encoding="utf-8")))
    if sample is not None and len(corpus) > sample:
        corpus = random.Random(seed).sample(corpus, sample)
    items.extend(corpus)
    chunks = [(items[i::jobs], backend) for i in range(jobs)]
    outcomes: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    tiles = left = kernels_left = lost = 0
    with ProcessPoolExecutor(jobs) as pool:
        for results in pool.map(_measure_all, chunks):
            for name, m in results:
                outcomes[m["outcome"]] += 1
                if m["outcome"] not in ("ok", "user error"):
                    print(f"{m['outcome'].upper()} {name}: {m['detail']}")
                tiles += len(m["tiles"])
                left += len(m["left"])
                kernels_left += bool(m["left"])
                for fn, reason in m["left"]:
                    reasons[_reason_class(reason)] += 1
                    print(f"LEFT {name} {fn}: {reason}")
                if not m["comments_kept"]:
                    lost += 1
                    print(f"COMMENTS LOST {name}")
    print(f"{len(items)} kernels, backend {backend or 'none'}: "
          + ", ".join(f"{k} {v}" for k, v in outcomes.most_common()))
    print(f"functions holding tiles: {tiles}; left as written: {left} "
          f"(in {kernels_left} kernels); kernels losing a comment: {lost}")
    for reason, n in reasons.most_common():
        print(f"  {n:4d}  {reason}")
    return 1 if left or lost or outcomes["internal"] or outcomes["crash"] else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out_dir", type=Path, nargs="+",
                    help="output folder of ../shared/corpus/run.py (with --left-as-written: "
                         "also kernel files or folders of them)")
    ap.add_argument("--backend", default="910B", help="910B, 950 or none (default 910B)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--left-as-written", action="store_true",
                    help="count the functions with tiles left as written and lost comments")
    ap.add_argument("--sample", type=int, default=None,
                    help="with --left-as-written: this many corpus kernels, at random")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    backend = None if args.backend == "none" else args.backend
    if args.left_as_written:
        return left_as_written(args.out_dir, args.sample, args.seed, backend, args.jobs)
    if len(args.out_dir) != 1:
        ap.error("one OUT_DIR")
    args.out_dir = args.out_dir[0]
    recs = kernels(args.out_dir)
    if not recs:
        print(f"no ready kernels under {args.out_dir}/shards", file=sys.stderr)
        return 2
    chunks = [(recs[i::args.jobs], backend) for i in range(args.jobs)]
    counts: Counter[str] = Counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        for results in pool.map(_check_all, chunks):
            for kid, outcome, detail in results:
                counts[outcome] += 1
                if outcome not in ("ok", "user error"):
                    print(f"{outcome.upper()} {kid}: {detail}")
    print(f"{len(recs)} kernels, backend {args.backend}: "
          + ", ".join(f"{k} {v}" for k, v in counts.most_common()))
    return 1 if counts["internal"] or counts["crash"] else 0


if __name__ == "__main__":
    sys.exit(main())
