"""The sysfs backlight (issue 17 part 5, screen sleep): found, dimmed, turned off and restored on
a fake sysfs tree in tmp_path; missing or unwritable is one log line and no backlight."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from hardware.backlight import SysfsBacklight, candidates, open_backlight
from tests.fakesysfs import level, make_backlight


def test_dims_turns_off_and_restores_the_brightness_it_found(tmp_path: Path) -> None:
    link = make_backlight(tmp_path, maximum=255, brightness=180)
    backlight = open_backlight(tmp_path / "class" / "backlight")
    assert isinstance(backlight, SysfsBacklight) and backlight.available
    assert backlight.dim(20) and level(link) == 51  # 20 % of 255
    assert backlight.off() and level(link) == 0 and level(link, "bl_power") == 4
    assert backlight.restore() and level(link) == 180 and level(link, "bl_power") == 0
    backlight.dim(20)
    backlight.close()  # at exit: as it was found
    assert level(link) == 180 and level(link, "bl_power") == 0


def test_dimming_never_brightens_and_never_reaches_zero(tmp_path: Path) -> None:
    link = make_backlight(tmp_path, maximum=31, brightness=3)
    backlight = open_backlight(tmp_path / "class" / "backlight")
    assert backlight is not None
    backlight.dim(50)
    assert level(link) == 3  # already darker than 50 %: kept
    backlight.restore()
    backlight.original = 31
    backlight.dim(1)
    assert level(link) == 1


def test_without_bl_power_off_is_brightness_zero(tmp_path: Path) -> None:
    link = make_backlight(tmp_path, bl_power=None)
    backlight = open_backlight(tmp_path / "class" / "backlight")
    assert backlight is not None and backlight.off() and level(link) == 0
    assert not (link / "bl_power").exists()
    assert backlight.restore() and level(link) == 31


def test_a_screen_left_dark_by_a_killed_run_is_lit_at_open(tmp_path: Path) -> None:
    link = make_backlight(tmp_path, brightness=0, bl_power=4)
    backlight = open_backlight(tmp_path / "class" / "backlight")
    assert backlight is not None
    assert level(link) == 31 and level(link, "bl_power") == 0 and backlight.original == 31


def test_no_backlight_is_one_line_and_none(tmp_path: Path,
                                           caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="hardware.backlight"):
        assert open_backlight(tmp_path / "class" / "backlight") is None
    assert [r.getMessage() for r in caplog.records] == [
        f"backlight: none in {tmp_path / 'class' / 'backlight'}; the screen sleeps black instead"]


def test_an_unwritable_or_garbled_backlight_is_one_line_and_none(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """We run as root, so permissions cannot refuse a write: a folder where the attribute should
    be does (EISDIR), like a read-only /sys would (EROFS)."""
    link = make_backlight(tmp_path, name="a")
    (link / "brightness").unlink()
    (link / "brightness").mkdir()
    bad = make_backlight(tmp_path, name="b")
    (bad / "max_brightness").write_text("lots\n")
    with caplog.at_level(logging.INFO, logger="hardware.backlight"):
        assert open_backlight(tmp_path / "class" / "backlight") is None
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 1 and "a: Is a directory" in lines[0] and "b: unreadable level" in lines[0]


def test_a_write_failing_later_is_logged_once_and_reported(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    link = make_backlight(tmp_path)
    backlight = open_backlight(tmp_path / "class" / "backlight")
    assert backlight is not None
    (link / "brightness").unlink()
    (link / "brightness").mkdir()  # the display went away
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="hardware.backlight"):
        assert backlight.dim(20) is False and backlight.off() is False
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1 and "sleeps black instead" in warnings[0]


def test_firmware_backlights_are_preferred(tmp_path: Path) -> None:
    make_backlight(tmp_path, name="a-raw", kind="raw")
    make_backlight(tmp_path, name="z-firmware", kind="firmware")
    assert [p.name for p in candidates(tmp_path / "class" / "backlight")] == ["z-firmware", "a-raw"]


def test_the_suite_never_looks_at_the_real_sys(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """tests/conftest.py points $PARLOR_BACKLIGHT_DIR at an empty folder; it picks the folder."""
    assert open_backlight() is None
    link = make_backlight(tmp_path)
    monkeypatch.setenv("PARLOR_BACKLIGHT_DIR", str(link.parent))
    backlight = open_backlight()
    assert backlight is not None and backlight.path == link
