"""Independent audit of Meri check order with hand-picked positions, and the engine's own deal.

When several rules break at once records.md checks `turn`, then `held`, then the game's rule:
in a Meri (H-25), under Monchi (H-27), on the trick-1 lead (H-22), in the declaration (H-12)
and the discard (H-14); after the deal every action is `turn`. The engine's deal is the
documented one (H-8, D-1).
"""

from __future__ import annotations

import random
from typing import Any

from engine.records import replay
from tests.engine.meri_audit_reference import ALL_CODES, CANON


def find_position(predicate, seed: int = 0, deals: int = 400) -> tuple[dict, Any]:
    """The record (layout + actions) of the first position of random deals meeting `predicate`."""
    from engine import registry
    from engine.records import GameRecord

    game = registry.get("meri")
    rng = random.Random(seed)
    for deal in range(deals):
        record = GameRecord.deal(game, deal)
        while not record.state.is_over:
            if predicate(record.state):
                return record.to_dict(), record.state
            record.apply(record.state.random_action(rng))
    raise AssertionError("no such position")


def code_of(c: int) -> str:
    return ALL_CODES[c]


def replay_with(record: dict, action: str) -> dict:
    status, out = replay({**record, "actions": record["actions"] + [action]})
    assert status == 1, out
    return out


def test_check_order_held_before_H25_in_a_meri() -> None:
    """records.md order: `held` is checked before the game's rules. In a Meri, a non-trump the
    seat does not hold is `held` (not H-25); one it holds is H-25."""
    def meri_with_choice(s: Any) -> bool:
        if not (s.phase == "play" and s.meri and s.n_played > 0):
            return False
        hand = s.hands[s.to_act]
        return bool(hand & s.tmask) and bool(hand & ~s.tmask) and not s.sun_exc >> s.to_act & 1

    record, state = find_position(meri_with_choice)
    hand = state.hands[state.to_act]
    plain_held = next(c for c in range(75) if hand >> c & 1 and not state.tmask >> c & 1)
    plain_not_held = next(c for c in range(75) if not (hand | state.tmask) >> c & 1)
    out = replay_with(record, code_of(plain_not_held))
    assert out["error"]["rule"] == "held" and out["to_act"] == state.to_act
    out = replay_with(record, code_of(plain_held))
    assert out["error"]["rule"] == "H-25"
    assert out["legal"] == sorted(code_of(c) for c in range(75) if (hand & state.tmask) >> c & 1)
    assert replay_with(record, "pass")["error"]["rule"] == "turn"
    assert replay_with(record, "declare")["error"]["rule"] == "turn"


def test_check_order_held_before_H27_and_H22() -> None:
    """Monchi (H-27) and the trick-1 lead (H-22) are checked only for held cards."""
    def monchi(s: Any) -> bool:
        if not (s.phase == "play" and s.meri_seen and not s.meri and s.n_played > 0):
            return False
        hand = s.hands[s.to_act]
        from engine.meri.cards import PLAIN_SUIT_MASK
        follow = PLAIN_SUIT_MASK[s.trump][s.led]
        return bool(hand & follow) and bool(hand & ~follow & ~s.tmask)

    record, state = find_position(monchi)
    from engine.meri.cards import PLAIN_SUIT_MASK
    hand = state.hands[state.to_act]
    follow = PLAIN_SUIT_MASK[state.trump][state.led]
    off_held = next(c for c in range(75) if (hand & ~follow & ~state.tmask) >> c & 1)
    off_not_held = next(c for c in range(75) if not (hand | follow | state.tmask) >> c & 1)
    assert replay_with(record, code_of(off_held))["error"]["rule"] == "H-27"
    assert replay_with(record, code_of(off_not_held))["error"]["rule"] == "held"

    def trick_one_lead(s: Any) -> bool:
        return (s.phase == "play" and s.trick_no == 0 and s.n_played == 0
                and bool(s.hands[s.to_act] & s.tmask) and bool(s.hands[s.to_act] & ~s.tmask))

    record, state = find_position(trick_one_lead)
    hand = state.hands[state.to_act]
    trump_held = next(c for c in range(75) if (hand & state.tmask) >> c & 1)
    trump_not_held = next(c for c in range(75) if (state.tmask & ~hand) >> c & 1)
    assert replay_with(record, code_of(trump_held))["error"]["rule"] == "H-22"
    assert replay_with(record, code_of(trump_not_held))["error"]["rule"] == "held"


def test_check_order_in_the_declaration_and_the_discard() -> None:
    """A card during the declaration is `turn` even when held; `declare` by a non-holder is
    H-12; at the discard, `pass` is `turn`, an unheld trump `held`, a held trump H-14."""
    record, state = find_position(lambda s: s.phase == "declare" and s.answers == 0)
    held = next(c for c in range(75) if state.hands[state.to_act] >> c & 1)
    assert replay_with(record, code_of(held))["error"]["rule"] == "turn"
    record, state = find_position(
        lambda s: s.phase == "declare" and not s.hands[s.to_act] >> (s.trump * 15 + 5) & 1)
    out = replay_with(record, "declare")
    assert out["error"]["rule"] == "H-12" and out["legal"] == ["pass"]

    def discard_choice(s: Any) -> bool:
        return s.phase == "discard" and bool(s.hands[s.to_act] & ~s.tmask)

    record, state = find_position(discard_choice)
    hand = state.hands[state.to_act]
    assert replay_with(record, "pass")["error"]["rule"] == "turn"
    assert replay_with(record, "declare")["error"]["rule"] == "turn"
    assert replay_with(record, code_of(state.okie))["error"]["rule"] == "H-14"  # received trump
    unheld_trump = next(c for c in range(75) if (state.tmask & ~hand) >> c & 1)
    assert replay_with(record, code_of(unheld_trump))["error"]["rule"] == "held"


def test_after_the_deal_every_action_is_turn_and_to_act_is_null() -> None:
    from engine import registry
    from engine.records import GameRecord

    rec = GameRecord.deal(registry.get("meri"), 77)
    rng = random.Random(1)
    while not rec.state.is_over:
        rec.apply(rec.state.random_action(rng))
    record = rec.to_dict()
    status, out = replay(record)
    assert status == 0 and out["to_act"] is None and out["phase"] == "over"
    n = len(record["actions"])
    assert out["legal"] == [] and out["legal_count"] == 0 and out["applied"] == n
    for action in ("pass", "declare", "P9", "GSu"):
        out = replay_with(record, action)
        assert out["error"]["rule"] == "turn" and out["error"]["index"] == n
        assert out["to_act"] is None and out["legal"] == [] and out["applied"] == n


def test_H8_D1_the_engines_own_deal_is_the_documented_one() -> None:
    """Records without a layout are dealt by the engine's method (engine/meri/deal.py):
    dealer = randrange(8), `shuffle` of ids 0..74 in canonical order, three rounds of three from
    the dealer's left, the last three cards undealt (Okie first). Pinned against `rng.shuffle`
    so a faster shuffle can never change a saved game's deal."""
    from engine import registry

    game = registry.get("meri")
    for seed in list(range(300)) + [2**64 + 1, -5]:
        rng = random.Random(seed)
        dealer = rng.randrange(8)
        deck = list(range(75))
        rng.shuffle(deck)
        hands: list[list[str]] = [[] for _ in range(8)]
        for r in range(3):
            for k in range(8):
                hands[(dealer + 1 + k) % 8] += [ALL_CODES[c] for c in deck[24 * r + 3 * k:
                                                                           24 * r + 3 * k + 3]]
        want = {"dealer": dealer, "hands": [sorted(h, key=CANON.get) for h in hands],
                "undealt": [ALL_CODES[c] for c in deck[72:]]}
        state = game.new_deal(seed)
        assert game.layout_of(state) == want
        assert state.is_over is False and state.phase == "declare"
    match = game.new_match(11)
    rng = random.Random(11)
    assert match.dealer == rng.randrange(8)
    deck = list(range(75))
    rng.shuffle(deck)
    assert game.layout_of(match.next_deal())["undealt"] == [ALL_CODES[c] for c in deck[72:]]
    assert match.rng.getstate() == rng.getstate()  # the same draws, nothing more
