"""Settings describe the chosen AI level (issue 32): under the level row, what the level does in
a sentence and what it measured in each game, its figures `engine.ai.level_figures`'s. The words
follow the level and the language at once, fit at 800×480 and 720×1280 in every language, and
the focus never stops on them."""

from __future__ import annotations

from typing import Any

import pytest
from kivy.metrics import sp

from engine import registry
from engine.ai.kinds import LEVELS
from engine.ai.level_figures import FIGURES, LevelFigure
from tests.ui.tablesim import focus_on
from tests.ui.uitools import cut_labels, pump, settle, tap
from ui import i18n
from ui.i18n import LANGUAGES
from ui.screens.settings import LEVEL_DOES, shown_decimals

pytestmark = pytest.mark.ui


def open_settings(make_app: Any, **options: Any) -> tuple[Any, Any]:
    app = make_app(**options)
    app.go("settings")
    settle()
    return app, app.root.get_screen("settings")


def shown(figure: LevelFigure) -> str:
    """The figure's number as the current language writes it on the screen."""
    return i18n.number(figure.mean, shown_decimals(figure), signed=figure.unit != "win %")


def test_each_level_is_described_by_its_sentence_and_its_figures(make_app: Any) -> None:
    assert tuple(LEVEL_DOES) == LEVELS
    app, settings = open_settings(make_app)
    seen = set()
    for level in LEVELS:
        tap(settings.ids[f"level_{level}"])
        pump(2)
        assert app.ai_level == level
        does, figures = settings.ids.level_does.text, settings.ids.level_figures.text
        assert does == LEVEL_DOES[level] and figures
        for game, figure in FIGURES[level].items():
            assert registry.title(game) in figures.replace("\u00a0", " ")
            assert shown(figure) in figures, (level, game, figures)
        seen.add((does, figures))
    assert len(seen) == len(LEVELS)  # each level its own words


def test_the_figures_read_as_a_player_reads_them(make_app: Any) -> None:
    app, settings = open_settings(make_app)
    app.set_ai_level("normal")
    pump(2)
    text = settings.ids.level_figures.text.replace("\u00a0", " ")
    assert text == ("Against the rules of thumb: Hachinin Meri +1.9 points a deal · "
                    "Tractor +0.46 levels a deal · Chắn wins 27 % (par 25 %)")
    app.set_ai_level("hard")
    pump(2)
    text = settings.ids.level_figures.text.replace("\u00a0", " ")
    assert text == ("Against Normal: Hachinin Meri +0.3 points a deal · Tractor +0.06 levels a "
                    "deal · Chắn about even (wins 26 %, par 25 %)")  # not stronger: said so
    app.set_ai_level("easy")
    pump(2)
    assert "Hachinin Meri −0.15 points a deal" in settings.ids.level_figures.text.replace(
        "\u00a0", " ")


def test_the_description_follows_a_language_switch(make_app: Any) -> None:
    app, settings = open_settings(make_app)
    app.set_ai_level("normal")
    pump(2)
    english = settings.ids.level_does.text, settings.ids.level_figures.text
    app.set_language("vi")
    pump(2)
    try:
        does, figures = settings.ids.level_does.text, settings.ids.level_figures.text
        assert does != english[0] and figures != english[1]
        assert does == i18n.tr(LEVEL_DOES["normal"])
        assert "+1,9\u00a0điểm\u00a0mỗi\u00a0ván" in figures  # Meri's figure, a decimal comma
        assert "0,46" in figures and "27\u00a0%" in figures
        app.set_ai_level("hard")  # and the level, in Vietnamese
        pump(2)
        assert settings.ids.level_does.text == i18n.tr(LEVEL_DOES["hard"]) != LEVEL_DOES["hard"]
        assert "ngang\u00a0ngửa" in settings.ids.level_figures.text
    finally:
        app.set_language("en")


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)], ids=["landscape", "portrait"])
def test_the_description_fits_under_the_row_and_the_rest_scrolls(make_app: Any,
                                                                  size: tuple[int, int]) -> None:
    """Every level in every language: legible type, nothing cut, nothing overlapping the level
    row above or the lengths heading below; the last row still reached by scrolling."""
    app, settings = open_settings(make_app, size=size)
    about, row = settings.ids.level_about, settings.ids.levels
    problems = []
    try:
        for lang in LANGUAGES:
            app.set_language(lang)
            for level in LEVELS:
                app.set_ai_level(level)
                settle()
                where = f"{lang} {level}"
                for label in (settings.ids.level_does, settings.ids.level_figures):
                    assert label.font_size >= sp(15), where
                    assert label.height >= label.texture_size[1] > 0, where
                    assert about.y <= label.y and label.top <= about.top + 1, where
                    assert label.x >= row.children[-1].right, where  # under the buttons
                assert about.top <= row.y + 1, where
                below = about.parent.children[about.parent.children.index(about) - 1]
                assert below.top <= about.y + 1, where
                problems += [f"{where}: {p}" for p in cut_labels(about)]
    finally:
        app.set_language("en")
    assert not problems, "\n".join(problems)
    settle()
    scroller = settings.ids.scroller
    scroller.scroll_y = 0
    settle()
    last = settings.ids.controls_button
    top = scroller.to_window(scroller.x, scroller.top)[1]
    assert last.to_window(last.x, last.y)[1] >= scroller.to_window(scroller.x, scroller.y)[1] - 1
    assert last.to_window(last.x, last.top)[1] <= top + 1


def test_the_focus_goes_from_the_level_row_to_the_lengths(make_app: Any) -> None:
    """DOWN from a level button lands on a match length: the words between take no focus."""
    app, settings = open_settings(make_app)
    focus_on(app, settings, settings.ids.level_normal)
    app.handle_input("DOWN")
    pump(2)
    lengths = [settings.ids[f"deals_meri_{n}"] for n in registry.lengths("meri")]
    assert any(settings.focused_widget is button for button in lengths)
    app.handle_input("UP")
    pump(2)
    assert any(settings.focused_widget is settings.ids[f"level_{lv}"] for lv in LEVELS)
