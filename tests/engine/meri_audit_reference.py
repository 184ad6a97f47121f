"""An independent reading of shared/rules/meri.md for the Meri audit tests.

Written from the rules text alone, deliberately plain (card codes as strings, rank lists written
out from H-16..H-18, no shared tables with `engine.meri`): `Ref` plays one deal and names the
rule an illegal action breaks (check order `turn`, `held`, then H-12 / H-14 / H-22 / H-25 /
H-27), scores tricks and combinations (H-28..H-33, D-2, D-3, D-7, D-10), and `ref_replay` gives
records.md's replay object from it. `biased_layout` and `random_actions` make the records the
audit replays: biased random deals (trump-heavy hands, lone Suns, all-trump receivers,
combinations in trick 9) played by `Ref`, with one deliberately illegal action.
"""

from __future__ import annotations

import random

SUITS = "PIKOG"
COURTS = ["Su", "Un", "Re", "Ka", "So", "Ro"]
NUMBERS = ["9", "8", "7", "6", "5", "4", "3", "2", "1"]
ALL_CODES = [s + r for s in SUITS for r in COURTS + NUMBERS]  # records.md canonical order
CANON = {c: i for i, c in enumerate(ALL_CODES)}
LONG = "PI"


def numbers_high_to_low(suit: str) -> list[str]:
    """H-18."""
    return [str(n) for n in range(9, 0, -1)] if suit in LONG else [str(n) for n in range(1, 10)]


def plain_order(suit: str) -> list[str]:
    """H-17, high to low: Su Un Re Ka So Ro numbers; the plain Isu Robai between Isu 2 and 1."""
    nums = numbers_high_to_low(suit)
    if suit == "I":
        return ["ISu", "IUn", "IRe", "IKa", "ISo"] + ["I" + n for n in nums[:-1]] + ["IRo", "I1"]
    return [suit + r for r in ["Su", "Un", "Re", "Ka", "So", "Ro"]] + [suit + n for n in nums]


def trump_order(t: str) -> list[str]:
    """H-16 (with H-10): Su Un So Tenka native-Robai Re Ka numbers; PRo once when Pao is trump."""
    top = [t + "Su", t + "Un", t + "So", "PRo"]
    if t != "P":
        top.append(t + "Ro")
    return top + [t + "Re", t + "Ka"] + [t + n for n in numbers_high_to_low(t)]


class Ref:
    """One deal by the plain reading. `apply` returns None or the violated rule id."""

    def __init__(self, layout: dict) -> None:
        self.dealer = layout["dealer"]
        self.hands = [set(h) for h in layout["hands"]]
        self.undealt = list(layout["undealt"])
        self.okie = self.undealt[0]
        self.trump = self.okie[0]  # H-9
        self.native = self.trump + "Ro"  # H-11 (PRo when Pao is trump, D-8)
        self.torder = trump_order(self.trump)
        self.declared = self.okie == self.native  # D-9
        self.phase = "declare"
        self.to_act = (self.dealer + 1) % 8
        self.answers = 0
        self.receiver = -1
        self.all_trump_receiver = False
        self.sun_only: set[int] = set()
        self.meri_seen = False
        self.trick_no = 0
        self.leader = -1
        self.trick: dict[int, str] = {}
        self.tricks: list[dict] = []
        self.scores = [0, 0]

    def is_trump(self, c: str) -> bool:
        return c[0] == self.trump or c == "PRo"  # H-9, H-10

    def power(self, c: str, led_suit: str | None, meri: bool) -> int:
        if self.is_trump(c):
            return 1000 - self.torder.index(c)
        if not meri and c[0] == led_suit:
            return 100 - plain_order(led_suit).index(c)
        return 0

    def legal(self) -> list[str]:
        if self.phase == "over":
            return []
        hand = self.hands[self.to_act]
        if self.phase == "declare":
            return ["declare", "pass"] if self.native in hand else ["pass"]
        plain = {c for c in hand if not self.is_trump(c)}
        trumps = hand - plain
        if self.phase == "discard":  # H-14, D-2
            return sorted(plain or hand)
        if not self.trick:
            if self.trick_no == 0:  # H-22, D-2
                return sorted(plain or hand)
            return sorted(hand)
        lead = self.trick[self.leader]
        if self.is_trump(lead):  # H-25, H-26
            if trumps and not (self.to_act in self.sun_only and trumps == {self.trump + "Su"}):
                return sorted(trumps)
            return sorted(hand)
        if self.meri_seen:  # H-27: Tenka is no Pao card
            follow = {c for c in plain if c[0] == lead[0]}
            if follow:
                return sorted(follow | trumps)
        return sorted(hand)  # H-23

    def apply(self, action: str) -> str | None:
        if self.phase == "over":
            return "turn"
        seat = self.to_act
        if self.phase == "declare":
            if action not in ("declare", "pass"):
                return "turn"
            if action == "declare" and self.native not in self.hands[seat]:
                return "H-12"
            self.answers += 1
            if action == "declare":  # D-5
                self.declared = True
                self.receive(seat)
            elif self.answers == 8:
                self.receive(self.dealer)  # H-13
            else:
                self.to_act = (seat + 1) % 8
            return None
        if action in ("declare", "pass"):
            return "turn"
        if action not in self.hands[seat]:
            return "held"
        if action not in self.legal():
            if self.phase == "discard":
                return "H-14"
            if not self.trick:
                return "H-22"
            return "H-25" if self.is_trump(self.trick[self.leader]) else "H-27"
        self.hands[seat].discard(action)
        if self.phase == "discard":
            self.phase = "play"
            # D-7: the hands at the opening lead decide the Sun exception (H-26)
            self.sun_only = {s for s in range(8)
                             if {c for c in self.hands[s] if self.is_trump(c)} == {self.trump + "Su"}}
            return None
        if not self.trick:
            self.leader = seat
            if self.is_trump(action):
                self.meri_seen = True  # H-21
        self.trick[seat] = action
        if len(self.trick) < 8:
            self.to_act = (seat + 1) % 8
            return None
        lead = self.trick[self.leader]
        meri = self.is_trump(lead)
        cards = [self.trick[s] for s in range(8)]
        winner = max(range(8), key=lambda s: self.power(cards[s], lead[0], meri))
        self.score(self.leader, cards, winner, meri, False)
        self.trick = {}
        if self.trick_no == 8:  # H-29: trick 9 by itself
            last = [next(iter(h)) for h in self.hands]
            d = last[self.dealer]
            led_suit = self.trump if self.is_trump(d) else d[0]
            win9 = max(range(8), key=lambda s: self.power(last[s], led_suit, False))
            self.hands = [set() for _ in range(8)]
            self.score(winner, last, win9, False, True)  # D-10 leader, D-3 never a Meri
            self.phase = "over"
            self.to_act = None
        else:
            self.leader = self.to_act = winner
        return None

    def receive(self, seat: int) -> None:
        self.receiver = seat
        self.hands[seat].add(self.okie)
        self.all_trump_receiver = all(self.is_trump(c) for c in self.hands[seat])  # D-2
        self.phase = "discard"
        self.to_act = seat

    def score(self, leader: int, cards: list[str], winner: int, meri: bool, last: bool) -> None:
        transfer = 0
        w = cards[winner]
        if not meri and self.is_trump(w):  # H-31
            opp = [cards[s] for s in range(8) if s % 2 != winner % 2 and self.is_trump(cards[s])]
            if opp:
                y = min(opp, key=self.torder.index)
                t = self.trump
                pairs = {(t + "Su", t + "Un"), (t + "Un", t + "So"), (t + "So", self.native),
                         (self.native, t + "Re")}
                pairs.add((t + "2", t + "1") if t in LONG else (t + "8", t + "9"))
                if (w, y) in pairs:
                    robai_pair = self.native in (w, y)
                    transfer = 5 if last or (robai_pair and not self.declared) else 2  # H-32
        team = winner % 2
        self.scores[team] += 1 + transfer
        self.scores[1 - team] -= transfer
        self.tricks.append({"leader": leader, "cards": cards, "winner": winner, "meri": meri,
                            "transfer": transfer})
        self.trick_no += 1


def ref_replay(record: dict) -> tuple[int, dict]:
    """records.md's replay object, from `Ref` (layout records only)."""
    ref = Ref(record["layout"])
    for index, text in enumerate(record.get("actions", [])):
        action = text.strip()
        rule = ref.apply(action)
        if rule is not None:
            return 1, {"ok": False, "applied": index,
                       "error": {"index": index, "action": text, "rule": rule},
                       "to_act": ref.to_act, "legal": sorted(ref.legal())}
    result = None
    if ref.phase == "over":
        result = {"tricks": ref.tricks, "team_scores": ref.scores}
    legal = sorted(ref.legal())
    return 0, {"ok": True, "applied": len(record.get("actions", [])), "to_act": ref.to_act,
               "phase": ref.phase, "legal": legal, "legal_count": len(legal), "result": result}


def biased_layout(rng: random.Random) -> dict:
    """A layout whose trumps are often concentrated (all-trump receivers, lone Suns, combos)."""
    deck = ALL_CODES[:]
    rng.shuffle(deck)
    undealt = [deck.pop() for _ in range(3)]
    style = rng.randrange(4)
    if style == 1:  # trumps to a few seats
        t = undealt[0][0]
        trumps = [c for c in deck if c[0] == t or c == "PRo"]
        rest = [c for c in deck if c not in trumps]
        sinks = rng.sample(range(8), rng.randrange(1, 4))
        hands: list[list[str]] = [[] for _ in range(8)]
        for c in trumps:
            room = [s for s in sinks if len(hands[s]) < 9] or [s for s in range(8) if len(hands[s]) < 9]
            hands[rng.choice(room)].append(c)
        for s in range(8):
            while len(hands[s]) < 9:
                hands[s].append(rest.pop())
    elif style == 2:  # a seat holding only the trump Sun among trumps, the rest spread
        t = undealt[0][0]
        hands = [deck[9 * s:9 * s + 9] for s in range(8)]
        sun = t + "Su"
        if sun in deck:
            holder = next(s for s in range(8) if sun in hands[s])
            for i, c in enumerate(hands[holder]):
                if c != sun and (c[0] == t or c == "PRo"):
                    other = next(((s, j) for s in range(8) if s != holder
                                  for j, d in enumerate(hands[s]) if not (d[0] == t or d == "PRo")),
                                 None)
                    if other:
                        s, j = other
                        hands[holder][i], hands[s][j] = hands[s][j], c
    else:
        hands = [deck[9 * s:9 * s + 9] for s in range(8)]
    for h in hands:
        rng.shuffle(h)
    return {"dealer": rng.randrange(8), "hands": hands, "undealt": undealt}


def random_actions(rng: random.Random, layout: dict, illegal_at: int) -> list[str]:
    """A record's actions by `Ref`: legal ones (trumps played eagerly or hoarded for trick 9),
    then at index `illegal_at` one refused try (or a stop), if the deal lasts that long."""
    ref = Ref(layout)
    out: list[str] = []
    eager = rng.random()  # the chance of playing a trump when one is legal and optional
    while ref.phase != "over":
        legal = ref.legal()
        if len(out) == illegal_at:
            if rng.random() < 0.2:
                return out
            wrong = [a for a in ["declare", "pass"] + ALL_CODES if a not in legal]
            if ref.phase == "declare" and "declare" in wrong and rng.random() < 0.5:
                wrong = ["declare"]  # H-12
            # prefer held cards, so that rules rather than `held` decide
            held = [a for a in wrong if a in ref.hands[ref.to_act]]
            pick = rng.choice(held if held and rng.random() < 0.7 else wrong)
            out.append(pick if rng.random() < 0.8 else f"  {pick}\t")
            return out
        trumps = [c for c in legal if c not in ("declare", "pass") and ref.is_trump(c)]
        others = [c for c in legal if c not in trumps]
        if trumps and others:
            pick = rng.choice(trumps if rng.random() < eager else others)
        else:
            pick = rng.choice(legal)
        assert ref.apply(pick) is None
        out.append(pick)
    return out
