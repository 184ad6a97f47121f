"""Config file (issue 9, item 1): defaults, override order, and one clear line per problem.

Built-in values are read from the schema (`device/schema.py`), never repeated here.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest

from device import config as cfg
from device import schema

DEFAULT = {key.dotted: key.default for key in schema.KEYS}


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def load_one(tmp_path: Path, text: str) -> tuple[cfg.Config, list[str], Path]:
    path = write(tmp_path / "config.toml", text)
    config, problems = cfg.load([path], environ={})
    return config, problems, path


def test_defaults_match_the_schema_without_any_file(tmp_path: Path) -> None:
    config, problems = cfg.load([tmp_path / "missing.toml"], environ={})
    assert problems == []
    assert config.files == ()
    assert config == cfg.defaults()
    assert schema.values_of(config) == DEFAULT
    assert config.gpio.pins == DEFAULT["input.gpio.pins"] and len(config.gpio.pins) == 8


def test_user_file_overrides_system_file_key_by_key(tmp_path: Path) -> None:
    system = write(tmp_path / "etc.toml", "[display]\nrotation = 90\ndensity = 1.3\n"
                   "[kiosk]\nenabled = true\n")
    user = write(tmp_path / "user.toml", "[display]\nrotation = 180\n[game]\nlanguage = 'vi'\n")
    config, problems = cfg.load([system, user], environ={})
    assert problems == []
    assert config.display.rotation == 180  # user wins
    assert config.display.density == 1.3  # system kept
    assert config.kiosk.enabled is True
    assert config.game.language == "vi"
    assert config.files == (str(system), str(user))


def test_parlor_config_replaces_the_user_path(tmp_path: Path) -> None:
    env = {"PARLOR_CONFIG": str(tmp_path / "mine.toml"), "XDG_CONFIG_HOME": "/nowhere"}
    assert cfg.user_path(env) == tmp_path / "mine.toml"
    assert cfg.user_path({"XDG_CONFIG_HOME": "/x"}) == Path("/x/parlor/config.toml")
    assert cfg.config_paths(env)[0] == Path("/etc/parlor/config.toml")


def test_missing_file_named_by_parlor_config_is_reported(tmp_path: Path) -> None:
    env = {"PARLOR_CONFIG": str(tmp_path / "gone.toml")}
    config, problems = cfg.load([tmp_path / "gone.toml"], environ=env)
    assert problems == [f"{tmp_path / 'gone.toml'}: no such file (named by PARLOR_CONFIG); "
                        "using the defaults"]
    assert config.display.rotation == DEFAULT["display.rotation"]


def test_unknown_section_is_one_line_and_ignored(tmp_path: Path) -> None:
    config, problems, path = load_one(tmp_path, "[screen]\nrotation = 90\n")
    assert problems == [f"{path}: [screen]: unknown section; ignored"]
    assert schema.values_of(config) == DEFAULT


def test_unknown_key_is_one_line_and_the_rest_applies(tmp_path: Path) -> None:
    config, problems, path = load_one(tmp_path, "[display]\nrotate = 90\ndensity = 2.0\n")
    assert problems == [f"{path}: display.rotate: unknown key; ignored"]
    assert config.display.density == 2.0


def test_wrong_type_keeps_the_default(tmp_path: Path) -> None:
    config, problems, path = load_one(tmp_path, '[game]\nsound = "yes"\n[display]\nwidth = 1.5\n')
    assert problems == [
        f"{path}: game.sound: expected true or false, got 'yes'; using the default "
        f"{schema.show(DEFAULT['game.sound'])}",
        f"{path}: display.width: expected an integer, got 1.5; using the default "
        f"{DEFAULT['display.width']}",
    ]
    assert config.game.sound is DEFAULT["game.sound"]
    assert config.display.width == DEFAULT["display.width"]


def test_out_of_range_values_keep_the_default(tmp_path: Path) -> None:
    text = ("[display]\nrotation = 45\n[game]\nanimation_speed = 10\nai_level = 'expert'\n"
            "[kiosk]\nexit_pin = '12a'\n")
    config, problems, path = load_one(tmp_path, text)
    assert problems == [
        f"{path}: display.rotation: must be one of 0, 90, 180, 270; got 45; using the default "
        f"{DEFAULT['display.rotation']}",
        f"{path}: game.animation_speed: must be between 0.5 and 3, got 10; using the default "
        f"{DEFAULT['game.animation_speed']:g}",
        f"{path}: game.ai_level: must be one of 'easy', 'normal', 'hard'; got 'expert'; "
        f"using the default {DEFAULT['game.ai_level']!r}",
        f"{path}: kiosk.exit_pin: expected a string of digits (or \"\"), got '12a'; "
        f"using the default {DEFAULT['kiosk.exit_pin'] or chr(34) * 2}",
    ]
    assert schema.values_of(config) == DEFAULT


def test_bad_value_in_user_file_keeps_the_system_value(tmp_path: Path) -> None:
    system = write(tmp_path / "etc.toml", "[display]\nrotation = 90\n")
    user = write(tmp_path / "user.toml", "[display]\nrotation = 91\n")
    config, problems = cfg.load([system, user], environ={})
    assert config.display.rotation == 90
    assert problems == [f"{user}: display.rotation: must be one of 0, 90, 180, 270; got 91; "
                        "keeping 90"]


def test_bad_toml_syntax_names_file_and_position_and_skips_only_that_file(tmp_path: Path) -> None:
    system = write(tmp_path / "etc.toml", "[display]\nrotation = 270\n")
    user = write(tmp_path / "user.toml", "[display]\nrotation = \n")
    config, problems = cfg.load([system, user], environ={})
    assert len(problems) == 1
    line = problems[0]
    assert line.startswith(f"{user}: invalid TOML: ") and "line 2" in line
    assert line.endswith("using the defaults instead of this file") and "\n" not in line
    assert config.display.rotation == 270


@pytest.mark.skipif(os.geteuid() == 0, reason="root can read a mode-000 file")
def test_unreadable_file_is_one_line(tmp_path: Path) -> None:
    path = write(tmp_path / "config.toml", "[display]\nrotation = 90\n")
    path.chmod(0)
    config, problems = cfg.load([path], environ={})
    assert problems == [f"{path}: cannot read: Permission denied; using the defaults instead of "
                        "this file"]
    assert schema.values_of(config) == DEFAULT


def test_unreadable_file_a_directory_is_one_line(tmp_path: Path) -> None:
    """Works as root too: a directory where the file should be cannot be read."""
    path = tmp_path / "config.toml"
    path.mkdir()
    config, problems = cfg.load([path], environ={})
    assert problems == [f"{path}: cannot read: Is a directory; using the defaults instead of "
                        "this file"]
    assert config == cfg.defaults()


def test_non_utf8_file_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_bytes(b"[display]\nrotation = 90 # \xff\n")
    _, problems = cfg.load([path], environ={})
    assert len(problems) == 1 and problems[0].startswith(f"{path}: not UTF-8 text")


def test_a_section_given_as_a_value(tmp_path: Path) -> None:
    config, problems, path = load_one(tmp_path, "display = 3\n")
    assert problems == [f"{path}: display: expected a table [display], got 3; using the defaults"]
    assert config.display == cfg.defaults().display


def test_gpio_pins_table_replaces_the_default_map(tmp_path: Path) -> None:
    config, problems, _ = load_one(tmp_path, "[input.gpio]\nenabled = true\n"
                                   "[input.gpio.pins]\nOK = 17\nBACK = 27\n")
    assert problems == []
    assert config.gpio.pins == {"OK": 17, "BACK": 27}
    assert config.gpio.enabled is True


def test_gpio_pins_bad_entries(tmp_path: Path) -> None:
    text = "[input.gpio.pins]\nLEFT = 5\nRIGHT = 5\nJUMP = 3\nOK = 40\n"
    config, problems, path = load_one(tmp_path, text)
    assert problems == [
        f"{path}: input.gpio.pins.JUMP: unknown name: expected one of LEFT RIGHT UP DOWN SELECT "
        "OK BACK MENU, got 'JUMP'; ignored",
        f"{path}: input.gpio.pins.OK: must be between 0 and 27, got 40; using the default "
        f"{DEFAULT['input.gpio.pins']['OK']}",
        f"{path}: input.gpio.pins.RIGHT: pin 5 is already used by input.gpio.pins.LEFT; "
        "RIGHT has no button",
    ]
    assert config.gpio.pins == {"LEFT": 5, "OK": DEFAULT["input.gpio.pins"]["OK"]}


def test_output_pin_clashing_with_a_wired_button_is_disabled(tmp_path: Path) -> None:
    menu = DEFAULT["input.gpio.pins"]["MENU"]
    text = f"[input.gpio]\nenabled = true\n[output]\nled_turn = {menu}\nbuzzer = 12\n"
    config, problems, path = load_one(tmp_path, text)
    assert problems == [f"{path}: output.led_turn: pin {menu} is already used by "
                        "input.gpio.pins.MENU; output disabled"]
    assert (config.output.led_turn, config.output.buzzer) == (0, 12)


def test_serial_names_and_repeat_events(tmp_path: Path) -> None:
    text = ("[input]\nrepeat_events = ['UP', 'JUMP']\n"
            "[input.serial]\nenabled = true\nport = 'loop://'\n"
            "[input.serial.names]\nENTER = 'OK'\nESC = 'QUIT'\nbad = 'OK'\n")
    config, problems, path = load_one(tmp_path, text)
    assert config.serial.names == {"ENTER": "OK"}
    assert config.serial.port == "loop://"
    assert config.input.repeat_events == DEFAULT["input.repeat_events"]
    assert len(problems) == 3 and all(p.startswith(f"{path}: input.") for p in problems)


def test_the_schema_has_one_key_per_field_of_every_settings_object() -> None:
    """Each field of each section's typed settings is a schema key, and nothing else is."""
    fields = sorted(f"{section.name}.{f.name}" for section in schema.SECTIONS
                    for f in dataclasses.fields(section.settings))
    assert fields == sorted(schema.BY_NAME)
    assert len(schema.KEYS) == len(schema.BY_NAME)  # every key declared once
    config_fields = [f.name for f in dataclasses.fields(cfg.Config) if f.name != "files"]
    assert config_fields == [section.attr for section in schema.SECTIONS]


@pytest.mark.parametrize("key", schema.KEYS, ids=lambda key: key.dotted)
def test_every_key_has_a_doc_a_valid_default_and_a_docs_row(key: schema.Key) -> None:
    assert key.doc.strip() and "\n" not in key.doc
    assert key.check.kind and key.check.allowed()
    if isinstance(key.check, schema.Table):
        for name, value in key.default.items():
            assert key.check.key(name) == name and key.check.value(value) == value
    else:
        checked = key.check(list(key.default) if isinstance(key.default, tuple) else key.default)
        assert checked == key.default and type(checked) is type(key.default)
    docs = (Path(__file__).parents[2] / "docs" / "config.md").read_text(encoding="utf-8")
    assert f"| `[{key.section}]` `{key.name}` | {key.check.kind} | " in docs


def test_the_docs_table_is_the_one_generated_from_the_schema() -> None:
    """docs/config.md holds exactly `parlor config --doc` (regenerate with --write)."""
    page = (Path(__file__).parents[2] / "docs" / "config.md").read_text(encoding="utf-8")
    assert schema.with_doc_table(page) == page, \
        "stale: run `parlor config --doc --write docs/config.md`"
    assert schema.doc_table() in page


def test_parlor_config_doc_prints_the_table(capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path) -> None:
    from device.cli import main

    assert main(["config", "--doc"]) == 0
    assert capsys.readouterr().out == schema.doc_table()
    page = tmp_path / "page.md"
    page.write_text(f"intro\n{schema.DOC_BEGIN}\nold\n{schema.DOC_END}\nend\n")
    assert main(["config", "--write", str(page)]) == 0
    assert page.read_text() == f"intro\n{schema.DOC_BEGIN}\n{schema.doc_table()}{schema.DOC_END}\nend\n"
    (tmp_path / "plain.md").write_text("no markers\n")
    assert main(["config", "--write", str(tmp_path / "plain.md")]) == 2


def test_load_text_reports_syntax_errors() -> None:
    config, problems = cfg.load_text("[kiosk\n", "x.toml")
    assert len(problems) == 1 and problems[0].startswith("x.toml: invalid TOML")
    assert config == cfg.defaults()


@pytest.mark.parametrize(("text", "workers", "problem"), [
    ("", "auto", ""),
    ("workers = 3", 3, ""),
    ('workers = "auto"', "auto", ""),
    ("workers = 0", "auto", "ai.workers: must be between 1 and 64, got 0; using the default"),
    ('workers = "all"', "auto", 'ai.workers: expected an integer or "auto", got \'all\''),
    ("workers = true", "auto", 'ai.workers: expected an integer or "auto", got true'),
])
def test_ai_workers_is_a_count_or_auto(text: str, workers: object, problem: str) -> None:
    """[ai] workers: a count of search processes, or "auto" (resolved by the composition root)."""
    config, problems = cfg.load_text("[ai]\n" + text, "x.toml")
    assert config.ai.workers == workers
    assert len(problems) == (1 if problem else 0)
    assert all(problem in line for line in problems)
