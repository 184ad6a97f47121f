"""`arena --levels` (engine/ai/tools/levels.py) and `arena tractor --share`
(engine/ai/tools/tractor_share.py).

Real games on tiny runs (two duplicate deals per pair) with the cheap kinds only (easy, the
heuristic and random bots): the search levels play the same code path at a cost no test needs.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

import pytest

from engine import cli
from engine.ai.tools import levels, tractor_share
from engine.result import DealResult, SideScore
from tests.engine.test_tractor_results import _fixture_state
from tests.engine.test_tractor_support import GAME as TRACTOR
from tests.engine.test_tractor_support import layout

ROWS = ("easy", "heuristic")
REFS = ("random",)


def _table(game: str, seed: int = 3, jobs: int = 1) -> dict:
    return levels.level_table(game, 2, seed, jobs, rows=ROWS, references=REFS)


@pytest.mark.parametrize("game", ["meri", "tractor", "chan"])
def test_table_has_every_pair_with_shares_and_intervals(game):
    table = _table(game)
    assert table["columns"] == ["easy", "heuristic", "random"] and table["deals"] == 2
    for row in ROWS:
        assert set(table["cells"][row]) == {"easy", "heuristic", "random"} - {row}
        for cell in table["cells"][row].values():
            for fig in (cell["win"], cell["figure"]):
                lo, hi = fig["ci95"]
                assert lo <= fig["mean"] <= hi
            assert 0.0 <= cell["win"]["mean"] <= 1.0


@pytest.mark.parametrize("game", ["meri", "tractor"])
def test_team_games_read_the_mirrored_cell_from_the_same_deals(game):
    """Teams swap seats, so 'heuristic vs easy' is 'easy vs heuristic' seen from the other side."""
    cells = _table(game)["cells"]
    one, other = cells["easy"]["heuristic"], cells["heuristic"]["easy"]
    assert one["win"]["mean"] + other["win"]["mean"] == pytest.approx(1.0)
    assert one["figure"]["mean"] == pytest.approx(-other["figure"]["mean"])


def test_chan_plays_both_orders():
    """One Chắn seat against three is not its mirror: both orders are played."""
    assert not levels.mirrored([frozenset({s}) for s in range(4)], 4)
    assert levels.mirrored([frozenset({0, 2}), frozenset({1, 3})], 4)


@pytest.mark.parametrize("game", ["tractor", "chan"])
def test_table_is_deterministic_by_seed_whatever_the_jobs(game):
    assert _table(game, seed=5)["cells"] == _table(game, seed=5, jobs=2)["cells"]


@dataclass
class _FixedGame:
    """A game whose every deal ended with `result` (to check the win share's definition)."""

    result: DealResult
    players: int = 4

    def deal_result(self, state):
        return self.result

    def arena_metrics(self, state, a_seats):
        return {"settlement": 0.0}


def _chan_result(winner: int | None) -> DealResult:
    return DealResult(tuple(SideScore((s,), 0) for s in range(4)),
                      () if winner is None else (winner,))


@pytest.mark.parametrize("winner, share", [(2, 1.0), (0, 1 / 3), (3, 1 / 3), (None, 0.5)])
def test_chan_win_share_of_one_seat_against_three(winner, share):
    """Row seat 2: its win beats all three (1); another seat winning beats it (0) and ties the
    (1/2 each); a draw is 1/2. Equal levels therefore average 1/2: (1 + 3 x 1/3) / 4."""
    game = _FixedGame(_chan_result(winner))
    assert levels.level_metrics(game, None, frozenset({2}))["win"] == pytest.approx(share)


@pytest.mark.parametrize("winners, share", [((0,), 1.0), ((1,), 0.0), ((), 0.5)])
def test_team_win_share_is_the_deal_won(winners, share):
    result = DealResult((SideScore((0, 2), 0), SideScore((1, 3), 0)), winners)
    game = _FixedGame(result)
    assert levels.level_metrics(game, None, frozenset({0, 2}))["win"] == share


def _held_at_35():
    """Dealer 0's team (defenders) holds the attackers to 35 (T-27: up 2)."""
    state = TRACTOR.from_layout(layout(levels=("A", "7"), dealer=0), 0)
    rng = random.Random(0)
    while not state.is_over:
        state.apply(state.random_action(rng))
    return state


@pytest.mark.parametrize("deal, seat, figures", [
    # attackers (team 0) 215: up 3 levels (T-27)
    ("pair", 0, (1.0, 1.0, 1.0)), ("pair", 3, (0.0, 0.0, 0.0)),
    # attackers (team 0) 115: they take over without a level; the defenders lost
    ("single", 2, (0.0, 1.0, 1.0)), ("single", 1, (0.0, 0.0, 0.0)),
    # defenders (team 0) hold the attackers to 35: up 2
    ("held", 2, (1.0, 1.0, 0.0)), ("held", 1, (0.0, 0.0, 1.0)),
])
def test_tractor_share_of_fixed_deals(deal, seat, figures):
    """levels_up: gains levels as attackers (120+) or holds as defenders (< 80); not_lost also
    counts the take-over at 80-115 (T-27)."""
    state = _held_at_35() if deal == "held" else _fixture_state(deal)
    got = tractor_share.share_metrics(TRACTOR, state, frozenset({seat}))
    assert (got["levels_up"], got["not_lost"], got["a_attacked"]) == figures


def test_share_of_a_bot_among_three_of_its_kind_is_even():
    """The same deterministic bot in all four seats plays one game four times: each team wins
    it in two of the four seatings, so not_lost is exactly 1/2 on every deal."""
    summary = tractor_share.shares("heuristic", ("heuristic", "random"), 2, 4)
    same, weak = summary["rows"]
    assert same["b"] == "heuristic" and same["not_lost"] == {"mean": 0.5, "ci95": [0.5, 0.5]}
    assert summary["seatings"] == 4 and weak["b"] == "random"


def test_cli_levels_json_and_text(capsys, monkeypatch):
    monkeypatch.setattr(levels, "LEVELS", ("easy",))
    monkeypatch.setattr(levels, "REFERENCES", ("random",))
    assert cli.main(["arena", "--levels", "chan", "tractor", "--deals", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [t["game"] for t in out["tables"]] == ["chan", "tractor"]
    assert out["tables"][1]["figure"] == "levels/deal"
    assert set(out["tables"][0]["cells"]["easy"]) == {"random"}
    assert cli.main(["arena", "--levels", "meri", "--deals", "1"]) == 0
    text = capsys.readouterr().out
    assert "a short run of 1 duplicate deals per pair" in text
    assert "meri: row level vs column" in text and "points/deal" in text


def test_cli_share_text(capsys):
    assert cli.main(["arena", "tractor", "--share", "--a", "heuristic", "--b", "random",
                     "--deals", "1"]) == 0
    text = capsys.readouterr().out
    assert "team of one heuristic bot" in text and "vs 3 x random" in text


@pytest.mark.parametrize("argv, message", [
    (["--levels", "--a", "normal"], "no --a, --b or --share"),
    (["--levels", "poker"], "unknown game 'poker'"),
    (["meri", "--share", "--a", "normal"], "--share is a tractor figure"),
    (["tractor", "--share", "--a", "normal", "--b", "genius"], "unknown bot 'genius'"),
    (["tractor", "--share", "--a", "normal", "--deals", "0"], "at least 1"),
    (["--a", "normal", "--b", "random"], "arena needs one GAME"),
    (["meri", "--a", "normal"], "arena needs --b"),
])
def test_cli_refuses_bad_arena_arguments_in_one_line(capsys, argv, message):
    assert cli.main(["arena", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
