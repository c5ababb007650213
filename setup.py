"""What the distribution installs; the rest of its metadata is in pyproject.toml.

Two top-level names in site-packages, nothing else:
- `pl`, the package with all its subpackages (`pl.lowering`, `pl.infer`, ...);
- `pl-stubs`, the kernel-file stubs of stubs/pl as a PEP 561 stub-only package. mypy prefers a
  `<name>-stubs` folder in site-packages over the package itself, so after `pip install` the
  README's mypy block (the plugin, no-redef off) is all a user's project needs (stubs/README.md;
  tests/test_wheel.py). In this repository mypy finds
  the working tree's `pl/` first (the current folder comes before site-packages), so `mypy --strict pl`
  still checks the real code.
pyproject.toml cannot express this: its `packages.find` table finds `pl*` but cannot map a folder
(stubs/pl) to another name (pl-stubs) beside it.
"""

from setuptools import find_namespace_packages, setup

# Every folder is a package, as setuptools' build expects (pl/ops/data holds only .tsv files).
STUBS = ["pl-stubs", *(f"pl-stubs.{name}" for name in find_namespace_packages(where="stubs/pl"))]

setup(
    packages=[*find_namespace_packages(include=["pl", "pl.*"]), *STUBS],
    package_dir={"pl-stubs": "stubs/pl"},
    package_data={"pl": ["py.typed"], "pl.ops.data": ["*.tsv"], **{stubs: ["*.pyi"] for stubs in STUBS}},
)
