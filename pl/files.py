"""Files pl writes (`--write`, `--html`, `--dump-passes`, `pl.compile(dump_passes=...)`): only
regular files, never one of the inputs, each replaced atomically.

`write_file(path, data)` writes the new bytes to a temporary file beside the file `path` names
(through symbolic links), then renames it over that file, so the file is either as it was or
complete. Refused with a `PlError` naming `path`, nothing written:
- a path whose file is not a regular file: a directory, a FIFO (which a rename would replace by a
  regular file, and an open would wait on), a device (`/dev/null`), a socket;
- a path that reaches its file through a process's open file descriptor (`/dev/stdin`,
  `/dev/fd/N`, `/proc/PID/fd/N`): that names whatever the process has open (a redirected input),
  not a file by its path;
- a file that is one of `inputs` (as `(st_dev, st_ino)`): `--html kernel.py kernel.py`.
A failure to write (a read-only folder, a full disk) is the `OSError`, named by `path`.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Callable, Collection
from pathlib import Path

from pl.errors import PlError

__all__ = ["FileId", "file_id", "output_target", "write_file"]

FileId = tuple[int, int]

_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISSOCK, "a socket"))
_HINT = "give the path of a regular file, or of a new file in an existing folder"


def file_id(info: os.stat_result) -> FileId:
    """What tells one file from another, whatever path names it."""
    return info.st_dev, info.st_ino


def _real_path(path: str | os.PathLike[str]) -> str:
    """The file `path` names, symbolic links followed one at a time; a link that lives in /proc
    (a process's open file: `/dev/stdin` is `/proc/self/fd/0`) is refused."""
    p = os.path.abspath(path)
    for _ in range(40):  # as the kernel's limit on links in one lookup
        parent = os.path.realpath(os.path.dirname(p))
        p = os.path.join(parent, os.path.basename(p))
        if not os.path.islink(p):
            return p
        if parent == "/proc" or parent.startswith("/proc/"):
            raise PlError(f"cannot write {path}: it names a file a process has open ({p}), "
                          "not a file by its path", hint=_HINT)
        p = os.path.join(parent, os.readlink(p))
    raise PlError(f"cannot write {path}: too many levels of symbolic links", hint=_HINT)


def output_target(path: str | os.PathLike[str], inputs: Collection[FileId] = ()
                  ) -> tuple[Path, os.stat_result | None]:
    """The file writing `path` replaces, and its status (None: there is none yet); a `PlError`
    naming `path` when it must not be written (module doc)."""
    target = _real_path(path)
    try:
        info = os.lstat(target)
    except FileNotFoundError:
        return Path(target), None
    for test, kind in _KINDS:
        if test(info.st_mode):
            raise PlError(f"cannot write {path}: it is {kind}, not a regular file", hint=_HINT)
    if not stat.S_ISREG(info.st_mode):
        raise PlError(f"cannot write {path}: it is not a regular file", hint=_HINT)
    if file_id(info) in inputs:
        raise PlError(f"cannot write {path}: it is one of the input files",
                      hint="give an output path that is not a file being read")
    return Path(target), info


def write_file(path: str | os.PathLike[str], data: bytes, *, inputs: Collection[FileId] = (),
               mode: int = 0o644, owner: tuple[int, int] | None = None,
               before_replace: Callable[[Path], None] | None = None, sync: bool = True) -> None:
    """Replace the file `path` names by `data` (module doc), with the permission bits `mode` and,
    where allowed, `owner` (uid, gid); `before_replace(target)` runs last before the rename (a
    check that may raise). With `sync` the bytes reach the disk before the rename (a file the
    user keeps); a dump of passes, rewritten on every run, does without."""
    target, _ = output_target(path, inputs)
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            if sync:
                f.flush()
                os.fsync(f.fileno())
        os.chmod(tmp, mode)
        if owner is not None and owner != (os.getuid(), os.getgid()):
            with contextlib.suppress(PermissionError):  # only root may give a file away
                os.chown(tmp, *owner)
        if before_replace is not None:
            before_replace(target)
        os.replace(tmp, target)
        tmp = None
    except OSError as e:
        raise type(e)(e.errno, e.strerror, str(path)) from None
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
