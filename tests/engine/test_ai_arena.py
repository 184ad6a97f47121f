"""The duplicate-deal arena (engine/ai/tools/arena.py): statistics, seatings, jobs, JSON.

A tiny toy game (registered under `toy-arena`) keeps these tests independent of the real games:
four seats in two teams each play one of their three cards; a team scores the sum it played.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing.process
import random

import pytest

from engine import cli, registry
from engine.ai import bots
from engine.ai.search import Budget
from engine.ai.tools import arena, arena_paired


class ToyState:
    def __init__(self, hands: list[list[int]]) -> None:
        self.hands = hands
        self.played: list[int] = []

    @property
    def to_act(self) -> int | None:
        return None if self.is_over else len(self.played)

    @property
    def is_over(self) -> bool:
        return len(self.played) == 4

    def legal_actions(self) -> list[int]:
        return list(self.hands[len(self.played)])

    def observation(self, seat: int) -> tuple:
        return (seat, tuple(self.hands[seat]), tuple(self.played))

    def apply(self, action: int) -> None:
        assert action in self.hands[len(self.played)]
        self.played.append(action)


class MaxBot:
    name = "heuristic"

    def choose(self, observation, legal):
        return max(legal)


class ToyGame:
    name = "toy-arena"
    players = 4

    def new_deal(self, seed: int) -> ToyState:
        rng = random.Random(seed)
        return ToyState([[rng.randrange(10) for _ in range(3)] for _ in range(4)])

    def arena_seatings(self):
        return [frozenset({0, 2}), frozenset({1, 3})]

    def arena_metrics(self, state: ToyState, a_seats) -> dict[str, float]:
        a = sum(c for s, c in enumerate(state.played) if s in a_seats)
        b = sum(c for s, c in enumerate(state.played) if s not in a_seats)
        return {"points": a - b, "a_won": float(a > b)}


@pytest.fixture(scope="module", autouse=True)
def toy_game():
    registry.register(ToyGame())
    none = Budget(playouts=1, max_worlds=1)  # the toy game has no search
    bots.PROFILES["toy-arena"] = bots.Profile(heuristic=lambda seed: MaxBot(), adapter=None,
                                              normal=none, hard=none)
    yield
    del bots.PROFILES["toy-arena"]
    registry.unregister("toy-arena")


def _args(**kw) -> argparse.Namespace:
    base = dict(game="toy-arena", a="heuristic", b="random", deals=40, seed=3, jobs=1, json=True)
    base.update(kw)
    return argparse.Namespace(**base)


def test_same_bots_on_duplicate_deals_cancel_exactly():
    """With the same deterministic bot on both sides, every deal's seatings cancel to 0."""
    results, _ = arena.play_deals("toy-arena", "heuristic", "heuristic", 20, 1)
    assert all(r.metrics["points"] == 0.0 for r in results)


def test_better_bot_has_positive_mean_and_ci():
    results, rss = arena.play_deals("toy-arena", "heuristic", "random", 60, 5)
    summary = arena.summarize("toy-arena", "heuristic", "random", results, rss)
    assert summary["metric"] == "points"
    assert summary["ci95"][0] > 0 < summary["mean"]
    assert summary["ci95"][0] <= summary["mean"] <= summary["ci95"][1]
    assert summary["decisions"] == {"a": 240, "b": 240}  # 60 deals x 2 seatings x 2 seats each


def test_jobs_do_not_change_the_result():
    one, _ = arena.play_deals("toy-arena", "heuristic", "random", 9, 7, jobs=1)
    two, _ = arena.play_deals("toy-arena", "heuristic", "random", 9, 7, jobs=2)
    assert [r.index for r in two] == list(range(9))
    assert [r.metrics for r in one] == [r.metrics for r in two]


def test_workers_finish_on_their_own(monkeypatch):
    """The pool is closed and joined, never terminated: a worker that inherited a SIGTERM
    handler (SDL installs one once a Kivy window exists in the parent, as in this test run)
    would survive SIGTERM and leave the arena waiting for it forever."""
    killed = []
    monkeypatch.setattr(multiprocessing.process.BaseProcess, "terminate",
                        lambda self: killed.append(self.pid))
    results, _ = arena.play_deals("toy-arena", "heuristic", "random", 6, 7, jobs=2)
    assert [r.index for r in results] == list(range(6))
    assert killed == []


def test_json_output_keys(capsys):
    assert arena.run_arena(_args()) == 0
    out = json.loads(capsys.readouterr().out)
    for key in ("game", "deals", "a", "b", "metric", "mean", "ci95", "decision_ms", "peak_rss_mb"):
        assert key in out
    assert set(out["decision_ms"]["a"]) == {"p50", "p95", "max"}
    assert out["deals"] == 40 and out["peak_rss_mb"] > 0


def test_text_report_and_bad_bot(capsys):
    assert arena.run_arena(_args(json=False, deals=5)) == 0
    text = capsys.readouterr().out
    assert "points" in text and "p95" in text and "peak RSS" in text
    assert arena.run_arena(_args(a="genius")) == 2
    assert "unknown bot" in capsys.readouterr().err


def test_deal_log_is_written_as_deals_finish_and_resumes(tmp_path, capsys):
    """`--out`: every deal is one line of the log; the same run again plays only the deals the
    log lacks and reports the same figures as one uninterrupted run."""
    log = tmp_path / "run.jsonl"
    assert arena.run_arena(_args(deals=4, out=str(log), summary=False)) == 0
    lines = log.read_text().splitlines()
    assert json.loads(lines[0]) == {"arena": 1, "game": "toy-arena", "a": "heuristic",
                                    "b": "random", "seed": 3}
    assert sorted(json.loads(line)["index"] for line in lines[1:]) == [0, 1, 2, 3]
    capsys.readouterr()
    assert arena.run_arena(_args(deals=9, jobs=2, out=str(log), summary=False)) == 0
    resumed = json.loads(capsys.readouterr().out)
    assert len(log.read_text().splitlines()) == 1 + 9  # deals 0-3 were not played again
    assert arena.run_arena(_args(deals=9)) == 0
    whole = json.loads(capsys.readouterr().out)
    assert (resumed["mean"], resumed["ci95"], resumed["deals"]) == (
        whole["mean"], whole["ci95"], whole["deals"])


def test_summary_reports_a_log_cut_short(tmp_path, capsys):
    """A run cut off mid-line: `--summary` reports the whole deals logged and drops the cut line."""
    log = tmp_path / "run.jsonl"
    assert arena.run_arena(_args(deals=3, out=str(log), summary=False)) == 0
    log.write_bytes(log.read_bytes() + b'{"index": 7, "metr')
    capsys.readouterr()
    assert arena.run_arena(_args(deals=10, out=str(log), summary=True)) == 0
    assert json.loads(capsys.readouterr().out)["deals"] == 3
    assert log.read_bytes().endswith(b"}\n")


def test_deal_log_of_another_run_or_file_is_refused_untouched(tmp_path, capsys):
    other = tmp_path / "other.jsonl"
    assert arena.run_arena(_args(deals=2, out=str(other), summary=False)) == 0
    before = other.read_bytes()
    assert arena.run_arena(_args(deals=2, seed=4, out=str(other), summary=False)) == 2
    assert "log of another run" in capsys.readouterr().err
    assert other.read_bytes() == before
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    assert arena.run_arena(_args(deals=2, out=str(notes), summary=False)) == 2
    assert "not an arena log" in capsys.readouterr().err
    assert notes.read_text() == "my notes\n"
    assert arena.run_arena(_args(deals=2, out=str(tmp_path / "none.jsonl"), summary=True)) == 2
    assert "holds no deal" in capsys.readouterr().err
    assert not (tmp_path / "none.jsonl").exists()


def test_summary_needs_a_log(capsys):
    assert arena.run_arena(_args(summary=True)) == 2
    assert "--out" in capsys.readouterr().err


def _log(tmp_path, name: str, a: str, deals: int, seed: int = 3, b: str = "random"):
    path = tmp_path / name
    assert arena.run_arena(_args(a=a, b=b, deals=deals, seed=seed, out=str(path),
                                 summary=False)) == 0
    return path


def test_paired_logs_compare_deal_by_deal(tmp_path, capsys):
    """`--paired X Y`: only the deals both logs hold, X − Y per deal with its CI, read only (a
    line still being written is left out and left in place)."""
    x = _log(tmp_path, "x.jsonl", "heuristic", 12)
    y = _log(tmp_path, "y.jsonl", "random", 9)
    y.write_bytes(y.read_bytes() + b'{"index": 9, "metr')
    before = (x.read_bytes(), y.read_bytes())
    capsys.readouterr()
    assert arena_paired.run_paired(str(x), str(y), as_json=True) == 0
    out = json.loads(capsys.readouterr().out)
    assert (x.read_bytes(), y.read_bytes()) == before
    xs = {d["index"]: d["metrics"]["points"] for d in map(json.loads, x.read_text().splitlines()[1:])}
    ys = {d["index"]: d["metrics"]["points"]
          for d in map(json.loads, y.read_text().splitlines()[1:10])}
    assert out["deals"] == 9 and (out["game"], out["seed"], out["b"]) == ("toy-arena", 3, "random")
    diffs = [xs[i] - ys[i] for i in range(9)]
    fig = out["metrics"]["points"]
    assert fig["diff"]["mean"] == pytest.approx(sum(diffs) / 9, abs=1e-4)
    assert fig["x"]["mean"] == pytest.approx(sum(xs[i] for i in range(9)) / 9, abs=1e-4)
    assert fig["deals_differing"] == sum(1 for d in diffs if d)
    assert fig["diff"]["ci95"][0] > 0  # the heuristic beats random, deal by deal
    assert set(out["decision_ms"]["x"]) == {"p50", "p95", "max"}
    assert arena_paired.run_paired(str(x), str(x), as_json=False) == 0
    text = capsys.readouterr().out
    assert "X − Y +0.000" in text and "differs in 0 of 12 deals" in text


def test_paired_refuses_logs_of_other_deals(tmp_path, capsys):
    x = _log(tmp_path, "x.jsonl", "heuristic", 3)
    other_seed = _log(tmp_path, "s.jsonl", "heuristic", 3, seed=4)
    other_b = _log(tmp_path, "b.jsonl", "random", 3, b="heuristic")
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    for path, words in ((other_seed, "seed 3 against 4"), (other_b, "b 'random' against"),
                        (notes, "is not an arena log"), (tmp_path / "none.jsonl", "does not exist")):
        assert arena_paired.run_paired(str(x), str(path), as_json=False) == 2
        err = capsys.readouterr().err
        assert words in err and "--out" not in err
    assert notes.read_text() == "my notes\n" and not (tmp_path / "none.jsonl").exists()


def test_paired_takes_no_match_options(capsys):
    parser = cli.build_parser()
    for extra in (["meri"], ["--a", "normal"], ["--levels"], ["--out", "x.jsonl"]):
        args = parser.parse_args(["arena", "--paired", "x.jsonl", "y.jsonl", *extra])
        assert args.func(args) == 2
        assert "--paired compares two deal logs" in capsys.readouterr().err
