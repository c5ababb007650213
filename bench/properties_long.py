"""The long run of the property tests: `python bench/properties_long.py [pytest args ...]`.

Equivalent to `HYPOTHESIS_PROFILE=long pytest tests/test_properties.py`: the same properties as CI,
with 400 random (not derandomized) programs per property and family, and shrinking of failures.
It guarantees nothing beyond running pytest; its exit status is pytest's.
Set PL_PROPERTIES_KNOWN_BUGS=1 as well to let the generators walk into the known-bad corners
(tests/kernel_strategies.py lists them).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str]) -> int:
    env = dict(os.environ, HYPOTHESIS_PROFILE="long")
    cmd = [sys.executable, "-m", "pytest", str(ROOT / "tests" / "test_properties.py"), *argv]
    return subprocess.run(cmd, cwd=ROOT, env=env, check=False).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
