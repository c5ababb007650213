"""`python -m pl.show_inferred --write` never damages the user's file.

Each case is one way a write can go wrong (a symlink, a read-only file, a file edited meanwhile,
a folder that cannot take the new file, a disk that fills up, a directory given as FILE): the
command either writes the complete new text where the file's contents live, keeping its mode, or
refuses with one clean error naming the file (exit 2, no traceback) and leaves the file as it was,
without a temporary file left behind.
"""

from __future__ import annotations

import contextlib
import io
import os
import resource
import shutil
import signal
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import pl.show_inferred as cli
from pl.errors import PlError
from pl.lowering.source.python import Stored, encode
from pl.show_inferred.run import show_inferred

ROOT = Path(__file__).resolve().parent.parent
KERNEL = (ROOT / "examples" / "vector_rowsum.py").read_text(encoding="utf-8")


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = cli.main([*argv, "--no-cache"], stdin=io.StringIO(""), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def refused(code: int, err: str, path: Path, needle: str) -> None:
    assert code == 2, err
    assert "Traceback" not in err and "Error" not in err.replace("Error:", ""), err
    headers = [ln for ln in err.splitlines() if ln.startswith("Error:")]
    assert len(headers) == 1 and str(path) in headers[0] and needle in headers[0], err


def no_temporaries(folder: Path) -> None:
    assert not [p.name for p in folder.iterdir() if p.name.endswith(".tmp")]


def test_write_goes_through_a_symlink_and_keeps_the_mode(tmp_path: Path) -> None:
    target = tmp_path / "real" / "kernel.py"
    target.parent.mkdir()
    target.write_text(KERNEL, encoding="utf-8")
    target.chmod(0o751)
    link = tmp_path / "link.py"
    link.symlink_to(target)
    code, _, err = run(["--write", str(link)])
    assert code == 0, err
    assert link.is_symlink() and link.resolve() == target.resolve()
    assert target.read_text(encoding="utf-8") == show_inferred(KERNEL)
    assert stat.S_IMODE(target.stat().st_mode) == 0o751
    no_temporaries(tmp_path)
    no_temporaries(target.parent)


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can give a file to another owner")
def test_write_keeps_the_owner(tmp_path: Path) -> None:
    path = tmp_path / "kernel.py"
    path.write_text(KERNEL, encoding="utf-8")
    os.chown(path, 65534, 65534)
    code, _, err = run(["--write", str(path)])
    assert code == 0, err
    assert (path.stat().st_uid, path.stat().st_gid) == (65534, 65534)
    assert path.read_text(encoding="utf-8") == show_inferred(KERNEL)


def test_a_read_only_file_is_refused_not_replaced(tmp_path: Path) -> None:
    path = tmp_path / "kernel.py"
    path.write_text(KERNEL, encoding="utf-8")
    path.chmod(0o444)
    code, _, err = run(["--write", str(path)])
    refused(code, err, path, "read-only")
    assert path.read_text(encoding="utf-8") == KERNEL
    assert stat.S_IMODE(path.stat().st_mode) == 0o444
    no_temporaries(tmp_path)


@pytest.mark.parametrize("mode", [["--write"], []], ids=["write", "print"])
def test_a_directory_is_named_as_such(mode: list[str], tmp_path: Path) -> None:
    code, out, err = run([*mode, str(tmp_path)])
    refused(code, err, tmp_path, "is a directory")
    assert out == ""


@contextlib.contextmanager
def _closed_folder(folder: Path) -> Iterator[None]:
    """`folder` takes no new file: read-only for a user; immutable for root, who ignores modes."""
    if os.geteuid() != 0:
        folder.chmod(0o555)
        try:
            yield
        finally:
            folder.chmod(0o755)
        return
    if shutil.which("chattr") is None or subprocess.run(
            ["chattr", "+i", str(folder)], capture_output=True).returncode != 0:
        pytest.skip("root, and the file system cannot make a folder immutable")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(folder)], check=True)


def test_a_folder_that_takes_no_new_file_is_a_clean_error(tmp_path: Path) -> None:
    folder = tmp_path / "closed"
    folder.mkdir()
    path = folder / "kernel.py"
    path.write_text(KERNEL, encoding="utf-8")
    with _closed_folder(folder):
        code, _, err = run(["--write", str(path)])
    refused(code, err, path, "cannot write")
    assert "folder must be writable" in err
    assert path.read_text(encoding="utf-8") == KERNEL
    no_temporaries(folder)


def _file_size_limit(limit: int) -> None:
    """In the child: writes beyond `limit` bytes fail (EFBIG) as on a full disk, not kill it."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))


def test_a_failed_write_leaves_the_file_intact(tmp_path: Path) -> None:
    """The new text cannot be written in full (the file-size limit stands in for a full disk, which
    needs a mount to simulate): a clean error and the original file, byte for byte."""
    path = tmp_path / "kernel.py"
    path.write_text(KERNEL, encoding="utf-8")
    assert len(show_inferred(KERNEL).encode()) > len(KERNEL.encode())
    proc = subprocess.run(
        [sys.executable, "-m", "pl.show_inferred", "--no-cache", "--write", str(path)],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
        preexec_fn=lambda: _file_size_limit(len(KERNEL.encode())),
        env={**os.environ, "NO_COLOR": "1", "PYTHONDONTWRITEBYTECODE": "1"})
    refused(proc.returncode, proc.stderr, path, "cannot write")
    assert path.read_text(encoding="utf-8") == KERNEL
    no_temporaries(tmp_path)


def test_a_file_changed_since_it_was_read_is_not_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "kernel.py"
    path.write_text(KERNEL, encoding="utf-8")
    source = cli.read_input(str(path), io.StringIO(""))
    edited = KERNEL + "# the user's edit, saved while pl worked\n"
    path.write_text(edited, encoding="utf-8")
    with pytest.raises(PlError, match="changed while pl was regenerating it") as e:
        cli.write_back(source, show_inferred(KERNEL))
    assert str(path) in e.value.message
    assert path.read_text(encoding="utf-8") == edited
    no_temporaries(tmp_path)
    # Unchanged, the same call writes.
    path.write_text(KERNEL, encoding="utf-8")
    cli.write_back(cli.read_input(str(path), io.StringIO("")), show_inferred(KERNEL))
    assert path.read_text(encoding="utf-8") == show_inferred(KERNEL)


def test_text_its_encoding_cannot_hold_is_a_located_error() -> None:
    with pytest.raises(PlError, match="cannot be stored in its encoding iso8859-1") as e:
        encode("x = 1\ny = '\u4e2d'\n", Stored("iso8859-1"), "k.py")
    assert e.value.span is not None and (e.value.span.line, e.value.span.col) == (2, 6)


def test_standard_input_is_printed_not_written() -> None:
    out, err = io.StringIO(), io.StringIO()
    code = cli.main(["--write", "--no-cache", "-"], stdin=io.StringIO(KERNEL), stdout=out, stderr=err)
    assert code == 0, err.getvalue()
    assert out.getvalue() == show_inferred(KERNEL)
