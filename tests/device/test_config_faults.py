"""No config can stop Parlor (issue 18, part 1): every class of bad config file the probe found
is one short line per bad key (file, key, problem), the key keeps its default, and nothing raises.

Each test names the class it covers; they go through `load_text` and `load` (the real loading
code). `test_config_entry_points.py` runs the same files through `parlor doctor`, `--selftest`,
`simulate --autosave` and the app itself.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from device import config as cfg
from device import schema

DEFAULT = {key.dotted: key.default for key in schema.KEYS}
SHORT = 320  # no problem line is longer than this (plus the file name)


def short(problems: list[str], name: str = "<config>") -> None:
    for line in problems:
        assert line.startswith(f"{name}: "), line[:300]
        assert len(line) - len(name) <= SHORT, line[:300]
        assert "\n" not in line and "\r" not in line


def test_deep_nesting_is_one_line_not_a_recursion_error() -> None:
    for text in ("a = " + "[" * 5000 + "]" * 5000, "a = " + "{b = " * 3000 + "1" + "}" * 3000):
        config, problems = cfg.load_text(text)
        assert config == cfg.defaults()
        assert problems == ["<config>: invalid TOML: nested too deeply to read; "
                            "using the defaults instead of this file"]


def test_an_integer_of_more_than_4300_digits_is_one_line_not_a_value_error() -> None:
    config, problems = cfg.load_text("[display]\nwidth = " + "9" * 5000 + "\n")
    assert config == cfg.defaults()
    assert problems == [f"<config>: invalid TOML: an integer of more than "
                        f"{sys.get_int_max_str_digits()} digits; using the defaults instead of "
                        "this file"]


@pytest.mark.parametrize("key", [k.dotted for k in schema.KEYS
                                 if isinstance(k.check, schema.Number)])
def test_a_400_digit_integer_for_a_float_key_is_one_line_not_an_overflow(key: str) -> None:
    section, name = key.rsplit(".", 1)
    config, problems = cfg.load_text(f"[{section}]\n{name} = {'9' * 400}\n")
    assert schema.values_of(config) == DEFAULT
    assert len(problems) == 1
    assert problems[0].startswith(f"<config>: {key}: must be between ")
    assert "got an integer of about 400 digits; using the default" in problems[0]
    short(problems)


@pytest.mark.parametrize("digits", [3000, 4000])
def test_a_huge_hex_integer_for_an_int_key_is_a_short_line(digits: int) -> None:
    """3,000 hex digits once printed a 3,700-character line; 4,000 failed formatting it."""
    text = f"[display]\nwidth = 0x{'f' * digits}\n[output]\nbuzzer = 0o{'7' * digits}\n"
    config, problems = cfg.load_text(text)
    assert schema.values_of(config) == DEFAULT
    assert [p.split(":")[1].strip() for p in problems] == ["display.width", "output.buzzer"]
    assert all("got an integer of about" in p for p in problems)
    short(problems)


def test_a_1mb_value_is_echoed_as_a_short_excerpt_with_its_length() -> None:
    text = "[game]\nlanguage = \"" + "x" * 1_000_000 + "\"\n[kiosk]\nexit_pin = \"" + \
        "\\u0000" * 200_000 + "\"\n"
    config, problems = cfg.load_text(text)
    assert schema.values_of(config) == DEFAULT
    assert len(problems) == 2
    assert "got 'xxxxxxxx" in problems[0] and "… (1,000,000 characters)" in problems[0]
    assert "(200,000 characters)" in problems[1]
    short(problems)


def test_a_1mb_key_name_and_a_newline_in_a_key_are_short_single_lines() -> None:
    text = ("[display]\n" + "k" * 1_000_000 + " = 1\n\"a\\nb\" = 2\n"
            "[input.gpio.pins]\n\"" + "J" * 100_000 + "\" = 3\n")
    config, problems = cfg.load_text(text)
    assert len(problems) == 3
    assert problems[0].startswith("<config>: display.kkkkk") and "characters)" in problems[0]
    assert problems[1] == "<config>: display.'a\\nb': unknown key; ignored"
    short(problems)


def test_past_a_few_dozen_problems_one_line_says_how_many_more() -> None:
    text = "\n".join(f"k{i} = 1" for i in range(100_000)) + "\n[display]\nrotation = 90\n"
    config, problems = cfg.load_text(text)
    assert config.display.rotation == 90  # the good key still applies
    assert len(problems) == schema.MAX_PROBLEMS + 1
    assert problems[:2] == ["<config>: k0: unknown key; ignored", "<config>: k1: unknown key; ignored"]
    more = 100_000 - schema.MAX_PROBLEMS
    assert problems[-1] == f"<config>: {more:,} more problems like these, not listed"
    short(problems)


def test_the_cap_is_per_file(tmp_path: Path) -> None:
    one = tmp_path / "one.toml"
    two = tmp_path / "two.toml"
    one.write_text("\n".join(f"a{i} = 1" for i in range(100)))
    two.write_text("b = 1\n")
    _, problems = cfg.load([one, two], environ={})
    assert len(problems) == schema.MAX_PROBLEMS + 2
    assert problems[-2] == f"{one}: {100 - schema.MAX_PROBLEMS} more problems like these, not listed"
    assert problems[-1] == f"{two}: b: unknown key; ignored"


STORE_PATHS = {
    "an embedded NUL": ("/tmp/a\\u0000b.db", "holds a NUL character"),
    "an unknown user's home": ("~nosuchuser/parlor.db",
                               "names the home folder of an unknown user ('~nosuchuser')"),
    "a name over 255 bytes": ("/tmp/" + "a" * 256 + "/parlor.db", "has a name over 255 bytes"),
    "a name over 255 bytes once encoded": ("/tmp/" + "é" * 128 + ".db",
                                           "has a name over 255 bytes"),
    "thousands of nested folders": ("/tmp/" + "d/" * 3000 + "parlor.db",
                                    "is over 4,095 bytes long"),
    "many nested folders in a short path": ("/" + "d/" * 1500 + "parlor.db",
                                            "is over 64 folders deep"),
    "a relative path": ("parlor.db", "must be an absolute path (or start with ~/)"),
    "a folder": ("/tmp/", "must name a file, not a folder"),
    "a dot name": ("/tmp/..", "must name a file, not a folder"),
}


@pytest.mark.parametrize("case", STORE_PATHS, ids=list(STORE_PATHS))
def test_store_paths_the_os_refuses_keep_the_default(case: str) -> None:
    value, reason = STORE_PATHS[case]
    config, problems = cfg.load_text(f'[store]\npath = "{value}"\n')
    assert config.store.path == DEFAULT["store.path"]
    assert len(problems) == 1
    assert problems[0].startswith(f"<config>: store.path: {reason}")
    assert problems[0].endswith('; using the default ""')
    short(problems)


def test_a_store_path_still_starting_with_a_tilde_after_expansion(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With no home folder to expand `~` to, the path is refused: never a `./~` folder."""
    monkeypatch.setattr(os.path, "expanduser", lambda path: path)
    config, problems = cfg.load_text('[store]\npath = "~/parlor.db"\n')
    assert config.store.path == ""
    assert problems == ["<config>: store.path: the home folder ('~') cannot be found; "
                        'using the default ""']


def test_good_store_paths_are_kept(tmp_path: Path) -> None:
    for value in ("", "~/parlor.db", str(tmp_path / "a" / "parlor.db")):
        config, problems = cfg.load_text(f"[store]\npath = {value!r}\n")
        assert (config.store.path, problems) == (value, [])


def test_parlor_config_naming_an_unknown_users_home_is_one_line() -> None:
    env = {"PARLOR_CONFIG": "~nosuchuser/config.toml"}
    config, problems = cfg.load(environ=env)
    assert config.files == () or config.files == (str(cfg.SYSTEM_PATH),)
    assert "~nosuchuser/config.toml: no such file (named by PARLOR_CONFIG); using the defaults" \
        in problems


def test_a_config_that_is_not_a_regular_file_is_never_read(tmp_path: Path) -> None:
    fifo = tmp_path / "config.toml"
    os.mkfifo(fifo)  # reading it would wait for a writer forever
    config, problems = cfg.load([fifo], environ={})
    assert config == cfg.defaults()
    assert problems == [f"{fifo}: not a regular file (a named pipe); using the defaults instead "
                        "of this file"]


def test_a_config_file_too_large_to_be_one_is_not_parsed(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    with open(path, "wb") as handle:
        handle.truncate(cfg.MOST_BYTES + 1)
    config, problems = cfg.load([path], environ={})
    assert config == cfg.defaults()
    assert problems == [f"{path}: over {cfg.MOST_BYTES // 2**20} MiB, too large for a config "
                        "file; using the defaults instead of this file"]
