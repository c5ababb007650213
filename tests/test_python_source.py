"""Kernel files are read as Python reads them, and written back the way they were stored.

Tests as data: every example is re-stored (`STORAGES`: a UTF-8 BOM, CRLF line ends, latin-1 with a
PEP 263 cookie and non-ASCII in a comment and a string) or re-spelled (`SPELLINGS`: form feeds in
indentation, identifiers in NFKC-equal fullwidth letters). A re-stored file regenerates to exactly
the re-stored regeneration of the plain file (`--write` keeps encoding, BOM and line ends). A
re-spelled file is the same program to every reader (`pl.parse`, `@pl.program` on an imported
module, show_inferred): its compiled programs equal the plain file's, its regeneration reads (as
Python reads it) as the plain regeneration, and its unchanged lines stay the user's own.
"""

from __future__ import annotations

import codecs
import importlib.util
import io
import keyword
import re
import subprocess
import sys
import tokenize
import unicodedata
from collections.abc import Callable
from pathlib import Path

import pytest

import pl
import pl.show_inferred as cli
from pl.errors import PlError, python_lines
from pl.ir.function import Program
from pl.lowering.source.python import Stored, decode, encode, python_view, restore
from pl.show_inferred.run import run_text, show_inferred
from pl.structural import structural_equal

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))


def _latin1(text: str) -> bytes:
    cookie = "# -*- coding: latin-1 -*-\n"
    extra = "\n# caf\u00e9 \u00e0 la cr\u00e8me\nNOTE = 'd\u00e9j\u00e0 vu'\n"
    return (cookie + text + extra).encode("latin-1")


# bytes of the plain text -> bytes of the same file stored another way (an invertible mapping of
# the text that every regeneration must carry through).
STORAGES: dict[str, Callable[[str], bytes]] = {
    "bom": lambda t: codecs.BOM_UTF8 + t.encode(),
    "crlf": lambda t: t.replace("\n", "\r\n").encode(),
    "cr": lambda t: t.replace("\n", "\r").encode(),  # old Mac line ends
    "latin1_cookie": _latin1,
    "bom_crlf": lambda t: codecs.BOM_UTF8 + t.replace("\n", "\r\n").encode(),
}


def _tokens(text: str) -> list[tokenize.TokenInfo]:
    return list(tokenize.generate_tokens(io.StringIO(text).readline))


def _form_feeds(text: str) -> str:
    """A form feed (with stray blanks before it) opening the indentation of every indented line."""
    starts = {t.start[0] for t in _tokens(text) if t.type == tokenize.INDENT}
    lines = python_lines(text)
    for row in starts:
        lines[row - 1] = "  \f" + lines[row - 1]
    return "".join(lines)


def _fullwidth(text: str) -> str:
    """Every identifier's first letter in its fullwidth form (NFKC maps it back)."""
    lines = python_lines(text)
    for t in reversed(_tokens(text)):
        if t.type == tokenize.NAME and not keyword.iskeyword(t.string) and t.string[0].isalpha() \
                and t.string[0].isascii():
            row, col = t.start[0] - 1, t.start[1]
            lines[row] = lines[row][:col] + chr(ord(t.string[0]) + 0xFEE0) + lines[row][col + 1:]
    return "".join(lines)


def _plain(line: str) -> str:
    """One line of a re-spelled file spelled plainly again (both re-spellings undone)."""
    return unicodedata.normalize("NFKC", re.sub(r"^[ \t\f]*\f", "", line))


SPELLINGS: dict[str, Callable[[str], str]] = {"form_feed": _form_feeds, "fullwidth": _fullwidth}


def _programs(text: str, filename: str) -> list[Program]:
    return [c.source for c in run_text(text, filename, backend="910B").compiled]


@pytest.mark.parametrize("storage", STORAGES)
@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.stem)
def test_write_keeps_encoding_bom_and_line_ends(example: Path, storage: str, tmp_path: Path) -> None:
    plain = example.read_text(encoding="utf-8")
    store = STORAGES[storage]
    path = tmp_path / example.name
    path.write_bytes(store(plain))
    out, err = io.StringIO(), io.StringIO()
    code = cli.main(["--write", "--no-cache", str(path)], stdout=out, stderr=err)
    assert code == 0, err.getvalue()
    assert path.read_bytes() == store(show_inferred(plain))


@pytest.mark.parametrize("storage", STORAGES)
def test_parse_reads_stored_bytes(storage: str) -> None:
    plain = EXAMPLES[0].read_text(encoding="utf-8")
    assert structural_equal(pl.parse(STORAGES[storage](plain)), pl.parse(plain))


@pytest.mark.parametrize("spelling", SPELLINGS)
@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.stem)
def test_respelled_file_is_the_same_program(example: Path, spelling: str, tmp_path: Path) -> None:
    plain = example.read_text(encoding="utf-8")
    text = SPELLINGS[spelling](plain)
    assert text != plain and python_view(text) == plain
    # show_inferred: same compiled programs, a regeneration Python reads as the plain one
    path = tmp_path / example.name
    path.write_text(text, encoding="utf-8")
    regenerated = run_text(text, str(path), backend="910B")
    want = show_inferred(plain)
    assert python_view(regenerated.output) == want
    for got, ref in zip(regenerated.compiled, run_text(plain, str(example)).compiled, strict=True):
        assert structural_equal(got.source, ref.source) and structural_equal(got.program, ref.program)
    # every line the regeneration did not change is the user's line, as written
    changed = set(python_lines(want)) - set(python_lines(plain))
    mine = [ln for ln in python_lines(regenerated.output) if _plain(ln) not in changed]
    assert set(mine) <= set(python_lines(text))
    # ... and in changed lines too, every name is spelled as the user spells it
    spelled = {unicodedata.normalize("NFKC", t.string): t.string for t in _tokens(text)
               if t.type == tokenize.NAME}
    assert all(spelled.get(unicodedata.normalize("NFKC", t.string), t.string) == t.string
               for t in _tokens(regenerated.output) if t.type == tokenize.NAME)
    # pl.parse, and @pl.program on the module Python imports
    if len(regenerated.compiled) == 1:
        assert structural_equal(pl.parse(text), pl.parse(plain))
    spec = importlib.util.spec_from_file_location(f"_respelled_{spelling}_{example.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
    finally:
        sys.modules.pop(spec.name, None)
    imported = [v for v in vars(module).values() if isinstance(v, Program)]
    assert [p.name for p in imported] == [c.source.name for c in regenerated.compiled]
    for got, ref in zip(imported, regenerated.compiled, strict=True):
        assert structural_equal(got, ref.source)


def test_names_equal_under_nfkc_are_one_name() -> None:
    text = EXAMPLES[0].read_text(encoding="utf-8")
    assert structural_equal(pl.parse(_fullwidth(text)), pl.parse(text))
    # one occurrence respelled: the use still finds the definition written in ASCII
    one = ("import pl\n\n\n@pl.program\nclass K:\n    @pl.function\n"
           "    def f(self, a: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:\n"
           "        t = pl.add(a, a)\n        return \uff54\n")
    assert structural_equal(pl.parse(one), pl.parse(one.replace("\uff54", "t")))


def test_changed_lines_keep_the_users_spelling_of_every_name() -> None:
    base = ("import pl\n\n\n@pl.program\nclass K:\n    @pl.function(type=pl.FunctionType.InCore)\n"
            "    def f(self, x: pl.Tensor[[16, 64], pl.FP32],"
            " out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:\n"
            "        T = pl.load(x, [0, 0], [16, 64])\n        u = pl.add(T, T)  # T twice\n"
            "        out = pl.store(u, [0, 0], out)\n        return out\n")
    tile = "pl.Tile[[16, 64], pl.FP32, pl.MemorySpace.Vec]"
    single = base.replace("T", "\uff34").replace("# \uff34", "# T")  # fullwidth T, not in comments
    out = show_inferred(single)
    assert f"        u: {tile} = pl.add(\uff34, \uff34)  # T twice\n" in out
    # a name spelled two ways keeps each spelling where the user wrote it
    mixed = single.replace("pl.add(\uff34, \uff34)", "pl.add(\uff34, T)")
    assert f"        u: {tile} = pl.add(\uff34, T)  # T twice\n" in show_inferred(mixed)


# A rebinding spelled in another NFKC form of the name: every spelling of each name the
# regeneration writes into an annotated line (the target, the arguments, the DSL root) stays.
_REBOUND = ("import pl\n\n\n@pl.program\nclass K:\n    @pl.function(type=pl.FunctionType.InCore)\n"
            "    def f(self, x: pl.Tensor[[16, 64], pl.FP32],"
            " out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:\n"
            "        t = pl.load(x, [0, 0], [16, 64])\n        {line}\n"
            "        out = pl.store(t, [0, 0], out)\n        return out\n")


@pytest.mark.parametrize("line", [
    "\uff54 = pl.add(t, 1.0)",                      # fullwidth t, the target only
    "t = pl.add(\uff54, 1.0)",                      # ... an argument only
    "\uff54 = \uff50l.add(t, 1.0)",                 # ... and the module's name
    "\U0001d42d = pl.add(\U0001d5cd, 1.0)  # bold t, sans-serif t",
    "\u1d57 = pl.add(t, 1.0)",                      # modifier letter t
])
def test_a_rebinding_keeps_the_spelling_it_is_written_in(line: str) -> None:
    text = _REBOUND.format(line=line)
    out = show_inferred(text)
    tile = "pl.Tile[[16, 64], pl.FP32, pl.MemorySpace.Vec]"
    target, rest = line.split(" = ", 1)
    assert f"        {target}: {tile} = {rest}\n" in out, out
    assert python_view(out) == show_inferred(python_view(text))


def test_the_library_call_takes_cr_only_text_as_source() -> None:
    plain = (ROOT / "examples" / "branch_select.py").read_text(encoding="utf-8")
    assert ";" not in plain  # a text is told from a path by its line breaks (or a `;`)
    assert show_inferred(plain.replace("\n", "\r")) == show_inferred(plain).replace("\n", "\r")


@pytest.mark.parametrize(("a", "b"), [
    ("\u00e9", "e\u0301"),      # NFC and NFD spellings of one name
    ("e\u0301", "\u00e9"),
    ("xe\u0301y", "x\u00e9y"),
    ("\ufb01x", "fix"),          # a ligature NFKC splits
    ("\u2118", "\u2118"),        # a name the tokenize module does not read as one
    ("\uff54", "t"),
])
def test_every_normalisation_spelling_is_one_name_and_stays_as_written(a: str, b: str) -> None:
    """The load binds the name spelled `a`, the add reads and rebinds it spelled `b`, the store
    reads it spelled `a`: Python reads one name, and so does pl; every statement the
    regeneration annotates keeps its own spelling of it."""
    text = (_REBOUND.format(line=f"{b} = pl.add({b}, 1.0)").replace("        t = pl.load", f"        {a} = pl.load")
            .replace("pl.store(t,", f"pl.store({a},"))
    compile(text, "k.py", "exec")
    out = show_inferred(text)
    tile = "pl.Tile[[16, 64], pl.FP32, pl.MemorySpace.Vec]"
    assert f"        {a}: {tile} = pl.load(x, [0, 0], [16, 64])\n" in out, out
    assert f"        {b}: {tile} = pl.add({b}, 1.0)\n" in out, out
    assert f"        out = pl.store({a}, [0, 0], out)\n" in out, out
    assert python_view(out) == show_inferred(python_view(text))


@pytest.mark.parametrize("ends", [("\r\n", "\n", "\r"), ("\r", "\r\n"), ("\n", "\r")])
def test_mixed_line_ends_are_kept_line_by_line(ends: tuple[str, ...]) -> None:
    """Each line the regeneration keeps keeps its own line end; a line it changes or adds takes
    the end of the user's line it stands for (or of the line before it)."""
    plain = EXAMPLES[0].read_text(encoding="utf-8")
    lines = plain.splitlines()
    text = ""
    for i, ln in enumerate(lines):
        end = ends[i % len(ends)]
        # "\r" then an empty line's "\n" would read as one "\r\n"
        text += ln + ("\r" if not ln and text.endswith("\r") else end)
    assert len(python_lines(text)) == len(lines)
    out = show_inferred(text)
    assert python_view(out) == show_inferred(plain)
    theirs = set(python_lines(text))
    for ln in python_lines(out):
        if ln.rstrip("\r\n") in lines and ln not in theirs:
            pytest.fail(f"{ln!r} lost its line end")


def test_form_feed_before_a_block_statement_is_python_indentation() -> None:
    text = ("import pl\n\n\n@pl.program\nclass K:\n    @pl.function\n"
            "    def f(self, a: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:\n"
            "\f        t = pl.add(a, a)\n    \f        return t\n")
    compile(text, "k.py", "exec")  # Python reads it: the indentation restarts at a form feed
    assert structural_equal(pl.parse(text), pl.parse(text.replace("    \f", "").replace("\f", "")))
    out = show_inferred(text)
    assert out.endswith("    \f        return t\n")  # an unchanged line keeps its form feed
    dedented = text.replace("    \f        return", "    \f    return")
    with pytest.raises(SyntaxError):  # ... and Python reads this `return` at the class level
        compile(dedented, "k.py", "exec")
    with pytest.raises(PlError, match="outside function"):
        show_inferred(dedented)


def test_form_feed_inside_a_string_is_data() -> None:
    text = 's = """a\n\f  b"""\nx = 1\n\f\ny = 2\n'
    assert python_view(text) == text


def test_view_is_identity_on_ascii_and_restore_inverts_it() -> None:
    plain = EXAMPLES[0].read_text(encoding="utf-8")
    assert python_view(plain) is plain
    text = "\ufeff" + _fullwidth(plain)
    view = python_view(text)
    assert restore(text, view, view) == text


def test_undecodable_comment_is_refused_as_python_file_refuses_it() -> None:
    # (`import` lets it pass, `python FILE` and `tokenize.open`, which linecache uses, refuse it)
    with pytest.raises(PlError, match="is not utf-8 text: byte 0xe9") as e:
        decode(b"import pl\n# caf\xe9\n", "k.py")
    assert e.value.span is not None and (e.value.span.line, e.value.span.col) == (2, 6)


@pytest.mark.parametrize(("data", "line", "needle"), [
    (b"# -*- coding: latin-1 -*-\nx = 1\n", None, ""),
    (b"# -*- coding: klingon -*-\nx = 1\n", 1, "unknown encoding"),
    (b"#!/usr/bin/env python\n# coding: nope\nx = 1\n", 2, "unknown encoding"),
    (codecs.BOM_UTF8 + b"# coding: latin-1\nx = 1\n", 1, "encoding problem"),
    (b"# coding: ascii\nx = '\xc3\xa9'\n", 2, "is not ascii text"),
])
def test_decoding_follows_python(data: bytes, line: int | None, needle: str) -> None:
    try:
        compile(data, "k.py", "exec")
        python_ok = True
    except SyntaxError:
        python_ok = False
    if line is None:
        assert python_ok
        text, stored = decode(data, "k.py")
        assert encode(text, stored, "k.py") == data and stored == Stored("iso8859-1")
        return
    assert not python_ok
    with pytest.raises(PlError, match=needle) as e:
        decode(data, "k.py")
    assert e.value.span is not None and e.value.span.line == line


# Nesting CPython's parser refuses, and LibCST's native parser dies on (a segfault, beyond any
# exception handler): each must be one located error, in pl.parse and in show_inferred.
DEEP = {
    "parens": "(" * 3000 + "1" + ")" * 3000,
    "subscripts": "a[" * 3000 + "1" + "]" * 3000,
    "unary": "-" * 20000 + "1",
    "binary": "+".join(["1"] * 8000),
    "attributes": "a" + ".b" * 50000,
}


def test_deep_nesting_is_a_located_error_not_a_crash(tmp_path: Path) -> None:
    script = (
        "import sys\nimport pl\nfrom pl.show_inferred.run import run_text\n"
        f"for name, e in {DEEP!r}.items():\n"
        "    for call in (pl.parse, lambda t: run_text(t, 'k.py')):\n"
        "        try:\n"
        "            call('import pl\\nx = ' + e + '\\n')\n"
        "        except pl.PlError as err:\n"
        "            assert err.span is not None and err.span.line == 2, (name, err.span)\n"
        "            print(name, err.message)\n"
        "        else:\n"
        "            sys.exit(f'{name}: accepted')\n")
    (tmp_path / "deep.py").write_text(script, encoding="utf-8")
    proc = subprocess.run([sys.executable, str(tmp_path / "deep.py")], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = proc.stdout.splitlines()
    assert len(lines) == 2 * len(DEEP), proc.stdout
    assert all(any(w in ln for w in ("nest", "invalid Python syntax", "too long an expression"))
               for ln in lines), proc.stdout


def test_diagnostics_count_lines_as_python_does(tmp_path: Path) -> None:
    """A form feed or a vertical tab is not a line break to Python: the error is located, and its
    source line quoted, by Python's count."""
    text = ("import pl\n\f\n# a\x0bcomment\n\n@pl.program\nclass K:\n    @pl.function\n"
            "    def f(self, a: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:\n"
            "        b = pl.add(a, nope)\n        return b\n")
    path = tmp_path / "k.py"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SyntaxError) as py:  # what Python says, for the line number
        compile(text.replace("pl.add(a, nope)", "pl.add(a, nope) +"), "k.py", "exec")
    assert py.value.lineno == 9
    out, err = io.StringIO(), io.StringIO()
    assert cli.main(["--no-cache", str(path)], stdout=out, stderr=err) == 2
    rendered = err.getvalue()
    assert f"--> {path}:9:" in rendered, rendered
    assert " 9 |         b = pl.add(a, nope)" in rendered, rendered
