"""Frames caught mid-motion (a screenshot cannot show motion): the deal flying to the seats, a
trick swept to its winner, the seat to act pulsing, Tractor's kitty picked up and buried (by an
AI and by you), and Chắn's capture / discard / draw / Chíu flights, at 800×480 by default (run
under a display, e.g. xvfb-run).

    xvfb-run -a -s "-screen 0 1280x1280x24" .venv/bin/python scripts/motion_frames.py \
        [--out screenshots/motion] [--size 800x480]

Bots play every seat at speed 1.0. At the wanted moment the script stops the bots, freezes
every running Animation (its per-frame update does nothing), moves each one forward by a chosen
time (`advance`, e.g. half a flight), draws a few frames and saves the PNG; then play goes on.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import shotkit  # first: a quiet Kivy
from shotkit import new_app, pump, shoot, wait


class Freezer:
    """Stops and steps every running Kivy Animation (and the table's bots meanwhile)."""

    def __init__(self) -> None:
        from kivy.animation import Animation

        self.animation = Animation
        self.update = Animation._update

    def freeze(self, table: Any, advance: float, settle: int = 0) -> None:
        """Stop the bots and every animation; draw `settle` frames (cold card faces get drawn
        within the frame budget meanwhile), then step the animations by `advance` seconds."""
        if table.driver is not None:
            table.driver.invalidate()  # no bot acts while the frame is taken
        def _update(_anim: Any, _dt: float) -> None:  # named so: the Clock calls it by name
            return None

        self.animation._update = _update
        pump(settle)
        steps = max(1, round(advance / 0.02))  # small steps, as frames would: a Sequence
        for _ in range(steps):                  # starts its next part as one ends
            for anim in list(self.animation._instances):
                if type(anim) is self.animation:  # the leaves (a Sequence or Parallel runs them)
                    self.update(anim, 0.0)  # an animation's first update only starts its clock
                    self.update(anim, advance / steps)

    def thaw(self, table: Any) -> None:
        self.unfreeze()
        table.step()

    def unfreeze(self) -> None:
        """The animations run on (the bots stay held back)."""
        self.animation._update = self.update


STILL: dict[str, Any] = {"frames": 3, "faces": False}  # the frame as frozen: no time to move on


def build(size: tuple[int, int]) -> Any:
    """An app whose bots play at speed 1.0: the motion runs as a player sees it."""
    return new_app(size, pace=1.0)


def trick_game(app: Any, freezer: Freezer, game: str, out: Path, tag: str) -> None:
    table = app.root.get_screen(game)
    table.autoplay = True
    app.new_game(game)
    wait(lambda: table.motion.flights, "the deal's flights")
    freezer.freeze(table, 0.35, settle=12)  # the deal: the first cards near their seats, the last leaving
    shoot(out, f"motion-{game}-deal-{tag}", **STILL)
    freezer.thaw(table)
    wait(lambda: not table.motion.flights, "the end of the deal's flights")
    wait(lambda: table.motion._pulse_anim is not None, "a pulse")
    freezer.freeze(table, 0.2)
    shoot(out, f"motion-{game}-pulse-{tag}", **STILL)
    freezer.thaw(table)
    if game == "tractor":  # the kitty flies to the dealer, then the buried cards back
        for phase, kind in (("bury", "pickup"), ("play", "bury")):
            wait(lambda p=phase: table.observation().phase == p and table.motion.flights,
                 f"the kitty's {kind}")
            freezer.freeze(table, 0.3)
            shoot(out, f"motion-{game}-kitty-{kind}-{tag}", **STILL)
            freezer.thaw(table)
    wait(lambda: table.showing is not None, "a completed trick")
    wait(lambda: table.showing is None and table.motion.flights, "the sweep")
    freezer.freeze(table, 0.2)  # half the sweep
    shoot(out, f"motion-{game}-sweep-{tag}", **STILL)
    freezer.thaw(table)
    table.shutdown()


def chan(app: Any, freezer: Freezer, out: Path, tag: str) -> None:
    table = app.root.get_screen("chan")
    table.autoplay = True
    app.new_game("chan")
    wait(lambda: table.motion.flights, "the deal's flights")
    freezer.freeze(table, 0.3, settle=12)
    shoot(out, f"motion-chan-deal-{tag}", **STILL)
    freezer.thaw(table)
    wanted = {"captured": "capture", "discarded": "discard", "Stock": "draw"}
    seen: set[str] = set()
    stock = [table.stock_text]
    for _ in range(200):
        if seen == set(wanted.values()) or table.session.state.is_over:
            break
        wait(lambda: any(f.hidden for f in table.motion.flights) or table.summary_open,
             "a Chắn flight")
        if table.summary_open:
            break
        flight = next(f for f in table.motion.flights if f.hidden)
        if flight.view.face == "back":
            kind = "draw"
        else:
            kind = "capture" if "captured" in table.event_text else "discard"
        stock[0] = table.stock_text
        if kind not in seen:
            seen.add(kind)
            freezer.freeze(table, 0.16)  # half a flight
            shoot(out, f"motion-chan-{kind}-{tag}", **STILL)
            freezer.thaw(table)
        wait(lambda: not any(f.hidden for f in table.motion.flights), "the flight to land")
    table.shutdown()
    missing = set(wanted.values()) - seen
    if missing:
        print(f"motion_frames: no {', '.join(sorted(missing))} flight in this Chắn deal")


def chiu(app: Any, freezer: Freezer, out: Path, tag: str) -> None:
    """Your Chíu (K-1) mid-flight: your three cards and the open card to your exposed cards."""
    import random

    from engine import registry
    from engine.chan.legal import CHIU

    game = registry.get("chan")
    for seed in range(100):
        rng, state, actions = random.Random(seed), game.new_deal(seed), []
        while not state.is_over and state.phase != "chiu_offer":
            actions.append(rng.choice(state.legal_actions()))
            state.apply(actions[-1])
        trial = state.clone()
        if not state.is_over and state.to_act == 0:
            trial.apply(CHIU)
            if not trial.is_over:
                break
    else:
        print("motion_frames: no Chíu offer found")
        return
    table = open_deal(app, "chan", game.new_deal(seed), actions)
    wait(lambda: table.offer == "chiu_offer", "your Chíu offer")
    pump(12)
    table.play(CHIU)
    wait(lambda: any(f.hidden for f in table.motion.flights), "the Chíu's flights")
    freezer.freeze(table, 0.16, settle=2)
    shoot(out, f"motion-chan-chiu-{tag}", **STILL)
    freezer.thaw(table)
    table.shutdown()


def open_deal(app: Any, game_name: str, state: Any, actions: list[Any]) -> Any:
    """The table of `game_name` on the deal `state` after `actions`, its bots held back."""
    table = shotkit.open_deal(app, game_name, state, actions)
    table.driver.invalidate()  # the script plays the next action
    return table


def kitty_yours(app: Any, freezer: Freezer, out: Path, tag: str) -> None:
    """You declare and deal: the kitty flies face up onto your hand, your bury back face up."""
    import random

    from engine.tractor import DECLARE, PASS
    from engine.tractor.deal import deal

    for seed in range(200):
        state, actions = deal(random.Random(seed), None), []
        while state.phase == "declare":
            legal = list(state.legal_actions())
            mine = [a for a in legal if a != PASS and a[0] == DECLARE and state.to_act == 0]
            actions.append(mine[0] if mine and not any(a in actions for a in mine)
                           else (PASS if PASS in legal else legal[0]))
            state.apply(actions[-1])
        if state.phase == "bury" and state.dealer == 0:
            break
    else:
        print("motion_frames: no deal where you deal the kitty")
        return
    table = open_deal(app, "tractor", deal(random.Random(seed), None), actions[:-1])
    pump(2)
    table.driver.apply(actions[-1])
    for kind in ("pickup", "bury"):
        wait(lambda: table.motion.flights, f"your kitty's {kind}")
        freezer.freeze(table, 0.3, settle=15)
        shoot(out, f"motion-tractor-kitty-your-{kind}-{tag}", **STILL)
        freezer.unfreeze()
        wait(lambda: not table.motion.flights, f"your kitty's {kind} to land")
        table.driver.invalidate()
        if kind == "pickup":
            table.driver.apply(next(iter(table.session.state.legal_actions())))
    table.shutdown()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("screenshots/motion"))
    parser.add_argument("--size", action="append", default=[])
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    freezer = Freezer()
    for text in args.size or ["800x480"]:
        width, _, height = text.partition("x")
        size = (int(width), int(height))
        tag = f"{size[0]}x{size[1]}"
        for game in ("meri", "tractor"):
            trick_game(build(size), freezer, game, args.out, tag)
        chan(build(size), freezer, args.out, tag)
        chiu(build(size), freezer, args.out, tag)
        kitty_yours(build(size), freezer, args.out, tag)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
