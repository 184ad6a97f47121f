"""`parlor --selftest`: open the window (offscreen unless there is a display), draw the home
screen, check that it really drew something, and exit 0 — or 1 with one line saying what failed.

The window uses the built-in config defaults, an in-memory store and a throwaway Kivy home in a
temporary folder (removed afterwards), so it tests the program (a fresh install, a PyInstaller
bundle). It also reads the real config and looks at the real store exactly as `parlor doctor`
does (read-only, nothing left behind) and reports what it found on a line each; those findings
do not change the exit status: the app runs with a bad config or without its data.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any, TextIO

from device import kivyenv
from device.config import defaults

FRAMES_BEFORE_CHECK = 10
TIMEOUT_SECONDS = 60.0


def prepare_environment(home: Path) -> None:
    """Offscreen SDL without a display; windowed; Kivy's home in `home`."""
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
    os.environ["KCFG_GRAPHICS_FULLSCREEN"] = "0"
    os.environ["KIVY_HOME"] = str(home)
    kivyenv.apply(kivyenv.kivy_environment(defaults(), home.parent))


def colours(pixels: bytes, step: int = 37) -> int:
    """How many distinct RGBA values a sample of the pixels has (1 = a blank window)."""
    return len({pixels[i:i + 4] for i in range(0, len(pixels) - 3, 4 * step)})


def report_installation(out: TextIO, environ: dict[str, str] | None = None) -> None:
    """One line each for the real config and the real store (found read-only)."""
    from device import config as config_mod
    from device import doctor

    env = dict(os.environ if environ is None else environ)
    try:
        config, problems = config_mod.load(environ=env)
        checks = [doctor.check_config(config, problems), doctor.check_store(config, env)]
    except Exception as exc:  # a report must not stop the self-test; say what went wrong
        print(f"selftest: config/store not checked: {type(exc).__name__}: {exc}", file=out)
        return
    for check in checks:
        print(f"selftest: {check.name}: {check.status} {check.detail}", file=out)


def selftest(out: TextIO) -> int:
    temporary = Path(tempfile.mkdtemp(prefix="parlor-selftest-"))
    try:
        status = _selftest(out, temporary / "kivy")
    finally:
        shutil.rmtree(temporary, ignore_errors=True)
    report_installation(out)
    return status


def _selftest(out: TextIO, home: Path) -> int:
    started = time.monotonic()
    prepare_environment(home)
    try:
        kivyenv.after_import()
        from kivy.clock import Clock

        from ui.app import ParlorApp
        from ui.ports import MemoryStore, NullOutputs, Services
    except Exception as exc:  # the point of a self-test: say what is missing, in one line
        print(f"selftest: FAIL: the UI cannot be loaded: {type(exc).__name__}: {exc}", file=out)
        return 1

    result: dict[str, Any] = {}
    frames = [0]
    app = ParlorApp(Services(store=MemoryStore(), outputs=NullOutputs()), seed=0)

    def frame(_dt: float) -> None:
        frames[0] += 1
        if frames[0] == 1:
            # Counted from the first frame: Kivy's clock measures a delay scheduled before the
            # loop from the clock's import, so a slow start (an emulated arm64 machine, a loaded
            # Pi building its screens) would use the whole limit before anything was drawn.
            Clock.schedule_once(give_up, TIMEOUT_SECONDS)
        if frames[0] < FRAMES_BEFORE_CHECK:
            return
        try:
            root = app.root
            image = root.export_as_image()
            result["screen"] = getattr(root, "current", type(root).__name__)
            result["size"] = tuple(int(v) for v in image.texture.size)
            result["colours"] = colours(bytes(image.texture.pixels))
        except Exception as exc:
            result["error"] = f"{type(exc).__name__}: {exc}"
        app.stop()
        return None

    def give_up(_dt: float) -> None:
        result.setdefault("error", f"fewer than {FRAMES_BEFORE_CHECK} frames drawn in the "
                                   f"{TIMEOUT_SECONDS:g} s after the first one")
        app.stop()

    ticker = Clock.schedule_interval(frame, 0)
    try:
        app.run()
    except Exception as exc:
        result.setdefault("error", f"{type(exc).__name__}: {exc}")
    ticker.cancel()
    elapsed = time.monotonic() - started
    if "error" in result:
        print(f"selftest: FAIL: {result['error']}", file=out)
        return 1
    if result.get("screen") != "home":
        print(f"selftest: FAIL: the first screen is {result.get('screen')!r}, not 'home'", file=out)
        return 1
    if result["colours"] < 2:
        print("selftest: FAIL: the home screen drew nothing (one colour)", file=out)
        return 1
    width, height = result["size"]
    print(f"selftest: OK: home screen rendered {width}x{height}, {result['colours']} colours "
          f"sampled, {elapsed:.1f} s", file=out)
    return 0
