"""The mock backend: test verbs over the real tracker, synchronous and on virtual time."""

from __future__ import annotations

import logging

import pytest

from hardware import InputSettings, MockSource, SourceClosed, SourceStopped, UnknownEvent


@pytest.fixture
def mock(collector):
    source = MockSource(InputSettings(), when_event=collector)
    source.start()
    yield source
    source.close()


def test_press_release_tap(mock, collector):
    mock.press("OK")
    mock.release("OK")
    mock.tap("BACK")
    assert collector.pairs() == [("OK", "press"), ("OK", "release"), ("BACK", "press"),
                                 ("BACK", "release")]
    assert {e.source for e in collector.events} == {"mock"}


def test_hold_gives_long_press_at_hold_seconds(mock, collector):
    mock.hold("MENU", 1.0)
    assert collector.pairs() == [("MENU", "press"), ("MENU", "long"), ("MENU", "release")]
    press, long, release = collector.events
    assert long.time - press.time == pytest.approx(0.8)
    assert release.time - press.time == pytest.approx(1.0)


def test_hold_arrow_repeats(mock, collector):
    mock.hold("LEFT", 1.0)  # repeats at 0.5, 0.65, 0.8, 0.95
    assert collector.pairs() == [("LEFT", "press")] + [("LEFT", "repeat")] * 4 + [
        ("LEFT", "release")]


def test_short_hold_is_a_plain_press(mock, collector):
    mock.hold("OK", 0.3)
    assert collector.pairs() == [("OK", "press"), ("OK", "release")]


def test_advance_while_held(mock, collector):
    mock.press("UP")
    mock.advance(0.6)
    assert collector.pairs() == [("UP", "press"), ("UP", "repeat")]
    mock.release("UP")
    mock.advance(5)
    assert collector.pairs()[-1] == ("UP", "release")


def test_events_reach_the_callback_in_the_callers_thread(mock, collector):
    import threading

    mock.tap("OK")
    assert collector.threads == {threading.current_thread().name}


def test_verbs_need_a_started_source_and_known_events(collector):
    source = MockSource(when_event=collector)
    with pytest.raises(SourceStopped):
        source.press("OK")
    source.start()
    with pytest.raises(UnknownEvent):
        source.press("ENTER")
    source.stop()
    with pytest.raises(SourceStopped):
        source.tap("OK")
    source.start()  # a stopped source starts again
    source.tap("OK")
    source.close()
    source.close()  # idempotent
    with pytest.raises(SourceClosed):
        source.start()
    assert collector.pairs() == [("OK", "press"), ("OK", "release")]


def test_a_failing_callback_is_logged_not_raised(caplog):
    def broken(event):
        raise RuntimeError("boom")

    with MockSource(when_event=broken) as source, caplog.at_level(logging.ERROR):
        source.tap("OK")
    assert "when_event callback failed" in caplog.text


def test_stop_forgets_held_keys(collector):
    source = MockSource(when_event=collector)
    source.start()
    source.press("RIGHT")
    source.stop()
    source.start()
    source.advance(2)
    source.release("RIGHT")  # up while already up after the restart: nothing
    assert collector.pairs() == [("RIGHT", "press")]
    source.close()
