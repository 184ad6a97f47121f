"""A short run of the phone server's bench (the figures themselves are
`python -m scripts.bench.phone_server`)."""

from __future__ import annotations

from scripts.bench.phone_server import run_deal


def test_a_chan_deal_with_two_scripted_phones_finishes_without_errors() -> None:
    figures = run_deal("chan", phones=2, seed=1, timeout=120)
    assert figures["finished"] and figures["errors"] == 0
    assert figures["actions"] > 20
    # Each connected phone gets at most one state message per action (plus its join's).
    assert 0 < figures["states"] <= figures["phones"] * (figures["actions"] + 1)
    assert figures["others"]["joined"][0] == 2
