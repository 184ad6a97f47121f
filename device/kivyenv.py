"""Kivy's environment, prepared from the config BEFORE anything imports kivy.

Kivy reads its settings at import time: `KIVY_*` variables and `KCFG_<SECTION>_<KEY>` overrides
of its config file. `kivy_environment` computes them (pure, testable); `apply` puts them in
`os.environ` without overriding what the caller set explicitly, so a developer can still say
`KCFG_GRAPHICS_FULLSCREEN=0 parlor`. `after_import` fixes what the environment cannot: the
duplicate touch provider, the Kivy 2.3.1 `Metrics.dpi` bug (platform.md), and the search for X
cut-buffer helpers where there is no X server.
"""

from __future__ import annotations

import logging
import os
import tempfile
from collections.abc import Mapping, MutableMapping
from pathlib import Path

from device.config import Config

log = logging.getLogger(__name__)


def kivy_environment(
    config: Config, data_dir: Path, environ: Mapping[str, str] | None = None
) -> dict[str, str]:
    """The variables for Kivy: its home in the data dir, window and kiosk settings from config."""
    env = os.environ if environ is None else environ
    display = config.display
    kiosk = config.kiosk.enabled
    out = {
        "KIVY_NO_ARGS": "1",  # our CLI owns sys.argv
        "KIVY_HOME": str(data_dir / "kivy"),  # never ~/.kivy (read-only home under systemd)
        "KIVY_NO_FILELOG": "1",  # stderr is the log (journald under systemd)
        "KIVY_LOG_MODE": "PYTHON",  # Kivy's records go through our logging handler, once
        "KIVY_WINDOW": "sdl2",
        "KIVY_METRICS_DENSITY": f"{display.density:g}",
        "KCFG_GRAPHICS_FULLSCREEN": "auto" if display.fullscreen else "0",
        "KCFG_GRAPHICS_ROTATION": str(display.rotation),
        "KCFG_GRAPHICS_WIDTH": str(display.width),
        "KCFG_GRAPHICS_HEIGHT": str(display.height),
        "KCFG_GRAPHICS_SHOW_CURSOR": "0" if kiosk else "1",
        "KCFG_KIVY_EXIT_ON_ESCAPE": "0",  # Esc is BACK in Parlor, never "quit"
        "KCFG_KIVY_PAUSE_ON_MINIMIZE": "0",
    }
    if not env.get("DISPLAY") and not env.get("WAYLAND_DISPLAY") and not env.get(
            "SDL_VIDEODRIVER"):
        out["SDL_VIDEODRIVER"] = "kmsdrm"  # a console with no desktop: draw on the screen itself
    return out


def apply(values: Mapping[str, str], environ: MutableMapping[str, str] | None = None) -> None:
    """Set each variable unless the caller's environment already has it."""
    env = os.environ if environ is None else environ
    for key, value in values.items():
        env.setdefault(key, value)
    try:
        Path(env["KIVY_HOME"]).mkdir(parents=True, exist_ok=True)
    except OSError as exc:  # an unwritable data directory must not stop the table
        fallback = tempfile.mkdtemp(prefix="parlor-kivy-")
        log.error("cannot create KIVY_HOME %s (%s); using %s", env["KIVY_HOME"],
                  exc.strerror or exc, fallback)
        env["KIVY_HOME"] = fallback


def after_import() -> None:
    """Once kivy is importable: keep one touch provider, read a metric before `Metrics.dpi`,
    and without an X server no X cut buffer.

    SDL2 already reports touches; Kivy's default `probesysfs` input line adds a second provider
    for the same screen, so every tap arrives twice (kivy #3801, #8494).
    """
    import kivy
    from kivy.config import Config as KivyConfig
    from kivy.metrics import dp

    if KivyConfig.has_option("input", "%(name)s"):
        KivyConfig.remove_option("input", "%(name)s")
    dp(1)
    if not os.environ.get("DISPLAY"):
        # No X server: no X selection to paste from with the middle button. Kivy would still
        # look for its X "cut buffer" helpers (xclip, xsel) the first time a text field is
        # used, and log a CRITICAL line with two tracebacks on the kiosk (seen on a booted
        # machine: the seating screen's name fields). An empty provider list skips the search;
        # the one line saying that none was found is dropped (there can be none).
        kivy.kivy_options.setdefault("cutbuffer", ())
        kivy_log = logging.getLogger("kivy")
        if not any(isinstance(f, _NoCutBufferLine) for f in kivy_log.filters):
            kivy_log.addFilter(_NoCutBufferLine())


class _NoCutBufferLine(logging.Filter):
    """Drops Kivy's "no cut buffer provider" line (only installed where there is no X)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("Cutbuffer: Unable to find any valuable")
