"""`python -m hardware` (see hardware/cli.py)."""

import sys

from .cli import main

sys.exit(main())
