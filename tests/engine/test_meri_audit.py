"""Independent audit of the Meri engine against shared/rules/meri.md and records.md.

Three parts:
1. `Ref`, a second, deliberately plain reading of the rules (card codes as strings, rank lists
   written out from H-16..H-18, no shared tables with `engine.meri`), replayed side by side with
   `python -m engine replay`'s in-process form on thousands of biased random deals (trump-heavy
   hands, lone Suns, all-trump receivers, combinations in trick 9): every key of the contract's
   output must be equal, including the rule id of deliberately illegal actions (check order
   `turn`, `held`, then H-12 / H-14 / H-22 / H-25 / H-27).
2. Hand-built records for rare rule interactions and exact boundaries.
3. A seeded fuzz of the replay CLI: mutated records must exit 0, 1 or 2, print JSON for 0/1 and
   exactly one line on stderr for 2, never a traceback.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine import cli
from engine.records import replay

ROOT = Path(__file__).resolve().parents[2]

# ---- a second reading of the rules --------------------------------------------------------------
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


# ---- biased random deals: the rare interactions, often ---------------------------------------
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


def engine_out(record: dict) -> tuple[int, dict]:
    status, out = replay(json.loads(json.dumps(record)))
    out = json.loads(json.dumps(out))
    if status == 1:
        assert isinstance(out["error"].pop("message"), str) and out["error"]["rule"]
    return status, out


def test_differential_against_a_second_reading_of_the_rules() -> None:
    """Every key of replay's output equals the plain reading's, on 1500 biased deals."""
    rng = random.Random(20261129)
    seen = {"transfer5_9": 0, "transfer5_robai": 0, "transfer2": 0, "d2": 0, "H-25": 0,
            "H-27": 0, "H-22": 0, "H-14": 0, "H-12": 0, "held": 0, "turn": 0, "sun": 0}
    for _ in range(1500):
        lay = biased_layout(rng)
        actions = random_actions(rng, lay, rng.randrange(200))
        record = {"game": "meri", "seed": rng.randrange(1000), "layout": lay, "actions": actions}
        want = ref_replay(record)
        got = engine_out(record)
        assert got == want, json.dumps(record)
        if want[0] == 1:
            seen[want[1]["error"]["rule"]] += 1
        elif want[1]["result"]:
            for t in want[1]["result"]["tricks"]:
                if t["transfer"] == 5:
                    seen["transfer5_9" if t is want[1]["result"]["tricks"][8] else
                         "transfer5_robai"] += 1
                elif t["transfer"] == 2:
                    seen["transfer2"] += 1
        ref = Ref(lay)
        for a in actions:
            if ref.apply(a.strip()):
                break
        seen["d2"] += ref.all_trump_receiver
        seen["sun"] += bool(ref.sun_only)
    print(seen)
    assert all(n > 0 for n in seen.values()), seen  # the rare cases did happen


# ---- seeded fuzz of the replay CLI --------------------------------------------------------------
JUNK: list[Any] = [None, True, False, 0, -1, 8, 2**63, -(10**30), 1.5, 1e308, "", " ", "meri",
                   "P9", "pSu", "PSu ", "declare P9", "pass pass", "\u00e9\u0000\n", "\ud7ff",
                   [], [[]], {}, {"a": [1, {"b": None}]}, ["P1"] * 9, [["P1"]] * 8, [1] * 75,
                   [[[[[[[[["deep"]]]]]]]]], "x" * 5000]


def junk(rng: random.Random) -> Any:
    if rng.random() < 0.2:  # a fresh random card-ish string
        return "".join(rng.choice("PIKOGSuUnReKaoR0123456789 \t") for _ in range(rng.randrange(6)))
    return rng.choice(JUNK)


def base_record(rng: random.Random) -> dict:
    lay = biased_layout(rng)
    actions = random_actions(rng, lay, rng.randrange(120))
    record: dict[str, Any] = {"game": "meri", "seed": rng.randrange(100), "actions": actions}
    if rng.random() < 0.7:
        record["layout"] = lay
    return record


def mutate(rng: random.Random, record: dict) -> str:
    """One record, broken in one or two random places, as the text a tool would pass."""
    rec = json.loads(json.dumps(record))
    for _ in range(rng.randrange(1, 3)):
        kind = rng.randrange(10)
        lay = rec.get("layout")
        if kind == 0:
            rec[rng.choice(["game", "seed", "layout", "actions", "expect"])] = junk(rng)
        elif kind == 1:
            rec.pop(rng.choice(["game", "seed", "layout", "actions"]), None)
        elif kind == 2 and isinstance(rec.get("actions"), list) and rec["actions"]:
            i = rng.randrange(len(rec["actions"]))
            a = rec["actions"][i]
            rec["actions"][i] = (a[:rng.randrange(len(a) + 1)] if isinstance(a, str) and
                                 rng.random() < 0.5 else junk(rng))
        elif kind == 3 and isinstance(lay, dict):
            lay[rng.choice(["dealer", "hands", "undealt", "extra"])] = junk(rng)
        elif kind == 4 and isinstance(lay, dict) and isinstance(lay.get("hands"), list):
            hands = lay["hands"]
            s = rng.randrange(len(hands))
            if isinstance(hands[s], list) and hands[s]:
                j = rng.randrange(len(hands[s]))
                hands[s][j] = rng.choice([junk(rng), rng.choice(ALL_CODES)])  # dup or junk
        elif kind == 5 and isinstance(lay, dict) and isinstance(lay.get("hands"), list):
            hands = lay["hands"]
            s = rng.randrange(len(hands))
            if isinstance(hands[s], list) and hands[s]:
                if rng.random() < 0.5:
                    hands[s].pop()
                else:
                    hands[s].append(rng.choice(ALL_CODES))
        elif kind == 6 and isinstance(rec.get("actions"), list):
            rec["actions"].insert(rng.randrange(len(rec["actions"]) + 1),
                                  rng.choice(["declare", "pass", "", "  ", "P1 P2", "Declare"]
                                             + ALL_CODES))
        elif kind == 7:
            text = json.dumps(rec)
            return text[:rng.randrange(len(text))]
        elif kind == 8:
            return rng.choice(["", "null", "[]", "42", '"meri"', "{", "{}", "\ufeff{}",
                               '{"game": "meri", "seed": 1, "actions": ["pass"]} trailing',
                               '{"game": "meri", "seed": NaN}', '{"game": "meri", "seed": 1e999}',
                               '{"game": "meri", "seed": ' + "9" * 5000 + "}",
                               '{"game": "meri", "seed": 1, "x": ' + "[" * 5000 + "]" * 5000 + "}"])
        else:
            rec[rng.choice(["layout", "actions"])] = rng.choice(
                [{"nested": [junk(rng)]}, [junk(rng), junk(rng)], junk(rng)])
    return json.dumps(rec, ensure_ascii=rng.random() < 0.5)


def check_contract(status: int, stdout: str, stderr: str) -> None:
    assert status in (0, 1, 2), (status, stderr)
    assert "Traceback" not in stdout + stderr
    if status == 2:
        assert stdout == "" and stderr.count("\n") == 1 and stderr.endswith("\n") and stderr.strip()
        return
    assert stderr == ""
    out = json.loads(stdout)
    assert out["ok"] is (status == 0)
    if status == 0:
        assert list(out) == ["ok", "applied", "to_act", "phase", "legal", "legal_count", "result"]
        assert out["legal_count"] == len(out["legal"]) and (out["to_act"] is None) == (
            out["phase"] == "over")
    else:
        assert list(out) == ["ok", "applied", "error", "to_act", "legal"]
        assert list(out["error"]) == ["index", "action", "rule", "message"]
        assert out["error"]["index"] == out["applied"]
    assert out["legal"] == sorted(out["legal"])


def run_main(argv: list[str], stdin: bytes | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    try:
        if stdin is not None:
            sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = cli.main(argv)
    finally:
        sys.stdin = old_stdin
    return status, out.getvalue(), err.getvalue()


def test_fuzz_replay_cli_in_process(tmp_path: Path) -> None:
    """Mutated records: exit 0/1 with the contract's JSON, or 2 with one line; no traceback."""
    rng = random.Random(4242)
    statuses = {0: 0, 1: 0, 2: 0}
    path = tmp_path / "r.json"
    for n in range(700):
        text = mutate(rng, base_record(rng))
        if n % 5 == 0:
            status, stdout, stderr = run_main(["replay", "-"], stdin=text.encode("utf-8",
                                                                                "surrogatepass"))
        else:
            path.write_bytes(text.encode("utf-8", "surrogatepass"))
            status, stdout, stderr = run_main(["replay", str(path)])
        check_contract(status, stdout, stderr)
        statuses[status] += 1
    assert all(statuses.values()), statuses  # every outcome was exercised


def test_fuzz_replay_cli_raw_bytes(tmp_path: Path) -> None:
    """Garbage bytes (bad UTF-8 too) are malformed: exit 2, one line."""
    rng = random.Random(7)
    path = tmp_path / "g.json"
    for _ in range(100):
        data = bytes(rng.randrange(256) for _ in range(rng.randrange(40)))
        path.write_bytes(data)
        check_contract(*run_main(["replay", str(path)]))


@pytest.mark.parametrize("case", range(4))
def test_fuzz_replay_cli_subprocess(case: int) -> None:
    """A few mutated records through a real `python -m engine replay -`."""
    rng = random.Random(900 + case)
    text = mutate(rng, base_record(rng))
    proc = subprocess.run([sys.executable, "-m", "engine", "replay", "-"],
                          input=text.encode("utf-8", "surrogatepass"), capture_output=True,
                          cwd=ROOT, timeout=60)
    check_contract(proc.returncode, proc.stdout.decode("utf-8"), proc.stderr.decode("utf-8"))


def test_apply_accepts_exactly_the_legal_actions_and_random_action_draws_from_them() -> None:
    """At every decision of 25 random deals, each of the 77 actions is applied to a clone:
    accepted iff listed by `legal_actions` (the hot path's inlined checks agree with the rules),
    refused without changing the state, and `random_action` only returns listed actions."""
    from engine import registry
    from engine.errors import IllegalAction

    game = registry.get("meri")
    rng = random.Random(99)
    for deal in range(25):
        state = game.new_deal(deal)
        while not state.is_over:
            legal = set(state.legal_actions())
            before = repr([getattr(state, k) for k in state.__slots__])
            for action in range(77):
                probe = state.clone()
                try:
                    probe.apply(action)
                except IllegalAction as exc:
                    assert action not in legal and exc.rule in (
                        "turn", "held", "H-12", "H-14", "H-22", "H-25", "H-27")
                    if action >= 75 or state.hands[state.to_act] >> action & 1 or action % 7 == 0:
                        assert repr([getattr(probe, k) for k in probe.__slots__]) == before
                else:
                    assert action in legal
            pick = state.random_action(rng)
            assert pick in legal
            state.apply(pick)


def test_H3_restore_match_refuses_corrupt_saves_with_one_error_type() -> None:
    """A corrupt saved match (autosave after a power cut, hand edits) is `MalformedRecord`,
    never an `OverflowError`/`TypeError` escaping, and never a bool or float read as an int."""
    from engine import registry
    from engine.errors import MalformedRecord

    game = registry.get("meri")
    good = game.new_match(3).to_dict()
    rng = random.Random(5)
    cases: list[dict] = [
        {**good, "rng": [good["rng"][0], [2**80] + good["rng"][1][1:], None]},
        {**good, "rng": [good["rng"][0], [-1] * len(good["rng"][1]), None]},
        {**good, "dealer": True}, {**good, "dealer": 3.0}, {**good, "deals_played": "0"},
        {**good, "scores": [1.5, 0]}, {**good, "scores": ["1", 0]}, {**good, "deal_scores": [[1, 2]]},
    ]
    for _ in range(200):
        bad = json.loads(json.dumps(good))
        bad[rng.choice(list(bad))] = junk(rng)
        cases.append(bad)
    for bad in cases:
        try:
            match = game.restore_match(bad)
        except MalformedRecord as exc:
            assert "\n" not in str(exc)
        else:  # whatever is accepted is a usable match
            assert match.result().deals_total == 8 and not isinstance(match.dealer, bool)
            match.next_deal()
    restored = game.restore_match(json.loads(json.dumps(good)))
    assert restored.to_dict() == good


@pytest.mark.parametrize("action", [-1, 77, 1.0, None, "P9", True])
def test_format_action_refuses_what_is_not_an_action(action: Any) -> None:
    from engine import registry

    with pytest.raises((ValueError, TypeError)):
        registry.get("meri").format_action(action)


# ---- hand-picked positions: check order when several rules break at once --------------------
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
