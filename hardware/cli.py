"""`python -m hardware`: bring-up and measurement tools for the physical controls.

    python -m hardware listen [--gpio] [--pin-factory lgpio] [--serial /dev/ttyACM0] [--seconds N]
        print every event from the given sources (wiring check on the Pi)
    python -m hardware bench [--events 2000]
        latency from a pin edge / a serial line to the callback, and tracker throughput

Figures come from this command, never from timed assertions in tests.
"""

from __future__ import annotations

import argparse
import logging
import statistics
import sys
import threading
import time
from collections.abc import Sequence

from .errors import HardwareError
from .events import InputEvent, ui_name
from .keys import KeyTracker, Timing
from .settings import GpioSettings, InputSettings, SerialSettings
from .source import InputSource


def listen(args: argparse.Namespace) -> int:
    from . import build_sources

    gpio = GpioSettings(enabled=args.gpio, pin_factory=args.pin_factory)
    serial = SerialSettings(enabled=args.serial is not None, port=args.serial or "/dev/ttyACM0",
                            baud=args.baud)
    if not (gpio.enabled or serial.enabled):
        print("nothing to listen to: give --gpio and/or --serial PORT", file=sys.stderr)
        return 2

    def show(event: InputEvent) -> None:
        print(f"{event.time:12.3f}  {event.source:6}  {event.name:6}  {event.kind:7}  -> "
              f"{ui_name(event, releases=True)}", flush=True)

    sources = build_sources(InputSettings(), gpio, serial, mock=False, when_event=show)
    for source in sources:
        source.start()
    print(f"listening ({', '.join(s.label for s in sources)}); Ctrl+C to stop", flush=True)
    try:
        threading.Event().wait(args.seconds)
    except KeyboardInterrupt:
        pass
    finally:
        for source in sources:
            source.close()
    return 0


def _latencies(source: InputSource, trigger, count: int) -> list[float]:
    """Seconds from `trigger(i)` (making one press) to the callback, `count` times."""
    got = threading.Event()
    stamps: list[float] = []

    def when_event(event: InputEvent) -> None:
        if event.kind == "press":
            stamps.append(time.perf_counter())
            got.set()

    source.when_event = when_event
    out = []
    for i in range(count):
        got.clear()
        t0 = time.perf_counter()
        trigger(i)
        if not got.wait(5):
            raise HardwareError("bench: an event did not arrive within 5 s")
        out.append(stamps[-1] - t0)
    return out


def _report(label: str, seconds: list[float]) -> None:
    us = sorted(s * 1e6 for s in seconds)
    p99 = us[min(len(us) - 1, int(len(us) * 0.99))]
    print(f"{label:34} n={len(us):6}  median {statistics.median(us):8.1f} us  "
          f"p99 {p99:8.1f} us  max {us[-1]:8.1f} us")


def bench(args: argparse.Namespace) -> int:
    import serial
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    from .gpio import GpioSource
    from .serial_keypad import SerialSource

    n = args.events
    no_timers = InputSettings(hold_seconds=0, repeat_delay=0)

    previous, Device.pin_factory = Device.pin_factory, MockFactory()
    try:
        source = GpioSource(GpioSettings(enabled=True, bounce_ms=0), no_timers)
        source.start()
        pin = source.pin("OK")

        def gpio_press(_: int) -> None:
            pin.drive_high()
            pin.drive_low()

        _report("gpio mock pin edge -> callback", _latencies(source, gpio_press, n))
        source.close()
    finally:
        Device.pin_factory.reset()
        Device.pin_factory = previous

    ports: list = []

    def opener(url: str, **kw):
        ports.append(serial.serial_for_url(url, **kw))
        return ports[-1]

    keypad = SerialSource(SerialSettings(enabled=True, port="loop://"), no_timers, opener=opener)
    keypad.start()
    if not keypad.wait_connected(5):
        raise HardwareError("bench: loop:// did not connect")
    _report("serial loop:// line -> callback",
            _latencies(keypad, lambda _: ports[-1].write(b"KEY OK UP\nKEY OK DOWN\n"), n))
    noise = bytes(range(256)) * 400
    t0 = time.perf_counter()
    ports[-1].write(noise + b"\nKEY OK UP\nKEY BACK DOWN\n")
    done = threading.Event()
    keypad.when_event = lambda e: done.set() if e.name == "BACK" else None
    done.wait(30)
    dt = time.perf_counter() - t0
    print(f"{'serial loop:// noise throughput':34} {len(noise) / dt / 1e3:10.0f} kB/s "
          f"({len(noise)} bytes in {dt:.3f} s)")
    keypad.close()

    tracker = KeyTracker(Timing(bounce=0.03))
    t0 = time.perf_counter()
    t = 0.0
    for _ in range(n * 50):
        t += 0.1
        tracker.edge("LEFT", True, t)
        tracker.poll(t + 0.05)
        tracker.edge("LEFT", False, t + 0.06)
    dt = time.perf_counter() - t0
    print(f"{'tracker press/poll/release':34} {n * 50 / dt:10.0f} cycles/s")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hardware", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("listen", help="print events from GPIO buttons and/or a serial keypad")
    p.add_argument("--gpio", action="store_true", help="the default GPIO buttons")
    p.add_argument("--pin-factory", default="", help="gpiozero pin factory (lgpio, mock)")
    p.add_argument("--serial", metavar="PORT", help="serial keypad device or pyserial URL")
    p.add_argument("--baud", type=int, default=115200)
    p.add_argument("--seconds", type=float, default=None, help="stop after this long")
    p = sub.add_parser("bench", help="event latency and throughput figures")
    p.add_argument("--events", type=int, default=2000)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    try:
        return listen(args) if args.command == "listen" else bench(args)
    except HardwareError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
