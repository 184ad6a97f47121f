"""Every screen builds at 800×480 landscape and 720×1280 portrait, and no label is cut off in any
of the five languages (issue 6 acceptance). Labels must update on a language switch at runtime."""

from __future__ import annotations

from typing import Any

import pytest

from engine.ai.base import RandomBot
from tests.ui.test_button_rows import Opening
from tests.ui.uitools import cut_labels, pump, settle, wait_for
from ui import i18n
from ui.i18n import LANGUAGES
from ui.ports import SPEED_MAX, SPEED_MIN, PowerSettings

pytestmark = pytest.mark.ui

SIZES = [(800, 480), (720, 1280)]
PLAIN_SCREENS = ["home", "settings", "controls", "stats", "rules", "exit", "power", "phones"]


def finish_deal_with_bots(app: Any) -> None:
    """Play the current deal to its end directly on the session, then let the table see it."""
    table = app.root.get_screen("meri")
    table.driver.invalidate()
    session = app.session
    bot = RandomBot(3)
    while not session.state.is_over:
        state = session.state
        seat = state.to_act
        session.apply(bot.choose(state.observation(seat), state.legal_actions()))
    table._tricks_seen = len(session.state.observation(0).tricks)
    table.holding = False
    table.step()
    pump(3)


@pytest.mark.parametrize("size", SIZES, ids=["landscape", "portrait"])
def test_every_screen_fits_in_every_language(make_app: Any, size: tuple[int, int]) -> None:
    app = make_app(size=size, pace=0, power=PowerSettings(enabled=True))  # its entries shown
    app.services.phone_network = Opening()  # beside the Phones switch: "Opening the network…"
    app.set_phones(True)
    app.new_game("meri")
    table = app.root.get_screen("meri")
    wait_for(lambda: app.session.state.to_act == 0 and table.prompt != "", what="human turn")
    problems = []
    for lang in LANGUAGES:
        app.set_language(lang)
        for name in PLAIN_SCREENS + ["meri"]:
            app.root.current = name
            if name == "rules":
                for game in ("meri", "tractor", "chan"):
                    app.root.get_screen("rules").game = game
                    settle()
                    problems += [f"{lang} {size} rules/{game}: {p}" for p in cut_labels(app.root)]
                continue
            settle()
            assert app.root.current_screen.width == size[0]
            problems += [f"{lang} {size} {name}: {p}" for p in cut_labels(app.root)]
    app.root.current = "meri"
    finish_deal_with_bots(app)
    assert table.summary_open
    for lang in LANGUAGES:
        app.set_language(lang)
        settle()
        problems += [f"{lang} {size} summary: {p}" for p in cut_labels(app.root)]
    assert not problems, "\n".join(problems)


def test_language_switch_updates_labels_without_restart(make_app: Any) -> None:
    app = make_app()
    home = app.root.get_screen("home")
    button = home.ids.play_meri
    assert button.text == "Play"
    app.set_language("vi")
    pump(2)
    assert button.text == "Chơi"
    app.set_language("nl")
    pump(2)
    assert button.text == "Spelen"
    assert app.services.store.get_setting("language") == "nl"


def test_language_switch_updates_table_texts(make_app: Any) -> None:
    """Texts the table builds in Python (deal number, seat names) follow the switch too."""
    app = make_app(pace=0)
    app.new_game("meri")
    table = app.root.get_screen("meri")
    pump(3)
    assert table.deal_text == "Deal 1 of 8"
    app.set_language("fr")
    pump(2)
    assert table.deal_text == "Donne 1 sur 8"
    assert table.badges[0].name == "Vous"


def test_settings_are_stored(make_app: Any) -> None:
    app = make_app()
    app.set_ai_level("hard")
    app.change_speed(+0.25)
    app.set_sound(False)
    store = app.services.store
    assert store.get_setting("ai_level") == "hard"
    assert store.get_setting("animation_speed") == 1.25
    assert store.get_setting("sound") is False
    with pytest.raises(ValueError, match="unknown AI level"):
        app.set_ai_level("genius")
    for _ in range(20):
        app.change_speed(+0.25)
    assert app.animation_speed == SPEED_MAX  # clamped to the range the config schema allows
    for _ in range(20):
        app.change_speed(-0.25)
    assert app.animation_speed == SPEED_MIN


def test_settings_offer_every_language_and_level(make_app: Any) -> None:
    """The choice buttons come from the owners' lists: one per language and per AI level."""
    from engine.ai.bots import LEVELS
    from ui.screens.settings import LEVEL_LABELS

    assert tuple(LEVEL_LABELS) == LEVELS
    app = make_app()
    app.go("settings")
    pump(2)
    screen = app.root.get_screen("settings")
    assert [screen.ids[f"lang_{code}"].text for code in LANGUAGES] == list(LANGUAGES.values())
    assert [screen.ids[f"level_{level}"].text for level in LEVELS] == ["Easy", "Normal", "Hard"]
    screen.ids.level_hard.dispatch("on_release")
    assert app.ai_level == "hard" and app.services.store.get_setting("ai_level") == "hard"
    assert [screen.ids[f"level_{level}"].selected for level in LEVELS] == [False, False, True]
    screen.ids.lang_fr.dispatch("on_release")
    pump(1)
    assert app.lang == "fr" and screen.ids.lang_fr.selected and not screen.ids.lang_en.selected
    assert [screen.ids[f"level_{level}"].text for level in LEVELS] == [
        i18n.tr(LEVEL_LABELS[level]) for level in LEVELS]
    assert screen.ids.level_easy.text != "Easy"  # translated


def test_statistics_screen_shows_the_store(make_app: Any) -> None:
    from ui.ports import MemoryStore

    store = MemoryStore()
    store.record_deal("meri", "win", 7)
    store.record_deal("meri", "loss", 2)
    app = make_app(store=store)
    app.go("stats")
    pump(2)
    rows = app.root.get_screen("stats").rows
    assert rows[0] == ["Hachinin Meri", "2", "1", "1", "0", "9"]
