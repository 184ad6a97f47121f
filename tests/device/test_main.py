"""Composition root and CLI (issue 9, items 3 and 5): Kivy environment from the config, settings
precedence, hardware wiring to `post_input`, failures logged not raised, CLI errors in one line."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import time
from importlib import metadata
from pathlib import Path

import pytest

from device import kivyenv
from device import main as root
from device.cli import main as cli_main
from device.config import load_text
from tests.fakesysfs import level, make_backlight
from ui.ports import KioskSettings, MemoryStore, NoBacklight, SaveResult, SleepSettings


def test_kivy_environment_from_config(tmp_path: Path) -> None:
    config, _ = load_text("[display]\nfullscreen = true\nrotation = 90\ndensity = 1.3\n"
                          "[kiosk]\nenabled = true\n")
    env = kivyenv.kivy_environment(config, tmp_path, environ={})
    assert env["KIVY_HOME"] == str(tmp_path / "kivy")
    assert env["KIVY_NO_ARGS"] == "1" and env["KIVY_METRICS_DENSITY"] == "1.3"
    assert env["KCFG_GRAPHICS_FULLSCREEN"] == "auto" and env["KCFG_GRAPHICS_ROTATION"] == "90"
    assert env["KCFG_GRAPHICS_SHOW_CURSOR"] == "0"  # kiosk: no mouse pointer
    assert env["KCFG_KIVY_EXIT_ON_ESCAPE"] == "0"  # Esc never quits
    assert env["SDL_VIDEODRIVER"] == "kmsdrm"  # no desktop: straight to the display

    desktop, _ = load_text("")
    env = kivyenv.kivy_environment(desktop, tmp_path, environ={"DISPLAY": ":0"})
    assert env["KCFG_GRAPHICS_FULLSCREEN"] == "0" and env["KCFG_GRAPHICS_SHOW_CURSOR"] == "1"
    assert (env["KCFG_GRAPHICS_WIDTH"], env["KCFG_GRAPHICS_HEIGHT"]) == ("800", "480")
    assert "SDL_VIDEODRIVER" not in env


def test_apply_keeps_what_the_caller_set(tmp_path: Path) -> None:
    environ = {"KCFG_GRAPHICS_FULLSCREEN": "0"}
    kivyenv.apply({"KCFG_GRAPHICS_FULLSCREEN": "auto", "KIVY_HOME": str(tmp_path / "k")},
                  environ)
    assert environ["KCFG_GRAPHICS_FULLSCREEN"] == "0" and (tmp_path / "k").is_dir()


def test_an_unwritable_kivy_home_falls_back_to_a_temporary_one(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    environ: dict[str, str] = {}
    kivyenv.apply({"KIVY_HOME": str(tmp_path / "file" / "kivy")}, environ)
    assert Path(environ["KIVY_HOME"]).is_dir() and "parlor-kivy-" in environ["KIVY_HOME"]


def test_kiosk_section_becomes_the_ui_kiosk_settings() -> None:
    config, problems = load_text("[kiosk]\nenabled = true\nexit_pin = '1234'\n"
                                 "exit_hold_seconds = 8\n[game]\nlanguage = 'es'\n"
                                 "ai_level = 'easy'\n")
    assert problems == []
    beats: list[int] = []
    services = root.make_services(config, MemoryStore(), lambda: beats.append(1), "{}")
    assert services.kiosk == KioskSettings(enabled=True, exit_pin="1234", exit_hold_seconds=8.0)
    assert (services.language, services.ai_level, services.replay_record) == ("es", "easy", "{}")
    services.heartbeat()
    assert beats == [1]
    assert services.keyboard is True
    config, _ = load_text("[input]\nkeyboard = false\n")
    assert root.make_services(config, MemoryStore(), lambda: None).keyboard is False
    config, _ = load_text("[game]\nlarge_cards = true\ncolour_safe = true\n")
    services = root.make_services(config, MemoryStore(), lambda: None)
    assert (services.large_cards, services.colour_safe) == (True, True)  # issue 20
    assert services.coach is False  # issue 21: the coach is off by default
    config, _ = load_text("[game]\ncoach = true\n")
    assert root.make_services(config, MemoryStore(), lambda: None).coach is True


def test_ai_workers_reach_the_ui_resolved(monkeypatch: pytest.MonkeyPatch) -> None:
    """[ai] workers: a count is handed on as given, "auto" as the cores but one (at least 1)."""
    config, _ = load_text("[ai]\nworkers = 3\n")
    assert root.make_services(config, MemoryStore(), lambda: None).ai_workers == 3
    monkeypatch.setattr("os.cpu_count", lambda: 4)
    config, _ = load_text("")
    assert root.make_services(config, MemoryStore(), lambda: None).ai_workers == 3
    monkeypatch.setattr("os.cpu_count", lambda: 1)
    assert root.make_services(config, MemoryStore(), lambda: None).ai_workers == 1


def test_settings_changed_in_the_app_win_over_the_config_file() -> None:
    store = root.ConfiguredStore(MemoryStore(), {"language": "vi", "sound": False})
    assert store.get_setting("language", "en") == "vi"
    assert store.get_setting("sound", True) is False
    assert store.get_setting("other", 3) == 3
    store.set_setting("language", "nl")
    assert store.get_setting("language", "en") == "nl"
    store.save_autosave("x")
    assert store.load_autosave() == "x"


def test_the_configured_store_passes_on_what_a_write_did() -> None:
    """The table's lasting warning and the power-off's save check need the store's answer."""

    class Full(MemoryStore):
        def save_autosave(self, data: str) -> SaveResult:
            return SaveResult(False, "the disk is full")

    store = root.ConfiguredStore(Full(), {})
    assert store.save_autosave("x") == SaveResult(False, "the disk is full")
    assert root.ConfiguredStore(MemoryStore(), {}).save_autosave("x")


def test_open_store_falls_back_to_memory_when_the_directory_is_unusable(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    (tmp_path / "file").write_text("")
    config, _ = load_text(f"[store]\npath = '{tmp_path / 'file' / 'sub' / 'parlor.db'}'\n")
    with caplog.at_level(logging.ERROR):
        store = root.open_store(config)
    assert store.unavailable_reason  # keeps data in memory only, and says why
    store.save_autosave("{}")
    assert not (tmp_path / "file" / "sub").exists()
    assert "will not be kept" in caplog.text


def test_display_sleep_keys_become_the_ui_sleep_settings() -> None:
    config, problems = load_text("[display]\ndim_after_minutes = 2\noff_after_minutes = 0\n"
                                 "dim_percent = 150\n")
    assert problems == ["<config>: display.dim_percent: must be between 1 and 100, got 150; "
                        "using the default 20"]
    services = root.make_services(config, MemoryStore(), lambda: None)
    assert services.sleep == SleepSettings(dim_after_minutes=2.0, off_after_minutes=0.0,
                                           dim_percent=20)
    assert load_text("")[0].display.sleep == SleepSettings()  # the defaults: one owner


def test_the_backlight_is_opened_unless_hardware_is_mocked(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    link = make_backlight(tmp_path, brightness=20)
    monkeypatch.setenv("PARLOR_BACKLIGHT_DIR", str(link.parent))
    config, _ = load_text("")
    assert isinstance(root.build_devices(config, lambda name: None, mock=True).backlight,
                      NoBacklight)  # a desktop's own screen is not Parlor's
    devices = root.build_devices(config, lambda name: None, mock=False)
    assert devices.backlight.available and devices.backlight.off() and level(link) == 0
    devices.close()
    assert level(link) == 20  # closing leaves the screen lit as it was found


def test_hardware_events_reach_post_input_and_devices_close(mock_factory) -> None:
    config, _ = load_text("[input.gpio]\nenabled = true\npin_factory = 'mock'\n"
                          "[input.gpio.pins]\nOK = 16\nMENU = 21\n")
    posted: list[str] = []
    devices = root.build_devices(config, posted.append, mock=True)
    try:
        kinds = sorted(type(s).__name__ for s in devices.sources)
        assert kinds == ["GpioSource", "MockSource"]
        mock = next(s for s in devices.sources if type(s).__name__ == "MockSource")
        mock.tap("OK")
        assert posted == ["OK", "OK:release"]  # releases are forwarded: the kiosk hold needs them
        pin = mock_factory.pin(21)
        pin.drive_low()
        deadline = time.monotonic() + 5
        while "MENU" not in posted and time.monotonic() < deadline:
            time.sleep(0.01)
        pin.drive_high()
        assert "MENU" in posted
    finally:
        devices.close()
    assert all(s.closed for s in devices.sources)


def test_a_backend_that_cannot_start_is_logged_and_left_out(
        caplog: pytest.LogCaptureFixture) -> None:
    config, _ = load_text("[input.serial]\nenabled = true\nport = 'nosuchscheme://x'\n"
                          "[output]\nled_turn = 4\n[input.gpio]\npin_factory = 'pigpio'\n")
    with caplog.at_level(logging.ERROR):
        devices = root.build_devices(config, lambda name: None, mock=False)
    devices.close()
    assert "hardware:" in caplog.text
    outputs = root.SafeOutputs(devices.outputs)
    outputs.set_led("turn", True)  # whatever the backend, never raises into the UI
    outputs.beep()


# -- CLI -------------------------------------------------------------------------------------


def run_cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "device", *args], capture_output=True,
                          text=True, input=stdin, timeout=120)


def test_version() -> None:
    done = run_cli("--version")
    assert done.returncode == 0 and done.stdout.strip() == f"parlor {metadata.version('parlor')}"


def test_replay_print_is_the_engine_contract(tmp_path: Path) -> None:
    record = {"game": "meri", "seed": 4, "actions": []}
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record))
    done = run_cli("replay", str(path), "--print")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["ok"] is True and out["applied"] == 0 and out["legal_count"] > 0
    engine = subprocess.run([sys.executable, "-m", "engine", "replay", str(path)],
                            capture_output=True, text=True, timeout=60)
    assert json.loads(engine.stdout) == out


def test_replay_refuses_bad_files_in_one_line(tmp_path: Path) -> None:
    missing = run_cli("replay", str(tmp_path / "none.json"))
    assert missing.returncode == 2
    assert missing.stderr == f"error: cannot read {tmp_path / 'none.json'}: No such file or " \
                             "directory\n"
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "poker"}')
    done = run_cli("replay", str(bad))
    assert done.returncode == 2 and done.stderr.startswith("malformed record: ")
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def test_simulate_delegates_to_the_engine() -> None:
    done = run_cli("simulate", "meri", "--deals", "1", "--bots", "random")
    assert done.returncode == 0 and "== meri deal 1 ==" in done.stdout
    bad = run_cli("simulate", "meri", "--deals", "1", "--bots", "random,random")
    assert bad.returncode == 2 and bad.stderr == "error: meri needs 8 bots, got 2\n"


def test_unknown_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        cli_main(["frobnicate"])
    assert exc.value.code == 2


def test_kivy_really_reads_the_environment(tmp_path: Path) -> None:
    """In a fresh process: Kivy's Config and Metrics see what the config file asked for."""
    code = f"""
import os
for key in [k for k in os.environ if k.startswith(("KCFG_", "KIVY_"))]:
    del os.environ[key]
from pathlib import Path
from device import kivyenv
from device.config import load_text
config, _ = load_text("[display]\\nfullscreen = true\\nrotation = 270\\ndensity = 1.5\\n"
                      "[kiosk]\\nenabled = true\\n")
kivyenv.apply(kivyenv.kivy_environment(config, Path({str(tmp_path)!r}), environ={{"DISPLAY": ":0"}}))
kivyenv.after_import()
from kivy.config import Config
from kivy.metrics import Metrics, dp
print(Config.get("graphics", "fullscreen"), Config.get("graphics", "rotation"),
      Config.get("graphics", "show_cursor"), Config.get("kivy", "exit_on_escape"),
      Config.has_option("input", "%(name)s"), dp(10), Metrics.dpi > 0)
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["auto", "270", "0", "0", "False", "15.0", "True"]
    assert (tmp_path / "kivy").is_dir()


CUT_BUFFER = """
import os, sys
for key in [k for k in os.environ if k.startswith(("KCFG_", "KIVY_"))]:
    del os.environ[key]
os.environ.pop("DISPLAY", None)
os.environ.pop("WAYLAND_DISPLAY", None)
os.environ["SDL_VIDEODRIVER"] = "offscreen"
os.environ["PATH"] = sys.argv[1]  # no xclip, no xsel on this PATH
os.environ["KIVY_HOME"] = sys.argv[2]
os.environ["KIVY_LOG_MODE"] = "PYTHON"
import logging
logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s")
from device import kivyenv
if sys.argv[3] == "fixed":
    kivyenv.after_import()
from kivy.core.clipboard import CutBuffer
print("CUTBUFFER", CutBuffer)
"""


@pytest.mark.parametrize("fixed", [True, False])
def test_without_an_x_server_no_cut_buffer_is_searched_for(tmp_path: Path, fixed: bool) -> None:
    """Issue 31: on the booted kiosk (KMS/DRM, no X) the first text field made Kivy look for its
    X cut-buffer helpers and log a CRITICAL line with two tracebacks; `after_import` skips that
    search where there is no X server. (Without it, the same process shows the CRITICAL line.)"""
    empty = tmp_path / "bin"
    empty.mkdir()
    done = subprocess.run([sys.executable, "-c", CUT_BUFFER, str(empty), str(tmp_path / "kivy"),
                           "fixed" if fixed else "plain"], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert "CUTBUFFER None" in done.stdout
    if fixed:
        assert "CRITICAL" not in done.stderr and "Traceback" not in done.stderr, done.stderr
    else:
        assert "CRITICAL" in done.stderr and "Cutbuffer" in done.stderr


def test_the_ui_is_handed_the_boards_health_with_the_databases_partition(tmp_path: Path) -> None:
    """Issue 17 part 5: the Controls screen shows the doctor's health lines; free space is
    that of the folder the database is (or will be) in."""
    (tmp_path / "data").mkdir()
    config, _ = load_text(f"[store]\npath = '{tmp_path / 'data' / 'new' / 'parlor.db'}'\n")
    lines = root.make_services(config, MemoryStore(), lambda: None).health()
    assert [line.name for line in lines] == ["temperature", "throttling", "free space", "audio"]
    assert lines[2].values["folder"] == str(tmp_path / "data")
