"""Every reference file that holds kernels, through `show_inferred` as a whole file, statically.

`python bench/reference_files.py --ref /path/to/pypto [--under examples] [--shape NAME=...]`
finds every `.py` file (but `__init__.py`) under `--ref` (or `--ref/--under`) whose text holds `@pl.jit`,
`@pl.program` or a `pld` distributed import, swaps only its import lines (`import pypto.language
as pl` -> `import pl`, the distributed module's import -> `import pl.distributed as pld`) and runs
it through `show_inferred` as a user would (read, never run; the compile cache off; the output
read back and verified), each file in a process of its own with a time limit. It prints one line
per file and a table of outcomes by kind:

- regenerated: every kernel typed; regenerated, some left as written: the notes say which;
- user error: a located PlError (what pl says is wrong, or not supported, in the file);
- internal error: pl's own bug (an InternalError, any other exception, a crash); timeout.

It also counts the kernels (functions of the compiled programs) shown typed and left as written,
and tabulates the kernels as the file holds them (each def decorated `@pl.jit...` or
`@pl.function...`, nested ones too, read with Python's `ast`): a kernel compiles and round-trips
when its file regenerates (the output is read back and verified); a file's error fails all its
kernels. `--jit-only` takes the files holding at least one `@pl.jit`-decorated def (a file that
only mentions it in a docstring or a string is counted apart, not run). `--shapes FILE` reads
`--shape` options, one a line (`#` comments). Nothing is written; the exit status is 1 when any
file is an internal error or a timeout.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

_SWAPS = (
    (re.compile(r"^(\s*)import pypto\.language\.distributed as (\w+)\s*$", re.M),
     r"\1import pl.distributed as \2"),
    (re.compile(r"^(\s*)from pypto\.language import distributed as (\w+)\s*$", re.M),
     r"\1from pl import distributed as \2"),
    (re.compile(r"^(\s*)import pypto\.language as (\w+)\s*$", re.M), r"\1import pl as \2"),
    (re.compile(r"^(\s*)from pypto import language as (\w+)\s*$", re.M), r"\1import pl as \2"),
)
_KERNELS = re.compile(r"@\w+\.jit\b|@\w+\.program\b|pypto\.language\.distributed|"
                      r"import distributed as")

_JIT = re.compile(r"@\w+\.jit\b")


def _decorated(decorator: ast.expr) -> str | None:
    """'jit' or 'function' for `@X.jit`, `@X.jit.incore(...)`, `@X.function(...)`; else None."""
    node = decorator.func if isinstance(decorator, ast.Call) else decorator
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    parts.reverse()
    return parts[0] if parts and parts[0] in ("jit", "function") else None


def kernels_of(text: str) -> Counter[str]:
    """The file's kernels by kind: defs decorated `@X.jit...` ('jit') or `@X.function...`."""
    found: Counter[str] = Counter()
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return found
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            kinds = {_decorated(d) for d in node.decorator_list} - {None}
            if kinds:
                found["jit" if "jit" in kinds else "function"] += 1
    return found

# Runs in the child: one file, its outcome as one JSON line.
_CHILD = r"""
import json, sys
from pl.errors import InternalError, PlError
from pl.show_inferred.run import run_text
path, shapes = sys.argv[1], sys.argv[2:]
text = sys.stdin.read()
try:
    r = run_text(text, path, shapes=tuple(shapes))
except InternalError as e:
    print(json.dumps({"kind": "internal error", "message": str(e).splitlines()[0][:300]}))
except PlError as e:
    where = f"{e.span.line}" if e.span is not None else "?"
    print(json.dumps({"kind": "user error", "message": f"line {where}: {e.message[:300]}"}))
except BaseException as e:
    print(json.dumps({"kind": "internal error", "message": f"{type(e).__name__}: {e}"[:300]}))
else:
    kept = [f"{i.program}.{i.name}: {i.kept_reason}" for i in r.functions if i.kept_reason]
    typed = sum(1 for i in r.functions if not i.kept_reason)
    kind = "regenerated" if not kept else "regenerated, some left as written"
    if not r.functions:
        kind = "nothing to show alone"  # only @pl.jit callees: shown through their entry
    print(json.dumps({"kind": kind, "typed": typed, "kept": len(kept),
                      "message": "; ".join(kept)[:300]}))
"""


def swapped(text: str) -> str:
    """The file's text with only its import lines of the reference's DSL swapped for pl's."""
    for pattern, repl in _SWAPS:
        text = pattern.sub(repl, text)
    return text


def run_one(path: Path, shapes: list[str], timeout: float) -> dict[str, object]:
    text = swapped(path.read_text(encoding="utf-8"))
    try:
        done = subprocess.run([sys.executable, "-c", _CHILD, str(path), *shapes], input=text,
                              capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"kind": "timeout", "message": f"more than {timeout:.0f} s"}
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        return {"kind": "internal error",
                "message": f"exit {done.returncode}: {done.stderr.strip()[-300:]}"}
    result: dict[str, object] = json.loads(lines[-1])
    return result


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--ref", type=Path, required=True, help="the reference's checkout")
    p.add_argument("--under", default="", help="only files under this folder of --ref")
    p.add_argument("--shape", action="append", default=[], help="passed to show_inferred")
    p.add_argument("--timeout", type=float, default=300.0, help="seconds per file")
    p.add_argument("--shapes", type=Path, help="a file of --shape options, one a line")
    p.add_argument("--jit-only", action="store_true",
                   help="only the files holding a @pl.jit-decorated def")
    args = p.parse_args(argv)
    root = args.ref / args.under if args.under else args.ref
    shapes = list(args.shape)
    if args.shapes is not None:
        lines = args.shapes.read_text(encoding="utf-8").splitlines()
        shapes += [ln.split("#")[0].strip() for ln in lines if ln.split("#")[0].strip()]
    candidates = sorted(f for f in root.rglob("*.py") if f.name != "__init__.py"
                        and (_JIT if args.jit_only else _KERNELS).search(
                            f.read_text(encoding="utf-8", errors="replace")))
    counts = {f: kernels_of(f.read_text(encoding="utf-8", errors="replace"))
              for f in candidates}
    files = [f for f in candidates if not args.jit_only or counts[f]["jit"]]
    kinds: Counter[str] = Counter()
    by_kernel: Counter[str] = Counter()
    typed = kept = 0
    for f in files:
        r = run_one(f, shapes, args.timeout)
        kinds[str(r["kind"])] += 1
        by_kernel[str(r["kind"])] += sum(counts[f].values())
        typed += int(str(r.get("typed", 0)))
        kept += int(str(r.get("kept", 0)))
        print(f"{f.relative_to(args.ref)}: {r['kind']}"
              + (f" ({r['typed']} typed)" if "typed" in r else "")
              + (f": {r['message']}" if r.get("message") else ""), flush=True)
    print(f"\n{len(files)} files")
    if len(files) < len(candidates):
        print(f"({len(candidates) - len(files)} more name @pl.jit only in text: no decorated def)")
    print("| outcome | files | kernels |\n|---|---|---|")
    for kind, n in sorted(kinds.items()):
        print(f"| {kind} | {n} | {by_kernel[kind]} |")
    total = sum(by_kernel.values())
    ok = by_kernel["regenerated"] + by_kernel["regenerated, some left as written"]
    print(f"\nkernels (decorated defs): {total}; in files that regenerate (compile and "
          f"round-trip): {ok} ({100 * ok / max(total, 1):.1f}%); in files of only callees "
          f"(shown through another file's entry): {by_kernel['nothing to show alone']}")
    print(f"functions of the compiled programs shown typed: {typed}; left as written: {kept}")
    return 1 if kinds["internal error"] or kinds["timeout"] else 0


if __name__ == "__main__":
    sys.exit(main())
