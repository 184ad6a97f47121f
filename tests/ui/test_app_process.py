"""Whole-app runs in their own processes (platform.md): `ParlorApp.run()` reaches the home screen,
Esc does not quit, events posted from another thread arrive; bots answer from a child process."""

from __future__ import annotations

import os
import time
from typing import Any

import pytest

from engine import registry
from scripts.bench.ui_bench import run_child
from ui.table.botproc import BotProcess

pytestmark = pytest.mark.ui


def test_app_runs_to_home_and_stops_cleanly() -> None:
    figures = run_child("startup")
    assert figures["esc_consumed"] is True
    assert figures["still_running"] is True  # Esc was BACK, not quit
    assert figures["input_log"][:1] == ["RIGHT"]  # posted from a thread, handled on Kivy's
    assert figures["startup_s"] > 0 and figures["rss_home_mb"] > 0


def test_the_baseline_is_an_empty_kivy_app_in_a_process_of_its_own() -> None:
    figures = run_child("baseline", size="320x200")
    assert figures["mode"] == "baseline" and figures["startup_s"] > 0
    assert figures["peak_mb"] >= figures["peak_first_frame_mb"] > 0  # VmHWM never goes down


def test_bot_process_answers_legal_actions_and_ends_with_its_pipe() -> None:
    game = registry.get("meri")
    state = game.new_deal(3)
    process = BotProcess("meri", {seat: ("heuristic", seat) for seat in range(8)})
    try:
        for _ in range(12):
            seat = state.to_act
            action = process.choose(seat, state.observation(seat), state.legal_actions())
            assert action in state.legal_actions()
            state.apply(action)
        assert process.answered == 12
        assert process.peak_rss_mb() > 0  # read from outside, while it runs
        child = process._proc
    finally:
        process.close()
    assert child.poll() is not None  # the child is gone once its stdin closed


def test_bot_process_takes_every_tractor_decision_lazy_sets_included() -> None:
    """Tractor's follows and burial come as lazy legal sets: the bot process decides them too
    (no search runs in the app's process), exactly as the same bots in this process would."""
    from engine.ai.bots import make_bot

    game = registry.get("tractor")
    specs = {seat: ("heuristic", 7 + seat) for seat in range(game.players)}
    local = {seat: make_bot("tractor", kind, seed) for seat, (kind, seed) in specs.items()}
    state = game.new_deal(4)
    process = BotProcess("tractor", specs)
    lazy = decisions = 0
    try:
        while not state.is_over:
            seat = state.to_act
            legal = state.legal_actions()
            lazy += hasattr(legal, "sample")
            action = process.choose(seat, state.observation(seat), legal)
            assert action == local[seat].choose(state.observation(seat), legal)
            state.apply(action)
            decisions += 1
        assert process.answered == decisions
    finally:
        process.close()
    assert lazy > 20


def _children(pid: int) -> set[int]:
    """The child processes of `pid` (Linux /proc), and theirs."""
    found: set[int] = set()
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children", encoding="ascii") as fh:
                kids = {int(k) for k in fh.read().split()}
        except OSError:
            continue
        for kid in kids:
            found |= {kid} | _children(kid)
    return found


def test_bot_process_with_workers_decides_the_same_and_takes_them_along(monkeypatch) -> None:
    """`[ai] workers = 2`: the bot process's search bots split their worlds over a worker process
    and answer exactly what one process answers; closing the pipe ends the workers too. Without
    the safety net (`PARLOR_SEARCH_CLOCK=off`, inherited by the bot process): on a loaded or
    emulated machine (`make pi-check`) it would cut decisions differently in the two runs."""
    monkeypatch.setenv("PARLOR_SEARCH_CLOCK", "off")
    game = registry.get("meri")
    specs = {seat: ("normal", 40 + seat) for seat in range(game.players)}
    answers = []
    for workers in (1, 2):
        state = game.new_deal(5)
        process = BotProcess("meri", specs, workers)
        try:
            run = []
            for _ in range(16):
                seat = state.to_act
                action = process.choose(seat, state.observation(seat), state.legal_actions())
                run.append(action)
                state.apply(action)
            child = process._proc
            assert child is not None
            descendants = _children(child.pid)
        finally:
            process.close()
        answers.append(run)
        if workers == 2:  # the fork server and the worker it forked (started in the background)
            assert descendants
        for pid in descendants:
            _wait_gone(pid)
    assert answers[0] == answers[1]


def _wait_gone(pid: int, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat", encoding="ascii") as fh:
                if fh.read().split(") ")[-1].startswith("Z"):
                    return  # a zombie: ended, its parent (the fork server) gone before reaping
        except OSError:
            return
        time.sleep(0.05)
    raise AssertionError(f"process {pid} outlived the bot process")


def test_bots_are_built_only_where_they_think(make_app: Any) -> None:
    """With the bot process, the table's own process builds no bot (engine.ai.bots stays out of
    it); without it, a bot is built for a seat only when that seat first has to play."""
    from tests.ui.uitools import wait_for

    app = make_app(pace=0)
    app.bot_process = True
    app.new_game("meri")
    table = app.root.get_screen("meri")
    driver = table.driver
    wait_for(lambda: driver.process is not None and driver.process.answered >= 1,
             seconds=60, what="a decision from the bot process")
    assert driver.bots == {} and not driver.process.failed
    table.shutdown()

    app = make_app(pace=0)
    app.new_game("meri")
    table = app.root.get_screen("meri")
    driver = table.driver
    assert driver.process is None and driver.bots == {}  # nothing built before it is needed
    wait_for(lambda: driver.bots, what="a bot built for its first turn")
    assert set(driver.bots) <= set(driver.specs) and 0 not in driver.bots
