"""`parlor doctor` (issue 9, item 3): each check says OK or the problem, and changes nothing."""

from __future__ import annotations

import io
import sqlite3
from dataclasses import replace
from pathlib import Path

from device import doctor
from device.config import defaults, load_text
from device.store import SqliteStore


def test_config_problems_are_listed_as_a_warning() -> None:
    config, problems = load_text("[display]\nrotation = 7\n", "c.toml")
    check = doctor.check_config(config, problems)
    assert check.status == "WARN" and check.more == tuple(problems)
    assert doctor.check_config(defaults(), []).status == "OK"


def test_store_checks_read_only(tmp_path: Path) -> None:
    env = {"PARLOR_DATA_DIR": str(tmp_path / "new")}
    check = doctor.check_store(defaults(), env)
    assert check.status == "OK" and "created on first start" in check.detail
    assert not (tmp_path / "new").exists()

    SqliteStore(tmp_path / "new" / "parlor.db").close()
    check = doctor.check_store(defaults(), env)
    assert (check.status, check.detail.endswith("(schema 1, wal, integrity ok)")) == ("OK", True)

    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "parlor.db").write_bytes(b"not a database" * 50)
    check = doctor.check_store(defaults(), {"PARLOR_DATA_DIR": str(bad)})
    assert check.status == "FAIL" and "move it aside" in check.detail
    assert (bad / "parlor.db").read_bytes() == b"not a database" * 50  # untouched

    future = tmp_path / "future"
    future.mkdir()
    conn = sqlite3.connect(future / "parlor.db")
    conn.execute("PRAGMA user_version = 42")
    conn.close()
    check = doctor.check_store(defaults(), {"PARLOR_DATA_DIR": str(future)})
    assert check.status == "FAIL" and "newer" in check.detail


def test_display_check(tmp_path: Path) -> None:
    assert doctor.check_display({"DISPLAY": ":0"}).status == "OK"
    assert doctor.check_display({"SDL_VIDEODRIVER": "offscreen"}).status == "OK"
    none = doctor.check_display({}, dri_glob=str(tmp_path / "card*"))
    assert none.status == "FAIL" and "vc4-kms-v3d" in none.detail
    (tmp_path / "card1").write_text("")
    ok = doctor.check_display({"SDL_VIDEODRIVER": "kmsdrm", "DISPLAY": ":0"},
                              dri_glob=str(tmp_path / "card*"))
    assert ok.status == "OK" and "KMS/DRM" in ok.detail


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
