"""The truth teacher of expert iteration (engine/ai/tools/truth.py; issue 32).

Acceptance: a move's value is the seat's figure after the true deal is played on by the
heuristic (Chắn: its settlement, S-5; averaged over re-drawn stocks, the hands kept); every move
of a decision is valued on the same re-draws; a game without chance left plays each move out
once; the label `imitate` keeps is the best value's move, and the samples file records the
re-draws; the same seed gives the same labels. Tiny runs; nothing timed.
"""

from __future__ import annotations

import json

from engine.ai.tools import imitate, policy_fit
from engine.ai.tools.chan_selfplay import finish, heuristic_decisions
from engine.ai.tools.truth import TruthTeacher


def _chan_decision(skip: int):
    """The `skip`-th Chắn decision with at least three legal moves in heuristic self-play."""
    seen = 0
    for state, actor, _obs, legal in heuristic_decisions(3, 7):
        if len(legal) >= 3:
            if seen == skip:
                return state.clone(), actor, list(legal)
            seen += 1
    raise AssertionError("no such decision")


def test_a_chan_moves_value_is_its_settlement_after_heuristic_play_on_the_true_hands():
    """C-/S-5: one re-draw valued by hand — the same stock order, the move, heuristic play to
    the end, the seat's settlement."""
    state, seat, legal = _chan_decision(2)
    teacher = TruthTeacher("chan", 11, worlds=1)
    values = teacher.values(state, seat, legal)
    again = TruthTeacher("chan", 11, worlds=1)
    world = again.redraw(state, again.rng)
    # the re-draw keeps every hand and the cards already drawn, and only reorders the rest
    assert world.stock[:state.sp] == state.stock[:state.sp]
    assert sorted(world.stock[state.sp:]) == sorted(state.stock[state.sp:])
    for move, value in zip(legal, values, strict=True):
        trial = world.clone()
        trial.apply(move)
        finish(trial)
        assert value == trial.result["settlement"][seat]


def test_values_average_the_redraws_and_repeat_by_seed():
    state, seat, legal = _chan_decision(4)
    four = TruthTeacher("chan", 3, worlds=4).values(state, seat, legal)
    assert four == TruthTeacher("chan", 3, worlds=4).values(state, seat, legal)
    singles = []
    teacher = TruthTeacher("chan", 3, worlds=4)
    for _ in range(4):  # the same four re-draws, one at a time
        world = teacher.redraw(state, teacher.rng)
        row = []
        for move in legal:
            trial = world.clone()
            trial.apply(move)
            finish(trial)
            row.append(trial.result["settlement"][seat])
        singles.append(row)
    assert four == [sum(col) / 4 for col in zip(*singles, strict=True)]


def test_a_game_dealt_whole_at_the_start_plays_each_move_out_once():
    assert TruthTeacher("meri", 1, worlds=8).worlds == 1
    assert TruthTeacher("tractor", 1, worlds=8).worlds == 1
    assert TruthTeacher("chan", 1, worlds=8).worlds == 8


def test_imitate_labels_the_best_valued_move_and_records_the_redraws(tmp_path):
    path = tmp_path / "truth.jsonl"
    per_deal = imitate.collect("meri", "truth", "heuristic", 2, 2, 3, 1, path, worlds=2)
    positions = [p for deal in per_deal for p in deal]
    assert positions
    for rows, label, played, values in positions:
        assert None not in values and len(values) == len(rows)
        assert values[label] == max(values) and 0 <= played < len(rows)
    header = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
    assert header["teacher"] == "truth" and header["worlds"] == 2
    assert imitate.collect("meri", "truth", "heuristic", 2, 2, 3, 1, path, worlds=2) == per_deal


def test_the_command_takes_truth_as_a_teacher_and_no_other_unknown_kind(tmp_path, capsys):
    out = tmp_path / "meri-policy.json"
    assert imitate.main(["meri", "--deals", "3", "--teacher", "truth", "--every", "4",
                         "--out", str(out)]) == 0
    training = json.loads(out.read_text(encoding="utf-8"))["training"]
    assert training["teacher"] == "truth" and "--teacher truth" in training["command"]
    assert imitate.main(["meri", "--players", "truth"]) == 2
    assert imitate.main(["meri", "--teacher", "truth", "--worlds", "0"]) == 2


def test_regret_is_the_shortfall_of_the_choice_from_the_best_value():
    rows = [[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]]
    positions = [(rows, 0, 2, [3.0, 1.0, 2.0]), (rows, 1, 1, [0.0, 5.0, None])]
    assert policy_fit.regret(positions, None) == 1.0  # played: move 2, 3 − 2; the other skipped
    assert policy_fit.regret(positions, [0.0, 2.0]) == 2.0  # the policy's best: move 1, 3 − 1
    assert policy_fit.regret(positions[1:], None) is None
