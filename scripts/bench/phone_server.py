"""Figures of the phone server: messages per action, bytes per message, owner-thread cost.

    .venv/bin/python -m scripts.bench.phone_server [--deals 2] [--phones 4] [--game tractor ...]

For each game, a whole deal (or several) is played through a real server on 127.0.0.1 with
`--phones` scripted WebSocket phones (each on its own thread, playing the first legal action
of each decision) and AI in the other seats. Prints, per game: actions, state messages
delivered, state messages per action (all phones together), bytes per state message (mean,
median, largest), bytes per other message kind, the owner thread's time building and
publishing messages per action, and the process's peak RSS. Figures only: nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from websockets.sync.client import connect

from engine.session import Session
from ui.remote import protocol
from ui.remote.headless import HeadlessTable, OwnerLoop
from ui.remote.host import Host, SeatPlan
from ui.remote.server import PhoneServer, RateLimit

PLAYERS = {"meri": 8, "tractor": 4, "chan": 4}


@dataclass
class PhoneLog:
    """What one scripted phone received."""

    sizes: dict[str, list[int]] = field(default_factory=dict)
    errors: list[dict[str, Any]] = field(default_factory=list)
    done: bool = False


def phone(port: int, token: str, seat: int, log: PhoneLog, timeout: float) -> None:
    """Join `seat`, play the first legal action of each decision until the deal's result."""
    with connect(f"ws://127.0.0.1:{port}/ws", open_timeout=10, max_size=2**22,
                 subprotocols=protocol.subprotocols(token)) as ws:
        ws.send(json.dumps({"v": 1, "type": "join", "token": token, "seat": seat,
                            "name": f"P{seat}", "lang": "en"}))
        waiting = False
        latest: dict[str, Any] | None = None
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                raw = ws.recv(timeout=1.0)
            except TimeoutError:
                continue
            msg = json.loads(raw)
            log.sizes.setdefault(msg["type"], []).append(len(raw.encode("utf-8")))
            if msg["type"] == "state":
                latest = msg
                if msg["result"] is not None:
                    log.done = True
                    return
            elif msg["type"] in ("accepted", "error"):
                waiting = False
                if msg["type"] == "error":
                    log.errors.append(msg)
            if latest is not None and latest["decision"] and not waiting:
                ws.send(json.dumps({"v": 1, "type": "act",
                                    "action": latest["decision"]["legal"][0]}))
                waiting = True
                latest = {**latest, "decision": None}


def run_deal(game: str, phones: int, seed: int, timeout: float = 300.0) -> dict[str, Any]:
    """One deal through the server; the figures of it."""
    players = PLAYERS[game]
    phones = min(phones, players)
    plans = [SeatPlan("phone") if s < phones else SeatPlan("ai") for s in range(players)]
    session = Session.new(game, seed)
    host = Host(session, plans)
    owner = OwnerLoop()
    server = PhoneServer(host, owner.post, bind="127.0.0.1", port=0, ping_interval=None,
                         rate=RateLimit(burst=1000, per_second=1000))
    port = server.start()
    publish_time = [0.0]
    publish = host.publish

    def timed_publish() -> None:
        start = time.perf_counter()
        publish()
        publish_time[0] += time.perf_counter() - start

    host.publish = timed_publish  # type: ignore[method-assign]
    bots = HeadlessTable(host, seed)
    logs = [PhoneLog() for _ in range(phones)]
    threads = [threading.Thread(target=phone, args=(port, server.token, s, logs[s], timeout),
                                daemon=True) for s in range(phones)]
    for thread in threads:
        thread.start()
    end = time.monotonic() + timeout
    try:
        while not all(log.done for log in logs) and time.monotonic() < end:
            owner.drain(0.005)
            bots.step()
    finally:
        server.stop()
        for thread in threads:
            thread.join(5)
    actions = len(session.record.actions)
    states = [n for log in logs for n in log.sizes.get("state", [])]
    others: Counter[str] = Counter()
    other_bytes: Counter[str] = Counter()
    for log in logs:
        for kind, sizes in log.sizes.items():
            if kind != "state":
                others[kind] += len(sizes)
                other_bytes[kind] += sum(sizes)
    return {
        "game": game, "phones": phones, "actions": actions, "finished": all(log.done for log in logs),
        "states": len(states), "per_action": len(states) / max(1, actions),
        "mean": statistics.mean(states) if states else 0,
        "median": statistics.median(states) if states else 0, "max": max(states, default=0),
        "others": {k: (others[k], other_bytes[k] // max(1, others[k])) for k in sorted(others)},
        "errors": sum(len(log.errors) for log in logs),
        "publish_ms": 1000 * publish_time[0] / max(1, actions),
    }


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m scripts.bench.phone_server",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1)
    parser.add_argument("--phones", type=int, default=4)
    parser.add_argument("--game", action="append", choices=sorted(PLAYERS))
    args = parser.parse_args()
    for game in args.game or ["meri", "tractor", "chan"]:
        for deal in range(args.deals):
            f = run_deal(game, args.phones, seed=deal + 1)
            others = ", ".join(f"{k} {n}x{b} B" for k, (n, b) in f["others"].items())
            print(f"{game} deal {deal + 1}: {f['phones']} phones, {f['actions']} actions, "
                  f"{f['states']} state messages = {f['per_action']:.2f} per action "
                  f"({f['per_action'] / f['phones']:.2f} per phone); state bytes mean "
                  f"{f['mean']:.0f}, median {f['median']:.0f}, max {f['max']}; others: "
                  f"{others}; errors {f['errors']}; owner thread {f['publish_ms']:.2f} ms/action "
                  f"building+publishing; finished {f['finished']}")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"peak RSS of this process: {rss / 1024:.1f} MB")


if __name__ == "__main__":
    main()
