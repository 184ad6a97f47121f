"""The tutorial flow shared by every game: a `Lesson`'s deal on the game's own table.

The table (`ui.table.base.TableScreen`) runs as usual, with three hooks: the AI seats play the
record's next action (`next_action`) instead of thinking, the player's turn gets the step's text
and outlined cards (`human_turn`), and the player's action is checked (`allows`) before it is
applied: an illegal one is refused with the engine's rule id in words (`ui.table.reasons`), a
legal one that is not the lesson's is refused too, and the lesson does not advance. Progress is
the number of the record's actions applied, saved in the store after every action (setting
`tutorial.<game>`), so leaving the table, or a power cut, resumes at the same step; skipping or
finishing clears it.
"""

from __future__ import annotations

from typing import Any

from engine.game import Action
from engine.records import GameRecord
from engine.session import Session
from ui.games import games, get, load
from ui.i18n import tr, trf
from ui.table.action_words import action_words
from ui.table.reasons import reason, refusal
from ui.tutorial.lesson import HUMAN, Lesson, Step

GAMES = tuple(game.name for game in games())  # every game has a lesson


def lesson_of(game: str) -> Lesson:
    """The lesson of `game` (its `UiGame.tutorial`, `ui.tutorial.<game>`); KeyError if none."""
    return load(get(game).tutorial)


def progress_key(game: str) -> str:
    return f"tutorial.{game}"


def lesson_begun(store: Any, game: str) -> bool:
    """Whether `game`'s lesson was left part-way (its progress saved), so that starting it
    resumes: Home's Learn then says so. Read from the setting alone, without the lesson's
    record (the home screen imports no game at start-up); `Tutorial._store` keeps the setting
    below the record's length, so a begun lesson is one `Tutorial.saved_progress` resumes."""
    value = store.get_setting(progress_key(game), 0)
    return type(value) is int and value > 0


class Tutorial:
    """One lesson being played on a table; `store` keeps its progress (`get/set_setting`)."""

    def __init__(self, lesson: Lesson, store: Any) -> None:
        self.lesson = lesson
        self.store = store
        parsed = lesson.parsed()
        self.game = parsed.game
        self.script: list[Action] = list(parsed.actions)
        self.total_steps = len(lesson.human_decisions())
        self.last_rule: str | None = None  # the rule id of the last refused move (tests, panel)
        self.panel: Any = None
        self.table: Any = None
        self.save_problem = ""

    # -- the session -----------------------------------------------------------------------
    def saved_progress(self) -> int:
        """How many of the record's actions were applied when last saved (0: from the start)."""
        value = self.store.get_setting(progress_key(self.lesson.game), 0)
        if type(value) is not int or not 0 <= value < len(self.script):
            return 0
        return value

    def session(self, resume: bool = True) -> Session:
        """The lesson's deal as a session, at the saved progress when `resume`; never the game
        in progress (the autosave is not touched): it saves only the lesson's progress."""
        parsed = self.lesson.parsed()
        record = GameRecord(parsed.game, parsed.seed, parsed.layout, parsed.state, [])
        for action in self.script[: self.saved_progress() if resume else 0]:
            record.apply(action)
        # A practice session: Undo takes a move back without asking, and nothing is counted.
        session = Session(parsed.game, parsed.game.new_match(parsed.seed), record, practice=True)
        session.save_callback = self._save  # from now on: every action saves the progress
        return session

    def _save(self, _text: str) -> None:
        done = len(self.table.session.record.actions) if self._has_session() else 0
        self._store(done)

    def _has_session(self) -> bool:
        return self.table is not None and self.table.session is not None

    def _store(self, done: int) -> None:
        if done >= len(self.script):  # the deal is over: the next start is a new lesson
            done = 0
        result = self.store.set_setting(progress_key(self.lesson.game), done)
        ok = result is None or bool(result)
        self.save_problem = "" if ok else str(getattr(result, "problem", ""))

    def clear(self) -> None:
        """Forget the progress (skipped or finished): the next start is from the beginning."""
        self._store(0)

    # -- hooks called by the table -----------------------------------------------------------
    def next_action(self) -> Action:
        """The record's action for the seat to act now (an AI seat's scripted move)."""
        return self.script[len(self.table.session.record.actions)]

    def current_step(self) -> Step | None:
        return self.lesson.step_at(len(self.table.session.record.actions))

    def expected(self) -> str:
        """The record's action for the decision at hand, in canonical notation."""
        return self.game.format_action(self.next_action())

    def allows(self, action: Action) -> bool:
        """Whether the player's `action` may be applied: the lesson's move (or one its step
        accepts). Otherwise the message says why, with the rule in words when the engine
        refuses it, and nothing changes."""
        table = self.table
        state = table.session.state
        rule = refusal(state, action)
        text = self.game.format_action(action)
        step = self.current_step()
        accepted = step.expect if step is not None else (self.expected(),)
        if rule is None and text in accepted and text == self.expected():
            self.last_rule = None
            return True
        self.last_rule = rule
        if rule is not None:
            table.message = trf("Not allowed: {reason}", reason=reason(rule))
        else:
            table.message = tr("A legal move, but not this lesson's: follow the outlined cards.")
        table.alert = True
        table.app.beep()
        self.show(table)
        return False

    def human_turn(self, table: Any) -> None:
        """The player's decision: the step's text and its cards outlined in the hand."""
        self.show(table)

    def show(self, table: Any) -> None:
        if self.panel is None or table.session is None:
            return
        state = table.session.state
        done = len(table.session.record.actions)
        if state.is_over:
            self.panel.text = tr(self.lesson.closing)
            self.panel.counter = ""
            return
        if state.to_act != HUMAN:
            return
        step = self.current_step()
        number = sum(1 for i in self.lesson.human_decisions() if i < done) + 1
        self.panel.counter = trf("Step {n} of {count}", n=number, count=self.total_steps)
        move = self.expected()
        if step is not None:
            self.panel.text = trf(step.text, **step.fields) if step.fields else tr(step.text)
            codes = step.highlight or self.cards_of(move)
        else:
            named = action_words(self.game.name, state, HUMAN, self.next_action(), True)
            self.panel.text = trf(self.lesson.follow, move=named)  # by name, never the record's
            codes = self.cards_of(move)
        self.outline(table, codes)

    def cards_of(self, move: str) -> tuple[str, ...]:
        """The card codes named in an action's notation (its verb left out)."""
        return tuple(w for w in move.split() if w not in ("declare", "bury", "capture",
                                                           "discard", "pass", "win", "chiu"))

    @staticmethod
    def outline(table: Any, codes: tuple[str, ...]) -> None:
        """Outline `codes` in the hand (each code once per copy named: a pair outlines two)."""
        hand = table.ids.get("hand")
        if hand is None:
            return
        wanted = list(codes)
        marks = []
        for index, code in enumerate(hand.codes):
            if code in wanted:
                wanted.remove(code)
                marks.append(index)
        hand.hinted = marks

    def deal_over(self) -> None:
        """The lesson's deal is over: its progress is cleared (the next start is a new lesson)
        and the panel gives way to the summary, which opens with the closing words."""
        self.clear()
        if self.panel is not None:
            self.panel.undock()

    def closing_text(self) -> str:
        return tr(self.lesson.closing)

    # -- the panel ---------------------------------------------------------------------------
    def attach(self, table: Any) -> None:
        from ui.tutorial.panel import TutorialPanel

        self.table = table
        if self.panel is None:
            self.panel = TutorialPanel(on_skip=self.skip)
        self.panel.dock(table)

    def detach(self, table: Any) -> None:
        if self.panel is not None:
            self.panel.undock()
        self.table = None

    def buttons(self) -> list[Any]:
        """The panel's buttons: the focus may rest on them during the player's decision."""
        return [self.panel.skip_button] if self.panel is not None else []

    def skip(self) -> None:
        """Leave the lesson for good (its progress cleared) and go home."""
        table = self.table
        self.clear()
        if self.panel is not None:
            self.panel.undock()
        if table is not None:
            table.shutdown()
            table.leave()


def start(app: Any, game: str) -> Any:
    """Open `game`'s table on its lesson, resumed where it was left; returns the table."""
    tutorial = Tutorial(lesson_of(game), app.services.store)
    table = app.root.get_screen(game)
    table.start(tutorial.session(), tutorial=tutorial)
    return table
