"""Each game's observation as JSON for a phone (docs/protocol.md, "Views").

`view(game, obs)` reads one seat's observation (`state.observation(seat)`) and nothing else, and
writes it with the card codes and action notation of records.md: the seat's own hand and the
public table. The hand is in the order the kiosk shows it, for every game from the game's
registry entry (`Game.shown_hand`, each package's `order`): `hand`, with `hand_breaks`, the
indexes where a new group starts (a suit, the trumps, a pair), and `hand_groups`, where a new
kind of group starts (Chắn: pairs, Cạ, singles). The samplers' helper fields (`pool`, `unseen`,
`hidden`, `forbidden`, …) are left out: they are derived from the rest and a phone needs none
of them. `deck(game, lang)` lists every card code of a game with its name for the page.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.game import Game
from ui.games import get, load


def view(game: Game, obs: Any) -> dict[str, Any]:
    """The JSON object of `obs` (a seat's observation of a deal of `game`)."""
    shown = game.shown_hand(obs)  # the kiosk's order, one owner for every game
    return {"hand": shown.codes, "hand_breaks": shown.breaks, "hand_groups": shown.groups,
            **load(get(game.name).phone_view)(game, obs)}


def hand_codes(game: Game, obs: Any) -> list[str]:
    """The seat's own hand as card codes in the order it is shown (duplicates repeated)."""
    return view(game, obs)["hand"]


def deck(game_name: str, lang: str = "en") -> list[dict[str, str]]:
    """Every card of the game once, canonical order: `{"code", "label", "big", "sub", "suit"}`
    for the page: the label is the card's name a player reads, in `lang` (`ui.card_names`, the
    kiosk's own names: "K♥", "Koppu Sun", "Thất văn" / "7 Văn"), `big` and `sub` the same name
    split for a tile (`card_face`); `suit` a colour class: the page needs no per-game code.
    The code is the page's key only: it is never shown."""
    from ui.card_names import card_face, card_name
    from ui.remote.strings import words

    names = words(lang).translator
    out = []
    for index, card in enumerate(load(get(game_name).phone_deck)()):
        big, sub = card_face(game_name, index, names)
        out.append({**card, "label": card_name(game_name, index, names), "big": big, "sub": sub})
    return out


# -- Hachinin Meri ----------------------------------------------------------------------------
def meri_view(game: Game, obs: Any) -> dict[str, Any]:
    from engine.meri.cards import CODES, SUITS
    from engine.meri.legal import DECLARE
    from engine.meri.observation import FACE_DOWN

    def card(c: int) -> str | None:
        return None if c < 0 else CODES[c]

    return {
        "hand_sizes": list(obs.hand_sizes),
        "dealer": obs.dealer,
        "trump": SUITS[obs.trump],
        "okie": CODES[obs.okie],
        "answers": ["declare" if a == DECLARE else "pass" for a in obs.answers],
        "declarer": obs.declarer,
        "receiver": obs.receiver,
        "declared": obs.declared,
        "discard": card(obs.discard),
        "side": [CODES[c] for c in obs.side],
        "trick_no": obs.trick_no,
        "leader": obs.leader,
        "trick": ["down" if c == FACE_DOWN else card(c) for c in obs.trick],
        "led": SUITS[obs.led] if obs.led >= 0 else None,
        "meri": obs.meri,
        "tricks": [{"leader": leader, "cards": [CODES[c] for c in cards], "winner": winner,
                    "meri": meri, "transfer": transfer}
                   for leader, cards, winner, meri, transfer in obs.tricks],
        "team_scores": list(obs.team_scores),
        "team_tricks": list(obs.team_tricks),
    }


def meri_deck() -> list[dict[str, str]]:
    from engine.meri.cards import CODES, SUITS

    return [{"code": code, "suit": SUITS[i // 15]} for i, code in enumerate(CODES)]


# -- Tractor ----------------------------------------------------------------------------------
def tractor_view(game: Game, obs: Any) -> dict[str, Any]:
    from engine.tractor.cards import CODES, RANK_NAMES, SUITS

    def codes(kinds: Sequence[int]) -> list[str]:
        return [CODES[k] for k in sorted(kinds)]

    trump = obs.trump
    return {
        "levels": [RANK_NAMES[level] for level in obs.levels],
        "level": RANK_NAMES[obs.level],
        "dealer": obs.dealer,
        "trump": None if trump < 0 else ("NT" if trump == 4 else SUITS[trump]),
        "bids": [{"seat": seat, "action": game.format_action(action)} for seat, action in obs.bids],
        "revealed": codes(obs.revealed),
        "kitty": codes(obs.kitty),
        "picked_up": codes(obs.picked_up),
        "leader": obs.leader,
        "trick": [codes(cards) for cards in obs.trick],
        "tricks": [{"leader": leader, "plays": [codes(cards) for cards in plays], "winner": winner}
                   for leader, plays, winner in obs.tricks],
        "points": obs.points,
        "bonus": obs.bonus,
        "shown": [codes(cards) for cards in obs.shown],
    }


def tractor_deck() -> list[dict[str, str]]:
    from engine.tractor.cards import CODES

    return [{"code": code, "suit": ("red" if code == "RJ" else "black") if code in ("RJ", "BJ")
             else ("red" if code[-1] in "HD" else "black")} for code in CODES]


# -- Chắn -------------------------------------------------------------------------------------
def chan_view(game: Game, obs: Any) -> dict[str, Any]:
    from engine.chan.cards import CODE

    def card(face: int) -> str | None:
        return None if face < 0 else CODE[face]

    return {
        "hand_sizes": list(obs.hand_sizes),
        "dealer": obs.dealer,
        "dead": obs.dead,
        "turn": obs.turn,
        "exposed": [[[CODE[f] for f in pair] for pair in pairs] for pairs in obs.exposed],
        "gates": [[{"card": CODE[f], "stock": stock} for f, stock in gate] for gate in obs.gates],
        "open": card(obs.open_card),
        "open_owner": obs.open_owner,
        "open_from_stock": obs.open_from_stock,
        "stock": obs.stock_count,
        "history": [{"seat": seat, "action": game.format_action(action), "open": card(face)}
                    for seat, _phase, action, face in obs.history[-12:]],
        "winner": obs.winner,
    }


def chan_deck() -> list[dict[str, str]]:
    from engine.chan.cards import CODE, IS_RED

    return [{"code": code, "suit": "red" if IS_RED[f] else code[-1]}
            for f, code in enumerate(CODE)]
