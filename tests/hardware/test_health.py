"""The board's health readers (issue 17 part 5) on fake /sys, /proc and /dev trees in tmp_path."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hardware import health

FIRMWARE = "sys/devices/platform/soc/soc:firmware/get_throttled"
CARDS = """\
 0 [vc4hdmi0       ]: vc4-hdmi - vc4-hdmi-0
                      vc4-hdmi-0
 1 [Headphones     ]: bcm2835_headpho - bcm2835 Headphones
                      bcm2835 Headphones
"""


def put(root: Path, relative: str, text: str) -> Path:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def zone(root: Path, number: int, kind: str, millidegrees: str) -> None:
    put(root, f"sys/class/thermal/thermal_zone{number}/type", kind + "\n")
    put(root, f"sys/class/thermal/thermal_zone{number}/temp", millidegrees + "\n")


@pytest.mark.parametrize("milli, status, words", [
    ("48312", "OK", "48.3 °C (cpu-thermal)"),
    ("78000", "WARN", "78.0 °C (cpu-thermal): hot"),
    ("86500", "FAIL", "86.5 °C (cpu-thermal): too hot"),
])
def test_temperature_of_the_hottest_zone(tmp_path: Path, milli: str, status: str,
                                         words: str) -> None:
    zone(tmp_path, 0, "cpu-thermal", milli)
    zone(tmp_path, 1, "cooler", "20000")
    zone(tmp_path, 2, "broken", "n/a")  # an unreadable zone is left out
    reading = health.check_temperature(tmp_path)
    assert (reading.status, reading.name) == (status, "temperature")
    assert reading.detail.startswith(words)


def test_no_thermal_zone_is_a_warning(tmp_path: Path) -> None:
    (tmp_path / "sys/class/thermal").mkdir(parents=True)  # the class exists, no zone in it
    reading = health.check_temperature(tmp_path)
    assert reading.status == "WARN" and reading.detail == "not reported (no readable thermal zone)"
    zone(tmp_path, 0, "cpu-thermal", "")
    assert health.check_temperature(tmp_path).status == "WARN"


@pytest.mark.parametrize("raw, status, notes", [
    ("0\n", "OK", ()),
    ("50005\n", "FAIL", ("under-voltage now", "throttled now", "under-voltage since boot",
                         "throttled since boot", health.POWER_HINT)),
    ("0x80008", "WARN", ("soft temperature limit now", "soft temperature limit since boot")),
    ("20000", "WARN", ("frequency capped since boot",)),
    ("10000", "WARN", ("under-voltage since boot", health.POWER_HINT)),
])
def test_throttled_flags_are_decoded(tmp_path: Path, raw: str, status: str,
                                     notes: tuple[str, ...]) -> None:
    put(tmp_path, FIRMWARE, raw)
    reading = health.check_throttling(tmp_path)
    assert (reading.status, reading.notes) == (status, notes)
    if status == "OK":
        assert reading.detail == "no under-voltage or throttling since boot"
    else:
        assert reading.detail.startswith(f"firmware flags {int(raw, 16):#x}: {notes[0]}")


def test_flags_found_in_another_firmware_node_and_nonsense_ignored(tmp_path: Path) -> None:
    put(tmp_path, "sys/devices/platform/soc@107c000000/soc@107c000000:firmware/get_throttled",
        "4")
    assert health.check_throttling(tmp_path).notes == ("throttled now",)
    put(tmp_path, FIRMWARE, "garbage")  # the first place, unreadable: the next one counts
    assert health.throttled_flags(tmp_path) == 4


def test_without_firmware_flags_the_voltage_sensor_or_nothing(tmp_path: Path) -> None:
    reading = health.check_throttling(tmp_path)
    assert reading.status == "OK" and reading.text == health.THROTTLE_NONE
    put(tmp_path, "sys/class/hwmon/hwmon0/name", "cpu_thermal\n")
    put(tmp_path, "sys/class/hwmon/hwmon1/name", "rpi_volt\n")
    alarm = put(tmp_path, "sys/class/hwmon/hwmon1/in0_lcrit_alarm", "0\n")
    assert health.check_throttling(tmp_path).text == health.VOLT_CLEAR
    alarm.write_text("1\n")
    reading = health.check_throttling(tmp_path)
    assert reading.status == "WARN" and reading.text == health.VOLT_LOW


def test_free_space_of_the_data_folder(tmp_path: Path) -> None:
    reading = health.check_free_space(tmp_path)
    assert reading.status == "OK" and reading.detail.endswith(f" MB free in {tmp_path}")
    low = health.check_free_space(tmp_path, low=1 << 62)  # more than any disk has
    assert low.status == "WARN" and low.detail.endswith("little space left, saving may fail")
    unknown = health.check_free_space(tmp_path / "missing")
    assert unknown.status == "WARN" and unknown.detail.startswith("free space unknown")


def test_sound_cards(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    put(tmp_path, "proc/asound/cards", CARDS)
    reading = health.check_audio(tmp_path)
    assert reading.status == "OK"
    assert reading.detail == "2 sound card(s): 0: vc4-hdmi-0, 1: bcm2835 Headphones"
    node = put(tmp_path, "dev/snd/pcmC1D0p", "")
    assert health.check_audio(tmp_path).status == "OK"
    real_access = os.access  # we run as root, who may open anything: pretend to be a user
    monkeypatch.setattr(health.os, "access",
                        lambda p, mode: False if Path(p) == node else real_access(p, mode))
    denied = health.check_audio(tmp_path)
    assert denied.status == "WARN" and "the audio group" in denied.detail


@pytest.mark.parametrize("text", [None, "--- no soundcards ---\n"])
def test_no_sound_card(tmp_path: Path, text: str | None) -> None:
    if text is not None:
        put(tmp_path, "proc/asound/cards", text)
    reading = health.check_audio(tmp_path)
    assert reading.status == "WARN" and reading.detail == "no sound card found"


def test_every_message_fills_from_its_values(tmp_path: Path) -> None:
    """The UI translates `text` and fills it from `values`: the fields must match."""
    zone(tmp_path, 0, "cpu-thermal", "50000")
    put(tmp_path, FIRMWARE, "50005")
    put(tmp_path, "proc/asound/cards", CARDS)
    readings = health.read_all(tmp_path, tmp_path)
    assert [r.name for r in readings] == ["temperature", "throttling", "free space", "audio"]
    for reading in readings:
        assert reading.text.format(**reading.values)
