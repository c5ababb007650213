"""`python -m pl.show_inferred --html OUT.html FILE`: the page, read as HTML and rendered by a browser.

The browser tests load the page in headless Chromium (the Debian package `chromium`; `.ci/run`
installs it) and check the DOM after load and a screenshot. Outside CI (`PL_CI` unset) they skip
when Chromium is absent; under CI they fail. Screenshots go to `$PL_TEST_ARTIFACTS` when set, else
to the test's tmp_path; the path is printed.
"""

from __future__ import annotations

import io
import os
import re
import shutil
import struct
import subprocess
import tempfile
import zlib
from html.parser import HTMLParser
from pathlib import Path

import pytest

from pl.ir.enums import MemorySpace
from pl.ir.target import KIB
from pl.ops.backend import capacity
from pl.show_inferred.cli import main

# examples/stationary_lhs.py (a tensor-level kernel whose stationary LHS load is hoisted, with
# moves to Left/Right), with text that must show as text in its docstring and in a comment.
_EXAMPLE = (Path(__file__).parent.parent / "examples" / "stationary_lhs.py").read_text()
HOISTING = _EXAMPLE.replace('"""A tensor-level', '"""<b>bold?</b> & friends: a tensor-level', 1) \
    .replace("        for n, (acc,)", '        # <script>alert("pwned")</script>\n        for n, (acc,)', 1)
LOOP_LINE = HOISTING.splitlines().index(next(ln for ln in HOISTING.splitlines()
                                             if "for n, (acc,)" in ln)) + 1

# A tile-level kernel: two 1 MiB Vec tiles (over the 910B's 184 KiB) and a matmul whose operands
# inference moves to Left / Right.
TILES = '''import pl


@pl.program
class Tiles:
    @pl.function(type=pl.FunctionType.InCore)
    def big(
        self,
        x: pl.Tensor[[512, 1024], pl.FP16],
        out: pl.Out[pl.Tensor[[512, 1024], pl.FP16]],
    ) -> pl.Tensor[[512, 1024], pl.FP16]:
        t = pl.load(x, [0, 0], [512, 1024])
        u = pl.add(t, t)  # </pre><script>bad()</script>
        out = pl.store(u, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.InCore)
    def mm(
        self,
        a: pl.Tensor[[16, 32], pl.FP16],
        b: pl.Tensor[[32, 16], pl.FP16],
        c: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        a_t = pl.load(a, [0, 0], [16, 32], target_memory=pl.MemorySpace.Mat)
        b_t = pl.load(b, [0, 0], [32, 16], target_memory=pl.MemorySpace.Mat)
        c_t = pl.matmul(a_t, b_t)
        c = pl.store(c_t, [0, 0], c)
        return c
'''

PASSES = ["frontend", "unroll_loops", "flatten_call_expr", "convert_to_ssa", "outline_incore_scopes",
          "convert_tensor_to_tile_ops", "flatten_tile_nd_to_2d", "auto_tile_matmul_l0", "canonicalize_tile_slice",
          "infer_tile_memory_space"]


class Element:
    def __init__(self, tag: str, attrs: dict[str, str], parent: Element | None) -> None:
        self.tag, self.attrs, self.text, self.parent = tag, attrs, "", parent

    @property
    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())


class Dom(HTMLParser):
    """Every element of a page, in document order, with the text inside it."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[Element] = []
        self.open: list[Element] = []
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        e = Element(tag, {k: v or "" for k, v in attrs}, self.open[-1] if self.open else None)
        self.elements.append(e)
        if tag not in ("meta", "br", "img", "link", "input"):
            self.open.append(e)

    def handle_endtag(self, tag: str) -> None:
        while self.open:
            if self.open.pop().tag == tag:
                break

    def handle_data(self, data: str) -> None:
        for e in self.open:
            e.text += data

    def find(self, *classes: str, tag: str | None = None) -> list[Element]:
        return [e for e in self.elements if set(classes) <= e.classes
                and (tag is None or e.tag == tag)]

    def marked(self, *classes: str) -> list[Element]:
        """The names marked in a kernel's text (they carry their reasons as the hover title)."""
        return [e for e in self.find(*classes, tag="span") if e.attrs.get("title")]


def _html(tmp_path: Path, name: str, text: str, *options: str) -> tuple[int, str, str, Path]:
    src = tmp_path / name
    src.write_text(text)
    out = tmp_path / (name + ".html")
    stdout, stderr = io.StringIO(), io.StringIO()
    status = main(["--no-cache", "--html", str(out), *options, str(src)], stdout=stdout,
                  stderr=stderr)
    return status, stdout.getvalue(), stderr.getvalue(), out


# -- the page as HTML text ---------------------------------------------------------------------
def test_html_page_is_self_contained_and_escapes_the_users_text(tmp_path: Path) -> None:
    status, stdout, _, out = _html(tmp_path, "panel.py", HOISTING)
    assert status == 0 and stdout == ""
    page = out.read_text(encoding="utf-8")
    assert "<script" not in page.lower()  # the page has none; the kernel's is escaped
    assert '# &lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt;' in page
    assert "&lt;b&gt;bold?&lt;/b&gt; &amp; friends" in page
    assert HOISTING != _EXAMPLE and HOISTING.count("<script>") == 1
    assert not re.search(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//""", page)  # nothing fetched
    assert "@import" not in page and "url(" not in page


def test_html_marks_tiles_moves_and_hoisted_loads_with_the_explain_reasons(tmp_path: Path) -> None:
    status, _, _, out = _html(tmp_path, "panel.py", HOISTING)
    assert status == 0
    explain = io.StringIO()
    assert main(["--no-cache", "--explain", str(tmp_path / "panel.py")], stdout=explain,
                stderr=io.StringIO()) == 0
    reasons = {line.split(": ", 1)[1] for line in explain.getvalue().splitlines()
               if line.startswith("  ") and not line.startswith(("    |", "  left as"))}
    dom = Dom(out.read_text(encoding="utf-8"))
    titles = {t for e in dom.marked("tile") + dom.marked("hoisted") + dom.marked("kept")
              for t in e.attrs.get("title", "").split("\n") if t}
    # The tensor-level kernel is shown as it compiles, its values named as the regenerated
    # file names them: every entry is marked.
    assert reasons <= titles, reasons - titles
    hoisted = dom.marked("hoisted", "tile")
    assert [e.text for e in hoisted] == ["lhs_mat"]
    assert f"hoisted before the loop at line {LOOP_LINE}" in hoisted[0].attrs["title"]
    moves = dom.marked("move", "tile")
    assert {(e.text, frozenset(e.classes & {"sp-Left", "sp-Right"})) for e in moves} == {
        ("lhs_mat_Left", frozenset({"sp-Left"})), ("rhs_n_mat_Right", frozenset({"sp-Right"}))}
    assert all("inserted move of" in e.attrs["title"] for e in moves)
    assert dom.find("ln", "hoisted-line") and len(dom.find("ln", "move-line")) == 2


def test_html_bars_compare_footprint_with_capacity(tmp_path: Path) -> None:
    status, _, _, out = _html(tmp_path, "tiles.py", TILES)
    assert status == 0
    dom = Dom(out.read_text(encoding="utf-8"))
    big = next(e for e in dom.find("function") if e.attrs["data-function"] == "big")
    at = dom.elements.index(big)
    vec = next(e for e in dom.elements[at:] if "bar-row" in e.classes)
    # Two 1 MiB FP16 tiles, laid one after the other, against 184 KiB.
    assert vec.attrs["data-space"] == "Vec" and "over" in vec.classes
    assert vec.attrs["data-bytes"] == str(2 * 1024 * KIB)
    assert vec.attrs["data-capacity"] == str(capacity("910B", MemorySpace.Vec))
    mm_rows = [e for e in dom.find("bar-row") if e.attrs["data-space"] in ("Left", "Right")]
    assert mm_rows and all("ok" in e.classes for e in mm_rows)
    status, _, _, out = _html(tmp_path, "tiles.py", TILES, "--backend", "none")
    assert status == 0
    rows = Dom(out.read_text(encoding="utf-8")).find("bar-row")
    assert rows and all("nocap" in e.classes and e.attrs["data-capacity"] == "0" for e in rows)
    assert all("no backend" in e.text for e in rows)


def test_html_kernel_lines_are_numbered_as_python_numbers_them(tmp_path: Path) -> None:
    # A form feed ends a line for str.splitlines, not for Python: the marks stay on their lines.
    text = TILES.replace("import pl\n", "import pl  # page\x0cbreak\n", 1)
    status, _, _, out = _html(tmp_path, "ff.py", text)
    assert status == 0
    dom = Dom(out.read_text(encoding="utf-8"))
    kernel = dom.find("kernel", tag="pre")[0]
    rows = [e for e in dom.find("ln") if e.parent is kernel]
    printed = io.StringIO()
    assert main(["--no-cache", str(tmp_path / "ff.py")], stdout=printed) == 0
    assert len(rows) == printed.getvalue().count("\n")  # the regenerated file, line for line
    marked = [e for e in dom.marked("tile") if e.parent in rows]
    assert len(marked) == 7  # t, u; a_t, b_t, c_t and the moves a_t_Left, b_t_Right
    for e in marked:
        assert e.parent is not None and e.parent.text.lstrip().startswith(f"{e.text}:")


def test_html_trace_lists_every_pass_with_its_changes(tmp_path: Path) -> None:
    dumped = tmp_path / "dumped"
    status, _, _, out = _html(tmp_path, "tiles.py", TILES, "--dump-passes", str(dumped))
    assert status == 0
    dom = Dom(out.read_text(encoding="utf-8"))
    stages = dom.find("pass", tag="details")
    assert [e.attrs["data-pass"] for e in stages] == PASSES
    infer = stages[-1]
    assert int(infer.attrs["data-changed"]) > 0 and "MemorySpace.Left" in infer.text
    unroll = stages[1]  # no pl.unroll in the kernel: the pass changes nothing
    assert "same" in unroll.classes and unroll.attrs["data-changed"] == "0"
    # --dump-passes still gets its files when --html reads them.
    assert sorted(p.name for p in dumped.iterdir())[0] == "00_frontend.py"


TWO_PROGRAMS = '''import pl as p


@p.program
class First:
    @p.function(type=p.FunctionType.InCore)
    def k(self, x: p.Tensor[[16, 16], p.FP32],
          out: p.Out[p.Tensor[[16, 16], p.FP32]]) -> p.Tensor[[16, 16], p.FP32]:
        t = p.load(x, [0, 0], [16, 16])
        out = p.store(t, [0, 0], out)
        return out


@p.program
class Second:
    @p.function(type=p.FunctionType.InCore)
    def k(self, x: p.Tensor[[16, 16], p.FP32],
          out: p.Out[p.Tensor[[16, 16], p.FP32]]) -> p.Tensor[[16, 16], p.FP32]:
        t = p.load(x, [0, 0], [16, 16])
        e = p.exp(t)
        out = p.store(e, [0, 0], out)
        return out
'''


def test_html_two_programs_in_one_file_each_get_their_trace(tmp_path: Path) -> None:
    status, _, _, out = _html(tmp_path, "two.py", TWO_PROGRAMS)
    assert status == 0
    dom = Dom(out.read_text(encoding="utf-8"))
    assert [e.attrs["data-program"] for e in dom.find("program")] == ["First", "Second"]
    assert [e.attrs["data-pass"] for e in dom.find("pass", tag="details")] == PASSES * 2
    # Each program's `t` is marked on its own line, in the spelling the file imports (`p.`).
    marked = [(e.text, e.attrs["title"]) for e in dom.marked("tile", "sp-Vec")]
    assert [name for name, _ in marked] == ["t", "t", "e"]
    assert marked[2][1] == "e -> Vec: fixed output space of tile.exp"


def test_html_bad_kernel_is_a_located_error_and_writes_nothing(tmp_path: Path) -> None:
    bad = HOISTING.replace("pl.matmul(lhs, rhs_n, out_dtype=pl.FP32)", "pl.matmul(lhs, nope)")
    assert bad != HOISTING
    status, stdout, stderr, out = _html(tmp_path, "bad.py", bad)
    assert status == 2 and stdout == "" and not out.exists()
    assert re.search(r"bad\.py:\d+:\d+", stderr) and "Traceback" not in stderr
    assert f"{out} was not written" in stderr
    out.write_text("old report")  # a report already there stays as it was
    assert _html(tmp_path, "bad.py", bad)[0] == 2
    assert out.read_text() == "old report"


def test_html_unwritable_output_is_a_user_error(tmp_path: Path) -> None:
    src = tmp_path / "tiles.py"
    src.write_text(TILES)
    stderr = io.StringIO()
    status = main(["--no-cache", "--html", str(tmp_path / "missing" / "r.html"), str(src)],
                  stdout=io.StringIO(), stderr=stderr)
    assert status == 2 and "cannot write" in stderr.getvalue()
    assert list(tmp_path.iterdir()) == [src]


# Two matmuls in a loop read one stationary operand: lowering loads it once per matmul, both loads
# are named alike in the compiled program (`lhs__ssa_v0_mat`), and residency hoists both.
SHARED_LHS = '''import pl


@pl.program
class SharedLhs:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        lhs: pl.Tensor[[16, 128], pl.BF16],
        rhs: pl.Tensor[[128, 256], pl.BF16],
        rhs2: pl.Tensor[[128, 256], pl.BF16],
        out: pl.Out[pl.Tensor[[16, 256], pl.FP32]],
    ) -> pl.Tensor[[16, 256], pl.FP32]:
        for n, (acc,) in pl.range(0, 256, 128, init_values=(out,)):
            rhs_n = pl.slice(rhs, [128, 128], [0, n])
            rhs2_n = pl.slice(rhs2, [128, 128], [0, n])
            c_n = pl.matmul(lhs, rhs_n, out_dtype=pl.FP32)
            d_n = pl.matmul(lhs, rhs2_n, out_dtype=pl.FP32)
            e_n = pl.add(c_n, d_n)
            result = pl.yield_(pl.assemble(acc, e_n, [0, n]))
        return result

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        rhs: pl.Tensor[[128, 256], pl.BF16],
        rhs2: pl.Tensor[[128, 256], pl.BF16],
        out: pl.Out[pl.Tensor[[16, 256], pl.FP32]],
    ) -> pl.Tensor[[16, 256], pl.FP32]:
        fresh_lhs = pl.create_tensor([16, 128], dtype=pl.BF16)
        result = self.kernel(fresh_lhs, rhs, rhs2, out)
        return result
'''

# One name, three bindings in three spaces: `t` in Acc (a matmul), then in Vec (an exp of its
# move); `a` loaded in Vec, then rebound by a subscript write (an assemble).
REBOUND = '''import pl


@pl.program
class Rebound:
    @pl.function(type=pl.FunctionType.InCore)
    def mm(
        self,
        a: pl.Tensor[[16, 32], pl.FP16],
        b: pl.Tensor[[32, 16], pl.FP16],
        c: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        a_t = pl.load(a, [0, 0], [16, 32], target_memory=pl.MemorySpace.Mat)
        b_t = pl.load(b, [0, 0], [32, 16], target_memory=pl.MemorySpace.Mat)
        t = pl.matmul(a_t, b_t)
        t = pl.exp(t)
        c = pl.store(t, [0, 0], c)
        return c

    @pl.function(type=pl.FunctionType.InCore)
    def window(
        self,
        x: pl.Tensor[[16, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        a = pl.load(x, [0, 0], [16, 64])
        e = pl.exp(a[:, 0:32])
        a[:, 0:32] = e
        out = pl.store(a, [0, 0], out)
        return out
'''


def _kernel_marks(dom: Dom) -> list[tuple[int, Element]]:
    """(line, mark) of every name marked in the regenerated kernel."""
    kernel = dom.find("kernel", tag="pre")[0]
    return [(int(e.parent.attrs["data-n"]), e) for e in dom.marked()
            if e.parent is not None and e.parent.parent is kernel]


def test_html_marks_every_hoisted_load_of_an_operand_two_matmuls_share(tmp_path: Path) -> None:
    status, _, _, out = _html(tmp_path, "shared.py", SHARED_LHS)
    assert status == 0
    marks = _kernel_marks(Dom(out.read_text(encoding="utf-8")))
    loop = next(n for n, line in enumerate(SHARED_LHS.splitlines(), 1) if "for n, (acc,)" in line)
    hoisted = [(n, e) for n, e in marks if "hoisted" in e.classes]
    # Two loads of `lhs`, each with its own name, both before the loop, both marked hoisted.
    assert len(hoisted) == 2 and len({e.text for _, e in hoisted}) == 2, hoisted
    printed = io.StringIO()
    assert main(["--no-cache", str(tmp_path / "shared.py")], stdout=printed) == 0
    lines = printed.getvalue().splitlines()
    for n, e in hoisted:
        assert lines[n - 1].lstrip().startswith(f"{e.text}: pl.Tile["), lines[n - 1]
        assert n < next(i for i, line in enumerate(lines, 1) if line.lstrip().startswith("for n"))
        assert "sp-Mat" in e.classes
        titles = e.attrs["title"].split("\n")
        assert all(t.startswith(f"{e.text} ") for t in titles), titles
        assert f"{e.text} hoisted before the loop at line {loop}" in e.attrs["title"]
    # Each load's move to Left is marked on its own line, its words about it alone.
    moves = [e for _, e in marks if "sp-Left" in e.classes]
    assert len(moves) == 2 and len({e.text for e in moves}) == 2
    assert all(len(e.attrs["title"].split("\n")) == 1 for e in moves)
    loads = sorted(e.text for _, e in hoisted)
    assert sorted(e.attrs["title"].split("inserted move of ")[1].split(",")[0] for e in moves) \
        == loads


def test_html_a_rebound_name_shows_each_bindings_own_decisions(tmp_path: Path) -> None:
    status, _, _, out = _html(tmp_path, "rebound.py", REBOUND)
    assert status == 0
    marks = _kernel_marks(Dom(out.read_text(encoding="utf-8")))
    for _, e in marks:  # one space per binding, never the union of a name's
        assert len([c for c in e.classes if c.startswith("sp-")]) == 1, (e.text, e.classes)
    t = [(e.classes & {"sp-Acc", "sp-Vec"}, e.attrs["title"]) for _, e in marks if e.text == "t"]
    assert t == [({"sp-Acc"}, "t -> Acc: fixed output space of tile.matmul"),
                 ({"sp-Vec"}, "t -> Vec: fixed output space of tile.exp")]
    a = [(n, e.attrs["title"]) for n, e in marks if e.text == "a" and "tile" in e.classes]
    # The load and the subscript write (an assemble into it), each on its own line.
    assert len(a) == 2 and a[0][0] < a[1][0]
    assert "tile.load" in a[0][1] and "assemble" not in a[0][1]
    assert "assemble" in a[1][1] and "tile.load" not in a[1][1]


# -- the page in a browser ---------------------------------------------------------------------
def _chromium() -> str:
    found = shutil.which("chromium")
    if found is None:
        if os.environ.get("PL_CI"):
            pytest.fail("chromium is missing under CI: .ci/run installs the Debian package")
        pytest.skip("headless Chromium is not installed (apt-get install chromium); "
                    ".ci/run installs it and runs this test")
    return found


def _browse(page: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    with tempfile.TemporaryDirectory(prefix="pl-chromium-") as profile:
        return subprocess.run(
            [_chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
             "--no-first-run", "--disable-background-networking", "--disable-component-update",
             "--disable-sync", f"--user-data-dir={profile}", *flags, page.as_uri()],
            capture_output=True, text=True, timeout=180, check=True)


def _png_pixels(data: bytes) -> tuple[int, int, bytes]:
    """Width, height and the inflated scanlines of a PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at, idat, size = 8, b"", (0, 0)
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        chunk = data[at + 8:at + 8 + length]
        if kind == b"IHDR":
            size = struct.unpack(">II", chunk[:8])
        elif kind == b"IDAT":
            idat += chunk
        at += 12 + length
    return size[0], size[1], zlib.decompress(idat)


def _artifacts(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("PL_TEST_ARTIFACTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_html_report_renders_in_chromium(tmp_path: Path) -> None:
    _chromium()
    both = tmp_path / "both"
    both.mkdir()
    (both / "panel.py").write_text(HOISTING)
    (both / "tiles.py").write_text(TILES)
    out = tmp_path / "report.html"
    status = main(["--no-cache", "--html", str(out), str(both / "panel.py"),
                   str(both / "tiles.py")], stdout=io.StringIO(), stderr=io.StringIO())
    assert status == 0
    dom = Dom(_browse(out, "--dump-dom").stdout)
    assert not [e for e in dom.elements if e.tag == "script"]  # the kernels' texts stayed text
    assert any('<script>alert("pwned")</script>' in e.text for e in dom.find("ln"))
    assert any("</pre><script>bad()</script>" in e.text for e in dom.find("ln"))
    assert [e.attrs["data-program"] for e in dom.find("program")] == ["StationaryLhs", "Tiles"]
    # Every tile of the tile-level kernel is coloured where it is assigned, with its reason.
    spans = {e.text: e for e in dom.marked("tile")}
    for name, space in [("t", "Vec"), ("u", "Vec"), ("a_t", "Mat"), ("b_t", "Mat"),
                        ("c_t", "Acc"), ("a_t_Left", "Left"), ("b_t_Right", "Right")]:
        assert f"sp-{space}" in spans[name].classes, name
        assert spans[name].attrs["title"].startswith(f"{name} -> {space}: ")
    assert "move" in spans["a_t_Left"].classes and "move" not in spans["a_t"].classes
    assert dom.marked("hoisted", "tile")
    rows = dom.find("bar-row")
    over = [e for e in rows if "over" in e.classes]
    assert [e.attrs["data-space"] for e in over] == ["Vec"]
    fills = [e for e in dom.find("fill") if e.tag == "span"]
    assert len(fills) == len(rows)
    for row, fill in zip(rows, fills, strict=True):
        used, cap = int(row.attrs["data-bytes"]), int(row.attrs["data-capacity"])
        width = float(re.fullmatch(r"width:\s*([\d.]+)%;?", fill.attrs["style"]).group(1))
        assert width == pytest.approx(min(100.0, 100.0 * used / cap), abs=0.01)
        assert ("over" in fill.classes) == (used > cap)
    passes = [e.attrs["data-pass"] for e in dom.find("pass", tag="details")]
    assert passes == PASSES * 2
    assert dom.find("ln", "chg") and dom.find("ln", "del")

    shot = _artifacts(tmp_path) / "html_report.png"
    _browse(out, f"--screenshot={shot}", "--window-size=1200,1600")
    print(f"screenshot of the HTML report: {shot}")
    data = shot.read_bytes()
    width, height, pixels = _png_pixels(data)
    assert (width, height) == (1200, 1600) and len(data) > 20_000
    assert len(set(pixels)) > 16  # not a blank page: text and colours


def test_html_bar_says_when_fewer_bytes_are_live_at_once(tmp_path: Path) -> None:
    # The auto-tiled blocks are used one after another: the whole-function bound is over the
    # 910B's Acc, but what is live at once fits, and no capacity warning is given; the bar says so.
    text = (Path(__file__).parent.parent / "examples" / "mn_tiled_split_k.py").read_text(encoding="utf-8")
    status, _, err, out = _html(tmp_path, "split_k.py", text)
    assert status == 0 and "Warning" not in err
    acc = next(e for e in Dom(out.read_text(encoding="utf-8")).find("bar-row")
               if e.attrs["data-space"] == "Acc")
    assert "over" in acc.classes
    assert "at most 128 KiB live at once" in acc.text
