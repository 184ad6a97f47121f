"""The Meri summary explains every point (H-30..H-33) from the engine's `DealResult`, drawn by
the shared `summary.result_lines` with the table's card names: one line per trick, one per
combination with its transfer (2, or 5 in trick 9 / with an undeclared native Robai), totals,
then the match standing and its winner."""

from __future__ import annotations

import re

from engine import registry
from engine.ai.base import RandomBot
from engine.meri.cards import CODES, name
from ui.i18n import translator
from ui.table import summary

GAME = registry.get("meri")
CARD_FIELDS = ("card", "w", "y")


def card_names(key: str, value: object) -> object:
    return name(CODES.index(value)) if key in CARD_FIELDS else value


def finished_deals(count: int, want_transfer: int | None = None):  # noqa: ANN201
    found = 0
    for seed in range(2000):
        state = GAME.new_deal(seed)
        bot = RandomBot(seed)
        while not state.is_over:
            state.apply(bot.choose(state.observation(state.to_act), state.legal_actions()))
        obs = state.observation(0)
        if want_transfer is None or any(t[4] == want_transfer for t in obs.tricks):
            yield state, obs
            found += 1
            if found == count:
                return


def plain(line: str) -> str:
    return re.sub(r"\[/?[a-z]+(=[0-9a-f]+)?\]", "", line)


def lines_of(state, match=None) -> list[str]:  # noqa: ANN001
    return [plain(x) for x in summary.result_lines(GAME.deal_result(state), match, card_names)]


def test_every_point_is_explained_H30_H33() -> None:
    translator.set_language("en")
    for state, obs in finished_deals(20):
        lines = lines_of(state)
        tricks = [x for x in lines if re.match(r"Trick \d: .* wins with ", x)]
        combos = [x for x in lines if x.startswith("Combination")]
        assert len(tricks) == 9
        assert len(combos) == sum(1 for t in obs.tricks if t[4])
        us = sum(1 for x in tricks if "+1 for Your team" in x)
        for line in combos:
            points = int(re.search(r": (\d) points", line).group(1))
            us += points if "to Your team" in line else -points
        assert us == obs.team_scores[0]
        assert sum(obs.team_scores) == 9
        winner = "Your team" if obs.team_scores[0] > obs.team_scores[1] else "Other team"
        assert lines[1] == f"{winner} wins the deal."  # the key facts first
        assert lines[2].startswith("Your team: ") and lines[2].endswith(f"= {obs.team_scores[0]}")


def test_combination_lines_name_the_pair_and_why_it_is_five_H32() -> None:
    translator.set_language("en")
    for state, _obs in finished_deals(3, want_transfer=5):
        fives = [x for x in lines_of(state) if ": 5 points" in x]
        assert fives and all(("trick 9" in x) or ("not declared" in x) for x in fives)
    for state, _obs in finished_deals(3, want_transfer=2):
        twos = [x for x in lines_of(state) if ": 2 points" in x]
        assert twos and all(" over " in x for x in twos)


def test_cards_are_named_as_on_the_table() -> None:
    translator.set_language("en")
    state, obs = next(finished_deals(1))
    _leader, cards, winner, _meri, _transfer = obs.tricks[0]
    who = "You" if winner == 0 else f"AI {winner}"
    first = next(x for x in lines_of(state) if x.startswith("Trick 1: "))
    assert first.startswith(f"Trick 1: {who} wins with {name(cards[winner])}: +1 for ")


def test_totals_and_match_result_lines() -> None:
    translator.set_language("en")
    state, _obs = next(finished_deals(1))
    data = GAME.new_match(1).to_dict()
    won = GAME.restore_match({**data, "deals_played": 8, "scores": [40, 32],
                              "deal_scores": [[5, 4]] * 8}).result()
    lines = lines_of(state, won)
    assert lines[1] == "Deal 8 of 8"  # the deal the match is at (issue 33)
    assert lines[5] == "Match after deal 8 of 8: 40 to 32"
    assert lines[6] == "Your team wins the match."
    assert lines[7].startswith("Your team (40): Deal 1: 5, Deal 2: 5")
    drawn = GAME.restore_match({**data, "deals_played": 8, "scores": [36, 36],
                                "deal_scores": [[0, 0]] * 8}).result()
    assert lines_of(state, drawn)[6] == "The match is a draw."
