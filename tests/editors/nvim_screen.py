"""Neovim's screen, as it drew it, in an HTML page: how docs/lsp_hints.png was made.

    /usr/bin/python3 tests/editors/nvim_screen.py FILE OUT.html [--size 150x52]

Runs `nvim --embed --clean` on FILE with tests/editors/inlay_hints.lua sourced (the language
server `python -m pl.lsp` started with $PL_LSP_PYTHON), attaches to it as its user interface
(Neovim's UI protocol over msgpack-RPC, `ext_linegrid`, true colours), waits until the hints are
shown, and writes the grid Neovim drew, cell by cell, with the colours and attributes Neovim gave
each cell, as one HTML page (text escaped; nothing else added but the cursor's cell). Needs the
`msgpack` module (Debian's python3-msgpack), which is why it is not a test; the test of the same
Lua is tests/test_lsp.py::test_neovim_0_7_shows_the_hints. The screenshot:

    chromium --headless --screenshot=docs/lsp_hints.png --window-size=W,H OUT.html
"""

from __future__ import annotations

import argparse
import html
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import msgpack

HERE = Path(__file__).resolve().parent


class Nvim:
    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
        self.unpacker = msgpack.Unpacker(raw=False, strict_map_key=False)
        self.next_id = 0
        self.answers: dict[int, Any] = {}
        self.notes: list[Any] = []

    def _read(self) -> None:
        assert self.proc.stdout is not None
        data = os.read(self.proc.stdout.fileno(), 1 << 16)
        if not data:
            raise SystemExit("nvim ended")
        self.unpacker.feed(data)
        for message in self.unpacker:
            if message[0] == 1:  # [1, id, error, result]
                self.answers[message[1]] = (message[2], message[3])
            elif message[0] == 2:  # [2, method, params]
                self.notes.append(message)

    def request(self, method: str, *params: Any) -> Any:
        assert self.proc.stdin is not None
        self.next_id += 1
        self.proc.stdin.write(msgpack.packb([0, self.next_id, method, list(params)]))
        self.proc.stdin.flush()
        while self.next_id not in self.answers:
            self._read()
        error, result = self.answers.pop(self.next_id)
        if error:
            raise SystemExit(f"{method}: {error}")
        return result


class Grid:
    """The cells of grid 1 and the highlight definitions, as the redraw events set them."""

    def __init__(self) -> None:
        self.rows: list[list[tuple[str, int]]] = []
        self.attrs: dict[int, dict[str, Any]] = {0: {}}
        self.fg, self.bg = 0xFFFFFF, 0x000000
        self.cursor = (0, 0)
        self.flushed = False

    def event(self, name: str, args: list[Any]) -> None:
        if name == "grid_resize":
            _, width, height = args
            self.rows = [[(" ", 0)] * width for _ in range(height)]
        elif name == "default_colors_set":
            fg, bg = args[0], args[1]
            self.fg = fg if fg >= 0 else self.fg
            self.bg = bg if bg >= 0 else self.bg
        elif name == "hl_attr_define":
            self.attrs[args[0]] = args[1]
        elif name == "grid_clear":
            self.rows = [[(" ", 0)] * len(row) for row in self.rows]
        elif name == "grid_cursor_goto":
            self.cursor = (args[1], args[2])
        elif name == "grid_line":
            _, row, col, cells = args[:4]
            hl = 0
            for cell in cells:
                text = cell[0]
                hl = cell[1] if len(cell) > 1 else hl
                for _ in range(cell[2] if len(cell) > 2 else 1):
                    self.rows[row][col] = (text, hl)
                    col += 1
        elif name == "grid_scroll":
            _, top, bot, left, right, rows = args[:6]
            old = [list(r) for r in self.rows]
            for r in range(top, bot):
                src = r + rows
                if top <= src < bot:
                    self.rows[r][left:right] = old[src][left:right]
        elif name == "flush":
            self.flushed = True

    def html(self, title: str) -> str:
        def colour(value: int) -> str:
            return f"#{value:06x}"

        out = []
        for r, row in enumerate(self.rows):
            spans, run, style = [], "", None
            for c, (text, hl) in enumerate(row):
                a = self.attrs.get(hl, {})
                fg = a.get("foreground", self.fg)
                bg = a.get("background", self.bg)
                if a.get("reverse"):
                    fg, bg = bg, fg
                if (r, c) == self.cursor:
                    fg, bg = bg, fg
                css = f"color:{colour(fg)};background:{colour(bg)}"
                css += ";font-weight:bold" if a.get("bold") else ""
                css += ";font-style:italic" if a.get("italic") else ""
                css += ";text-decoration:underline" if a.get("underline") or a.get("undercurl") else ""
                if css != style and run:
                    spans.append(f'<span style="{style}">{html.escape(run)}</span>')
                    run = ""
                style = css
                run += text
            if run:
                spans.append(f'<span style="{style}">{html.escape(run)}</span>')
            out.append(f'<div class="row">{"".join(spans)}</div>')
        return ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
                f"<title>{html.escape(title)}</title><style>"
                f"body{{margin:0;background:{colour(self.bg)}}}"
                ".row{font:15px/19px 'DejaVu Sans Mono',monospace;white-space:pre;height:19px}"
                f"</style></head><body>{''.join(out)}</body></html>\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file")
    parser.add_argument("out")
    parser.add_argument("--size", default="150x52")
    parser.add_argument("--colorscheme", default="default")
    args = parser.parse_args()
    width, height = (int(n) for n in args.size.split("x"))
    # (--cmd: before FILE is read, so that its FileType event starts the server)
    nvim = Nvim(["nvim", "--embed", "--clean", "-n",
                 "--cmd", f"set termguicolors background=dark | colorscheme {args.colorscheme}",
                 "--cmd", f"luafile {HERE / 'inlay_hints.lua'}", args.file],
                {**os.environ})
    grid = Grid()
    nvim.request("nvim_ui_attach", width, height, {"rgb": True, "ext_linegrid": True})
    deadline = time.monotonic() + 120
    shown = False
    while time.monotonic() < deadline:
        if not shown:
            shown = bool(nvim.request("nvim_exec_lua", "return vim.b.pl_inlay_hints or false", []))
            if shown:
                nvim.request("nvim_command", "redraw!")
        for message in nvim.notes:
            if message[1] == "redraw":
                for batch in message[2]:
                    for event_args in batch[1:]:
                        grid.event(batch[0], event_args)
        nvim.notes.clear()
        if shown and grid.flushed:
            break
        grid.flushed = False
        time.sleep(0.2)
    else:
        raise SystemExit("no hints were shown within 120 s")
    Path(args.out).write_text(grid.html(f"nvim {args.file}"), encoding="utf-8")
    assert nvim.proc.stdin is not None
    nvim.proc.stdin.write(msgpack.packb([2, "nvim_command", ["qa!"]]))  # (no answer comes)
    nvim.proc.stdin.close()
    nvim.proc.wait(30)


if __name__ == "__main__":
    sys.exit(main())
