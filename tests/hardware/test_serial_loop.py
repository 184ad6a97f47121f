"""The serial keypad source over pyserial's `loop://` ports: events, noise, reconnection."""

from __future__ import annotations

import logging
import random
import threading

import pytest
import serial

from hardware import InputSettings, SerialSettings
from hardware.serial_keypad import SerialSource

from .helpers import eventually

FAST = InputSettings(hold_seconds=0.05, repeat_delay=0.05, repeat_interval=0.02)


class LoopPorts:
    """An opener handing out `loop://` ports (what is written to one is read back from it)."""

    def __init__(self) -> None:
        self.ports: list[serial.SerialBase] = []
        self.urls: list[str] = []
        self.fail = threading.Event()
        self.attempts = threading.Semaphore(0)

    def __call__(self, url: str, **kwargs) -> serial.SerialBase:
        self.urls.append(url)
        self.attempts.release()
        if self.fail.is_set():
            raise serial.SerialException(f"could not open port {url}: no such device")
        port = serial.serial_for_url("loop://", **kwargs)
        self.ports.append(port)
        return port

    @property
    def port(self) -> serial.SerialBase:
        return self.ports[-1]


@pytest.fixture
def ports() -> LoopPorts:
    return LoopPorts()


@pytest.fixture
def keypad(ports, collector):
    settings = SerialSettings(enabled=True, port="loop://", reopen_seconds=0.05,
                              names={"ENTER": "OK"})
    source = SerialSource(settings, FAST, opener=ports, when_event=collector)
    source.start()
    assert source.wait_connected(5)
    yield source
    source.close()


def test_valid_lines_produce_events(keypad, ports, collector):
    ports.port.write(b"HELLO pad 1.0\n# comment\nKEY OK DOWN\nKEY OK UP\nKEY ENTER DOWN\r\n"
                     b"KEY ENTER UP\r\n")
    collector.wait_count(4)
    assert collector.pairs() == [("OK", "press"), ("OK", "release")] * 2
    assert keypad.hello is not None and keypad.hello.device == "pad"
    assert {e.source for e in collector.events} == {"serial"}
    assert collector.threads == {"parlor-hw-serial-events"}
    assert ports.urls == ["loop://"]


def test_held_key_long_press_and_repeat(keypad, ports, collector):
    ports.port.write(b"KEY MENU DOWN\n")
    collector.wait_count(2)
    ports.port.write(b"KEY MENU UP\nKEY LEFT DOWN\n")
    collector.wait_count(6)  # LEFT press + 2 repeats
    ports.port.write(b"KEY LEFT UP\n")
    assert collector.wait_for(lambda ev: (ev[-1].name, ev[-1].kind) == ("LEFT", "release"))
    pairs = collector.pairs()
    assert pairs[:4] == [("MENU", "press"), ("MENU", "long"), ("MENU", "release"),
                         ("LEFT", "press")]
    assert set(pairs[4:-1]) == {("LEFT", "repeat")}


def test_random_noise_gives_no_event_and_is_logged_rate_limited(keypad, ports, collector, caplog):
    noise = random.Random(8).randbytes(100_000)
    with caplog.at_level(logging.WARNING, logger="hardware.serial_keypad"):
        ports.port.write(noise + b"\nKEY BACK DOWN\n")
        collector.wait_count(1)
    assert collector.pairs() == [("BACK", "press")]
    assert keypad.connected
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert 1 <= len(warnings) <= 3  # rate-limited, not one per bad line


def test_closed_port_is_reopened_and_held_keys_released(keypad, ports, collector):
    ports.port.write(b"KEY SELECT DOWN\n")
    collector.wait_count(1)
    first = ports.port
    first.close()  # the device goes away
    assert collector.wait_for(lambda ev: ev[-1].kind == "release")
    assert eventually(lambda: keypad.connections == 2 and keypad.connected)
    assert ports.port is not first
    ports.port.write(b"KEY OK DOWN\n")
    collector.wait_count(3)
    assert collector.pairs() == [("SELECT", "press"), ("SELECT", "release"), ("OK", "press")]


def test_absent_device_is_retried_with_backoff_without_blocking(ports, collector, caplog):
    ports.fail.set()
    settings = SerialSettings(enabled=True, port="/dev/ttyPARLOR", reopen_seconds=0.05)
    source = SerialSource(settings, when_event=collector, opener=ports)
    with caplog.at_level(logging.WARNING, logger="hardware.serial_keypad"):
        source.start()  # returns at once although the device is missing
        for _ in range(4):
            assert ports.attempts.acquire(timeout=5)
    assert not source.connected
    assert len([r for r in caplog.records if "not available" in r.message]) == 1
    ports.fail.clear()  # plugged in
    assert source.wait_connected(5)
    ports.port.write(b"KEY UP DOWN\n")
    collector.wait_count(1)
    source.close()
    assert collector.pairs()[0] == ("UP", "press")
    assert not ports.port.is_open


def test_stop_start_close_leave_no_thread(ports, collector):
    settings = SerialSettings(enabled=True, port="loop://", reopen_seconds=0.05)
    source = SerialSource(settings, opener=ports, when_event=collector)
    source.start()
    assert source.wait_connected(5)
    source.stop()
    assert not ports.port.is_open and not source.connected
    source.start()
    assert source.wait_connected(5)
    ports.port.write(b"KEY OK DOWN\n")
    collector.wait_count(1)
    source.close()
    source.close()
    # (the autouse fixture checks that no parlor-hw-* thread is left)
