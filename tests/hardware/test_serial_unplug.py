"""Issue 18, part 5: any error from any pyserial call on the reader thread goes through the one
disconnect path — held keys released, one log line, the port reopened and used again.

Two ways: a `loop://` port whose `in_waiting`, `read` or `is_open` fails like a vanished USB
adapter (the fault pyserial's own loop let through, about one unplug in five), and a real pty
unplugged again and again while the keypad is sending."""

from __future__ import annotations

import logging
import os
import termios
import threading

import pytest
import serial
from serial.urlhandler.protocol_loop import Serial as LoopSerial

from hardware import InputSettings, SerialSettings
from hardware.serial_keypad import SerialSource

from .helpers import eventually
from .test_serial_pty import Pty

FAST = InputSettings(hold_seconds=5.0)
FAULTS = {
    "in_waiting OSError": ("in_waiting", OSError(5, "Input/output error")),
    "in_waiting termios.error": ("in_waiting", termios.error(5, "Input/output error")),
    "read OSError": ("read", OSError(19, "No such device")),
    "read SerialException": ("read", serial.SerialException("device reports readiness")),
    "read TypeError": ("read", TypeError("NoneType")),  # pyserial on a fd closed under it
}


class FlakyLoop(LoopSerial):
    """A loop:// port that fails, once unplugged, in the call named by `fault`."""

    fault: tuple[str, BaseException] | None = None
    unplugged: threading.Event

    @property
    def in_waiting(self) -> int:  # type: ignore[override]
        if self.unplugged.is_set() and self.fault and self.fault[0] == "in_waiting":
            raise self.fault[1]
        return super().in_waiting

    def read(self, size: int = 1) -> bytes:
        if self.unplugged.is_set() and self.fault and self.fault[0] == "read":
            raise self.fault[1]
        return super().read(size)


class FlakyPorts:
    def __init__(self, fault: tuple[str, BaseException]) -> None:
        self.fault = fault
        self.ports: list[FlakyLoop] = []

    def __call__(self, url: str, **kwargs) -> FlakyLoop:
        port = FlakyLoop(None, **kwargs)
        port.fault = self.fault
        port.unplugged = threading.Event()
        port.port = "loop://"
        port.open()
        self.ports.append(port)
        return port


@pytest.mark.parametrize("fault", list(FAULTS))
def test_any_reader_error_releases_keys_logs_once_and_reopens(fault, collector, caplog):
    ports = FlakyPorts(FAULTS[fault])
    settings = SerialSettings(enabled=True, port="loop://", reopen_seconds=0.05)
    source = SerialSource(settings, FAST, opener=ports, when_event=collector)
    with caplog.at_level(logging.WARNING, logger="hardware.serial_keypad"):
        source.start()
        assert source.wait_connected(5)
        ports.ports[-1].write(b"KEY OK DOWN\n")
        collector.wait_count(1)
        ports.ports[-1].unplugged.set()  # the device vanishes with a key held...
        ports.ports[-1].write(b"\n")  # ...while data flows (wakes the blocked read)
        assert collector.wait_for(lambda ev: ev[-1].kind == "release")
        assert eventually(lambda: source.connections == 2 and source.connected)
    lost = [r for r in caplog.records if "disconnected" in r.getMessage()]
    assert len(lost) == 1 and source.disconnects == 1
    ports.ports[-1].write(b"KEY BACK DOWN\nKEY BACK UP\n")  # the port is used again
    assert collector.wait_for(lambda ev: ev[-1].name == "BACK" and ev[-1].kind == "release")
    source.close()
    assert collector.pairs() == [("OK", "press"), ("OK", "release"),
                                 ("BACK", "press"), ("BACK", "release")]


UNPLUGS = 25


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs POSIX ptys")
def test_unplug_under_traffic_many_times(tmp_path, collector, caplog):
    pty = Pty(str(tmp_path / "ttyKEYPAD"))
    pty.plug()
    settings = SerialSettings(enabled=True, port=pty.link, reopen_seconds=0.02)
    source = SerialSource(settings, FAST, when_event=collector)
    traffic = b"KEY LEFT DOWN\nKEY LEFT UP\n" * 200 + b"KEY OK DOWN\n"
    with caplog.at_level(logging.WARNING, logger="hardware.serial_keypad"):
        source.start()
        try:
            for cycle in range(UNPLUGS):
                assert source.wait_connected(5), f"not reconnected after unplug {cycle}"
                assert eventually(lambda c=cycle: source.connections == c + 1)
                try:
                    pty.write(traffic)  # OK is held when the device goes away
                except OSError:
                    pass
                assert collector.wait_for(
                    lambda ev: ev and (ev[-1].name, ev[-1].kind) == ("OK", "press"))
                pty.unplug()
                assert collector.wait_for(
                    lambda ev: (ev[-1].name, ev[-1].kind) == ("OK", "release"))
                assert eventually(lambda: not source.connected)
                pty.plug()
            assert source.wait_connected(5)
            pty.write(b"KEY BACK DOWN\n")
            assert collector.wait_for(lambda ev: ev[-1].name == "BACK")
        finally:
            source.close()
            pty.unplug()
    assert source.connections == UNPLUGS + 1 and source.disconnects == UNPLUGS
    assert len([r for r in caplog.records if "disconnected" in r.getMessage()]) == UNPLUGS
