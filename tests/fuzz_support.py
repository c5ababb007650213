"""Mutation fuzzing of kernel files: seeded token-level edits, run through the CLI in-process.

Guarantees: `mutate(text, rng)` is a pure function of the text and the generator's state (same seed,
same mutant); every mutant differs from its source. `run_cli(text, folder, name)` writes the mutant
to its own file (fresh names keep linecache and the frontend's per-file caches honest) and runs
`pl.show_inferred.main([path])` with stdout/stderr captured, never letting an exception out.
`classify` sorts an outcome into "ok" (exit 0), "diagnostic" (exit 2, one located error, no
traceback) or a failure kind; `signature` names a failure so that repeats of one bug collapse.
`fuzz(...)` ties these together and `shrink` reduces a failing mutant line by line.
"""

from __future__ import annotations

import contextlib
import difflib
import io
import keyword
import random
import re
import signal
import tokenize
import traceback
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

OK_KINDS = ("ok", "diagnostic")
_LOC = re.compile(r"^\s*--> .+:\d+:\d+\s*$", re.M)
_FRAME = re.compile(r'File "(?P<file>[^"]+)", line (?P<line>\d+), in (?P<fn>\S+)')
_OPERATORS = ["+", "-", "*", "/", "//", "%", "<", ">", "==", "!=", "<=", ">=", "**", "&", "|",
              "=", ":", ",", "."]
_NUMBERS = ["0", "-1", "2147483648", "1e30", "0.5"]


@dataclass(frozen=True)
class Tok:
    kind: int
    text: str
    line: int  # 0-based line index
    col: int  # 0-based character column
    end: int  # exclusive end column on the same line


@dataclass(frozen=True)
class Mutant:
    text: str
    edits: tuple[str, ...]


@dataclass(frozen=True)
class Outcome:
    kind: str  # "ok", "diagnostic", or a failure: "crash", "status", "traceback", "unlocated", "timeout"
    status: int | None
    out: str
    err: str
    detail: str = ""

    @property
    def failed(self) -> bool:
        return self.kind not in OK_KINDS


@dataclass
class Failure:
    signature: str
    source: str  # the example file the mutant came from
    mutant: Mutant
    outcome: Outcome
    count: int = 1


@dataclass
class Report:
    cases: int = 0
    kinds: dict[str, int] = field(default_factory=dict)
    failures: dict[str, Failure] = field(default_factory=dict)


# -- tokens and edits -------------------------------------------------------------------------

def tokens(text: str) -> list[Tok]:
    """The single-line, non-layout tokens of `text` (empty if Python cannot tokenize it)."""
    out: list[Tok] = []
    skip = {tokenize.NEWLINE, tokenize.NL, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER,
            tokenize.COMMENT, tokenize.ENCODING}
    try:
        for t in tokenize.generate_tokens(io.StringIO(text).readline):
            if t.type in skip or t.start[0] != t.end[0]:
                continue
            out.append(Tok(t.type, t.string, t.start[0] - 1, t.start[1], t.end[1]))
    except (tokenize.TokenError, SyntaxError):
        pass
    return out


def _replace(lines: list[str], tok: Tok, new: str) -> None:
    s = lines[tok.line]
    lines[tok.line] = s[:tok.col] + new + s[tok.end:]


def _edit(lines: list[str], toks: list[Tok], rng: random.Random) -> str | None:
    """Apply one random edit to `lines` in place; its description, or None if it did not apply."""
    op = rng.choice(["delete", "duplicate", "swap", "name", "number", "operator", "drop_line",
                     "indent"])
    if op in ("drop_line", "indent") or not toks:
        code = [i for i, ln in enumerate(lines) if ln.strip()]
        if not code:
            return None
        i = rng.choice(code)
        if op == "drop_line":
            desc = f"line {i + 1}: drop {lines[i].strip()!r}"
            del lines[i]
            return desc
        body = lines[i].lstrip(" \t")
        indent = len(lines[i]) - len(body)
        width = max(0, indent + rng.choice([-8, -4, -1, 1, 4]))
        lines[i] = " " * width + body
        return f"line {i + 1}: indent {indent} -> {width}"
    t = rng.choice(toks)
    where = f"line {t.line + 1}:{t.col + 1}"
    if op == "delete":
        _replace(lines, t, "")
        return f"{where}: delete {t.text!r}"
    if op == "duplicate":
        _replace(lines, t, f"{t.text} {t.text}")
        return f"{where}: duplicate {t.text!r}"
    if op == "swap":
        pairs = [(a, b) for a, b in zip(toks, toks[1:], strict=False) if a.line == b.line]
        if not pairs:
            return None
        a, b = rng.choice(pairs)
        s = lines[a.line]
        lines[a.line] = s[:a.col] + b.text + s[a.end:b.col] + a.text + s[b.end:]
        return f"line {a.line + 1}:{a.col + 1}: swap {a.text!r} and {b.text!r}"
    if op == "name":
        names = [x for x in toks if x.kind == tokenize.NAME and not keyword.iskeyword(x.text)]
        vocab = sorted({x.text for x in names})
        if not names or len(vocab) < 2:
            return None
        t = rng.choice(names)
        new = rng.choice([v for v in vocab if v != t.text])
        _replace(lines, t, new)
        return f"line {t.line + 1}:{t.col + 1}: name {t.text!r} -> {new!r}"
    if op == "number":
        nums = [x for x in toks if x.kind == tokenize.NUMBER]
        if not nums:
            return None
        t = rng.choice(nums)
        new = rng.choice([n for n in _NUMBERS if n != t.text])
        _replace(lines, t, new)
        return f"line {t.line + 1}:{t.col + 1}: number {t.text} -> {new}"
    ops = [x for x in toks if x.kind == tokenize.OP and x.text in _OPERATORS]
    if not ops:
        return None
    t = rng.choice(ops)
    new = rng.choice([o for o in _OPERATORS if o != t.text])
    _replace(lines, t, new)
    return f"line {t.line + 1}:{t.col + 1}: operator {t.text!r} -> {new!r}"


def mutate(text: str, rng: random.Random, max_edits: int = 2) -> Mutant:
    """A mutant of `text` with 1..max_edits random token-level edits (always different)."""
    for _ in range(100):
        lines = text.split("\n")
        edits: list[str] = []
        for _ in range(rng.randint(1, max_edits)):
            desc = _edit(lines, tokens("\n".join(lines)), rng)
            if desc is not None:
                edits.append(desc)
        new = "\n".join(lines)
        if edits and new != text:
            return Mutant(new, tuple(edits))
    raise ValueError("text cannot be mutated")


# -- running and classifying ------------------------------------------------------------------

class _Timeout(BaseException):
    """Raised by the alarm; a BaseException so that `except Exception` in pl cannot eat it."""


@contextlib.contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    def fire(_sig: int, _frame: object) -> None:
        raise _Timeout()

    if not hasattr(signal, "setitimer") or seconds <= 0:
        yield
        return
    previous = signal.signal(signal.SIGALRM, fire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def run_cli(text: str, folder: Path, name: str, timeout: float = 20.0) -> Outcome:
    """Write `text` to folder/name.py and run the CLI's main on it in-process."""
    from pl.show_inferred import main

    path = folder / f"{name}.py"
    path.write_text(text, encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    status: int | None = None
    detail = ""
    try:
        with _time_limit(timeout), contextlib.redirect_stdout(out), \
                contextlib.redirect_stderr(err), warnings.catch_warnings():
            # Mutants like `[0, 0,] [64]` draw CPython's SyntaxWarning; not the CLI's business.
            warnings.simplefilter("ignore", SyntaxWarning)
            status = main([str(path), "--backend", "910B"])
    except _Timeout:
        return Outcome("timeout", None, out.getvalue(), err.getvalue(), f"over {timeout}s")
    except BaseException as e:  # noqa: BLE001 - anything escaping main is the failure we look for
        if isinstance(e, KeyboardInterrupt):
            raise
        detail = "".join(traceback.format_exception(e))
        return Outcome("crash", None, out.getvalue(), err.getvalue(), detail)
    return classify(status, out.getvalue(), err.getvalue())


def classify(status: int | None, out: str, err: str) -> Outcome:
    if "Traceback" in out or "Traceback" in err:
        return Outcome("traceback", status, out, err, err)
    if status == 0:
        return Outcome("ok", status, out, err)
    if status != 2:
        return Outcome("status", status, out, err, err)
    headers = [ln for ln in err.splitlines() if ln.startswith("Error:")]
    if len(headers) != 1 or not _LOC.search(err):
        return Outcome("unlocated", status, out, err, err)
    return Outcome("diagnostic", status, out, err)


def signature(outcome: Outcome) -> str:
    """A short name for a failure: its kind, the exception, and the innermost pl frame."""
    text = outcome.detail or outcome.err
    frames = [m for m in _FRAME.finditer(text) if "/tests/" not in m["file"]
              and not m["file"].startswith("<")]
    where = ""
    if frames:
        last = frames[-1]
        where = f" at {Path(last['file']).name}:{last['line']} in {last['fn']}"
    exc = ""
    for ln in reversed(text.strip().splitlines()):
        m = re.match(r"^(\w+(?:\.\w+)*(?:Error|Exception|Interrupt|Exit))\b", ln.strip())
        if m:
            exc = " " + m.group(1)
            break
    if outcome.kind == "unlocated":
        first = next((ln for ln in outcome.err.splitlines() if ln.startswith("Error:")), "")
        exc = " " + re.sub(r"\d+|'[^']*'", "_", first)[:80]
    return f"{outcome.kind}{exc}{where}"


def diff(original: str, mutant: str) -> str:
    return "".join(difflib.unified_diff(original.splitlines(keepends=True),
                                        mutant.splitlines(keepends=True), "original", "mutant", n=1))


def shrink(text: str, still_fails: Callable[[str], bool], budget: int = 200) -> str:
    """Greedily drop lines (then blocks of lines) while `still_fails` holds; at most `budget` tries."""
    lines = text.split("\n")
    tries = 0
    for size in (8, 4, 2, 1):
        i = 0
        while i < len(lines) and tries < budget:
            cand = lines[:i] + lines[i + size:]
            tries += 1
            if cand and still_fails("\n".join(cand)):
                lines = cand
            else:
                i += size
    return "\n".join(lines)


def fuzz(sources: Sequence[Path], count: int, seed: int, folder: Path,
         timeout: float = 20.0, progress: Callable[[int], None] | None = None) -> Report:
    """Run `count` mutants spread evenly over `sources`; deterministic for a given seed."""
    report = Report()
    texts = [(p, p.read_text(encoding="utf-8")) for p in sources]
    for i in range(count):
        path, text = texts[i % len(texts)]
        rng = random.Random(f"{seed}:{i}:{path.name}")
        mutant = mutate(text, rng)
        outcome = run_cli(mutant.text, folder, f"m{seed}_{i}_{path.stem}", timeout)
        report.cases += 1
        report.kinds[outcome.kind] = report.kinds.get(outcome.kind, 0) + 1
        if outcome.failed:
            sig = signature(outcome)
            if sig in report.failures:
                report.failures[sig].count += 1
            else:
                report.failures[sig] = Failure(sig, path.name, mutant, outcome)
        if progress is not None:
            progress(i + 1)
    return report


def describe(failure: Failure, original: str, reduced: str | None = None) -> str:
    """A failure as a reproduction: the edits, the diff against the example, and what happened."""
    parts = [f"{failure.signature}  (x{failure.count}, from {failure.source})",
             "edits: " + "; ".join(failure.mutant.edits),
             diff(original, failure.mutant.text).rstrip()]
    if reduced is not None:
        parts += ["reduced reproduction:", reduced.rstrip()]
    tail = (failure.outcome.detail or failure.outcome.err).strip().splitlines()[-6:]
    parts += ["outcome tail:", *("    " + ln for ln in tail)]
    return "\n".join(parts)
