"""`python -m device` = `parlor` (also the PyInstaller bundle's entry script)."""

import sys

from device.cli import main

sys.exit(main())
