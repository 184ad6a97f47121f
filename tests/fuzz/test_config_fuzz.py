"""Property-based (issue 18, parts 1 and 9): generated config documents through the real loading
code (`device.config.load_text`, and `load` for files of any bytes). Documents set every key of
the schema to values of the right and wrong types, huge integers and floats, long strings,
deeply nested arrays and tables, dates, unknown keys and sections, and are then cut or spliced.

Whatever the document: no exception, every problem line names the file and is short and one
line, at most MAX_PROBLEMS + 1 lines per file, and the result is a `Config` whose every value
passes its key's check (so the app is never handed a value its schema refuses).
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from device import config as cfg
from device import paths, schema
from hardware.events import EVENTS

from .strategies import json_values

pytestmark = pytest.mark.fuzz

LONGEST = 320  # characters of a problem line after the file name


# ---------------------------------------------------------------------------------------------
# TOML spelling of generated values


def basic_string(text: str) -> str:
    out = []
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def toml_float(value: float) -> str:
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return repr(value)


def toml_of(value: Any) -> str:
    """A JSON-like value (strategies.json_values) written as a TOML value."""
    if value is None:
        return "{}"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return toml_float(value)
    if isinstance(value, str):
        return basic_string(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_of(v) for v in value) + "]"
    return "{" + ", ".join(f"{basic_string(k)} = {toml_of(v)}" for k, v in value.items()) + "}"


huge_digits = st.sampled_from([61, 310, 400, 4300, 4301, 6000]).map(lambda n: "9" * n)
integers = st.one_of(
    st.integers().map(str),
    st.integers(-(10**400), 10**400).map(str),
    huge_digits,
    huge_digits.map(lambda d: "-" + d),
    st.integers(0, 2**70).map(hex),
    st.tuples(st.sampled_from("0x 0o 0b".split()), st.integers(1, 20_000))
    .map(lambda c: c[0] + "1" * c[1]),  # huge hex/octal/binary: no digit limit for those
    st.integers(0, 10**9).map(lambda n: f"{n:_}"),
)
floats = st.one_of(
    st.floats().map(toml_float),
    st.sampled_from(["1e400", "-1e400", "1e-400", "+inf", "-nan", "0.0", "-0.0", "5e-324"]),
    huge_digits.map(lambda d: d + ".5"),
)
long_strings = st.one_of(  # escaped once, repeated: building them stays cheap
    st.tuples(st.sampled_from(["x", "\u0000", "é", "\n", "\U0001F600"]),
              st.sampled_from([61, 300, 4096, 100_000]))
    .map(lambda c: '"' + basic_string(c[0])[1:-1] * c[1] + '"'),
    st.just('"' + "x" * 1_000_000 + '"'),
)
strings = st.one_of(
    st.text(max_size=40).map(basic_string),
    # ("Cs" too: naming the categories replaces Hypothesis' default, which leaves out the lone
    # surrogates no file can hold; a document with one cannot be encoded to bytes at all)
    st.text(alphabet=st.characters(blacklist_characters="'\n\r",
                                   blacklist_categories=("Cc", "Cs")), max_size=20)
    .map(lambda t: f"'{t}'"),
    st.text(max_size=40).map(lambda t: '"""' + basic_string(t)[1:-1] + '"""'),
    long_strings,
)
dates = st.sampled_from(["1979-05-27", "1979-05-27T07:32:00Z", "1979-05-27 07:32:00.999",
                         "07:32:00", "1979-05-27T00:32:00-07:00", "9999-12-31T23:59:59"])
nesting = st.integers(0, 4000)
deep = st.one_of(
    nesting.map(lambda n: "[" * n + "]" * n),
    nesting.map(lambda n: "{a = " * n + "1" + "}" * n),
    nesting.map(lambda n: "[{a = " * n + "1" + "}]" * n),
)
scalars = st.one_of(st.sampled_from(["true", "false"]), integers, floats, strings, dates)
values = st.one_of(
    scalars,
    st.lists(scalars, max_size=5).map(lambda xs: "[" + ", ".join(xs) + "]"),
    json_values.map(toml_of),
    deep,
)


def right_values(key: schema.Key) -> st.SearchStrategy[str]:
    """Values the key's check is meant to accept (and its edges)."""
    check = key.check
    if isinstance(check, schema.Boolean):
        return st.sampled_from(["true", "false"])
    if isinstance(check, schema.Integer):
        return st.integers(check.lo - 2, check.hi + 2).map(str)
    if isinstance(check, schema.Number):
        return st.floats(check.lo - 1, check.hi + 1).map(toml_float) | \
            st.integers(int(check.lo) - 1, int(check.hi) + 1).map(str)
    if isinstance(check, schema.Choice):
        return st.sampled_from(check.options).map(
            lambda o: basic_string(o) if isinstance(o, str) else str(o))
    if isinstance(check, schema.Digits):
        return st.text(alphabet="0123456789", max_size=check.most + 2).map(basic_string)
    if isinstance(check, schema.EventList):
        return st.lists(st.sampled_from(EVENTS), max_size=10).map(
            lambda xs: "[" + ", ".join(basic_string(x) for x in xs) + "]")
    if isinstance(check, schema.Table):
        names = st.sampled_from(EVENTS) | st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ0129_",
                                                  min_size=1, max_size=18)
        items = st.integers(-1, 30).map(str) | st.sampled_from(EVENTS).map(basic_string)
        return st.dictionaries(names, items, max_size=10).map(
            lambda d: "{" + ", ".join(f"{basic_string(k)} = {v}" for k, v in d.items()) + "}")
    if isinstance(check, schema.StorePath):
        return store_paths.map(basic_string)
    return st.text(max_size=30).map(basic_string)


path_parts = st.one_of(
    st.sampled_from(["parlor.db", "data", ".", "..", "~", "~nosuchuser", "~root", "", "a b",
                     "é" * 130, "x" * 256, "\u0000"]),
    st.text(max_size=12),
)
store_paths = st.one_of(
    st.lists(path_parts, max_size=6).map("/".join),
    st.lists(path_parts, max_size=6).map(lambda parts: "/" + "/".join(parts)),
    st.integers(0, 3000).map(lambda n: "/" + "d/" * n + "parlor.db"),
    st.sampled_from(["~/parlor.db", "~nosuchuser/parlor.db", "~", "/", "/tmp/", "rel/x.db"]),
)


@st.composite
def key_lines(draw: st.DrawFn) -> tuple[str, str, str]:
    """(section, name, value) for one key of the schema, or an unknown one."""
    if draw(st.integers(0, 9)) == 0:
        section = draw(st.sampled_from([s.name for s in schema.SECTIONS] + ["screen", "x.y"]))
        return section, draw(st.text(min_size=1, max_size=20)), draw(values)
    key = draw(st.sampled_from(schema.KEYS))
    value = draw(right_values(key) if draw(st.booleans()) else values)
    return key.section, key.name, value


def bare_or_quoted(name: str) -> str:
    if name and all(c.isascii() and (c.isalnum() or c in "-_") for c in name):
        return name
    return basic_string(name)


@st.composite
def documents(draw: st.DrawFn) -> str:
    """A config document: keys under their [section] headers, as dotted keys at the top, or
    sections given as plain values; then sometimes cut or spliced like a damaged file."""
    lines = draw(st.lists(key_lines(), max_size=12))
    top: list[str] = []
    tables: dict[str, list[str]] = {}
    for section, name, value in lines:
        how = draw(st.sampled_from(["table", "table", "dotted", "section-as-value"]))
        if how == "dotted":
            dotted = ".".join(bare_or_quoted(p) for p in section.split("."))
            top.append(f"{dotted}.{bare_or_quoted(name)} = {value}")
        elif how == "section-as-value":
            top.append(f"{bare_or_quoted(section)} = {value}")
        else:
            tables.setdefault(section, []).append(f"{bare_or_quoted(name)} = {value}")
    text = "\n".join(top + [f"[{s}]\n" + "\n".join(body) for s, body in tables.items()]) + "\n"
    damage = draw(st.sampled_from(["none", "none", "none", "cut", "splice"]))
    if damage == "cut":
        text = text[:draw(st.integers(0, len(text)))]
    elif damage == "splice":
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.text(max_size=10) | st.sampled_from(["[", "]", '"', "=", "\n",
                                                                        "[[a]]", "\\"])) + text[at:]
    return text


# ---------------------------------------------------------------------------------------------
# The properties


def check_result(config: cfg.Config, problems: list[str], names: list[str]) -> None:
    """No line too long or broken; at most a capped count per file; every value valid."""
    for line in problems:
        name = next((n for n in names if line.startswith(f"{n}: ")), None)
        assert name is not None, line[:400]
        assert len(line) - len(name) <= LONGEST, line[:400]
        assert "\n" not in line and "\r" not in line, line[:400]
    for name in names:
        assert sum(line.startswith(f"{name}: ") for line in problems) <= schema.MAX_PROBLEMS + 1
    assert isinstance(config, cfg.Config)
    for dotted, value in schema.values_of(config).items():
        key = schema.BY_NAME[dotted]
        if isinstance(key.check, schema.Table):
            assert isinstance(value, dict)
            for entry, item in value.items():
                assert key.check.key(entry) == entry and key.check.value(item) == item
        else:
            given_value = list(value) if isinstance(value, tuple) else value
            assert key.check(given_value) == value, dotted
    pins = [p for p in config.gpio.pins.values()]
    assert len(pins) == len(set(pins))  # one button per pin
    store = config.store.path
    if store:
        where = paths.database_path(store)  # never raises for a path the schema took
        assert where.is_absolute() and not str(where).startswith("~")
        assert "\0" not in str(where) and len(os.fsencode(where)) <= schema.StorePath.PATH_MAX


@given(documents())
def test_any_document_loads_to_a_valid_config(text: str) -> None:
    config, problems = cfg.load_text(text, "fuzz.toml")
    check_result(config, problems, ["fuzz.toml"])


@pytest.mark.parametrize("key", schema.KEYS, ids=lambda key: key.dotted)
@given(data=st.data())
def test_every_key_takes_any_value(key: schema.Key, data: st.DataObject) -> None:
    """The one key set to a right-type or any value: kept if its check accepts it, else one
    line naming the key and the default kept."""
    value = data.draw(right_values(key) | values, label="value")
    config, problems = cfg.load_text(f"[{key.section}]\n{key.name} = {value}\n", "key.toml")
    check_result(config, problems, ["key.toml"])
    got = schema.values_of(config)[key.dotted]
    if not problems:
        return
    if not problems[0].startswith("key.toml: invalid TOML"):
        assert any(f"key.toml: {key.dotted}" in line for line in problems), problems
    if not isinstance(key.check, schema.Table) and key.dotted not in ("output.led_turn",
                                                                        "output.led_thinking",
                                                                        "output.buzzer"):
        assert got == key.default


@given(store_paths)
def test_every_store_path_is_refused_or_usable(value: str) -> None:
    config, problems = cfg.load_text(f"[store]\npath = {basic_string(value)}\n", "s.toml")
    check_result(config, problems, ["s.toml"])
    assert (config.store.path == value) == (problems == [])


@given(st.one_of(st.binary(max_size=400), documents().map(lambda t: t.encode("utf-8")),
                 documents().map(lambda t: t.encode("utf-16"))),
       st.sampled_from([b"", b"\xef\xbb\xbf"]))
def test_any_bytes_in_both_files(tmp_path: Path, body: bytes, bom: bytes) -> None:
    system = tmp_path / "system.toml"
    user = tmp_path / "user.toml"
    system.write_bytes(body)
    user.write_bytes(bom + body[::-1])
    config, problems = cfg.load([system, user], environ={"PARLOR_CONFIG": str(user)})
    check_result(config, problems, [str(system), str(user)])
    assert set(config.files) <= {str(system), str(user)}
    os.remove(system)
    os.remove(user)
