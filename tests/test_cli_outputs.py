"""Where `python -m pl.show_inferred` writes, and what it does when it cannot.

- Outputs (`--html OUT`, `--write`, `--dump-passes DIR`, `pl.compile(dump_passes=...)`) are
  written only as regular files, never over an input: a FIFO, a device, a path through a
  process's open file (`/dev/stdin`) or a kernel file given is refused with one located error
  (exit 2), and left as it was (pl/files.py). The compile cache's entries: tests/test_cache.py.
- Standard output that fails is the environment's failure, not pl's: a full disk is a plain error
  (exit 2), a pipe its reader closed ends the run quietly (exit 141, as a command SIGPIPE
  killed); neither is an internal error, and no reproducer file is written.
"""

from __future__ import annotations

import errno
import io
import os
import stat
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import IO

import pytest

from pl.show_inferred.cli import main

ROOT = Path(__file__).resolve().parent.parent
KERNEL = (ROOT / "examples" / "vector_rowsum.py").read_text(encoding="utf-8")
MODES = ["", "--diff", "--ir", "--explain", "--json"]


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main([*argv, "--no-cache"], stdin=io.StringIO(""), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def run_process(argv: list[str], *, stdin: IO[bytes] | None = None, stdout: IO[str] | int = subprocess.PIPE,
                tmp: Path | None = None) -> subprocess.CompletedProcess[str]:
    """The command in a fresh interpreter (what may hang does so there, under a timeout), with
    `tmp` as its temporary folder (where a reproducer would go)."""
    env = os.environ | ({"TMPDIR": str(tmp)} if tmp is not None else {})
    return subprocess.run([sys.executable, "-m", "pl.show_inferred", "--no-cache", *argv],
                          cwd=ROOT, stdin=stdin, stdout=stdout, stderr=subprocess.PIPE, text=True,
                          timeout=120, env=env)


def kernel(folder: Path, name: str = "k.py") -> Path:
    path = folder / name
    path.write_text(KERNEL, encoding="utf-8")
    return path


def refused(code: int, err: str, needle: str) -> None:
    assert code == 2, err
    assert "Traceback" not in err and "internal error" not in err, err
    headers = [ln for ln in err.splitlines() if ln.startswith("Error:")]
    assert len(headers) == 1 and needle in headers[0], err


# -- outputs only where they belong ------------------------------------------------------------------
def test_html_is_not_written_over_a_fifo(tmp_path: Path) -> None:
    fifo = tmp_path / "out.html"
    os.mkfifo(fifo)
    code, _, err = run(["--html", str(fifo), str(kernel(tmp_path))])
    refused(code, err, f"cannot write {fifo}: it is a FIFO (named pipe), not a regular file")
    assert stat.S_ISFIFO(fifo.lstat().st_mode)


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can make a device node")
def test_html_is_not_written_over_a_device(tmp_path: Path) -> None:
    null = tmp_path / "null"  # /dev/null's twin: a regression replaces this one only
    os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    link = tmp_path / "link.html"
    link.symlink_to(null)
    for out in (null, link):
        code, _, err = run(["--html", str(out), str(kernel(tmp_path))])
        refused(code, err, f"cannot write {out}: it is a character device, not a regular file")
        assert stat.S_ISCHR(null.lstat().st_mode)


def test_html_is_not_written_over_an_input(tmp_path: Path) -> None:
    k = kernel(tmp_path)
    link = tmp_path / "report.html"
    link.symlink_to(k)
    for out in (k, link):
        code, _, err = run(["--html", str(out), str(kernel(tmp_path, "other.py")), str(k)])
        refused(code, err, f"cannot write {out}: it is one of the input files")
        assert k.read_text(encoding="utf-8") == KERNEL
    # Standard input is an input too when it is a file.
    with open(k, "rb") as f:
        done = run_process(["--html", str(k), "-"], stdin=f)
    refused(done.returncode, done.stderr, f"cannot write {k}: it is one of the input files")
    assert k.read_text(encoding="utf-8") == KERNEL


def test_html_over_a_regular_file_replaces_it(tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    out.write_text("old", encoding="utf-8")
    code, _, err = run(["--html", str(out), str(kernel(tmp_path))])
    assert code == 0, err
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


@pytest.mark.parametrize("name", ["/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"])
def test_write_never_rewrites_standard_input(name: str, tmp_path: Path) -> None:
    if not os.path.exists(name):
        pytest.skip(f"no {name} here")
    k = kernel(tmp_path)
    with open(k, "rb") as f:
        done = run_process(["--write", name], stdin=f)
    refused(done.returncode, done.stderr, f"cannot write {name}: it names a file a process has open")
    assert k.read_text(encoding="utf-8") == KERNEL
    # Through a link of the user's to it, too.
    link = tmp_path / "link.py"
    link.symlink_to(name)
    with open(k, "rb") as f:
        done = run_process(["--write", str(link)], stdin=f)
    refused(done.returncode, done.stderr, "it names a file a process has open")
    assert k.read_text(encoding="utf-8") == KERNEL


def test_dump_passes_neither_waits_on_a_fifo_nor_overwrites_an_input(tmp_path: Path) -> None:
    k = kernel(tmp_path)
    dump = tmp_path / "passes"
    dump.mkdir()
    os.mkfifo(dump / "00_frontend.py")
    done = run_process(["--dump-passes", str(dump), str(k)])  # waited forever on the FIFO
    refused(done.returncode, done.stderr, "00_frontend.py: it is a FIFO (named pipe), not a regular file")
    (dump / "00_frontend.py").unlink()
    (dump / "00_frontend.py").symlink_to(k)
    for extra in ([], ["--html", str(tmp_path / "r.html")]):
        code, _, err = run([*extra, "--dump-passes", str(dump), str(k)])
        refused(code, err, "00_frontend.py: it is one of the input files")
        assert k.read_text(encoding="utf-8") == KERNEL


def test_a_library_dump_never_waits_on_a_fifo(tmp_path: Path) -> None:
    dump = tmp_path / "passes"
    dump.mkdir()
    os.mkfifo(dump / "00_frontend.py")
    script = ("import sys, pl\nfrom pl.show_inferred.annotate import load_programs\n"
              f"[p] = load_programs(open({str(kernel(tmp_path))!r}).read(), 'k.py')\n"
              "try:\n    pl.compile(p, dump_passes=sys.argv[1])\n"
              "except pl.PlError as e:\n    print(e.message)\n")
    done = subprocess.run([sys.executable, "-c", script, str(dump)], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert "it is a FIFO (named pipe), not a regular file" in done.stdout, done.stderr


# -- standard output that fails ------------------------------------------------------------------------
class FailingStream(io.StringIO):
    def __init__(self, error: OSError) -> None:
        super().__init__()
        self.error = error

    def write(self, text: str) -> int:
        raise self.error


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(("error", "status", "said"), [
    (OSError(errno.ENOSPC, "No space left on device"), 2,
     "Error: cannot write to standard output: no space left on device\n"),
    (BrokenPipeError(errno.EPIPE, "Broken pipe"), 141, ""),
], ids=["full-disk", "closed-pipe"])
def test_standard_output_that_fails_is_no_internal_error(
        mode: str, error: OSError, status: int, said: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # where a reproducer would go
    err = io.StringIO()
    argv = [a for a in (mode, "--no-cache", str(kernel(tmp_path)), str(kernel(tmp_path, "j.py"))) if a]
    assert main(argv, stdout=FailingStream(error), stderr=err) == status
    assert err.getvalue() == said
    assert not list(tmp_path.glob("pl-internal-error-*"))


@pytest.mark.parametrize("mode", ["", "--json"])
def test_a_full_disk_on_standard_output(mode: str, tmp_path: Path) -> None:
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    with open("/dev/full", "w") as full:
        done = run_process([*filter(None, [mode]), str(kernel(tmp_path))], stdout=full, tmp=tmp_path)
    assert (done.returncode, done.stderr) == \
        (2, "Error: cannot write to standard output: no space left on device\n")
    assert not list(tmp_path.glob("pl-internal-error-*"))


@pytest.mark.parametrize("mode", ["", "--json"])
def test_a_closed_pipe_on_standard_output(mode: str, tmp_path: Path) -> None:
    k = kernel(tmp_path)
    # As `python -m pl.show_inferred k.py | head -c0`: the reader is gone before anything is written.
    read, write = os.pipe()
    os.close(read)
    with os.fdopen(write, "w") as closed:
        done = run_process([*filter(None, [mode]), str(k)], stdout=closed, tmp=tmp_path)
    assert (done.returncode, done.stderr) == (141, "")
    assert not list(tmp_path.glob("pl-internal-error-*"))
