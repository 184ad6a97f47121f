"""What the Chắn table says and how it groups cards (no widgets here).

Pure functions over seat 0's observation and the engine's analysis: the hand grouped into
Chắn (identical pairs), Cạ and single cards; why a capture or a discard is not allowed (the
engine's rule id in words); the waiting cards of a hand one card from winning; and the
end-of-deal explanation: every bonus with its main value and dịch, the score (S-3, S-4) and the
settlement (S-5).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.chan import scoring
from engine.chan.cards import CODE, FACES, RANK, VIETNAMESE
from engine.chan.legal import CHIU, DISCARD_BASE, PASS, WIN
from ui.i18n import tr, trf
from ui.table import summary
from ui.table.reasons import reason, refusal
from ui.table.seats import seat_name

# Bonus name -> (main value, dịch), from the engine's table (S-2).
BONUS_VALUES: dict[str, tuple[int, int]] = {
    b[0]: (b[1], b[2]) for b in (
        scoring.U_CHI, scoring.THIEN_U, scoring.TOM_BONUS, scoring.BACH_THU,
        scoring.LEO_BONUS, scoring.THIEN_KHAI, scoring.CHIU_U, scoring.BON,
        scoring.BACH_DINH, scoring.TAM_DO, scoring.KINH_TU_CHI, scoring.THAP_THANH)
}



def card_name(face: int) -> str:
    """`7C (Thất văn)`: the code and the Vietnamese name of a face."""
    return f"{CODE[face]} ({VIETNAMESE[face]})"


def grouped_hand(counts: Sequence[int]) -> tuple[list[int], list[int], list[int]]:
    """The hand as faces left to right, the indexes where a new pair or group starts, and the
    indexes where the next kind of group starts (Chắn, then Cạ, then single cards)."""
    pairs, left = scoring.pair_hand(counts)
    chan = [p for p in pairs if p[0] == p[1]]
    ca = [p for p in pairs if p[0] != p[1]]
    faces: list[int] = []
    breaks: list[int] = []
    groups: list[int] = []
    for block in (chan, ca):
        if block and faces:
            groups.append(len(faces))
        for pair in block:
            if faces:
                breaks.append(len(faces))
            faces.extend(pair)
    if left:
        if faces:
            groups.append(len(faces))
            breaks.append(len(faces))
        faces.extend(left)
    return faces, breaks, groups


def exposed_codes(pairs: Sequence[tuple[int, ...]]) -> tuple[list[str], list[int]]:
    """Exposed pairs as card codes with a gap before each pair."""
    codes: list[str] = []
    breaks: list[int] = []
    for pair in pairs:
        if codes:
            breaks.append(len(codes))
        codes.extend(CODE[f] for f in pair)
    return codes, breaks



def capture_blocks(state: Any, counts: Sequence[int]) -> list[str]:
    """Why each hand card that matches the open card (same face, or same rank for a Cạ) may not
    capture it, in words (C-6, C-15…C-22); empty if there is no such card or all may."""
    open_face = state.observation(0).open_card
    if open_face < 0:
        return []
    out = []
    for f in range(FACES):
        if not counts[f]:
            continue
        if f != open_face and (f == 0 or open_face == 0 or RANK[f] != RANK[open_face]):
            continue
        rule = refusal(state, f)
        if rule is not None:
            out.append(f"{CODE[f]}: {reason(rule)}")
    return out


def waiting(obs: Any) -> list[int]:
    """The faces that would complete the hand, when it is one card from winning."""
    return scoring.waiting_faces(obs.hand, obs.exposed[obs.seat])


def action_face(action: int) -> int | None:
    """The hand card a capture or a discard uses, None for Pass / Chíu / Ù.

    Engine-internal: this knows Chắn's action numbering (captures below `DISCARD_BASE`, discards
    from it up to `PASS`); swap in the observation's public helper when the engine has one."""
    if action >= PASS:
        return None
    return action if action < DISCARD_BASE else action - DISCARD_BASE


def action_label(action: int) -> str:
    if action == PASS:
        return tr("Pass")
    if action == CHIU:
        return tr("Chíu")
    if action == WIN:
        return tr("Ù!")
    if action < DISCARD_BASE:
        return trf("Capture with {card}", card=CODE[action])
    return trf("Discard {card}", card=CODE[action - DISCARD_BASE])


def last_event(obs: Any) -> str:
    """The latest public decision in words (a seat's capture, discard, Chíu, reveal)."""
    if not obs.history:
        return ""
    seat, _phase, action, open_face = obs.history[-1]
    name = seat_name(seat)
    if action < DISCARD_BASE:
        return trf("{seat} captured {open} with {card}", seat=name, open=CODE[open_face],
                   card=CODE[action])
    if action < PASS:
        return trf("{seat} discarded {card}", seat=name, card=CODE[action - DISCARD_BASE])
    if action == CHIU:
        return trf("{seat} claimed Chíu on {card}", seat=name, card=CODE[open_face])
    if action == PASS and open_face >= 0:
        return trf("{seat} passed {card}", seat=name, card=CODE[open_face])
    return ""


# -- the end of a deal ------------------------------------------------------------------------
def winning_codes(state: Any) -> tuple[list[str], list[int]]:
    """The winner's twenty cards pair by pair (exposed first) for the summary, or nothing."""
    if state.result is None or state.result["winner"] is None:
        return [], []
    counts, exposed = scoring.winning_hand(state)
    pairs, left = scoring.all_pairs(counts, exposed)
    return exposed_codes(pairs + [(f,) for f in left])


def score_line(names: Sequence[str]) -> str:
    """S-1, S-3, S-4 in words: which values make the score."""
    if not names:
        return trf("Ù xuông (no bonus): {score}", score=scoring.U_XUONG_SCORE)
    values = [BONUS_VALUES[n] for n in names]
    if "Thập thành" in names:
        total = sum(v[0] for v in values)
        return trf("Thập thành: the main values add up: {sum} = {score}",
                   sum=" + ".join(str(v[0]) for v in values), score=total)
    top = max(range(len(names)), key=lambda i: (values[i][0], values[i][1]))
    parts = [f"{names[top]} {values[top][0]}"]
    parts += [trf("dịch {name} {value}", name=n, value=values[i][1])
              for i, n in enumerate(names) if i != top]
    total = values[top][0] + sum(v[1] for i, v in enumerate(values) if i != top)
    return trf("Score: {parts} = {score}", parts=" + ".join(parts), score=total)


def summary_lines(state: Any, match: dict[str, Any]) -> list[str]:
    """The explanation of a finished deal: winner, winning hand, bonuses, score, settlement."""
    result = state.result
    obs = state.observation(0)
    lines = [summary.heading()]
    winner = result["winner"]
    if winner is None:
        lines.append(tr("The stock ran out: the deal is drawn and nobody pays."))
    else:
        card = result["winning_card"]
        if card is None:
            how = tr("Thiên ù: the dealer's twenty cards won at once.")
        elif obs.history and obs.history[-1][2] == CHIU:
            how = trf("won by claiming Chíu on {card}", card=card)
        elif obs.open_owner == winner:
            how = trf("won on {card}, revealed into their own gate", card=card)
        else:
            how = trf("won on {card}, revealed by {seat}", card=card,
                      seat=seat_name(obs.open_owner))
        lines.append("[b]" + trf("{seat} won (Ù)", seat=seat_name(winner)) + "[/b]: " + how)
        counts, exposed = scoring.winning_hand(state)
        pairs, _left = scoring.all_pairs(counts, exposed)
        shown = "   ".join("·".join(CODE[f] for f in pair) for pair in pairs)  # CC·CC, 9S·9C
        lines.append("    " + trf("Winning hand: {pairs}", pairs=shown))
        names = result["bonuses"]
        if names:
            lines.append(tr("Bonuses (main value / dịch):"))
            for name in names:
                main, dich = BONUS_VALUES[name]
                lines.append(f"    {name}: {main} / {dich}")
        lines.append(score_line(names))
    settle = result["settlement"]
    lines.append(tr("Settlement:") + "  " + ",  ".join(
        f"{seat_name(s)} {settle[s]:+d}" for s in range(4)))
    totals = match.get("totals")
    if totals and match.get("of", 1) > 1:
        lines.append(tr("Match totals:") + "  " + ",  ".join(
            f"{seat_name(s)} {totals[s]:+d}" for s in range(4)))
    return lines
