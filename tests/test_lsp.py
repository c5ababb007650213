"""`python -m pl.lsp` driven as an editor drives it: a real client over stdio (pytest-lsp) on the
examples, checking hints, hovers, diagnostics as the text changes, the code action's edit (equal
to what `show_inferred --write` writes) and that a superseded compile is never published."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls")
pytest_lsp = pytest.importorskip("pytest_lsp")

from lsprotocol import types  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "attention.py"
TEXT = EXAMPLE.read_text(encoding="utf-8")
URI = EXAMPLE.as_uri()
BROKEN = TEXT.replace("pl.row_max(s)", "pl.row_max(s, 3)")


@pytest_lsp.fixture(config=ClientServerConfig(
    server_command=[sys.executable, "-m", "pl.lsp"],
    server_env={**os.environ, "PYTHONPATH": str(ROOT)}))
async def client(lsp_client: LanguageClient):  # type: ignore[no-untyped-def]
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=types.ClientCapabilities(), root_uri=ROOT.as_uri()))
    yield
    await lsp_client.shutdown_session()


def _open(client: LanguageClient, text: str = TEXT, uri: str = URI) -> None:
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="python", version=1, text=text)))


def _change(client: LanguageClient, version: int, text: str) -> None:
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=URI, version=version),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))


async def _hints(client: LanguageClient) -> list[tuple[int, int, str]]:
    hints = await client.text_document_inlay_hint_async(types.InlayHintParams(
        text_document=types.TextDocumentIdentifier(uri=URI),
        range=types.Range(start=types.Position(line=0, character=0),
                          end=types.Position(line=len(TEXT.splitlines()), character=0))))
    return [(h.position.line, h.position.character, str(h.label)) for h in hints or []]


async def _diagnostics(client: LanguageClient, version: int) -> list[types.Diagnostic]:
    while True:
        params = await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        if params.version == version:
            return list(params.diagnostics)


@pytest.mark.asyncio
async def test_hints_show_types_spaces_moves_and_hoisted_loads(client: LanguageClient) -> None:
    _open(client)
    hints = await _hints(client)
    # after `s` of `s = pl.matmul(...)` (line 26), its type in the accumulator
    assert (25, 13, ": Tile[[16, 64], FP32, Acc]") in hints
    assert (32, 15, ": Tile[[16, 64], FP16, Vec]") in hints  # p16
    # before the consumer `pl.row_max(s)` (line 28): the move of s to Vec
    assert (27, 16, "<- move s to Vec ") in hints
    assert any(line == 33 and label == "<- move p16 to Left " for line, _, label in hints)
    # on the block loop (line 22): q's load is hoisted out of it
    assert any(line == 21 and label == "  hoists the load of q" for line, _, label in hints)


@pytest.mark.asyncio
async def test_hover_gives_the_explain_words(client: LanguageClient) -> None:
    from pl.show_inferred.report import explain
    from pl.show_inferred.run import run_text

    _open(client)
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=URI),
        position=types.Position(line=25, character=12)))  # the `s` of line 26
    assert hover is not None
    value = hover.contents.value  # type: ignore[union-attr]
    assert value == "s_acc -> Acc: fixed output space of tile.matmul"  # as the output names it
    explained = explain(run_text(TEXT, str(EXAMPLE), verify=False), str(EXAMPLE))
    assert f"{EXAMPLE}:26: {value}" in explained
    # on the call, every entry of its line, each as --explain words it
    call = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=URI),
        position=types.Position(line=25, character=20)))  # `matmul` of line 26
    assert call is not None
    entries = call.contents.value.split("\n\n")  # type: ignore[union-attr]
    assert len(entries) == 6 and value in entries
    assert all(f"{EXAMPLE}:26: {e}" in explained for e in entries)
    assert "q_mat_Left -> Left: inserted move of q_mat, because tile.matmul argument 0 must be in Left" \
        in entries


@pytest.mark.asyncio
async def test_diagnostics_follow_an_edit_and_its_fix_and_hints_go_stale(client: LanguageClient) -> None:
    _open(client)
    first = await _diagnostics(client, 1)
    assert all(d.severity != types.DiagnosticSeverity.Error for d in first)
    _change(client, 2, BROKEN)
    broken = await _diagnostics(client, 2)
    errors = [d for d in broken if d.severity == types.DiagnosticSeverity.Error]
    assert len(errors) == 1
    assert errors[0].message.startswith("pl.row_max: argument 2 ('tmp_tile') has no meaning")
    assert (errors[0].range.start.line, errors[0].range.start.character) == (27, 16)  # line 28, col 17
    stale = await _hints(client)
    assert stale and all(label.endswith(" (stale)") for _, _, label in stale)
    _change(client, 3, TEXT)
    fixed = await _diagnostics(client, 3)
    assert all(d.severity != types.DiagnosticSeverity.Error for d in fixed)
    assert not any("(stale)" in label for _, _, label in await _hints(client))


@pytest.mark.asyncio
async def test_a_superseded_compile_is_never_published(client: LanguageClient) -> None:
    _open(client)
    await _diagnostics(client, 1)
    _change(client, 2, BROKEN)  # superseded at once by the fix: its error must never be shown
    _change(client, 3, TEXT)
    # The next diagnostics published are version 3's: version 2's compile was cancelled.
    params = await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert params.version == 3
    assert all(d.severity != types.DiagnosticSeverity.Error for d in params.diagnostics)
    assert not any("(stale)" in label for _, _, label in await _hints(client))
    await asyncio.sleep(0.5)  # nothing later replaces them with version 2's
    assert all(d.severity != types.DiagnosticSeverity.Error for d in client.diagnostics[URI])


# A kernel whose compile takes seconds (1,500 statements), with a tile over Vec's capacity: its
# diagnostics would hold a capacity warning, which examples/attention.py's never do.
SLOW = """import pl


@pl.program
class Slow:
    @pl.function(type=pl.FunctionType.InCore)
    def k(
        self,
        x: pl.Tensor[[512, 1024], pl.FP16],
        out: pl.Out[pl.Tensor[[512, 1024], pl.FP16]],
    ) -> pl.Tensor[[512, 1024], pl.FP16]:
        t = pl.load(x, [0, 0], [512, 1024])
""" + "        t = pl.add(t, t)\n" * 1500 + """        out = pl.store(t, [0, 0], out)
        return out
"""


async def _logged(client: LanguageClient, start: str) -> str:
    """The next message the server logs that starts with `start` (within a minute)."""
    async def wait() -> str:
        while True:
            params = await client.wait_for_notification(types.WINDOW_LOG_MESSAGE)
            if params.message.startswith(start):
                return str(params.message)

    return await asyncio.wait_for(wait(), 60)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.asyncio
async def test_a_newer_edit_stops_a_running_compile(client: LanguageClient) -> None:
    _open(client, SLOW)
    started = await _logged(client, f"pl: compiling {EXAMPLE} (version 1) in process ")
    pid = int(started.rsplit(" ", 1)[1])
    assert _alive(pid)  # version 1's compile runs, in a process of its own
    _change(client, 2, TEXT)
    stopped = await _logged(client, "pl: stopped compiling")
    assert stopped == (f"pl: stopped compiling {EXAMPLE} (version 1): superseded by version 2; "
                       f"process {pid} ended")
    assert not _alive(pid)  # stopped where it was, not left to finish
    # The next diagnostics published are the newest edit's, and nothing replaces them later
    # (version 1's would hold the capacity warning).
    params = await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert params.version == 2
    assert not [d for d in params.diagnostics if d.severity == types.DiagnosticSeverity.Warning]
    hints = await _hints(client)  # the newest edit's: examples/attention.py's
    assert (25, 13, ": Tile[[16, 64], FP32, Acc]") in hints
    await asyncio.sleep(1.0)
    assert client.diagnostics[URI] == params.diagnostics


def _command_json(path: Path, text: str) -> list[tuple[int, int, str, str]]:
    """(line, column, severity, message) of each diagnostic and warning `--json` reports, 0-based."""
    import io
    import json

    from pl.show_inferred import main

    out = io.StringIO()
    main(["--json", "--no-cache", "-"], stdin=io.StringIO(text), stdout=out, stderr=io.StringIO())
    report = json.loads(out.getvalue())
    got = [(d["line"] - 1, d["column"] - 1, d["severity"], d["message"]) for d in report["diagnostics"]]
    got += [(w["line"] - 1, w["column"] - 1, "warning", w["message"]) for w in report["warnings"]]
    return sorted(got)


_SEVERITIES = {types.DiagnosticSeverity.Error: "error", types.DiagnosticSeverity.Warning: "warning",
               types.DiagnosticSeverity.Information: "note"}


@pytest.mark.asyncio
@pytest.mark.parametrize("case", ["attention", "broken", "capacity"])
async def test_diagnostics_are_the_commands(client: LanguageClient, case: str) -> None:
    # The same text and span as `python -m pl.show_inferred --json` on the same text: a note, a
    # located error, a capacity warning (the server's message adds the command's help / note lines).
    path = ROOT / "tests" / "capacity_kernels" / "one_big_tile.py" if case == "capacity" else EXAMPLE
    text = BROKEN if case == "broken" else path.read_text(encoding="utf-8")
    _open(client, text, path.as_uri())
    while True:
        params = await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        if params.uri == path.as_uri():
            break
    got = sorted((d.range.start.line, d.range.start.character, _SEVERITIES[d.severity],  # type: ignore[index]
                  d.message.split("\nhelp: ")[0].split("\nnote: ")[0]) for d in params.diagnostics)
    expected = _command_json(path, text)
    assert got == expected and expected
    if case == "capacity":
        assert got[0][2:] == ("warning", "tile `whole` takes 1 MiB, more than the 184 KiB of Vec on 910B")


async def _actions(client: LanguageClient, uri: str) -> list[types.CodeAction]:
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        range=types.Range(start=types.Position(line=0, character=0),
                          end=types.Position(line=0, character=0)),
        context=types.CodeActionContext(diagnostics=[])))
    assert actions is not None and all(isinstance(a, types.CodeAction) for a in actions)
    return [a for a in actions if isinstance(a, types.CodeAction)]


@pytest.mark.asyncio
async def test_the_code_action_writes_what_write_writes(client: LanguageClient, tmp_path: Path) -> None:
    from pl.show_inferred import main

    example = ROOT / "examples" / "matmul_k_loop.py"  # one that --write regenerates
    text = example.read_text(encoding="utf-8")
    _open(client, text, example.as_uri())
    (action,) = await _actions(client, example.as_uri())
    assert action.title == "Write the inferred annotations"
    assert action.edit is not None and action.edit.changes is not None
    (edit,) = action.edit.changes[example.as_uri()]
    assert edit.range.start == types.Position(line=0, character=0)
    assert edit.range.end == types.Position(line=len(text.splitlines()), character=0)
    copy = tmp_path / example.name
    copy.write_text(text, encoding="utf-8")
    assert main(["--write", "--no-cache", str(copy)]) == 0
    assert edit.new_text == copy.read_text(encoding="utf-8") != text
    # a file already in its inferred form: nothing to offer
    _open(client, copy.read_text(encoding="utf-8"), copy.as_uri())
    assert await _actions(client, copy.as_uri()) == []


def test_import_pl_never_imports_pygls() -> None:
    code = ("import sys, pl, pl.show_inferred; pl.show_inferred.show_inferred; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pygls', 'lsprotocol', 'pl.lsp')"
            " or m.startswith('pl.lsp')))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_neovim_headless_receives_the_hints(tmp_path: Path) -> None:
    # A real editor's client: Neovim's built-in one (tests/editors/nvim_hints.lua) starts the
    # server, opens the example and asks for its inlay hints.
    nvim = shutil.which("nvim")
    if nvim is None:
        if os.environ.get("PL_CI"):
            pytest.fail("nvim is missing under CI (.ci/run installs Debian's neovim)")
        pytest.skip("nvim is not installed (apt-get install neovim)")
    out = tmp_path / "hints.txt"
    env = {**os.environ, "PL_LSP_PYTHON": sys.executable, "PL_LSP_ROOT": str(ROOT),
           "PL_LSP_FILE": str(EXAMPLE), "PL_LSP_OUT": str(out), "PYTHONPATH": str(ROOT)}
    subprocess.run([nvim, "--headless", "--clean", "-c", "luafile tests/editors/nvim_hints.lua"],
                   cwd=ROOT, env=env, capture_output=True, timeout=120, check=True)
    hints = out.read_text(encoding="utf-8").splitlines()
    assert "25:13:: Tile[[16, 64], FP32, Acc]" in hints, hints
    assert "27:16:<- move s to Vec " in hints, hints


def test_neovim_0_7_shows_the_hints(tmp_path: Path) -> None:
    # The README's Lua for Neovim 0.7 to 0.9 (tests/editors/inlay_hints.lua): it asks for the
    # hints itself and shows them at the end of their lines (docs/lsp_hints.png is its screen).
    nvim = shutil.which("nvim")
    if nvim is None:
        if os.environ.get("PL_CI"):
            pytest.fail("nvim is missing under CI (.ci/run installs Debian's neovim)")
        pytest.skip("nvim is not installed (apt-get install neovim)")
    out = tmp_path / "shown.txt"
    env = {**os.environ, "PL_LSP_PYTHON": sys.executable, "PL_LSP_OUT": str(out),
           "PYTHONPATH": str(ROOT)}
    subprocess.run([nvim, "--headless", "--clean", "--cmd", "luafile tests/editors/inlay_hints.lua",
                    "-c", "luafile tests/editors/nvim_virtual_text.lua", str(EXAMPLE)],
                   cwd=ROOT, env=env, capture_output=True, timeout=120, check=True)
    shown = dict(line.split(":", 1) for line in out.read_text(encoding="utf-8").splitlines())
    assert "error" not in shown, shown
    assert shown["21"] == "  hoists the load of q"  # on the block loop
    # line 26: the type after `s`, named, then the moves before the matmul
    assert shown["25"].startswith("  s: Tile[[16, 64], FP32, Acc]   <- move q to Left   "), shown
    assert shown["27"].startswith("  m: Tile[[16, 1], FP32, Vec]   <- move s to Vec"), shown


@pytest.mark.asyncio
async def test_positions_are_in_utf16_units(client: LanguageClient) -> None:
    # An astral character (two UTF-16 units, one Python character) before the loop's hint.
    loop = "        for blk, (acc,) in pl.range(0, 256, 64, init_values=(out,)):"
    text = TEXT.replace(loop, loop + "  # \U0001F60B blocks")
    _open(client, text)
    hints = await _hints(client)
    (col,) = [c for line, c, label in hints if line == 21 and label == "  hoists the load of q"]
    assert col == len((loop + "  # \U0001F60B blocks").encode("utf-16-le")) // 2
