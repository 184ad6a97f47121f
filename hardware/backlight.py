"""The display's backlight through sysfs (`/sys/class/backlight/*`), for screen sleep.

`open_backlight(root)` finds the backlight (the folder is injectable: tests pass a fake sysfs
tree in their tmp folder; `$PARLOR_BACKLIGHT_DIR` names another folder than
`/sys/class/backlight`, the way `GPIOZERO_PIN_FACTORY` picks a pin factory: the test suite points
it at an empty folder, so no test, not even the app run in a subprocess, writes to the real /sys), reads `max_brightness` and `brightness`, and checks that it may
write by writing the current brightness back (the only honest test: under the service `/sys` is
read-only unless the unit opened this device's folder, and `brightness` is root's unless the udev
rule gave it to the `video` group; see docs/raspberry-pi.md). Any problem is logged as ONE line
and `open_backlight` returns None: the UI then puts a black screen up instead.

`SysfsBacklight` satisfies `ui.ports.Backlight`: `dim(percent)`, `off()` (also `bl_power` = 4,
powerdown, where the driver has it), `restore()` (the brightness found at open, `bl_power` = 0),
`close()` (restores). Each returns True when the hardware did it; a write that fails later (the
display unplugged) is logged once and answered False, so the UI falls back to black.
Tests drive this same class over a fake sysfs tree; a desktop run with mocked hardware opens no
backlight at all (its window goes black instead, which is what a developer can see).
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

log = logging.getLogger(__name__)

SYSFS_ROOT = Path("/sys/class/backlight")
ENV_DIR = "PARLOR_BACKLIGHT_DIR"  # another folder of backlights (tests, bring-up on fake files)
# Which backlight to prefer when there are several (the kernel's ABI doc: firmware and platform
# interfaces drive the panel more sensibly than a raw register).
TYPE_ORDER = ("firmware", "platform", "raw")
FB_BLANK_UNBLANK = 0  # bl_power values (include/uapi/linux/fb.h)
FB_BLANK_POWERDOWN = 4
MOST_BYTES = 64  # an attribute holds one small number


def _read_int(path: Path) -> int:
    """The number in a sysfs attribute (ValueError if it holds something else)."""
    with open(path, encoding="ascii", errors="replace") as f:
        text = f.read(MOST_BYTES).strip()
    return int(text)


def _write_int(path: Path, value: int) -> None:
    """Write one number to a sysfs attribute (no truncation or temporary file: sysfs has none)."""
    fd = os.open(path, os.O_WRONLY)
    try:
        os.write(fd, f"{value}\n".encode("ascii"))
    finally:
        os.close(fd)


def _why(exc: OSError) -> str:
    return exc.strerror or str(exc)


def default_root() -> Path:
    """`$PARLOR_BACKLIGHT_DIR` if set, else `/sys/class/backlight`."""
    return Path(os.environ.get(ENV_DIR) or SYSFS_ROOT)


def candidates(root: Path) -> list[Path]:
    """The backlight folders under `root`, the preferred one first (by type, then name)."""
    try:
        entries = [p for p in root.iterdir() if (p / "brightness").exists()]
    except OSError:
        return []

    def rank(path: Path) -> tuple[int, str]:
        try:
            kind = (path / "type").read_text(encoding="ascii", errors="replace").strip()
        except OSError:
            kind = ""
        order = TYPE_ORDER.index(kind) if kind in TYPE_ORDER else len(TYPE_ORDER)
        return order, path.name

    return sorted(entries, key=rank)


def read_levels(path: Path) -> tuple[int, int]:
    """(brightness, max_brightness) of a backlight folder, only read (`parlor doctor`)."""
    return _read_int(path / "brightness"), _read_int(path / "max_brightness")


class SysfsBacklight:
    """One backlight folder: dim, off and back to the brightness it had when opened."""

    available = True

    def __init__(self, path: Path) -> None:
        """Read the folder's levels and check it may be written (raises OSError / ValueError)."""
        self.path = path
        self.max = _read_int(path / "max_brightness")
        if self.max <= 0:
            raise ValueError(f"max_brightness is {self.max}")
        self.original = min(self.max, max(0, _read_int(path / "brightness")))
        if self.original == 0:  # found dark (a previous run killed while off): full brightness
            self.original = self.max
        self.power = path / "bl_power"
        # powered down at open: a previous run was killed while the screen slept; power it up
        self._powered_down = self.power.exists() and _read_int(self.power) != FB_BLANK_UNBLANK
        if self._powered_down:
            _write_int(self.power, FB_BLANK_UNBLANK)
            self._powered_down = False
        _write_int(path / "brightness", self.original)  # the write test; changes nothing else
        self.level = self.original
        self._failed = False

    def __repr__(self) -> str:
        return f"SysfsBacklight({str(self.path)!r})"

    def _set(self, brightness: int, power: int | None = None) -> bool:
        try:
            if power == FB_BLANK_UNBLANK and self._powered_down:
                _write_int(self.power, power)
                self._powered_down = False
            _write_int(self.path / "brightness", brightness)
            if power == FB_BLANK_POWERDOWN and self.power.exists():
                _write_int(self.power, power)
                self._powered_down = True
        except OSError as exc:
            if not self._failed:  # one line, not one per idle timeout
                log.warning("backlight: writing %s failed: %s; the screen sleeps black instead",
                            self.path, _why(exc))
            self._failed = True
            return False
        self.level = brightness
        self._failed = False
        return True

    def dim(self, percent: int) -> bool:
        """Down to `percent` of the maximum (never brighter than it was, never quite off)."""
        level = max(1, round(self.max * min(100, max(1, percent)) / 100))
        return self._set(min(level, self.original))

    def off(self) -> bool:
        """Brightness 0, and the panel's power down where the driver offers `bl_power`."""
        return self._set(0, FB_BLANK_POWERDOWN)

    def restore(self) -> bool:
        """The brightness found at open, the panel powered."""
        return self._set(self.original, FB_BLANK_UNBLANK)

    def close(self) -> None:
        """Leave the screen as it was found (at exit: never a dark screen behind us)."""
        self.restore()


def open_backlight(root: Path | None = None) -> SysfsBacklight | None:
    """The preferred backlight under `root` (`default_root()`) that can be written, or None
    (logged, one line)."""
    root = default_root() if root is None else root
    found = candidates(root)
    if not found:
        log.info("backlight: none in %s; the screen sleeps black instead", root)
        return None
    problems = []
    for path in found:
        try:
            backlight = SysfsBacklight(path)
        except OSError as exc:
            problems.append(f"{path.name}: {_why(exc)}")
            continue
        except ValueError as exc:
            problems.append(f"{path.name}: unreadable level ({exc})")
            continue
        log.info("backlight: %s (brightness %d of %d)", path, backlight.original, backlight.max)
        return backlight
    log.warning("backlight: cannot use %s; the screen sleeps black instead "
                "(see docs/raspberry-pi.md, Screen sleep)", "; ".join(problems))
    return None

