"""Rate-limited logging of hardware noise, on an injected clock."""

from __future__ import annotations

import logging

from hardware.ratelog import RateLimitedLog
from hardware.source import ManualClock


def test_one_message_per_interval_with_a_count_of_the_rest(caplog):
    clock = ManualClock()
    rl = RateLimitedLog(logging.getLogger("t.ratelog"), interval=30, clock=clock)
    with caplog.at_level(logging.WARNING, logger="t.ratelog"):
        assert rl.warning("line", "bad line %d", 1)
        assert not rl.warning("line", "bad line %d", 2)
        assert not rl.warning("line", "bad line %d", 3)
        assert rl.warning("open", "port gone")  # another key is not suppressed
        clock.advance(30)
        assert rl.warning("line", "bad line %d", 4)
        rl.reset("open")
        assert rl.warning("open", "port gone")
    assert [r.getMessage() for r in caplog.records] == [
        "bad line 1", "port gone", "bad line 4 (2 similar suppressed)", "port gone"]
