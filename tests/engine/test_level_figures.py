"""The measured figures of the AI levels (`engine.ai.level_figures`): one per level and game,
each interval holding its mean, and the README quoting every one of them with its command."""

from __future__ import annotations

from pathlib import Path

from engine import registry
from engine.ai.kinds import LEVELS
from engine.ai.level_figures import FIGURES, LEVELS_UP, POINTS, WINS, figures

README = Path(__file__).resolve().parents[2] / "README.md"
UNITS = {"meri": POINTS, "tractor": LEVELS_UP, "chan": WINS}


def test_every_level_has_a_figure_for_every_game() -> None:
    assert set(FIGURES) == set(LEVELS)
    for level in LEVELS:
        assert set(figures(level)) == set(registry.names()), level


def test_each_figure_is_consistent() -> None:
    for level, by_game in FIGURES.items():
        opponents = {figure.opponent for figure in by_game.values()}
        assert opponents == {"normal" if level == "hard" else "heuristic"}, level
        for game, figure in by_game.items():
            where = f"{level} {game}"
            assert figure.low <= figure.mean <= figure.high, where
            assert figure.deals > 0, where
            assert figure.unit == UNITS[game], where
            assert f"arena {game} --a {level} --b {figure.opponent} " in figure.command, where
            assert "--seed 1" in figure.command, where


def test_level_with_reads_the_interval_against_par() -> None:
    assert FIGURES["hard"]["chan"].level_with  # 25.6 % [24.3, 26.9], par 25 %: not stronger
    assert not FIGURES["normal"]["chan"].level_with
    assert not FIGURES["hard"]["meri"].level_with  # its interval above 0
    assert FIGURES["easy"]["meri"].mean < 0 and not FIGURES["easy"]["meri"].level_with


def test_the_readme_quotes_every_figure_and_its_command() -> None:
    text = README.read_text(encoding="utf-8")
    for level, by_game in FIGURES.items():
        for game, figure in by_game.items():
            assert figure.summary() in text, f"{level} {game}: {figure.summary()}"
            assert figure.command in text, f"{level} {game}: {figure.command}"
