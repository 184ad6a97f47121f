"""The serial keypad source against a real pseudo-terminal (`os.openpty()`), reached through a
port path (a symlink) that disappears and reappears like an unplugged USB keypad."""

from __future__ import annotations

import os
import random

import pytest

from hardware import InputSettings, SerialSettings
from hardware.serial_keypad import SerialSource

from .helpers import eventually

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs POSIX ptys")


class Pty:
    """A pty pair whose slave is reachable as `link` (like /dev/serial/by-id/...)."""

    def __init__(self, link: str) -> None:
        self.link = link
        self.master: int | None = None

    def plug(self) -> None:
        master, slave = os.openpty()
        os.symlink(os.ttyname(slave), self.link)
        os.close(slave)  # the pair lives while the master is open; pyserial opens the path
        self.master = master

    def unplug(self) -> None:
        if self.master is not None:
            os.close(self.master)
            self.master = None
        if os.path.lexists(self.link):
            os.unlink(self.link)

    def write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(self.master, view):]


@pytest.fixture
def pty(tmp_path):
    device = Pty(str(tmp_path / "ttyKEYPAD"))
    device.plug()
    yield device
    device.unplug()


@pytest.fixture
def keypad(pty, collector):
    settings = SerialSettings(enabled=True, port=pty.link, baud=9600, reopen_seconds=0.05)
    source = SerialSource(settings, InputSettings(hold_seconds=0.05), when_event=collector)
    source.start()
    assert source.wait_connected(5)
    yield source
    source.close()


def test_lines_on_a_real_tty_produce_events(keypad, pty, collector):
    pty.write(b"HELLO rp2040-pad 0.3\r\nKEY BACK DOWN\r\nKEY BACK UP\r\n")
    collector.wait_count(2)
    assert collector.pairs() == [("BACK", "press"), ("BACK", "release")]
    assert keypad.hello.device == "rp2040-pad"


def test_noise_on_a_real_tty_gives_no_event(keypad, pty, collector):
    pty.write(random.Random(1).randbytes(100_000) + b"\nKEY OK DOWN\n")
    collector.wait_count(1)
    assert collector.pairs() == [("OK", "press")]


def test_unplug_and_replug_recovers(keypad, pty, collector):
    pty.write(b"KEY MENU DOWN\n")
    collector.wait_count(2)  # press, long
    pty.unplug()  # master closed, path gone: reads fail with EIO, reopening fails
    assert collector.wait_for(lambda ev: ev[-1].kind == "release")
    assert eventually(lambda: not keypad.connected)
    pty.plug()  # a new device node at the same path
    assert keypad.wait_connected(5)
    assert eventually(lambda: keypad.connections == 2)
    pty.write(b"KEY SELECT DOWN\nKEY SELECT UP\n")
    assert collector.wait_for(lambda ev: ev[-1].name == "SELECT" and ev[-1].kind == "release")
    assert collector.pairs() == [("MENU", "press"), ("MENU", "long"), ("MENU", "release"),
                                 ("SELECT", "press"), ("SELECT", "release")]


def test_close_while_disconnected_stops_promptly(pty, collector):
    settings = SerialSettings(enabled=True, port=pty.link, reopen_seconds=0.05)
    pty.unplug()
    source = SerialSource(settings, when_event=collector)
    source.start()
    assert not source.wait_connected(0.2)
    source.close()  # the autouse fixture checks no thread is left
    assert collector.events == []
