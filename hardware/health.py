"""The board's health: temperature, the firmware's throttling flags, free space, the sound card.

One reader for `parlor doctor` and the Controls screen. Each check returns a `Reading`: a status
(`OK`, `WARN` = works but worth knowing, `FAIL`), a name and a message with `{fields}` and its
values, so the doctor prints it in English (`detail`) and the UI translates the same message.
Every module-level string constant here is such a message: `python -m ui.locale_build` reads them
from this file (ast, nothing imported) into the catalogs, so no other string constant belongs at
module level. Every path is under an injectable `root` (`/` on the machine, a fake tree in tests).

Sources: `/sys/class/thermal/thermal_zone*/{type,temp}` (millidegrees); the Raspberry Pi
firmware's `get_throttled` flags (hex) in sysfs, or where the kernel has no such file (a Pi 5)
the `rpi_volt` hwmon sensor's sticky under-voltage alarm; `statvfs` of the data folder;
ALSA's `/proc/asound/cards` and the `/dev/snd` PCM nodes.
"""

from __future__ import annotations

import glob
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

Status = Literal["OK", "WARN", "FAIL"]

# -- the names and messages (msgids) ------------------------------------------------------------
TEMPERATURE = "temperature"
THROTTLING = "throttling"
FREE_SPACE = "free space"
AUDIO = "audio"

TEMP_NORMAL = "{celsius:.1f} °C ({zone})"
TEMP_HOT = ("{celsius:.1f} °C ({zone}): hot, the processor is slowed down from 80 °C "
            "(a heatsink or fan helps)")
TEMP_TOO_HOT = ("{celsius:.1f} °C ({zone}): too hot, the processor is being slowed down hard "
                "(cool it)")
TEMP_NONE = "not reported (no readable thermal zone)"

THROTTLE_CLEAR = "no under-voltage or throttling since boot"
THROTTLE_FLAGS = "firmware flags {flags}"
THROTTLE_NONE = "not reported (no Raspberry Pi firmware flags)"
VOLT_CLEAR = "no under-voltage since boot (voltage sensor; throttling not reported)"
VOLT_LOW = "under-voltage since boot (voltage sensor; throttling not reported)"
UNDER_VOLTAGE_NOW = "under-voltage now"
CAPPED_NOW = "frequency capped now"
THROTTLED_NOW = "throttled now"
SOFT_LIMIT_NOW = "soft temperature limit now"
UNDER_VOLTAGE_SINCE = "under-voltage since boot"
CAPPED_SINCE = "frequency capped since boot"
THROTTLED_SINCE = "throttled since boot"
SOFT_LIMIT_SINCE = "soft temperature limit since boot"
POWER_HINT = "use a stronger power supply (the official one for this Pi)"

SPACE_FREE = "{megabytes} MB free in {folder}"
SPACE_LOW = "{megabytes} MB free in {folder}: little space left, saving may fail"
SPACE_UNKNOWN = "free space unknown in {folder}"

AUDIO_CARDS = "{count} sound card(s): {cards}"
AUDIO_NO_ACCESS = ("{count} sound card(s): {cards}; /dev/snd not usable by this user "
                   "(the audio group)")
AUDIO_NONE = "no sound card found"

# The firmware's flag bits (Raspberry Pi documentation, `vcgencmd get_throttled`), in that order.
FLAG_BITS: tuple[tuple[int, str], ...] = (
    (0x1, UNDER_VOLTAGE_NOW),
    (0x2, CAPPED_NOW),
    (0x4, THROTTLED_NOW),
    (0x8, SOFT_LIMIT_NOW),
    (0x10000, UNDER_VOLTAGE_SINCE),
    (0x20000, CAPPED_SINCE),
    (0x40000, THROTTLED_SINCE),
    (0x80000, SOFT_LIMIT_SINCE),
)
UNDER_VOLTAGE_MASK = 0x10001

HOT_C = 75.0  # WARN from here: the Pi 4/5 firmware starts slowing the processor at 80 °C
TOO_HOT_C = 85.0  # FAIL from here: the firmware's hard limit
LOW_SPACE = 5 * 1024 * 1024  # bytes: below this, saving may soon fail

# Where the firmware driver puts `get_throttled` (Pi 0-4 device trees; other layouts by glob).
THROTTLED_GLOBS = (
    "sys/devices/platform/soc/soc:firmware/get_throttled",
    "sys/devices/platform/*firmware/get_throttled",
    "sys/devices/platform/*/*:firmware/get_throttled",
)
CARD_LINE = re.compile(r"^\s*(\d+)\s+\[([^\]]*)\]:\s*(.*)$")


@dataclass(frozen=True)
class Reading:
    """One health line: `name` and `text` are msgids, `text` filled from `values`; `notes` are
    msgids listed after the text (the throttling flags)."""

    status: Status
    name: str
    text: str
    values: Mapping[str, object] = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    @property
    def detail(self) -> str:
        """The line in English (the doctor's words)."""
        text = self.text.format(**self.values)
        return f"{text}: {', '.join(self.notes)}" if self.notes else text


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8", errors="replace").strip()
    except (OSError, ValueError):
        return None


def _under(root: Path, pattern: str) -> list[Path]:
    return [Path(p) for p in sorted(glob.glob(str(root / pattern)))]


# -- temperature --------------------------------------------------------------------------------
def temperatures(root: Path = Path("/")) -> list[tuple[str, float]]:
    """(zone type, °C) of every thermal zone with a readable temperature."""
    found = []
    for zone in _under(root, "sys/class/thermal/thermal_zone*"):
        raw = _read(zone / "temp")
        try:
            celsius = int(raw or "") / 1000
        except ValueError:
            continue
        found.append((_read(zone / "type") or zone.name, celsius))
    return found


def check_temperature(root: Path = Path("/")) -> Reading:
    """The hottest zone: WARN from `HOT_C`, FAIL from `TOO_HOT_C`; WARN if none is readable."""
    zones = temperatures(root)
    if not zones:
        return Reading("WARN", TEMPERATURE, TEMP_NONE)
    zone, celsius = max(zones, key=lambda z: z[1])
    values = {"celsius": celsius, "zone": zone}
    if celsius >= TOO_HOT_C:
        return Reading("FAIL", TEMPERATURE, TEMP_TOO_HOT, values)
    if celsius >= HOT_C:
        return Reading("WARN", TEMPERATURE, TEMP_HOT, values)
    return Reading("OK", TEMPERATURE, TEMP_NORMAL, values)


# -- throttling ---------------------------------------------------------------------------------
def throttled_flags(root: Path = Path("/")) -> int | None:
    """The firmware's `get_throttled` bits, or None where the kernel does not expose them."""
    for pattern in THROTTLED_GLOBS:
        for path in _under(root, pattern):
            raw = _read(path)
            try:
                return int(raw or "", 16)
            except ValueError:
                continue
    return None


def decode_flags(flags: int) -> tuple[str, ...]:
    """The msgids of the set bits, current conditions first."""
    return tuple(text for bit, text in FLAG_BITS if flags & bit)


def _volt_alarm(root: Path) -> bool | None:
    """The `rpi_volt` sensor's sticky under-voltage alarm (Pi kernels without `get_throttled`)."""
    for hwmon in _under(root, "sys/class/hwmon/hwmon*"):
        if _read(hwmon / "name") == "rpi_volt":
            raw = _read(hwmon / "in0_lcrit_alarm")
            if raw in ("0", "1"):
                return raw == "1"
    return None


def check_throttling(root: Path = Path("/")) -> Reading:
    """FAIL while under-voltage, WARN for any other flag (now or since boot), OK if clear."""
    flags = throttled_flags(root)
    if flags is None:
        alarm = _volt_alarm(root)
        if alarm is None:
            return Reading("OK", THROTTLING, THROTTLE_NONE)
        if alarm:
            return Reading("WARN", THROTTLING, VOLT_LOW, notes=(POWER_HINT,))
        return Reading("OK", THROTTLING, VOLT_CLEAR)
    if flags == 0:
        return Reading("OK", THROTTLING, THROTTLE_CLEAR)
    notes = decode_flags(flags) + ((POWER_HINT,) if flags & UNDER_VOLTAGE_MASK else ())
    status: Status = "FAIL" if flags & 0x1 else "WARN"
    return Reading(status, THROTTLING, THROTTLE_FLAGS, {"flags": f"{flags:#x}"}, notes)


# -- free space ---------------------------------------------------------------------------------
def free_space(folder: Path) -> int | None:
    """Bytes free for this user on the file system holding `folder` (None if unknown)."""
    try:
        info = os.statvfs(folder)
    except (OSError, ValueError):
        return None
    return info.f_bavail * info.f_frsize


def check_free_space(folder: Path, low: int | None = None) -> Reading:
    """Free space on the partition holding `folder` (the data folder): WARN below `low`
    (default `LOW_SPACE`)."""
    low = LOW_SPACE if low is None else low
    free = free_space(folder)
    if free is None:
        return Reading("WARN", FREE_SPACE, SPACE_UNKNOWN, {"folder": str(folder)})
    values = {"megabytes": free // 2**20, "folder": str(folder)}
    if free < low:
        return Reading("WARN", FREE_SPACE, SPACE_LOW, values)
    return Reading("OK", FREE_SPACE, SPACE_FREE, values)


# -- audio --------------------------------------------------------------------------------------
def sound_cards(root: Path = Path("/")) -> list[str]:
    """ALSA's cards as "N: name" from `/proc/asound/cards` (empty if none or no ALSA)."""
    text = _read(root / "proc" / "asound" / "cards") or ""
    cards = []
    for line in text.splitlines():
        match = CARD_LINE.match(line)
        if match:
            number, short, description = match.groups()
            name = description.split(" - ", 1)[-1].strip() or short.strip()
            cards.append(f"{number}: {name}")
    return cards


def check_audio(root: Path = Path("/")) -> Reading:
    """OK with the cards; WARN if none, or if no playback node in /dev/snd opens for this user."""
    cards = sound_cards(root)
    if not cards:
        return Reading("WARN", AUDIO, AUDIO_NONE)
    values = {"count": len(cards), "cards": ", ".join(cards)}
    nodes = _under(root, "dev/snd/pcmC*D*p")
    if nodes and not any(os.access(node, os.R_OK | os.W_OK) for node in nodes):
        return Reading("WARN", AUDIO, AUDIO_NO_ACCESS, values)
    return Reading("OK", AUDIO, AUDIO_CARDS, values)


def read_all(data_folder: Path, root: Path = Path("/")) -> list[Reading]:
    """Every health reading, in the order the doctor and the Controls screen show them."""
    return [check_temperature(root), check_throttling(root), check_free_space(data_folder),
            check_audio(root)]
