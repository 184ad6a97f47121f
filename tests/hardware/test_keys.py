"""The debounce / long-press / auto-repeat state machine, driven by explicit timestamps."""

from __future__ import annotations

import pytest

from hardware import UnknownEvent
from hardware.keys import KeyTracker, Timing

ARROWS = frozenset({"LEFT", "RIGHT", "UP", "DOWN"})


def tracker(**kw) -> KeyTracker:
    base = {"bounce": 0.0, "hold": 0.8, "repeat_delay": 0.5, "repeat_interval": 0.15,
            "repeat_events": ARROWS}
    base.update(kw)
    return KeyTracker(Timing(**base))


def run_until(k: KeyTracker, end: float) -> list:
    """Poll at each deadline up to `end`, as a punctual dispatcher thread does."""
    out = []
    while (due := k.next_deadline()) is not None and due <= end:
        out += k.poll(due)
    return out + k.poll(end)


def test_press_and_release():
    k = tracker()
    assert k.edge("OK", True, 1.0) == [("OK", "press", 1.0)]
    assert k.is_down("OK")
    assert k.edge("OK", False, 1.2) == [("OK", "release", 1.2)]
    assert k.next_deadline() is None


def test_bounce_chatter_gives_one_press_and_late_release_is_kept():
    k = tracker(bounce=0.03)
    out = k.edge("OK", True, 0.0)
    out += k.edge("OK", False, 0.005)
    out += k.edge("OK", True, 0.010)
    out += k.edge("OK", False, 0.015)  # finally released inside the lock-out
    assert out == [("OK", "press", 0.0)]
    assert k.next_deadline() == pytest.approx(0.03)
    assert k.poll(0.029) == []
    assert k.poll(0.05) == [("OK", "release", pytest.approx(0.03))]


def test_bounce_chatter_that_settles_down_stays_pressed():
    k = tracker(bounce=0.03)
    out = k.edge("SELECT", True, 0.0) + k.edge("SELECT", False, 0.01)
    out += k.edge("SELECT", True, 0.02)
    out += k.poll(0.1)
    assert out == [("SELECT", "press", 0.0)]
    assert k.is_down("SELECT")


def test_release_bounce_is_ignored_too():
    k = tracker(bounce=0.03)
    k.edge("OK", True, 0.0)
    out = k.edge("OK", False, 0.5) + k.edge("OK", True, 0.505) + k.edge("OK", False, 0.51)
    assert out == [("OK", "release", 0.5)]
    assert k.poll(1.0) == []


def test_long_press_after_hold_seconds():
    k = tracker()
    k.edge("MENU", True, 10.0)
    assert k.next_deadline() == pytest.approx(10.8)
    assert k.poll(10.79) == []
    assert k.poll(12.0) == [("MENU", "long", pytest.approx(10.8))]
    assert k.poll(20.0) == []  # once per press
    assert k.edge("MENU", False, 20.0) == [("MENU", "release", 20.0)]


def test_short_press_has_no_long():
    k = tracker()
    k.edge("OK", True, 0.0)
    k.edge("OK", False, 0.5)
    assert k.poll(5.0) == []


def test_hold_zero_means_no_long_press():
    k = tracker(hold=0.0)
    k.edge("BACK", True, 0.0)
    assert k.next_deadline() is None
    assert k.poll(9.0) == []


def test_repeat_after_delay_then_every_interval_and_no_long():
    k = tracker()
    k.edge("LEFT", True, 0.0)
    out = run_until(k, 1.0)
    assert [kind for _, kind, _ in out] == ["repeat"] * 4
    assert [t for *_, t in out] == pytest.approx([0.5, 0.65, 0.8, 0.95])
    assert k.edge("LEFT", False, 1.0) == [("LEFT", "release", 1.0)]
    assert k.poll(5.0) == []


def test_repeat_disabled_turns_arrows_into_long_press_keys():
    k = tracker(repeat_delay=0.0)
    k.edge("LEFT", True, 0.0)
    assert k.poll(2.0) == [("LEFT", "long", pytest.approx(0.8))]


def test_late_poll_gives_one_repeat_not_a_burst():
    k = tracker()
    k.edge("DOWN", True, 0.0)
    out = k.poll(0.5)
    assert out == [("DOWN", "repeat", 0.5)]
    out = k.poll(3.0)  # the machine was busy for 2.5 s
    assert out == [("DOWN", "repeat", pytest.approx(0.65))]
    assert k.next_deadline() == pytest.approx(3.15)


def test_keys_are_independent_and_events_come_in_time_order():
    k = tracker()
    k.edge("OK", True, 0.0)
    k.edge("RIGHT", True, 0.1)
    out = run_until(k, 0.85)
    assert out == [("RIGHT", "repeat", pytest.approx(0.6)), ("RIGHT", "repeat", pytest.approx(0.75)),
                   ("OK", "long", pytest.approx(0.8))]


def test_release_all_releases_held_keys_and_cancels_timers():
    k = tracker(bounce=0.03)
    k.edge("LEFT", True, 0.0)
    k.edge("OK", True, 0.0)
    assert sorted(k.release_all(0.2)) == [("LEFT", "release", 0.2), ("OK", "release", 0.2)]
    assert k.next_deadline() is None
    assert k.edge("OK", True, 0.21) == [("OK", "press", 0.21)]  # no lock-out left over


def test_unknown_event_names_are_refused():
    with pytest.raises(UnknownEvent):
        tracker().edge("FIRE", True, 0.0)
    with pytest.raises(UnknownEvent):
        KeyTracker(Timing(), ["OK", "FIRE"])
