"""Card images for tables: cached faces are plain textures (no framebuffer kept per card), tiny
cards are not drawn, cold cards are drawn in stages with the same pixels, and the warmer draws a
deck ahead of need within each frame's budget."""

from __future__ import annotations

from typing import Any

import pytest

from tests.ui.uitools import pump, wait_for

pytestmark = pytest.mark.ui


def test_a_cached_face_is_a_plain_texture_with_the_drawn_pixels(window: Any) -> None:
    from kivy.graphics import Fbo
    from kivy.graphics.texture import Texture

    from ui.cards import karuta
    from ui.cards.render import pixels, render

    kept, texture = render(lambda p: karuta.draw_face(p, "PRo"), 30, 46)
    assert type(texture) is Texture and not isinstance(kept, Fbo)  # no Fbo kept per card
    assert texture.size == (30, 46)
    assert bytes(texture.pixels) == pixels(lambda p: karuta.draw_face(p, "PRo"), 30, 46)


def test_tiny_cards_are_not_drawn(window: Any) -> None:
    from ui import cards
    from ui.table import cardsource

    before = cards.CACHE.renders
    assert cardsource.card_texture("tractor", "AS", cardsource.FACE, 4, 9) is None
    assert cardsource.card_texture("tractor", "AS", cardsource.FACE, 40, 6) is None
    assert cards.CACHE.renders == before
    assert cardsource.card_texture("tractor", "AS", cardsource.FACE, 7, 10) is not None


def frames(n: int, busy: bool = False) -> None:
    """`n` whole frames as the app runs them (clock tick, then the before-drawing events), GL
    drawing left out; `busy`: each one shows a table's action."""
    from kivy.clock import Clock

    from ui.table import cardsource

    for _ in range(n):
        Clock.tick()
        if busy:
            cardsource.BUDGET.busy()
        Clock.tick_draw()


def test_warmer_draws_a_deck_within_each_frames_budget_and_skips_drawn_cards(
        window: Any, monkeypatch) -> None:
    from ui import cards
    from ui.table import cardsource
    from ui.table.cardsource import Warmer

    # A frame's budget of its own, and nothing left of earlier tests: the shared warmer's queue
    # and cards on show still waiting for a frame (the warmer lets them go first).
    monkeypatch.setattr(cardsource, "BUDGET", cardsource.FrameBudget(0.0))  # one stage a frame
    cardsource.WARMER.todo.clear()
    frames(30)
    warmer = Warmer()
    cards.texture("chan", "1M", 11, 37)  # already drawn: the warmer skips it
    warmer.warm("chan", 11, 37)
    warmer.warm("chan", 11, 37)  # asking again while queued adds nothing
    frames(1)
    assert warmer.drawn == 0  # a card takes two frames: painted, then drawn and read back
    frames(1)
    assert warmer.drawn == 1
    frames(3, busy=True)
    assert warmer.drawn == 1  # not in frames that show a table's action
    frames(80)
    assert warmer.drawn == len(cards.CODES["chan"]) - 1
    assert all(("face", "chan", code, 11, 37) in cards.CACHE for code in cards.CODES["chan"])
    warmer.warm("chan", 11, 37)  # all drawn: a new request draws nothing
    frames(40)
    assert warmer.drawn == len(cards.CODES["chan"]) - 1
    monkeypatch.setattr(cardsource, "BUDGET", cardsource.FrameBudget(1.0))  # a generous budget
    warmer.warm("chan", 12, 40)
    frames(2)
    assert warmer.drawn > len(cards.CODES["chan"])  # many cards a frame while it lasts


@pytest.mark.parametrize(("kind", "deck", "code", "size"), [
    ("face", "tractor", "KS", (41, 59)), ("face", "chan", "9S", (23, 77)),
    ("face", "meri", "PRo", (31, 49)), ("facedown", "meri", "", (31, 49)),
    ("back", "tractor", "", (41, 59))])
def test_a_card_drawn_in_stages_has_the_pixels_of_one_drawn_at_once(
        window: Any, kind: str, deck: str, code: str, size: tuple[int, int]) -> None:
    """A cold card drawn over several frames (`ui.cards.staged`: the scratch Fbo of a new size,
    the painting, then the Fbo drawing and read-back) ends as the same pixels as one drawn in one
    go, is cached, and is the texture the synchronous calls then return."""
    from ui import cards
    from ui.cards import render

    w, h = size
    cards.CACHE.clear()
    render.drop_scratch()  # no scratch Fbo yet: three stages
    job = cards.staged(kind, deck, code, w, h)
    assert cards.staged(kind, deck, code, w, h) is job  # the same drawing while unfinished
    steps = [job.step() for _ in range(3)]
    assert steps[:2] == [None, None] and steps[2] is not None
    assert job.step() is steps[2]  # done: the cached texture
    sync = {"face": cards.texture, "back": lambda d, _c, w, h: cards.back(d, w, h),
            "facedown": lambda d, _c, w, h: cards.facedown(d, w, h)}[kind]
    assert sync(deck, code, w, h) is steps[2]
    whole = render.pixels(cards._drawing(kind, deck, code), w, h)
    assert bytes(steps[2].pixels) == whole
    assert len(set(whole)) > 4  # a real card, not an empty buffer
    # A card left half drawn (painted) and then asked for at once is finished from its stage.
    cards.CACHE.clear()
    half = cards.staged(kind, deck, code, w, h)
    assert half.step() is None and half.group is not None  # the Fbo exists: painted at once
    renders = cards.CACHE.renders
    texture = sync(deck, code, w, h)
    assert cards.CACHE.renders == renders + 1 and bytes(texture.pixels) == whole
    assert half.step() is texture


def test_half_drawn_cards_that_are_not_needed_any_more_are_forgotten(window: Any) -> None:
    from ui import cards
    from ui.cards import render

    cards.CACHE.clear()
    first = cards.staged("face", "tractor", "AS", 20, 29)
    for height in range(30, 30 + render.MAX_STAGED):
        cards.staged("face", "tractor", "AS", 20, height)
    assert cards.staged("face", "tractor", "AS", 20, 29) is not first  # the oldest went
    with pytest.raises(ValueError, match="unknown card kind"):
        cards.staged("side", "tractor", "AS", 20, 29)


def test_a_table_in_the_background_warms_nothing_until_entered(make_app: Any) -> None:
    from ui.table import cardsource

    app = make_app()
    meri = app.root.get_screen("meri")
    assert app.root.current == "home"
    queued = len(cardsource.WARMER.todo)
    meri.warm_cards("meri", [(30, 48)])
    assert len(cardsource.WARMER.todo) == queued  # kept for later, nothing drawn for home
    meri.dispatch("on_pre_enter")
    assert ("meri", 30, 48) in cardsource.WARMER.queued


def test_cards_past_the_frame_budget_wait_for_a_later_frame(window: Any, monkeypatch) -> None:
    """Six new cards in one frame are not all drawn in it: beyond the frame's budget a card
    draws nothing (it never shows the card it was before), a resized one keeps its old
    texture meanwhile, and every card gets its own texture within the next frames."""
    from kivy.uix.widget import Widget

    from ui import cards
    from ui.table import cardsource
    from ui.table.widgets import CardView

    monkeypatch.setattr(cardsource, "BUDGET", cardsource.FrameBudget(0.0))  # one card a frame
    cardsource.WARMER.todo.clear()  # nothing drawn ahead meanwhile (an earlier test queued some)
    codes = cards.CODES["tractor"][:6]
    views = [CardView(deck="tractor", code=code, size=(37, 53)) for code in codes]
    table = Widget()
    for view in views:
        table.add_widget(view)
    pump(1)
    assert sum(v.texture is not None for v in views) <= 1  # (other widgets may draw first)
    assert all(v.pending for v in views if v.texture is None)
    wait_for(lambda: not any(v.pending for v in views), 5, "every card drawn")
    for view in views:
        assert not view.pending
        assert view.texture is cards.texture("tractor", view.code, 37, 53)
    old = [v.texture for v in views[:2]]
    size = next((39, h) for h in range(57, 200)  # a size not drawn yet (by an earlier test)
                if not any(("face", "tractor", v.code, 39, h) in cards.CACHE for v in views))
    for view in views[:2]:
        view.size = size
    pump(1)
    assert not any(v.pending for v in views[:2])
    assert any(v.texture is o for v, o in zip(views[:2], old, strict=True))  # as it was
    wait_for(lambda: [v.texture.size for v in views[:2]] == [size, size], 5, "redrawn")
    table.remove_widget(views[2])  # taken off the table while its new card waits...
    monkeypatch.setattr(cardsource.BUDGET, "allows", lambda: False)
    views[2].code = "KD"
    pump(2)
    assert views[2].pending
    monkeypatch.delattr(cardsource.BUDGET, "allows")  # ...it asks no more until it is back
    pump(4)
    assert views[2].pending and ("face", "tractor", "KD", 37, 53) not in cards.CACHE
    table.add_widget(views[2])
    wait_for(lambda: not views[2].pending, 5, "drawn once back")
    assert views[2].texture is cards.texture("tractor", "KD", 37, 53)


def test_the_frame_budget_allows_the_first_card_and_counts_per_frame(window: Any) -> None:
    from ui.table.cardsource import FrameBudget

    budget = FrameBudget(0.002)
    assert budget.allows()  # nothing spent yet this frame
    budget.charge(0.003)
    assert not budget.allows()
    pump(1)
    assert budget.allows()  # a new frame
    budget.busy()  # a frame that shows a table's action draws no card...
    assert not budget.allows()
    budget.defer()
    pump(1)
    budget.busy()  # ... nor the next one, unless a card waited in the frame before: one stage
    assert budget.allows()
    budget.charge(0.0001)
    assert not budget.allows()
    pump(1)
    budget.charge(0.0001)
    assert not budget.allows()  # the frame after it lays the action's text out: one stage
    pump(1)
    budget.charge(0.0001)
    assert budget.allows()  # not busy: more while below the budget
    assert not budget.cards_waiting()
    budget.defer()  # a card on show waits: drawing ahead holds back this frame and the next
    assert budget.cards_waiting()
    pump(1)
    assert budget.cards_waiting()
    pump(1)
    assert not budget.cards_waiting()
    pump(3)
    budget.charge(0.0001)
    assert budget.drawn()
    budget.reserve_next()  # an action put off to the next frame, which is kept for it:
    budget.defer()  # a card that waited in a frame that was not busy...
    pump(1)
    assert not budget.drawn() and budget.is_busy()
    assert not budget.allows()  # ... waits once more


def test_drawing_cards_leaves_no_garbage_for_the_collector(window: Any) -> None:
    """A card's few hundred drawing instructions are freed when it is drawn (its group emptied),
    not left as reference cycles for a garbage collection to find in some later frame."""
    import gc

    from ui import cards
    from ui.cards import render

    render.render(cards._drawing("face", "tractor", "AS"), 33, 48)  # fonts, Fbo: made once
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)  # what a collection finds is kept in gc.garbage
    try:
        kept = [render.render(cards._drawing(kind, deck, code), 33, 48)
                for kind, deck, code in [("face", "tractor", "KS"), ("face", "meri", "PRo"),
                                         ("face", "chan", "CC"), ("facedown", "meri", ""),
                                         ("back", "chan", "")]]
        gc.collect()
        graphics = [o for o in gc.garbage if type(o).__module__.startswith("kivy.graphics")]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert graphics == [] and len(kept) == 5


def test_a_tables_new_request_drops_the_sizes_it_no_longer_wants(window: Any,
                                                                  monkeypatch) -> None:
    """A layout passing through a transient size asks for a deck at it, then at the real size:
    the warmer then draws the real size only (what another table still wants stays queued)."""
    from ui import cards
    from ui.table import cardsource
    from ui.table.cardsource import Warmer

    monkeypatch.setattr(cardsource, "BUDGET", cardsource.FrameBudget(0.0))
    warmer = Warmer()
    warmer.request("tractor", "tractor", [(11, 16)])
    warmer.request("meri", "tractor", [(12, 17)])
    warmer.request("tractor", "tractor", [(40, 58), (12, 17)])
    sizes = {(w, h) for _deck, _code, w, h in warmer.todo}
    assert sizes == {(12, 17), (40, 58)} and ("tractor", 11, 16) not in warmer.queued
    for _ in range(20 * 2 * len(cards.CODES["tractor"])):  # a card stage a frame at most:
        if not warmer.todo:  # cards still waiting from another test's views may take a few
            break
        frames(1)
    assert not warmer.todo
    assert ("face", "tractor", "AS", 11, 16) not in cards.CACHE
    assert all(("face", "tractor", code, 40, 58) in cards.CACHE for code in cards.CODES["tractor"])
