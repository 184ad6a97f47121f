"""Winning-hand analysis for Chắn (W-2, W-3, S-1…S-4): pure functions over count arrays.

Used by the engine to score a win and by the UI to show a hand's pairs, whether it is complete,
what it would score and which faces would complete it ("waiting" cards). A hand is a 25-entry
count array of faces (see `cards`); exposed pairs are tuples of faces (`(F, F)` a Chắn, `(F, G)`
a Cạ, `(F, F, F, F)` a Chíu, which counts as two Chắn).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.chan.cards import (
    CC,
    COPIES,
    FACES,
    IS_RED,
    LEO,
    RANK,
    TOM,
)

Pair = tuple[int, ...]

# S-2: (name, main value, dịch) in the order of S-2 (S-6 lists bonuses in this order).
U_CHI = ("Ù chì", 3, 1)
THIEN_U = ("Thiên ù", 3, 1)
TOM_BONUS = ("Tôm", 4, 1)
BACH_THU = ("Bạch thủ", 4, 1)
LEO_BONUS = ("Lèo", 5, 2)
THIEN_KHAI = ("Thiên khai", 5, 2)
CHIU_U = ("Chíu ù", 5, 2)
BON = ("Bòn", 5, 2)
BACH_DINH = ("Bạch định", 7, 4)
TAM_DO = ("Tám đỏ", 8, 5)
KINH_TU_CHI = ("Kính tứ chi", 12, 9)
THAP_THANH = ("Thập thành", 12, 9)
U_XUONG_SCORE = 2  # S-1

Bonus = tuple[str, int, int]


def pair_hand(counts: Sequence[int]) -> tuple[list[Pair], list[int]]:
    """Pair concealed cards as W-2/D-4 say: identical pairs first, then as many Cạ as possible.

    Returns (pairs, unpaired faces). An identical pair is never split to make a Cạ.
    """
    pairs: list[Pair] = []
    singles: list[int] = []
    for f in range(FACES):
        pairs.extend([(f, f)] * (counts[f] // 2))
        if counts[f] % 2:
            singles.append(f)
    left: list[int] = []
    by_rank: dict[int, list[int]] = {}
    for f in singles:
        if f == CC:
            left.append(f)
        else:
            by_rank.setdefault(RANK[f], []).append(f)
    for faces in by_rank.values():
        while len(faces) >= 2:
            pairs.append((faces.pop(0), faces.pop(0)))
        left.extend(faces)
    return pairs, sorted(left)


def _chan_in(pair: Pair) -> int:
    """How many Chắn a pair counts for (a Chíu counts as two, C-6)."""
    if len(pair) == 4:
        return 2
    return 1 if pair[0] == pair[1] else 0


def all_pairs(counts: Sequence[int], exposed: Sequence[Pair]) -> tuple[list[Pair], list[int]]:
    """Exposed pairs (kept as exposed, W-2) followed by the concealed cards' pairing."""
    pairs, left = pair_hand(counts)
    return list(exposed) + pairs, left


def total_cards(counts: Sequence[int], exposed: Sequence[Pair]) -> int:
    return sum(counts) + sum(len(p) for p in exposed)


def is_winning(counts: Sequence[int], exposed: Sequence[Pair], winning_face: int | None) -> bool:
    """W-2/W-3: do the concealed `counts` (winning card included) and `exposed` pairs win?

    Twenty cards in ten pairs, at least six Chắn (a Chíu counts two); with Chi chi as the
    winning card exactly six Chắn and four Cạ. `winning_face` None is a heavenly hand (W-4).
    """
    if total_cards(counts, exposed) != 20:
        return False
    pairs, left = all_pairs(counts, exposed)
    if left:
        return False
    chan = sum(_chan_in(p) for p in pairs)
    if chan < 6:
        return False
    return not (winning_face == CC and chan != 6)


def waiting_faces(counts: Sequence[int], exposed: Sequence[Pair]) -> list[int]:
    """Faces that would complete a 19-card hand (concealed + exposed) as its winning card."""
    if total_cards(counts, exposed) != 19:
        return []
    owned = list(counts)
    for pair in exposed:
        for f in pair:
            owned[f] += 1
    out = []
    for f in range(FACES):
        if owned[f] >= COPIES:
            continue
        trial = list(counts)
        trial[f] += 1
        if is_winning(trial, exposed, f):
            out.append(f)
    return out


def bonuses(
    counts: Sequence[int],
    exposed: Sequence[Pair],
    winning_face: int | None,
    dealt: Sequence[int] | None,
    own_gate_stock: bool = False,
    heavenly: bool = False,
) -> list[Bonus]:
    """The S-2 bonuses of a winning hand, in S-2 order, one entry per Tôm/Lèo set and per face
    for Thiên khai and Bòn.

    `counts` is the concealed part with the winning card included; `dealt` the winner's dealt
    count array (None: unknown, so Thiên khai, Chíu ù and Bòn are not judged); `own_gate_stock` true when the winning card is a stock card the winner revealed
    into their own gate (Ù chì); `heavenly` for Thiên ù (W-4, no winning card).
    """
    final = list(counts)
    for pair in exposed:
        for f in pair:
            final[f] += 1
    pairs, _ = all_pairs(counts, exposed)
    chan = sum(_chan_in(p) for p in pairs)
    ca_ranks = {RANK[p[0]] for p in pairs if len(p) == 2 and p[0] != p[1]}
    red = sum(final[f] for f in range(FACES) if IS_RED[f])
    out: list[Bonus] = []
    if own_gate_stock and not heavenly:
        out.append(U_CHI)
    if heavenly:
        out.append(THIEN_U)
    out.extend([TOM_BONUS] * min(final[f] for f in TOM))
    if winning_face is not None and chan == 6 and (
            winning_face == CC or RANK[winning_face] not in ca_ranks):
        out.append(BACH_THU)
    out.extend([LEO_BONUS] * min(final[f] for f in LEO))
    if dealt is not None:
        out.extend([THIEN_KHAI] * sum(1 for f in range(FACES) if dealt[f] == 4))
        if winning_face is not None and dealt[winning_face] == 3 and final[winning_face] == 4:
            out.append(CHIU_U)
        out.extend([BON] * sum(1 for f in range(FACES) if dealt[f] == 2 and final[f] == 4))
    if red == 0:
        out.append(BACH_DINH)
    if red == 8:
        out.append(TAM_DO)
    if final[CC] == 4 and red == 4:
        out.append(KINH_TU_CHI)
    if chan == 10:
        out.append(THAP_THANH)
    return out


def score(found: Sequence[Bonus]) -> int:
    """S-1, S-3, S-4: Ù xuông 2; else the top bonus's main value (ties: higher dịch) plus the dịch
    of every other bonus; a Thập thành hand sums the main values of all its bonuses."""
    if not found:
        return U_XUONG_SCORE
    if any(b[0] == THAP_THANH[0] for b in found):
        return sum(b[1] for b in found)
    top = max(range(len(found)), key=lambda i: (found[i][1], found[i][2]))
    return found[top][1] + sum(b[2] for i, b in enumerate(found) if i != top)


@dataclass(frozen=True)
class HandAnalysis:
    """What the UI shows about a hand: pairs, completeness, bonuses, score and waits."""

    complete: bool
    pairs: tuple[Pair, ...]
    unpaired: tuple[int, ...]
    chan: int
    ca: int
    bonuses: tuple[Bonus, ...]
    score: int
    waiting: tuple[int, ...]


def analyse(
    counts: Sequence[int],
    exposed: Sequence[Pair] = (),
    winning_face: int | None = None,
    dealt: Sequence[int] | None = None,
    own_gate_stock: bool = False,
    heavenly: bool = False,
) -> HandAnalysis:
    """Analyse a hand for display. With 20 cards (winning card included in `counts`) it says
    whether it wins and what it scores; with 19 it lists the waiting faces."""
    pairs, left = all_pairs(counts, exposed)
    chan = sum(_chan_in(p) for p in pairs)
    ca = sum(1 for p in pairs if len(p) == 2 and p[0] != p[1])
    complete = is_winning(counts, exposed, winning_face)
    found: list[Bonus] = []
    if complete:
        found = bonuses(counts, exposed, winning_face, dealt, own_gate_stock, heavenly)
    return HandAnalysis(
        complete=complete,
        pairs=tuple(pairs),
        unpaired=tuple(left),
        chan=chan,
        ca=ca,
        bonuses=tuple(found),
        score=score(found) if complete else 0,
        waiting=tuple(waiting_faces(counts, exposed)),
    )
