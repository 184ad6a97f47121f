"""Screenshots of the match length (issue 33) for people to look at.

    xvfb-run -a -s "-screen 0 1280x1280x24" .venv/bin/python scripts/match_length_screenshots.py \
        [--out DIR] [--lang vi] [--size 800x480 ...]

Writes PNGs into `screenshots/` (tag `WxH_LANG`): the settings with each game's lengths
(`length_settings_*`, scrolled to them), the seating screen with the length beside Play (Chắn's
default, `length_seating_chan_*`; Tractor's "to Ace", `length_seating_tractor_*`), the summary
of the second deal of a five-deal Chắn match ("Deal 2 of 5", its running settlement,
`length_summary_chan_*` and the chart at its end, `length_summary_chan_end_*`) and of a Tractor
match to A ("Deal 3", no "of", `length_summary_tractor_*`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from shotkit import main_per_size, pump, shoot, shoot_summary  # first: a quiet Kivy
from table_screenshots import until


def summary(app: Any, out: Path, tag: str, game_name: str, deals: int, before: int) -> None:
    """The summary of deal `before + 1` of a match of `deals` deals (0: the game's own end),
    the deals before played by heuristic bots; a deal with a winner is looked for (a drawn
    Chắn deal has no hand to show)."""
    from engine import registry

    game = registry.get(game_name)
    match = game.new_match(11, deals)
    for number in range(before):
        state = match.next_deal()
        until(game_name, state, lambda _s: False, 7 * number + 1)
        match.finish_deal(state)
    state = match.next_deal()
    actions: list = []
    for seed in range(97, 140):
        probe = state.clone()
        actions = until(game_name, probe, lambda _s: False, seed)
        if game_name != "chan" or probe.result["winner"] is not None:
            break
    names = (f"length_summary_{game_name}_{tag}", f"length_summary_{game_name}_end_{tag}")
    shoot_summary(app, out, names, game_name, match, state, actions)


def pictures(app: Any, out: Path, tag: str) -> None:
    app.go("settings")
    pump(6)
    settings = app.root.get_screen("settings")
    scroller = settings.ids.scroller
    lengths = settings.ids.lengths
    # scrolled so the lengths' heading is at the top (as far as the page goes)
    room = scroller.children[0].height - scroller.height
    if room > 0:
        top = lengths.top + 44 - scroller.children[0].y
        scroller.scroll_y = max(0.0, min(1.0, 1 - (scroller.children[0].height - top) / room))
    shoot(out, f"length_settings_{tag}")
    app.go("home")
    for game in ("chan", "tractor"):
        app.open_seating(game)
        pump(6)
        shoot(out, f"length_seating_{game}_{tag}")
        app.go("home")
        pump(2)
    summary(app, out, tag, "chan", 5, 1)
    summary(app, out, tag, "tractor", 0, 2)


def main(argv: list[str] | None = None) -> int:
    return main_per_size("match_length_screenshots", __doc__.splitlines()[0], argv, pictures)


if __name__ == "__main__":
    raise SystemExit(main())
