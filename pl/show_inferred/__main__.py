"""`python -m pl.show_inferred`: the command line (pl/show_inferred/cli.py)."""

import sys

from pl.show_inferred.cli import main

sys.exit(main())
