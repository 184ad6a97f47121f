"""Chắn scoring (W-2, W-3, S-1…S-6): winning hands, bonuses (cước), the score and the deal's outcome.

The hand functions are pure functions over count arrays, used by the engine to score a win and
by the UI to show a hand's pairs, whether it is complete, what it would score and which faces
would complete it ("waiting" cards). A hand is a 25-entry count array of faces (see `cards`);
exposed pairs are tuples of faces (`(F, F)` a Chắn, `(F, G)` a Cạ, `(F, F, F, F)` a Chíu, which
counts as two Chắn).

The deal functions read a finished state: `result_json` is the records.md `result` object,
`deal_result` the typed `DealResult` (each player a side) with explanation lines. In their
`Line` args, `seat`, `winner` and `by` are seat numbers (the table names them); everything
else is a card code, a bonus name or a number. This module imports no state module: the state
is duck-typed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.chan.cards import (
    CC,
    CODE,
    COPIES,
    FACES,
    IS_RED,
    LEO,
    RANK,
    TOM,
    pair_codes,
)
from engine.result import CardGroup, DealResult, Line, SideScore

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
#: Every bonus of S-2 in S-2 order.
ALL_BONUSES: tuple[Bonus, ...] = (
    U_CHI, THIEN_U, TOM_BONUS, BACH_THU, LEO_BONUS, THIEN_KHAI, CHIU_U, BON, BACH_DINH, TAM_DO,
    KINH_TU_CHI, THAP_THANH)
#: Bonus name -> (main value, dịch).
BONUS_VALUES: dict[str, tuple[int, int]] = {b[0]: (b[1], b[2]) for b in ALL_BONUSES}

# How a deal ended (the state's `wkind`).
NOT_OVER, DRAWN, WON_STOCK, WON_CHIU, WON_HEAVENLY = range(5)


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
    return [b for b, _faces in bonus_faces(counts, exposed, winning_face, dealt, own_gate_stock,
                                           heavenly)]


def bonus_faces(
    counts: Sequence[int],
    exposed: Sequence[Pair],
    winning_face: int | None,
    dealt: Sequence[int] | None,
    own_gate_stock: bool = False,
    heavenly: bool = False,
) -> list[tuple[Bonus, tuple[int, ...]]]:
    """`bonuses` with, for each, the faces of the cards that make it (for the summary's
    pictures): the winning card (Ù chì), its pair (Bạch thủ), the three of a Tôm or Lèo set,
    the four of Thiên khai, Chíu ù and Bòn, the eight red cards of Tám đỏ, the four Chi chi of
    Kính tứ chi (the only red cards); () for a bonus of the whole hand (Thiên ù, Bạch định,
    Thập thành)."""
    final = list(counts)
    for pair in exposed:
        for f in pair:
            final[f] += 1
    pairs, _ = all_pairs(counts, exposed)
    chan = sum(_chan_in(p) for p in pairs)
    ca_ranks = {RANK[p[0]] for p in pairs if len(p) == 2 and p[0] != p[1]}
    red = sum(final[f] for f in range(FACES) if IS_RED[f])
    out: list[tuple[Bonus, tuple[int, ...]]] = []
    if own_gate_stock and not heavenly:
        out.append((U_CHI, (winning_face,) if winning_face is not None else ()))
    if heavenly:
        out.append((THIEN_U, ()))
    out.extend([(TOM_BONUS, TOM)] * min(final[f] for f in TOM))
    if winning_face is not None and chan == 6 and (
            winning_face == CC or RANK[winning_face] not in ca_ranks):
        out.append((BACH_THU, (winning_face, winning_face)))
    out.extend([(LEO_BONUS, LEO)] * min(final[f] for f in LEO))
    if dealt is not None:
        out.extend((THIEN_KHAI, (f,) * 4) for f in range(FACES) if dealt[f] == 4)
        if winning_face is not None and dealt[winning_face] == 3 and final[winning_face] == 4:
            out.append((CHIU_U, (winning_face,) * 4))
        out.extend((BON, (f,) * 4) for f in range(FACES) if dealt[f] == 2 and final[f] == 4)
    if red == 0:
        out.append((BACH_DINH, ()))
    if red == 8:
        out.append((TAM_DO, tuple(f for f in range(FACES) if IS_RED[f] for _ in range(final[f]))))
    if final[CC] == 4 and red == 4:
        out.append((KINH_TU_CHI, (CC,) * 4))
    if chan == 10:
        out.append((THAP_THANH, ()))
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


# -------------------------------------------------------------------- the deal's outcome
def winning_hand(state: Any) -> tuple[list[int], tuple[Pair, ...]]:
    """The winner's concealed counts (winning card included) and exposed pairs."""
    w = state.winner
    counts = state.counts[w * FACES:(w + 1) * FACES]
    if state.wcard >= 0:
        counts[state.wcard] += 1
    return counts, state.exposed[w]


def winning_bonuses(state: Any) -> list[Bonus]:
    """S-2: the bonuses of a won deal's winning hand, in S-2 order."""
    return [b for b, _faces in winning_bonus_faces(state)]


def winning_bonus_faces(state: Any) -> list[tuple[Bonus, tuple[int, ...]]]:
    """`winning_bonuses` with the faces of the cards that make each (`bonus_faces`)."""
    w = state.winner
    counts, exposed = winning_hand(state)
    card = state.wcard if state.wcard >= 0 else None
    return bonus_faces(
        counts, exposed, card, state.dealt[w * FACES:(w + 1) * FACES],
        own_gate_stock=state.ostock and state.owner == w and state.wkind != WON_HEAVENLY,
        heavenly=state.wkind == WON_HEAVENLY,
    )


def result_json(state: Any) -> dict[str, Any] | None:
    """The records.md `result` object of a finished deal (S-1…S-6), None while it goes on."""
    if not state.is_over:
        return None
    if state.wkind == DRAWN:
        return {"winner": None, "winning_card": None, "bonuses": [], "score": 0,
                "settlement": [0, 0, 0, 0]}
    w = state.winner
    found = winning_bonuses(state)
    points = score(found)
    return {
        "winner": w,
        "winning_card": CODE[state.wcard] if state.wcard >= 0 else None,
        "bonuses": [b[0] for b in found],
        "score": points,
        "settlement": [3 * points if s == w else -points for s in range(4)],
    }


def pairs_text(pairs: Sequence[Pair]) -> str:
    """Pairs as card codes, `CC·CC   9S·9C` (a Chắn, then a Cạ)."""
    return "   ".join("·".join(CODE[f] for f in pair) for pair in pairs)


def score_line(found: Sequence[Bonus]) -> Line:
    """S-1, S-3, S-4 in words: which values make the score."""
    if not found:
        return Line("Ù xuông (no bonus): {score}", {"score": U_XUONG_SCORE})
    total = score(found)
    if any(b[0] == THAP_THANH[0] for b in found):
        return Line("Thập thành: the main values add up: {sum} = {score}",
                    {"sum": " + ".join(str(b[1]) for b in found), "score": total})
    top = max(range(len(found)), key=lambda i: (found[i][1], found[i][2]))
    others = [f"{b[0]} {b[2]}" for i, b in enumerate(found) if i != top]
    if not others:
        return Line("Score: {top} {main} = {score}",
                    {"top": found[top][0], "main": found[top][1], "score": total})
    return Line("Score: {top} {main} + dịch {others} = {score}",
                {"top": found[top][0], "main": found[top][1], "others": " + dịch ".join(others),
                 "score": total})


def _how_line(state: Any) -> Line:
    """W-1/W-4: how the winner won (heavenly, Chíu claim, own reveal, someone else's reveal)."""
    w = state.winner
    if state.wkind == WON_HEAVENLY:
        return Line("{seat} won (Ù) with Thiên ù: the dealer's twenty cards won at once.",
                    {"seat": w})
    card = CODE[state.wcard]
    if state.wkind == WON_CHIU:
        return Line("{seat} won (Ù) by claiming Chíu on {card}", {"seat": w, "card": card})
    if state.owner == w:
        return Line("{seat} won (Ù) on {card}, revealed into their own gate",
                    {"seat": w, "card": card})
    return Line("{seat} won (Ù) on {card}, revealed by {by}",
                {"seat": w, "card": card, "by": state.owner})


def deal_result(state: Any) -> DealResult:
    """The typed outcome of a finished deal: one side per player with its settlement (S-5),
    the winner, and lines saying how the deal was won, the winning hand, every bonus with its
    main value and dịch (S-2), and how they make the score (S-1, S-3, S-4). `ValueError` while
    the deal goes on."""
    res = state.result
    if res is None:
        raise ValueError("the deal is not over")
    settle = res["settlement"]
    w = res["winner"]
    if w is None:
        lines = (Line("The stock ran out: the deal is drawn and nobody pays."),)
        sides = tuple(SideScore((s,), 0, (Line("Drawn: nothing to pay"),)) for s in range(4))
        return DealResult(sides, (), lines)
    found_faces = winning_bonus_faces(state)
    found = [b for b, _faces in found_faces]
    counts, exposed = winning_hand(state)
    pairs, _left = all_pairs(counts, exposed)
    groups = card_groups(state, pairs, res["score"], found_faces)
    out = [_how_line(state), Line("Winning hand: {pairs}", {"pairs": pairs_text(pairs)})]
    if found:
        out.append(Line("Bonuses (main value / dịch):"))
        out.extend(Line("{name}: {main} / {dich}", {"name": b[0], "main": b[1], "dich": b[2]})
                   for b in found)
    out.append(score_line(found))
    points = res["score"]
    sides = tuple(
        SideScore((s,), settle[s], (
            Line("Receives {amount}: {score} from each of the three others",
                 {"amount": settle[s], "score": points}) if s == w else
            Line("Pays {score} to {winner}", {"score": points, "winner": w}),))
        for s in range(4))
    return DealResult(sides, (w,), tuple(out), groups=groups)


HAND_GROUP = "{seat}: the winning hand"


def card_groups(state: Any, pairs: Sequence[Pair], points: int,
                found_faces: Sequence[tuple[Bonus, tuple[int, ...]]]) -> tuple[CardGroup, ...]:
    """The won deal's cards for the summary's pictures: the winning hand pair by pair (exposed
    first, the winning card singled out), then every bonus with the cards that make it (S-2,
    `found_faces` as `winning_bonus_faces` gives them), then how they make the score (S-1,
    S-3, S-4) with no cards of its own."""
    w = state.winner
    codes, breaks = pair_codes(pairs)
    mark = -1
    if state.wcard >= 0:  # the winning card sits among the concealed pairs (after the exposed)
        start = sum(len(p) for p in state.exposed[w])
        code = CODE[state.wcard]
        found = [i for i, c in enumerate(codes) if c == code]
        mark = next((i for i in found if i >= start), found[0] if found else -1)
    hand = CardGroup(tuple(codes), Line(HAND_GROUP, {"seat": w}), side=w, points=points,
                     breaks=tuple(breaks), mark=mark)
    bonus_groups = tuple(
        CardGroup(tuple(CODE[f] for f in faces),
                  Line("{name}: {main} / {dich}", {"name": b[0], "main": b[1], "dich": b[2]}),
                  side=w)
        for b, faces in found_faces)
    total = CardGroup((), score_line([b for b, _f in found_faces]), side=w, points=points)
    return (hand, *bonus_groups, total)
