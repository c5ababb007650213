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
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import signal
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pl.errors import InternalError, PlError  # noqa: E402
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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out_dir", type=Path, help="output folder of ../shared/corpus/run.py")
    ap.add_argument("--backend", default="910B", help="910B, 950 or none (default 910B)")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args(argv)
    backend = None if args.backend == "none" else args.backend
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
