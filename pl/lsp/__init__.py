"""`python -m pl.lsp`: a Language Server Protocol server (stdio, pygls) that shows the inference of
`pl` where kernels are written.

For an open kernel file it publishes the diagnostics of `python -m pl.show_inferred` (every
located error, capacity warning and note, with the command's text and span), inlay hints (after a
tile's name its inferred type and memory space, `: Tile[[16, 128], BF16, Vec]`; before a consumer
each move pl inserts, `<- move x to Left`; on a loop each load residency hoists out of it), hovers
with `--explain`'s words, and a code action "Write the inferred annotations" whose edit is exactly
the text `--write` would write.

Guarantees: the editor's text is used (unsaved edits included), read statically: the server never
runs the user's code and never writes a file (the code action is an edit the editor applies and
can undo). Compiles are debounced and run one at a time in a child process (pl/lsp/worker.py); a
newer edit cancels an older compile, waiting or running (its process is killed), and a superseded
compile's result is never published. A file that does not compile
keeps its last good hints, each marked stale. pygls is needed only here (the `lsp` extra): `import
pl` never imports this package.
"""

from __future__ import annotations

__all__ = ["main"]


def main() -> None:
    from pl.lsp.server import make_server

    make_server().start_io()
