"""Legality of a Chắn decision (C-6, C-15…C-22, X-1…X-3, K-1/K-3, W-2…W-4) as pure functions.

The action and phase encoding lives here too, so the state (`apply`, `legal_actions`), the
observation (a seat's own legal actions) and the bots read the rules from one place. The
functions work on the state's plain arrays, never on a state object:
- `counts[s*25 + f]`: how many of face f seat s holds concealed;
- `mem[s*8 + k]`: per-seat memory, k = ODD (faces held an odd number of times: X-1 discardables
  and the D-4 leftovers), DISC (faces discarded), X3 (faces forming a Cạ with a discarded face),
  CAPL (faces played from hand into a Cạ, C-20), REF (faces refused under C-19), CAPCA (a Cạ was
  captured, X-3), CADISC (both faces of a Cạ discarded, C-21), NCA (exposed Cạ pairs).

Actions are ints: `capture H` = H (0..24), `discard F` = 25+F, then PASS, CHIU, WIN.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.chan.cards import CODE, FACES, RANK, RANK_FACES
from engine.errors import IllegalAction

HEAVENLY, DISCARD, RESPOND, WIN_OFFER, CHIU_OFFER, OWN_CARD, OVER = range(7)
PHASES = ("heavenly", "discard", "respond", "win_offer", "chiu_offer", "own_card", "over")
OFFERS = (HEAVENLY, WIN_OFFER, CHIU_OFFER)

DISCARD_BASE = 25
PASS, CHIU, WIN = 50, 51, 52
N_ACTIONS = 53

ODD, DISC, X3, CAPL, REF, CAPCA, CADISC, NCA = range(8)
STOCK_FLAG = 32  # a gate entry `face | STOCK_FLAG` is a revealed stock card


def face_of_action(action: int) -> int | None:
    """The hand card a capture or a discard uses (a face), None for Pass / Chíu / Ù."""
    if 0 <= action < DISCARD_BASE:
        return action
    if DISCARD_BASE <= action < PASS:
        return action - DISCARD_BASE
    return None


def action_text(action: int) -> str:
    """Record notation of an action int (canonical: one card per action)."""
    if 0 <= action < DISCARD_BASE:
        return f"capture {CODE[action]}"
    if DISCARD_BASE <= action < PASS:
        return f"discard {CODE[action - DISCARD_BASE]}"
    return {PASS: "pass", CHIU: "chiu", WIN: "win"}[action]


_RULE_TEXT = {
    "C-6": "{h} does not make a Chắn or Cạ with the open card {o}",
    "C-15": "holding {o}, the capture must be a Chắn",
    "C-16": "{h} is held two or four times: a Cạ may not break an identical pair",
    "C-17": "the hand's pairing already has a Cạ of that rank",
    "C-18": "no Cạ while the hand has exactly one unpaired card",
    "C-19": "a refused Chắn face may not be used in a Cạ",
    "C-20": "the face {o} was discarded or played into a Cạ earlier",
    "C-21": "after discarding both cards of a Cạ no Cạ may be captured",
    "C-22": "the capture would leave no legal discard",
    "X-1": "{f} is held two or four times: discarding it would break an identical pair",
    "X-2": "{f} is a refused Chắn face",
    "X-3": "after capturing a Cạ, {f} may not be discarded: it forms a Cạ with an earlier discard",
}


def discardable(mem: Sequence[int], s: int, flip: int = 0, ca: bool = False) -> int:
    """Faces s may discard (X-1…X-3), after toggling `flip` in the odd set; `ca`: a Cạ is
    being captured now (X-3 applies from then on)."""
    ban = mem[s << 3 | REF]
    if ca or mem[s << 3 | CAPCA]:
        ban |= mem[s << 3 | X3]
    return (mem[s << 3 | ODD] ^ flip) & ~ban


def chan_ok(mem: Sequence[int], s: int, o: int) -> bool:
    """`capture_rule(counts, mem, s, o, o) is None` for a held o (C-20, C-22), written out: the
    legal list and the C-19 refusal of every pass ask it."""
    b = s << 3
    if (mem[b | DISC] | mem[b | CAPL]) >> o & 1:
        return False
    ban = mem[b | REF]  # `discardable(mem, s, 1 << o)`
    if mem[b | CAPCA]:
        ban |= mem[b | X3]
    return bool((mem[b | ODD] ^ (1 << o)) & ~ban)


def capture_rule(counts: Sequence[int], mem: Sequence[int], s: int, o: int, h: int) -> str | None:
    """The first rule (C-6, then C-15…C-22) that forbids s capturing open face o with hand
    card h, or None. The caller has checked that h is held."""
    b = s << 3
    if h == o:
        if (mem[b | DISC] | mem[b | CAPL]) >> o & 1:
            return "C-20"
        if not discardable(mem, s, 1 << h):
            return "C-22"
        return None
    if o == 0 or h == 0 or RANK[h] != RANK[o]:
        return "C-6"
    base = s * FACES
    if counts[base + o]:
        return "C-15"
    if not counts[base + h] & 1:
        return "C-16"
    odd = mem[b | ODD]
    a, bb, c = (odd >> 1) & 255, (odd >> 9) & 255, (odd >> 17) & 255
    if ((a & bb) | (a & c) | (bb & c)) >> ((o - 1) & 7) & 1:  # `ca_ranks(odd)` has o's rank
        return "C-17"
    if (a ^ bb ^ c).bit_count() + (odd & 1) == 1:
        return "C-18"
    if (mem[b | REF] >> o | mem[b | REF] >> h) & 1:
        return "C-19"
    if (mem[b | DISC] | mem[b | CAPL]) >> o & 1:
        return "C-20"
    if mem[b | CADISC]:
        return "C-21"
    if not discardable(mem, s, 1 << h, True):
        return "C-22"
    return None


def can_win(mem: Sequence[int], s: int, f: int) -> bool:
    """W-2/W-3: do s's 19 cards and face f make ten pairs with at least six Chắn?"""
    odd = mem[s << 3 | ODD] ^ (1 << f)
    if odd & 1:
        return False
    a, b, c = (odd >> 1) & 255, (odd >> 9) & 255, (odd >> 17) & 255
    if (a ^ b ^ c) or (a & b & c):
        return False
    nca = mem[s << 3 | NCA] + (odd.bit_count() >> 1)
    return nca == 4 if f == 0 else nca <= 4


def heavenly_ok(mem: Sequence[int], dealer: int) -> bool:
    """W-4: the dealer's 20 dealt cards already win."""
    odd = mem[dealer << 3 | ODD]
    if odd & 1:
        return False
    a, b, c = (odd >> 1) & 255, (odd >> 9) & 255, (odd >> 17) & 255
    return not (a ^ b ^ c) and not (a & b & c) and odd.bit_count() >> 1 <= 4


def chiu_ok(mem: Sequence[int], s: int, f: int) -> bool:
    """K-1/K-3/C-22: a Chíu on f is legal if it wins or leaves a legal discard."""
    return can_win(mem, s, f) or bool(discardable(mem, s, 1 << f))


def legal_actions(ph: int, s: int, o: int, counts: Sequence[int], mem: Sequence[int]) -> list[int]:
    """Every legal action of seat s deciding phase `ph` with open face `o` (-1 if none)."""
    if ph == RESPOND or ph == OWN_CARD:
        base = s * FACES
        if counts[base + o]:  # C-15: only the Chắn
            return [o, PASS] if chan_ok(mem, s, o) else [PASS]
        out = []
        for h in RANK_FACES[o]:
            # An even count is C-16 (the rule `capture_rule` reaches first for a held Cạ
            # partner while o is not held): tested here before the call.
            if counts[base + h] & 1 and capture_rule(counts, mem, s, o, h) is None:
                out.append(h)
        out.append(PASS)
        return out
    if ph == DISCARD:
        mask = discardable(mem, s)
        out = []
        while mask:
            low = mask & -mask
            out.append(DISCARD_BASE + low.bit_length() - 1)
            mask ^= low
        return out
    if ph == CHIU_OFFER:
        return [CHIU, PASS]
    if ph == OVER:
        return []
    return [WIN, PASS]


def _illegal(rule: str, action: int, o: int = -1) -> IllegalAction:
    text = _RULE_TEXT.get(rule)
    if text is None:
        return IllegalAction(rule, f"{action_text(action)} is not allowed now")
    f = action - DISCARD_BASE if DISCARD_BASE <= action < PASS else action
    msg = text.format(h=CODE[f] if f < FACES else "", f=CODE[f] if f < FACES else "",
                      o=CODE[o] if o >= 0 else "")
    return IllegalAction(rule, msg)


def check(ph: int, s: int, o: int, counts: Sequence[int], mem: Sequence[int], a: Any) -> None:
    """Raise `IllegalAction` if seat s, deciding phase `ph` on open face `o`, may not take
    action `a` (records.md check order: turn, then held, then the rule)."""
    if not isinstance(a, int) or isinstance(a, bool) or not 0 <= a < N_ACTIONS:
        raise IllegalAction("turn", f"not a Chắn action: {a!r}")
    if ph == OVER:
        raise IllegalAction("turn", "the deal is over")
    if a < DISCARD_BASE:
        if ph != RESPOND and ph != OWN_CARD:
            raise IllegalAction("turn", f"no capture now: the decision is {PHASES[ph]}")
        if not counts[s * FACES + a]:
            raise IllegalAction("held", f"seat {s} does not hold {CODE[a]}")
        rule = capture_rule(counts, mem, s, o, a)
        if rule is not None:
            raise _illegal(rule, a, o)
    elif a < PASS:
        if ph != DISCARD:
            raise IllegalAction("turn", f"no discard now: the decision is {PHASES[ph]}")
        f = a - DISCARD_BASE
        c = counts[s * FACES + f]
        if not c:
            raise IllegalAction("held", f"seat {s} does not hold {CODE[f]}")
        if not c & 1:
            raise _illegal("X-1", a)
        if mem[s << 3 | REF] >> f & 1:
            raise _illegal("X-2", a)
        if mem[s << 3 | CAPCA] and mem[s << 3 | X3] >> f & 1:
            raise _illegal("X-3", a)
    elif a == PASS:
        if ph == DISCARD:
            raise IllegalAction("turn", "a discard is due: pass is not possible")
    elif a == CHIU:
        if ph != CHIU_OFFER:
            raise IllegalAction("turn", f"no Chíu offer now: the decision is {PHASES[ph]}")
    elif ph != WIN_OFFER and ph != HEAVENLY:
        raise IllegalAction("turn", f"no win offer now: the decision is {PHASES[ph]}")
