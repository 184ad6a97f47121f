"""The tables' sound events (issue 20 part 4): a whole deal of each game played on the table, the
events a recording player heard checked against the engine's own record of that deal; the
settings that decide what is heard; the settings screen's sound rows."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from engine.ai.base import RandomBot
from engine.chan.legal import CHIU, DISCARD_BASE, WIN
from engine.meri import DECLARE, is_card
from engine.records import parse_record
from engine.tractor import BURY
from engine.tractor import DECLARE as TRACTOR_DECLARE
from engine.tractor import PASS as TRACTOR_PASS
from engine.tractor.cards import KIND_SUIT
from tests.ui.tablesim import human_turn
from tests.ui.uitools import pump, tap, wait_for
from ui.ports import MemoryStore
from ui.sound import events
from ui.table import summary

pytestmark = pytest.mark.ui


class Recorder:
    """A `Sounds` that records what it was asked to play."""

    def __init__(self) -> None:
        self.played: list[tuple[str, str, float]] = []

    def play(self, name: str, lang: str, volume: float) -> None:
        self.played.append((name, lang, volume))

    def prepare(self) -> None:
        self.prepared = True

    @property
    def names(self) -> list[str]:
        return [name for name, _lang, _volume in self.played]


def play_deal(app: Any, game: str, seed: int = 3) -> Any:
    """Start a new match of `game` and play its first deal to the summary, the human's seat by
    a seeded random bot through the table (`play`), the others by the table's bots."""
    app.new_game(game)
    table = app.root.get_screen(game)
    bot = RandomBot(seed)
    for _ in range(2000):
        wait_for(lambda: table.summary_open or human_turn(table), 120, what="turn or summary")
        if table.summary_open:
            return table
        state = table.session.state
        assert table.play(bot.choose(state.observation(0), state.legal_actions()))
    raise AssertionError("the deal did not end")


def replayed(table: Any) -> tuple[list[tuple[int, Any, Any]], Any]:
    """The deal's actions as the engine replays them: (seat, action, state after), and the
    final state."""
    rec = parse_record(table.session.record.to_dict())
    state = rec.state
    steps = []
    for action in rec.actions:
        seat = state.to_act
        state.apply(action)
        steps.append((seat, action, state.clone()))
    return steps, state


def outcome_sound(table: Any) -> list[str]:
    outcome, _points = summary.deal_outcome(table.deal_result(), 0)
    return list(events.OUTCOME_SOUNDS[outcome])


def test_a_meri_deal_sounds_H21(make_app: Any) -> None:
    """Every card laid, every trick swept, "Meri!" for each trick led with a trump (H-21), a knock
    for a declaration, a chime for each of your decisions, the deal won or lost at the end."""
    sounds = Recorder()
    app = make_app(pace=0, sounds=sounds, seed=8)
    table = play_deal(app, "meri", seed=1)  # a deal with two Meri leads
    steps, final = replayed(table)
    tricks = final.observation(0).tricks
    assert len(tricks) == 9
    expected = Counter({
        events.CARD: sum(1 for _s, a, _st in steps if is_card(a)),
        events.TRICK: 9,
        events.MERI: sum(1 for trick in tricks if trick[3]),
        events.BID: sum(1 for _s, a, _st in steps if a == DECLARE),
        events.TURN: sum(1 for s, _a, _st in steps if s == 0),
    })
    expected.update(outcome_sound(table))
    assert Counter(sounds.names) == +expected and expected[events.MERI] == 2
    for i, name in enumerate(sounds.names):  # the call follows the lead's card
        if name == events.MERI:
            assert sounds.names[i - 1] == events.CARD
    assert sounds.names[-1] in (events.WON, events.LOST, events.TRICK)
    assert {lang for _n, lang, _v in sounds.played} == {"en"}


def test_a_tractor_deal_sounds_T7_T8(make_app: Any) -> None:
    """The deal's level is called as it starts (T-7); each declaration knocks and calls its trump
    (T-8); every play and the burial lay cards; every trick is swept."""
    sounds = Recorder()
    app = make_app(pace=0, sounds=sounds)
    table = play_deal(app, "tractor", seed=5)
    steps, final = replayed(table)
    first = parse_record(table.session.record.to_dict()).state.observation(0)
    declarations = [a for _s, a, _st in steps if a != TRACTOR_PASS and a[0] == TRACTOR_DECLARE]
    assert sounds.names[0] == events.level_call(first.level)
    expected = Counter({
        events.level_call(first.level): 1,
        events.BID: len(declarations),
        events.CARD: sum(1 for _s, a, _st in steps
                         if a != TRACTOR_PASS and a[0] != TRACTOR_DECLARE),
        events.TRICK: len(final.observation(0).tricks),
        events.TURN: sum(1 for s, _a, _st in steps if s == 0),
    })
    for action in declarations:
        expected[events.trump_call(KIND_SUIT[action[1]])] += 1
    expected.update(outcome_sound(table))
    assert Counter(sounds.names) == +expected
    assert 12 <= len(final.observation(0).tricks) <= 25  # pairs and tractors make fewer tricks
    assert sum(1 for _s, a, _st in steps if a != TRACTOR_PASS and a[0] == BURY) == 1
    assert table.deal_cues() == ()  # a finished deal shown again (resumed) calls no level


def test_a_chan_deal_sounds_W1_K1(make_app: Any) -> None:
    """Captures, discards and each stock card revealed (C-11) lay a card; a Chíu claim calls
    "Chíu!" (K-1), a win "Ù!" (W-1)."""
    sounds = Recorder()
    app = make_app(pace=0, sounds=sounds, seed=8)
    table = play_deal(app, "chan", seed=1)  # a deal with two Chíu claims and a win
    steps, final = replayed(table)
    laid = sum(1 for _s, a, _st in steps if a < DISCARD_BASE + 25)  # captures and discards
    expected = Counter({
        events.CARD: laid + len(final.observation(0).revealed),
        events.CHIU: sum(1 for _s, a, _st in steps if a == CHIU),
        events.U: sum(1 for _s, a, _st in steps if a == WIN),
        events.TURN: sum(1 for s, _a, _st in steps if s == 0),
    })
    expected.update(outcome_sound(table))
    assert Counter(sounds.names) == +expected
    assert (expected[events.CHIU], expected[events.U]) == (2, 1)


def test_chan_calls_for_a_win_and_a_chiu_W1_K1(make_app: Any) -> None:
    """Whoever claims: a Chíu calls "Chíu!", a win "Ù!" (not a card sound)."""
    app = make_app(pace=0)
    app.new_game("chan")
    table = app.root.get_screen("chan")
    assert table.action_cues(2, WIN) == (events.U,)
    assert table.action_cues(1, CHIU) == (events.CHIU,)


def test_settings_decide_what_is_heard(make_app: Any) -> None:
    """Effects and voice each switch their part off; the volume is passed on; calls follow the
    app's language; sound off silences everything, the buzzer too."""
    sounds = Recorder()
    app = make_app(pace=0, sounds=sounds)
    app.cue(events.CARD, events.MERI)
    assert sounds.played == [("card", "en", 0.8), ("meri", "en", 0.8)]
    app.set_language("vi")
    app.change_volume(-3)
    app.set_effects(False)
    sounds.played.clear()
    app.cue(events.CARD, events.CHIU, events.TURN)
    assert sounds.played == [("chiu", "vi", 0.5)]
    beeps = app.services.outputs.beeps
    assert beeps == 1  # the buzzer still marks your turn
    app.set_effects(True)
    app.set_voice(False)
    sounds.played.clear()
    app.cue(events.U, events.TRICK)
    assert sounds.played == [("trick", "vi", 0.5)]
    app.set_sound(False)
    sounds.played.clear()
    app.cue(events.TURN, events.CARD)
    assert sounds.played == [] and app.services.outputs.beeps == beeps
    store = app.services.store
    assert (store.get_setting("volume"), store.get_setting("effects"),
            store.get_setting("voice")) == (50, True, False)


def test_volume_stays_within_0_and_100(make_app: Any) -> None:
    app = make_app()
    for _ in range(15):
        app.change_volume(1)
    assert app.volume == 100
    for _ in range(15):
        app.change_volume(-1)
    assert app.volume == 0


def test_stored_sound_settings_are_read_back(make_app: Any) -> None:
    store = MemoryStore()
    store.set_setting("volume", 30)
    store.set_setting("effects", False)
    store.set_setting("voice", False)
    app = make_app(store=store)
    assert (app.volume, app.effects, app.voice) == (30, False, False)
    store.set_setting("volume", "loud")  # a damaged value: the default, never a crash
    assert make_app(store=store).volume == 80


def test_settings_screen_sound_rows(make_app: Any) -> None:
    """Volume − / +, Effects and Voice on/off are on the settings screen, stored at once, and
    greyed out while sound is off."""
    app = make_app()
    app.go("settings")
    pump(5)
    ids = app.root.get_screen("settings").ids
    ids.scroller.scroll_to(ids.voice_on, animate=False)  # the rows below the fold at 800×480
    pump(3)
    tap(ids.louder)
    assert app.volume == 90
    tap(ids.quieter)
    tap(ids.quieter)
    assert app.volume == 70 and app.services.store.get_setting("volume") == 70
    tap(ids.effects_off)
    tap(ids.voice_off)
    assert not app.effects and not app.voice
    assert ids.effects_off.selected and ids.voice_off.selected and not ids.voice_on.selected
    tap(ids.voice_on)
    assert app.voice and app.services.store.get_setting("voice") is True
    tap(ids.sound_off)
    pump(2)
    assert ids.louder.disabled and ids.voice_on.disabled and ids.effects_on.disabled


def test_the_app_opens_the_speaker_once_home_is_up(make_app: Any) -> None:
    sounds = Recorder()
    make_app(sounds=sounds)
    wait_for(lambda: getattr(sounds, "prepared", False), 10, what="the speaker prepared")
