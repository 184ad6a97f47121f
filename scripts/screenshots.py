"""Screenshots of the app for people to look at: home, the Meri table mid-trick, the deal summary.

    xvfb-run -a -s "-screen 0 1280x1280x24" .venv/bin/python scripts/screenshots.py [--out DIR]

Writes PNGs at 800×480 (the official Pi display) into `screenshots/`: home, the Meri table in
the middle of a trick (your turn, cards already on the table), the end-of-deal summary, plus the
same table and summary in Vietnamese and the table and settings at 720×1280 portrait, the settings'
sound rows, and the kiosk's exit and power-off prompts (PIN asked) in both orientations; the Undo
question (a normal game becoming a practice game) and the table after the undo, the list of kept
deals and the replay viewer (every hand shown, a few tricks in), at 800×480 and at 720×1280 in
French; the Statistics screen's name picker (a long name) at 800×480 and at 720×1280 in
Vietnamese; Settings' Phones switch (off, its kiosk prompt, on while the network opens, on with
the address phones use) at 800×480 and at 720×1280 in Spanish. Deterministic (seeded).
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import shotkit  # first: a quiet Kivy; the repository importable
from shotkit import ROOT, close, pump, shoot, wait


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "screenshots")
    parser.add_argument("--seed", type=int, default=4)
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)

    from engine.ai.base import RandomBot
    from engine.meri import card_actions
    from engine.session import Session
    from hardware import health
    from ui.app import ParlorApp
    from ui.ports import KioskSettings, PowerSettings

    def shot(_app: ParlorApp, name: str) -> None:
        shoot(args.out, name)

    def until(condition, seconds: float = 60.0) -> None:  # noqa: ANN001
        wait(condition, "the wanted moment", seconds)

    def new_app(size: tuple[int, int], lang: str, kiosk: bool = False) -> ParlorApp:
        board = lambda: health.read_all(Path(tempfile.gettempdir()))  # noqa: E731  (this machine)
        lockdown = KioskSettings(enabled=True, exit_pin="1234") if kiosk else KioskSettings()
        return shotkit.new_app(size, lang, seed=args.seed, health=board, kiosk=lockdown,
                               power=PowerSettings(enabled=True))

    def mid_trick(app: ParlorApp) -> None:
        """Play (lowest legal card, never declaring) until it is our turn with 3+ cards down."""
        app.new_game("meri")
        table = app.root.get_screen("meri")
        while True:
            until(lambda: table.prompt != "" and not table.holding)
            obs = app.session.state.observation(0)
            if table.prompt == "play" and obs.trick_no >= 2 and sum(c >= 0 for c in obs.trick) >= 3:
                break
            if table.prompt == "declare":
                table.declare(False)
            else:
                table.play(card_actions(app.session.state.legal_actions())[-1])
        hand = table.ids.hand
        [first] = table.indexes_of(card_actions(app.session.state.legal_actions())[:1])
        table.toggle(first)
        table.set_focus(hand.views[first])

    def finish(app: ParlorApp) -> None:
        table = app.root.get_screen("meri")
        table.driver.invalidate()
        bot = RandomBot(1)
        session = app.session
        while not session.state.is_over:
            state = session.state
            session.apply(bot.choose(state.observation(state.to_act), state.legal_actions()))
        table._tricks_seen = len(session.state.observation(0).tricks)
        table.step()
        until(lambda: table.summary_open and table.ids.summary_body.ready())

    def undo_and_replay(app: ParlorApp, suffix: str) -> None:
        """The Undo question and the table after it; then the finished deal in the viewer."""
        mid_trick(app)
        table = app.root.get_screen("meri")
        table.undo.request()
        shot(app, f"undo_confirm{suffix}")
        table.undo.answer(True)
        shot(app, f"undo_practice{suffix}")
        finish(app)
        pump(20)
        app.go("stats")
        shot(app, f"stats_practice{suffix}")
        app.go("replays")
        shot(app, f"replays{suffix}")
        app.open_deal(app.services.store.recent_deals()[0]["id"])
        viewer = app.root.get_screen("replay")
        for _ in range(3):
            viewer.next_trick()
        viewer.forward()
        viewer.forward()
        pump(60)  # every hand's cards are drawn a few per frame
        shot(app, f"replay_viewer{suffix}")
        viewer.toggle_hands()
        pump(100)
        shot(app, f"replay_viewer_all{suffix}")
        for game in ("tractor", "chan"):  # the other decks in the viewer, every hand shown
            for seed in range(args.seed, args.seed + 50):  # a deal long enough to show play
                session = Session.new(game, seed)
                bot = RandomBot(seed)
                while not session.state.is_over:
                    state = session.state
                    session.apply(bot.choose(state.observation(state.to_act),
                                             state.legal_actions()))
                if len(session.record.actions) >= 40:
                    break
            app.services.store.save_finished_deal(game, "win", 1, session.record.to_json())
            app.open_deal(app.services.store.recent_deals()[0]["id"])
            viewer.all_hands = True
            for _ in range(4):
                viewer.next_trick()
            viewer.forward()
            pump(100)
            shot(app, f"replay_viewer_{game}{suffix}")

    app = new_app((800, 480), "en")
    shot(app, "home")
    for name in ("settings", "controls", "stats"):
        app.go(name)
        shot(app, name)
        if name == "settings":  # scrolled down: the sound rows (volume, effects, voice)
            app.root.get_screen(name).ids.scroller.scroll_y = 0
            shot(app, "settings_sound")
    app.open_rules("meri")
    shot(app, "rules_meri")
    app.go("home")
    mid_trick(app)
    shot(app, "meri_trick")
    finish(app)
    shot(app, "meri_summary")
    close(app)

    app = new_app((800, 480), "vi")
    mid_trick(app)
    shot(app, "meri_trick_vi")
    finish(app)
    shot(app, "meri_summary_vi")
    close(app)

    app = new_app((720, 1280), "fr")
    shot(app, "home_portrait_fr")
    app.go("settings")
    shot(app, "settings_portrait_fr")
    app.go("home")
    mid_trick(app)
    shot(app, "meri_trick_portrait_fr")
    close(app)

    for size, lang, suffix in (((800, 480), "en", ""), ((720, 1280), "fr", "_portrait_fr")):
        app = new_app(size, lang)
        undo_and_replay(app, suffix)
        close(app)

    # The kiosk's exit prompt (with Power off) and the power-off prompt, PIN asked.
    for size, lang, suffix in (((800, 480), "en", ""), ((720, 1280), "nl", "_portrait_nl")):
        app = new_app(size, lang, kiosk=True)
        app.go("exit")
        shot(app, f"exit_kiosk{suffix}")
        app.request_power()
        shot(app, f"power_off{suffix}")
        close(app)

    # Statistics per name (issue 22): the name picker on a long Vietnamese name.
    from ui.ports import PlayerResult

    for size, lang, suffix in (((800, 480), "en", ""), ((720, 1280), "vi", "_portrait_vi")):
        app = new_app(size, lang)
        store = app.services.store
        for game, deals in (("meri", 5), ("tractor", 3), ("chan", 4)):
            for n in range(deals):
                outcome = ("win", "loss", "draw")[n % 3]
                store.save_finished_deal(game, outcome, 2 - n, "{}", players=[
                    PlayerResult("", outcome, 2 - n), PlayerResult("Linh", "win", 3),
                    PlayerResult("Nguyễn Thị Bảo Ngọc", ("loss", "win")[n % 2], n)])
        app.go("stats")
        stats = app.root.get_screen("stats")
        stats.step_name(1)
        stats.step_name(1)
        stats.set_focus(stats.ids.next_name)
        shot(app, f"stats_names{suffix}")
        close(app)

    # Settings' Phones switch (issue 35 point 2), as on the appliance: off; the kiosk's prompt
    # (PIN, and that Parlor restarts); on while the root side has not opened the network yet;
    # on, with the address phones use (a fixed address: `bind`, for the same picture anywhere).
    from ui.remote.settings import NetworkSettings

    class Appliance:
        """The service's side of the switch (`ui.ports.PhoneNetwork`), opened on demand."""

        restarts = True
        opened = False

        def request(self, on: bool) -> str:
            return ""

        def pending(self, on: bool) -> bool:
            return on != self.opened

    for size, lang, suffix in (((800, 480), "en", ""), ((720, 1280), "es", "_portrait_es")):
        app = new_app(size, lang, kiosk=True)
        app.services.network = NetworkSettings(bind="192.168.1.20")
        app.services.phone_network = appliance = Appliance()
        app.go("settings")
        settings = app.root.get_screen("settings")
        settings.ids.scroller.scroll_to(settings.ids.phones_row, animate=False)
        shot(app, f"settings_phones_off{suffix}")
        app.request_phones(True)
        prompt = app.root.current_screen
        for digit in "12":
            prompt.digit(digit)
        shot(app, f"phones_prompt{suffix}")
        for digit in "34":
            prompt.digit(digit)
        prompt.confirm()
        shot(app, f"settings_phones_opening{suffix}")
        appliance.opened = True
        settings.refresh_phones()
        shot(app, f"settings_phones_on{suffix}")
        close(app)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
