"""The Controls screen shows the board's health (issue 17 part 5): the lines of the injected
`Services.health`, translated, coloured by status, read again every few seconds while shown and
not at all while hidden; "not available" without any."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from hardware import health
from tests.ui.uitools import cut_labels, pump, settle
from ui.i18n import LANGUAGES
from ui.screens import controls

pytestmark = pytest.mark.ui


def fake_board(root: Path, millidegrees: str) -> Path:
    """A fake sysfs/proc tree: a hot zone, throttling flags, one sound card; the temp file."""
    zone = root / "sys/class/thermal/thermal_zone0"
    zone.mkdir(parents=True)
    (zone / "type").write_text("cpu-thermal\n")
    (zone / "temp").write_text(millidegrees)
    flags = root / "sys/devices/platform/soc/soc:firmware/get_throttled"
    flags.parent.mkdir(parents=True)
    flags.write_text("50005\n")
    (root / "proc/asound").mkdir(parents=True)
    (root / "proc/asound/cards").write_text(" 0 [Headphones     ]: bcm2835_headpho - "
                                            "bcm2835 Headphones\n")
    return zone / "temp"


def shown(app: Any) -> list[str]:
    rows = app.root.get_screen("controls").ids.health_lines.layout_manager.children
    return [row.text for row in sorted(rows, key=lambda r: -r.y)]


def test_without_health_lines_the_screen_says_not_available(make_app: Any) -> None:
    app = make_app()
    app.go("controls")
    settle()
    assert shown(app) == ["Health: not available"]


def test_the_injected_health_lines_are_shown_and_translated(make_app: Any,
                                                           tmp_path: Path) -> None:
    fake_board(tmp_path, "86000")
    app = make_app()
    app.services.health = lambda: health.read_all(tmp_path, tmp_path)
    app.go("controls")
    settle()
    lines = shown(app)
    assert lines[0].startswith("Temperature (problem): 86.0 °C (cpu-thermal): too hot")
    assert lines[1] == ("Throttling (problem): firmware flags 0x50005: under-voltage now, "
                        "throttled now, under-voltage since boot, throttled since boot, use a "
                        "stronger power supply (the official one for this Pi)")
    assert lines[2].startswith("Free space: ") and lines[2].endswith(f"MB free in {tmp_path}")
    assert lines[3] == "Audio: 1 sound card(s): 0: bcm2835 Headphones"
    rows = app.root.get_screen("controls").health
    assert [r["color"] for r in rows] == [controls.TONES[s] for s in ("FAIL", "FAIL", "OK", "OK")]

    app.go("home")
    app.set_language("fr")
    app.go("controls")
    settle()
    lines = shown(app)
    assert lines[0].startswith("Température (problème) : 86.0 °C (cpu-thermal) : trop chaud")
    assert lines[1].startswith("Bridage (problème) : indicateurs du firmware 0x50005 : "
                               "sous-tension en ce moment, bridé en ce moment")
    assert lines[3] == "Audio : 1 carte(s) son : 0: bcm2835 Headphones"


def test_lines_are_read_again_while_shown_and_not_when_hidden(
        make_app: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    temp = fake_board(tmp_path, "50000")
    calls: list[float] = []

    def read() -> list[health.Reading]:
        calls.append(time.monotonic())
        return health.read_all(tmp_path, tmp_path)

    monkeypatch.setattr(controls, "HEALTH_SECONDS", 0.05)
    app = make_app()
    app.services.health = read
    app.go("controls")
    settle()
    assert shown(app)[0] == "Temperature: 50.0 °C (cpu-thermal)"
    temp.write_text("76000")
    deadline = time.monotonic() + 5
    while not shown(app)[0].startswith("Temperature (warning): 76.0 °C") and \
            time.monotonic() < deadline:
        time.sleep(0.02)
        pump(2)
    assert shown(app)[0].startswith("Temperature (warning): 76.0 °C (cpu-thermal): hot")
    app.go("home")
    pump(2)
    before = len(calls)
    time.sleep(0.2)
    pump(5)
    assert len(calls) == before  # hidden: not read at all


def test_a_failing_reader_shows_not_available(make_app: Any) -> None:
    def broken() -> list[health.Reading]:
        raise OSError("sysfs went away")

    app = make_app()
    app.services.health = broken
    app.go("controls")
    settle()
    assert shown(app) == ["Health: not available"]


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)], ids=["landscape", "portrait"])
def test_health_lines_fit_in_every_language(make_app: Any, tmp_path: Path,
                                            size: tuple[int, int]) -> None:
    fake_board(tmp_path, "86000")
    app = make_app(size=size)
    app.services.health = lambda: health.read_all(tmp_path, tmp_path)
    problems = []
    for lang in LANGUAGES:
        app.set_language(lang)
        app.go("controls")
        settle()
        problems += [f"{lang}: {p}" for p in cut_labels(app.root)]
        app.go("home")
    assert problems == []
