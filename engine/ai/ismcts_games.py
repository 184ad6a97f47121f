"""What each game supplies to the information-set tree search (`engine.ai.ismcts`).

A `TreeGame` wraps the game's determinized-search adapter (`engine.ai.<game>_search`) and reuses
its parts as they are: the sampler (a world from the observation alone), the root candidates (the
heuristic's choice first), the playout policy and the value of a finished deal for a seat — and
for Chắn the adapter's horizon (one round, then the heuristic's hand value). It adds what a tree
needs and a flat search does not:

- `moves(state)`: the candidate actions of whoever is to act at a tree node below the root, from
  the sampled world (that seat's own cards): every legal action in Meri and Chắn (a win always
  taken), a pruned set in Tractor (its follow sets run to millions);
- `play(state, action)`: applies the action and says what the *other* seats observe of it (the
  actor always sees its own action): the action itself, a marker for a hidden action (a Meri
  discard or face-down trump, H-14/H-24; a Tractor burial, T-15), or None for a decision the
  others do not even see (a declined Chắn claim offer) — and any public outcome it revealed (a
  completed Meri trick turned face up, the side cards at the opening lead, the kitty after four
  Tractor passes, a Chắn stock card). These are the keys of the multiple-observer trees.
- `frontier(state, others)`: the horizon where the tree stops and the leaf is valued (Tractor's
  `HORIZON` tricks after the root in mid-play, Chắn's round), the same horizon the adapter's
  playouts stop at;
- `values(state)`: every seat's value of a finished (or horizon) position, in the adapter's units;
- `prior(state)`: the prior of PUCT selection at a tree node (`engine.ai.ismcts_tree`): the move
  the game's heuristic bot (`engine.ai.<game>_heuristic`) would play there, chosen from the
  acting seat's own observation of the sampled world (`state.observation(seat)`: its own cards
  and what is public, never another seat's), or None when that move is not among `moves(state)`
  (a Tractor follow the tree's pruned list lacks).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

from engine import registry
from engine.ai import policy
from engine.ai.chan_search import HAND_WEIGHT, _round_playout, _state_hand_value
from engine.ai.meri_search import policy_playout
from engine.ai.tractor_search import (
    HORIZON,
    _beat,
    _build,
    _policy_playout,
    lead_shortlist,
)
from engine.chan.legal import OFFERS, OWN_CARD, PASS, RESPOND, WIN
from engine.descriptor import load
from engine.game import Action, State
from engine.meri.legal import DISCARD_PHASE, PLAY_PHASE
from engine.meri.observation import FACE_DOWN
from engine.tractor.cards import POINTS, TRUMP
from engine.tractor.state import BURY, BURY_PHASE, DECLARE_PHASE
from engine.tractor.state import PLAY_PHASE as TRACTOR_PLAY

#: What the other seats see of a hidden action (a Meri discard, a Tractor burial).
HIDDEN = "hidden"
#: Tractor follow sets up to this size are tree moves whole; larger ones by rule (`_build`).
FOLLOW_LIST = 6


class TreeGame(Protocol):
    """A game's part in the tree search (module docstring)."""

    players: int

    def prepare(self, observation: Any) -> None: ...

    def cost(self, observation: Any) -> float: ...

    def sample(self, observation: Any, rng: random.Random) -> State: ...

    def root_moves(self, observation: Any, legal: Sequence[Action],
                   rng: random.Random) -> list: ...

    def moves(self, state: Any) -> Sequence[Action]: ...

    def play(self, state: Any, action: Action) -> tuple[Any, Any]: ...

    def frontier(self, state: Any, others: bool) -> bool: ...

    def rollout(self, state: Any, rng: random.Random, others: bool) -> None: ...

    def values(self, state: Any) -> Sequence[float]: ...

    def prior(self, state: Any, moves: Sequence[Action],
              rng: random.Random) -> Prior: ...

    def root_prior(self, observation: Any, cands: Sequence[Action]) -> Prior: ...


#: A node's prior (`TreeGame.prior`): the heuristic's move (None: none among the moves), or with
#: a learned policy each move's probability.
Prior = Action | dict[Action, float] | None


class _Base:
    """Shared by the games: the adapter's sampler, root candidates and preparation, and the
    heuristic bot whose choice is the tree's prior (`prior`) — or, given a learned `policy`
    (`engine.ai.policy`: the model and the game's move features), its probabilities."""

    players = 4

    def __init__(self, adapter: Any, heuristic: Any = None, policy: Any = None) -> None:
        self.adapter = adapter
        self.heuristic = heuristic
        self.policy = policy
        self.seat = -1

    def root_prior(self, observation: Any, cands: Sequence[Action]) -> Prior:
        """The root's prior: the first candidate (the heuristic's choice), or the policy's
        probabilities of the candidates."""
        if self.policy is None:
            return cands[0]
        model, features = self.policy
        return dict(zip(cands, model.probabilities(features.move_features(observation, cands)),
                        strict=True))

    def prior(self, state: Any, moves: Sequence[Action], rng: random.Random) -> Prior:
        """The heuristic's move for the seat to act, from that seat's observation of `state`
        alone (None: not one of `moves`, or no heuristic); its tie-breaks draw from `rng` (the
        tree's), so a tree's prior is the same in any process. With a policy, its probability
        of each of `moves` from that observation."""
        if self.policy is not None:
            return self.root_prior(state.observation(state.to_act), list(moves))
        if self.heuristic is None:
            return None
        self.heuristic.rng = rng
        action = self.heuristic.choose(state.observation(state.to_act), self._legal(state, moves))
        return action if action in moves else None

    def _legal(self, state: Any, moves: Sequence[Action]) -> Any:
        """The legal actions the heuristic chooses among (every game but Tractor: `moves`)."""
        return moves

    def prepare(self, observation: Any) -> None:
        self.adapter.prepare(observation)
        self.seat = observation.seat

    def cost(self, observation: Any) -> float:
        """The relative price of a playout from this decision (the adapter's: Tractor's from
        the burial or the first trick run to the end, three times a mid-play one)."""
        return self.adapter.cost(observation)

    def sample(self, observation: Any, rng: random.Random) -> State:
        return self.adapter.sample(observation, rng)

    def root_moves(self, observation: Any, legal: Sequence[Action], rng: random.Random) -> list:
        return self.adapter.candidates(observation, legal, rng)

    def frontier(self, state: Any, others: bool) -> bool:
        return False


class MeriTree(_Base):
    """Hachinin Meri: 8 seats, every legal card a move, playouts to the end of the deal."""

    players = 8

    def moves(self, state: Any) -> Sequence[Action]:
        return state.legal_actions()

    def play(self, state: Any, action: Action) -> tuple[Any, Any]:
        if state._phase == PLAY_PHASE:
            n, number = state.n_played, state.trick_no
            down = n and not state.meri and state._is_trump[action]
            state.apply(action)
            if n == 7:  # the trick is complete: every card is turned up (H-24)
                return action, state.tricks[number][1]
            if n == 0 and number == 0:  # the opening lead turns up the side cards (H-15)
                return action, (state.discard,) + state.undealt[1:]
            return (FACE_DOWN if down else action), None
        hidden = state._phase == DISCARD_PHASE  # the discard is face down (H-14)
        state.apply(action)
        return (HIDDEN if hidden else action), None

    def rollout(self, state: Any, rng: random.Random, others: bool) -> None:
        policy_playout(state, rng)

    def values(self, state: Any) -> Sequence[float]:
        d = float(state.team_scores[0] - state.team_scores[1])
        return (d, -d) * 4


class TractorTree(_Base):
    """Tractor: leads and large follow sets pruned by rule; mid-play, the tree and its playouts
    stop `HORIZON` tricks after the root's (the adapter's look-ahead)."""

    def __init__(self, adapter: Any, heuristic: Any = None, policy: Any = None) -> None:
        super().__init__(adapter, heuristic, policy)
        self.stop = 99

    def _legal(self, state: Any, moves: Sequence[Action]) -> Any:
        return state.legal_actions()  # the whole (lazy) follow set, not the pruned `moves`

    def prepare(self, observation: Any) -> None:
        super().prepare(observation)
        mid = observation.phase == "play" and observation.tricks
        self.stop = len(observation.tricks) + HORIZON if mid else 99

    def moves(self, state: Any) -> Sequence[Action]:
        ph = state.ph
        if ph == TRACTOR_PLAY:
            if not state.trick:
                return lead_shortlist(state.ctx, state._leads())
            legal = state._follow_set()
            if len(legal) <= FOLLOW_LIST:
                return list(legal)
            ctx = state.ctx
            out: list = []
            for action in (_beat(state, legal), _build(legal, ctx, "cheap"),
                           _build(legal, ctx, "feed"), _build(legal, ctx, "strong")):
                if action is not None and action not in out:
                    out.append(action)
            return out or [legal.sample(random.Random(0))]
        if ph == BURY_PHASE:
            return _burials(state)
        return state.legal_actions()

    def play(self, state: Any, action: Action) -> tuple[Any, Any]:
        ph = state.ph
        state.apply(action)
        if ph == BURY_PHASE:
            return HIDDEN, None  # the burial is face down (T-15)
        if ph == DECLARE_PHASE and state.ph != DECLARE_PHASE and state.revealed:
            return action, tuple(state.revealed)  # four passes turn the kitty up (T-10)
        return action, None

    def frontier(self, state: Any, others: bool) -> bool:
        return len(state.tricks) >= self.stop

    def rollout(self, state: Any, rng: random.Random, others: bool) -> None:
        _policy_playout(state, rng, self.stop)

    def values(self, state: Any) -> Sequence[float]:
        v = self.adapter.value(state, 0)
        return (v, -v, v, -v)


def _burials(state: Any) -> list:
    """Two simple burials of the dealer's 33 cards (`tractor_search._bury_variants` from a state):
    the cheapest plain cards, and the cheapest plain non-point cards."""
    ctx = state.ctx
    hand = state.hands[state.actor]
    cards = [k for k, c in enumerate(hand) for _ in range(c)]
    out: list = []
    for key in (lambda k: (ctx.eff[k] == TRUMP, ctx.pos[k]),
                lambda k: (ctx.eff[k] == TRUMP, POINTS[k] > 0, ctx.pos[k])):
        action = (BURY,) + tuple(sorted(sorted(cards, key=key)[:8]))
        if action not in out:
            out.append(action)
    return out


class ChanTree(_Base):
    """Chắn: every legal action a move (a win always taken); the tree and its playouts stop after
    one round, when the searching seat is to respond again after the others have acted, and the
    leaf is the adapter's (the heuristic's hand value, `HAND_WEIGHT` per point of lead)."""

    def moves(self, state: Any) -> Sequence[Action]:
        legal = state.legal_actions()
        return [WIN] if WIN in legal else legal

    def play(self, state: Any, action: Action) -> tuple[Any, Any]:
        ph, sp = state._phase, state.sp
        state.apply(action)
        revealed = tuple(state.stock[sp:state.sp]) if state.sp != sp else None
        if action == PASS and ph in OFFERS:  # a declined offer is nobody else's to see
            return None, revealed
        return action, revealed

    def frontier(self, state: Any, others: bool) -> bool:
        return others and state.actor == self.seat and state._phase in (RESPOND, OWN_CARD)

    def rollout(self, state: Any, rng: random.Random, others: bool) -> None:
        _round_playout(state, rng, self.seat, self.adapter._unseen, others)

    def values(self, state: Any) -> Sequence[float]:
        res = state.result
        if res is not None:
            return [float(v) for v in res["settlement"]]
        if state.is_over:
            return (0.0, 0.0, 0.0, 0.0)
        unseen = self.adapter._unseen
        hv = [_state_hand_value(state, s, unseen) for s in range(4)]
        total = sum(hv)
        return [HAND_WEIGHT * (h - (total - h) / 3.0) for h in hv]


def make_tree_game(game_name: str, seed: int, learned_prior: bool = False) -> TreeGame:
    """The tree search's part of `game_name` (its descriptor's `tree`, `engine.info.<game>`), on
    its search adapter (without learned values: the tree's horizons are the adapters' plain ones)
    and its heuristic bot (the prior, seeded from `seed`) — with `learned_prior`, the game's
    learned policy as the prior where it has one (`engine.ai.policy`); `KeyError` for a game
    without AI."""
    ai = registry.info(game_name).ai
    if ai is None:
        raise KeyError(f"no AI for game {game_name!r}")
    tree, adapter, heuristic = load(ai.tree), load(ai.adapter), load(ai.heuristic)
    learned = None
    if learned_prior:
        model, features = policy.policy(game_name), policy.features_of(game_name)
        learned = (model, features) if model is not None and features is not None else None
    return tree(adapter(registry.get(game_name), seed), heuristic(seed), learned)
