"""`python -m pl.show_inferred kernel.py [...]`: kernel files regenerated with inferred memory spaces.

Like black, it reads kernel files and never runs them (`--exec` imports them instead, running
their top-level code). It prints the regenerated file by default (each after a `# ==> FILE <==`
line, as `head` does, when several files are given), in each file's own encoding (a coding
cookie's, with its BOM), so the printed bytes read back as the file did; `-` reads standard input
as bytes, decoded as a file is; `--diff` shows a unified diff (coloured only
on a terminal, NO_COLOR honoured), `--check` exits 1 when a file is not yet in its inferred form
(stdout stays empty; `would regenerate FILE` goes to stderr), `--write` rewrites files in place
atomically (`write_back`). `--ir`, `--explain`,
`--json` show the compiled IR, the reasons, or a machine-readable report instead; `--html OUT`
writes one self-contained HTML page instead (pl/show_inferred/html_report.py). Exit status: 0
success, 1 `--check` found a file to change, 2 a user error (bad kernel, missing file, bad option;
shown as a located diagnostic on stderr, never a traceback) or an output that cannot be written
(standard output on a full disk is `cannot write to standard output: ...`), 141 (128 + SIGPIPE, as
a command the closed pipe killed) standard output closed by its reader (`| head`), quietly, 123 an
internal error of `pl` (a bug: please report). Every text printed or written (the file, its diff, its `--ir`) is verified first:
it reads back, compiles to the input's programs and is a fixed point (pl/show_inferred/verify.py); if
not, nothing is printed or written for that file and the run stops with
`internal error in pl <version>: ...`. Capacity warnings (pl/infer/capacity.py) go to stderr, or
to the `--json` report's "warnings", never into a file's text, and never change the exit status.

The package is also callable: `pl.show_inferred(path_or_text, ...)` is `pl.show_inferred.run.show_inferred`.

Start-up: `--help`, a usage error and a compile-cache hit import neither LibCST nor the compiler
(tests/test_startup.py): the modules that run, compile, verify and report are imported once the
arguments are parsed, each where a mode needs it.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import functools
import io
import json
import os
import stat
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final, TextIO

from pl.errors import InternalError, PlError, package_version, python_lines, want_color
from pl.gc_pause import gc_paused
from pl.ir.span import Span
from pl.ir.target import BACKENDS, DEFAULT_BACKEND
from pl.lowering.source.python import Stored, decode, encode

if TYPE_CHECKING:
    from pl.files import FileId
    from pl.ir.function import Program
    from pl.show_inferred import html_report
    from pl.show_inferred.result import Regenerated

_BACKENDS: Final[Mapping[str, str | None]] = MappingProxyType({**{n: n for n in BACKENDS}, "none": None})
EXIT_OK, EXIT_CHANGED, EXIT_USER, EXIT_INTERNAL, EXIT_CLOSED_PIPE = 0, 1, 2, 123, 141


class OutputFailed(Exception):
    """Standard output could not be written (a full disk, a pipe its reader closed): the
    environment's failure, not pl's, so neither a user error of one file nor an internal error."""

    def __init__(self, error: OSError) -> None:
        super().__init__(str(error))
        self.error = error


class Output:
    """The stream `main` prints to; a failure to write it raises `OutputFailed`."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> None:
        try:
            self.stream.write(text)
        except OSError as e:
            raise OutputFailed(e) from None

    def flush(self) -> None:
        try:
            self.stream.flush()
        except OSError as e:
            raise OutputFailed(e) from None

    def write_file(self, text: str, source: Input, path: str) -> None:
        """The regenerated file stored as the file is (its encoding and BOM: the bytes read back
        as the file did), where the stream takes bytes; else as text."""
        binary = getattr(self.stream, "buffer", None)
        if binary is None:
            self.write(text)
            return
        data = encode(text, source.stored, path)
        self.flush()
        try:
            binary.write(data)
            binary.flush()
        except OSError as e:
            raise OutputFailed(e) from None


def load_programs(path: Path, *, execute: bool = False) -> list[Program]:
    """The file's programs, in definition order (read statically unless `execute`; kept for
    callers of the first version of this module)."""
    from pl.show_inferred.annotate import load_programs as load_text

    source = read_input(str(path), sys.stdin)
    programs = load_text(source.text, source.filename, execute=execute)
    if not programs:
        raise PlError(f"{path}: no @pl.program found in this file", Span(source.filename, 1, 1))
    return programs


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m pl.show_inferred", allow_abbrev=False,
        description="Print kernel files regenerated with every tile's inferred memory space: "
                    "annotations gain pl.MemorySpace.X, inserted moves and hoisted loads appear "
                    "in the source; everything else is kept byte for byte.",
        epilog="Exit status: 0 success; 1 --check found a file to change; 2 a user error "
               "(bad kernel, missing file, bad option); 123 an internal error in pl.")
    p.add_argument("files", nargs="+", metavar="FILE",
                   help="kernel files (Python source); '-' reads standard input")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--diff", action="store_true",
                      help="print a unified diff against each file instead of the file "
                           "(coloured on a terminal unless NO_COLOR is set)")
    mode.add_argument("--check", action="store_true",
                      help="print nothing on standard output; name each file not yet in its "
                           "inferred form on standard error ('would regenerate FILE', as black "
                           "does) and exit 1 if there is one")
    mode.add_argument("--write", action="store_true",
                      help="rewrite each file in place (atomically, in its own encoding; a read-only "
                           "file or one edited meanwhile is refused); '-' is printed instead")
    mode.add_argument("--ir", action="store_true",
                      help="print the canonical compiled IR of each program instead")
    mode.add_argument("--explain", action="store_true",
                      help="print every tile's memory space, every inserted move and every "
                           "residency candidate with its reason and source line")
    mode.add_argument("--json", action="store_true",
                      help="print one JSON report (version 1): files, programs, functions with "
                           "tiles / moves / residency, diagnostics, and capacity warnings")
    mode.add_argument("--html", metavar="OUT.html", type=Path,
                      help="write one self-contained HTML page to OUT.html: the regenerated "
                           "kernels with tiles coloured by memory space and reasons on hover, "
                           "memory use per function against the backend's capacity, and the "
                           "program after each pass (nothing is written if a file fails)")
    p.add_argument("--backend", choices=list(_BACKENDS), default=DEFAULT_BACKEND,
                   help=f"target backend (default {DEFAULT_BACKEND}); 'none' configures no backend")
    p.add_argument("--no-residency", action="store_true",
                   help="turn off loop-invariant Mat residency (phase 4 of inference)")
    p.add_argument("--program", metavar="NAME",
                   help="only the @pl.program class called NAME")
    p.add_argument("--exec", action="store_true", dest="execute",
                   help="import each kernel file as Python does, running its top-level code "
                        "(by default files are only read: only their imports of pl and of the "
                        "project's own modules, and their constants, are evaluated)")
    p.add_argument("--shape", action="append", default=[], metavar="NAME=16x128:FP16",
                   help="the shape and dtype of a @pl.jit entry's parameter NAME (or "
                        "ENTRY.NAME) that neither its annotation nor the file's own calls give "
                        "(repeatable)")
    p.add_argument("--no-cache", action="store_true",
                   help="always compile; do not read or write the compile cache")
    p.add_argument("--cache-dir", metavar="DIR", type=Path,
                   help="compile cache folder (default $XDG_CACHE_HOME/pl or ~/.cache/pl)")
    p.add_argument("--dump-passes", metavar="DIR", type=Path,
                   help="also write the program after every pass to DIR as numbered DSL files "
                        "(DIR/<file stem>/<program>/ when several files or programs)")
    return p


def _colored_diff(lines: list[str]) -> str:
    out = []
    for ln in lines:
        if ln.startswith(("+++", "---")):
            out.append(f"\x1b[1m{ln}\x1b[0m")
        elif ln.startswith("@@"):
            out.append(f"\x1b[36m{ln}\x1b[0m")
        elif ln.startswith("+"):
            out.append(f"\x1b[32m{ln}\x1b[0m")
        elif ln.startswith("-"):
            out.append(f"\x1b[31m{ln}\x1b[0m")
        else:
            out.append(ln)
    return "".join(out)


def _diff(r: Regenerated, path: str, color: bool) -> str:
    # Lines as Python numbers them (a form feed in a comment breaks no line), each with its
    # own break: only a last line without one is marked so.
    lines = list(difflib.unified_diff(python_lines(r.text), python_lines(r.output),
                                      fromfile=path, tofile=f"{path} (inferred)"))
    lines = [ln if ln.endswith(("\n", "\r")) else ln + "\n\\ No newline at end of file\n"
             for ln in lines]
    return _colored_diff(lines) if color else "".join(lines)


@dataclass(frozen=True)
class Input:
    """One file as read: its text (decoded as Python decodes it), the name errors show, how it is
    stored (to write it back the same way) and its bytes (None for standard input)."""

    text: str
    filename: str
    stored: Stored = Stored()
    data: bytes | None = None


def read_input(path: str, stdin: TextIO) -> Input:
    """A kernel file ('-': standard input) as Python reads it; a `PlError` naming it if it cannot be.
    Standard input is read as bytes and decoded as a file is (BOM, coding cookie, line ends
    kept), unless it is a text stream without bytes beneath (a caller's `io.StringIO`)."""
    if path == "-":
        binary = getattr(stdin, "buffer", None)
        if binary is None:
            return Input(stdin.read(), "<stdin>")
        data = binary.read()
        text, stored = decode(data, "<stdin>")
        return Input(text, "<stdin>", stored, None)
    p = Path(path)
    if p.is_dir():
        raise PlError(f"{path}: is a directory", hint="give the path of a kernel file, or '-'")
    if not p.is_file():
        raise PlError(f"no such file: {path}", hint="give the path of a kernel file, or '-'")
    try:
        data = p.read_bytes()
    except OSError as e:
        raise PlError(f"cannot read {path}: {e.strerror or e}") from None
    text, stored = decode(data, path)
    return Input(text, path, stored, data)


def write_back(source: Input, text: str) -> None:
    """Replace the file `source` was read from by `text`, stored the way it was (encoding, BOM).

    Atomic (pl/files.py): the new bytes go to a temporary file beside the target, which then
    replaces it, so the file is either intact or complete. A symbolic link is written through
    (its target is replaced; the link stays a link), the mode bits are kept, and the owner where
    allowed. Refused with a `PlError` naming the file, the original left untouched: a read-only
    file, a file that changed since `source` was read, a path that is not a regular file's or
    reaches it through a process's open file (`--write /dev/stdin < f.py`), and any failure to
    write (read-only folder, full disk)."""
    from pl.files import output_target, write_file

    path = source.filename
    new = encode(text, source.stored, path)
    target, info = output_target(path)
    if info is None:
        raise PlError(f"cannot write {path}: it is gone; it was not rewritten")
    mode = stat.S_IMODE(info.st_mode)
    # os.replace would succeed over a read-only file (only the folder is checked), and root
    # passes os.access: the mode bits say whether the user meant the file to be written.
    if not mode & 0o222:
        raise PlError(f"{path} is read-only; it was not rewritten",
                      hint="make it writable (chmod u+w) to let --write change it")
    try:
        if not os.access(target, os.W_OK):
            raise PlError(f"cannot write {path}: permission denied or a read-only file system; "
                          "it was not rewritten")
        _unchanged(source, target)
        # The last look before the file is replaced.
        write_file(path, new, mode=mode, owner=(info.st_uid, info.st_gid),
                   before_replace=lambda t: _unchanged(source, t))
    except OSError as e:
        raise PlError(f"cannot write {path}: {e.strerror or e}; it was not rewritten",
                      hint="--write replaces the file through a new file beside it: its folder "
                           "must be writable") from None


def _unchanged(source: Input, target: Path) -> None:
    if target.read_bytes() != source.data:
        raise PlError(f"{source.filename} changed while pl was regenerating it; it was not "
                      "rewritten", hint="run the command again on the new contents")


def _file_error(e: OSError) -> PlError:
    """A file-system failure (an unwritable folder, a full disk, a file where a folder is
    needed), named by its file."""
    reason = (e.strerror or str(e)).lower()
    if isinstance(e, FileExistsError | NotADirectoryError):
        reason = "a file is in the way where a folder is needed"
    return PlError(f"cannot write {e.filename}: {reason}",
                   hint="check the path exists (as a folder where one is needed), is writable, "
                        "and that its disk has space")


def _internal_error(e: Exception, path: str, argv: Sequence[str] | None, text: str | None) -> str:
    """The report of a bug in pl: the exception, and a reproducer file (command line, input text
    and traceback) saved in the temp folder for the bug report."""
    import tempfile  # only here: a run without a bug does not pay for these imports
    import traceback

    version = package_version()
    summary = (str(e).splitlines() or [""])[0]
    body = (f"pl {version}, Python {sys.version.split()[0]}\n"
            f"command: python -m pl.show_inferred {' '.join(argv or sys.argv[1:])}\n"
            f"input: {path}\n\n{''.join(traceback.format_exception(e))}\n"
            f"--- input text ---\n{text if text is not None else '(not read)'}")
    try:
        fd, saved = tempfile.mkstemp(prefix="pl-internal-error-", suffix=".txt")
        with os.fdopen(fd, "w", encoding="utf-8", errors="replace") as f:
            f.write(body)
        where = f"a reproducer (the input and the traceback) was saved to {saved}"
    except OSError as oe:
        where = f"no reproducer could be saved ({oe.strerror or oe})"
    # An InternalError's message says what pl's own check found; another exception is named.
    what = summary if isinstance(e, InternalError) else f"{type(e).__name__}: {summary}"
    return (f"internal error in pl {version}: {what}\n"
            f"  while processing {path}; this is a bug in pl, not in your kernel.\n"
            f"  {where}; please attach it to a bug report.")


def _note_text(e: PlError) -> str:
    where = f"{e.span}: " if e.span and e.span.line > 0 else ""
    return f"{where}note: {e.message}"


def _cache_dir(args: argparse.Namespace) -> Path | None:
    if args.no_cache:
        return None
    if args.cache_dir is not None:
        return Path(args.cache_dir)
    from pl.show_inferred.cache import default_cache_dir

    return default_cache_dir()


def _one(args: argparse.Namespace, path: str, source: Input, dump: Path | None,
         inputs: frozenset[FileId], stdout: Output, stderr: TextIO, report: dict[str, Any],
         pages: list[str]) -> int:
    from pl.show_inferred.result import diagnostic_json
    from pl.show_inferred.run import run_text

    # The modes that report on the compiled programs print no regenerated text: nothing to verify.
    shows_text = not (args.json or args.explain or args.ir)
    run = functools.partial(run_text, source.text, source.filename, backend=_BACKENDS[args.backend],
                            residency=not args.no_residency, program=args.program,
                            cache_dir=_cache_dir(args), execute=args.execute, verify=shows_text,
                            shapes=tuple(args.shape))
    stages: dict[str, list[html_report.Stage]] = {}
    if args.html is not None or dump is not None:  # --html also shows the program after each pass
        r, stages = _run_dumped(run, dump, inputs, traced=args.html is not None)
    else:
        r = run()
    for note in r.notes:
        report["diagnostics"].append(diagnostic_json(note, path, "note"))
        if not args.json:
            print(_note_text(note), file=stderr)
    for w in r.warnings:  # on stderr or in the report only: never in the file's text
        report["warnings"].append({"path": path, **w.as_json()})
        if not args.json:
            print(w.render(color=want_color(stderr),
                           source=r.text if w.span.filename == r.filename else None), file=stderr)
    changed = r.output != r.text
    if args.json:
        from pl.show_inferred.report import file_json  # (the reports read the compiled IR)

        report["files"].append(file_json(r, path))
    elif args.check:
        if changed:
            print(f"would regenerate {path}", file=stderr)
        return EXIT_CHANGED if changed else EXIT_OK
    elif args.diff:
        stdout.write(_diff(r, path, want_color(stdout.stream)))
    elif args.write and path != "-":
        if changed:
            write_back(source, r.output)
            print(f"regenerated {path}", file=stderr)
    elif args.ir:
        from pl.show_inferred.annotate import rerun
        from pl.show_inferred.verify import ir_text, verify_ir

        verify_ir(r, rerun(backend=_BACKENDS[args.backend], residency=not args.no_residency,
                           program=args.program, execute=args.execute, shapes=tuple(args.shape)))
        for c in r.compiled:
            stdout.write(ir_text(c))
    elif args.explain:
        from pl.show_inferred.report import explain

        stdout.write(explain(r, path))
    elif args.html is not None:
        from pl.show_inferred import html_report
        from pl.show_inferred.annotate import rerun

        pages.append(html_report.file_section(
            r, path, stages, rerun(backend=_BACKENDS[args.backend], residency=not args.no_residency,
                                   program=args.program, execute=args.execute,
                                   shapes=tuple(args.shape))))
    else:
        if len(args.files) > 1:
            # Several files back to back would read as one; `head`'s separator, as a comment so
            # each part stays Python.
            stdout.write(f"# ==> {path} <==\n")
        stdout.write_file(r.output, source, path)
        if len(args.files) > 1 and not r.output.endswith("\n"):
            stdout.write("\n")  # so the next file's separator starts its own line
    return EXIT_OK


def _run_dumped(run: Callable[..., Regenerated], dump: Path | None, inputs: frozenset[FileId], *,
                traced: bool) -> tuple[Regenerated, dict[str, list[html_report.Stage]]]:
    """`run` with the program after every pass written to a temporary folder, then copied on
    to `dump` (--dump-passes; also what was written before a failure) through pl/files.py (only
    regular files, never an input), and read back by program name when `traced` (--html)."""
    import tempfile

    from pl.files import write_file

    stages: dict[str, list[html_report.Stage]] = {}
    with tempfile.TemporaryDirectory(prefix="pl-passes-") as tmp:
        folder = Path(tmp)
        try:
            r = run(dump_passes=folder)
        finally:
            if dump is not None:
                for f in sorted(folder.rglob("*.py")):
                    out = dump / f.relative_to(folder)
                    out.parent.mkdir(parents=True, exist_ok=True)
                    write_file(out, f.read_bytes(), inputs=inputs, sync=False)
        if traced:
            from pl.show_inferred import html_report

            stages = html_report.read_stages(folder, [c.source.name for c in r.compiled])
    return r, stages


def _input_ids(files: Sequence[str], stdin: TextIO) -> frozenset[FileId]:
    """The files read (standard input's too, when it is a file): what no output may replace."""
    ids = set()
    for path in files:
        try:
            info = os.fstat(stdin.fileno()) if path == "-" else os.stat(path)
        except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
            continue
        if stat.S_ISREG(info.st_mode):
            ids.add((info.st_dev, info.st_ino))
    return frozenset(ids)


def main(argv: Sequence[str] | None = None, *, stdin: TextIO | None = None,
         stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """The command line; returns the exit status (see the module doc)."""
    stdin, stdout, stderr = stdin or sys.stdin, stdout or sys.stdout, stderr or sys.stderr
    parser = _parser()
    try:
        try:
            args = parser.parse_args(argv)
        except SystemExit as e:  # argparse prints its own usage error (status 2) or --help (0)
            Output(sys.stdout).flush()  # where argparse prints --help
            return int(e.code) if isinstance(e.code, int) else EXIT_USER
        return _run(args, argv, stdin, Output(stdout), stderr)
    except OutputFailed as e:
        return _output_failed(e.error, stdout, stderr)


def _output_failed(error: OSError, stdout: TextIO, stderr: TextIO) -> int:
    """Standard output failed: quietly on a closed pipe, else a plain error (exit status 2)."""
    if stdout is sys.stdout:
        # What is left in its buffer would fail again when Python flushes it at exit (and be
        # reported there, with a traceback): the process's standard output becomes os.devnull.
        with contextlib.suppress(OSError, ValueError, AttributeError, io.UnsupportedOperation):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, stdout.fileno())
            os.close(devnull)
    if isinstance(error, BrokenPipeError):
        return EXIT_CLOSED_PIPE
    reason = (error.strerror or str(error)).lower()
    print(PlError(f"cannot write to standard output: {reason}").render(color=want_color(stderr)),
          file=stderr)
    return EXIT_USER


def _run(args: argparse.Namespace, argv: Sequence[str] | None, stdin: TextIO, stdout: Output,
         stderr: TextIO) -> int:
    """`main` once the arguments are parsed."""
    from pl.show_inferred.result import JSON_VERSION, diagnostic_json

    several = len(args.files) > 1
    report: dict[str, Any] = {"version": JSON_VERSION, "files": [], "diagnostics": [],
                              "warnings": []}
    pages: list[str] = []  # --html: each file's part of the page
    status = EXIT_OK
    inputs = _input_ids(args.files, stdin)
    for path in args.files:
        dump = args.dump_passes
        if dump is not None and several:
            dump = dump / (Path(path).stem if path != "-" else "stdin")
        text = None
        try:
            try:
                source = read_input(path, stdin)
                text = source.text
                # One collector pause per file, as in `run_text`, which also covers what the
                # output options re-read (--ir's IR text, --explain's report) (pl.gc_pause).
                with gc_paused():
                    status = max(status, _one(args, path, source, dump, inputs, stdout, stderr,
                                              report, pages))
                stdout.flush()  # a failure is seen here, not when Python exits
            except OSError as e:
                if e.filename is None:  # not about a file: nothing the user can act on
                    raise
                raise _file_error(e) from None
        except PlError as e:
            report["diagnostics"].append(diagnostic_json(e, path, "error"))
            print(e.render(color=want_color(stderr)), file=stderr)
            status = max(status, EXIT_USER)
        except OutputFailed:  # the environment's, for `main` to say
            raise
        except Exception as e:  # a bug in pl, not in the kernel: said so, with a reproducer
            # (an InternalError is one of pl's own checks failing: nothing was written)
            print(_internal_error(e, path, argv, text), file=stderr)
            return EXIT_INTERNAL
    if args.json:
        stdout.write(json.dumps(report, indent=2) + "\n")
        stdout.flush()
    if args.html is not None:
        status = max(status, _write_html(args.html, pages, args.files, inputs, status, stderr))
    return status


def _write_html(out: Path, pages: list[str], files: list[str], inputs: frozenset[FileId],
                status: int, stderr: TextIO) -> int:
    """--html: the page, written only when every file compiled (never half a report)."""
    from pl.show_inferred import html_report

    if status >= EXIT_USER:
        print(f"note: {out} was not written", file=stderr)
        return status
    try:
        html_report.write_page(out, html_report.page(pages, files), inputs)
    except PlError as e:
        print(e.render(color=want_color(stderr)), file=stderr)
        return EXIT_USER
    return EXIT_OK
