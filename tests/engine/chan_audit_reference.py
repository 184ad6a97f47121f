"""An independent, slow reference reading of shared/rules/chan.md for the Chắn audit tests.

Written from the rules text with plain lists, sets and counters (no bit tricks, nothing imported
from `engine.chan.state`), so the audit can compare the engine with it decision by decision:
who is to act, in which phase, the legal set, and the final result. Faces and actions use the
engine's public ints (`engine.chan.cards` faces; `capture H` = H, `discard F` = 25 + F, then
pass, chiu, win), which are part of the record notation round trip.
"""

from __future__ import annotations

from collections import Counter

CODES = ("CC",) + tuple(f"{r}{s}" for s in "MSC" for r in range(9, 1, -1))
FACE = {c: i for i, c in enumerate(CODES)}
DISCARD, PASS, CHIU, WIN = 25, 50, 51, 52
RED = {FACE[c] for c in ("8M", "9M", "8S", "9S", "CC")}  # C-5
TOM = (FACE["3M"], FACE["3S"], FACE["7C"])
LEO = (FACE["8S"], FACE["9M"], FACE["CC"])


def rank(f: int) -> str:
    return CODES[f][0] if f else "CC"


def is_ca(a: int, b: int) -> bool:
    """C-6: same rank, different suits (Chi chi has no Cạ)."""
    return a != b and a != 0 and b != 0 and CODES[a][0] == CODES[b][0]


def pairing(hand: Counter) -> tuple[int, list[tuple[int, int]], list[int]]:
    """D-4 / W-2: identical pairs first, then as many Cạ as possible; (chắn, cạ list, leftovers)."""
    chan = sum(n // 2 for n in hand.values())
    singles = sorted(f for f, n in hand.items() if n % 2)
    cas: list[tuple[int, int]] = []
    left: list[int] = []
    by_rank: dict[str, list[int]] = {}
    for f in singles:
        if f == 0:
            left.append(f)
        else:
            by_rank.setdefault(rank(f), []).append(f)
    for faces in by_rank.values():
        while len(faces) >= 2:
            cas.append((faces.pop(), faces.pop()))
        left.extend(faces)
    return chan, cas, left


class Ref:
    """One deal, played by the rules text."""

    def __init__(self, dealer: int, hands: list[list[int]], stock: list[int]) -> None:
        self.dealer = dealer
        self.hand = [Counter(h) for h in hands]
        self.dealt = [Counter(h) for h in hands]
        self.stock = list(stock)
        self.exposed: list[list[tuple[int, ...]]] = [[], [], [], []]
        self.gates: list[list[int]] = [[], [], [], []]
        self.discarded: list[set[int]] = [set(), set(), set(), set()]
        self.ca_played: list[set[int]] = [set(), set(), set(), set()]
        self.refused: list[set[int]] = [set(), set(), set(), set()]
        self.captured_ca = [False] * 4
        self.dead = -1
        self.turn = dealer
        self.open: tuple[int, int, bool] | None = None  # face, gate owner, from stock
        self.pending: list[tuple[int, str]] = []
        self.decision: tuple[int, str] | None = None
        self.result: dict | None = None
        if self.wins(dealer, None):
            self.decision = (dealer, "heavenly")
        else:
            self._dealer_starts()

    # ------------------------------------------------------------ rule predicates
    def discards(self, s: int, hand: Counter | None = None, captured_ca: bool | None = None) -> set:
        """X-1…X-3: the faces s may discard."""
        hand = self.hand[s] if hand is None else hand
        cca = self.captured_ca[s] if captured_ca is None else captured_ca
        out = set()
        for f, n in hand.items():
            if n not in (1, 3) or f in self.refused[s]:
                continue
            if cca and any(is_ca(f, d) for d in self.discarded[s]):
                continue
            out.add(f)
        return out

    def capture_rule(self, s: int, o: int, h: int) -> str | None:
        """The first of C-6, C-15…C-22 that forbids s capturing o with hand card h."""
        hand = self.hand[s]
        if not (h == o or is_ca(h, o)):
            return "C-6"
        if h != o and hand[o]:
            return "C-15"
        if h != o:
            if hand[h] in (2, 4):
                return "C-16"
            _c, cas, left = pairing(hand)
            if any(rank(a) == rank(o) for a, _b in cas):
                return "C-17"
            if len(left) == 1:
                return "C-18"
            if o in self.refused[s] or h in self.refused[s]:
                return "C-19"
        if o in self.discarded[s] or o in self.ca_played[s]:
            return "C-20"
        if h != o and any(is_ca(a, b) for a in self.discarded[s] for b in self.discarded[s]):
            return "C-21"
        after = Counter(hand)
        after[h] -= 1
        if not self.discards(s, +after, self.captured_ca[s] or h != o):
            return "C-22"
        return None

    def wins(self, s: int, f: int | None) -> bool:
        """W-2/W-3 for s's cards plus f (None: the dealt 20, W-4)."""
        hand = Counter(self.hand[s])
        if f is not None:
            hand[f] += 1
        if sum(hand.values()) + sum(len(p) for p in self.exposed[s]) != 20:
            return False
        chan, cas, left = pairing(+hand)
        if left:
            return False
        chan += sum(2 if len(p) == 4 else int(p[0] == p[1]) for p in self.exposed[s])
        if f == 0:
            return chan == 6
        return chan >= 6

    # ------------------------------------------------------------ flow
    def legal(self) -> list[int]:
        if self.decision is None:
            return []
        s, ph = self.decision
        if ph in ("heavenly", "win_offer"):
            return [WIN, PASS]
        if ph == "chiu_offer":
            return [CHIU, PASS]
        if ph == "discard":
            return sorted(DISCARD + f for f in self.discards(s))
        o = self.open[0]
        caps = [h for h in self.hand[s] if self.hand[s][h] and self.capture_rule(s, o, h) is None]
        return sorted(caps) + [PASS]

    def apply(self, a: int) -> None:
        s, ph = self.decision
        assert a in self.legal(), (a, self.decision)
        if ph == "heavenly":
            if a == WIN:
                return self._over(s, None, "heavenly")
            return self._dealer_starts()
        if ph == "win_offer":
            if a == WIN:
                return self._over(s, self.open[0], "stock")
            return self._advance()
        if ph == "chiu_offer":
            if a == PASS:
                return self._advance()
            f, owner, _st = self.open
            if self.wins(s, f):
                return self._over(s, f, "chiu")
            self.gates[owner].pop()
            self.hand[s][f] = 0
            self.exposed[s].append((f, f, f, f))
            self.open = None
            self.decision = (s, "discard")
            return None
        if ph == "discard":
            f = a - DISCARD
            self.hand[s][f] -= 1
            self.discarded[s].add(f)
            self.gates[s].append(f)
            if s == self.turn:
                self.turn = (s + 1) % 4
            return self._becomes_open(f, s, False)
        o, owner, _st = self.open
        if a == PASS:
            if self.hand[s][o] and self.capture_rule(s, o, o) is None:
                self.refused[s].add(o)  # C-19
            if ph == "respond":
                return self._reveal()
            self.turn = (s + 1) % 4
            return self._advance()
        self.gates[owner].pop()
        self.hand[s][a] -= 1
        self.exposed[s].append((a, o))
        if a != o:
            self.ca_played[s].add(a)
            self.captured_ca[s] = True
        self.open = None
        self.decision = (s, "discard")
        return None

    def _dealer_starts(self) -> None:
        if self.discards(self.dealer):
            self.decision = (self.dealer, "discard")
        else:  # C-13: dead hand; its turns are automatic reveals (D-6), the dealer's first too
            self.dead = self.dealer
            self._advance()

    def _becomes_open(self, f: int, owner: int, stock: bool) -> None:
        self.open = (f, owner, stock)
        order = [(owner + k) % 4 for k in range(4)]
        offers = []
        if stock:
            offers += [(s, "win_offer") for s in order if s != self.dead and self.wins(s, f)]
        for s in order:
            if s != self.dead and self.hand[s][f] == 3:
                after = Counter(self.hand[s])
                after[f] = 0
                if self.wins(s, f) or self.discards(s, +after):
                    offers.append((s, "chiu_offer"))
        self.pending = offers
        self._advance()

    def _advance(self) -> None:
        if self.pending:
            self.decision = self.pending.pop(0)
            return
        t = self.turn
        if self.open is not None and self.open[2] and self.open[1] == t:
            if t == self.dead:
                self.turn = (t + 1) % 4
                self.decision = (self.turn, "respond")
            else:
                self.decision = (t, "own_card")
            return
        if self.open is None or t == self.dead:
            return self._reveal()
        self.decision = (t, "respond")
        return None

    def _reveal(self) -> None:
        if not self.stock:
            self.decision = None
            self.result = {"winner": None, "winning_card": None, "bonuses": [], "score": 0,
                           "settlement": [0, 0, 0, 0]}
            return
        f = self.stock.pop(0)
        self.gates[self.turn].append(f)
        self._becomes_open(f, self.turn, True)

    # ------------------------------------------------------------ scoring (S-1…S-6)
    def _over(self, w: int, card: int | None, how: str) -> None:
        self.decision = None
        hand = Counter(self.hand[w])
        if card is not None:
            hand[card] += 1
        final = Counter(hand)
        for p in self.exposed[w]:
            final.update(p)
        chan, cas, _left = pairing(+hand)
        cas = cas + [p for p in self.exposed[w] if len(p) == 2 and p[0] != p[1]]
        chan += sum(2 if len(p) == 4 else int(p[0] == p[1]) for p in self.exposed[w])
        red = sum(n for f, n in final.items() if f in RED)
        dealt = self.dealt[w]
        b: list[tuple[str, int, int]] = []
        if how != "heavenly" and self.open[2] and self.open[1] == w:
            b.append(("Ù chì", 3, 1))
        if how == "heavenly":
            b.append(("Thiên ù", 3, 1))
        b += [("Tôm", 4, 1)] * min(final[f] for f in TOM)
        if card is not None and chan == 6 and not any(
                card != 0 and rank(x) == rank(card) for x, _y in cas):
            b.append(("Bạch thủ", 4, 1))
        b += [("Lèo", 5, 2)] * min(final[f] for f in LEO)
        b += [("Thiên khai", 5, 2)] * sum(1 for f in range(25) if dealt[f] == 4)
        if card is not None and dealt[card] == 3 and final[card] == 4:
            b.append(("Chíu ù", 5, 2))
        b += [("Bòn", 5, 2)] * sum(1 for f in range(25) if dealt[f] == 2 and final[f] == 4)
        if red == 0:
            b.append(("Bạch định", 7, 4))
        if red == 8:
            b.append(("Tám đỏ", 8, 5))
        if final[0] == 4 and red == 4:
            b.append(("Kính tứ chi", 12, 9))
        if chan == 10:
            b.append(("Thập thành", 12, 9))
        if not b:
            score = 2
        elif chan == 10:
            score = sum(x[1] for x in b)
        else:
            top = max(b, key=lambda x: (x[1], x[2]))
            rest = list(b)
            rest.remove(top)
            score = top[1] + sum(x[2] for x in rest)
        self.result = {"winner": w, "winning_card": CODES[card] if card is not None else None,
                       "bonuses": [x[0] for x in b], "score": score,
                       "settlement": [3 * score if s == w else -score for s in range(4)]}
