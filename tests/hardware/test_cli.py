"""`python -m hardware listen|bench`: smoke runs (the figures themselves are not asserted)."""

from __future__ import annotations

from hardware.cli import main


def test_listen_needs_a_source(capsys):
    assert main(["listen"]) == 2
    assert "nothing to listen to" in capsys.readouterr().err


def test_listen_to_mock_gpio_and_an_absent_keypad(mock_factory, capsys, tmp_path):
    assert main(["listen", "--gpio", "--pin-factory", "mock", "--serial",
                 str(tmp_path / "ttyACM0"), "--seconds", "0.05"]) == 0
    assert "listening (gpio, serial)" in capsys.readouterr().out


def test_bad_pin_factory_is_a_one_line_error(capsys):
    assert main(["listen", "--gpio", "--pin-factory", "bogus", "--seconds", "0"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: unknown GPIO pin factory 'bogus'") and err.count("\n") == 1


def test_bench_smoke(capsys):
    assert main(["bench", "--events", "5"]) == 0
    out = capsys.readouterr().out
    for label in ("gpio mock pin edge", "serial loop:// line", "noise throughput", "tracker"):
        assert label in out
