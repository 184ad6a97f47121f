"""Focus moves to the nearest widget in the pressed direction (issue 6 item 3)."""

from __future__ import annotations

from ui.focus import first, pick

# A hand of five overlapping cards at the bottom, two buttons above it.
HAND = [(100 + 40 * i, 0, 60, 90) for i in range(5)]
BUTTONS = [(100, 200, 100, 48), (300, 200, 100, 48)]


def test_left_right_walk_along_a_row_of_overlapping_cards() -> None:
    assert pick(HAND[2], HAND, "RIGHT") == 3
    assert pick(HAND[2], HAND, "LEFT") == 1
    assert pick(HAND[4], HAND, "RIGHT") is None  # the end of the row: focus stays


def test_up_prefers_the_widget_in_line_over_a_closer_diagonal_one() -> None:
    cands = HAND + BUTTONS
    assert pick(HAND[0], cands, "UP") == 5  # the button above the left of the hand
    assert pick(HAND[4], cands, "UP") == 6
    assert pick(BUTTONS[1], cands, "DOWN") in (3, 4)
    assert pick(BUTTONS[0], cands, "RIGHT") == 6


def test_first_is_the_top_left_widget() -> None:
    assert first(HAND + BUTTONS) == 5
    assert first([]) is None


def test_is_candidate_agrees_with_the_tree_walk_on_a_table(make_app) -> None:
    """`is_candidate` (the fast check after every action) says exactly what `focusables` finds:
    for every widget of a table with its hand dealt, and inside a narrower scope."""
    from tests.ui.tablesim import wait_turn
    from ui.focus import focusables, is_candidate

    app = make_app(pace=0)
    app.new_game("chan")
    table = app.root.get_screen("chan")
    wait_turn(table)
    hand = table.ids.hand
    assert hand.views and is_candidate(hand.views[0], hand) and is_candidate(hand.views[0], table)
    for root in (table, hand, table.ids.summary_panel, table.ids.menu_button):
        found = set(map(id, focusables(root)))
        for widget in table.walk(restrict=True):
            assert is_candidate(widget, root) == (id(widget) in found), widget
