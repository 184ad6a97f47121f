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
import os
import socket
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_NO_FILELOG", "1")
os.environ.setdefault("KIVY_USE_DEFAULTCONFIG", "1")
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="parlor-shots-"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "screenshots")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)

    from kivy.base import EventLoop

    from ui.app import ParlorApp
    from ui.ports import MemoryStore, NullOutputs, Services
    from ui.remote.settings import NetworkSettings

    EventLoop.ensure_window()
    window = EventLoop.window

    def frames(n: int = 25) -> None:
        for _ in range(n):
            EventLoop.idle()

    def shot(app: ParlorApp, name: str) -> None:
        frames()
        path = args.out / f"{name}.png"
        app.root.export_to_png(str(path))
        print(path)

    def free_port() -> int:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            return int(sock.getsockname()[1])

    def new_app(size: tuple[int, int], network: NetworkSettings) -> ParlorApp:
        window.size = size
        app = ParlorApp(Services(store=MemoryStore(), outputs=NullOutputs(), network=network),
                        seed=4)
        app.ai_level = "normal"
        app.bot_process = False
        app.pace = 0
        root = app.build()
        app.root = root
        window.add_widget(root)
        frames()
        return app

    def close(app: ParlorApp) -> None:
        app.dispatch("on_stop")  # stops the phone server
        window.remove_widget(app.root)

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
