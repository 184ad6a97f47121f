"""Screenshots of the seating screen (issue 22) for people to look at.

    xvfb-run -a -s "-screen 0 1280x1280x24" .venv/bin/python scripts/seating_screenshots.py [--out DIR]

Writes PNGs into `screenshots/`: Tractor's seating as today's game (you and AI); with two
phone seats, a name typed and the phone server running on 127.0.0.1 (QR code, URL, who is
awaited), at 800×480 and 720×1280 portrait; Hachinin Meri's eight seats with `[network]` off
(the panel says how to turn phones on); and the Tractor table those phone seats lead to (the
public table: no hand shown, the seats' names). The server listens on the loopback only and is
stopped before the script ends.
"""

from __future__ import annotations

import argparse
import socket
from pathlib import Path

import shotkit  # first: a quiet Kivy; the repository importable
from shotkit import ROOT, close, shoot


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "screenshots")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)

    from ui.app import ParlorApp
    from ui.remote.settings import NetworkSettings

    def shot(_app: ParlorApp, name: str) -> None:
        shoot(args.out, name)

    def free_port() -> int:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            return int(sock.getsockname()[1])

    def new_app(size: tuple[int, int], network: NetworkSettings) -> ParlorApp:
        return shotkit.new_app(size, seed=4, ai_level="normal", network=network)

    for size, suffix in (((800, 480), ""), ((720, 1280), "_portrait")):
        net = NetworkSettings(enabled=True, port=free_port(), bind="127.0.0.1")
        app = new_app(size, net)
        app.open_seating("tractor")
        shot(app, f"seating_default{suffix}")
        seating = app.root.get_screen("seating")
        seating.step_kind(0)  # this screen -> phone
        seating.rows[0].name_input.text = "Linh"
        seating.step_kind(2)  # AI -> phone
        seating.step_level(3)  # normal -> hard
        shot(app, f"seating_phones{suffix}")
        if not suffix:
            seating.play()
            shot(app, "seating_table_public")
        close(app)
    app = new_app((800, 480), NetworkSettings(enabled=False))
    app.open_seating("meri")
    seating = app.root.get_screen("seating")
    seating.step_kind(3)
    shot(app, "seating_meri_network_off")
    close(app)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
