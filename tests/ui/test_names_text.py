"""A player's name is always text (issue 33 part 2), with real widgets and a real phone server.

On every table, two players on this screen and two phones take names that look like Kivy
markup (`[size=400]…`, `[b]…[/b]`, `[color=…]`, `&`); the deal is played to its summary. Every
label of the table, of its summary (pictures and details) and of Why? shows each name exactly
as typed: a markup label's text is what Kivy draws after parsing its markup, a plain label's
its text (an escaped name there would show `&bl;`), and no label grows with a name's `[size]`.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from kivy.uix.label import Label

from engine.ai.why import RULES, Why
from tests.ui.tablesim import finish_with_bots
from tests.ui.test_remote_seats import Player, free_port
from tests.ui.uitools import pump, settle, wait_for
from ui.remote.settings import NetworkSettings
from ui.table.why import WhyPanel, panel_lines

pytestmark = pytest.mark.ui

GAMES = ["meri", "tractor", "chan"]
#: Seat -> its name; each name holds a word (its marker) found nowhere else on a table.
NAMES = {0: "[size=400]Zqz[/size]", 1: "[color=ff0000]Rdq", 2: "Tom & [b]Vyx[/b]",
         3: "[i]Kwz & Co"}
MARKERS = {0: "Zqz", 1: "Rdq", 2: "Vyx", 3: "Kwz"}
SCREEN_SEATS = (0, 2)
TALL = 150  # px: no line of any table's label is this tall
PHONE_SEATS = (1, 3)
#: The tags Kivy's markup acts on (kivy/core/text/markup.py): any other `[…]` is drawn as is.
TAG = re.compile(r"\[/?(?:b|i|u|s|sub|sup|size|color|font|font_family|font_context|"
                 r"font_features|text_language|ref|anchor)(?:=[^\]]*)?\]")


def press(button: Any) -> None:
    """A button's own action (its `on_release`), then a frame."""
    button.dispatch("on_release")
    pump(1)


def shown_text(label: Label) -> str:
    """The text a label draws: a markup label's pieces without the tags Kivy acts on, its
    escapes undone (Kivy's own split, `MarkupLabel.markup`); a plain label's text as is."""
    if not label.markup:
        return str(label.text)
    pieces = [p for p in re.split(r"(\[.*?\])", str(label.text)) if p]
    return "".join(p.replace("&bl;", "[").replace("&br;", "]").replace("&amp;", "&")
                   for p in pieces if not TAG.fullmatch(p))


def labels_of(root: Any) -> list[Label]:
    return [w for w in root.walk(restrict=False) if isinstance(w, Label) and w.text]


def check_names(root: Any, where: str) -> dict[int, set[bool]]:
    """Every label under `root` shows the names literally; per seat, the kinds of label
    (markup or not) its name was seen in."""
    seen: dict[int, set[bool]] = {seat: set() for seat in NAMES}
    problems = []
    for label in labels_of(root):
        label.texture_update()
        text = shown_text(label)
        for seat, marker in MARKERS.items():
            if marker not in text:
                continue
            seen[seat].add(bool(label.markup))
            if NAMES[seat] not in text:
                problems.append(f"{where}: {NAMES[seat]!r} drawn as {text!r} "
                                f"(markup={label.markup}, text={label.text!r})")
            lines = text.count("\n") + 1  # a line of a [size=400] name is taller than this
            if label.texture_size[1] > lines * TALL:
                problems.append(f"{where}: {text!r} is {label.texture_size[1]}px tall")
        if any(e in text for e in ("&bl;", "&br;", "&amp;")):
            problems.append(f"{where}: an escape shows literally in {text!r}")
    assert not problems, "\n".join(problems)
    return seen


@pytest.mark.parametrize("game_name", GAMES)
def test_markup_looking_names_show_as_typed(make_app: Any, game_name: str) -> None:
    net = NetworkSettings(enabled=True, port=free_port(), grace_seconds=30.0, bind="127.0.0.1")
    app = make_app(pace=0, network=net)
    app.open_seating(game_name)  # Home's Play
    seating = app.root.get_screen("seating")
    wait_for(lambda: app.root.current == "seating" and len(seating.rows) >= 4, seconds=10,
             what=f"the seating screen ({app.root.current}, {len(seating.rows)} rows)")
    for seat in PHONE_SEATS:
        while seating.plans[seat].kind != "phone":  # this screen / AI -> ... -> phone
            press(seating.rows[seat].kind_button)
    press(seating.rows[2].kind_button)  # AI -> this screen: pass-and-play, names, never "You"
    for seat in SCREEN_SEATS:
        seating.rows[seat].name_input.text = NAMES[seat]
    settle()
    assert [p.kind for p in seating.plans[:4]] == ["screen", "phone", "screen", "phone"]
    phones = seating.phones
    wait_for(lambda: phones is not None and phones.listening, seconds=10, what="the server")
    players = {seat: Player(net.port) for seat in PHONE_SEATS}
    try:
        for seat, player in players.items():
            player.join(phones.server.token, seat, NAMES[seat])
        wait_for(lambda: phones.joined() == set(PHONE_SEATS), seconds=10, what="the phones")
        press(seating.ids.play_button)
        pump(3)
        table = app.root.get_screen(game_name)
        assert app.root.current == game_name
        badges = table.seats if game_name == "chan" else table.badges
        assert [badges[s].name for s in range(4)] == [NAMES[s] for s in range(4)]
        check_names(table, "table")  # the cover "I'm NAME", the badges, who is to play

        finish_with_bots(table)
        body = table.ids.summary_panel.ids.summary_body
        body.finish()
        pump(6)
        seen = check_names(table, "summary pictures")
        table.ids.summary_panel.details = True
        pump(6)
        details = check_names(table, "summary details")
        assert any(True in seen[s] or True in details[s] for s in (0, 1)), \
            "no name reached a markup label: the test would prove nothing"

        for seat in NAMES:  # Why? for a named seat (its title and lines, as the table shows it)
            panel = WhyPanel()
            panel.show(*panel_lines(game_name, seat, Why(kind=RULES, chosen=0),
                                    lambda action: str(action)))
            pump(2)
            assert check_names(panel, "Why?")[seat], "the Why? panel does not name its seat"
    finally:
        for player in players.values():
            player.close()
