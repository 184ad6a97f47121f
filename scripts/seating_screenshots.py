"""Screenshots of the seating screen (issue 22) for people to look at.

    xvfb-run -a -s "-screen 0 1280x1280x24" .venv/bin/python scripts/seating_screenshots.py [--out DIR]

Writes PNGs into `screenshots/`: Tractor's seating as today's game (you and AI); with two
phone seats, a name typed and the phone server running on 127.0.0.1 (QR code, URL, who is
awaited, what plays a phone seat while its phone is away), at 800×480 and 720×1280 portrait
(and in Vietnamese at 800×480, `seating_phones_vi.png`); Hachinin Meri's eight seats with
`[network]` off (the panel says how to turn phones on); and the Tractor table those phone seats lead to (the
public table: no hand shown, the seats' names). Pass-and-play (several seats on this screen):
its seating, the cover "I'm NAME" at a hand-over and the table after the tap, for Tractor (seats
1 and 3) at both sizes and Chắn (seats 1 and 2) at 800×480. Two seats typed with one name:
Play refused in one line (`seating_same_name*.png`, 800×480 English, 720×1280 French); a
seating kept from before that refusal, with one name twice: the cover adds the seat's number
(`pass_cover_same_name*.png`, 800×480 English, 720×1280 Vietnamese). Play
with a saved match in progress: the question before it is lost (`seating_keep_saved_*.png`,
English and Vietnamese, at both sizes). The server listens on the loopback only and is stopped
before the script ends. Each game's seating as it first comes, the picture of its table and who
plays with whom (`seating_meri*.png`, `seating_chan*.png`: 800×480 English, 720×1280 Dutch).
"""

from __future__ import annotations

import argparse
import socket
from pathlib import Path
from typing import Any

import shotkit  # first: a quiet Kivy; the repository importable
from shotkit import ROOT, close, shoot, wait


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "screenshots")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)

    from ui.app import ParlorApp
    from ui.remote.settings import NetworkSettings

    def shot(_app: ParlorApp, name: str) -> None:
        shoot(args.out, name)

    def free_port() -> int:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            return int(sock.getsockname()[1])

    def new_app(size: tuple[int, int], network: NetworkSettings) -> ParlorApp:
        return shotkit.new_app(size, seed=4, ai_level="normal", network=network)

    def until(_app: ParlorApp, condition: Any, what: str, seconds: float = 60.0) -> None:
        wait(condition, what, seconds)

    def pass_and_play(size: tuple[int, int], suffix: str, game: str, seats: tuple[int, int],
                      names: tuple[str, str]) -> None:
        app = new_app(size, NetworkSettings(enabled=False))
        app.open_seating(game)
        seating = app.root.get_screen("seating")
        for seat, name in zip(seats, names, strict=True):
            if seating.plans[seat].kind != "screen":
                seating.step_kind(seat)  # AI -> this screen
            seating.rows[seat].name_input.text = name
        shot(app, f"seating_pass_{game}{suffix}")
        seating.play()
        table = app.root.get_screen(game)
        until(app, lambda: table.cover.up, "the cover")
        shot(app, f"pass_cover_{game}{suffix}")
        table.cover.take_turn()
        until(app, lambda: table.human_deciding(), "the decision after the tap")
        shot(app, f"pass_table_{game}{suffix}")
        close(app)

    for size, suffix, lang in (((800, 480), "", "en"), ((720, 1280), "_portrait", "en"),
                               ((800, 480), "_vi", "vi")):
        net = NetworkSettings(enabled=True, port=free_port(), bind="127.0.0.1")
        app = shotkit.new_app(size, lang, seed=4, ai_level="normal", network=net)
        app.open_seating("tractor")
        if lang == "en":
            shot(app, f"seating_default{suffix}")
        seating = app.root.get_screen("seating")
        seating.step_kind(0)  # this screen -> phone
        seating.rows[0].name_input.text = "Linh"
        seating.step_kind(2)  # AI -> this screen
        seating.step_kind(2)  # this screen -> phone
        seating.step_level(3)  # normal -> hard
        shot(app, f"seating_phones{suffix}")  # (and the stand-in AI of the phone seats)
        if not suffix:
            seating.play()
            shot(app, "seating_table_public")
        close(app)
    pass_and_play((800, 480), "", "tractor", (0, 2), ("Ann", "Bảo"))
    pass_and_play((720, 1280), "_portrait", "tractor", (0, 2), ("Ann", "Bảo"))
    pass_and_play((800, 480), "", "chan", (0, 1), ("Ann", "Bảo"))
    for size, suffix, lang in (((800, 480), "", "en"), ((720, 1280), "_portrait_fr", "fr")):
        app = shotkit.new_app(size, lang, seed=4, ai_level="normal",
                              network=NetworkSettings(enabled=False))
        app.open_seating("meri")
        seating = app.root.get_screen("seating")
        seating.step_kind(4)  # AI -> this screen
        seating.rows[0].name_input.text = "Ann"
        seating.rows[4].name_input.text = "ann"
        seating.play()  # refused: seats 1 and 5 share a name
        shot(app, f"seating_same_name{suffix}")
        close(app)
    from ui.table.seating import Seating, SeatPlan

    for size, suffix, lang in (((800, 480), "", "en"), ((720, 1280), "_portrait_vi", "vi")):
        app = shotkit.new_app(size, lang, seed=4, ai_level="normal",
                              network=NetworkSettings(enabled=False))
        app.new_game("tractor", seating=Seating([
            SeatPlan("screen", "Nguyễn Thị Minh Khai"), SeatPlan("ai"),
            SeatPlan("screen", "nguyễn thị minh khai"), SeatPlan("ai")]))
        shown = app.root.get_screen("tractor")
        until(app, lambda shown=shown: shown.cover.up, "the cover")
        shot(app, f"pass_cover_same_name{suffix}")
        close(app)
    app = new_app((800, 480), NetworkSettings(enabled=False))
    app.open_seating("meri")
    seating = app.root.get_screen("seating")
    seating.step_kind(3)
    shot(app, "seating_meri_network_off")
    close(app)
    # Each game's seating as it first comes: the picture of its table, its teams (or none)
    for size, suffix, lang in (((800, 480), "", "en"), ((720, 1280), "_portrait_nl", "nl")):
        for game in ("meri", "chan"):
            app = shotkit.new_app(size, lang, seed=4, network=NetworkSettings(enabled=False))
            app.open_seating(game)
            shot(app, f"seating_{game}{suffix}")
            close(app)
    for size, suffix in (((800, 480), ""), ((720, 1280), "_portrait")):
        for lang in ("en", "vi"):
            app = shotkit.new_app(size, lang, seed=4, network=NetworkSettings(enabled=False))
            app.new_game("tractor")  # a match in progress, saved
            app.go("home")
            app.open_seating("meri")
            app.root.get_screen("seating").play()  # asks before the saved game is lost
            shot(app, f"seating_keep_saved_{lang}{suffix}")
            close(app)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
