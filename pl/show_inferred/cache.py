"""A compile cache on disk that stores only JSON text.

Guarantees:
- Nothing read from the cache folder is ever executed or unpickled: an entry is one JSON document
  (`json.loads`, which builds only dicts, lists, strings, numbers, booleans and None), so a file
  planted in the folder can at worst give a wrong-looking miss, never run code.
- `key(...)` changes whenever the text, the file name, any option, the Python version, or the
  code of `pl` or of `libcst` changes: the name, size and modification time of every source file
  (and compiled extension) of both packages are part of the key, so a developer's edit
  invalidates old entries without a version bump, and so are the names of the metadata folders
  installed beside each package (`libcst-1.9.0.dist-info`: the installed version). Computing it
  costs a few hundred `stat`s and imports nothing (not `importlib.metadata`, whose import alone
  would take a third of a cache hit).
- `cached_call` also stores the files a result was computed from (`reads`: path -> sha256, None
  for a path that was looked for and absent) and serves a hit only when every one of them still
  has that content: a changed imported module, or one created where the loader looked, is a miss.
  What the environment answered is recorded the same way and asked again: whether a third-party
  module the kernel imports is installed (pl.lowering.source.python's `installed`), so a "no module named X" error is not
  served once X is installed, nor a result once X is gone.
- `Cache.get` returns the stored value or `None`; a missing, truncated, corrupt or foreign entry is
  a miss, deleted, never an exception. An entry is read only if it is a regular file of at most
  `MAX_ENTRY_BYTES`, opened without following a symbolic link and without waiting: a FIFO,
  device or link planted at an entry's name is a miss (and is removed), never a hang or a read
  without end. `Cache.put` writes to a temporary file in the same folder,
  then `os.replace`s it into place, so concurrent writers (threads or processes) never expose a
  partial entry. Failing to write (read-only folder, full disk) is silent: the cache is an
  optimisation only.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import stat
import sys
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pl.errors import PL_SOURCE_FOLDERS, PlError, error_from_json, error_json
from pl.lowering.source.python import INSTALLED, content_hash, installed

if TYPE_CHECKING:  # the files a compile read: pl.lowering.source.static_module records them
    from pl.lowering.source.static_module import Reads

__all__ = ["MAX_ENTRY_BYTES", "Cache", "cached_call", "code_fingerprint", "default_cache_dir",
           "key", "package_fingerprint", "reads_unchanged"]

_FORMAT = "pl-cache-2"
# An entry holds a kernel file's regenerated text and notes: far less than this.
MAX_ENTRY_BYTES = 64 * 1024 * 1024


def default_cache_dir() -> Path:
    """`$XDG_CACHE_HOME/pl`, else `~/.cache/pl`."""
    base = os.environ.get("XDG_CACHE_HOME")
    return (Path(base) if base else Path.home() / ".cache") / "pl"


# What a package's code is made of: Python source, pl's op tables, compiled extensions (LibCST's
# native parser).
_CODE_FILES = (".py", ".tsv", ".so", ".pyd")


def code_fingerprint(folder: str, distribution: str) -> str:
    """A digest of the package in `folder`: every code file's name, size and mtime, and the names
    of `distribution`'s metadata folders beside it (`libcst-1.9.0.dist-info`, which names the
    installed version; an editable install keeps its metadata elsewhere)."""
    h = hashlib.sha256()
    parent = os.path.dirname(os.path.normpath(folder))
    prefix = distribution.lower().replace("-", "_")
    try:
        beside = os.listdir(parent)
    except OSError:
        beside = []
    for name in sorted(beside):
        if name.lower().startswith((prefix + "-", prefix + ".")) and \
                name.endswith((".dist-info", ".egg-info")):
            h.update(f"{name}\n".encode())
    _hash_files(folder, "", h)
    return h.hexdigest()


def _hash_files(folder: str, relative: str, h: Any) -> None:
    """The code files under `folder` (named from the package's folder), in name order."""
    with os.scandir(folder) as entries:
        ordered = sorted(entries, key=lambda e: e.name)
    for e in ordered:
        if e.is_dir(follow_symlinks=False):
            if e.name != "__pycache__":
                _hash_files(e.path, f"{relative}{e.name}/", h)
        elif e.name.endswith(_CODE_FILES):
            st = e.stat()
            h.update(f"{relative}{e.name}:{st.st_size}:{st.st_mtime_ns}\n".encode())


def package_fingerprint() -> str:
    """A digest of the Python version and of the code of `pl` and `libcst` (`code_fingerprint`;
    computed per key, never remembered in the process). LibCST is found without importing it."""
    spec = importlib.util.find_spec("libcst")
    libcst_folders = list(spec.submodule_search_locations or ()) if spec is not None else []
    h = hashlib.sha256(f"{sys.version}\0".encode())
    for folder in PL_SOURCE_FOLDERS:
        h.update(f"pl-tile:{code_fingerprint(folder, 'pl-tile')}\0".encode())
    for folder in libcst_folders:
        h.update(f"libcst:{code_fingerprint(folder, 'libcst')}\0".encode())
    return h.hexdigest()


def key(kind: str, text: str, filename: str, options: Mapping[str, Any], *,
        version: str | None = None) -> str:
    """The cache key of one unit of work; `version` defaults to `package_fingerprint()`."""
    meta = json.dumps({"kind": kind, "filename": filename, "options": dict(options),
                       "version": package_fingerprint() if version is None else version},
                      sort_keys=True, default=repr)
    h = hashlib.sha256(meta.encode())
    h.update(b"\0")
    h.update(text.encode("utf-8", "surrogatepass"))
    return h.hexdigest()


def _read_regular(path: str | os.PathLike[str], *, follow_symlinks: bool,
                  limit: int | None = None) -> bytes | None:
    """The bytes of the regular file at `path`; None for anything else (a FIFO or a device is
    neither waited for nor read: it is opened without blocking and looked at first), for a
    symbolic link unless `follow_symlinks`, and for a file over `limit` bytes. OSError when it
    cannot be opened."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    if not follow_symlinks:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags)
    with os.fdopen(fd, "rb") as f:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or (limit is not None and info.st_size > limit):
            return None
        data = f.read() if limit is None else f.read(limit + 1)
    return data if limit is None or len(data) <= limit else None


def _file_hash(path: str) -> str | None:
    try:
        data = _read_regular(path, follow_symlinks=True)
    except OSError:
        return None
    return None if data is None else content_hash(data)


def reads_unchanged(reads: Mapping[str, str | None]) -> bool:
    """Every file still has the recorded content (None: still absent), and every module recorded
    as installed (or not) still is (or is not)."""
    return all((installed(path[len(INSTALLED):]) if path.startswith(INSTALLED)
                else _file_hash(path)) == digest for path, digest in reads.items())


class Cache:
    """One cache folder (created on first write). Values are JSON-serialisable data."""

    def __init__(self, folder: str | os.PathLike[str]) -> None:
        self.folder = Path(folder)

    def path(self, k: str) -> Path:
        return self.folder / f"{k}.json"

    def get(self, k: str) -> Any | None:
        p = self.path(k)
        try:
            raw = _read_regular(p, follow_symlinks=False, limit=MAX_ENTRY_BYTES)
            if raw is None:
                raise ValueError("not a regular file of an entry's size")
            data = raw.decode("utf-8")
        except (OSError, ValueError):  # UnicodeDecodeError is a ValueError
            if os.path.lexists(p):
                self._drop(p)
            return None
        try:
            entry = json.loads(data)
            if not isinstance(entry, dict) or entry.get("format") != _FORMAT:
                raise ValueError("not a pl cache entry")
            if entry.get("key") != k:
                raise ValueError("entry stored under another key")
            return entry["value"]
        except (ValueError, KeyError, RecursionError):  # corrupt or foreign: a miss, and it goes
            self._drop(p)
            return None

    @staticmethod
    def _drop(p: Path) -> None:
        try:
            p.unlink()
        except OSError:
            pass

    def put(self, k: str, value: Any) -> None:
        try:
            payload = json.dumps({"format": _FORMAT, "key": k, "value": value})
        except (TypeError, ValueError):  # a value JSON cannot hold is simply not cached
            return
        tmp = None
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=f".{k[:16]}.", suffix=".tmp", dir=self.folder)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(payload)
            os.replace(tmp, self.path(k))
            tmp = None
        except OSError:
            pass
        finally:
            if tmp is not None:
                try:
                    os.unlink(tmp)
                except OSError:
                    pass


def cached_call(folder: str | os.PathLike[str], kind: str, text: str, filename: str,
                options: Mapping[str, Any], run: Callable[[Reads], Any],
                encode: Callable[[Any], Any], decode: Callable[[Any], Any]) -> Any:
    """`run(reads)`'s result for (text, filename, options), from the cache when it was computed
    before from files that are all unchanged. `run` records the files it reads in `reads`;
    `encode` turns its result into JSON data and `decode` turns that back.

    A user error (`PlError`) is a result too: it is stored (with the files read until it was
    raised) and raised again on a hit. Other exceptions (bugs) are never stored.
    """
    cache = Cache(folder)
    k = key(kind, text, filename, options)
    hit = cache.get(k)
    try:
        if isinstance(hit, dict) and reads_unchanged(hit["reads"]):
            if hit["status"] == "error":
                raise error_from_json(hit["error"])
            if hit["status"] == "ok":
                return decode(hit["result"])
    except (KeyError, TypeError, ValueError, AttributeError):  # a malformed entry: a miss
        pass
    reads: Reads = {}
    try:
        value = run(reads)
    except PlError as e:
        cache.put(k, {"status": "error", "reads": reads, "error": error_json(e)})
        raise
    cache.put(k, {"status": "ok", "reads": reads, "result": encode(value)})
    return value
