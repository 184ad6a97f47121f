"""A phone shows its hand in the kiosk's order, for every game (issues 22, 33): one owner of
that order, the game's registry entry (`Game.shown_hand`, each package's `order.py`); Tractor's
suits in order, the trumps together (T-13), before trump is known the level cards and jokers
last; and the phone server's side imports no Kivy."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine import registry
from engine.tractor.cards import CODES, TRUMP, context
from engine.tractor.order import hand_order
from tests.ui.tablesim import start_deal, tractor_dealer_deal
from tests.ui.uitools import pump
from ui.remote.host import Host, SeatPlan

#: Per game: a deal to open and the phases the walk must see the hands agree in.
DEALS = {
    "meri": (lambda: registry.get("meri").new_deal(4), {"declare", "play"}),
    "tractor": (tractor_dealer_deal, {"declare", "play"}),
    "chan": (lambda: registry.get("chan").new_deal(4), {"discard", "respond"}),
}


def phone_view(session: Any, seat: int = 0) -> dict[str, Any]:
    players = session.game.players
    host = Host(session, [SeatPlan("phone", "Linh")] + [SeatPlan("ai")] * (players - 1),
                apply=lambda _a: None)
    return host.state_message(seat)["view"]


@pytest.mark.parametrize("game_name", sorted(DEALS))
def test_the_phone_hand_is_the_kiosk_tables_hand_at_every_stage(make_app: Any,
                                                                 game_name: str) -> None:
    """The kiosk's hand strip (codes, group breaks, kinds of groups) and the phone's view of
    the same seat agree all through a deal: Tractor while bidding (no trump yet), at the bury
    and in play; Meri with its trumps last; Chắn with its pairs, Cạ and single cards."""
    deal, phases = DEALS[game_name]
    app = make_app(pace=0)
    table = start_deal(app, game_name, deal())
    table.driver.invalidate()  # the test moves the deal on
    session = table.session
    rng = random.Random(3)
    seen_phases: set[str] = set()
    checked = grouped = 0
    while not session.state.is_over and checked < 40:
        obs = session.state.observation(0)
        table.refresh()
        pump(1)
        hand = table.ids.hand
        view = phone_view(session)
        assert view["hand"] == list(hand.codes), (game_name, obs.phase)
        assert view["hand_breaks"] == list(hand.breaks)
        assert view["hand_groups"] == list(hand.groups)
        assert sorted(hand.codes) == sorted(registry.get(game_name).shown_hand(obs).codes)
        grouped += bool(hand.breaks)
        seen_phases.add(obs.phase)
        checked += 1
        for _ in range(3):
            if not session.state.is_over:
                session.apply(session.state.random_action(rng))
    assert phases <= seen_phases, seen_phases
    assert grouped or game_name == "meri"  # Tractor's suits and Chắn's pairs have gaps


def test_the_meri_phone_hand_puts_the_trumps_last() -> None:
    """H-9/H-10: the phone shows Meri's trumps (the trump suit and Tenka) together at the
    right, as the kiosk does, not in the deck's canonical order."""
    from engine.meri.cards import CARD_OF, TRUMP_MASK
    from engine.session import Session

    for seed in range(8):
        session = Session.new("meri", seed)
        obs = session.state.observation(0)
        codes = phone_view(session)["hand"]
        trump = [bool(TRUMP_MASK[obs.trump] >> CARD_OF[c] & 1) for c in codes]
        assert trump == sorted(trump), codes


def test_the_order_groups_suits_then_trumps_strongest_first() -> None:
    """T-13/T-14 over many random hands: the groups are spades, hearts, clubs, diamonds, then
    trumps; each group strongest first; breaks exactly where the group changes."""
    rng = random.Random(1)
    for _ in range(200):
        counts = [rng.choice((0, 0, 0, 1, 2)) for _ in range(54)]
        level, trump = rng.randrange(13), rng.choice((0, 1, 2, 3, 4))
        kinds, breaks = hand_order(counts, level, trump)
        assert sorted(kinds) == [k for k in range(54) for _ in range(counts[k])]
        ctx = context(level, trump)
        rank = {0: 0, 1: 1, 2: 2, 3: 3, TRUMP: 4}
        groups = [rank[ctx.eff[k]] for k in kinds]
        assert groups == sorted(groups)
        assert breaks == [i for i in range(1, len(kinds)) if groups[i] != groups[i - 1]]
        for i in range(1, len(kinds)):
            if groups[i] == groups[i - 1]:
                assert ctx.pos[kinds[i]] <= ctx.pos[kinds[i - 1]]
    # before trump is known: level cards and jokers last
    counts = [0] * 54
    for code in ("RJ", "2S", "AS", "3H", "2D"):
        counts[CODES.index(code)] = 1
    kinds, breaks = hand_order(counts, 0, -1)
    assert [CODES[k] for k in kinds][:2] == ["AS", "3H"] and breaks == [1, 2]


def test_the_phone_server_side_imports_no_kivy() -> None:
    code = ("import sys\n"
            "import ui.remote.server, ui.remote.host, ui.remote.views\n"
            "from engine.session import Session\n"
            "from ui.remote.host import Host, SeatPlan\n"
            "for name, n in (('tractor', 4), ('meri', 8), ('chan', 4)):\n"
            "    s = Session.new(name, 2)\n"
            "    Host(s, [SeatPlan('phone')] + [SeatPlan('ai')] * (n - 1)).state_message(0)\n"
            "bad = sorted(m for m in sys.modules if m == 'kivy' or m.startswith('kivy.'))\n"
            "print(bad[:3]); sys.exit(1 if bad else 0)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, cwd=Path(__file__).parents[3])
    assert done.returncode == 0, done.stdout + done.stderr
