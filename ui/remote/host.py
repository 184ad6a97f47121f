"""The game side of the phone server: what it needs from a match, over `engine.session.Session`.

A `Host` lives on the *owner thread*, the one thread that reads and changes the session (the
kiosk's Kivy thread, reached through `Clock`; in tests and benches a plain loop, see
`ui.remote.headless.OwnerLoop`). The server's event loop runs on its own thread and never
touches the session: it asks the host through a `post(fn)` callable that runs `fn` on the owner
thread, and the host hands state messages back through the server's thread-safe `deliver`.

Seats are planned before the game (`SeatPlan`: this screen, a phone or AI). Who plays a phone
seat *now* is the phone while it is there, and AI once the server has declared it away (after
the grace time); `plays(seat)` says which, and `on_event` tells the owner (the kiosk's table)
every change: a phone joined, left, went away (AI takes over), came back, acted.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.errors import IllegalAction, MalformedRecord
from engine.game import Action, State
from engine.session import Session
from ui.remote import protocol
from ui.remote.decisions import check, decision
from ui.remote.strings import words
from ui.remote.views import view

PHONE, SCREEN, AI = "phone", "screen", "ai"
KINDS = (PHONE, SCREEN, AI)


@dataclass(frozen=True)
class SeatPlan:
    """How a seat is played: `kind` is `phone`, `screen` or `ai`; `name` as the players typed it
    ("" = a default name); `level` the AI level (of an `ai` seat, and of the AI that covers a
    phone seat while its phone is away)."""

    kind: str
    name: str = ""
    level: str = "normal"


@dataclass(frozen=True)
class Outcome:
    """The answer to a phone's action: accepted (`code` "") or a protocol error code, with the
    rule id of an `illegal` action."""

    code: str = ""
    rule: str = ""
    detail: str = ""

    @property
    def ok(self) -> bool:
        return not self.code


@dataclass(frozen=True)
class HostEvent:
    """What happened to a phone seat: `joined` (first time), `back` (returned; its AI stops),
    `left` (connection gone, grace time running), `away` (grace time over: AI plays for it),
    `acted` (its action was applied: `action` in record notation)."""

    kind: str
    seat: int
    name: str
    action: str = ""


class Host:
    """One match's phone seats; every method is for the owner thread only."""

    def __init__(
        self,
        session: Session,
        seats: Sequence[SeatPlan],
        apply: Callable[[Action], None] | None = None,
        on_event: Callable[[HostEvent], None] | None = None,
    ) -> None:
        game = session.game
        if len(seats) != game.players:
            raise ValueError(f"{game.name} has {game.players} seats, {len(seats)} planned")
        for plan in seats:
            if plan.kind not in KINDS:
                raise ValueError(f"unknown seat kind {plan.kind!r} (known: {', '.join(KINDS)})")
        self.session = session
        self.plans = list(seats)
        self.names = [protocol.clean_name(p.name) if p.name else "" for p in seats]
        self.langs: dict[int, str] = {}
        self.present: set[int] = set()  # phone seats whose phone is connected now
        self.away: set[int] = set()  # phone seats an AI plays for (grace time over)
        self.joined: set[int] = set()  # phone seats a phone has joined at least once
        self.apply_action = apply if apply is not None else session.apply
        self.on_event = on_event
        self.sink: Callable[[int, str], None] | None = None
        self.last: dict[int, str] = {}  # the last state text delivered per seat
        self.closed = False

    # -- seats ---------------------------------------------------------------------------------
    def phone_seats(self) -> list[int]:
        return [s for s, plan in enumerate(self.plans) if plan.kind == PHONE]

    def plays(self, seat: int) -> str:
        """Who plays `seat` now: `phone`, `screen` or `ai` (an away phone's seat is `ai`)."""
        kind = self.plans[seat].kind
        return AI if kind == PHONE and seat in self.away else kind

    def name_of(self, seat: int, lang: str = "en") -> str:
        """The seat's name as players see it (its player's name, else "AI n" / "Seat n")."""
        if self.names[seat]:
            return self.names[seat]
        w = words(lang)
        if self.plans[seat].kind == AI:
            return w.trf("AI {n}", n=seat)
        return w.trf("Seat {n}", n=seat + 1)

    def table(self) -> dict[str, Any]:
        """The game and its seats, for the `table` message (before a phone joins): each seat's
        number, name, who plays it, and its `side` (the index of its team in `game.teams`,
        None where each plays for themself: Chắn) and `partners` (the other seats of its team)."""
        game = self.session.game
        sides = {s: i for i, side in enumerate(game.teams) if len(side) > 1 for s in side}
        return {"game": game.name, "title": game.title,
                "seats": [{"seat": s, "name": self.name_of(s), "kind": plan.kind,
                           "side": sides.get(s),
                           "partners": [p for side in game.teams if s in side and len(side) > 1
                                        for p in side if p != s]}
                          for s, plan in enumerate(self.plans)]}

    # -- what the server asks (through post) ---------------------------------------------------
    def attach(self, sink: Callable[[int, str], None] | None) -> None:
        """Where state messages go: `sink(seat, text)`, thread-safe (the server's `deliver`)."""
        self.sink = sink
        self.last.clear()

    def join(self, seat: int, name: str | None, lang: str | None) -> None:
        """A phone took (or returned to) `seat`; its AI stops, its state is sent at once."""
        if name:
            self.names[seat] = name
        if lang:
            self.langs[seat] = lang
        returning = seat in self.joined
        self.joined.add(seat)
        self.present.add(seat)
        self.away.discard(seat)
        self.last.pop(seat, None)
        self._event("back" if returning else "joined", seat)
        self.publish()

    def leave(self, seat: int) -> None:
        """The seat's phone disconnected (the grace time starts on the server)."""
        self.present.discard(seat)
        self.last.pop(seat, None)
        self._event("left", seat)

    def set_away(self, seat: int) -> None:
        """The grace time is over and the phone is still gone: AI plays for the seat."""
        if seat not in self.present and seat not in self.away:
            self.away.add(seat)
            self._event("away", seat)
            self.publish()

    def set_lang(self, seat: int, lang: str) -> None:
        self.langs[seat] = lang
        self.last.pop(seat, None)
        self.publish()

    def submit(self, seat: int, text: str) -> Outcome:
        """Play `text` (record notation) for phone `seat` through the engine; changes nothing
        unless the engine accepts it."""
        refused = self._refusal(seat, text)
        if refused is not None:
            return refused
        try:
            action = self.session.game.parse_action(text)
            self.apply_action(action)
        except MalformedRecord as exc:  # checked above; kept for a game whose parse is stricter
            return Outcome("malformed", detail=str(exc)[:120])
        except IllegalAction as exc:
            return Outcome("illegal", exc.rule, exc.message[:200])
        self._event("acted", seat, self.session.game.format_action(action))
        self.publish()
        return Outcome()

    def check(self, seat: int, text: str) -> Outcome:
        """Would `submit(seat, text)` be accepted now? Nothing changes."""
        refused = self._refusal(seat, text)
        return refused if refused is not None else Outcome()

    def close(self) -> None:
        """The table is leaving (the match ended or the players left): refuse every action."""
        self.closed = True

    def _refusal(self, seat: int, text: str) -> Outcome | None:
        if self.closed:
            return Outcome("closed")
        if not 0 <= seat < len(self.plans) or self.plans[seat].kind != PHONE:
            return Outcome("seat")
        if seat in self.away or seat not in self.present:
            return Outcome("order", detail="the seat's phone is not connected")
        verdict = check(self.session.game, self.session.state, seat, text)
        if verdict is None:
            return None
        code, rule = verdict
        return Outcome(code, rule)

    # -- what the owner tells ------------------------------------------------------------------
    def changed(self) -> None:
        """The game changed (any seat's action, a new deal): send every phone its new state."""
        self.publish()

    def publish(self) -> None:
        """Deliver each connected phone's state message if it differs from the last one sent."""
        if self.sink is None:
            return
        for seat in sorted(self.present):
            text = protocol.encode(self.state_message(seat))
            if self.last.get(seat) != text:
                self.last[seat] = text
                self.sink(seat, text)

    def state_message(self, seat: int, state: State | None = None) -> dict[str, Any]:
        """Everything `seat`'s phone shows, built from `observation(seat)` and public facts only
        (docs/protocol.md, "state"); `state` is the session's unless given (the leak test
        builds the message of worlds consistent with the observation).

        `to_act` and `phase` are the observation's: while another seat decides on a private
        offer (Chắn's Ù and Chíu), this seat sees the public decision that follows. Its own
        `decision` comes once the engine really asks it."""
        session = self.session
        game = session.game
        state = session.state if state is None else state
        lang = self.langs.get(seat, "en")
        w = words(lang)

        def name_of(s: int) -> str:
            return self.name_of(s, lang)

        obs = state.observation(seat)
        standing = session.match.result()
        out: dict[str, Any] = {
            "game": game.name,
            "seat": seat,
            "deal": session.deals_done + (0 if session.counted else 1),
            "to_act": obs.to_act,
            "phase": obs.phase,
            "seats": [{"name": name_of(s), "plays": self.plays(s),
                       "connected": s in self.present if self.plans[s].kind == PHONE else None}
                      for s in range(game.players)],
            "view": view(game, obs),
            "decision": (decision(game, state, seat, w, name_of)
                         if obs.to_act == seat else None),
            "scores": {"sides": [{"seats": list(side.seats), "score": side.score}
                                 for side in standing.sides],
                       "deals_played": standing.deals_played,
                       "deals_total": standing.deals_total,
                       "over": standing.over, "winner": standing.winner},
            "result": None,
        }
        if state.is_over:
            deal = game.deal_result(state)

            def side_name(i: int) -> str:
                return " & ".join(name_of(s) for s in deal.sides[i].seats)

            def render(line: Any) -> str:
                return line.render(w.tr, name_of, side_name)

            out["result"] = {
                "winners": list(deal.winners),
                "sides": [{"seats": list(side.seats), "score": side.score,
                           "lines": [render(line) for line in side.lines]}
                          for side in deal.sides],
                "lines": [render(line) for line in deal.lines],
            }
        return protocol.message("state", **out)

    def _event(self, kind: str, seat: int, action: str = "") -> None:
        if self.on_event is not None:
            self.on_event(HostEvent(kind, seat, self.name_of(seat), action))
