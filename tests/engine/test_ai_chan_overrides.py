"""The Chắn override study (`engine.ai.tools.chan_overrides`, issue 19): a rule is scored by the
true gains of the overrides it makes, per deal, and the study runs end to end on one deal."""

from __future__ import annotations

import io
import re

from engine.ai.tools import chan_overrides
from engine.ai.tools.chan_overrides import Row, per_deal, score, shipped

NUMBER = r"[-+]?\d+\.\d+"


def test_a_rule_counts_only_the_overrides_it_makes():
    rows = [Row(0, advantage=0.9, se=0.3, worlds=50, gain_win=1.0, gain_settlement=6.0),
            Row(0, advantage=0.5, se=0.4, worlds=50, gain_win=-1.0, gain_settlement=-2.0),
            Row(1, advantage=-0.1, se=0.1, worlds=50, gain_win=1.0, gain_settlement=3.0)]
    n, win, settle = per_deal(rows, 2, shipped(2.0))  # only the first clears 2 SE
    assert n == 1 and win == [0.25, 0.0] and settle == [1.5, 0.0]
    n, win, _ = per_deal(rows, 2, shipped(0.0))  # a negative advantage never overrides
    assert n == 2 and win == [0.0, 0.0]
    rate, (mean, lo, hi), _ = score(rows, 2, shipped(2.0))
    assert rate == 1 / 8 and mean == 0.125 and lo < mean < hi


def test_the_study_runs_on_one_deal(monkeypatch):
    monkeypatch.setenv("PARLOR_SEARCH_CLOCK", "cpu")
    out = io.StringIO()
    chan_overrides.run(1, 1, out, worlds=2, names=["normal"])
    text = out.getvalue()
    assert re.search(r"^normal: \d+ decisions, mean worlds \d+$", text, re.M)
    rules = re.findall(rf"^  margin [\d.]+ .*: overrides +{NUMBER}/seat-deal  win +{NUMBER} "
                       rf"\[{NUMBER}, {NUMBER}\]  settlement {NUMBER} \[{NUMBER}, {NUMBER}\]$",
                       text, re.M)
    assert len(rules) == len(chan_overrides.MARGINS) * (len(chan_overrides.FLOORS) + 1) - 1
    assert "paired: minus normal at margin 2 (the shipped level)" in text
