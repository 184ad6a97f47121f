"""The coach's moments in words (no widgets here): each action named as the tables name it
(`ui.table.action_words`, from the state the choice was made in, cards by name), the difference
in a beginner's words ("would have won your side about 3 more points"), and where in the deal
the moment was.

A moment is the JSON-friendly dict of `engine.ai.coach` (kept in the store's `deals.notes`): its
`played` and `best` actions are record text, turned back into the game's action to be named;
a moment that does not read (an older or damaged note) is named by its record text.
"""

from __future__ import annotations

from typing import Any

from engine import registry
from engine.errors import EngineError
from engine.records import parse_record
from ui.games import get, load
from ui.i18n import N_, tr, trf
from ui.table import gains
from ui.table.action_words import action_words

#: The difference in plain words, rounded to the game's step (`ui.table.gains`): a card played,
#: or another kind of choice; for a side (teams) or a player alone (Chắn). Msgids. The sampled
#: deals it rests on are the expert's detail (`python -m engine coach`), not said here.
SENTENCES = {
    ("card", "team"): N_("Playing {best} instead of {played} would have won your side about {n} more points."),  # noqa: E501
    ("card", "self"): N_("Playing {best} instead of {played} would have won you about {n} more points."),  # noqa: E501
    ("choice", "team"): N_("Choosing {best} instead of {played} would have won your side about {n} more points."),  # noqa: E501
    ("choice", "self"): N_("Choosing {best} instead of {played} would have won you about {n} more points."),  # noqa: E501
}
#: The same when the difference rounds to one point (Meri and Chắn). Msgids.
SENTENCES_ONE = {
    ("card", "team"): N_("Playing {best} instead of {played} would have won your side about 1 more point."),  # noqa: E501
    ("card", "self"): N_("Playing {best} instead of {played} would have won you about 1 more point."),  # noqa: E501
    ("choice", "team"): N_("Choosing {best} instead of {played} would have won your side about 1 more point."),  # noqa: E501
    ("choice", "self"): N_("Choosing {best} instead of {played} would have won you about 1 more point."),  # noqa: E501
}
NOTHING = N_("Nothing costly this deal.")
WORKING = N_("The coach is looking at this deal…")
FAILED = N_("The coach could not look at this deal.")


def action_name(game_name: str, before: Any, seat: int, text: str) -> str:
    """A record action of `seat`, made from the state `before`, as the tables name it
    (`ui.table.action_words`, every card named: it is the player's own choice); its record
    text if it does not read (an older or damaged note)."""
    try:
        action = registry.get(game_name).parse_action(text)
        return action_words(game_name, before, seat, action, True)
    except (KeyError, EngineError, ValueError, TypeError, IndexError):
        return text


def state_before(record: Any, index: int) -> Any:
    """The state of a deal's record before its action `index` (what a moment was weighed
    in); None if the record does not replay that far."""
    try:
        parsed = parse_record(record)
        state = parsed.state
        for action in parsed.actions[:index]:
            state.apply(action)
    except EngineError:
        return None
    return state


def is_card_play(game_name: str, moment: dict[str, Any]) -> bool:
    """The moment's choice was which card(s) to play (Meri and Tractor tricks, Meri's
    discard), not another kind of choice (a bid, a burial, a capture, a pass): the game's
    `UiGame.coach_card_play`."""
    return bool(load(get(game_name).coach_card_play)(moment))


def meri_card_play(moment: dict[str, Any]) -> bool:
    """Meri: every choice but the declaration (declare or pass) is a card, discard or play."""
    return moment.get("played") not in ("declare", "pass")


def tractor_card_play(moment: dict[str, Any]) -> bool:
    """Tractor: a play to a trick (not a bid, not the burial)."""
    return moment.get("phase") == "play"


def no_card_play(moment: dict[str, Any]) -> bool:
    """Chắn: a capture, a discard or a pass is a choice, never "playing" a card."""
    return False


def amount(game_name: str, value: float) -> str:
    """A difference as a person reads it: rounded to the game's step (`ui.table.gains`: whole
    Meri and Chắn points, Tractor's fives), never below one step (the coach says nothing
    smaller: `engine.ai.coach.MIN_GAIN`)."""
    return str(max(gains.step(game_name), gains.rounded(game_name, value)))


def sentence(game_name: str, moment: dict[str, Any], before: Any) -> str:
    """The moment's difference in plain words (the app's language); `before`: the state the
    choice was made in (`state_before`), for naming the actions (None: by their record text)."""
    kind = "card" if is_card_play(game_name, moment) else "choice"
    teams = registry.get(game_name).teams  # Chắn: one seat a side, "you", not "your side"
    side = "team" if any(len(team) > 1 for team in teams) else "self"
    seat = int(moment.get("seat", 0))

    def named(key: str) -> str:
        text = str(moment.get(key, ""))
        return text if before is None else action_name(game_name, before, seat, text)

    n = amount(game_name, float(moment.get("gain", 0.0)))
    sentences = SENTENCES_ONE if n == "1" else SENTENCES
    return trf(sentences[(kind, side)], best=named("best"), played=named("played"), n=n)


def heading(game_name: str, moment: dict[str, Any]) -> str:
    """Where in the deal the moment was: the trick (Meri, Tractor), the cards drawn (Chắn);
    "" for a choice before the play (a bid, a burial)."""
    done = int(moment.get("done", 0))
    game = get(game_name)
    if game.draws:
        return trf(game.coach_heading, n=done)
    if moment.get("phase") != "play":
        return ""
    return trf(game.coach_heading, n=done + 1)


def is_moment(note: Any) -> bool:
    """A coach's note (the store keeps other notes too)."""
    return isinstance(note, dict) and note.get("kind") == "coach"


def note_text(game_name: str, note: dict[str, Any], before: Any) -> str:
    """A note in one line for the replay viewer (`before`: the state at its step): a coach's
    moment in words (with its player's name when several were coached), else its text."""
    if is_moment(note):  # "Coach (Ann): ..." when several players were coached
        who = str(note.get("name") or "")
        return tr("Coach") + (f" ({who})" if who else "") + ": " + sentence(game_name, note,
                                                                             before)
    return str(note.get("text", ""))
