"""The wheel as a user gets it: built, `pip install`ed into a fresh virtual environment with mypy,
and used from a small project outside this repository.

One module fixture does what a new user does: it builds the wheel (`pip wheel --no-deps` from a
copy of the distribution's sources, so the checkout gets no build/ folder), makes a virtual
environment in a temporary folder, installs the wheel and mypy into it with pip (the dependencies
come from the package index, as for a user; the mypy is the version this suite runs with), and
writes a project: every example, the "After" form the installed
`python -m pl.show_inferred` prints for the seed's kernel, a script calling `pl.compile` on a
program class, one planted memory-space mistake, and a pyproject.toml holding exactly the mypy
block of the README. Nothing of the checkout is importable there: the subprocesses run in the
project folder with no PYTHONPATH, and the tests check that `pl` comes from the new environment.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import venv
import zipfile
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# What the distribution is built from (pyproject.toml names the README as its long description).
SOURCES = ("pyproject.toml", "setup.py", "README.md", "pl", "stubs")
# The seed's "After" line whose annotation the planted mistake changes (a matmul's result is Acc).
# The annotated matmul's first line (the statement is wrapped past 100 columns, as inserted ones are).
RIGHT = "z_tile: pl.Tile[[16, 128], pl.FP32, pl.MemorySpace.Acc] = pl.matmul("
WRONG = RIGHT.replace("MemorySpace.Acc", "MemorySpace.Vec")
PLANTED_ERROR = ('Incompatible types in assignment (expression has type "Tile[FP32, Acc]", '
                 'variable has type "Tile[FP32, Vec]")  [assignment]')
COMPILE_SCRIPT = '''"""A user's script: compile the seed's kernel."""

import pl

from seed_general import Before

compiled = pl.compile(Before, backend=None, residency=False)
'''


@dataclass(frozen=True)
class Installed:
    wheel: Path
    python: Path  # the fresh environment's interpreter
    project: Path


def _run(args: list[str | Path], cwd: Path) -> subprocess.CompletedProcess[str]:
    # No PYTHONPATH and a cwd outside the checkout: only what was installed is importable.
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "MYPYPATH", "VIRTUAL_ENV")}
    return subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True)


def _checked(run: subprocess.CompletedProcess[str]) -> str:
    assert run.returncode == 0, f"{run.args}\n{run.stdout}\n{run.stderr}"
    return run.stdout


def readme_mypy_block() -> str:
    """The ```toml block of the README's mypy section: what a user pastes into pyproject.toml."""
    section = (ROOT / "README.md").read_text(encoding="utf-8").split("## Type checking kernels with mypy", 1)[1]
    block = re.search(r"```toml\n(.*?)```", section, re.DOTALL)
    assert block is not None, "the README's mypy section has no ```toml block"
    return block[1]


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    base = tmp_path_factory.mktemp("wheel")
    assert ROOT not in base.parents
    source, dist, env_dir, project = base / "source", base / "dist", base / "env", base / "project"
    source.mkdir()
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(ROOT / name, source / name)
    _checked(_run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", dist, source], base))
    (wheel,) = dist.glob("*.whl")

    # The running pip installs into the new environment (`--python`): the same result as that
    # environment's own pip, without the seconds ensurepip takes to put one there.
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    _checked(_run([sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-compile", wheel,
                   f"mypy=={version('mypy')}"], base))

    project.mkdir()
    for example in (ROOT / "examples").glob("*.py"):
        shutil.copy2(example, project / example.name)
    after = _checked(_run([python, "-m", "pl.show_inferred", "seed_general.py", "--backend", "none"], project))
    assert RIGHT in after
    (project / "seed_after.py").write_text(after, encoding="utf-8")
    (project / "seed_planted.py").write_text(after.replace(RIGHT, WRONG), encoding="utf-8")
    (project / "compile_seed.py").write_text(COMPILE_SCRIPT, encoding="utf-8")
    (project / "pyproject.toml").write_text(readme_mypy_block(), encoding="utf-8")
    return Installed(wheel, python, project)


def test_wheel_installs_only_pl_and_its_stubs(installed: Installed) -> None:
    names = zipfile.ZipFile(installed.wheel).namelist()
    top = {name.split("/")[0] for name in names if not name.split("/")[0].endswith(".dist-info")}
    assert top == {"pl", "pl-stubs"}


def test_wheel_holds_every_module_stub_and_data_file(installed: Installed) -> None:
    names = set(zipfile.ZipFile(installed.wheel).namelist())
    modules = {p.relative_to(ROOT).as_posix() for p in (ROOT / "pl").rglob("*.py")}
    data = {p.relative_to(ROOT).as_posix() for p in (ROOT / "pl").rglob("*.tsv")} | {"pl/py.typed"}
    stubs = {"pl-stubs/" + p.relative_to(ROOT / "stubs" / "pl").as_posix()
             for p in (ROOT / "stubs" / "pl").rglob("*.pyi")}
    assert len(stubs) > 10
    assert not (modules | data | stubs) - names


def test_installed_pl_is_the_wheel_not_the_checkout(installed: Installed) -> None:
    where = _checked(_run([installed.python, "-c", "import pl, pl.mypy_plugin; print(pl.__file__)"],
                          installed.project)).strip()
    assert Path(where).is_relative_to(installed.python.parent.parent), where
    assert not Path(where).is_relative_to(ROOT), where


def test_readme_mypy_block_is_all_a_user_project_needs(installed: Installed) -> None:
    """Every example, the seed's "After" form and a `pl.compile(ProgramClass)` call type-check
    under --strict with only the README's block; the planted mistake is the one error."""
    run = _run([installed.python, "-m", "mypy", "--strict", "--no-error-summary", "."], installed.project)
    assert "INTERNAL ERROR" not in run.stdout + run.stderr, run.stdout + run.stderr
    errors = [line for line in run.stdout.splitlines() if ": error: " in line]
    line = next(no for no, text in enumerate((installed.project / "seed_planted.py").read_text(
        encoding="utf-8").splitlines(), start=1) if WRONG in text)
    assert errors == [f"seed_planted.py:{line}: error: {PLANTED_ERROR}"], run.stdout + run.stderr
    assert run.returncode == 1
