"""Screenshots of the Meri, Tractor and Chắn tables: a Meri trick half played, bidding, bury, play with a selection, an offer,
the summaries (cards, and Chắn's "Details" text), each game's summary a few deals into a match
(its progress chart), at 800×480 and 720×1280 (run under a display, e.g. xvfb-run); the largest
hands (Tractor's bury, the Chắn dealer's twenty cards) also with large and colour-blind safe cards.

    xvfb-run -a -s "-screen 0 1280x1280x24" .venv/bin/python scripts/table_screenshots.py \
        [--out screenshots] [--lang en] [--size 800x480 --size 720x1280]

Each picture is a real state reached by playing: bots play every seat but yours, your moves come
from the heuristic bot, and the script stops at the moment it wants to show.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import shotkit  # first: a quiet Kivy
from shotkit import main_per_size, pump, shoot, shoot_summary, wait

from engine.ai.bots import make_bot


def open_deal(app: Any, game_name: str, state: Any, actions: list) -> Any:
    table = shotkit.open_deal(app, game_name, state, actions)
    pump(4)
    return table


def until(game_name: str, state: Any, stop: Any, seed: int = 1) -> list:
    """Actions by heuristic bots from `state` until `stop(state)` holds (state is advanced)."""
    from engine import registry

    game = registry.get(game_name)
    bots = [make_bot(game.name, "heuristic", seed + s) for s in range(game.players)]
    actions = []
    while not state.is_over and not stop(state):
        action = bots[state.to_act].choose(state.observation(state.to_act),
                                           state.legal_actions())
        state.apply(action)
        actions.append(action)
    return actions


def tractor(app: Any, out: Path, tag: str) -> None:
    from engine.tractor.cards import KIND_RANK
    from engine.tractor.deal import deal as tractor_deal

    seed = next(s for s in range(200) if (lambda st: st.bid_start == 0 and any(
        KIND_RANK[k] == 0 and c for k, c in enumerate(st.hands[0])))(
            tractor_deal(random.Random(s), None)))

    def deal() -> Any:
        return tractor_deal(random.Random(seed), None)

    table = open_deal(app, "tractor", deal(), [])
    wait(lambda: table.prompt == "declare", "the bidding")
    shoot(out, f"tractor_declare_{tag}")
    declare = table.choice_actions[-1]
    table.choose(declare)
    while table.prompt != "bury":  # an AI may overcall: then pass (you deal the first deal)
        wait(lambda: table.prompt in ("declare", "bury"), "the bury")
        if table.prompt == "declare":
            table.choose(table.choice_actions[0])
    for i in sorted(table.ids.hand.hinted)[:5]:
        table.toggle(i)
    shoot(out, f"tractor_bury_{tag}")
    variants(app, out, "tractor_bury", tag)
    state = deal()
    actions = [declare] if state.to_act == 0 else []
    state.apply(declare)
    actions += until("tractor", state, lambda s: s.phase == "play" and len(s.tricks) >= 6
                     and len(s.trick) == 2 and s.to_act == 0 and len(s.trick[0]) >= 1)
    table = open_deal(app, "tractor", deal(), actions)
    wait(lambda: table.prompt == "play", "your play")
    need = len(table.session.state.trick[0])
    for i in range(need):
        table.toggle(i)
    shoot(out, f"tractor_play_{tag}")
    table.driver.invalidate()
    session = table.session
    rng = random.Random(4)
    while not session.state.is_over:
        session.apply(session.state.random_action(rng))
    table.holding = False
    table.step()
    wait(lambda: table.summary_open, "the summary")
    wait(lambda: table.ids.summary_body.ready(), "the summary's pictures")
    shoot(out, f"tractor_summary_{tag}")


def variants(app: Any, out: Path, moment: str, tag: str) -> None:
    """The same moment with large cards, then with colour-blind safe cards (issue 20)."""
    app.set_large_cards(True)
    pump(20)  # the layouts settle over several frames
    shoot(out, f"{moment}_large_{tag}")
    app.set_large_cards(False)
    app.set_colour_safe(True)
    pump(20)
    shoot(out, f"{moment}_colour_safe_{tag}")
    app.set_colour_safe(False)
    pump(20)


def chan(app: Any, out: Path, tag: str) -> None:
    from engine import registry

    game = registry.get("chan")
    dealer = next(s for s in range(100) if game.new_deal(s).to_act == 0)
    table = open_deal(app, "chan", game.new_deal(dealer), [])
    wait(lambda: table.prompt == "discard", "your opening discard")
    shoot(out, f"chan_deal_{tag}")  # the largest hand: the dealer's twenty cards
    variants(app, out, "chan_deal", tag)
    for seed in range(400):
        state = game.new_deal(seed)
        actions = until("chan", state, lambda s: s.to_act == 0 and s.phase == "win_offer",
                        seed * 4)
        if not state.is_over:
            break
    mid = actions[: max(0, len(actions) - 12)]
    probe = game.new_deal(seed)
    for action in mid:
        probe.apply(action)
    mid += until("chan", probe, lambda s: s.to_act == 0 and s.phase in ("respond", "discard"),
                 seed * 4)
    table = open_deal(app, "chan", game.new_deal(seed), mid)
    wait(lambda: table.prompt in ("capture", "discard"), "your capture or discard")
    if table.legal:
        table.toggle(table.legal[0])
    shoot(out, f"chan_play_{tag}")
    table = open_deal(app, "chan", game.new_deal(seed), actions)
    wait(lambda: table.prompt == "offer", "the win offer")
    shoot(out, f"chan_offer_{tag}")
    table.answer_offer(True)
    wait(lambda: table.summary_open, "the summary")
    wait(lambda: table.ids.summary_body.ready(), "the summary's pictures")
    shoot(out, f"chan_summary_{tag}")
    table.ids.details_button.dispatch("on_release")
    shoot(out, f"chan_summary_details_{tag}")


def match_summary(app: Any, out: Path, tag: str, game_name: str, before: int) -> None:
    """The summary of a match's deal after `before` deals played by heuristic bots: the deal's
    cards and the match's progress chart."""
    from engine import registry

    game = registry.get(game_name)
    match = game.new_match(11, deals=before + 2) if game_name == "chan" else game.new_match(11)
    for number in range(before):
        state = match.next_deal()
        until(game_name, state, lambda _s: False, 7 * number + 1)
        match.finish_deal(state)
    while True:  # a deal with something to show (a Tractor promotion, Meri's combinations, a
        # Chắn win), else the next one
        state = match.next_deal()
        probe = state.clone()
        actions = until(game_name, probe, lambda _s: False, 97)
        if (match.result().deals_played >= before + 3
                or game_name == "tractor" and any(c.after > c.before
                                                  for c in game.deal_result(probe).climbs)
                or game_name == "meri" and any(t[4] for t in probe.tricks)
                or game_name == "chan" and probe.result["winner"] is not None):
            break
        match.finish_deal(probe)
    names = (f"{game_name}_match_{tag}", f"{game_name}_match_end_{tag}")
    shoot_summary(app, out, names, game_name, match, state, actions)


def meri(app: Any, out: Path, tag: str) -> None:
    """A Meri trick half played, you to play (who played what: each card before its badge)."""
    from engine import registry

    game = registry.get("meri")
    for seed in range(100):
        state = game.new_deal(seed)
        actions = until("meri", state, lambda s: s.phase == "play" and s.to_act == 0
                        and sum(1 for c in s.trick if c >= 0) >= 5, seed)
        if not state.is_over:
            break
    table = open_deal(app, "meri", game.new_deal(seed), actions)
    wait(lambda: table.prompt == "play", "your play")
    pump(30)  # the cards fly in
    shoot(out, f"meri_trick_{tag}")
    variants(app, out, "meri_trick", tag)


def pictures(app: Any, out: Path, tag: str) -> None:
    meri(app, out, tag)
    tractor(app, out, tag)
    chan(app, out, tag)
    match_summary(app, out, tag, "meri", 2)
    match_summary(app, out, tag, "tractor", 4)
    match_summary(app, out, tag, "chan", 3)


def main(argv: list[str] | None = None) -> int:
    return main_per_size("table_screenshots", __doc__.splitlines()[0], argv, pictures)


if __name__ == "__main__":
    raise SystemExit(main())
