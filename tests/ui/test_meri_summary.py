"""The end-of-deal summary explains every point (H-30..H-33): one line per trick, one line per
combination with its transfer (2, or 5 in trick 9 / with an undeclared native Robai), totals."""

from __future__ import annotations

import re

from engine import registry
from engine.ai.base import RandomBot
from ui.i18n import translator
from ui.table.meri_summary import totals_lines, trick_lines


def finished_deals(count: int, want_transfer: int | None = None):  # noqa: ANN201
    game = registry.get("meri")
    found = 0
    for seed in range(2000):
        state = game.new_deal(seed)
        bot = RandomBot(seed)
        while not state.is_over:
            state.apply(bot.choose(state.observation(state.to_act), state.legal_actions()))
        obs = state.observation(0)
        if want_transfer is None or any(t[4] == want_transfer for t in obs.tricks):
            yield obs
            found += 1
            if found == count:
                return


def plain(line: str) -> str:
    return re.sub(r"\[/?[a-z]+(=[0-9a-f]+)?\]", "", line)


def test_every_point_is_explained_H30_H33() -> None:
    translator.set_language("en")
    for obs in finished_deals(20):
        lines = [plain(x) for x in trick_lines(obs)]
        tricks = [x for x in lines if x.startswith("Trick ")]
        combos = [x for x in lines if "Combination" in x]
        assert len(tricks) == 9
        assert len(combos) == sum(1 for t in obs.tricks if t[4])
        us = sum(1 for x in tricks if "+1 for Your team" in x)
        for line in combos:
            points = int(re.search(r": (\d) points", line).group(1))
            us += points if "to Your team" in line else -points
        assert us == obs.team_scores[0]
        assert sum(obs.team_scores) == 9


def test_combination_lines_name_the_pair_and_why_it_is_five_H32() -> None:
    translator.set_language("en")
    for obs in finished_deals(3, want_transfer=5):
        fives = [plain(x) for x in trick_lines(obs) if ": 5 points" in plain(x)]
        assert fives and all(("trick 9" in x) or ("not declared" in x) for x in fives)
    for obs in finished_deals(3, want_transfer=2):
        twos = [plain(x) for x in trick_lines(obs) if ": 2 points" in plain(x)]
        assert twos and all(" over " in x for x in twos)


def test_totals_and_match_result_lines() -> None:
    translator.set_language("en")
    obs = next(finished_deals(1))
    match = {"deals_played": 8, "deals": 8, "scores": [40, 32], "over": True, "winner": 0,
             "draw": False}
    lines = [plain(x) for x in totals_lines(obs, match)]
    assert lines[0].startswith("Your team:") and lines[0].endswith(f"= {obs.team_scores[0]}")
    assert lines[2] == "Match after deal 8 of 8: 40 to 32"
    assert lines[3] == "Your team wins the match!"
    draw = dict(match, scores=[36, 36], winner=None, draw=True)
    assert plain(totals_lines(obs, draw)[3]) == "The match is a draw."
