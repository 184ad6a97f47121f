"""Safe power-off on the screen (issue 17 parts 5 and 6): the prompt asks (with the exit PIN in
kiosk mode), the game is saved first and the save must have worked (else the player is asked
again), then the shutdown is called exactly once through `Services.power_off` (here a recording
fake: the real one is never called in a test); a long press of `[power] button` opens the prompt."""

from __future__ import annotations

from typing import Any

import pytest

from tests.ui.uitools import pump, settle, tap, wait_for
from ui.ports import KioskSettings, MemoryStore, PowerSettings, SaveResult

pytestmark = pytest.mark.ui


class Journal(MemoryStore):
    """A store that writes what happens into a journal shared with the fake power-off, and can
    be made to fail its saves (a full disk, without filling one)."""

    def __init__(self, journal: list[tuple[str, Any]], unavailable_reason: str = "") -> None:
        super().__init__(unavailable_reason)
        self.journal = journal
        self.failing = False

    def save_autosave(self, data: str) -> SaveResult:
        if self.failing:
            self.journal.append(("save failed", data))
            return SaveResult(False, "the disk is full")
        self.journal.append(("saved", data))
        return super().save_autosave(data)


class FakePowerOff:
    """Records each call (and what the store held then); answers `problem`."""

    def __init__(self, journal: list[tuple[str, Any]], store: MemoryStore,
                 problem: str = "") -> None:
        self.journal, self.store, self.problem = journal, store, problem

    @property
    def calls(self) -> int:
        return sum(1 for event, _ in self.journal if event == "power off")

    def __call__(self) -> str:
        self.journal.append(("power off", self.store.load_autosave()))
        return self.problem


ON = PowerSettings(enabled=True)


def power_app(make_app: Any, pin: str = "", power: PowerSettings = ON, problem: str = "",
              unavailable: str = "", size: tuple[int, int] = (800, 480),
              ) -> tuple[Any, Journal, FakePowerOff]:
    journal: list[tuple[str, Any]] = []
    store = Journal(journal, unavailable)
    kiosk = KioskSettings(enabled=bool(pin), exit_pin=pin)
    app = make_app(store=store, kiosk=kiosk, power=power, size=size)
    fake = FakePowerOff(journal, store, problem)
    app.services.power_off = fake
    return app, store, fake


def open_prompt(app: Any) -> Any:
    app.request_power()
    settle()
    assert app.root.current == "power"
    return app.root.current_screen


def shut_down(screen: Any) -> None:
    """Confirm, and let "Shutting down…" show before the call is made."""
    before = screen.app.services.power_off.calls
    screen.confirm()
    pump(1)
    wait_for(lambda: screen.app.services.power_off.calls > before, seconds=5,
             what="the power-off call")


def test_the_game_is_saved_first_then_the_shutdown_is_called_once(make_app: Any) -> None:
    app, store, fake = power_app(make_app, pin="2580")
    app.new_game("chan")
    pump(3)
    screen = open_prompt(app)
    assert screen.needs_pin and screen.focused_widget is screen.ids.pad.ids.key_1.__self__
    for digit in "2580":
        screen.digit(digit)
    del store.journal[:]
    shut_down(screen)
    assert fake.calls == 1 and screen.stage == "down"
    # the save came first, it held the game as it is now, and it is what the store had then
    now = app.session.to_json()
    assert store.journal == [("saved", now), ("power off", now)]
    header = [w.text for w in screen.walk() if getattr(w, "text", "") == "Shutting down…"]
    assert header
    for event in ("OK", "SELECT", "BACK", "MENU"):  # shutting down: nothing else happens
        app.handle_input(event)
        screen.confirm()
    pump(5)
    assert fake.calls == 1 and app.root.current == "power"


def test_a_wrong_pin_powers_nothing_off(make_app: Any) -> None:
    app, store, fake = power_app(make_app, pin="12")
    app.new_game("chan")
    screen = open_prompt(app)
    screen.digit("1")
    screen.digit("3")
    screen.confirm()
    pump(20)
    assert screen.message == "Wrong PIN" and screen.entered == "" and screen.stage == "ask"
    assert fake.calls == 0 and ("power off", store.load_autosave()) not in store.journal


def test_without_kiosk_the_prompt_only_asks_to_confirm(make_app: Any) -> None:
    app, _store, fake = power_app(make_app)
    screen = open_prompt(app)
    assert not screen.needs_pin and screen.focused_widget is screen.ids.cancel_button.__self__
    app.handle_input("OK")  # Cancel has the focus: the safe answer
    pump(3)
    assert app.root.current == "home" and fake.calls == 0
    screen = open_prompt(app)
    tap(screen.ids.confirm_button)
    wait_for(lambda: fake.calls == 1, seconds=5, what="the power-off call")


def test_a_failed_save_is_shown_and_asked_about_before_powering_off(make_app: Any) -> None:
    app, store, fake = power_app(make_app)
    app.new_game("tractor")
    pump(3)
    store.failing = True
    screen = open_prompt(app)
    screen.confirm()
    pump(20)
    assert fake.calls == 0 and screen.stage == "unsaved"
    assert screen.message == "The game could not be saved: the disk is full"
    assert screen.ids.confirm_button.text == "Power off anyway"
    assert screen.focused_widget is screen.ids.cancel_button.__self__
    assert app.save_warning == "Not saving: the disk is full"  # the table's lasting warning too
    shut_down(screen)
    assert fake.calls == 1


def test_a_store_that_keeps_nothing_is_no_save(make_app: Any) -> None:
    app, _store, fake = power_app(make_app, unavailable="/data/parlor.db is a directory")
    app.new_game("meri")
    screen = open_prompt(app)
    screen.confirm()
    pump(20)
    assert fake.calls == 0 and screen.stage == "unsaved"
    assert screen.message == "The game could not be saved: /data/parlor.db is a directory"


def test_a_refused_power_off_says_why_in_one_line(make_app: Any) -> None:
    app, _store, fake = power_app(make_app, problem="this user may not power off the machine")
    screen = open_prompt(app)
    shut_down(screen)
    assert fake.calls == 1 and screen.stage == "ask"
    assert screen.message == "Could not power off: this user may not power off the machine"


def test_the_default_power_off_is_harmless(make_app: Any) -> None:
    app = make_app(power=ON)
    screen = open_prompt(app)
    screen.confirm()
    wait_for(lambda: screen.stage == "ask", seconds=5, what="the refusal")
    assert screen.message == "Could not power off: powering off is not set up here"


def test_a_long_press_of_the_power_button_opens_the_prompt(make_app: Any) -> None:
    power = PowerSettings(enabled=True, button="BACK", hold_seconds=0.2)
    app, _store, fake = power_app(make_app, power=power)
    app.handle_input("BACK:long")
    app.handle_input("BACK:release")  # let go before hold_seconds: nothing
    pump(3)
    wait_for(lambda: not app.input.power_gesture.active, seconds=1)
    settle()
    assert app.root.current == "home"
    app.handle_input("OK:long")  # another button's long press: nothing
    app.handle_input("BACK:long")
    wait_for(lambda: app.root.current == "power", seconds=5, what="the Power off prompt")
    pump(10)
    assert fake.calls == 0  # the prompt asks; it never powers off blind


def test_the_power_button_does_nothing_while_power_off_is_not_enabled(make_app: Any) -> None:
    app, _store, fake = power_app(make_app, power=PowerSettings(button="BACK", hold_seconds=0))
    app.handle_input("BACK:long")
    pump(5)
    app.request_power()
    pump(3)
    assert app.root.current == "home" and fake.calls == 0


def test_the_entries_are_there_only_when_enabled(make_app: Any) -> None:
    app = make_app()
    settings = app.root.get_screen("settings")
    assert settings.ids.power_button not in settings.candidates()
    exit_screen = app.root.get_screen("exit")
    assert all(w.text != "Power off" for w in exit_screen.candidates())

    app, _store, fake = power_app(make_app, pin="7")
    app.go("settings")
    settle()
    settings = app.root.current_screen
    button = settings.ids.power_button
    assert button in settings.candidates() and button.height >= 48  # a touch target
    for _ in range(20):  # the focus reaches it with the buttons
        if settings.focused_widget is button.__self__:
            break
        app.handle_input("DOWN")
    assert settings.focused_widget is button.__self__
    app.handle_input("OK")
    settle()
    assert app.root.current == "power" and app.root.current_screen.needs_pin
    app.go("exit")
    settle()
    exit_screen = app.root.current_screen
    entry = [w for w in exit_screen.candidates() if w.text == "Power off"]
    assert entry and entry[0].height >= 48
    tap(entry[0])
    settle()
    assert app.root.current == "power" and fake.calls == 0


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)], ids=["landscape", "portrait"])
def test_every_stage_of_the_prompt_fits_in_every_language(make_app: Any,
                                                          size: tuple[int, int]) -> None:
    from tests.ui.uitools import cut_labels
    from ui.i18n import LANGUAGES

    app, store, _fake = power_app(make_app, pin="1", problem="this user may not power off "
                                  "the machine (`parlor install-service` installs the polkit "
                                  "rule that allows it)", size=size)
    app.new_game("chan")
    store.failing = True
    problems = []
    for lang in LANGUAGES:
        app.set_language(lang)
        app.go("home")
        screen = open_prompt(app)
        problems += [f"{lang} ask: {p}" for p in cut_labels(app.root)]
        screen.digit("1")
        screen.confirm()
        settle()
        assert screen.stage == "unsaved"
        problems += [f"{lang} unsaved: {p}" for p in cut_labels(app.root)]
        shut_down(screen)
        settle()
        assert screen.stage == "ask" and screen.message.endswith("allows it)")
        problems += [f"{lang} refused: {p}" for p in cut_labels(app.root)]
    assert not problems, "\n".join(problems)
