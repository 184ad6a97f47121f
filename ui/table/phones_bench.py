"""Figures of the kiosk with phones at the table: RSS and frame times with the phone server
running and scripted phones connected, messages per action and bytes per message.

    xvfb-run -a -s "-screen 0 800x480x24" .venv/bin/python -m ui.table.phones_bench \
        [--game meri] [--phones 4] [--size 800x480] [--speed 1] [--limit 300]

The kiosk app is built in this process on the current display (the seating of `--phones` phone
seats, the rest AI at the easy level, bots in the bot process as on the device) and its frames
are run one by one (`EventLoop.idle`, drawing included) while `--phones` WebSocket clients on
127.0.0.1, each on its own thread, join their seats and play the first legal action of each
decision after a short pause (a person reading the phone). One whole deal. Per frame: the gap
(wall time between frames) and the UI thread's CPU time. Printed: frames, gap and CPU
p50/p99/max (ms), the process's RSS after the table opened and its peak at the end (MB), the
actions, the server's messages out per action and bytes per message. Figures only.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import threading
import time

from websockets.sync.client import connect

from engine.measure import percentiles, rss_mb, status_mb

THINK = 0.15  # seconds a scripted phone waits before acting


def phone(port: int, token: str, seat: int, stop: threading.Event, acted: list[int],
          errors: list[str]) -> None:
    """A scripted phone: join `seat`, then answer every decision with its first legal action."""
    with connect(f"ws://127.0.0.1:{port}/ws", open_timeout=10, max_size=2**22) as ws:
        ws.send(json.dumps({"v": 1, "type": "join", "token": token, "seat": seat,
                            "name": f"Phone {seat + 1}", "lang": "en"}))
        waiting, decision = False, None  # the state may come before the answer to an act
        while not stop.is_set():
            try:
                msg = json.loads(ws.recv(timeout=0.2))
            except TimeoutError:
                msg = {"type": ""}
            if msg["type"] in ("accepted", "error"):
                waiting = False
                if msg["type"] == "error":
                    errors.append(f"{msg.get('code')}: {msg.get('detail', '')}"[:100])
            elif msg["type"] == "state":
                decision = msg["decision"]
            if decision and not waiting:
                time.sleep(THINK)
                ws.send(json.dumps({"v": 1, "type": "act", "action": decision["legal"][0],
                                    "ref": acted[0]}))
                acted[0] += 1
                waiting, decision = True, None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ui.table.phones_bench",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="meri", choices=["meri", "tractor", "chan"])
    parser.add_argument("--phones", type=int, default=4)
    parser.add_argument("--size", default="800x480")
    parser.add_argument("--speed", type=float, default=1.0)
    parser.add_argument("--limit", type=float, default=300.0, help="seconds, at most")
    args = parser.parse_args(argv)
    os.environ.setdefault("KIVY_NO_ARGS", "1")  # these arguments are not Kivy's

    from kivy.base import EventLoop
    from kivy.clock import Clock

    from engine import registry
    from ui.app import ParlorApp
    from ui.ports import MemoryStore, NullOutputs, Services
    from ui.remote.settings import NetworkSettings

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
    EventLoop.ensure_window()
    window = EventLoop.window
    width, _, height = args.size.partition("x")
    window.size = (int(width), int(height))
    net = NetworkSettings(enabled=True, port=port, grace_seconds=600.0, bind="127.0.0.1")
    app = ParlorApp(Services(store=MemoryStore(), outputs=NullOutputs(), network=net), seed=5)
    app.ai_level = "easy"
    app.animation_speed = args.speed
    app.root = app.build()
    window.add_widget(app.root)
    app.open_seating(args.game)
    seating = app.root.get_screen("seating")
    players = registry.get(args.game).players
    for seat in range(min(args.phones, players)):
        seating.step_kind(seat)  # seat 0: this screen -> phone; others: AI -> phone
    phones = seating.phones
    if phones is None or not phones.listening:
        raise SystemExit(f"phones_bench: the server does not listen: {seating.phone_text}")
    stop, acted, errors = threading.Event(), [0], []
    threads = [threading.Thread(target=phone, args=(port, phones.server.token, s, stop, acted, errors),
                                daemon=True) for s in phones.host.phone_seats()]
    for thread in threads:
        thread.start()
    end = time.monotonic() + 20
    while len(phones.joined()) < len(threads) and time.monotonic() < end:
        EventLoop.idle()
    seating.play()
    table = app.root.get_screen(args.game)
    for _ in range(30):
        EventLoop.idle()
    rss_open = rss_mb()
    counts0 = dict(phones.server.counts)
    actions0 = len(table.session.record.actions)
    gaps: list[float] = []
    cpu: list[float] = []
    last, last_cpu = time.perf_counter(), time.thread_time()
    end = time.monotonic() + args.limit
    while not table.summary_open and time.monotonic() < end:
        EventLoop.idle()
        now, now_cpu = time.perf_counter(), time.thread_time()
        gaps.append(1000 * (now - last))
        cpu.append(1000 * (now_cpu - last_cpu))
        last, last_cpu = now, now_cpu
    counts = phones.server.counts
    actions = len(table.session.record.actions) - actions0
    stop.set()
    for thread in threads:
        thread.join(5)
    out, sent = counts["out"] - counts0["out"], counts["bytes_out"] - counts0["bytes_out"]
    gap, thread_cpu = percentiles(gaps[5:], digits=1), percentiles(cpu[5:], digits=1)
    print(f"{args.game}: {len(threads)} phones on 127.0.0.1, {players - len(threads)} AI, "
          f"{args.size}, speed {args.speed}, deal finished: {table.summary_open}")
    print(f"frames {len(gaps)}  gap ms p50 {gap['p50']} p99 {gap['p99']} max {gap['max']}  "
          f"UI-thread CPU ms/frame p50 {thread_cpu['p50']} p99 {thread_cpu['p99']} "
          f"max {thread_cpu['max']}")
    print(f"RSS MB after the table opened {rss_open:.1f}, peak {status_mb('VmHWM'):.1f}")
    print(f"actions {actions} (phones {acted[0]})  messages out {out}  per action "
          f"{out / max(1, actions):.2f}  bytes per message {sent / max(1, out):.0f}")
    if errors:
        print(f"errors {len(errors)}: {sorted(set(errors))[:5]}")
    app.dispatch("on_stop")
    Clock.tick()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
