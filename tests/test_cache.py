"""The compile cache (pl.show_inferred.cache) and its hooks in `pl.show_inferred.run.run_text` and the CLI.

Every test passes its own tmp folder; none relies on the user's cache folder.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest

import pl.show_inferred.annotate as annotate
import pl.show_inferred.run as run
from pl.errors import PlError
from pl.printer.program import print_node
from pl.show_inferred import cache
from pl.show_inferred.cli import main
from pl.structural import structural_equal

ROOT = Path(__file__).resolve().parent.parent

KERNEL = """import pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def kern(self, x: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        a = pl.load(x, [0, 0], [64, 64])
        b = pl.add(a, a)
        out = pl.store(b, [0, 0], out)
        return out
"""

BAD = "import pl\n\n\n@pl.program\nclass K:\n    @pl.function\n    def f(self, x: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:\n        return undefined_name\n"


class Counter:
    """Counts the compiles `run_text` really does (a hit does none)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls = 0
        real = annotate.read_kernel

        def counting(filename: str, text: str, module: Any = None) -> Any:
            # (the verification of a result reads the regenerated text back under this name)
            if not filename.endswith(" (inferred)"):
                self.calls += 1
            return real(filename, text, module)

        monkeypatch.setattr(annotate, "read_kernel", counting)


def test_hit_returns_the_same_result_without_compiling(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    c = Counter(monkeypatch)
    cold = run.run_text(KERNEL, "k.py", cache_dir=tmp_path)
    warm = run.run_text(KERNEL, "k.py", cache_dir=tmp_path)
    assert c.calls == 1
    assert warm.output == cold.output and warm.output != KERNEL
    assert [str(n) for n in warm.notes] == [str(n) for n in cold.notes]
    assert warm.functions == cold.functions
    assert structural_equal(warm.compiled[0].program, cold.compiled[0].program, auto_mapping=True)
    assert print_node(warm.compiled[0].program) == print_node(cold.compiled[0].program)
    assert len(list(tmp_path.glob("*.json"))) == 1


def test_a_hit_compiles_again_only_when_the_programs_are_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cold = run.run_text(KERNEL, "k.py", cache_dir=tmp_path)
    c = Counter(monkeypatch)
    warm = run.run_text(KERNEL, "k.py", cache_dir=tmp_path)
    assert c.calls == 0 and warm.output == cold.output  # the plain regeneration compiles nothing
    programs = warm.compiled
    assert c.calls == 1 and warm.compiled is programs
    assert print_node(programs[0].program) == print_node(cold.compiled[0].program)
    assert str(programs[0].decisions) == str(cold.compiled[0].decisions)


def test_without_cache_dir_nothing_is_stored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    c = Counter(monkeypatch)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    run.run_text(KERNEL, "k.py")
    run.run_text(KERNEL, "k.py")
    assert c.calls == 2
    assert not any(tmp_path.rglob("*.json"))


@pytest.mark.parametrize("change", [
    {"text": KERNEL.replace("pl.add(a, a)", "pl.mul(a, a)")},
    {"filename": "other.py"},
    {"backend": "950"},
    {"backend": None},
    {"residency": False},
    {"program": "K"},
])
def test_a_change_of_text_name_or_option_is_a_miss(change: dict[str, Any], tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    c = Counter(monkeypatch)
    base: dict[str, Any] = {"text": KERNEL, "filename": "k.py", "backend": "910B", "residency": True,
                            "program": None}
    first = run.run_text(base.pop("text"), base.pop("filename"), cache_dir=tmp_path, **base)
    args: dict[str, Any] = {"text": KERNEL, "filename": "k.py", "backend": "910B", "residency": True,
                            "program": None, **change}
    second = run.run_text(args.pop("text"), args.pop("filename"), cache_dir=tmp_path, **args)
    assert c.calls == 2
    expected = run.run_text(KERNEL if "text" not in change else change["text"],
                                 change.get("filename", "k.py"),
                                 **{k: v for k, v in {"backend": "910B", "residency": True,
                                                      "program": None, **change}.items()
                                    if k not in ("text", "filename")})
    assert second.output == expected.output
    assert isinstance(first.output, str)


def test_a_change_of_version_is_a_miss(tmp_path: Path) -> None:
    k1 = cache.key("run_text", KERNEL, "k.py", {"backend": "910B"}, version="1")
    k2 = cache.key("run_text", KERNEL, "k.py", {"backend": "910B"}, version="2")
    assert k1 != k2
    store = cache.Cache(tmp_path)
    store.put(k1, "old")
    assert store.get(k2) is None and store.get(k1) == "old"


def test_key_depends_on_every_part() -> None:
    base = cache.key("run_text", "t", "f.py", {"a": 1}, version="v")
    others = [cache.key("other", "t", "f.py", {"a": 1}, version="v"),
              cache.key("run_text", "t2", "f.py", {"a": 1}, version="v"),
              cache.key("run_text", "t", "g.py", {"a": 1}, version="v"),
              cache.key("run_text", "t", "f.py", {"a": 2}, version="v"),
              cache.key("run_text", "t", "f.py", {}, version="v")]
    assert len({base, *others}) == 6
    assert base == cache.key("run_text", "t", "f.py", {"a": 1}, version="v")
    # the default version is the package fingerprint (a key made without one is that key)
    assert cache.key("k", "t", "f", {}) == cache.key("k", "t", "f", {}, version=cache.package_fingerprint())
    assert cache.key("k", "t", "f", {}) != cache.key("k", "t", "f", {}, version="v")


@pytest.mark.parametrize("content", [b"", b"garbage", b"pl-cache-1\n\x80\x04not a pickle",
                                     b"pl-cache-1\n"])
def test_a_corrupt_entry_is_a_miss_and_is_deleted(content: bytes, tmp_path: Path) -> None:
    store = cache.Cache(tmp_path)
    k = cache.key("x", "t", "f", {}, version="v")
    store.path(k).write_bytes(content)
    assert store.get(k) is None
    assert not store.path(k).exists()
    store.put(k, {"v": 1})
    assert store.get(k) == {"v": 1}


def test_an_entry_under_another_key_is_a_miss(tmp_path: Path) -> None:
    store = cache.Cache(tmp_path)
    k1, k2 = (cache.key("x", t, "f", {}, version="v") for t in ("a", "b"))
    store.put(k1, "a")
    os.replace(store.path(k1), store.path(k2))
    assert store.get(k2) is None


def test_corrupt_entry_through_run_text_recompiles(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    c = Counter(monkeypatch)
    cold = run.run_text(KERNEL, "k.py", cache_dir=tmp_path)
    (entry,) = tmp_path.glob("*.json")
    entry.write_bytes(entry.read_bytes()[:50])
    again = run.run_text(KERNEL, "k.py", cache_dir=tmp_path)
    assert c.calls == 2 and again.output == cold.output


def test_user_errors_are_cached_and_raised_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    c = Counter(monkeypatch)
    with pytest.raises(PlError) as first:
        run.run_text(BAD, "bad.py", cache_dir=tmp_path)
    with pytest.raises(PlError) as second:
        run.run_text(BAD, "bad.py", cache_dir=tmp_path)
    assert c.calls == 1
    assert second.value.render(color=False) == first.value.render(color=False)
    assert "undefined_name" in second.value.render(color=False)


def test_unwritable_folder_is_silent(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    store = cache.Cache(blocker / "sub")
    store.put("k", 1)
    assert store.get("k") is None
    assert not list(tmp_path.glob("*.tmp"))


def test_concurrent_threads_never_see_a_partial_entry(tmp_path: Path) -> None:
    store = cache.Cache(tmp_path)
    k = cache.key("x", "t", "f", {}, version="v")
    big = [list(range(2000)) for _ in range(20)]
    errors: list[BaseException] = []

    def writer(i: int) -> None:
        try:
            for _ in range(15):
                store.put(k, (i, big))
                got = store.get(k)
                assert got is None or (got[1] == big)
        except BaseException as e:  # reported below; a thread cannot fail the test itself
            errors.append(e)

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    final = store.get(k)
    assert final is not None and final[1] == big and final[0] in range(6)
    assert not list(tmp_path.glob("*.tmp"))


def _process_writer(folder: str, i: int) -> bool:
    store = cache.Cache(folder)
    k = cache.key("x", "t", "f", {}, version="v")
    for _ in range(10):
        store.put(k, (i, "payload" * 5000))
        got = store.get(k)
        if got is not None and got[1] != "payload" * 5000:
            return False
    return True


def test_concurrent_processes(tmp_path: Path) -> None:
    with ProcessPoolExecutor(max_workers=3) as pool:
        assert all(pool.map(_process_writer, [str(tmp_path)] * 3, range(3)))
    got = cache.Cache(tmp_path).get(cache.key("x", "t", "f", {}, version="v"))
    assert got is not None and got[1] == "payload" * 5000


def test_default_folder_follows_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache.default_cache_dir() == tmp_path / "pl"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert cache.default_cache_dir() == Path.home() / ".cache" / "pl"


def _cli(args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(args, stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def test_cli_cache_dir_and_no_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    kernel = tmp_path / "k.py"
    kernel.write_text(KERNEL)
    folder = tmp_path / "cache"
    c = Counter(monkeypatch)
    first = _cli([str(kernel), "--cache-dir", str(folder)])
    second = _cli([str(kernel), "--cache-dir", str(folder), "--check"])
    assert c.calls == 1 and first[0] == 0 and second[0] == 1
    assert len(list(folder.glob("*.json"))) == 1
    third = _cli([str(kernel), "--cache-dir", str(folder), "--no-cache"])
    assert c.calls == 2 and third == first


def test_cli_default_is_the_user_cache_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    kernel = tmp_path / "k.py"
    kernel.write_text(KERNEL)
    c = Counter(monkeypatch)
    assert _cli([str(kernel)])[0] == 0
    assert _cli([str(kernel)])[0] == 0
    assert c.calls == 1
    assert len(list((tmp_path / "xdg" / "pl").glob("*.json"))) == 1


def test_cli_cached_error_still_quotes_the_source(tmp_path: Path) -> None:
    kernel = tmp_path / "bad.py"
    kernel.write_text(BAD)
    folder = tmp_path / "cache"
    cold = _cli([str(kernel), "--cache-dir", str(folder)])
    warm = _cli([str(kernel), "--cache-dir", str(folder)])
    assert cold[0] == warm[0] == 2
    assert warm[2] == cold[2] and "return undefined_name" in warm[2]


# -- what the cache trusts -------------------------------------------------------------------------
class _Planted:
    """Unpickling this creates the marker file: proof that a cache entry was unpickled."""

    def __init__(self, marker: str) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, ...]:
        return (Path(self.marker).touch, ())


def test_a_planted_file_in_the_cache_folder_is_never_executed(tmp_path: Path) -> None:
    import pickle

    folder = tmp_path / "cache"
    marker = tmp_path / "MARKER"
    kernel = tmp_path / "k.py"
    kernel.write_text(KERNEL)
    first = _cli([str(kernel), "--cache-dir", str(folder)])
    payload = pickle.dumps(_Planted(str(marker)))
    (entry,) = folder.glob("*.json")
    # Every name an entry could have, old (pickle) and new (json), and the old format's header.
    for path in (entry, entry.with_suffix(".pickle")):
        path.write_bytes(b"pl-cache-1\n" + payload)
    again = _cli([str(kernel), "--cache-dir", str(folder)])
    assert not marker.exists()
    assert again == first
    assert not entry.read_bytes().startswith(b"pl-cache-1")  # the planted entry was replaced
    assert entry.read_text(encoding="utf-8").startswith("{")  # what the cache wrote is JSON


KERNEL_N = KERNEL.replace("import pl\n", "import pl\nfrom shapes import N\n").replace("64", "N")


def _project(folder: Path, shapes: str | None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    if shapes is not None:
        (folder / "shapes.py").write_text(shapes)
    (folder / "kern.py").write_text(KERNEL_N)
    return folder / "kern.py"


def test_a_changed_imported_module_is_a_miss(tmp_path: Path) -> None:
    path = _project(tmp_path / "p", "N = 64\n")
    folder = tmp_path / "cache"
    first = run.run_text(KERNEL_N, str(path), cache_dir=folder)
    assert "[64, 64]" in first.output
    (tmp_path / "p" / "shapes.py").write_text("N = 32\n")
    second = run.run_text(KERNEL_N, str(path), cache_dir=folder)
    assert "[32, 32]" in second.output
    assert second.output == run.run_text(KERNEL_N, str(path)).output


def test_two_projects_with_the_same_kernel_file_get_their_own_output(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "cache"
    outputs = []
    for n in (64, 32):
        _project(tmp_path / f"p{n}", f"N = {n}\n")
        monkeypatch.chdir(tmp_path / f"p{n}")  # the same relative name and text in both
        status, out, err = _cli(["kern.py", "--cache-dir", str(folder)])
        assert status == 0, err
        outputs.append(out)
    assert "[64, 64]" in outputs[0] and "[32, 32]" in outputs[1]


@pytest.mark.parametrize("broken", [None, "M = 64\n", "N = 64 // 0\n"],
                         ids=["module_missing", "name_missing", "module_fails"])
def test_an_error_is_not_served_after_its_fix(broken: str | None, tmp_path: Path) -> None:
    path = _project(tmp_path / "p", broken)
    folder = tmp_path / "cache"
    for _ in range(2):  # the second time from the cache
        with pytest.raises(PlError):
            run.run_text(KERNEL_N, str(path), cache_dir=folder)
    (tmp_path / "p" / "shapes.py").write_text("N = 64\n")
    fixed = run.run_text(KERNEL_N, str(path), cache_dir=folder)
    assert "[64, 64]" in fixed.output


def test_under_exec_a_changed_imported_module_is_a_miss(tmp_path: Path) -> None:
    path = _project(tmp_path / "p", "N = 64\n")
    folder = tmp_path / "cache"
    assert "[64, 64]" in run.run_text(KERNEL_N, str(path), cache_dir=folder,
                                           execute=True).output
    (tmp_path / "p" / "shapes.py").write_text("N = 32\n")
    assert "[32, 32]" in run.run_text(KERNEL_N, str(path), cache_dir=folder,
                                           execute=True).output


def test_exec_results_are_never_cached(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # What a file's top-level code consulted (the environment, other files, the time) is not
    # known, so nothing could say when an --exec result is stale.
    c = Counter(monkeypatch)
    run.run_text(KERNEL, "k.py", cache_dir=tmp_path)
    for _ in range(2):
        run.run_text(KERNEL, "k.py", cache_dir=tmp_path, execute=True)
    assert c.calls == 3
    assert len(list(tmp_path.glob("*.json"))) == 1  # the static result's entry only


ENVIRONMENT_KERNEL = KERNEL.replace("import pl\n", "import os\n\nimport pl\n\nN = int(os.environ['PL_TEST_N'])\n").replace("64", "N")


def test_an_exec_result_that_depends_on_the_environment_is_not_served_in_another(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    kernel = tmp_path / "k.py"
    kernel.write_text(ENVIRONMENT_KERNEL)
    monkeypatch.setenv("PL_TEST_N", "64")
    status, inferred, err = _cli(["--exec", "--no-cache", str(kernel)])
    assert status == 0, err
    kernel.write_text(inferred)  # in its inferred form for N = 64
    check = ["--check", "--exec", "--cache-dir", str(tmp_path / "cache"), str(kernel)]
    assert _cli(check)[0] == 0
    monkeypatch.setenv("PL_TEST_N", "48")  # not a multiple of the tile the moves are made for
    assert _cli(check)[0] == _cli([*check[:2], "--no-cache", str(kernel)])[0]


KERNEL_THIRD_PARTY = "import plfaketestmodule\n" + KERNEL


def test_an_import_no_kernel_reads_is_opaque_whether_installed_or_not(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Static loading binds a module that is not installed to an opaque name (a kernel file's
    __main__ imports torch): the file regenerates, from the cache too, before and after the
    module is installed. (It was a "no module named" error.)"""
    folder = tmp_path / "cache"
    for _ in range(2):  # the second time from the cache
        assert "pl.MemorySpace.Vec" in run.run_text(KERNEL_THIRD_PARTY, "k.py", cache_dir=folder).output
    site = tmp_path / "site"
    site.mkdir()
    (site / "plfaketestmodule.py").write_text("")
    monkeypatch.syspath_prepend(str(site))  # installed
    assert "pl.MemorySpace.Vec" in run.run_text(KERNEL_THIRD_PARTY, "k.py", cache_dir=folder).output
    monkeypatch.undo()
    assert "pl.MemorySpace.Vec" in run.run_text(KERNEL_THIRD_PARTY, "k.py", cache_dir=folder).output


_RUN_CLI = """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))  # a read without end fails fast
from pl.show_inferred.cli import main
sys.exit(main(sys.argv[1:]))
"""


def _entry_replaced_by(tmp_path: Path, plant: Callable[[Path], None]) -> None:
    """The kernel's entry replaced by `plant(entry)`: the run is a miss (it neither hangs nor
    reads without end) and the thing planted goes; the entry written again is a file."""
    folder = tmp_path / "cache"
    kernel = tmp_path / "k.py"
    kernel.write_text(KERNEL)
    first = _cli([str(kernel), "--cache-dir", str(folder)])
    (entry,) = folder.glob("*.json")
    entry.unlink()
    plant(entry)
    again = subprocess.run([sys.executable, "-c", _RUN_CLI, str(kernel), "--cache-dir", str(folder)],
                           capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert (again.returncode, again.stdout, again.stderr) == first
    assert entry.is_file() and not entry.is_symlink()


def test_a_fifo_at_an_entry_is_a_miss_not_a_hang(tmp_path: Path) -> None:
    _entry_replaced_by(tmp_path, os.mkfifo)


@pytest.mark.parametrize("target", ["/dev/zero", "/dev/null", "elsewhere.json"])
def test_a_symlink_at_an_entry_is_a_miss(target: str, tmp_path: Path) -> None:
    def plant(entry: Path) -> None:
        if target == "elsewhere.json":  # a well-formed entry, outside the folder: not followed
            _cli([str(tmp_path / "k.py"), "--cache-dir", str(tmp_path / "other")])
            (other,) = (tmp_path / "other").glob("*.json")
            entry.symlink_to(other)
        else:
            entry.symlink_to(target)

    _entry_replaced_by(tmp_path, plant)


def test_an_entry_bigger_than_any_entry_is_a_miss(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run.run_text(KERNEL, "k.py", cache_dir=tmp_path)
    (entry,) = tmp_path.glob("*.json")
    monkeypatch.setattr(cache, "MAX_ENTRY_BYTES", entry.stat().st_size - 1)
    c = Counter(monkeypatch)
    run.run_text(KERNEL, "k.py", cache_dir=tmp_path)
    assert c.calls == 1


def _package(site: Path) -> Path:
    pkg = site / "libcst"
    (pkg / "_nodes").mkdir(parents=True)
    (pkg / "__init__.py").write_text("x = 1\n")
    (pkg / "_nodes" / "a.py").write_text("y = 2\n")
    (pkg / "native.so").write_bytes(b"\0" * 8)
    (site / "libcst-1.0.dist-info").mkdir()
    return pkg


def test_a_changed_package_or_installed_version_changes_the_fingerprint(tmp_path: Path) -> None:
    pkg = _package(tmp_path / "site")
    base = cache.code_fingerprint(str(pkg), "libcst")
    assert cache.code_fingerprint(str(pkg), "libcst") == base
    # Neither another distribution's metadata nor compiled bytecode is the package's code.
    (tmp_path / "site" / "libcstx-2.0.dist-info").mkdir()
    (pkg / "__pycache__").mkdir()
    (pkg / "__pycache__" / "a.cpython-311.pyc").write_bytes(b"pyc")
    (pkg / "README.txt").write_text("docs")
    assert cache.code_fingerprint(str(pkg), "libcst") == base
    seen = {base}

    def changed() -> None:
        now = cache.code_fingerprint(str(pkg), "libcst")
        assert now not in seen
        seen.add(now)

    (tmp_path / "site" / "libcst-1.0.dist-info").rename(tmp_path / "site" / "libcst-1.1.dist-info")
    changed()  # an upgrade, even one that left every file as it was
    a = pkg / "_nodes" / "a.py"
    a.write_text("y = 3\n")  # same size
    os.utime(a, ns=(a.stat().st_atime_ns, a.stat().st_mtime_ns + 1_000_000_000))
    changed()
    a.write_text("y = 30\n")
    changed()
    (pkg / "native.so").write_bytes(b"\1" * 9)  # the native parser
    changed()
    (pkg / "_nodes" / "b.py").write_text("")
    changed()
    (pkg / "_nodes" / "b.py").rename(pkg / "b.py")  # a module moved
    changed()


def test_the_fingerprint_covers_pl_and_libcst(monkeypatch: pytest.MonkeyPatch) -> None:
    import libcst

    import pl

    covered: list[tuple[str, str]] = []
    real = cache.code_fingerprint

    def spy(folder: str, distribution: str) -> str:
        covered.append((os.path.realpath(folder), distribution))
        return real(folder, distribution)

    monkeypatch.setattr(cache, "code_fingerprint", spy)
    cache.package_fingerprint()
    assert covered == [(os.path.dirname(os.path.realpath(pl.__file__)), "pl-tile"),
                       (os.path.dirname(os.path.realpath(libcst.__file__)), "libcst")]


def test_a_malformed_entry_is_a_miss(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cold = run.run_text(KERNEL, "k.py", cache_dir=tmp_path)
    (entry,) = tmp_path.glob("*.json")
    import json

    data = json.loads(entry.read_text())
    for bad in ({"status": "ok", "reads": {}, "result": {"output": 3}},
                {"status": "error", "reads": {}, "error": {"message": "x", "span": ["f", "1"]}},
                {"status": "ok", "reads": [], "result": None}):
        data["value"] = bad
        entry.write_text(json.dumps(data))
        c = Counter(monkeypatch)
        assert run.run_text(KERNEL, "k.py", cache_dir=tmp_path).output == cold.output
        assert c.calls == 1
