"""Information-set MCTS (engine/ai/ismcts.py, ismcts_tree.py, ismcts_games.py; issue 32 step 1).

Acceptance: every action it returns is legal (and every move its trees play is: `apply` checks
them); a seed gives the same decision, for any number of worker processes; the decision depends
on the observation only (other hidden cards consistent with it: the same decision); what a seat's
tree records of another seat's move is what that seat observes; the safety net cuts legally and
says so; and on small positions whose best move is known it finds it. Budgets are tiny; no test
times anything.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import logging
import random
import time

import pytest

from engine import registry
from engine.ai import bots, search
from engine.ai.ismcts import IsmctsBot, TreeBudget, pick
from engine.ai.ismcts_games import HIDDEN, make_tree_game
from engine.ai.ismcts_tree import grow
from engine.ai.kinds import is_kind, tree_iterations
from engine.ai.pool import SearchPool
from engine.ai.search import SafetyLog
from engine.meri.observation import FACE_DOWN
from engine.records import GameRecord
from tests.engine.ismcts_positions import FOLDER as FOUND
from tests.engine.ismcts_positions import SEED, decisions
from tests.engine.midgame import positions

GAMES = ["meri", "tractor", "chan"]

TINY = TreeBudget(iterations=48)
#: Three trees: what worker processes can share.
SPLIT = TreeBudget(iterations=72, trees=3)


def _choice_positions(game_name: str, count: int, seed: int) -> list:
    """Mid-deal states of random legal play where the tree search has more than one root move."""
    game = make_tree_game(game_name, 1)
    return positions(game_name, count, seed, lambda state: len(game.root_moves(
        state.observation(state.to_act), state.legal_actions(), random.Random(1))) > 1)


def _bot(game_name: str, seed: int, budget: TreeBudget, **kw) -> IsmctsBot:
    """The tree bot, its safety net on CPU time unless told (on a loaded machine a starved
    process's wall clock could cut a tiny search, and two runs would differ)."""
    kw.setdefault("clock", time.process_time)
    return IsmctsBot(make_tree_game(game_name, seed), seed, budget, **kw)


def _heuristic_positions(game_name: str, deals: int, every: int, seed: int = 0) -> list:
    """States from deals the heuristic bots play against each other, every `every` decisions."""
    game = registry.get(game_name)
    players = [bots.make_bot(game_name, "heuristic", s) for s in range(game.players)]
    out = []
    for d in range(deals):
        state = game.new_deal(seed * 1000 + d)
        step = 0
        while not state.is_over:
            seat = state.to_act
            obs = state.observation(seat)
            legal = state.legal_actions()
            if step % every == every - 1 and len(legal) > 1:
                out.append(state.clone())
            state.apply(players[seat].choose(obs, legal))
            step += 1
    return out


def _before(record: dict, index: int):
    """The state of `record` just before its action `index`."""
    rec = GameRecord.from_json({"game": record["game"], "seed": record["seed"],
                                "layout": record["layout"],
                                "actions": record["actions"][:index]})
    return rec.state


# -- positions whose best move is known -----------------------------------------------------------
@pytest.mark.parametrize("game_name", GAMES)
def test_it_avoids_the_coachs_costly_moves(game_name):
    """The coach's records (tests/engine/coach_positions.py): at the decision where seat 0's move
    is plainly worse than another legal one, the tree search plays another."""
    path = FOUND.parent / "coach" / f"{game_name}.json"
    record = json.loads(path.read_text(encoding="utf-8"))
    expect = record["expect"]
    state = _before(record, expect["index"])
    game = registry.get(game_name)
    for seed in (1, 2):
        bot = _bot(game_name, seed, bots.TREE_BUDGETS[game_name], clock=lambda: 0.0)
        action = bot.choose(state.observation(state.to_act), state.legal_actions())
        assert game.format_action(action) != expect["played"]


FOUND_GAMES = sorted(p.stem for p in FOUND.glob("*.json"))


@pytest.mark.parametrize("game_name", FOUND_GAMES)
def test_where_the_determinized_search_picks_wrong_the_tree_search_does_not(game_name):
    """Positions found by tests/engine/ismcts_positions.py (heuristic deals, late decisions where
    the two searches disagree): the truth — both moves played out by heuristic bots in 400 worlds
    drawn from the deciding seat's observation — favours the tree search's move by far more
    than its interval. Both searches still choose as recorded, with the tests' seed and the
    game's budgets (the shipped normal level; the tree search's default budget).

    Meri (seed 6, trick 8): seat 0 holds the trump Rei PRe and OSu; the declarer, seat 1, last to
    play, holds the native Robai PRo (public, H-12). Kept for trick 9, PRe is caught there by PRo
    for a 5-point combination (H-31, H-32); played now it costs at most 2. The determinized
    search's playouts let seat 1 spend PRo on this trick most of the time, so it keeps PRe; the
    tree searches seat 1's choice from seat 1's own view and plays PRe: −1.00 against −11.33
    points in truth.

    Tractor (seed 36, four cards left): seat 1 attacks with 75 points (80 takes the deal), is
    void in the led hearts and holds KD QD 10D 9D; its partner's QH leads the trick and the last
    seat, void in hearts and clubs, may or may not hold a trump. The determinized search throws
    the 9D (its playouts value the 10D eight points lower); the tree search feeds the 10D to its
    partner's trick: in truth 10D −7.4 against 9D −31.2 (card points + 20 per level). (A close
    call for the tree: at its default budget it plays 10D with seeds 7 and 8 of 7..11, QD with
    two, 9D with one; the determinized search plays 9D with all five. Meri's and Chắn's hold
    for all five seeds of both searches.)

    Chắn (seed 151, 11 stock cards left): seat 3 discards. The determinized search's own values
    favour 6C over the heuristic's 7C too, but by 1.5 standard errors, short of its 2-SE override
    margin, so it keeps 7C; the tree search's values part them clearly (the next seat's replies
    searched from that seat's view) and it discards 6C: in truth 6C +6.54 against 7C +3.03 in
    settlement."""
    record = json.loads((FOUND / f"{game_name}.json").read_text(encoding="utf-8"))
    expect = record["expect"]
    truth = expect["truth"]
    assert truth["ci95"][0] > 0 and truth["best"] > truth["determinized"]
    state = _before(record, expect["index"])
    game = registry.get(game_name)
    det, tree = decisions(game_name, state, SEED)
    assert game.format_action(det) == expect["determinized"]
    assert game.format_action(tree) == expect["best"]


# -- legality ------------------------------------------------------------------------------------
@pytest.mark.parametrize("game_name", GAMES)
def test_every_action_is_legal_over_random_and_heuristic_play(game_name):
    """Seeded random positions (every phase) and positions of heuristic play: the action is
    legal, and the trees' own moves were too (they go through the checked `apply`)."""
    states = positions(game_name, 10, 21) + _heuristic_positions(game_name, 1, 7)[:10]
    for i, state in enumerate(states):
        bot = _bot(game_name, i, TINY)
        action = bot.choose(state.observation(state.to_act), state.legal_actions())
        state.clone().apply(action)  # raises IllegalAction if it is not legal


@pytest.mark.parametrize("game_name", GAMES)
def test_a_whole_deal_with_every_seat_searching(game_name):
    """A deal where every seat is the tree bot (tiny budget) plays to its end."""
    game = registry.get(game_name)
    state = game.new_deal(5)
    players = [_bot(game_name, s, TreeBudget(iterations=12)) for s in range(game.players)]
    while not state.is_over:
        seat = state.to_act
        state.apply(players[seat].choose(state.observation(seat), state.legal_actions()))
    assert game.deal_result(state) is not None


# -- determinism ---------------------------------------------------------------------------------
@pytest.mark.parametrize("game_name", GAMES)
def test_same_seed_same_decision(game_name):
    """Two bots with one seed decide alike, with the same work and the same root values."""
    states = _choice_positions(game_name, 4, 3)
    runs = []
    for _ in range(2):
        bot = _bot(game_name, 9, TINY)
        run = []
        for state in states:
            action = bot.choose(state.observation(state.to_act), state.legal_actions())
            run.append((action, bot.last_playouts, bot.last_worlds, bot.last_weighing))
        runs.append(run)
    assert runs[0] == runs[1]
    assert any(playouts > 1 for _, playouts, _, _ in runs[0])


@pytest.mark.parametrize("game_name", GAMES)
def test_weigh_is_choose_with_the_played_move_added(game_name):
    """The coach's interface: `weigh` decides as `choose` does with the same seed, and an action
    the root's pruning left out (a person's play) is weighed beside the others; one already
    among them is not weighed twice (where these positions' roots prune nothing, only that)."""
    states = _choice_positions(game_name, 12, 8)
    found = []
    for state in states:
        obs, legal = state.observation(state.to_act), state.legal_actions()
        roots = _bot(game_name, 6, TINY).game.root_moves(obs, legal, random.Random(6))
        found.append((obs, legal, roots, [a for a in legal if a not in roots]))
    obs, legal, roots, pruned = max(found, key=lambda f: len(f[3]))
    action = _bot(game_name, 6, TINY).choose(obs, legal)
    plain = _bot(game_name, 6, TINY).weigh(obs, legal, include=(roots[-1],))
    assert plain.chosen == action and len(plain.candidates) == len(roots)
    assert plain.playouts > 0
    if pruned:
        wider = _bot(game_name, 6, TINY).weigh(obs, legal, include=(pruned[0], pruned[0]))
        weighed = [row.action for row in wider.candidates]
        assert pruned[0] in weighed and len(weighed) == len(roots) + 1


@pytest.fixture(scope="module")
def pool2():
    with SearchPool(2) as pool:
        yield pool


@pytest.mark.parametrize("game_name", GAMES)
def test_identical_for_one_and_two_worker_processes(game_name, pool2):
    """The trees are split over the processes, the choice and its root statistics are not: the
    same decision, work and weighing with 1 and 2 searching processes."""
    states = _choice_positions(game_name, 4, 5)

    def run(pool):
        bot = IsmctsBot(make_tree_game(game_name, 4), 4, SPLIT, clock=time.process_time,
                        pool=pool, factory=functools.partial(make_tree_game, game_name, 4))
        out = []
        for state in states:
            action = bot.choose(state.observation(state.to_act), state.legal_actions())
            out.append((action, bot.last_playouts, bot.last_worlds, bot.last_weighing))
        return out

    alone = run(None)
    assert run(pool2) == alone
    assert all(playouts > 0 for _, playouts, _, _ in alone)


def test_a_budget_splits_its_iterations_by_tree_alone():
    budget = TreeBudget(iterations=100, trees=3)
    assert [budget.share(t) for t in range(3)] == [34, 33, 33]
    assert sum(TreeBudget(iterations=7, trees=4).share(t) for t in range(4)) == 7


def test_the_most_visited_move_is_played():
    assert pick([(3, 9.0, 0.0), (5, 1.0, 0.0), (5, 2.0, 0.0)]) == 2
    assert pick([(4, 0.0, 0.0), (4, 0.0, 0.0)]) == 0


# -- observation only ----------------------------------------------------------------------------
@pytest.mark.parametrize("game_name", GAMES)
def test_no_peeking_same_observation_same_decision(game_name):
    """Two states with one observation but different hidden cards (another deal drawn from the
    observation) get the same decision and the same root values."""
    game = make_tree_game(game_name, 2)
    rng = random.Random(3)
    checked = 0
    for state in _choice_positions(game_name, 6, 8) + _heuristic_positions(game_name, 1, 9)[:4]:
        seat = state.to_act
        obs = state.observation(seat)
        try:
            other = game.sample(obs, rng)
        except ValueError:  # rare: skip
            continue
        assert other.observation(seat) == obs
        one, two = _bot(game_name, 9, TINY), _bot(game_name, 9, TINY)
        assert one.choose(obs, state.legal_actions()) == two.choose(
            other.observation(seat), other.legal_actions())
        assert one.last_weighing == two.last_weighing
        checked += 1
    assert checked >= 6


def test_meri_trees_see_hidden_moves_as_the_other_seats_do():
    """Meri: the discard (H-14) and a trump played face down to a plain lead (H-24) are a marker
    for the other seats; the trick's last card turns every card up (the outcome), and the
    opening lead turns up the side cards (H-15)."""
    game = make_tree_game("meri", 1)
    rng = random.Random(2)
    seen = set()
    for d in range(40):
        state = registry.get("meri").new_deal(d)
        while not state.is_over:
            action = state.random_action(rng)
            phase, n, meri = state.phase, state.n_played, state.meri
            number = state.trick_no
            trump = state.tmask >> action & 1 if isinstance(action, int) and action < 75 else 0
            public, outcome = game.play(state, action)
            if phase == "discard":
                assert (public, outcome) == (HIDDEN, None)
                seen.add("discard")
            elif phase == "play" and n == 7:
                assert public == action and outcome == state.tricks[number][1]
                seen.add("turned up")
            elif phase == "play" and n == 0 and number == 0:
                assert outcome == (state.discard,) + state.undealt[1:]
            elif phase == "play" and n and not meri and trump:
                assert (public, outcome) == (FACE_DOWN, None)
                seen.add("face down")
            else:
                assert (public, outcome) == (action, None)
    assert seen == {"discard", "turned up", "face down"}


def test_tractor_trees_hide_the_burial():
    game = make_tree_game("tractor", 1)
    rng = random.Random(4)
    state = registry.get("tractor").new_deal(3)
    while state.phase != "bury":
        state.apply(state.random_action(rng))
    action = state.random_action(rng)
    assert game.play(state, action) == (HIDDEN, None)
    lead = state.random_action(rng)
    assert game.play(state, lead) == (lead, None)


def test_chan_trees_never_see_another_seats_declined_offer():
    """A declined claim offer (not in any other seat's observation) advances no other tree; a
    stock card revealed is a public outcome."""
    from engine.chan.legal import OFFERS, PASS
    game = make_tree_game("chan", 1)
    rng = random.Random(6)
    declined = revealed = 0
    for d in range(60):
        state = registry.get("chan").new_deal(d)
        while not state.is_over:
            action = state.random_action(rng)
            offer = state._phase in OFFERS
            sp = state.sp
            public, outcome = game.play(state, action)
            if offer and action == PASS:
                assert public is None
                declined += 1
            else:
                assert public == action
            assert outcome == (tuple(state.stock[sp:state.sp]) or None)
            revealed += outcome is not None
    assert declined > 0 and revealed > 0


# -- the safety net ------------------------------------------------------------------------------
class StepClock:
    """A fake clock that advances `step` seconds every time it is read."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


@pytest.mark.parametrize("game_name", GAMES)
def test_the_safety_net_cuts_a_decision_legally_and_says_so(game_name, monkeypatch, caplog):
    monkeypatch.setattr(search, "SAFETY", SafetyLog(interval=3600.0))
    monkeypatch.setattr("engine.ai.ismcts.SAFETY", search.SAFETY)
    caplog.set_level(logging.WARNING, logger="engine.ai.search")
    state = _choice_positions(game_name, 1, 17)[0]
    bot = _bot(game_name, 1, TreeBudget(iterations=10_000, seconds=1.5), clock=StepClock(1.0))
    action = bot.choose(state.observation(state.to_act), state.legal_actions())
    state.clone().apply(action)
    assert bot.last_cut and bot.last_playouts < 10
    assert sum(r.name == "engine.ai.search" for r in caplog.records) == 1


@pytest.mark.parametrize("game_name", GAMES)
def test_a_still_clock_runs_the_whole_budget(game_name):
    """Without the safety net (a clock that never moves) a tree runs its iterations, or stops
    early only once the most visited move cannot be overtaken."""
    state = _choice_positions(game_name, 1, 19)[0]
    obs = state.observation(state.to_act)
    game = make_tree_game(game_name, 1)
    game.prepare(obs)
    cands = game.root_moves(obs, state.legal_actions(), random.Random(1))
    stats, done, worlds, cut = grow(game, obs, cands, random.Random(2), 64, stop_early=False,
                                    clock=lambda: 0.0, deadline=0.0)
    assert done == 64 and not cut and worlds == 64
    assert sum(n for n, _, _ in stats) <= 64  # (an iteration without a world adds no visit)
    assert sum(n for n, _, _ in stats) >= 60


# -- the kind ------------------------------------------------------------------------------------
@pytest.mark.parametrize("game_name", GAMES)
def test_the_ismcts_kind_is_the_tree_bot_and_no_level_uses_it(game_name):
    bot = bots.make_bot(game_name, "ismcts", 1)
    assert isinstance(bot, IsmctsBot) and bot.budget == bots.TREE_BUDGETS[game_name]
    sized = bots.make_bot(game_name, "ismcts:37", 1)
    assert isinstance(sized, IsmctsBot) and sized.budget == dataclasses.replace(
        bots.TREE_BUDGETS[game_name], iterations=37)
    for level in bots.LEVELS:
        assert not isinstance(bots.make_bot(game_name, level, 1), IsmctsBot)


def test_kind_names():
    assert is_kind("ismcts") and is_kind("ismcts:800") and tree_iterations("ismcts:800") == 800
    for name in ("ismcts:", "ismcts:0", "ismcts:x", "mcts:5", "ismcts:-3"):
        assert not is_kind(name)
