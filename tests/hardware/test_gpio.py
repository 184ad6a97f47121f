"""GPIO buttons, LEDs and buzzer through gpiozero's MockFactory (press, release, hold, repeat,
bounce). Debounce is ours: MockPin ignores bounce_time."""

from __future__ import annotations

import threading

import pytest
from gpiozero import Button
from gpiozero.exc import GPIOPinInUse

from hardware import BackendError, GpioSettings, InputSettings, OutputSettings, build_outputs
from hardware.gpio import GpioSource, make_pin_factory
from hardware.outputs import GpioOutputs

from .helpers import eventually

FAST = InputSettings(hold_seconds=0.05, repeat_delay=0.05, repeat_interval=0.02)


@pytest.fixture
def gpio(mock_factory, collector):
    source = GpioSource(GpioSettings(enabled=True, bounce_ms=0), FAST, when_event=collector)
    source.start()
    yield source
    source.close()


def test_press_and_release_on_the_dispatcher_thread(gpio, collector):
    gpio.pin("OK").drive_low()  # pull-up: low = pressed
    gpio.pin("OK").drive_high()
    collector.wait_count(2)
    assert collector.pairs() == [("OK", "press"), ("OK", "release")]
    assert {e.source for e in collector.events} == {"gpio"}
    assert collector.threads == {"parlor-hw-gpio-events"}


def test_configured_pins_are_used(mock_factory, collector):
    settings = GpioSettings(enabled=True, pins={"SELECT": 4, "MENU": 27}, bounce_ms=0)
    with GpioSource(settings, FAST, when_event=collector) as source:
        assert source.events == ("SELECT", "MENU")
        mock_factory.pin(27).drive_low()
        mock_factory.pin(27).drive_high()
        collector.wait_count(2)
    assert collector.pairs() == [("MENU", "press"), ("MENU", "release")]


def test_hold_gives_one_long_press(gpio, collector):
    gpio.pin("MENU").drive_low()
    collector.wait_count(2)
    gpio.pin("MENU").drive_high()
    collector.wait_count(3)
    assert collector.pairs() == [("MENU", "press"), ("MENU", "long"), ("MENU", "release")]


def test_held_arrow_repeats_until_released(gpio, collector):
    gpio.pin("DOWN").drive_low()
    collector.wait_count(4)  # press + 3 repeats
    gpio.pin("DOWN").drive_high()
    assert collector.wait_for(lambda ev: ev[-1].kind == "release")
    pairs = collector.pairs()
    assert pairs[0] == ("DOWN", "press") and pairs[-1] == ("DOWN", "release")
    assert set(pairs[1:-1]) == {("DOWN", "repeat")}


def test_bounce_chatter_is_one_press_and_one_release(mock_factory, collector):
    settings = GpioSettings(enabled=True, bounce_ms=30)
    with GpioSource(settings, InputSettings(hold_seconds=0), when_event=collector) as source:
        pin = source.pin("SELECT")
        for _ in range(3):  # contact chatter, far faster than 30 ms
            pin.drive_low()
            pin.drive_high()
        pin.drive_low()
        collector.wait_count(1)
        pin.drive_high()
        pin.drive_low()
        pin.drive_high()
        assert collector.wait_for(lambda ev: ev[-1].kind == "release")
        # The release is emitted after everything before it: nothing else can be pending.
    assert collector.pairs() == [("SELECT", "press"), ("SELECT", "release")]


def test_pull_down_buttons_are_active_high(mock_factory, collector):
    settings = GpioSettings(enabled=True, pull_up=False, pins={"OK": 17}, bounce_ms=0)
    with GpioSource(settings, FAST, when_event=collector):
        mock_factory.pin(17).drive_high()
        mock_factory.pin(17).drive_low()
        collector.wait_count(2)
    assert collector.pairs() == [("OK", "press"), ("OK", "release")]


def test_no_events_while_stopped_and_restart(gpio, collector):
    gpio.stop()
    gpio.pin("OK").drive_low()
    gpio.pin("OK").drive_high()
    gpio.start()
    gpio.pin("BACK").drive_low()
    gpio.pin("BACK").drive_high()
    collector.wait_count(2)
    assert collector.pairs() == [("BACK", "press"), ("BACK", "release")]


def test_close_frees_the_pins(mock_factory):
    source = GpioSource(GpioSettings(enabled=True))
    with pytest.raises(GPIOPinInUse):
        Button(16)  # reserved by the source
    source.close()
    Button(16).close()


def test_backend_errors_are_one_line(mock_factory):
    with pytest.raises(BackendError) as info:
        GpioSource(GpioSettings(enabled=True, pull_up=False, pins={"OK": 2}))
    assert "button OK on GPIO2" in str(info.value) and "\n" not in str(info.value)
    Button(16).close()  # nothing left reserved after the failed build
    with pytest.raises(BackendError, match="unknown GPIO pin factory 'nope'"):
        make_pin_factory("nope")


def test_mock_factory_by_name_reuses_the_installed_one(mock_factory):
    assert make_pin_factory("mock") is mock_factory
    assert make_pin_factory("") is None  # gpiozero's default (GPIOZERO_PIN_FACTORY)


def test_leds_and_buzzer(mock_factory):
    outputs = build_outputs(OutputSettings(led_turn=23, led_thinking=24, buzzer=12), mock=True)
    assert isinstance(outputs, GpioOutputs)
    outputs.set_led("turn", True)
    assert mock_factory.pin(23).state == 1 and mock_factory.pin(24).state == 0
    outputs.set_led("thinking", True)
    outputs.set_led("turn", False)
    assert mock_factory.pin(23).state == 0 and mock_factory.pin(24).state == 1
    buzzer = mock_factory.pin(12)
    outputs.beep()
    done = threading.Event()
    for _ in range(100):  # the beep runs in gpiozero's background thread: wait for it to end
        if [s.state for s in buzzer.states][-2:] == [1, 0]:
            break
        done.wait(0.02)
    assert [s.state for s in buzzer.states][-2:] == [1, 0]
    with pytest.raises(Exception, match="unknown LED 'power'"):
        outputs.set_led("power", True)
    outputs.close()
    outputs.close()
    Button(23).close()  # pins freed


def test_outputs_on_button_pins_are_refused(mock_factory):
    source = GpioSource(GpioSettings(enabled=True))
    try:
        with pytest.raises(BackendError, match="LED turn on GPIO16"):
            GpioOutputs(OutputSettings(led_turn=16))
    finally:
        source.close()


def test_a_callback_may_stop_its_own_source(mock_factory):
    """stop() from inside when_event (the dispatcher thread) neither deadlocks nor leaks."""
    seen = []

    def stop_on_first(event):
        seen.append(event)
        source.stop()

    source = GpioSource(GpioSettings(enabled=True, bounce_ms=0), FAST, when_event=stop_on_first)
    source.start()
    source.pin("OK").drive_low()
    for _ in range(200):
        if not source.running:
            break
        threading.Event().wait(0.01)
    assert not source.running and [e.kind for e in seen] == ["press"]
    source.when_event = seen.append
    source.start()  # restarted at once: the old dispatcher must not come back to life
    source.pin("OK").drive_high()
    source.pin("BACK").drive_low()
    assert eventually(lambda: len(seen) == 2)
    assert eventually(lambda: [t.name for t in threading.enumerate()].count(
        "parlor-hw-gpio-events") == 1)
    source.close()
    assert [(e.name, e.kind) for e in seen] == [("OK", "press"), ("BACK", "press")]
