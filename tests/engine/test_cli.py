"""`python -m engine bench|study`: smoke runs on tiny arguments, asserting on the shape of the
printed figures (names, counts, a number on every line), never on how fast anything was."""

from __future__ import annotations

import json
import re

import pytest

from engine import cli, soak
from engine.records import GameRecord

NUMBER = r"-?\d+\.\d+"


def _figures(text: str) -> dict[str, dict[str, float]]:
    """The `title:` blocks of `engine.measure.print_figures`, parsed back: title -> figures."""
    blocks: dict[str, dict[str, float]] = {}
    current: dict[str, float] = {}
    for line in text.splitlines():
        if line.endswith(":") and not line.startswith(" "):
            current = blocks.setdefault(line[:-1], {})
            continue
        match = re.fullmatch(rf"  (\w+) +({NUMBER})", line)
        assert match, f"not a figure line: {line!r}"
        current[match[1]] = float(match[2])
    return blocks


def test_bench_prints_every_figure_of_a_game(capsys):
    assert cli.main(["bench", "meri", "--seconds", "0.05"]) == 0
    blocks = _figures(capsys.readouterr().out)
    assert list(blocks) == ["meri (wall clock)"]
    figures = blocks["meri (wall clock)"]
    assert list(figures) == [
        "deals_per_s_public", "deals_per_s_fast", "clone_us", "clone_apply_us",
        "legal_actions_us", "widest_legal", "in_legal_wide_us", "len_legal_wide_us",
        "random_action_wide_us", "listing_1000_us", "traced_peak_kb", "max_rss_mb",
    ]
    assert figures["deals_per_s_public"] > 0 and figures["max_rss_mb"] > 0
    assert figures["widest_legal"] >= 2  # some Meri decision offers a choice


def test_bench_counts_in_cpu_time_when_asked(capsys):
    assert cli.main(["bench", "chan", "--seconds", "0.05", "--clock", "cpu"]) == 0
    assert list(_figures(capsys.readouterr().out)) == ["chan (cpu clock)"]


def test_bench_decision_times_of_a_level(capsys):
    assert cli.main(["bench", "chan", "--decisions", "normal", "--deals", "1"]) == 0
    blocks = _figures(capsys.readouterr().out)
    (title, figures), = blocks.items()
    assert title == "chan decisions: normal at seat 0 vs heuristic bots, 1 deals"
    timing = [f"{clock}_{rank}_ms" for clock in ("cpu", "wall")
              for rank in ("p50", "p95", "p99", "max")]
    work = ["worlds_per_s", "playouts_per_s", "worlds_mean", "safety_cuts"]
    assert list(figures) == ["decisions", *timing, *work, "max_rss_mb", "own_cpu_s"]
    assert figures["decisions"] >= 1 and figures["worlds_per_s"] > 0
    assert figures["playouts_per_s"] >= figures["worlds_per_s"]  # every world plays 2+ moves
    assert figures["wall_p50_ms"] <= figures["wall_p95_ms"] <= figures["wall_max_ms"]


@pytest.mark.parametrize("argv, message", [
    (["bench", "go"], "unknown game 'go'"),
    (["bench", "meri", "--decisions", "genius"], "unknown bot 'genius'"),
    (["bench", "meri", "--decisions", "normal", "--deals", "0"], "--deals must be at least 1"),
    (["study", "meri", "oracle"], "meri has no study 'oracle' (known: soak)"),
    (["study", "chan", "soak", "--deals", "0"], "--deals must be at least 1"),
])
def test_bad_arguments_are_one_line_errors(capsys, argv, message):
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


@pytest.mark.parametrize("game", ["meri", "tractor", "chan"])
def test_soak_checks_every_deal(capsys, game):
    assert cli.main(["study", game, "soak", "--deals", "3"]) == 0
    blocks = _figures(capsys.readouterr().out)
    (title, figures), = blocks.items()
    assert title == f"{game} soak, seed 0: every invariant held"
    assert list(figures) == ["deals", "decisions", "seconds", "deals_per_s", "max_rss_mb"]
    assert figures["deals"] == 3 and figures["decisions"] > 3


def test_soak_stops_at_a_broken_invariant_with_a_replayable_record(capsys, monkeypatch):
    monkeypatch.setitem(soak.INVARIANTS, "meri", lambda state, again: "planted")
    assert cli.main(["study", "meri", "soak", "--deals", "3"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    message, record = captured.err.rstrip("\n").split("; record: ")
    assert message == "soak failed: deal 0: planted"
    replayed = GameRecord.from_json(record)
    assert replayed.game.name == "meri" and replayed.state.is_over


WON = rf"vs 3 heuristic bots: \d+/4 deals won = {NUMBER}% \(95% CI \[{NUMBER}, {NUMBER}\]; par 25%\)"


@pytest.mark.parametrize("argv, pattern", [
    (["oracle"], rf"oracle seat {WON}\n"),
    (["known"], rf"normal search knowing the other hands {WON}\n"),
    (["realism"], r"other seats' unpaired cards, real / sampled share, by discards made:\n"
                  rf"(  \d[+ ] discards \( *\d+ hands\)(  u=\d: {NUMBER}/{NUMBER}){{4}}\n)+"),
    (["overlap", "--worlds", "2"],
     rf"\d+ decisions of seat 0, 2 sampled worlds each:\n"
     rf"  unseen cards dealt blind:  share of the other hands right {NUMBER}\n"
     rf"(  weight [\d.]+ +per mismatch: share of the other hands right {NUMBER}"
     rf"  \(effective worlds {NUMBER}\)\n){{3}}"),
])
def test_chan_study_on_one_deal(capsys, argv, pattern):
    assert cli.main(["study", "chan", *argv, "--deals", "1"]) == 0
    assert re.fullmatch(pattern, capsys.readouterr().out)


def test_arena_output_is_unchanged_by_the_shared_measuring_kit(capsys):
    """The arena takes its decision-time figures from engine/measure.py but keeps its keys."""
    assert cli.main(["arena", "meri", "--a", "heuristic", "--b", "random", "--deals", "2",
                     "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out["decision_ms"]["a"]) == {"p50", "p95", "max"}


def test_bench_decisions_for_each_worker_count(capsys, monkeypatch):
    """`--workers 1,2`: one block per count, the same decisions and work (the search is
    deterministic whatever the count), the second with its worker's peak RSS. (The safety net
    on CPU time: on a heavily loaded machine a wall-clock one may cut a decision.)"""
    monkeypatch.setenv("PARLOR_SEARCH_CLOCK", "cpu")
    assert cli.main(["bench", "meri", "--decisions", "normal", "--deals", "1",
                     "--workers", "1,2"]) == 0
    blocks = _figures(capsys.readouterr().out)
    title = "meri decisions: normal at seat 0 vs heuristic bots, 1 deals"
    one, two = blocks[title], blocks[f"{title}, 2 searching processes"]
    assert "worker_max_rss_mb" not in one and two["worker_max_rss_mb"] > 0
    assert (one["decisions"], one["worlds_mean"]) == (two["decisions"], two["worlds_mean"])


def test_arena_with_workers_plays_the_same_match(capsys, monkeypatch):
    """`arena --workers 2`: the duplicate match's figures are those of one process (the safety
    net on CPU time, as above)."""
    monkeypatch.setenv("PARLOR_SEARCH_CLOCK", "cpu")
    runs = []
    for workers in ("1", "2"):
        assert cli.main(["arena", "chan", "--a", "normal", "--b", "heuristic", "--deals", "1",
                         "--workers", workers, "--json"]) == 0
        runs.append(json.loads(capsys.readouterr().out))
    assert runs[0]["metrics"] == runs[1]["metrics"] and runs[0]["decisions"] == runs[1]["decisions"]


@pytest.mark.parametrize("value", ["0", "many", "1,x"])
def test_bad_worker_counts_are_refused(capsys, value):
    with pytest.raises(SystemExit) as exit_:
        cli.main(["bench", "meri", "--decisions", "normal", "--workers", value])
    assert exit_.value.code == 2
    assert "expected a count of at least 1 or 'auto'" in capsys.readouterr().err
