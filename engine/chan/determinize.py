"""Worlds consistent with one Chắn seat's view: `determinize` (search samples them) and `shell`
(the seat's own decision alone, for bots that try an action on a copy)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.chan.cards import FACES
from engine.chan.legal import CHIU, DISCARD_BASE, OFFERS, OVER, PASS, PHASES, STOCK_FLAG
from engine.chan.observation import ChanObservation, own_arrays, public_decision
from engine.chan.state import NO_ACTION, ChanState
from engine.errors import IllegalAction


def shell(obs: ChanObservation) -> ChanState:
    """A state holding only what the observing seat's own decision reads (its hand, its memory,
    the open card, the phase): its legal actions, and the hand and memory after one of them."""
    st = ChanState.__new__(ChanState)
    st.counts, st.mem = own_arrays(obs)
    st.dealer, st.dead, st.turn = obs.dealer, obs.dead, obs.turn
    st.stock, st.sp, st.dealt = (), 0, (0,) * (4 * FACES)
    st.exposed = list(obs.exposed)
    st.gates = [tuple(f | (STOCK_FLAG if stock else 0) for f, stock in gate) for gate in obs.gates]
    st.open, st.owner, st.ostock = obs.open_card, obs.open_owner, obs.open_from_stock
    st.actor = obs.seat
    st._phase = PHASES.index(obs.phase)
    st.queue, st.log = (), []
    st.winner, st.wcard, st.wkind, st._result = -1, -1, 0, None
    st._vouch, st._listed, st.is_over = NO_ACTION, (), st._phase == OVER
    return st


def determinize(obs: ChanObservation, hidden: Mapping[str, Sequence[int]],
                strict: bool = False) -> ChanState:
    """Rebuild the deal from `hidden` (`hand<s>` for the other seats, `stock` top first) and
    replay the public history. Declined offers, which the history omits, are replayed as
    passes. Each seat's dealt hand is its hidden hand plus every card the history shows it
    giving up, so every action finds its cards. Another seat's action that the sampled
    cards make illegal by a rule (e.g. a discard of a face its sampled hand would have
    refused, C-19/X-2) is kept as history unless `strict`; an action in the wrong phase
    (e.g. the sampled dealer would be a dead hand) raises `IllegalAction`, as does anything
    illegal for the observing seat. Wrong location sizes raise ValueError."""
    for name, size in obs.hidden_sizes:
        if len(hidden.get(name, ())) != size:
            raise ValueError(f"hidden location {name} needs {size} cards")
    hands = [list(hidden[f"hand{s}"]) if s != obs.seat else obs.hand_faces()
             for s in range(4)]
    last = len(obs.history) - 1
    for i, (s, _ph, a, o) in enumerate(obs.history):
        if a < DISCARD_BASE:
            hands[s].append(a)
        elif a < PASS:
            hands[s].append(a - DISCARD_BASE)
        elif a == CHIU and not (i == last and obs.winner == s):
            hands[s].extend((o, o, o))
    st = ChanState.deal(obs.dealer, hands, list(obs.revealed) + list(hidden["stock"]))
    for s, ph, a, _o in obs.history:
        while st._phase in OFFERS and not (st.actor == s and st._phase == ph):
            st._do(PASS)
        try:
            st.apply(a)
        except IllegalAction as exc:
            # Another seat's hidden memory (a C-19 refusal its sampled hand implies) may
            # forbid what it did: the public history stands. Wrong phases or cards do not.
            if strict or s == obs.seat or exc.rule in ("turn", "held"):
                raise
            st._do(a)
    # Offers hidden from this seat are declined until the world reaches the decision the
    # observation shows: this seat's own, or (for a seat that is not deciding) any pending
    # offer the seat would see as that same public decision.
    target = (obs.to_act, PHASES.index(obs.phase))
    own = obs.to_act == obs.seat
    while st._phase in OFFERS and (st.actor, st._phase) != target and (
            own or public_decision(st, obs.seat)[:2] != target):
        st._do(PASS)
    return st
