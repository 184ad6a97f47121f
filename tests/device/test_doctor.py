"""`parlor doctor` (issue 9, item 3): each check says OK or the problem, and changes nothing."""

from __future__ import annotations

import io
import os
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from device import doctor
from device.config import defaults, load_text
from device.store import SCHEMA_VERSION, SqliteStore
from tests.fakesysfs import make_backlight


def test_config_problems_are_listed_as_a_warning() -> None:
    config, problems = load_text("[display]\nrotation = 7\n", "c.toml")
    check = doctor.check_config(config, problems)
    assert check.status == "WARN" and check.more == tuple(problems)
    assert doctor.check_config(defaults(), []).status == "OK"


def test_store_checks_read_only(tmp_path: Path) -> None:
    env = {"PARLOR_DATA_DIR": str(tmp_path / "new")}
    check = doctor.check_store(defaults(), env)
    assert check.status == "OK" and "created on first start" in check.detail
    assert "MB free" in check.detail
    assert not (tmp_path / "new").exists()

    SqliteStore(tmp_path / "new" / "parlor.db").close()
    check = doctor.check_store(defaults(), env)
    assert check.status == "OK", check.detail
    assert f"(schema {SCHEMA_VERSION}, wal, integrity ok, writable, " in check.detail

    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "parlor.db").write_bytes(b"not a database" * 50)
    check = doctor.check_store(defaults(), {"PARLOR_DATA_DIR": str(bad)})
    assert check.status == "FAIL" and "left untouched" in check.detail
    assert "move it aside" not in check.detail and doctor.NO_DATA in check.detail
    assert (bad / "parlor.db").read_bytes() == b"not a database" * 50  # untouched

    future = tmp_path / "future"
    SqliteStore(future / "parlor.db").close()
    conn = sqlite3.connect(future / "parlor.db")
    conn.execute("PRAGMA user_version = 42")
    conn.close()
    check = doctor.check_store(defaults(), {"PARLOR_DATA_DIR": str(future)})
    assert check.status == "FAIL" and "newer" in check.detail and "untouched" in check.detail


def listing(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


@pytest.mark.parametrize("state", ["checkpointed", "open with a log"])
def test_store_check_leaves_no_file_behind(tmp_path: Path, state: str) -> None:
    """Issue 18: the doctor opened the database read-only yet left -wal/-shm files behind."""
    path = tmp_path / "parlor.db"
    store = SqliteStore(path)
    store.save_autosave('{"a": 1}')
    if state == "checkpointed":
        store.close()
    before = listing(tmp_path)
    check = doctor.check_store(defaults(), {"PARLOR_DATA_DIR": str(tmp_path)})
    assert check.status == "OK", check.detail
    assert listing(tmp_path) == before
    if state == "open with a log":
        store.close()


@pytest.mark.parametrize("case", ["directory", "dangling symlink", "parent is a file",
                                  "damaged", "damaged in a read-only folder"])
def test_store_messages_say_what_parlor_will_do(tmp_path: Path, case: str,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 18: "will move it aside" was promised for a directory; a dangling symlink and a
    parent that is a file were OK."""
    path = tmp_path / "parlor.db"
    if case == "directory":
        path.mkdir()
    elif case == "dangling symlink":
        path.symlink_to(tmp_path / "gone.db")
    elif case == "parent is a file":
        (tmp_path / "blocker").write_text("x")
        path = tmp_path / "blocker" / "parlor.db"
    else:
        SqliteStore(path).close()
        data = bytearray(path.read_bytes())
        data[100:] = b"\xff" * (len(data) - 100)
        path.write_bytes(bytes(data))
    if case == "damaged in a read-only folder":
        real_access = os.access
        monkeypatch.setattr(doctor.os, "access", lambda p, mode: False if Path(p) == tmp_path
                            else real_access(p, mode))
    config = defaults()
    config = replace(config, store=replace(config.store, path=str(path)))
    check = doctor.check_store(config, {})
    assert check.status == "FAIL", check.detail
    if case == "damaged":
        assert check.detail.endswith("Parlor will move it aside and start afresh")
    else:
        assert "move it aside" not in check.detail and check.detail.endswith(doctor.NO_DATA)


def test_low_free_space_is_a_warning(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    SqliteStore(tmp_path / "parlor.db").close()
    monkeypatch.setattr(doctor, "free_space", lambda folder: 1024 * 1024)
    check = doctor.check_store(defaults(), {"PARLOR_DATA_DIR": str(tmp_path)})
    assert check.status == "WARN" and "1 MB free" in check.detail


def test_display_check(tmp_path: Path) -> None:
    assert doctor.check_display({"DISPLAY": ":0"}).status == "OK"
    assert doctor.check_display({"SDL_VIDEODRIVER": "offscreen"}).status == "OK"
    none = doctor.check_display({}, dri_glob=str(tmp_path / "card*"))
    assert none.status == "FAIL" and "vc4-kms-v3d" in none.detail
    (tmp_path / "card1").write_text("")
    ok = doctor.check_display({"SDL_VIDEODRIVER": "kmsdrm", "DISPLAY": ":0"},
                              dri_glob=str(tmp_path / "card*"))
    assert ok.status == "OK" and "KMS/DRM" in ok.detail


def test_backlight_check(tmp_path: Path) -> None:
    folder = tmp_path / "sys/class/backlight"
    none = doctor.check_backlight(folder)
    assert none.status == "WARN" and none.detail == f"none in {folder}: screen sleep draws a " \
        "black screen"
    link = make_backlight(tmp_path / "sys", brightness=12)
    ok = doctor.check_backlight(folder)
    assert ok.status == "OK" and ok.detail == f"{link}: brightness 12 of 31, writable"
    assert (link / "brightness").read_text() == "12\n"  # only read
    (link / "max_brightness").write_text("?\n")
    assert doctor.check_backlight(folder).status == "WARN"


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write a mode-0444 file")
def test_backlight_check_says_when_this_user_may_not_write(tmp_path: Path) -> None:
    link = make_backlight(tmp_path / "sys")
    (link / "brightness").chmod(0o444)
    check = doctor.check_backlight(tmp_path / "sys/class/backlight")
    assert check.status == "WARN" and "not writable by this user" in check.detail


def test_inputs_check(tmp_path: Path) -> None:
    assert doctor.check_inputs(str(tmp_path / "event*")).status == "WARN"
    (tmp_path / "event0").write_text("")
    check = doctor.check_inputs(str(tmp_path / "event*"))
    assert check.status == "OK" and check.detail == "1 of 1 readable"


def test_pin_factory_and_serial_checks() -> None:
    config, _ = load_text("[input.gpio]\nenabled = true\npin_factory = 'mock'\n"
                          "[input.serial]\nenabled = true\nport = 'loop://'\n")
    pins = doctor.check_pin_factory(config, {})
    assert pins.status == "OK" and "MockFactory" in pins.detail and "MENU=GPIO21" in pins.detail
    assert doctor.check_serial(config).status == "OK"
    missing, _ = load_text("[input.serial]\nenabled = true\nport = '/dev/parlor-no-such-port'\n")
    failed = doctor.check_serial(missing)
    assert failed.status == "FAIL" and failed.detail.startswith("/dev/parlor-no-such-port: ")
    assert doctor.check_pin_factory(defaults(), {}).detail.startswith("GPIO not used")
    broken = replace(config, gpio=replace(config.gpio, pin_factory="nonsense"))
    assert doctor.check_pin_factory(broken, {}).status == "FAIL"


def test_doctor_prints_one_line_per_check_and_fails_on_fail(tmp_path: Path) -> None:
    out = io.StringIO()
    env = {"SDL_VIDEODRIVER": "offscreen", "PARLOR_DATA_DIR": str(tmp_path),
           "PARLOR_CONFIG": str(tmp_path / "c.toml")}
    (tmp_path / "c.toml").write_text("[input.serial]\nenabled = true\nport = '/dev/nope-x'\n")
    assert doctor.doctor(out, env) == 1
    lines = out.getvalue().splitlines()
    assert [line.split()[1].rstrip(":") for line in lines if not line.startswith(" ")][:6] == [
        "config", "store", "display", "input", "pin", "serial"]
    assert lines[-1] == "problems: serial port"


def fake_board(root: Path, temp: str | None, throttled: str | None, cards: str | None) -> None:
    """A fake /sys and /proc: a thermal zone, the firmware's flags, ALSA's card list."""
    (root / "sys/class/thermal").mkdir(parents=True)
    if temp is not None:
        zone = root / "sys/class/thermal/thermal_zone0"
        zone.mkdir()
        (zone / "type").write_text("cpu-thermal\n")
        (zone / "temp").write_text(temp + "\n")
    if throttled is not None:
        flags = root / "sys/devices/platform/soc/soc:firmware/get_throttled"
        flags.parent.mkdir(parents=True)
        flags.write_text(throttled + "\n")
    if cards is not None:
        (root / "proc/asound").mkdir(parents=True)
        (root / "proc/asound/cards").write_text(cards)


def health_lines(tmp_path: Path, board: Path) -> list[str]:
    env = {"SDL_VIDEODRIVER": "offscreen", "PARLOR_DATA_DIR": str(tmp_path / "data"),
           "PARLOR_CONFIG": str(tmp_path / "none.toml")}
    out = io.StringIO()
    doctor.doctor(out, env, root=board)
    names = ("temperature:", "throttling:", "free space:", "audio:")
    return [line for line in out.getvalue().splitlines() if line[5:].startswith(names)]


def test_doctor_reports_a_healthy_board(tmp_path: Path) -> None:
    """Issue 17 part 5: temperature, throttling, free space and the audio device, one line
    each, read from the board (here a fake sysfs/proc tree)."""
    fake_board(tmp_path / "board", "47600", "0", " 0 [Headphones     ]: bcm2835_headpho - "
               "bcm2835 Headphones\n                      bcm2835 Headphones\n")
    lines = health_lines(tmp_path, tmp_path / "board")
    assert lines[0] == "OK   temperature: 47.6 °C (cpu-thermal)"
    assert lines[1] == "OK   throttling: no under-voltage or throttling since boot"
    assert lines[2].startswith("OK   free space: ") and lines[2].endswith(f"MB free in {tmp_path}")
    assert lines[3] == "OK   audio: 1 sound card(s): 0: bcm2835 Headphones"


def test_doctor_reports_a_hot_throttled_board_without_sound(tmp_path: Path) -> None:
    fake_board(tmp_path / "board", "86000", "50005", "--- no soundcards ---\n")
    lines = health_lines(tmp_path, tmp_path / "board")
    assert lines[0].startswith("FAIL temperature: 86.0 °C (cpu-thermal): too hot")
    assert lines[1] == ("FAIL throttling: firmware flags 0x50005: under-voltage now, throttled "
                        "now, under-voltage since boot, throttled since boot, use a stronger "
                        "power supply (the official one for this Pi)")
    assert lines[3] == "WARN audio: no sound card found"
    out = io.StringIO()
    env = {"SDL_VIDEODRIVER": "offscreen", "PARLOR_DATA_DIR": str(tmp_path / "data"),
           "PARLOR_CONFIG": str(tmp_path / "none.toml")}
    assert doctor.doctor(out, env, root=tmp_path / "board") == 1
    assert out.getvalue().splitlines()[-1] == "problems: temperature, throttling"


def test_doctor_on_a_machine_without_thermal_zone_or_firmware_flags(tmp_path: Path) -> None:
    fake_board(tmp_path / "board", None, None, None)
    lines = health_lines(tmp_path, tmp_path / "board")
    assert lines[:2] == ["WARN temperature: not reported (no readable thermal zone)",
                         "OK   throttling: not reported (no Raspberry Pi firmware flags)"]
    assert lines[3] == "WARN audio: no sound card found"


def test_doctor_warns_of_low_free_space_on_the_data_partition(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake_board(tmp_path / "board", "50000", "0", None)
    monkeypatch.setattr(doctor.health, "LOW_SPACE", 1 << 62)  # more than any disk holds
    lines = health_lines(tmp_path, tmp_path / "board")
    assert lines[2].startswith("WARN free space: ")
    assert lines[2].endswith(f"MB free in {tmp_path}: little space left, saving may fail")


def test_doctor_says_whether_the_sound_player_has_an_audio_device(tmp_path: Path) -> None:
    """Issue 20 part 4: the line the sound player needs, from the player's own probe
    (`ui.sound.probe`): SDL opens a device, or why not and that Parlor then plays silently."""
    from ui.sound.player import SOUNDS
    from ui.sound.probe import AudioProbe

    files = len(list(SOUNDS.glob("*.ogg")))
    opened = doctor.check_sound(lambda: AudioProbe(True, "SDL audio driver alsa opens the "
                                                   "default device"))
    assert opened.lines() == ["OK   sound: SDL audio driver alsa opens the default device; "
                              f"{files} sound files"] and files == 111
    closed = doctor.check_sound(lambda: AudioProbe(False, "SDL cannot open an audio device "
                                                   "(ALSA: no card)"))
    assert closed.lines() == ["WARN sound: SDL cannot open an audio device (ALSA: no card): "
                              "Parlor plays silently (the GPIO buzzer, if fitted, still beeps; a running Parlor may "
                              "be holding the device)"]
    empty = doctor.check_sound(lambda: AudioProbe(True, "unused"), tmp_path)
    assert empty.status == "WARN" and "no sound files" in empty.detail


def test_doctor_lists_the_sound_line_last(tmp_path: Path) -> None:
    env = {"SDL_VIDEODRIVER": "offscreen",
           "PARLOR_DATA_DIR": str(tmp_path / "data"), "PARLOR_CONFIG": str(tmp_path / "none.toml")}
    checks = doctor.run_checks(env)
    assert checks[-1].name == "sound" and checks[-1].status in ("OK", "WARN")
