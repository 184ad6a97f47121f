"""Every game says in what order its player sees a hand (`Game.shown_hand`, each package's
`order.py`): the one owner the kiosk's table and a phone's page both read."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine import registry
from engine.chan.cards import CODE, FACE_OF
from engine.chan.order import grouped_hand
from engine.game import HandOrder
from engine.meri.cards import CARD_OF, TRUMP_MASK
from engine.seatcards import hand_codes

ENGINE = Path(__file__).resolve().parents[2] / "engine"


@pytest.mark.parametrize("name", registry.names())
def test_every_game_has_its_order_module_and_shows_the_whole_hand(name: str) -> None:
    """The same file with the same role in every game package; the hand shown is exactly the
    seat's hand (each card as often as held), its codes the cards', breaks inside it."""
    assert (ENGINE / name / "order.py").is_file()
    game = registry.get(name)
    rng = random.Random(7)
    for seed in range(6):
        state = game.new_deal(seed)
        for _ in range(rng.randrange(12)):
            if not state.is_over:
                state.apply(state.random_action(rng))
        for seat in range(game.players):
            obs = state.observation(seat)
            shown = game.shown_hand(obs)
            assert isinstance(shown, HandOrder)
            assert sorted(shown.codes) == sorted(hand_codes(name, obs))
            assert len(shown.cards) == len(shown.codes)
            assert all(0 < b < len(shown.codes) for b in (*shown.breaks, *shown.groups))
            assert set(shown.groups) <= set(shown.breaks)
            assert shown.breaks == sorted(set(shown.breaks))


def test_meri_shows_plain_suits_in_deck_order_then_the_trumps() -> None:
    """H-9/H-10: the trump suit and Tenka together at the right; the plain suits before them
    in deck order."""
    game = registry.get("meri")
    for seed in range(20):
        obs = game.new_deal(seed).observation(seed % 8)
        cards = [CARD_OF[c] for c in game.shown_hand(obs).codes]
        trump = [bool(TRUMP_MASK[obs.trump] >> c & 1) for c in cards]
        assert trump == sorted(trump)
        plain = [c // 15 for c, t in zip(cards, trump, strict=True) if not t]
        assert plain == sorted(plain)


def test_chan_shows_chan_then_ca_then_single_cards() -> None:
    """W-2/D-4: identical pairs first, then Cạ, then single cards, a gap before each pair."""
    counts = [0] * 25
    for code in ("2M", "2M", "3S", "3C", "CC"):
        counts[FACE_OF[code]] += 1
    faces, breaks, groups = grouped_hand(counts)
    assert [CODE[f] for f in faces] == ["2M", "2M", "3S", "3C", "CC"]
    assert breaks == [2, 4] and groups == [2, 4]
