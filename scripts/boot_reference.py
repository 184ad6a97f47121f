"""The home screen as the app renders it, for `make boot-check` to compare with the booted
machine's screen: a fresh ParlorApp (empty store, kiosk mode) alone in an 800x480 window, saved
as binary PPMs in OUT_DIR: `home.ppm`, and `home-continue.ppm` with a Hachinin Meri game saved
(the home screen after a power cut).

    xvfb-run -a -s "-screen 0 800x480x24" .venv/bin/python scripts/boot_reference.py OUT_DIR
"""

from __future__ import annotations

import sys
from pathlib import Path

import shotkit  # first: a quiet Kivy; the repository importable
from shotkit import pump

SIZE = (800, 480)


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: boot_reference.py OUT_DIR", file=sys.stderr)
        return 2
    from engine.session import Session
    from ui.ports import KioskSettings, PowerSettings

    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    app = shotkit.new_app(SIZE, "en", kiosk=KioskSettings(enabled=True, exit_pin="2468"),
                          power=PowerSettings(enabled=True))
    save(out / "home.ppm")
    app.services.store.save_autosave(Session.new("meri", 1).to_json())
    app.refresh_saved()
    home = app.root.get_screen("home")
    home.set_focus(home.initial_focus())  # as at a start with a saved game: on Continue
    save(out / "home-continue.ppm")
    shotkit.close(app)
    return 0


def save(path: Path) -> None:
    """The window as it stands, as a binary PPM (rows top to bottom)."""
    from kivy.base import EventLoop
    from kivy.graphics.opengl import GL_RGB, GL_UNSIGNED_BYTE, glReadPixels

    pump(10)
    EventLoop.window.dispatch("on_draw")
    w, h = SIZE
    rows = glReadPixels(0, 0, w, h, GL_RGB, GL_UNSIGNED_BYTE)
    flipped = b"".join(rows[3 * w * (h - 1 - y):3 * w * (h - y)] for y in range(h))
    path.write_bytes(b"P6\n%d %d\n255\n" % (w, h) + flipped)
    print(path)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
