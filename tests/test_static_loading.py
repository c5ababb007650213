"""show_inferred never runs what the user did not ask to run (lowering/source/static_module.py).

- A kernel file (or a module it imports) with top-level side effects is read, never executed, in
  every CLI mode; `--exec` runs it, and whatever it raises (SystemExit, KeyboardInterrupt) is a
  located error after which the next file still runs.
- Every constant form the static evaluator accepts gives the value Python gives (compared with
  `--exec` on the same file); every form it does not accept is a located error naming `--exec`
  when (and only when) a kernel uses the name.
- Imports of the project's own modules are followed (absolute, package, relative, star).
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import libcst as cst
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pl
from pl.errors import PlError
from pl.lowering.source.static_eval import (
    MAX_INT_BITS,
    NotStatic,
    StaticNamespace,
    evaluate,
    literal_number,
)
from pl.show_inferred.annotate import load_programs
from pl.show_inferred.cli import main
from pl.show_inferred.run import run_text

ROOT = Path(__file__).resolve().parent.parent

# A kernel whose shapes come from the constant `N` and the dtype `DT` (defined by each test).
KERNEL = '''
@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def kern(self, x: pl.Tensor[[N, N], DT], out: pl.Out[pl.Tensor[[N, N], DT]]) -> pl.Tensor[[N, N], DT]:
        a = pl.load(x, [0, 0], [N, N])
        b = pl.add(a, a)
        out = pl.store(b, [0, 0], out)
        return out
'''
USE_LINE = 5  # the line of KERNEL (after the prefix) that first uses N and DT


def kernel(prefix: str) -> str:
    """`prefix` (which must bind N and DT) followed by the kernel."""
    return prefix.rstrip("\n") + "\n" + KERNEL


def cli(args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main([*args, "--no-cache"], stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


# -- never executed ----------------------------------------------------------------------------
SIDE_EFFECTS = {
    "marker": "open(MARKER, 'w').write('ran')",
    "system_exit": "open(MARKER, 'w').write('ran'); raise SystemExit(3)",
    "keyboard_interrupt": "open(MARKER, 'w').write('ran'); raise KeyboardInterrupt",
}
MODES = [[], ["--check"], ["--json"], ["--ir"], ["--explain"], ["--write"], ["--diff"]]


def side_effect_project(folder: Path, effect: str) -> Path:
    """A kernel file whose top level, class body and imported helper module all do `effect`."""
    marker = folder / "MARKER"
    (folder / "helper.py").write_text(f"MARKER = {str(marker)!r}\n{effect}\nN = 64\n")
    text = kernel(f"import pl\nfrom helper import N\nMARKER = {str(marker)!r}\n{effect}\n"
                  "DT = pl.FP32")
    text = text.replace("class K:\n", f"class K:\n    {effect}\n")
    text += f"\n{effect}\n"
    path = folder / "kern.py"
    path.write_text(text)
    return path


@pytest.mark.parametrize("mode", MODES, ids=lambda m: m[0] if m else "print")
@pytest.mark.parametrize("effect", sorted(SIDE_EFFECTS))
def test_a_kernel_file_is_never_executed(effect: str, mode: list[str], tmp_path: Path) -> None:
    path = side_effect_project(tmp_path, SIDE_EFFECTS[effect])
    status, out, err = cli([*mode, str(path)])
    assert not (tmp_path / "MARKER").exists()
    assert status in (0, 1), err
    assert "Error" not in err
    if not mode:
        assert "pl.MemorySpace.Vec" in out


@pytest.mark.parametrize("mode", MODES, ids=lambda m: m[0] if m else "print")
def test_os_exit_at_top_level_is_never_run(mode: list[str], tmp_path: Path) -> None:
    """In a child process: were `os._exit(7)` run, the whole process would end with status 7."""
    path = side_effect_project(tmp_path, "import os; open(MARKER, 'w').write('ran'); os._exit(7)")
    proc = subprocess.run([sys.executable, "-m", "pl.show_inferred", "--no-cache", *mode, str(path)],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode in (0, 1), proc.stderr
    assert not (tmp_path / "MARKER").exists()


@pytest.mark.parametrize("effect", ["system_exit", "keyboard_interrupt"])
def test_exec_turns_any_exit_into_a_located_error_and_goes_on(effect: str, tmp_path: Path) -> None:
    path = side_effect_project(tmp_path, SIDE_EFFECTS[effect])
    other = ROOT / "examples" / "vector_rowsum.py"
    status, out, err = cli(["--exec", str(path), str(other)])
    assert (tmp_path / "MARKER").exists()  # --exec does run the file
    assert status == 2
    said = "exits (status 3)" if effect == "system_exit" else "keyboard interrupt"
    assert said in err and f"{path}:" in err and "Traceback" not in err
    message = err.splitlines()[0]  # (the quoted source line below it may name them)
    assert "SystemExit" not in message and "KeyboardInterrupt" not in message
    # The next file still ran (after its separator: two files were given).
    assert out == f"# ==> {other} <==\n" + run_text(other.read_text(), str(other)).output


def test_exec_runs_the_file_and_agrees_with_static_loading(tmp_path: Path) -> None:
    path = side_effect_project(tmp_path, SIDE_EFFECTS["marker"])
    static = cli([str(path)])
    assert not (tmp_path / "MARKER").exists()
    executed = cli(["--exec", str(path)])
    assert (tmp_path / "MARKER").exists()
    assert static == executed and static[0] == 0


ONE_PARSE_KERNEL = """import pl

N = 64


@pl.inline
def doubled(t: pl.Tile[[N], pl.FP32]) -> pl.Tile[[N], pl.FP32]:
    return pl.add(t, t)


@pl.program
class First:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[N], pl.FP32], out: pl.Out[pl.Tensor[[N], pl.FP32]]
          ) -> pl.Tensor[[N], pl.FP32]:
        t = pl.load(a, [0], [N])
        u = doubled(t)
        out = pl.store(u, [0], out)
        return out


@pl.program
class Second:
    @pl.function(type=pl.FunctionType.InCore)
    def g(self, a: pl.Tensor[[N], pl.FP32], out: pl.Out[pl.Tensor[[N], pl.FP32]]
          ) -> pl.Tensor[[N], pl.FP32]:
        t = pl.load(a, [0], [N])
        out = pl.store(t, [0], out)
        return out
"""


@pytest.mark.parametrize("execute", [False, True], ids=["read", "exec"])
def test_a_load_parses_the_file_once(execute: bool, tmp_path: Path, libcst_parses: list[str],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """One LibCST parse of the kernel file per load, read or imported: under --exec its
    decorators lower from the parse the load made (the module holds it as MODULE_PARSE), not
    from one of their own; both ways give the same programs."""
    path = tmp_path / "two_programs.py"
    path.write_text(ONE_PARSE_KERNEL)
    programs = load_programs(ONE_PARSE_KERNEL, str(path), execute=execute)
    assert libcst_parses == [ONE_PARSE_KERNEL]
    monkeypatch.undo()
    assert [p.name for p in programs] == ["First", "Second"]
    for p, q in zip(programs, load_programs(ONE_PARSE_KERNEL, str(path), execute=not execute),
                    strict=True):
        pl.assert_structural_equal(p, q)


def test_exec_gives_each_file_its_own_project_modules(tmp_path: Path) -> None:
    """Two projects with a `shapes.py` each: under --exec the second file imports its own."""
    outputs = []
    for n in (32, 64):
        folder = tmp_path / f"p{n}"
        folder.mkdir()
        (folder / "shapes.py").write_text(f"N = {n}\n")
        (folder / "kern.py").write_text(kernel("import pl\nfrom shapes import N\nDT = pl.FP32"))
        outputs.append(folder / "kern.py")
    status, out, err = cli(["--exec", *map(str, outputs)])
    assert status == 0, err
    assert "pl.Tile[[32, 32]" in out and "pl.Tile[[64, 64]" in out


def test_show_inferred_function_reads_statically(tmp_path: Path) -> None:
    path = side_effect_project(tmp_path, SIDE_EFFECTS["system_exit"])
    out = pl.show_inferred(str(path))
    assert "pl.MemorySpace.Vec" in out and not (tmp_path / "MARKER").exists()


# -- the static evaluator ----------------------------------------------------------------------
CONSTANTS = {
    "M < 2": False, "0 < M <= 64": True, "M != 64": False, "'a' == 'a'": True,
    "1 + 2 * 3": 7, "-4": -4, "+4": 4, "~0": -1, "not 0": True, "7 // 2": 3, "7 % 4": 3,
    "7 / 2": 3.5, "2 ** 10": 1024, "1 << 20": 1 << 20, "1024 >> 3": 128, "6 & 3": 2,
    "6 | 1": 7, "6 ^ 3": 5, "1.5 * 2": 3.0, "True + 1": 2, "'ab' 'cd'": "abcd",
    "'a' + 'b'": "ab", "'ab' * 2": "abab", "(1, 2) + (3,)": (1, 2, 3), "[1] * 3": [1, 1, 1],
    "[1, (2, 3)]": [1, (2, 3)], "(4, 5, 6)[1]": 5, "(4, 5, 6)[-1]": 6, "None": None,
    "M * 2": 128, "SEQ[0] + M": 80, "pl.FP32": pl.FP32, "pl.MemorySpace.Vec": pl.MemorySpace.Vec,
    "pl.Mem.Left": pl.MemorySpace.Left, "pl.FunctionType.InCore": pl.FunctionType.InCore,
    "mod.K": 3,
    # every spelling of a number literal (read by int(text, 0) / float(text), not literal_eval)
    "0x1F": 31, "0XfF": 255, "0o17": 15, "0b1_01": 5, "1_000": 1000, "00": 0, "0_0": 0,
    "0x_ff": 255, "1_0.5e1_0": 10.5e10, ".5": 0.5, "1.": 1.0, "1E-3": 1e-3,
    # the floats no literal spells, as the printer writes them
    "float('inf')": float("inf"), "-float('inf')": -float("inf"), "float('-1e400')": -float("inf"),
    "-0.0": -0.0,
}
NAMES = {"M": 64, "SEQ": (16, 32), "pl": pl, "mod": StaticNamespace("mod", {"K": 3}),
         "float": float}


def _lookup(name: cst.Name) -> object:
    if name.value not in NAMES:
        raise NotStatic(name, "unknown")
    return NAMES[name.value]


@given(st.integers(min_value=0, max_value=2**70), st.sampled_from(["d", "x", "o", "b"]),
       st.booleans())
def test_an_integer_literal_reads_as_python_reads_it(value: int, base: str, underscores: bool) -> None:
    import ast

    digits = format(value, base)
    if underscores and len(digits) > 1:
        digits = "_".join(digits)  # Python allows one underscore between any two digits
    text = digits if base == "d" else f"0{base}{digits}"
    node = cst.parse_expression(text)
    assert isinstance(node, cst.Integer)
    assert literal_number(node) == ast.literal_eval(text) == value


@pytest.mark.parametrize("expr", sorted(CONSTANTS))
def test_every_accepted_form_has_pythons_value(expr: str) -> None:
    value = evaluate(cst.parse_expression(expr), _lookup)
    assert value == CONSTANTS[expr] and type(value) is type(CONSTANTS[expr])
    assert value == eval(expr, {"pl": pl, **NAMES, "mod": type("m", (), {"K": 3})})  # noqa: S307


def test_dsl_value_constructors() -> None:
    ref = evaluate(cst.parse_expression('pl.MemRef("shared", size=N)'),
                   lambda n: {"pl": pl, "N": 4}[n.value])
    assert isinstance(ref, pl.MemRef) and ref.args == ("shared",) and ref.kwargs == {"size": 4}
    dyn = evaluate(cst.parse_expression('pl.dynamic("M")'), lambda n: pl)
    assert isinstance(dyn, pl.DynVar) and dyn.name == "M"
    view = evaluate(cst.parse_expression("pl.TileView(valid_shape=[8, 8])"), lambda n: pl)
    assert isinstance(view, pl.TileView) and view.kwargs == {"valid_shape": [8, 8]}


@pytest.mark.parametrize("expr", [
    "f(1)", "int('3')", "pl.load(x)", "x.real", "{'a': 1}", "[i for i in (1, 2)]", "f'{M}'",
    "1 if M else 2", "lambda: 1", "M < 'a'", "M in SEQ", "M is 1", "M and 1", "(*SEQ,)", "b'x'", "1j", "...",
    f"1 << {MAX_INT_BITS + 1}", f"3 ** {MAX_INT_BITS}", "'x' * 100000", "pl.__dict__",
    "mod.__class__", "SEQ[0:1]", "undefined",
])
def test_an_unaccepted_form_is_not_static(expr: str) -> None:
    names = {**NAMES, "x": 1.5, "f": len}
    with pytest.raises(NotStatic):
        evaluate(cst.parse_expression(expr), lambda n: names[n.value] if n.value in names
                 else (_ for _ in ()).throw(NotStatic(n, "unknown")))


@pytest.mark.parametrize("prefix", [
    "N = 8 * 8",
    "N = 1 << 6",
    "N = 2 ** 6",
    "N = (128 >> 1) | 0",
    "N = -(-64)",
    "SIZES = [16, 64]\nN = SIZES[1]",
    "N, M = 64, 32",
    "[N, M] = (64, 32)",
    "N: int = 64",
    "N = 60\nN += 4",
    "N = 64\ndel N\nN = 64",
    "N = 64\nDT = pl.FP16\nDT = pl.FP32",
    "N = 64\nif __name__ == '__main__':\n    N = 1",
    "N = 64\nprint(N)",
])
def test_accepted_constants_give_what_exec_gives(prefix: str, tmp_path: Path) -> None:
    path = tmp_path / "k.py"
    text = kernel(f"import pl\nDT = pl.FP32\n{prefix}")
    path.write_text(text)
    static = run_text(text, str(path))
    executed = run_text(text, str(path), execute=True)
    assert static.output == executed.output


@pytest.mark.parametrize("spelling", ["float('-inf')", "-float('inf')", "-1e400"])
def test_a_module_constant_float_reads_as_the_printer_writes_it(spelling: str, tmp_path: Path) -> None:
    text = ("import pl\n\n" f"NEG = {spelling}\n\n\n@pl.program\nclass K:\n"
            "    @pl.function(type=pl.FunctionType.InCore)\n"
            "    def f(self, x: pl.Tensor[[16, 64], pl.FP32],"
            " out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:\n"
            "        t = pl.load(x, [0, 0], [16, 64])\n        t = pl.add(t, NEG)\n"
            "        out = pl.store(t, [0, 0], out)\n        return out\n")
    path = tmp_path / "k.py"
    path.write_text(text)
    static = run_text(text, str(path))
    executed = run_text(text, str(path), execute=True)
    assert static.output == executed.output
    assert "-float('inf')" in pl.python_print(static.compiled[0].program)


# Each binds N in a way only running the file could evaluate; the kernel uses N.
UNRESOLVABLE = {
    "call": "N = int('64')",
    "builtin": "N = len('x' * 64)",
    "def": "def N():\n    return 64",
    "class": "class N:\n    pass",
    "third_party_import": "from json import decoder as N",
    "third_party_attribute": "import json\nN = json.decoder",
    # not installed: opaque as any third-party import, an error only where a kernel reads it
    "missing_module": "from no_such_module_pl_test import N",
    "missing_module_attribute": "import no_such_module_pl_test as m\nN = m.N",
    "if_block": "if True:\n    N = 64",
    "for_loop": "for N in (64,):\n    pass",
    "try": "try:\n    N = 64\nexcept Exception:\n    N = 32",
    "with": "import contextlib\nwith contextlib.nullcontext() as N:\n    pass",
    "comprehension": "N = [i for i in (64,)][0]",
    "conditional": "N = 64 if True else 32",
    "f_string": "N = f'{64}'",
    "too_large": f"N = 1 << {MAX_INT_BITS + 8}",
    "unsplittable": "N, M = 64",
    "starred_target": "N, *M = 64, 32",
    "augmented_call": "N = 60\nN += int('4')",
    "walrus": "(N := 64)",
}


@pytest.mark.parametrize("form", sorted(UNRESOLVABLE))
def test_an_unresolvable_name_is_a_located_error_naming_exec(form: str, tmp_path: Path) -> None:
    prefix = f"import pl\nDT = pl.FP32\n{UNRESOLVABLE[form]}"
    path = tmp_path / "k.py"
    path.write_text(kernel(prefix))
    status, out, err = cli([str(path)])
    assert status == 2 and out == ""
    use_line = len(prefix.splitlines()) + USE_LINE
    assert f"--> {path}:{use_line}:" in err, err
    assert "--exec" in err and "'N'" in err and "Traceback" not in err


@pytest.mark.parametrize("form", ["walrus", "if_block", "def", "third_party_import",
                                  "missing_module"])
def test_an_unresolvable_name_the_kernels_do_not_use_is_no_error(form: str, tmp_path: Path) -> None:
    text = kernel(f"import pl\nDT = pl.FP32\n{UNRESOLVABLE[form]}\nN = 64")
    assert "pl.MemorySpace.Vec" in run_text(text, str(tmp_path / "k.py")).output


def test_a_program_inside_a_block_is_an_error_naming_exec(tmp_path: Path) -> None:
    text = "import pl\nN = 64\nDT = pl.FP32\nif True:\n" + textwrap.indent(KERNEL, "    ")
    with pytest.raises(PlError) as e:
        run_text(text, str(tmp_path / "k.py"))
    assert "--exec" in (e.value.hint or "") and e.value.span is not None and e.value.span.line == 7


@pytest.mark.parametrize(("prefix", "line", "message"), [
    ("N = 64 // 0", 2, "integer division or modulo by zero"),
    ("N = (1, 2)[5]", 2, "tuple index out of range"),
    ("N = COLS", 2, "name 'COLS' is not defined"),
    ("from pl import NO_SUCH_NAME\nN = 64", 2, "cannot import name 'NO_SUCH_NAME'"),
    ("from shapes import M\nN = 64", 2, "cannot import name 'M' from 'shapes'"),
    ("from . import nothing_here\nN = 64", 2, "cannot import name 'nothing_here'"),
])
def test_what_python_fails_on_is_a_located_error(prefix: str, line: int, message: str,
                                                tmp_path: Path) -> None:
    path = tmp_path / "k.py"
    (tmp_path / "shapes.py").write_text("N = 64\n")
    path.write_text(kernel(f"import pl\n{prefix}\nDT = pl.FP32"))
    status, _, err = cli([str(path)])
    assert status == 2 and message in err and f"--> {path}:{line}:" in err, err
    assert "Error:" not in err.replace("Error: ", "", 1), err  # no exception class named
    status, _, err = cli(["--exec", str(path)])  # Python fails on the same line
    assert status == 2 and f"--> {path}:{line}:" in err, err
    assert "Error:" not in err.replace("Error: ", "", 1), err


def test_a_cyclic_import_fails_where_python_fails(tmp_path: Path) -> None:
    """cyc_a imports cyc_b, which imports N from the half-read cyc_a: Python's ImportError."""
    (tmp_path / "cyc_a.py").write_text("from cyc_b import B\nN = B\n")
    (tmp_path / "cyc_b.py").write_text("B = 64\nfrom cyc_a import N\n")
    path = tmp_path / "k.py"
    path.write_text(kernel("import pl\nfrom cyc_a import N\nDT = pl.FP32"))
    for mode in ([], ["--exec"]):
        status, _, err = cli([*mode, str(path)])
        assert status == 2 and "cannot import name 'N'" in err and "ImportError" not in err, err
    status, _, err = cli([str(path)])
    assert f"--> {tmp_path / 'cyc_b.py'}:2:" in err, err


def test_names_a_cycle_has_bound_already_are_read(tmp_path: Path) -> None:
    (tmp_path / "cyc_a.py").write_text("N = 64\nfrom cyc_b import B\n")
    (tmp_path / "cyc_b.py").write_text("from cyc_a import N\nB = N\n")
    text = kernel("import pl\nfrom cyc_a import B as N\nDT = pl.FP32")
    path = tmp_path / "k.py"
    assert run_text(text, str(path)).output == run_text(text, str(path), execute=True).output


# -- local imports -----------------------------------------------------------------------------
PROJECTS = {
    "from_import": ({"shapes.py": "N = 64\n"}, "from shapes import N"),
    "import_module": ({"shapes.py": "N = 64\n"}, "import shapes\nN = shapes.N"),
    "import_as": ({"shapes.py": "N = 64\n"}, "import shapes as s\nN = s.N"),
    "star": ({"shapes.py": "N = 64\n_HIDDEN = 1\n"}, "from shapes import *"),
    "star_all": ({"shapes.py": "__all__ = ['N']\nN = 64\nM = 1\n"}, "from shapes import *"),
    "chain": ({"shapes.py": "from base import B\nN = B * 2\n", "base.py": "B = 32\n"},
              "from shapes import N"),
    "package": ({"cfg/__init__.py": "", "cfg/dims.py": "N = 64\n"}, "from cfg.dims import N"),
    "package_member": ({"cfg/__init__.py": "", "cfg/dims.py": "N = 64\n"},
                       "from cfg import dims\nN = dims.N"),
    "dotted_import": ({"cfg/__init__.py": "", "cfg/dims.py": "N = 64\n"},
                      "import cfg.dims\nN = cfg.dims.N"),
    "namespace_package": ({"cfg/dims.py": "N = 64\n"}, "from cfg.dims import N"),
    "package_relative": ({"cfg/__init__.py": "from .dims import N as M\n",
                          "cfg/dims.py": "from . import base\nN = base.B\n",
                          "cfg/base.py": "B = 64\n"}, "from cfg import M as N"),
    "kernel_relative": ({"shapes.py": "N = 64\n"}, "from .shapes import N"),
    "dtype_from_module": ({"shapes.py": "import pl\nN = 64\nT = pl.FP32\n"},
                          "from shapes import N, T as DT"),
}


@pytest.mark.parametrize("name", sorted(PROJECTS))
def test_local_imports_are_followed(name: str, tmp_path: Path) -> None:
    files, prefix = PROJECTS[name]
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    if "DT" not in prefix:
        prefix += "\nDT = pl.FP32"
    text = kernel(f"import pl\n{prefix}")
    path = tmp_path / "kern.py"
    path.write_text(text)
    reads: dict[str, str | None] = {}
    programs = load_programs(text, str(path), reads=reads)
    assert [p.name for p in programs] == ["K"]
    out = run_text(text, str(path)).output
    assert "pl.Tile[[64, 64], pl.FP32, pl.MemorySpace.Vec]" in out
    for rel in files:  # every module read is recorded, with its content's hash
        if files[rel]:
            assert reads.get(os.path.realpath(tmp_path / rel)) is not None


def test_a_program_imported_from_a_project_module_is_loaded(tmp_path: Path) -> None:
    (tmp_path / "progs.py").write_text(kernel("import pl\nN = 64\nDT = pl.FP32"))
    text = "import pl\nfrom progs import K\n"
    programs = load_programs(text, str(tmp_path / "kern.py"))
    assert [p.name for p in programs] == ["K"]


def test_reference_spellings_of_pl(tmp_path: Path) -> None:
    for spelling in ["import pypto.language as pl", "from pypto import language as pl",
                     "import pl as p\npl = p", "import pypto.language\npl = pypto.language"]:
        text = kernel(f"{spelling}\nN = 64\nDT = pl.FP32")
        assert "MemorySpace.Vec" in run_text(text, str(tmp_path / "k.py")).output, spelling


# -- pl.parse ----------------------------------------------------------------------------------
def test_parse_evaluates_module_constants() -> None:
    text = kernel('import pl\nBASE = 32\nN = BASE * 2\nDT = pl.FP32\nSLOT = pl.MemRef("s")')
    text = text.replace("a = pl.load", "a: pl.Tile[[N, N], DT, SLOT, pl.Mem.Vec] = pl.load")
    program = pl.parse(text)
    assert isinstance(program, pl.ir.function.Program)
    assert "[64, 64]" in pl.python_print(program)


def test_parse_rejects_a_constant_it_cannot_evaluate() -> None:
    with pytest.raises(PlError) as e:
        pl.parse(kernel("import pl\nN = int('64')\nDT = pl.FP32"))
    assert e.value.span is not None and e.value.span.line == 2


@pytest.mark.parametrize("ref", ["SLOT", "SLOTS[1]", 'pl.MemRef("b", slots=2)[0]', 'pl.MemRef("c")'])
def test_memrefs_in_annotations_are_accepted_as_written(ref: str, tmp_path: Path) -> None:
    text = kernel('import pl\nN = 64\nDT = pl.FP32\nSLOT = pl.MemRef("s")\n'
                  "SLOTS = pl.MemRef(slots=2)")
    text = text.replace("a = pl.load", f"a: pl.Tile[[N, N], DT, {ref}, pl.Mem.Vec] = pl.load")
    assert "[64, 64]" in pl.python_print(pl.parse(text))
    path = tmp_path / "k.py"
    assert run_text(text, str(path)).output == run_text(text, str(path), execute=True).output


# -- static loading agrees with importing on every kernel file of the project --------------------
AGREEMENT_FILES = sorted([*ROOT.glob("examples/*.py"), *ROOT.glob("tests/bad_inputs/*.py"),
                          *ROOT.glob("tests/error_fixtures/*.py"), *ROOT.glob("tests/golden/**/*.py"),
                          *ROOT.glob("tests/infer_cases/**/*.py")])


def _outcome(path: Path, execute: bool) -> tuple[object, ...]:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return ("undecodable",)
    try:
        return ("ok", run_text(text, str(path), execute=execute).output)
    except PlError as e:  # the same line; the wording may differ (static names the DSL's terms)
        return ("error", e.span.line if e.span else None)


# Where the static read differs by design: an import of a module that is not installed is opaque
# (an error where a kernel reads it), while importing the file fails at the import itself.
STATIC_READ_DIFFERS = {"tests/bad_inputs/missing_module_import.py": (9, 2)}


@pytest.mark.parametrize("path", AGREEMENT_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_static_loading_agrees_with_exec(path: Path) -> None:
    lines = STATIC_READ_DIFFERS.get(str(path.relative_to(ROOT)))
    if lines is not None:
        assert (_outcome(path, execute=False), _outcome(path, execute=True)) == \
            (("error", lines[0]), ("error", lines[1]))
        return
    assert _outcome(path, execute=False) == _outcome(path, execute=True)


# -- generated constant expressions: the evaluator gives Python's value or declines ----------------
_LEAVES = st.one_of(st.integers(-300, 300).map(str), st.sampled_from(["M", "SEQ[0]", "True", "2.5"]))
# `**` and `<<` are left to the fixed cases: Python itself would take unbounded time on some.
_OPS = st.sampled_from(["+", "-", "*", "//", "%", ">>", "&", "|", "^", "/"])


def _expressions() -> st.SearchStrategy[str]:
    return st.recursive(
        _LEAVES,
        lambda sub: st.one_of(
            st.tuples(sub, _OPS, sub).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
            st.tuples(st.sampled_from(["-", "+", "~", "not "]), sub).map(lambda t: f"({t[0]}{t[1]})"),
        ),
        max_leaves=8)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(_expressions())
def test_generated_constants_evaluate_as_python_does(expr: str) -> None:
    from pl.lowering.source.static_eval import FailsWhenRun

    names = {"M": 64, "SEQ": (16, 32)}
    try:
        expected: object = eval(expr, {}, dict(names))  # noqa: S307  (numbers only)
    except Exception as e:  # noqa: BLE001
        expected = type(e)
    try:
        got: object = evaluate(cst.parse_expression(expr),
                               lambda n: names[n.value] if n.value in names
                               else (_ for _ in ()).throw(NotStatic(n, "unknown")))
    except FailsWhenRun as e:
        got = type(e.error)
    except NotStatic:
        return  # declined (a bound, or a combination it does not evaluate): never a wrong value
    assert got == expected and type(got) is type(expected)


def test_a_program_a_call_with_static_arguments_makes_loads_statically(tmp_path: Path) -> None:
    """`K = make(64)`: the builder's class is lowered for the call's arguments, as running the
    file makes it (it was an error naming --exec)."""
    body = textwrap.indent(KERNEL, "    ")
    text = f"import pl\nDT = pl.FP32\n\n\ndef make(N):\n{body}\n    return K\n\n\nK = make(64)\n"
    path = tmp_path / "k.py"
    static = run_text(text, str(path))
    executed = run_text(text, str(path), execute=True)  # --exec calls make(64)
    assert [c.source.name for c in static.compiled] == ["K"]
    assert static.output == executed.output


def test_a_program_only_a_call_with_dynamic_arguments_makes_is_an_error_naming_exec(
        tmp_path: Path) -> None:
    body = textwrap.indent(KERNEL, "    ")
    text = (f"import pl\nDT = pl.FP32\n\n\ndef make(N):\n{body}\n    return K\n\n\n"
            "K = make(int('64'))\n")
    path = tmp_path / "k.py"
    with pytest.raises(PlError) as e:
        run_text(text, str(path))
    assert "--exec" in (e.value.hint or "") and "make" in e.value.message
    assert e.value.span is not None and e.value.span.line == 8  # the nested `class K:`


def test_a_package_wins_over_a_module_of_the_same_name(tmp_path: Path) -> None:
    (tmp_path / "shapes").mkdir()
    (tmp_path / "shapes" / "__init__.py").write_text("N = 64\n")
    (tmp_path / "shapes.py").write_text("N = 32\n")
    text = kernel("import pl\nfrom shapes import N\nDT = pl.FP32")
    path = tmp_path / "k.py"
    static = run_text(text, str(path)).output
    assert "[64, 64]" in static and static == run_text(text, str(path), execute=True).output


# -- generated kernels: static loading and --exec give the same regeneration ----------------------
@pytest.mark.parametrize("family", ["tile", "tensor"])
def test_generated_kernels_load_alike_statically_and_executed(family: str, tmp_path: Path) -> None:
    from hypothesis import HealthCheck, Phase
    from kernel_strategies import GeneratedProgram, tensor_programs, tile_programs

    strategy = tile_programs() if family == "tile" else tensor_programs()

    @settings(max_examples=6, deadline=None, derandomize=True, database=None,
              phases=[Phase.explicit, Phase.generate],
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                     HealthCheck.function_scoped_fixture])
    @given(strategy)
    def check(g: GeneratedProgram) -> None:
        # The generated module's constants moved to the top, as a kernel file's would be.
        text = "import pl\nSIZE_UNUSED = 2 * 8\n" + g.source.replace("import pl\n", "", 1)
        path = tmp_path / "gen.py"
        static = _outcome_text(text, path, False)
        assert static[0] == "ok" and static == _outcome_text(text, path, True)

    check()


def _outcome_text(text: str, path: Path, execute: bool) -> tuple[object, ...]:
    try:
        return ("ok", run_text(text, str(path), execute=execute).output)
    except PlError as e:
        return ("error", e.span.line if e.span else None)


@pytest.mark.parametrize("prefix", [
    "from pl import compile as plc\nfrom pl import PlError, parse, passes, structural_equal",
    "C = pl.compile\nR = pl.compile(None)\nimport pl.compiler\nfrom pl.compiler import Compiled",
    "from pl import *\nimport pl.show_inferred as show",
    "import pypto.language as pl2\nfrom pypto.language import *\nP = pl2.passes",
])
def test_pls_tools_named_at_module_level_do_not_stop_loading(tmp_path: Path, prefix: str) -> None:
    """Static loading binds pl's tools (`pl.compile`, `pl.passes`, ...) without running them: a
    kernel file that names them at module level (for its `__main__` block, say) still loads."""
    text = kernel(f"import pl\n{prefix}\nN = 64\nDT = pl.FP32") + \
        "\n\nif __name__ == '__main__':\n    print(pl.compile(K).as_python())\n"
    path = tmp_path / "kern.py"
    path.write_text(text)
    assert [p.name for p in load_programs(text, str(path))] == ["K"]
    assert "pl.Tile[[N, N], pl.FP32, pl.MemorySpace.Vec]" in run_text(text, str(path)).output


# -- @pl.program classes built by functions (tests/builder_files) ---------------------------------
BUILDERS = Path(__file__).resolve().parent / "builder_files"
BUILDER_CASES = sorted(p for p in BUILDERS.glob("*.py") if not p.name.endswith(".expected.py"))


@pytest.mark.parametrize("before", BUILDER_CASES, ids=lambda p: p.stem)
def test_builder_programs_load_statically_and_come_back_typed(before: Path) -> None:
    """A builder's class loads statically (the file's static call of the builder, else its
    parameters' defaults; the helper functions it calls run statically) and every kernel of it
    is annotated in place, the builder's own lines untouched; the Expected file is a fixed
    point."""
    expected = before.with_name(f"{before.stem}.expected.py")
    got = run_text(before.read_text(encoding="utf-8"), str(before))
    assert got.output == expected.read_text(encoding="utf-8")
    assert not [i for i in got.functions if i.kept_reason], got.notes
    again = run_text(got.output, str(expected))
    assert again.output == got.output
