"""Benches and probes of the app: figures for people, never part of the product (neither the
installed packages nor the bundle ship them). Run from the repository's root:

    python -m scripts.bench.ui_bench         # start-up, memory, frame gaps of every table (make bench-ui)
    python -m scripts.bench.phones_table     # the kiosk with phones at the table, and without
    python -m scripts.bench.phone_server     # the phone server: messages, bytes, owner-thread cost

`ui_memory` and `frame_probe` are the UI bench's probes (what a frame grew in, what it did).
The engine's own bench stays the engine's command line: `python -m engine bench`.
"""

from __future__ import annotations

from pathlib import Path

#: The repository's root: a bench's child process runs there, so `-m scripts.bench.…` resolves.
ROOT = Path(__file__).resolve().parents[2]
