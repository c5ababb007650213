"""A compile cache on disk: a result keyed by the source text, the package and the options;
and `gc_paused()`, which keeps the cyclic garbage collector out of the compiler's hot phases.

Guarantees: `key(...)` changes whenever the text, the file name, any option, the package version
or any source file of the installed `pl` / `lowering` / `infer` packages changes (their names,
sizes and modification times are part of the key, so a developer's edit invalidates old entries
without a version bump). `Cache.get` returns the stored value or `None`; a missing, truncated,
corrupt or foreign entry is a miss, deleted, never an exception. `Cache.put` writes to a
temporary file in the same folder, then `os.replace`s it into place, so concurrent writers (threads
or processes) never expose a partial entry: a reader sees an old complete entry, a new complete
entry, or none. Failing to write (read-only folder, full disk) is silent: the cache is an
optimisation only. Entries are pickles of the caller's values; the folder is the user's own
(`$XDG_CACHE_HOME/pl` or `~/.cache/pl` by default), so its entries are trusted like their code.

`gc_paused()` disables the cyclic collector for the duration of a `with` block and restores the
previous state after it (nesting is fine): lowering, the passes, the printer and (un)pickling a
cache entry allocate hundreds of thousands of small acyclic objects, which reference counting
frees, and the collector would otherwise rescan the growing young heap again and again for cycles
that are not there.
"""

from __future__ import annotations

import gc
import hashlib
import json
import linecache
import os
import pickle
import sys
import tempfile
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any

__all__ = ["Cache", "cached_call", "default_cache_dir", "gc_paused", "key", "package_fingerprint", "package_version"]

_MAGIC = b"pl-cache-1\n"
_PACKAGES = ("pl", "lowering", "infer")


@contextmanager
def gc_paused() -> Iterator[None]:
    """The cyclic GC off inside the block; its previous state restored after it."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def default_cache_dir() -> Path:
    """`$XDG_CACHE_HOME/pl`, else `~/.cache/pl`."""
    base = os.environ.get("XDG_CACHE_HOME")
    return (Path(base) if base else Path.home() / ".cache") / "pl"


def package_version() -> str:
    try:
        from importlib.metadata import version

        return version("pl-tile")
    except Exception:  # not installed as a distribution: the fingerprint still tells versions apart
        return "0+unknown"


@lru_cache(maxsize=1)
def package_fingerprint() -> str:
    """A digest of the version and of every source file's name, size and mtime (once a process)."""
    h = hashlib.sha256(package_version().encode())
    h.update(sys.version.encode())
    for name in _PACKAGES:
        mod = sys.modules.get(name)
        if mod is None:
            __import__(name)
            mod = sys.modules[name]
        for folder in getattr(mod, "__path__", []):
            for root, dirs, files in os.walk(folder):
                dirs[:] = sorted(d for d in dirs if d != "__pycache__")
                for f in sorted(files):
                    if f.endswith((".py", ".tsv")):
                        st = os.stat(os.path.join(root, f))
                        h.update(f"{os.path.relpath(os.path.join(root, f), folder)}:{st.st_size}:"
                                 f"{st.st_mtime_ns}\n".encode())
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


class Cache:
    """One cache folder (created on first write)."""

    def __init__(self, folder: str | os.PathLike[str]) -> None:
        self.folder = Path(folder)

    def path(self, k: str) -> Path:
        return self.folder / f"{k}.pickle"

    def get(self, k: str) -> Any | None:
        p = self.path(k)
        try:
            data = p.read_bytes()
        except OSError:
            return None
        try:
            if not data.startswith(_MAGIC):
                raise ValueError("not a pl cache entry")
            with gc_paused():  # unpickling builds a large IR: no collector passes over it
                # A view, not a slice: no copy of the whole entry.
                stored_key, value = pickle.loads(memoryview(data)[len(_MAGIC):])
            if stored_key != k:
                raise ValueError("entry stored under another key")
            return value
        except Exception:  # corrupt or foreign: a miss, and the entry goes
            try:
                p.unlink()
            except OSError:
                pass
            return None

    def put(self, k: str, value: Any) -> None:
        try:
            with gc_paused():
                payload = _MAGIC + pickle.dumps((k, value), protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:  # an unpicklable value is simply not cached
            return
        tmp = None
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=f".{k[:16]}.", suffix=".tmp", dir=self.folder)
            with os.fdopen(fd, "wb") as f:
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

    def get_or_run(self, k: str, run: Callable[[], Any]) -> Any:
        """The cached value of `k`, or `run()` stored under `k` (exceptions are not stored)."""
        hit = self.get(k)
        if hit is not None:
            return hit
        value = run()
        self.put(k, value)
        return value


def cached_call(folder: str | os.PathLike[str], kind: str, text: str, filename: str,
                options: Mapping[str, Any], run: Callable[[], Any]) -> Any:
    """`run()`'s result for (text, filename, options), from the cache when it was computed before.

    A user error (`PlError`) is a result too: it is stored and raised again on a hit. Other
    exceptions (bugs) are never stored. On a hit the text is put into `linecache` under
    `filename`, as loading the file would have, so diagnostics still quote their source lines.
    """
    from pl.errors import PlError, python_lines

    cache = Cache(folder)
    k = key(kind, text, filename, options)
    hit = cache.get(k)
    if isinstance(hit, tuple) and len(hit) == 2 and hit[0] in ("ok", "error"):
        linecache.cache[filename] = (len(text), None, python_lines(text), filename)
        if hit[0] == "error" and isinstance(hit[1], PlError):
            raise hit[1]
        return hit[1]
    try:
        value = run()
    except PlError as e:
        cache.put(k, ("error", e))
        raise
    cache.put(k, ("ok", value))
    return value
