"""Screenshots of Why? (issue 21) on each table: the button beside the last AI move, and the
panel it opens (the normal AI's weighed candidates), plus an easy AI's panel, at 800×480 and
720×1280 (run under a display, e.g. xvfb-run).

    xvfb-run -a -s "-screen 0 1280x1280x24" .venv/bin/python scripts/why_screenshots.py \
        [--out screenshots] [--lang en] [--size 800x480 --size 720x1280]

Each picture is a real deal played by the table's own bots (normal level) from a seeded deal,
your moves by the heuristic bot, up to the first turn of yours after an AI move it weighed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from shotkit import main_per_size, shoot, wait  # first: a quiet Kivy
from table_screenshots import open_deal

GAMES = ("meri", "tractor", "chan")


def why_shots(app: Any, out: Path, tag: str, game_name: str, level: str, seed: int) -> None:
    from engine import registry
    from engine.ai.bots import make_bot

    app.ai_level = level
    table = open_deal(app, game_name, registry.get(game_name).new_deal(seed), [])
    me = make_bot(game_name, "heuristic", seed)  # plays your turns until the moment comes
    wanted = "rules" if level == "easy" else "search"
    while True:
        wait(lambda: table.summary_open or (table.human_deciding() and table.prompt != ""),
             f"{game_name}: your turn", seconds=300)
        note = table.why.note()
        if note is not None and note[2].kind == wanted:
            break
        if table.summary_open:
            print(f"why_screenshots: {game_name} seed {seed}: no {wanted} AI move before the end")
            raise SystemExit(1)
        state = table.session.state
        table.play(me.choose(state.observation(0), state.legal_actions()))
    if level != "easy":
        shoot(out, f"why_{game_name}_button_{tag}")
    if not table.why.open():  # a counted game: Why? first asks to make it a practice game
        if level != "easy":
            shoot(out, f"why_{game_name}_question_{tag}")
        table.undo.answer(True)
    wait(lambda: table.why.is_open, f"{game_name}: the Why? panel", seconds=30)
    shoot(out, f"why_{game_name}_{level}_{tag}")
    table.why.close()
    table.shutdown()


def pictures(app: Any, out: Path, tag: str) -> None:
    for game_name in GAMES:
        why_shots(app, out, tag, game_name, "normal", 4)
    why_shots(app, out, tag, "chan", "easy", 4)


def main(argv: list[str] | None = None) -> int:
    return main_per_size("why_screenshots", __doc__.splitlines()[0], argv, pictures)


if __name__ == "__main__":
    raise SystemExit(main())
