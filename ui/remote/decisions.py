"""The decision a phone's seat faces, for the page (docs/protocol.md, "decision").

`decision(game, state, seat, words, name_of)` is None unless `seat` is to act; else the prompt
in the seat's language, the buttons (actions that are not cards: pass, declare, chiu, win, a
Tractor declaration; in the kiosk's words, `ui.table.action_words`, cards by name), how cards
are picked (`pick`: the verb written before the card codes, how many cards, and the word on
the button that plays them: Capture, Discard, Bury or Play, as the kiosk's), the hand cards that may be part of a
legal action (`playable`), the others with the rule that forbids them and why (`blocked`, asked
of the engine on a copy of the state, as the kiosk does), and the legal actions in record
notation (the first `LEGAL_LIMIT`). Everything here is about the seat's own decision; nothing reads another seat's cards: the
engine judges the seat's own candidate actions only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.errors import IllegalAction, MalformedRecord
from engine.game import Game, State
from ui.card_names import card_name
from ui.games import UiGame, get, load
from ui.remote.strings import Words
from ui.remote.views import hand_codes
from ui.table.action_words import action_words, pick_button

LEGAL_LIMIT = 300  # a Tractor follow when void may allow thousands of card sets


def decision(game: Game, state: State, seat: int, words: Words,
             name_of: Callable[[int], str]) -> dict[str, Any] | None:
    """What `seat` must decide now, or None if it is not to act."""
    if state.is_over or state.to_act != seat:
        return None
    obs = state.observation(seat)
    phase = state.phase
    legal, count = game.legal_listing(state, LEGAL_LIMIT)
    ui_game = get(game.name)
    pick = ui_game.phone_picks.get(phase)  # None: buttons only
    card_actions = [a for a in legal if pick is not None and _is_card_action(a, pick[0])]
    buttons = [{"action": a, "label": _label(game, state, seat, a, words)}
               for a in legal if a not in card_actions]
    out: dict[str, Any] = {
        "phase": phase,
        "prompt": _prompt(ui_game, phase, obs, words, name_of),
        "buttons": buttons,
        "pick": None,
        "playable": [],
        "blocked": [],
        "legal": legal,
        "legal_count": count,
    }
    if pick is None:
        return out
    verb, low, high = pick
    hand = hand_codes(game, obs)
    if high == 0:  # as many as the lead (Tractor's follows)
        lead = obs.trick[0] if obs.trick else None
        low = high = len(lead) if lead else 0
        if not lead:
            low, high = 1, len(hand)
    # The button that plays the picked cards says what the kiosk's says (Capture, Discard, Bury,
    # Play): its table calls the decision by the verb, or by the phase when there is none.
    out["pick"] = {"verb": verb, "min": low, "max": high,
                   "label": words.tr(pick_button(game.name, verb or phase))}
    if count > len(legal):  # not every legal action listed: let every card be picked
        out["playable"] = sorted(set(hand), key=hand.index)
        return out
    usable = {code for a in card_actions for code in _codes(a, verb)}
    out["playable"] = [c for c in dict.fromkeys(hand) if c in usable]
    if low == high == 1:
        for code in dict.fromkeys(hand):
            if code not in usable:
                rule = _refusal(game, state, f"{verb} {code}".strip())
                if rule is not None:
                    out["blocked"].append({"card": code, "rule": rule,
                                           "reason": words.reason(rule)})
    return out


def _codes(action: str, verb: str) -> list[str]:
    words = action.split()
    return words[1:] if verb else words


def _is_card_action(action: str, verb: str) -> bool:
    head = action.split()[0]
    if verb:
        return head == verb
    return head not in ("pass", "declare", "bury", "capture", "discard", "chiu", "win")


def _refusal(game: Game, state: State, text: str) -> str | None:
    """The rule id the engine refuses `text` with (on a copy of the state), None if legal."""
    try:
        action = game.parse_action(text)
        state.clone().apply(action)
    except IllegalAction as exc:
        return exc.rule
    except MalformedRecord:
        return None
    return None


def check(game: Game, state: State, seat: int, text: str) -> tuple[str, str] | None:
    """(code, rule) why `seat` may not play `text` now — ("malformed", "") or ("illegal", rule)
    — or None if it would be accepted. The state is not changed."""
    try:
        action = game.parse_action(text)
    except MalformedRecord:
        return "malformed", ""
    if state.is_over or state.to_act != seat:
        return "illegal", "turn"
    try:
        state.clone().apply(action)
    except IllegalAction as exc:
        return "illegal", exc.rule
    return None


def _label(game: Game, state: State, seat: int, action: str, words: Words) -> str:
    """A button's text for a non-card action: the kiosk's words for it (`ui.table.action_words`:
    Declare / Hide, a Tractor declaration by suit and cards, Ù! / Decline, Pass), in the seat's
    language."""
    return action_words(game.name, state, seat, game.parse_action(action), True,
                        words.translator)


def _prompt(ui_game: UiGame, phase: str, obs: Any, words: Words,
            name_of: Callable[[int], str]) -> str:
    """The prompt of the decision, reusing the kiosk tables' sentences: the game's fixed one for
    the phase (`UiGame.phone_phrases`), else its own function's (`UiGame.phone_prompt`)."""
    fixed = ui_game.phone_phrases.get(phase)
    if fixed is not None:
        return words.tr(fixed)
    return load(ui_game.phone_prompt)(phase, obs, words, name_of)


# -- each game's prompts that name a card or a seat (`UiGame.phone_prompt`) --------------------
def meri_prompt(phase: str, obs: Any, words: Words, name_of: Callable[[int], str]) -> str:
    """Hachinin Meri's declaration: the native Robai to declare, or nothing."""
    from engine.meri.cards import robai
    from engine.meri.legal import PASS
    if obs.legal_actions() != [PASS]:  # the seat holds the native Robai
        return words.trf("You hold the native Robai ({card}). Declare it and take the Okie, or hide it?",  # noqa: E501
                         card=card_name("meri", robai(obs.trump), words.translator))
    return words.tr("You have nothing to declare: pass.")


def tractor_prompt(phase: str, obs: Any, words: Words, name_of: Callable[[int], str]) -> str:
    """Tractor's play: a lead or a follow."""
    if obs.trick:
        return words.trf("Your turn: follow {seat}'s lead.", seat=name_of(obs.leader))
    return words.tr("Your lead: choose a single, a pair or a tractor.")


def chan_prompt(phase: str, obs: Any, words: Words, name_of: Callable[[int], str]) -> str:
    """Chắn's open card: an offer to win or claim a Chíu, or the card to capture."""
    card = card_name("chan", obs.open_card, words.translator) if obs.open_card >= 0 else ""
    if phase == "win_offer":
        return words.trf("{card} was just revealed: it completes your hand. Win (Ù)?", card=card)
    if phase == "chiu_offer":
        return words.trf("You hold three of {card}: claim it as a Chíu?", card=card)
    whose = (words.tr("you revealed") if obs.open_owner == obs.seat
             else words.trf("in {seat}'s gate", seat=name_of(obs.open_owner)))
    return words.trf("Open card {card} ({whose}): capture it with a lit card, or pass.",
                     card=card, whose=whose)
