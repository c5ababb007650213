"""What each path of `python -m pl.show_inferred` imports: start-up cost without timing.

`--help` and a usage error need only argparse; a compile-cache hit needs only the cache and the
result's data (pl/show_inferred/run.py); `import pl` alone loads nothing of pl's layers. Each case
runs the command in a fresh interpreter (`runpy`, as `python -m` does) and lists the modules loaded
afterwards. How long each path takes is measured by bench/startup.py, not here.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KERNEL = ROOT / "examples" / "attention.py"

# What a compile needs and the paths above must not load: LibCST, the IR's nodes, the op tables,
# the language surface, lowering and the passes, the printer, and `importlib.metadata` (whose
# import alone costs a third of a cache hit; the cache key is built without it).
_COMPILER = ("libcst", "pl.ir.expr", "pl.ir.stmt", "pl.ir.types", "pl.ir.function", "pl.ops",
             "pl.language", "pl.lowering.frontend", "pl.lowering.source.static_module",
             "pl.compiler", "pl.passes", "pl.infer.memory_space", "pl.printer",
             "pl.show_inferred.annotate", "importlib.metadata")

_RUN = """
import contextlib, io, json, runpy, sys
sys.argv = ["pl.show_inferred", *json.loads(sys.argv[1])]
out, err = io.StringIO(), io.StringIO()
with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
    try:
        runpy.run_module("pl.show_inferred", run_name="__main__", alter_sys=True)
        status = 0
    except SystemExit as e:
        status = e.code
print(json.dumps({"status": status, "stdout": out.getvalue(), "stderr": err.getvalue(),
                  "modules": sorted(sys.modules)}))
"""


def run_cli(args: list[str]) -> dict[str, object]:
    """The command's exit status, output and the modules loaded when it ended."""
    proc = subprocess.run([sys.executable, "-c", _RUN, json.dumps(args)], capture_output=True,
                          text=True, cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)  # type: ignore[no-any-return]


def compiler_modules(modules: object) -> list[str]:
    assert isinstance(modules, list) and "pl.show_inferred.cli" in modules
    return [m for m in modules if m.startswith(_COMPILER)]


def test_help_imports_no_compiler() -> None:
    got = run_cli(["--help"])
    assert got["status"] == 0 and "--no-cache" in str(got["stdout"])
    assert compiler_modules(got["modules"]) == []


def test_a_usage_error_imports_no_compiler() -> None:
    got = run_cli(["--no-such-option", str(KERNEL)])
    assert got["status"] == 2 and "unrecognized arguments" in str(got["stderr"])
    assert compiler_modules(got["modules"]) == []


def test_a_cache_hit_imports_no_compiler(tmp_path: Path) -> None:
    args = ["--cache-dir", str(tmp_path), str(KERNEL)]
    cold = run_cli(args)
    assert cold["status"] == 0
    assert "libcst" in compiler_modules(cold["modules"])  # the check below can fail
    hit = run_cli(args)
    assert (hit["status"], hit["stdout"], hit["stderr"]) == \
        (cold["status"], cold["stdout"], cold["stderr"])
    assert str(hit["stdout"]).startswith('"""An attention-style kernel')
    assert compiler_modules(hit["modules"]) == []


def test_a_cached_user_error_imports_no_compiler(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import pl\n\n\n@pl.program\nclass K:\n    @pl.function\n"
                   "    def f(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:\n"
                   "        return undefined_name\n", encoding="utf-8")
    args = ["--cache-dir", str(tmp_path / "cache"), str(bad)]
    cold = run_cli(args)
    hit = run_cli(args)
    assert cold["status"] == hit["status"] == 2
    assert "undefined_name" in str(hit["stderr"]) and hit["stderr"] == cold["stderr"]
    assert compiler_modules(hit["modules"]) == []


def test_a_compile_needs_no_interpreter() -> None:
    got = run_cli(["--no-cache", str(KERNEL)])
    assert got["status"] == 0
    modules = got["modules"]
    assert isinstance(modules, list)
    assert not [m for m in modules if m.startswith(("pl.interpreter", "numpy", "pl.mypy_plugin",
                                                    "mypy"))]


def test_import_pl_loads_none_of_its_layers() -> None:
    code = "import sys, pl; print(sorted(m for m in sys.modules if m.split('.')[0] == 'pl'))"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "['pl']"


def test_a_compile_without_cache_imports_no_cache_or_error_report_machinery() -> None:
    # hashlib (OpenSSL), tempfile (shutil, random) and traceback are for the cache, --write and
    # the internal-error report; a plain --no-cache compile of a kernel that imports only pl
    # reads no project file and needs none of them.
    got = run_cli(["--no-cache", str(KERNEL)])
    assert got["status"] == 0 and str(got["stdout"]).startswith('"""An attention-style kernel')
    modules = got["modules"]
    assert isinstance(modules, list) and "libcst" in modules  # it did compile
    assert [m for m in ("hashlib", "tempfile", "traceback", "pl.show_inferred.cache")
            if m in modules] == []
