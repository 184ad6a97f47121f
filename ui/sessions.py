"""The game in progress and the saved game: start, save, resume, replay and end a match.

`Sessions` is owned by `ParlorApp` (`app.sessions`). It starts a match (seated, maybe with
phones), saves it to `services.store` after every action and reports failed writes, resumes the
autosaved match with its seating and phone server, opens lessons and replays on a table, and
forgets the autosave when the match is over. The state it manages stays on the app, where kv
and the tables read it: `app.session`, `app.seating`, `app.phones`, `app.saved_game`,
`app.notice`, `app.save_warning`.
"""

from __future__ import annotations

import json
import logging
from typing import Any, Protocol

from kivy.clock import Clock
from kivy.logger import Logger

from engine.errors import EngineError
from engine.session import Session
from ui import heap, i18n
from ui.resume import describe_save

# One debug line per save that reached the store (`PARLOR_LOG_DEBUG=parlor.autosave`): what a
# power-cut check compares the resumed game with (scripts/bootcheck).
SAVED_LOG = logging.getLogger("parlor.autosave")



class SessionsApp(Protocol):
    """What the lifecycle needs of the app (`ui.app.ParlorApp`): its state and navigation."""

    services: Any  # `ui.ports.Services`
    root: Any  # the screen manager
    history: list[str]
    games: tuple[str, ...]
    rng: Any  # `random.Random`
    session: Any  # `engine.session.Session` | None
    seating: Any  # `ui.table.seating.Seating` | None
    phones: Any  # `ui.table.remote_seats.PhoneSeats` | None
    saved_game: str
    notice: str
    save_warning: str
    practice: bool
    ai_level: str

    def go(self, name: str) -> None: ...
    def match_length(self, game: str) -> int: ...
    def game_title(self, game: str) -> str: ...


class Sessions:
    """The match lifecycle of the app (`app.sessions`): new, save, continue, replay, end."""

    def __init__(self, app: SessionsApp) -> None:
        self.app = app

    # -- the saved game ----------------------------------------------------------------------
    def refresh_saved(self) -> None:
        """`app.saved_game`: the game of the autosaved match, "" if none (or not readable)."""
        text = self.app.services.store.load_autosave()
        game = ""
        if text:
            try:
                game = str(json.loads(text).get("game", ""))
            except (ValueError, AttributeError):
                game = ""
        self.app.saved_game = game if game in self.app.games else ""

    def save(self, text: str) -> None:
        """A session's save callback: the text to the store, a failed write reported."""
        self.report_save(self.app.services.store.save_autosave(text))
        if not self.app.save_warning and SAVED_LOG.isEnabledFor(logging.DEBUG):  # it reached it
            SAVED_LOG.debug("autosave: saved %s, %s to act", describe_save(text),
                            self._saved_to_act(text))

    def _saved_to_act(self, text: str) -> str:
        """Who decides next in a saved text (the debug save line): "seat N", "nobody" (the deal
        is over) or "unknown". A session saves itself as it is made or resumed, before it is
        `app.session`, so the text is read back when it is not the current session's (debug
        only: a replay per such save)."""
        session = self.app.session
        if session is None or session.to_json() != text:
            try:
                session = Session.from_json(text)
            except EngineError:
                return "unknown"
        to_act = session.state.to_act
        return "nobody" if to_act is None else f"seat {to_act}"

    def report_save(self, result: Any) -> None:
        """Show a failed write as a lasting warning until a write succeeds (a store that does
        not report, returning None, is taken as having saved)."""
        problem = "" if result is None or result else getattr(result, "problem", "")
        self.app.save_warning = (i18n.trf("Not saving: {problem}", problem=i18n.tr(problem))
                                 if problem else "")

    def save_now(self) -> str:
        """Save the game in progress now, before powering off: "" when it reached the store (or
        there is nothing to save), else why not, translated."""
        session = self.app.session
        store = self.app.services.store
        if session is None or session.match.is_over:
            return ""
        reason = getattr(store, "unavailable_reason", "")
        if reason:  # a store that keeps nothing on disk "saves" into memory: that is no save
            return reason
        try:
            result = store.save_autosave(session.to_json())
        except Exception as exc:  # a store fault is reported like a failed write
            Logger.error(f"Parlor: saving before powering off failed: {exc}")
            return str(exc) or type(exc).__name__
        self.report_save(result)
        problem = "" if result is None or result else getattr(result, "problem", "") or "?"
        return i18n.tr(problem) if problem else ""

    # -- starting and resuming ---------------------------------------------------------------
    def new_game(self, game: str, seating: Any = None, phones: Any = None) -> None:
        """Start a match of `game` seated as `seating` (default: you and AI), with the phone
        server the seating screen started (`phones`, whose session is the match's)."""
        app = self.app
        if game not in app.games:
            return
        from ui.table.seating import Seating, save_seating

        if phones is not app.phones:
            self.close_phones()
        if phones is not None:  # made before Play: it takes the length chosen since
            app.session = phones.session
            app.session.save_callback = self.save
            app.session.set_length(app.match_length(game))  # (saved)
        else:
            app.session = Session.new(game, app.rng.randrange(2**31), save=self.save,
                                      practice=app.practice, deals=app.match_length(game))
        players = app.session.game.players
        app.seating = seating if seating is not None else Seating.default(players, app.ai_level)
        app.phones = phones
        save_seating(app.services.store, game, app.seating.plans,
                     phones.keys() if phones is not None else None, level=app.ai_level)
        self.open_table(game)

    def play_game(self, game: str) -> None:
        """Home's Play: the next match of `game` at once, seated as its last match was
        (`ui.table.seating.last_seating`; you and AI the first time), on its table.

        The seating screen opens instead (its Play then starts) when the table cannot start
        unattended: when the last seating has phone seats (the phones must join first: the
        screen starts the phone server and shows its QR code and table code; starting without
        them would hand their seats to AI before anyone could scan), and when a saved match in
        progress would be replaced (the seating asks first, "Keep my saved game" focused, over
        the seats that would play: the question and its answers are the seating screen's).
        Home's Seats button (`open_seating`) opens the seating screen whatever it holds."""
        if game not in self.app.games:
            return
        from ui.resume import saved_match
        from ui.table.seating import PHONE

        screen = self.app.root.get_screen("seating")
        screen.setup(game)
        if any(p.kind == PHONE for p in screen.plans):
            self.app.go("seating")
            return
        saved = saved_match(self.app.services.store.load_autosave())
        if (saved is not None and not saved.over) or screen.same_names():
            self.app.go("seating")
            screen.play()  # asks about the saved match (or says which seats share a name)
            return
        screen.start()

    def open_seating(self, game: str) -> None:
        """Home's Seats: the seating screen of `game`, with its last seating (its Play starts
        the game as seated)."""
        if game not in self.app.games:
            return
        self.app.root.get_screen("seating").setup(game)
        self.app.go("seating")

    def keep_seating(self) -> None:
        """Save the seating and the phone server's keys again (a phone took a seat)."""
        from ui.table.seating import save_seating

        app = self.app
        if app.session is not None and app.seating is not None:
            save_seating(app.services.store, app.session.game.name, app.seating.plans,
                         app.phones.keys() if app.phones is not None else None,
                         level=app.ai_level)

    def close_phones(self) -> None:
        """Stop the phone server of the game in progress (the table was left)."""
        if self.app.phones is not None:
            self.app.phones.stop()
            self.app.phones = None

    def continue_game(self) -> None:
        """Home's Continue: the autosaved match, on its table (a broken save is set aside)."""
        from ui.resume import resume_saved

        app = self.app
        resumed = resume_saved(app.services.store, save=self.save)
        if resumed.session is None:
            if resumed.problem:  # set aside in the store: it is never offered again
                app.notice = i18n.tr("The saved game could not be resumed.")
            self.refresh_saved()
            return
        app.session = resumed.session
        self.resume_seating(app.session)
        self.open_table(app.session.game.name)

    def resume_seating(self, session: Session) -> None:
        """The resumed game's seating; its phone server listens again with the saved keys, so
        the phones rejoin their seats (if `[network]` is off now, AI plays the phone seats)."""
        from ui.table.remote_seats import PhoneSeats
        from ui.table.seating import PHONE, Seating, saved_seating

        app = self.app
        self.close_phones()
        plans, keys = saved_seating(app.services.store, session.game.name,
                                    session.game.players)
        app.seating = Seating(plans)
        if app.services.network.enabled and any(p.kind == PHONE for p in plans):
            phones = PhoneSeats(session, plans, app.services.network, keys=keys)
            if phones.start():
                app.phones = phones
            else:
                app.notice = i18n.trf("Phones cannot join: {problem}", problem=phones.problem)

    # -- tables that are not the game in progress --------------------------------------------
    def open_deal(self, deal_id: int) -> None:
        """Watch a kept finished deal again (the replay list's rows)."""
        screen = self.app.root.get_screen("replay")
        screen.open(self.app.services.store.load_deal(deal_id))
        self.app.go("replay")

    def open_replay(self, text: str) -> bool:
        """Show a record (`parlor replay FILE`) being played on its game's table; a malformed
        record leaves a one-line notice on the home screen instead."""
        from engine.records import GameRecord, parse_record

        app = self.app
        try:
            parsed = parse_record(text)
        except EngineError as exc:
            app.notice = i18n.trf("Cannot replay this record: {error}", error=str(exc))
            return False
        game = parsed.game.name
        if game not in app.games:
            app.notice = i18n.trf("No table for {game} yet.", game=app.game_title(game))
            return False
        record = GameRecord(parsed.game, parsed.seed, parsed.layout, parsed.state, [])
        # Not `app.session`: a replay is never the game in progress (nothing saves it).
        session = Session(parsed.game, parsed.game.new_match(parsed.seed), record)
        app.root.get_screen(game).start(session, replay=parsed.actions)
        app.history = ["home"]
        app.root.current = game
        return True

    def start_tutorial(self, game: str) -> None:
        """Open `game`'s guided first deal (`ui.tutorial`), resumed where it was left; it is
        never the game in progress (Continue keeps the saved game)."""
        if game not in self.app.games:
            return
        from ui.tutorial.controller import start

        start(self.app, game)
        self.app.history = ["home"]
        self.app.root.current = game

    # -- the table ---------------------------------------------------------------------------
    def open_table(self, game: str) -> None:
        """Show `app.session` on `game`'s table (home is where Back goes)."""
        app = self.app
        self.refresh_saved()
        app.root.get_screen(game).start(app.session)
        app.history = ["home"]
        app.root.current = game
        Clock.schedule_once(lambda _dt: heap.settle(), 0)  # while the table appears

    def end_session(self) -> None:
        """The match is over: forget the autosave."""
        self.app.services.store.clear_autosave()
        self.refresh_saved()
