"""Run the scoring command line: `python -m scoring score FILE|-` (see scoring/cli.py)."""

import sys

from scoring.cli import main

sys.exit(main())
