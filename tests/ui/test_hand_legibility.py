"""Legible hands on a 7" panel (issue 20, part 1): for the largest hand each game deals (Chắn:
the dealer's 20 cards; Tractor: the dealer's 33 with the kitty picked up; Meri: the receiver's
10 with the Okie), every card shows its index (rank numeral or Chinese numeral, and suit mark)
with glyphs at least `MIN_GLYPH` px tall inside a strip at least `MIN_STRIP` px wide, at 800×480
and 720×1280, with normal and large cards.

And every other card and label on the tables (issue 35, point 4): at those moments and mid-play
(Chắn's gates and exposed pairs, Tractor's plays, points and buried kitty, Meri's trick and side
cards), every face-up card on show prints its index at least `MIN_GLYPH` px tall, the whole
index showing (not covered by a card over it, nor cut off by its row), and every label's font
is at least `MIN_GLYPH` px.

The sizes come from the widget geometry (each card view's size and the position of the card
that overlaps it) and from the index corner the deck's art code defines (`ui.cards.corner`),
which is the geometry it draws with; `test_corner_glyphs_are_drawn_that_tall` checks the
glyph ratios it assumes against rendered text.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import registry
from engine.ai.bots import make_bot
from tests.ui.tablesim import start_deal, wait_turn
from tests.ui.uitools import pump, shown

pytestmark = pytest.mark.ui

MIN_GLYPH = 14.0  # px: the shortest identifying glyph readable at arm's length on a 7" panel
MIN_STRIP = 20.0  # px: the least of a card left showing by the card overlapping it
SIZES = [(800, 480), (720, 1280)]
LARGEST = {"chan": 20, "tractor": 33, "meri": 10}


def _until(game_name: str, seed: int, phase: str) -> tuple[Any, list[Any]] | None:
    """From deal `seed`, heuristic bots play until `phase`; the deal and the actions if seat 0
    is then to act, else None."""
    game = registry.get(game_name)
    state = game.new_deal(seed)
    bots = [make_bot(game_name, "heuristic", seed + s) for s in range(game.players)]
    actions: list[Any] = []
    while not state.is_over and state.phase != phase:
        action = bots[state.to_act].choose(state.observation(state.to_act),
                                           state.legal_actions())
        state.apply(action)
        actions.append(action)
    if state.is_over or state.to_act != 0:
        return None
    return game.new_deal(seed), actions


def largest_table(app: Any, game_name: str) -> Any:
    """The table of `game_name` showing the largest hand that game deals to the human."""
    phase = {"chan": "discard", "tractor": "bury", "meri": "discard"}[game_name]
    for seed in range(200):
        found = _until(game_name, seed, phase)
        if found is None or (game_name == "chan" and found[1]):  # Chắn: the dealer's opening
            continue
        table = start_deal(app, game_name, *found)
        wait_turn(table)
        pump(6)
        assert len(table.ids.hand.codes) == LARGEST[game_name]
        return table
    raise AssertionError(f"no deal gives seat 0 the largest {game_name} hand")


def rows_of(hand: Any) -> list[list[Any]]:
    """The hand's card views by row (the same bottom edge, a picked card lowered back)."""
    from ui.table.hand import LIFT

    rows: dict[int, list[Any]] = {}
    for view in hand.views:
        rows.setdefault(round(view.y - (view.height * LIFT if view.selected else 0)), []).append(view)
    return [sorted(row, key=lambda v: v.x) for _y, row in sorted(rows.items(), reverse=True)]


def strips(hand: Any) -> list[float]:
    """How much of each card shows: up to the next card of its row, else its whole width."""
    out = []
    for row in rows_of(hand):
        for view, after in zip(row, [*row[1:], None], strict=True):
            out.append((min(view.right, after.x) if after is not None else view.right) - view.x)
    return out


def measure(hand: Any) -> dict[str, Any]:
    """The figures the acceptance names: card size, rows, least strip, index glyphs."""
    from ui import cards

    view = hand.views[0]
    w, h = int(view.width), int(view.height)
    corner = cards.corner(hand.deck, w, h)
    rows = len(rows_of(hand))
    return {"cards": len(hand.views), "size": (w, h), "rows": rows,
            "strip": min(strips(hand)), "glyph": corner.glyph, "suit": corner.suit,
            "index_width": corner.width}


@pytest.mark.parametrize("large", [False, True], ids=["normal", "large"])
@pytest.mark.parametrize("size", SIZES, ids=["landscape", "portrait"])
@pytest.mark.parametrize("game_name", ["chan", "tractor", "meri"])
def test_largest_hand_is_legible(make_app: Any, game_name: str, size: tuple[int, int],
                                 large: bool) -> None:
    app = make_app(size=size)
    app.set_large_cards(large)
    table = largest_table(app, game_name)
    hand = table.ids.hand
    got = measure(hand)
    where = f"{game_name} {size} large={large}: {got}"
    assert got["glyph"] >= MIN_GLYPH and got["suit"] >= MIN_GLYPH, where
    assert got["strip"] >= MIN_STRIP, where
    assert got["index_width"] <= got["strip"], where  # the whole index shows in each strip
    for view in hand.views:  # every card inside the hand and the screen, none cut off
        assert hand.x - 0.5 <= view.x and view.right <= hand.right + 0.5, where
        assert 0 <= view.y and view.top <= size[1], where


#: Mid-play moments, seat 0 to act, showing what a table shows besides the hand.
MIDPLAY = {
    "chan": lambda o: (o.phase == "respond" and o.open_card >= 0 and all(o.gates)
                       and sum(len(e) for e in o.exposed) >= 8),
    "tractor": lambda o: (o.phase == "play" and len(o.tricks) >= 5 and bool(o.kitty)
                          and o.points > 0 and any(o.trick)),
    "meri": lambda o: o.phase == "play" and bool(o.side) and any(o.trick),
}


def midplay_table(app: Any, game_name: str) -> Any:
    """The table of `game_name` at its first `MIDPLAY` moment over deals 0, 1, 2…"""
    game = registry.get(game_name)
    for seed in range(300):
        state = game.new_deal(seed)
        bots = [make_bot(game_name, "heuristic", seed + s) for s in range(game.players)]
        actions: list[Any] = []
        while not state.is_over:
            if state.to_act == 0 and MIDPLAY[game_name](state.observation(0)):
                table = start_deal(app, game_name, game.new_deal(seed), actions)
                wait_turn(table)
                pump(8)
                return table
            action = bots[state.to_act].choose(state.observation(state.to_act),
                                               state.legal_actions())
            state.apply(action)
            actions.append(action)
    raise AssertionError(f"no {game_name} deal reaches its mid-play moment")


def small_cards(table: Any) -> list[str]:
    """Each face-up card on show whose index is under `MIN_GLYPH` px, covered by a later card
    of its row or cut off by it, or by a seat's badge, or which lies outside the window,
    described."""
    from kivy.core.window import Window

    from ui import cards
    from ui.table import cardsource
    from ui.table.widgets import CardView, SeatBadge

    views = [w for w in table.walk(restrict=True)
             if isinstance(w, CardView) and w.code and w.face == cardsource.FACE
             and w.width > 2 and w.height > 2 and shown(w)]
    badges = [w for w in table.walk(restrict=True) if isinstance(w, SeatBadge) and shown(w)]
    bad = []
    for view in views:
        whole = max(view.full_height, view.height)
        corner = cards.corner(view.deck, view.width, whole)
        where = f"{type(view.parent).__name__} {view.code} {view.width:.0f}x{view.height:.0f}"
        if min(corner.glyph, corner.suit) < MIN_GLYPH:
            bad.append(f"{where}: index {min(corner.glyph, corner.suit):.1f} px")
        if view.height < min(whole, corner.depth) - 0.5:
            bad.append(f"{where}: tucked to {view.height:.0f} px, its index {corner.depth:.0f}")
        siblings = [v for v in view.parent.children if isinstance(v, CardView)]
        later = siblings[:siblings.index(view)]  # drawn after it, over it
        if type(view.parent).__name__ == "CardRow":  # (a hand's strips: the tests above)
            for over in later:
                if (over.width > 2 and over.x > view.x and over.x < view.x + corner.width - 0.5
                        and over.y < view.top and over.top > view.top - corner.depth):
                    bad.append(f"{where}: index covered by {over.code} at {over.x - view.x:.0f}")
        left, bottom = view.to_window(view.x, view.y)
        right, top = view.to_window(view.right, view.top)
        for badge in badges:  # a seat's badge lying over the index
            bl, bb = badge.to_window(badge.x, badge.y)
            br, bt = badge.to_window(badge.right, badge.top)
            if (bl < left + corner.width - 0.5 and br > left + 0.5
                    and bb < top - 0.5 and bt > top - min(view.height, corner.depth) + 0.5):
                bad.append(f"{where}: index under the badge of {badge.name!r}")
        if left < -0.5 or bottom < -0.5 or right > Window.width + 0.5 or top > Window.height + 0.5:
            bad.append(f"{where}: outside the window")
    return bad


def small_labels(table: Any) -> list[str]:
    """Each label on show (not a button: tests/ui/test_button_rows.py) whose font is under
    `MIN_GLYPH` px, described."""
    from kivy.uix.button import Button

    from tests.ui.uitools import visible_labels

    return [f"{label.text[:40]!r}: font {label.font_size:.1f} px in "
            f"{label.width:.0f}x{label.height:.0f}"
            for label in visible_labels(table)
            if not isinstance(label, Button) and label.font_size < MIN_GLYPH - 0.05]


@pytest.mark.parametrize("moment", ["largest", "midplay"])
@pytest.mark.parametrize("large", [False, True], ids=["normal", "large"])
@pytest.mark.parametrize("size", SIZES, ids=["landscape", "portrait"])
@pytest.mark.parametrize("game_name", ["chan", "tractor", "meri"])
def test_every_card_and_label_is_legible(make_app: Any, game_name: str, size: tuple[int, int],
                                         large: bool, moment: str) -> None:
    """Issue 35, point 4: no card on a table (gate, exposed pairs, plays, trick, points, kitty,
    Okie) is drawn with a smaller index than a hand's, and no label with a smaller font."""
    app = make_app(size=size)
    app.set_large_cards(large)
    table = (largest_table if moment == "largest" else midplay_table)(app, game_name)
    pump(6)
    bad = small_cards(table) + small_labels(table)
    assert not bad, f"{game_name} {size} large={large} {moment}:\n" + "\n".join(bad)


def _ink(text: str, size: float, font: str, bold: bool) -> tuple[int, int]:
    """The height and width in px of the opaque pixels of `text` drawn at font `size`."""
    from kivy.core.text import Label as CoreLabel

    label = CoreLabel(text=text, font_size=size, font_name=font, bold=bold, padding=(0, 0))
    label.refresh()
    texture = label.texture
    w, h = texture.size
    pixels = texture.pixels
    rows = [y for y in range(h) if any(pixels[(y * w + x) * 4 + 3] > 127 for x in range(w))]
    cols = [x for x in range(w) if any(pixels[(y * w + x) * 4 + 3] > 127 for y in range(h))]
    return rows[-1] - rows[0] + 1, cols[-1] - cols[0] + 1


@pytest.mark.parametrize("size", [20.0, 26.0, 40.0])
def test_corner_glyphs_are_drawn_that_tall(window: Any, size: float) -> None:
    """The ink ratios `ui.cards.corner` assumes hold for the fonts the cards print with: the
    index digits and court letters at least `DIGIT_HEIGHT` of the font size tall and at most
    `INDEX_WIDTH` wide, the Tổ Tôm numerals and suit characters `CJK_HEIGHT` tall."""
    from ui.cards import chan
    from ui.cards.paint import CJK_FONT, CJK_HEIGHT, DIGIT_HEIGHT, INDEX_WIDTH, LATIN_FONT

    for text in ("2", "5", "8", "10", "A", "K", "Q", "J", "Su", "Un", "Re", "Ka", "So",
                 "Ro"):
        tall, wide = _ink(text, size, LATIN_FONT, True)
        if text != "Q":  # its tail reaches below the line; the others sit on it
            assert tall >= DIGIT_HEIGHT * size - 1, (text, size, tall)
        assert wide <= INDEX_WIDTH * size + 1, (text, size, wide)
    for char in "四五六七八九" + "".join(chan.SUIT_CHAR.values()) + "半空老":
        tall, _wide = _ink(char, size, CJK_FONT, False)
        assert tall >= CJK_HEIGHT * size - 1, (char, size, tall)


@pytest.mark.parametrize("deck", ["chan", "tractor", "meri"])
def test_index_grows_with_the_card(deck: str) -> None:
    """Over the compact faces (the sizes of a hand), a larger card never prints a smaller
    index: a larger box never reads worse. (Past `COMPACT_BELOW` the full face's index is
    smaller again; the hand picks the size with the largest index.)"""
    from ui import cards
    from ui.cards.paint import COMPACT_BELOW

    glyphs = [cards.corner(deck, *cards.size_for(deck, h)).glyph
              for h in range(64, COMPACT_BELOW, 8)]
    assert glyphs == sorted(glyphs), glyphs


def test_large_cards_make_the_hand_larger(make_app: Any) -> None:
    """The large-cards setting: larger cards and indexes in the same hand, kept in the store."""
    app = make_app(size=(800, 480))
    table = largest_table(app, "chan")
    normal = measure(table.ids.hand)
    app.set_large_cards(True)
    pump(6)
    large = measure(table.ids.hand)
    assert large["size"][1] > normal["size"][1] and large["glyph"] > normal["glyph"]
    assert app.services.store.get_setting("large_cards", False) is True


#: Large cards make the Chắn hand's cards at least this much taller (issue 35: they "barely
#: changed" it, and not at all for a fourteen-card hand in portrait).
LARGE_GROWTH = 1.2


@pytest.mark.parametrize("moment", ["largest", "midplay"])
@pytest.mark.parametrize("size", SIZES, ids=["landscape", "portrait"])
def test_large_cards_visibly_grow_the_chan_hand(make_app: Any, size: tuple[int, int],
                                                moment: str) -> None:
    app = make_app(size=size)
    table = (largest_table if moment == "largest" else midplay_table)(app, "chan")
    normal = table.ids.hand.views[0].height
    app.set_large_cards(True)
    pump(10)
    large = table.ids.hand.views[0].height
    assert large >= LARGE_GROWTH * normal, (size, moment, normal, large)


def _mean_rgb(texture: Any) -> tuple[float, float, float]:
    data = texture.pixels
    n = len(data) // 4
    return tuple(sum(data[i::4]) / n for i in range(3))  # type: ignore[return-value]


def test_colour_safe_redraws_the_cards_on_show(make_app: Any) -> None:
    """Turning colour-blind safe on redraws the hand: the diamonds turn blue (four-colour
    French suits); off again, they are red as before. The choice is kept in the store."""
    from tests.ui.uitools import wait_for

    app = make_app(size=(800, 480))
    table = largest_table(app, "tractor")
    hand = table.ids.hand
    index = next(i for i, code in enumerate(hand.codes) if code.endswith("D"))
    view = hand.views[index]
    wait_for(lambda: view.texture is not None and not view.pending, what="the card drawn")
    red = _mean_rgb(view.texture)
    app.set_colour_safe(True)
    try:
        wait_for(lambda: view.texture is not None and _mean_rgb(view.texture) != red,
                 what="the card drawn again")
        blue = _mean_rgb(view.texture)
        assert blue[2] - blue[0] > red[2] - red[0]  # bluer than the red diamond
        assert app.services.store.get_setting("colour_safe", False) is True
    finally:
        app.set_colour_safe(False)
    wait_for(lambda: _mean_rgb(view.texture) == red, what="the red diamonds back")


def test_settings_rows_switch_large_and_colour_safe_cards(make_app: Any) -> None:
    """The settings screen's rows set both options (kept in the store); the config's
    `[game]` values are where an app starts until the player chooses in the app."""
    from ui import cards
    from ui.app import ParlorApp
    from ui.ports import MemoryStore, NullOutputs, Services

    app = make_app()
    app.go("settings")
    pump(2)
    screen = app.root.get_screen("settings")
    assert screen.ids.large_cards_off.selected and not screen.ids.large_cards_on.selected
    screen.ids.large_cards_on.dispatch("on_release")
    screen.ids.colour_safe_on.dispatch("on_release")
    pump(1)
    try:
        assert app.large_cards and screen.ids.large_cards_on.selected
        assert app.colour_safe and cards.STYLE.colour_safe
        store = app.services.store
        assert store.get_setting("large_cards") is True and store.get_setting("colour_safe")
    finally:
        screen.ids.colour_safe_off.dispatch("on_release")
    assert not cards.STYLE.colour_safe
    store = MemoryStore()
    started = ParlorApp(Services(store=store, outputs=NullOutputs(), large_cards=True,
                                 colour_safe=True))
    try:
        assert started.large_cards and started.colour_safe and cards.STYLE.colour_safe
        store.set_setting("colour_safe", False)  # what the player chose in the app wins
        again = ParlorApp(Services(store=store, outputs=NullOutputs(), colour_safe=True))
        assert not again.colour_safe and not cards.STYLE.colour_safe
    finally:
        cards.set_colour_safe(False)
        make_app()  # the newest app is a mounted one again (kv's `app`)


@pytest.mark.parametrize("colour_safe", [False, True], ids=["plain", "colour_safe"])
def test_every_face_draws_at_any_small_size(window: Any, colour_safe: bool) -> None:
    """Compact faces fit their body beside the index: on a card squeezed to a few pixels
    (a row during a relayout) there is no room, and the face draws its index alone (a
    drawing with a negative size once crashed the GL driver)."""
    from ui import cards

    cards.set_colour_safe(colour_safe)
    try:
        for deck in cards.DECKS:
            for h in (10, 13, 16, 24, 40, 72):
                w, h = cards.size_for(deck, h)
                for code in cards.CODES[deck]:
                    assert cards.texture(deck, code, max(w, 6), h).size == (max(w, 6), h)
    finally:
        cards.set_colour_safe(False)
