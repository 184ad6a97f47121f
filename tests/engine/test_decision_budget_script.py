"""scripts/decision_budget.py: today's p95 read at the sizing day's machine speed, and its
refusals (the measuring itself is a benchmark, run by hand)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "decision_budget.py"


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("decision_budget", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_p95_is_divided_by_the_machines_slowdown_and_read_against_its_levels_budget() -> None:
    budget = load()
    assert budget.at_sizing_speed(600.0, 2.5) == 240.0
    assert budget.row("meri", "normal", 500.0, 2.5).endswith("within")  # 200 ms <= 230 ms
    assert budget.row("meri", "normal", 600.0, 2.5).endswith("OVER")  # 240 ms > 230 ms
    assert budget.row("tractor", "hard", 1300.0, 2.5).endswith("within")  # 520 ms <= 550 ms
    assert budget.row("tractor", "hard", 1300.0, 1.0).endswith("OVER")


def test_every_game_has_its_sizing_rate_and_every_searching_level_its_budget() -> None:
    from engine import registry

    budget = load()
    assert set(budget.SIZING_RATE) == set(registry.names())
    assert set(budget.BUDGET_S) == {"normal", "hard"}


@pytest.mark.parametrize("argv", [["go"], ["--levels", "easy"], ["--deals", "0"],
                                  ["--seconds", "0"]])
def test_unknown_games_levels_and_empty_runs_are_refused_before_measuring(
        argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        load().main(argv)
    assert stop.value.code == 2
    assert "error:" in capsys.readouterr().err


def test_a_machine_whose_speed_moved_during_the_run_is_noted() -> None:
    budget = load()
    assert not budget.moved(2.0, 2.2)  # 10 %
    assert budget.moved(2.0, 2.4) and budget.moved(2.4, 2.0)  # 20 %
