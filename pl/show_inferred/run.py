"""One kernel file's regeneration, answered from the compile cache when it can be: `run_text` (what
the command line does per file) and `show_inferred` (the library call `pl.show_inferred(...)`).

Guarantees: a cache hit loads neither LibCST nor the compiler (this module imports only the cache
and the result's data, pl/show_inferred/result.py); pl/show_inferred/annotate.py, which compiles,
is imported only when something must be compiled (a miss, no cache folder, `--dump-passes`, or the
first read of a hit's `compiled`). What `run_text` returns is verified either way (only verified
results are stored; pl/show_inferred/verify.py), unless its caller says it will not show the
text (`verify=False`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pl.deep_stack import on_deep_stack
from pl.errors import PlError
from pl.gc_pause import gc_paused
from pl.ir.target import DEFAULT_BACKEND
from pl.lowering.source.python import decode
from pl.show_inferred.result import Regenerated, from_json, kernel_options, to_json

if TYPE_CHECKING:
    from pl.lowering.source.static_module import Reads

__all__ = ["run_text", "show_inferred"]


def _compile(text: str, filename: str, options: dict[str, Any], dump_passes: Path | None,
             reads: Reads, *, verify: bool = True) -> Regenerated:
    from pl.show_inferred.annotate import run_file  # the compiler: loaded when it is needed

    return on_deep_stack(lambda: run_file(text, filename, options, dump_passes, reads,
                                          verify=verify))


# One collector pause for the whole run, the cache's work included (pl.gc_pause): the parses,
# lowering, the passes, the rewrite and the verification allocate millions of acyclic objects that
# reference counting frees; with the collector on, each of its full collections would rescan the
# run's whole live heap (the input's trees and programs while the output is read back).
@gc_paused()
def run_text(text: str, filename: str, *, backend: str | None = DEFAULT_BACKEND, residency: bool = True,
             program: str | None = None, dump_passes: Path | None = None,
             cache_dir: str | os.PathLike[str] | None = None, execute: bool = False,
             verify: bool = True, shapes: Sequence[str] = ()) -> Regenerated:
    """Load, compile and regenerate one file's text, and verify the result (what the CLI does
    per file; raises `InternalError` when the result fails pl/show_inferred/verify.py's checks).

    The file is read statically unless `execute` (see `annotate.load_programs`). With
    `cache_dir`, an unchanged file (same text, name, folder, options, `pl`, and the same content
    of every module the load read) is answered from the compile cache in that folder
    (pl.show_inferred.cache; only verified results are stored); `dump_passes` and `execute`
    always compile.

    `verify=False` is for a caller that neither prints nor writes the regenerated text (the
    command's --json, --explain and --ir report on `compiled`, the functions' move names and
    the notes): the text is neither made (the result's `output` is the input text) nor read back
    (pl/show_inferred/verify.py), and the cache is neither read nor written, since it holds only
    verified results and a hit would compile again for `compiled` anyway.

    `shapes`: `NAME=16x128:FP16` texts, the shapes of `@pl.jit` entry parameters that neither
    their annotation nor the file's own calls give (pl/show_inferred/jit_samples.py)."""
    options = kernel_options(filename, backend, residency, program, execute, shapes)
    # An `execute`d file's result depends on whatever its top-level code consulted (the
    # environment, other files, the time): nothing says when it is stale, so it is never cached.
    if cache_dir is None or dump_passes is not None or not verify or execute:
        return _compile(text, filename, options, dump_passes, {}, verify=verify)

    from pl.show_inferred.cache import cached_call  # hashlib and tempfile: only with a cache

    def decode_hit(data: Any) -> Regenerated:
        return from_json(data, text, filename,
                         # The hit's text was verified against these very programs when it
                         # was stored (the key holds pl's code): they are compiled, not checked.
                         lambda: _compile(text, filename, options, None, {}, verify=False).compiled)

    return cached_call(cache_dir, "run_text", text, filename,  # type: ignore[no-any-return]
                       options, lambda reads: _compile(text, filename, options, None, reads),
                       to_json, decode_hit)


_LOOKS_LIKE_SOURCE = re.compile(r"[\n\r;]")


def show_inferred(path_or_text: str | os.PathLike[str], *, backend: str | None = DEFAULT_BACKEND,
                  residency: bool = True, filename: str | None = None,
                  execute: bool = False, shapes: Sequence[str] = ()) -> str:
    """The kernel file (a path, or source text when it contains a newline) regenerated with
    every tile's inferred memory space, its inserted moves and hoisted loads. The file is read,
    not run, unless `execute=True` (see `annotate.load_programs`)."""
    if backend == "none":
        backend = None
    if isinstance(path_or_text, str) and _LOOKS_LIKE_SOURCE.search(path_or_text):
        text, name = path_or_text, filename or "<string>"
    else:
        path = Path(path_or_text)
        if not path.is_file():
            raise PlError(f"no such file: {path}")
        try:
            data = path.read_bytes()
        except OSError as e:
            raise PlError(f"cannot read {path}: {e.strerror or e}") from None
        name = filename or str(path)
        text, _ = decode(data, name)
    return run_text(text, name, backend=backend, residency=residency, execute=execute,
                    shapes=shapes).output
