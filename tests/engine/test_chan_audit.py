"""Second-pair-of-eyes audit of the Chắn engine against shared/rules/chan.md and records.md.

- A differential test against an independent slow reading of the rules
  (`chan_audit_reference.Ref`): to_act, phase, the legal set and the result at every decision.
- Offers are private: a non-deciding seat's observation is identical whether or not anyone
  holds a claimable hand (heavenly, win_offer, chiu_offer).
- The dead hand (C-13, D-6), seat order of claims (K-2, W-5), check order of errors
  (records.md: `turn`, `held`, then C-6, C-15…C-22 / X-1…X-3).
- records.md edge cases and a seeded fuzz of `python -m engine replay` (exit 0/1/2 only, JSON
  on stdout for 0/1, exactly one stderr line for 2, never a traceback).
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine import cli
from engine.chan.legal import CHIU, OFFERS, PASS, WIN
from engine.chan.state import ChanState
from tests.engine.chan_audit_reference import Ref
from tests.engine.test_chan_support import GAME, layout, record, run, state_of

NINE_PAIRS = "9M 9M 8M 8M 7M 7M 6M 6M 4M 4M 3M 3M 2M 2M 9S 9S 8S 8S"
TEN_PAIRS = NINE_PAIRS + " 5M 5M"
ROOT = Path(__file__).resolve().parents[2]
LAY9 = layout(0, {0: "9C"}, bottom="9C 9C 9C")  # the dealer's 9C is a single


def _rule(out: dict[str, Any]) -> str:
    assert out["ok"] is False, out
    return out["error"]["rule"]


def _swap(lay: dict[str, Any], seat: int, code: str, stock_index: int) -> dict[str, Any]:
    """The layout with one `code` of `seat`'s hand exchanged with a stock card (hidden cards)."""
    out = copy.deepcopy(lay)
    hand = out["hands"][seat]
    i = hand.index(code)
    hand[i], out["stock"][stock_index] = out["stock"][stock_index], hand[i]
    return out


# ------------------------------------------------------------------ differential reference
def _pairy_deal(rng: random.Random) -> tuple[int, list[list[int]], list[int]]:
    """A deal rich in identical pairs (more wins, Chíu, heavenly and dead hands)."""
    faces = [f for f in range(25) for _ in range(2)]
    rng.shuffle(faces)
    deck = [f for f in faces for _ in range(2)]
    for _ in range(rng.randrange(0, 30)):
        i, j = rng.randrange(100), rng.randrange(100)
        deck[i], deck[j] = deck[j], deck[i]
    dealer = rng.randrange(4)
    hands: list[list[int]] = [[], [], [], []]
    pos = 0
    for k in range(4):
        n = 20 if k == 0 else 19
        hands[(dealer + k) % 4] = deck[pos:pos + n]
        pos += n
    return dealer, hands, deck[pos:]


def _hidden_offers_passed(state: ChanState, seat: int) -> ChanState | None:
    """A copy where every pending offer to another seat is declined, as if nobody else could
    claim; None if that would reveal a new stock card (a dead hand's automatic turn)."""
    other = state.clone()
    while other._phase in OFFERS and other.actor != seat:
        sp = other.sp
        other._do(PASS)
        if other.sp != sp:
            return None
    return other


def test_engine_agrees_with_an_independent_reading_of_the_rules():
    """Every decision of 160 deals (half seeded deals, half pair-rich deals): same to_act,
    phase and legal set as the reference, same result; and observations hide other seats'
    offers (each seat sees what it would see if nobody else could claim)."""
    rng = random.Random(2024)
    seen: set[str] = set()
    for i in range(160):
        if i % 2:
            st = GAME.new_deal(rng.getrandbits(32))
            dealer, stock = st.dealer, list(st.stock)
            hands = [[f for f in range(25) for _ in range(st.dealt[s * 25 + f])] for s in range(4)]
        else:
            dealer, hands, stock = _pairy_deal(rng)
        state = ChanState.deal(dealer, hands, stock)
        ref = Ref(dealer, hands, stock)
        while True:
            want = (None, "over") if ref.decision is None else ref.decision
            assert (state.to_act, state.phase) == want
            legal = ref.legal()
            assert sorted(state.legal_actions()) == sorted(legal), want
            seen.add(want[1])
            if ref.decision is None:
                assert state.result == ref.result
                seen.update(state.result["bonuses"])
                break
            if state._phase in OFFERS and rng.random() < 0.5:
                queued = {q >> 3 for q in state.queue}  # a seat's own later offer: skip
                for seat in range(4):
                    if seat != state.actor and seat not in queued:
                        plain = _hidden_offers_passed(state, seat)
                        if plain is not None:
                            assert state.observation(seat) == plain.observation(seat)
            if WIN in legal and rng.random() < 0.8:
                a = WIN
            elif CHIU in legal and rng.random() < 0.8:
                a = CHIU
            elif want[1] in ("respond", "own_card") and len(legal) > 1 and rng.random() < 0.6:
                a = legal[0]
            else:
                a = rng.choice(legal)
            state.apply(a)
            ref.apply(a)
    assert {"heavenly", "win_offer", "chiu_offer", "own_card", "over", "Ù chì", "Thiên ù",
            "Tôm", "Thập thành", "Thiên khai", "Bòn"} <= seen


# ------------------------------------------------------------------ offers are private
def test_no_leak_chiu_offer_is_invisible_to_other_seats():
    """K-1: seat 2 holds three 5M and is offered the Chíu; seats 0, 1, 3 see seat 1 to respond,
    exactly as when seat 2 holds no 5M (the three sit in the stock's bottom instead)."""
    lay = layout(0, {0: "5M 9C", 2: "5M 5M 5M"}, bottom="9C 9C 9C 2C 2C 2C")
    plain = lay
    for k in range(3):
        plain = _swap(plain, 2, "5M", 22 - k)
    claim, none = state_of(lay, "discard 5M"), state_of(plain, "discard 5M")
    assert (claim.to_act, claim.phase) == (2, "chiu_offer")
    assert (none.to_act, none.phase) == (1, "respond")
    for seat in (0, 1, 3):
        assert claim.observation(seat) == none.observation(seat)
    assert claim.observation(2).phase == "chiu_offer" and claim.observation(2).to_act == 2
    assert claim.observation(1).legal_actions() == none.observation(1).legal_actions()


def test_no_leak_win_offer_is_invisible_to_other_seats():
    """W-1: seat 2 can win on the 5M seat 1 reveals; the others see seat 1's own-card decision,
    exactly as when seat 2's 5S lies in the stock."""
    lay = layout(0, {0: "9C", 2: NINE_PAIRS + " 5S"}, stock="5M", bottom="9C 9C 9C")
    plain = _swap(lay, 2, "5S", 22)
    win, none = state_of(lay, "discard 9C, pass"), state_of(plain, "discard 9C, pass")
    assert (win.to_act, win.phase) == (2, "win_offer")
    assert (none.to_act, none.phase) == (1, "own_card")
    for seat in (0, 1, 3):
        assert win.observation(seat) == none.observation(seat)
    # After the decline the history shows nothing of the offer.
    win.apply(PASS)
    for seat in range(4):
        if seat != 2:
            assert win.observation(seat) == none.observation(seat)


def test_no_leak_heavenly_offer_is_invisible_to_other_seats():
    """W-4: the dealer's Thiên ù offer looks like the ordinary opening discard to the others."""
    lay = layout(1, {1: TEN_PAIRS})
    plain = _swap(lay, 1, "5M", 22)
    heaven, none = state_of(lay), state_of(plain)
    assert (heaven.to_act, heaven.phase) == (1, "heavenly")
    assert (none.to_act, none.phase) == (1, "discard")
    for seat in (0, 2, 3):
        assert heaven.observation(seat) == none.observation(seat)
        assert heaven.observation(seat).legal_actions() == []


def test_search_world_for_the_deciding_seat_still_sits_at_its_offer():
    """`determinize` of the offered seat's observation gives its own offer back."""
    lay = layout(0, {0: "5M 9C", 2: "5M 5M 5M"}, bottom="9C 9C 9C 2C 2C 2C")
    state = state_of(lay, "discard 5M")
    obs = state.observation(2)
    hidden = {f"hand{s}": [f for f in range(25) for _ in range(state.counts[s * 25 + f])]
              for s in range(4) if s != 2}
    hidden["stock"] = list(state.stock[state.sp:])
    world = GAME.determinize(obs, hidden)
    assert (world.to_act, world.phase) == (2, "chiu_offer") and world.observation(2) == obs
    other = state.observation(1)
    hidden1 = {f"hand{s}": [f for f in range(25) for _ in range(state.counts[s * 25 + f])]
               for s in range(4) if s != 1}
    hidden1["stock"] = list(state.stock[state.sp:])
    assert GAME.determinize(other, hidden1).observation(1) == other


# ------------------------------------------------------------------ dead hand, claim order
def test_C13_D6_dead_dealer_starts_with_an_automatic_reveal():
    """The dealer declines Thiên ù with ten identical pairs: a dead hand. The dealer still
    starts: stock[0] goes into the dealer's gate, open for seat dealer+1 (never to_act 0)."""
    lay = layout(2, {2: TEN_PAIRS}, stock="3C 9C")
    out = run(lay, "pass")
    assert out["to_act"] == 3 and out["phase"] == "respond"
    state = state_of(lay, "pass")
    obs = state.observation(3)
    assert obs.dead == 2 and obs.gates[2] == ((GAME.parse_action("capture 3C"), True),)
    assert obs.stock_count == 22 and obs.open_owner == 2
    assert _rule(run(lay, "pass, discard 9C")) == "turn"


def test_C13_D6_dead_dealer_is_never_to_act():
    """Passing every decision to the end: the dead dealer never decides; drawn at C-14."""
    state = state_of(layout(0, {0: TEN_PAIRS}), "pass")
    while not state.is_over:
        assert state.to_act != 0
        state.apply(PASS)
    assert state.result["winner"] is None and state.observation(1).stock_count == 0


def test_W5_K2_win_offers_go_in_seat_order_from_the_gate_owner():
    """Seats 3 and 1 can both win on the card seat 2 reveals: seat 3 is asked first (from the
    owner 2: 2, 3, 0, 1); a decline passes the offer to seat 1; seat 1 wins (not Ù chì)."""
    three = "9C 9C 8C 8C 7C 7C 6C 6C 5C 5C 4C 4C 3C 3C 2C 2C CC CC 5S"
    lay = layout(0, {0: "2S", 1: NINE_PAIRS + " 5S", 2: "2S", 3: three},
                 stock="9M 5M", bottom="2S 2S")
    # Seat 0 discards 2S, seat 1 passes and reveals 9M (nobody wins), passes it; seat 2
    # passes the 9M and reveals 5M.
    out = run(lay, "discard 2S, pass, pass, pass")
    assert (out["to_act"], out["phase"]) == (3, "win_offer")
    out = run(lay, "discard 2S, pass, pass, pass, pass")
    assert (out["to_act"], out["phase"]) == (1, "win_offer")
    out = run(lay, "discard 2S, pass, pass, pass, pass, win")
    assert out["result"]["winner"] == 1 and out["result"]["winning_card"] == "5M"
    assert "Ù chì" not in out["result"]["bonuses"]
    # Seat 3's win instead (it was first): Bạch thủ is impossible (a Cạ of the winning rank).
    out = run(lay, "discard 2S, pass, pass, pass, win")
    assert out["result"]["winner"] == 3 and "Bạch thủ" not in out["result"]["bonuses"]


# ------------------------------------------------------------------ check order (records.md)
def test_check_order_turn_before_held_before_rules():
    lay = layout(0, {0: "5M 9C", 1: "5S 5C 5C 7S"}, bottom="5M 5M 5M 9C 9C 9C 5S 5S 5C 5C")
    # A capture during the dealer's discard: turn, even for an unheld card.
    assert _rule(run(lay, "capture 2S")) == "turn"
    assert _rule(run(lay, "chiu")) == "turn" and _rule(run(lay, "pass")) == "turn"
    # Seat 1 on the open 5M: an unheld card is `held` even though it is no Cạ either (C-6).
    unheld = next(c for c in ("9M", "8M", "7M", "6M", "4M") if c not in lay["hands"][1])
    assert _rule(run(lay, f"discard 5M, capture {unheld}")) == "held"
    assert _rule(run(lay, "discard 5M, capture 5M")) == "held"
    assert _rule(run(lay, "discard 5M, discard 7S")) == "turn"  # a discard at respond
    assert _rule(run(lay, "discard 5M, win")) == "turn"  # records.md: win at respond
    # Held, not a Chắn or Cạ: C-6. 5C held twice: C-16.
    assert _rule(run(lay, "discard 5M, capture 7S")) == "C-6"
    assert _rule(run(lay, "discard 5M, capture 5C")) == "C-16"


def test_check_order_C15_before_C16():
    """Holding the open face and trying a Cạ with a pair's card: C-15 is reported, not C-16."""
    lay = layout(0, {0: "5M 9C", 1: "5M 5S 5S"}, bottom="5M 5M 9C 9C 9C 5S 5S")
    out = run(lay, "discard 5M")
    assert out["to_act"] == 1 and out["legal"] == ["capture 5M", "pass"]
    assert _rule(run(lay, "discard 5M, capture 5S")) == "C-15"


def test_check_order_discard_X1_before_X2_and_X2():
    """Seat 1 passes a 4S it could take as a Chắn (C-19 refusal), then captures 7C: discarding
    4S held twice is X-1 (checked before X-2); held once it is X-2."""
    lay = layout(0, {0: "4S 9C", 1: "4S 4S 7C"}, stock="7C", bottom="4S 9C 9C 9C 7C 7C")
    assert run(lay, "discard 4S")["legal"] == ["capture 4S", "pass"]
    out = run(lay, "discard 4S, pass")
    assert (out["to_act"], out["phase"]) == (1, "own_card")
    assert _rule(run(lay, "discard 4S, pass, capture 7C, discard 4S")) == "X-1"
    lay = layout(0, {0: "4S 9C", 1: "4S 7C"}, stock="7C", bottom="4S 4S 9C 9C 9C 7C 7C")
    assert _rule(run(lay, "discard 4S, pass, capture 7C, discard 4S")) == "X-2"
    # Without the refusal (seat 1 captured the Chắn) the face is simply gone.
    assert _rule(run(lay, "discard 4S, capture 4S, discard 4S")) == "held"


def test_after_the_deal_is_over_every_action_is_a_turn_error():
    lay = layout(1, {1: TEN_PAIRS})
    out = run(lay, "win")
    assert out["to_act"] is None and out["phase"] == "over" and out["legal"] == []
    assert out["legal_count"] == 0 and out["result"]["bonuses"][0] == "Thiên ù"
    for act in ("pass", "win", "discard 5M", "capture 5M", "chiu"):
        bad = run(lay, ["win", act])
        assert _rule(bad) == "turn" and bad["to_act"] is None and bad["legal"] == []
        assert list(bad) == ["ok", "applied", "error", "to_act", "legal"]


# ------------------------------------------------------------------ records.md details
def test_records_whole_record_parsed_before_any_action():
    """An illegal first action and a malformed later one: exit 2 (malformed wins)."""
    rec = record(LAY9, ["win", "discard 9c"])
    assert _cli(rec)[0] == 2
    assert _cli(record(LAY9, ["win", "discard 9C"]))[0] == 1
    rec = record(LAY9, ["win", "discard"])
    assert _cli(rec)[0] == 2


def test_records_other_keys_ignored_and_missing_actions():
    lay = LAY9
    rec = {"game": "chan", "seed": 3, "layout": lay, "expect": {"x": 1}, "description": "d"}
    status, out, err = _cli(rec)
    assert status == 0 and out["applied"] == 0 and out["to_act"] == 0 and err == ""
    assert out["phase"] == "discard" and out["legal_count"] == len(out["legal"])
    assert out["legal"] == sorted(out["legal"])


def test_records_spacing_and_card_order_not_significant():
    lay = LAY9
    assert _cli(record(lay, ["  discard \t 9C  "]))[0] == 0
    for bad in ("discard 9c", "Discard 9C", "discard", "pass 9C", "discard 9C 9C", "chíu", "ù"):
        assert _cli(record(lay, [bad]))[0] == 2, bad


@pytest.mark.parametrize("mutate", [
    lambda lay: lay["hands"][0].pop(),                          # dealer 19 cards
    lambda lay: lay["hands"][1].append("2C"),                   # 20 cards for a non-dealer
    lambda lay: lay["stock"].pop(),                              # 22 stock cards
    lambda lay: lay["stock"].__setitem__(0, lay["hands"][0][0]),  # a fifth copy, one missing
    lambda lay: lay["hands"][2].__setitem__(0, "1M"),            # not a Chắn card (C-3)
    lambda lay: lay["hands"][2].__setitem__(0, "cc"),            # case-sensitive
    lambda lay: lay.__setitem__("dealer", 4),
    lambda lay: lay.__setitem__("dealer", "0"),
    lambda lay: lay.pop("stock"),
    lambda lay: lay.__setitem__("hands", lay["hands"][:3]),
])
def test_records_bad_layouts_exit_2(mutate):
    lay = layout(0)
    mutate(lay)
    status, out, err = _cli(record(lay))
    assert status == 2 and out is None and len(err.splitlines()) == 1


# ------------------------------------------------------------------ CLI fuzz
def _cli(rec: Any, raw: str | None = None, tmp: Path | None = None) -> tuple[int, Any, str]:
    """Run `engine.cli.main(["replay", file])` in-process; (status, stdout JSON or None, stderr)."""
    import tempfile

    text = raw if raw is not None else json.dumps(rec, ensure_ascii=False)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False, encoding="utf-8",
                                     dir=tmp) as fh:
        fh.write(text)
        path = fh.name
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = cli.main(["replay", path])
    finally:
        Path(path).unlink()
    stdout, stderr = out.getvalue(), err.getvalue()
    assert "Traceback" not in stdout + stderr
    assert status in (0, 1, 2), (status, stderr)
    if status == 2:
        assert stdout == "" and len(stderr.splitlines()) == 1 and stderr.strip(), stderr
        return status, None, stderr
    assert stderr == ""
    assert len(stdout.splitlines()) == 1
    obj = json.loads(stdout)
    if status == 0:
        assert list(obj) == ["ok", "applied", "to_act", "phase", "legal", "legal_count", "result"]
        assert obj["ok"] is True and obj["legal"] == sorted(obj["legal"])
        assert obj["legal_count"] == len(obj["legal"])
        assert (obj["to_act"] is None) == (obj["phase"] == "over")
    else:
        assert list(obj) == ["ok", "applied", "error", "to_act", "legal"]
        assert obj["ok"] is False and list(obj["error"]) == ["index", "action", "rule", "message"]
        assert obj["error"]["index"] == obj["applied"]
    return status, obj, stderr


JUNK: list[Any] = [None, True, False, 0, -1, 3, 4, 1.5, 10 ** 30, -(10 ** 30), "", " ", "x",
                   "CC", "cc", "3m", "10M", "1M", "pass", "capture", "capture CC CC", "win",
                   "discard 9C", "chiu 5M", [], {}, [[]], [None], ["CC"] * 30, {"a": [1, {}]},
                   [[[[[]]]]], "\u00a0pass\u2003", "\x00", "é" * 50, 1e308]


def _mutate(rec: dict[str, Any], rng: random.Random) -> Any:
    rec = copy.deepcopy(rec)
    junk = copy.deepcopy(rng.choice(JUNK))
    where = rng.randrange(10)
    lay = rec.get("layout")
    if where == 0:
        rec[rng.choice(["game", "seed", "layout", "actions", "other"])] = junk
    elif where == 1:
        rec.pop(rng.choice(["game", "seed", "layout", "actions"]), None)
    elif where == 2 and lay:
        lay[rng.choice(["dealer", "hands", "stock", "extra"])] = junk
    elif where == 3 and lay:
        hand = lay["hands"][rng.randrange(4)]
        if hand:
            hand[rng.randrange(len(hand))] = junk
    elif where == 4 and lay:
        lay["stock"][rng.randrange(len(lay["stock"]))] = junk
    elif where == 5 and rec["actions"]:
        rec["actions"][rng.randrange(len(rec["actions"]))] = junk
    elif where == 6 and rec["actions"]:
        i = rng.randrange(len(rec["actions"]))
        rec["actions"][i] = rec["actions"][i].split(" ")[0]  # a verb without its card
    elif where == 7 and rec["actions"]:
        rec["actions"] = rec["actions"][: rng.randrange(len(rec["actions"]))] + [
            rng.choice(["pass", "win", "chiu", "discard CC", "capture 5M", "discard 2C"])]
    elif where == 8 and lay:  # swap two cards between places (a legal but different layout)
        a, b = rng.randrange(4), rng.randrange(4)
        i, j = rng.randrange(len(lay["hands"][a])), rng.randrange(len(lay["hands"][b]))
        lay["hands"][a][i], lay["hands"][b][j] = lay["hands"][b][j], lay["hands"][a][i]
    else:
        text = json.dumps(rec)
        cut = rng.randrange(len(text))
        return text[:cut] + rng.choice(["", "}", "]", ",", "\"", "{{", "\\"]) + text[cut + 1:]
    return rec


def _base_records(n: int) -> list[dict[str, Any]]:
    rng = random.Random(99)
    out = []
    for i in range(n):
        state = GAME.new_deal(i)
        lay = GAME.layout_of(state)
        acts = []
        stop = rng.randrange(5, 400)
        while not state.is_over and len(acts) < stop:
            a = state.random_action(rng)
            acts.append(GAME.format_action(a))
            state.apply(a)
        rec: dict[str, Any] = {"game": "chan", "seed": i, "actions": acts}
        if i % 3:
            rec["layout"] = lay
        out.append(rec)
    return out


def test_replay_cli_fuzz_never_tracebacks(tmp_path):
    rng = random.Random(4)
    bases = _base_records(12)
    statuses = set()
    for base in bases:
        status, obj, _err = _cli(base, tmp=tmp_path)
        assert status == 0
        statuses.add(status)
    for _ in range(400):
        mutated = _mutate(rng.choice(bases), rng)
        if isinstance(mutated, str):
            status, _obj, _err = _cli(None, raw=mutated, tmp=tmp_path)
        else:
            status, _obj, _err = _cli(mutated, tmp=tmp_path)
        statuses.add(status)
    assert statuses == {0, 1, 2}


def test_replay_cli_subprocess_statuses(tmp_path):
    """Three real runs through `python -m engine replay` (stdin and a file)."""
    lay = LAY9
    cases = [(record(lay, ["discard 9C"]), 0), (record(lay, ["win"]), 1),
             (record(lay, ["discard 9c"]), 2)]
    for i, (rec, want) in enumerate(cases):
        if i == 1:
            path = tmp_path / "r.json"
            path.write_text(json.dumps(rec), encoding="utf-8")
            args, stdin = [str(path)], None
        else:
            args, stdin = ["-"], json.dumps(rec)
        proc = subprocess.run([sys.executable, "-m", "engine", "replay", *args], input=stdin,
                              capture_output=True, text=True, cwd=ROOT, timeout=60)
        assert proc.returncode == want, proc.stderr
        assert "Traceback" not in proc.stdout + proc.stderr
        if want == 2:
            assert proc.stdout == "" and len(proc.stderr.splitlines()) == 1
        else:
            assert json.loads(proc.stdout)["ok"] is (want == 0) and proc.stderr == ""


def test_C23_C19_a_refused_face_still_wins_W1_on_own_reveal_is_u_chi():
    """Seat 1 passes a 5M it could take as a Chắn (refused, C-19), then reveals the last 5M
    into its own gate: the refusal never stops a win (C-23); the win is Ù chì (S-2), 3 points."""
    hand = "9M 9M 8M 8M 7M 7M 6M 6M 4M 4M 3M 3M 2M 2M 9S 9S 2S 2C 5M"
    lay = layout(0, {0: "5M 9C", 1: hand}, stock="5M", bottom="5M 9C 9C 9C")
    assert run(lay, "discard 5M")["legal"] == ["capture 5M", "pass"]
    out = run(lay, "discard 5M, pass")
    assert (out["to_act"], out["phase"], out["legal"]) == (1, "win_offer", ["pass", "win"])
    out = run(lay, "discard 5M, pass, win")
    assert out["result"] == {"winner": 1, "winning_card": "5M", "bonuses": ["Ù chì"],
                             "score": 3, "settlement": [-3, 9, -3, -3]}
    # Declined (D-2): the revealer still decides on its own card. C-19 bans only discards and
    # Cạ, so the refused face may still be captured as a Chắn.
    out = run(lay, "discard 5M, pass, pass")
    assert (out["to_act"], out["phase"], out["legal"]) == (1, "own_card", ["capture 5M", "pass"])
    assert run(lay, "discard 5M, pass, pass, capture 5M")["phase"] == "discard"
