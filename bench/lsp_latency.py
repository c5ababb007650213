"""Latency of the language server (`python -m pl.lsp`) after an edit of examples/attention.py:
the time from the `textDocument/didChange` notification to the inlay hints of the new text
(a hint request sent with the change is answered once that text's compile is done, so this is
the time to the published hints). It includes the server's debounce (pl/lsp/server.py,
`DEBOUNCE`), which is printed beside it.

    python bench/lsp_latency.py [--edits N]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "attention.py"


async def measure(edits: int) -> list[float]:
    text = EXAMPLE.read_text(encoding="utf-8")
    uri = EXAMPLE.as_uri()
    client = LanguageClient("pl-bench", "1")

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def diagnostics(params: types.PublishDiagnosticsParams) -> None:
        pass  # the hint request's answer is what is timed

    @client.feature(types.WINDOW_LOG_MESSAGE)
    def log(params: types.LogMessageParams) -> None:
        pass  # the server's log of its compiles

    await client.start_io(sys.executable, "-m", "pl.lsp", cwd=str(ROOT))
    await client.initialize_async(types.InitializeParams(capabilities=types.ClientCapabilities()))
    client.initialized(types.InitializedParams())
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="python", version=1, text=text)))
    whole = types.Range(start=types.Position(line=0, character=0),
                        end=types.Position(line=len(text.splitlines()) + 1, character=0))
    hints = types.InlayHintParams(text_document=types.TextDocumentIdentifier(uri=uri), range=whole)
    assert await client.text_document_inlay_hint_async(hints)  # warm: imports, first compile
    times = []
    for i in range(edits):
        # An edit as a user makes one: a statement's line changes (a comment appended to it).
        edited = text.replace("m = pl.row_max(s)", f"m = pl.row_max(s)  # edit {i}")
        start = time.perf_counter()
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=i + 2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=edited)]))
        got = await client.text_document_inlay_hint_async(hints)
        times.append(time.perf_counter() - start)
        assert got
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return times


def main() -> None:
    from pl.lsp.server import DEBOUNCE

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--edits", type=int, default=20)
    args = parser.parse_args()
    times = asyncio.run(measure(args.edits))
    print(f"{EXAMPLE.name} ({len(EXAMPLE.read_text().splitlines())} lines), {len(times)} edits: "
          f"change -> hints median {statistics.median(times):.3f} s, max {max(times):.3f} s "
          f"(of which the debounce {DEBOUNCE:.2f} s)")


if __name__ == "__main__":
    main()
