"""The replay viewer names each action as the tables do (issue 21 part 4), not by record codes:
a record per game stepped through on the real screen; a card the others did not see (Meri's
face-down trump, H-24; Tractor's buried kitty, T-15) is named only when every hand is shown."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from engine.meri.cards import CODES as MERI_CODES
from engine.meri.cards import name
from engine.meri.legal import DECLARE, PASS
from engine.tractor.state import BURY
from tests.deals import finished
from tests.ui.uitools import pump, tap
from ui.card_names import has_code
from ui.ports import MemoryStore
from ui.screens.replay_steps import DealSteps

pytestmark = pytest.mark.ui


def steps_of(game: str, seed: int) -> DealSteps:
    return DealSteps(finished(game, seed).record.to_json())


def first_step(steps: DealSteps, wanted: Callable[[Any, int, Any], bool]) -> int | None:
    """The first step made by `wanted(state before, seat, action)`."""
    for step in range(1, steps.last + 1):
        seat, action = steps.made(step)
        if wanted(steps.state(step - 1), seat, action):
            return step
    return None


def seed_with(game: str, wanted: Callable[[Any, int, Any], bool]) -> tuple[int, int]:
    """The first seed whose random deal has a step made by `wanted`, and that step."""
    for seed in range(80):
        step = first_step(steps_of(game, seed), wanted)
        if step is not None:
            return seed, step
    raise AssertionError(f"no {game} deal with the wanted step")


def viewer(make_app: Any, game: str, seed: int, language: str = "en") -> Any:
    store = MemoryStore()
    store.save_finished_deal(game, "win", 1, finished(game, seed).record.to_json())
    app = make_app(store=store, language=language)
    app.open_deal(store.recent_deals()[0]["id"])
    pump(2)
    return app.root.get_screen("replay")


def lines(screen: Any) -> list[str]:
    """The action line at every step after the deal as dealt (its last step's "Deal over" off)."""
    out = []
    for step in range(1, screen.last + 1):
        screen.go_to(step)
        out.append(screen.action_line.split("  ·  ")[0])
    return out


def ai_face_down(before: Any, seat: int, action: Any) -> bool:
    """An AI seat's trump played to a trick that is not a Meri, neither as its lead nor as its
    last card (H-24; the trick stays on the table, its back shown)."""
    return (seat != 0 and before.phase == "play" and 0 < before.n_played < 7
            and not before.meri and bool(before.tmask >> action & 1))


def test_meri_cards_by_name_and_a_face_down_trump_hidden(make_app: Any) -> None:
    seed, hidden = seed_with("meri", ai_face_down)
    screen = viewer(make_app, "meri", seed)
    said = lines(screen)
    codes = set(MERI_CODES)
    assert [line for line in said if codes & set(re.split(r"[\s:,]+", line))] == []
    steps = screen.steps
    for step, line in enumerate(said, start=1):
        seat, action = steps.made(step)
        if action == DECLARE or action == PASS:
            assert line == f"{'You' if seat == 0 else f'AI {seat}'}: " + (
                "Declare" if action == DECLARE else "Hide")
        elif seat == 0 and steps.state(step - 1).phase == "play":
            assert line in (f"You: {name(action)}", f"You: {name(action)}, face down")
        elif steps.state(step - 1).phase == "discard":  # the receiver's, face down (H-14)
            assert line == (f"You: Discard {name(action)}" if seat == 0
                            else f"AI {seat}: Discard face down")
    screen.go_to(hidden)
    seat, action = steps.made(hidden)
    assert screen.seats[seat].played == [""]  # the engine shows the others its back
    assert screen.action_line == f"AI {seat}: A trump, face down"
    tap(screen.ids.hands_button)
    assert screen.all_hands and screen.action_line == f"AI {seat}: {name(action)}, face down"
    discard = first_step(steps, lambda before, _seat, _action: before.phase == "discard")
    screen.go_to(discard)
    assert screen.action_line.endswith(f"Discard {name(steps.made(discard)[1])}")


def test_tractor_plays_as_the_table_names_them_and_a_bury_stays_hidden(make_app: Any) -> None:
    seed, bury = seed_with("tractor", lambda _before, seat, action: (
        seat != 0 and isinstance(action, tuple) and action[0] == BURY))
    screen = viewer(make_app, "tractor", seed)
    said = lines(screen)
    assert any(re.fullmatch(r"(You|AI \d): a (single|pair) [0-9JQKA]+[♠♥♣♦]( \S+)?", line)
               for line in said), said
    assert [line for line in said if has_code(line)] == []  # cards by name (ui.card_names)
    screen.go_to(bury)
    seat, _action = screen.steps.made(bury)
    assert screen.action_line == f"AI {seat}: Bury 8 cards face down"
    tap(screen.ids.hands_button)
    words = screen.action_line.split()
    assert words[:3] == ["AI", f"{seat}:", "Bury"] and not has_code(screen.action_line)
    assert len(words) == 3 + 8 or "joker" in screen.action_line


def test_chan_actions_as_its_hints_and_buttons_say_them(make_app: Any) -> None:
    screen = viewer(make_app, "chan", 4)
    said = lines(screen)
    card = r"([2-9] (Vạn|Sách|Văn)|Chi chi)"  # by name, never the record's 7C (ui.card_names)
    words = re.compile(rf"(You|AI \d): (Capture with {card}|Discard {card}|Pass|Chíu|Ù!|Decline)")
    assert [line for line in said if not words.fullmatch(line)] == []
    assert any("Capture with" in line for line in said)
    assert any("Discard" in line for line in said)


def test_the_words_follow_the_language(make_app: Any) -> None:
    seed, hidden = seed_with("meri", ai_face_down)
    screen = viewer(make_app, "meri", seed, language="fr")
    screen.go_to(hidden)
    seat, _action = screen.steps.made(hidden)
    assert screen.action_line == f"IA {seat} : Un atout, face cachée"
    assert any(line.startswith("Vous : ") for line in lines(screen))
