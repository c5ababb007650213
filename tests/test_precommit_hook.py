"""The pre-commit hook (`.pre-commit-hooks.yaml`, `pl.show_inferred.hook`): which files it checks,
and pre-commit's own `try-repo` running it from a snapshot of this repository on a temporary
repository of a user's."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pl.show_inferred import main as show_inferred_main
from pl.show_inferred.hook import is_kernel_file, main

ROOT = Path(__file__).resolve().parent.parent
SEED = ROOT / "examples" / "seed_general.py"

PLAIN = "import os\n\n\ndef f() -> str:\n    return os.sep\n"
SHAPES = "import pl\n\nN = 128\nDTYPE = pl.BF16\n"  # a module kernels import: no program in it
BROKEN = "def (:\n"


def inferred(path: Path, *options: str) -> str:
    """The file as `show_inferred` regenerates it (what `--write` would leave)."""
    out, err = io.StringIO(), io.StringIO()
    assert show_inferred_main([*options, "--no-cache", str(path)], stdout=out, stderr=err) == 0, err.getvalue()
    return out.getvalue()


def write(folder: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")


# -- which files are kernel files ------------------------------------------------------------------
@pytest.mark.parametrize(("text", "kernel"), [
    (SEED.read_text(encoding="utf-8"), True),
    ("import pl as p\n\n@p.program\nclass K:\n    pass\n", True),
    ("from pl import program\n\n@program(name='k')\nclass K:\n    pass\n", True),
    ("import pl\n\ndef make():\n    @pl.program\n    class K:\n        pass\n", True),  # static loading says why not
    (BROKEN, True),  # the check reports the syntax error, located
    (PLAIN, False),
    (SHAPES, False),
    ("import pl\n\n@pl.inline\ndef helper(x):\n    return x\n", False),
    ("class program:\n    pass\n", False),
], ids=["seed", "alias", "from-import", "nested", "syntax-error", "plain", "shapes", "inline-helper",
        "named-program"])
def test_is_kernel_file(text: str, kernel: bool, tmp_path: Path) -> None:
    path = tmp_path / "f.py"
    path.write_text(text, encoding="utf-8")
    assert is_kernel_file(str(path)) is kernel


def test_hook_passes_inferred_kernels_and_ordinary_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(tmp_path, {"fresh.py": inferred(SEED), "plain.py": PLAIN, "shapes.py": SHAPES})
    assert main([str(tmp_path / n) for n in ("fresh.py", "plain.py", "shapes.py")]) == 0
    assert capsys.readouterr() == ("", "")
    assert main([]) == 0  # pre-commit may call a hook with no file


def test_hook_fails_on_a_kernel_not_in_its_inferred_form(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    write(tmp_path, {"stale.py": SEED.read_text(encoding="utf-8"), "plain.py": PLAIN,
                     "fresh.py": inferred(SEED)})
    files = [str(tmp_path / n) for n in ("plain.py", "stale.py", "fresh.py")]
    assert main(files) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"would regenerate {tmp_path / 'stale.py'}\n"
    assert (tmp_path / "stale.py").read_text(encoding="utf-8") == SEED.read_text(encoding="utf-8")


def test_hook_reports_a_file_python_cannot_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(tmp_path, {"broken.py": BROKEN, "plain.py": PLAIN})
    assert main([str(tmp_path / "broken.py"), str(tmp_path / "plain.py")]) == 2
    err = capsys.readouterr().err
    assert "invalid Python syntax" in err and "broken.py:1:5" in err and "Traceback" not in err


def test_hook_passes_show_inferred_options_through(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Each option reaches show_inferred: a bad value is its located error, not the hook's.
    kernel = tmp_path / "k.py"
    kernel.write_text(inferred(SEED, "--backend", "none"), encoding="utf-8")
    assert main(["--backend", "none", "--no-residency", "--no-cache", str(kernel)]) == 0
    assert main(["--backend", "nowhere", str(kernel)]) == 2
    assert "invalid choice: 'nowhere'" in capsys.readouterr().err
    assert main(["--program", "NoSuchProgram", "--no-cache", str(kernel)]) == 2
    assert "no @pl.program named 'NoSuchProgram'" in capsys.readouterr().err
    # An option --check does not take (a mode of its own) is the hook's usage error.
    assert main(["--diff", str(kernel)]) == 2
    assert "unrecognized arguments: --diff" in capsys.readouterr().err


# -- pre-commit's try-repo ----------------------------------------------------------------------------
def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=pl test", "-c", "user.email=pl@test.invalid",
                    "-c", "commit.gpgsign=false", *args], cwd=cwd, check=True,
                   capture_output=True, env=_env())


def _env() -> dict[str, str]:
    # Outside any repository a git hook may have pointed at (GIT_DIR, GIT_INDEX_FILE, ...).
    return {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}


def _snapshot(dst: Path) -> None:
    """This repository's working tree (tracked and new files, not ignored ones) as one commit in
    `dst`: try-repo on the checkout itself would install HEAD plus changes to tracked files only."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=ROOT, check=True, capture_output=True, env=_env()).stdout
    for name in listed.decode().split("\0"):
        src = ROOT / name
        if name and src.is_file():  # a tracked file deleted in the working tree is not copied
            (dst / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst / name)
    _git(dst, "init", "-q")
    _git(dst, "add", "-A")
    _git(dst, "commit", "-q", "-m", "snapshot")


def test_pre_commit_try_repo(tmp_path: Path) -> None:
    """pre-commit installs this repository's hook into a fresh virtualenv (pip installs the
    package and libcst) and runs it on a user's repository: the kernel not in its inferred form
    fails the hook with its name, the inferred kernel, an ordinary module, a module kernels import
    and a non-Python file pass."""
    hook_repo, user_repo = tmp_path / "hook-repo", tmp_path / "user-repo"
    hook_repo.mkdir()
    user_repo.mkdir()
    _snapshot(hook_repo)
    write(user_repo, {"stale.py": SEED.read_text(encoding="utf-8"), "fresh.py": inferred(SEED),
                      "plain.py": PLAIN, "shapes.py": SHAPES, "notes.txt": "@pl.program\n"})
    _git(user_repo, "init", "-q")
    _git(user_repo, "add", "-A")
    # Nothing in the user's home: pre-commit's folder (its log; try-repo keeps the hook's
    # virtualenv in a temporary folder of its own) is the test's, and pip's cache and virtualenv's
    # seed wheels follow XDG_CACHE_HOME, which conftest.py points at the test session's folder.
    env = _env() | {"PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"), "NO_COLOR": "1"}

    def try_repo() -> tuple[int, str]:
        run = subprocess.run([sys.executable, "-m", "pre_commit", "try-repo", str(hook_repo),
                              "show-inferred-check", "--all-files", "--color", "never"],
                             cwd=user_repo, env=env, capture_output=True, text=True, timeout=600)
        report = run.stdout + run.stderr
        assert "Traceback" not in report and "Error:" not in report, report
        return run.returncode, report

    status, report = try_repo()
    assert status == 1, report
    assert "show_inferred --check" in report and "Failed" in report, report
    assert "- exit code: 1" in report, report
    named = [ln for ln in report.splitlines() if ln.startswith("would regenerate")]
    assert named == ["would regenerate stale.py"], report

    # The user regenerates the file, as the message invites; the hook then passes.
    (user_repo / "stale.py").write_text(inferred(SEED), encoding="utf-8")
    _git(user_repo, "add", "-A")
    status, report = try_repo()
    assert status == 0, report
    assert "show_inferred --check" in report and "Passed" in report, report
    assert "would regenerate" not in report, report


# -- file names are never options, and the hook runs nothing ----------------------------------------
def test_the_hook_takes_no_option_that_runs_a_kernel(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    kernel = tmp_path / "k.py"
    kernel.write_text(SEED.read_text(encoding="utf-8") + RUNS.format(marker=tmp_path / "ran"),
                      encoding="utf-8")
    for option in ("--exec", "--ex", "--e"):  # nor its abbreviations
        assert main([option, "--no-cache", str(kernel)]) == 2
        assert f"unrecognized arguments: {option}" in capsys.readouterr().err
    assert main(["--no-cach", str(kernel)]) == 2  # no option is abbreviated
    assert not (tmp_path / "ran").exists()


RUNS = "\nopen({marker!r}, 'w').close()  # top-level code: runs only if the file is imported\n"


@pytest.mark.parametrize("name", ["--exec", "--ex", "--no-cache"])
def test_a_staged_file_named_like_an_option_is_never_an_option(
        name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    # pre-commit runs the hook in the repository's root with the staged files' names appended.
    monkeypatch.chdir(tmp_path)
    text = SEED.read_text(encoding="utf-8") + RUNS.format(marker=str(tmp_path / "ran"))
    write(tmp_path, {name: text, "k.py": text})
    # After the manifest's `--`: a file like any other, checked (and not run).
    assert main(["--no-cache", "--", name, "k.py"]) == 1
    assert capsys.readouterr().err == f"would regenerate {name}\nwould regenerate k.py\n"
    # A user's args: without `--`: refused, neither taken for an option nor for a file.
    assert main(["--no-cache", name, "k.py"]) == 2
    assert f"'{name}' is a file's name spelled as an option" in capsys.readouterr().err
    assert not (tmp_path / "ran").exists()


def test_a_staged_file_named_dash_is_that_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path, {"-": SEED.read_text(encoding="utf-8")})
    monkeypatch.setattr(sys, "stdin", io.StringIO(PLAIN))  # not what is checked
    assert main(["--no-cache", "--", "-"]) == 1
    assert capsys.readouterr().err == "would regenerate ./-\n"


def test_the_manifest_runs_a_console_script_and_ends_the_options() -> None:
    """The hook's entry is a console script of pyproject.toml (`python -m` would put the
    repository under check first on sys.path), and its args end with `--`."""
    tomllib = pytest.importorskip("tomllib")
    yaml = pytest.importorskip("yaml")
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    [hook] = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert scripts[hook["entry"]] == "pl.show_inferred.hook:main"
    assert hook["args"][-1] == "--"


# -- the working directory is never imported from ----------------------------------------------------
# Modules the command imports (directly or through the standard library) before and after its
# arguments are parsed; planted in the folder it runs in, each would run if imported from there.
PLANTED = ("typing", "json", "difflib", "dataclasses", "argparse", "functools", "tempfile",
           "hashlib", "tokenize", "libcst")


def _plant(folder: Path, marker: Path, *, package: bool = False) -> None:
    for name in PLANTED:
        (folder / f"{name}.py").write_text(f"open({str(marker)!r}, 'a').write('{name}\\n')\n",
                                           encoding="utf-8")
    if package:  # a `pl/` package of the repository under check
        (folder / "pl").mkdir()
        (folder / "pl" / "__init__.py").write_text(
            f"open({str(marker)!r}, 'a').write('pl\\n')\n", encoding="utf-8")


def _run_in(cwd: Path, command: list[str]) -> subprocess.CompletedProcess[str]:
    env = _env() | {"PYTHONPATH": str(ROOT)}  # pl from this checkout, as if installed
    env.pop("PYTHONSAFEPATH", None)
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("module", ["pl.show_inferred", "pl.show_inferred.hook"])
def test_python_m_never_imports_from_the_working_directory(module: str, tmp_path: Path) -> None:
    marker = tmp_path.parent / f"{tmp_path.name}-imported"
    _plant(tmp_path, marker)
    (tmp_path / "k.py").write_text(SEED.read_text(encoding="utf-8"), encoding="utf-8")
    options = ["--check"] if module == "pl.show_inferred" else []
    run = _run_in(tmp_path, [sys.executable, "-m", module, *options, "--no-cache", "k.py"])
    assert not marker.exists(), marker.read_text(encoding="utf-8")
    assert (run.returncode, run.stderr) == (1, "would regenerate k.py\n")


@pytest.mark.parametrize(("script", "argv"), [("pl-show-inferred", ["--check", "--no-cache", "k.py"]),
                                              ("pl-show-inferred-hook", ["--no-cache", "--", "k.py"])])
def test_the_console_scripts_never_import_from_the_working_directory(
        script: str, argv: list[str], tmp_path: Path) -> None:
    """The commands pyproject.toml installs, run as pip's wrapper runs them (its folder, not the
    working directory, first on sys.path): not even a `pl/` package there is imported."""
    tomllib = pytest.importorskip("tomllib")
    module, function = tomllib.loads((ROOT / "pyproject.toml").read_text(
        encoding="utf-8"))["project"]["scripts"][script].split(":")
    bin_dir, cwd = tmp_path / "bin", tmp_path / "repo"
    bin_dir.mkdir()
    cwd.mkdir()
    wrapper = bin_dir / script
    wrapper.write_text(f"import sys\nfrom {module} import {function}\nsys.exit({function}())\n",
                       encoding="utf-8")
    marker = tmp_path / "imported"
    _plant(cwd, marker, package=True)
    (cwd / "k.py").write_text(SEED.read_text(encoding="utf-8"), encoding="utf-8")
    run = _run_in(cwd, [sys.executable, str(wrapper), *argv])
    assert not marker.exists(), marker.read_text(encoding="utf-8")
    assert (run.returncode, run.stderr) == (1, "would regenerate k.py\n")
