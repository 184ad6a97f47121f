"""Figures of the kiosk with phones at the table: RSS and frame times with the phone server
running and scripted phones connected, messages per action and bytes per message, next to the
same table without the server (the baseline), so the phones' cost is the difference.

    xvfb-run -a -s "-screen 0 800x480x24" .venv/bin/python -m scripts.bench.phones_table \
        [--game meri] [--phones 4] [--size 800x480] [--speed 1] [--limit 300] \
        [--only phones|baseline]

The baseline is the same seating (the same seats made phones on the seating screen) with
`[network]` off: no server starts and AI plays the phone seats, as on a kiosk whose phones never
came. Each run is its own process (a fresh RSS): the baseline first, as a child process, then
the phones; `--only` runs one of them here.

The kiosk app is built in this process on the current display (the seating of `--phones` phone
seats, the rest AI at the easy level, bots in the bot process as on the device) and its frames
are run one by one (`EventLoop.idle`, drawing included) while `--phones` WebSocket clients on
127.0.0.1, each on its own thread, join their seats and play the first legal action of each
decision after a short pause (a person reading the phone). One whole deal. Per frame: the gap
(wall time between frames) and the UI thread's CPU time. Printed per run: frames, gap and CPU
p50/p99/max (ms), the process's RSS after the table opened and its peak at the end (MB), the
actions, the server's messages out per action and bytes per message; then the difference
(phones − baseline) of the RSS and of the UI thread's CPU per frame. Figures only.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import threading
import time
from typing import Any

from websockets.sync.client import connect

from engine.measure import percentiles, rss_mb, status_mb
from scripts.bench import ROOT
from ui.remote import protocol

THINK = 0.15  # seconds a scripted phone waits before acting


def phone(port: int, token: str, seat: int, stop: threading.Event, acted: list[int],
          errors: list[str]) -> None:
    """A scripted phone: join `seat`, then answer every decision with its first legal action."""
    with connect(f"ws://127.0.0.1:{port}/ws", open_timeout=10, max_size=2**22,
                 subprotocols=protocol.subprotocols(token)) as ws:
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


def measure(args: argparse.Namespace, server: bool) -> dict[str, Any]:
    """One whole deal on the kiosk app built here: with the server and `--phones` scripted
    phones (`server`), or the same seating with `[network]` off (the baseline). Prints its
    lines; returns the figures."""
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
    net = NetworkSettings(enabled=server, port=port, grace_seconds=600.0, bind="127.0.0.1")
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
    stop, acted, errors = threading.Event(), [0], []
    threads: list[threading.Thread] = []
    if server:
        if phones is None or not phones.listening:
            raise SystemExit(f"phones_table: the server does not listen: {seating.phone_text}")
        threads = [threading.Thread(target=phone, args=(port, phones.server.token, s, stop,
                                                        acted, errors), daemon=True)
                   for s in phones.host.phone_seats()]
        for thread in threads:
            thread.start()
        end = time.monotonic() + 20
        while len(phones.joined()) < len(threads) and time.monotonic() < end:
            EventLoop.idle()
    elif phones is not None:
        raise SystemExit("phones_table: the baseline started a server")
    seating.play()
    table = app.root.get_screen(args.game)
    for _ in range(30):
        EventLoop.idle()
    rss_open = rss_mb()
    counts0 = dict(phones.server.counts) if server else {}
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
    actions = len(table.session.record.actions) - actions0
    stop.set()
    for thread in threads:
        thread.join(5)
    gap, thread_cpu = percentiles(gaps[5:], digits=1), percentiles(cpu[5:], digits=1)
    seated = min(args.phones, players)
    if server:
        print(f"{args.game}: {len(threads)} phones on 127.0.0.1, {players - len(threads)} AI, "
              f"{args.size}, speed {args.speed}, deal finished: {table.summary_open}")
    else:
        print(f"{args.game} baseline: the same seating ({seated} phone seats), no server: AI "
              f"plays every seat, {args.size}, speed {args.speed}, deal finished: "
              f"{table.summary_open}")
    print(f"frames {len(gaps)}  gap ms p50 {gap['p50']} p99 {gap['p99']} max {gap['max']}  "
          f"UI-thread CPU ms/frame p50 {thread_cpu['p50']} p99 {thread_cpu['p99']} "
          f"max {thread_cpu['max']}")
    peak = status_mb("VmHWM")
    print(f"RSS MB after the table opened {rss_open:.1f}, peak {peak:.1f}")
    if server:
        counts = phones.server.counts
        out, sent = counts["out"] - counts0["out"], counts["bytes_out"] - counts0["bytes_out"]
        print(f"actions {actions} (phones {acted[0]})  messages out {out}  per action "
              f"{out / max(1, actions):.2f}  bytes per message {sent / max(1, out):.0f}")
        if errors:
            print(f"errors {len(errors)}: {sorted(set(errors))[:5]}")
    else:
        print(f"actions {actions}")
    app.dispatch("on_stop")
    Clock.tick()
    return {"rss_open": rss_open, "rss_peak": peak, "cpu_p50": thread_cpu["p50"],
            "cpu_p99": thread_cpu["p99"], "gap_p50": gap["p50"], "gap_p99": gap["p99"],
            "finished": bool(table.summary_open)}


FIGURES = "phones_table-figures: "  # the child's last line: its figures as JSON


def baseline_in_child(argv: list[str]) -> dict[str, Any] | None:
    """Run the baseline as its own process (its own RSS); print its lines; its figures."""
    done = subprocess.run([sys.executable, "-m", "scripts.bench.phones_table", *argv,
                           "--only", "baseline"], capture_output=True, text=True, cwd=ROOT)
    figures = None
    for line in done.stdout.splitlines():
        if line.startswith(FIGURES):
            figures = json.loads(line[len(FIGURES):])
        else:
            print(line)
    if done.returncode != 0 or figures is None:
        print(f"baseline failed (status {done.returncode}): {done.stderr.strip()[-400:]}")
        return None
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.bench.phones_table",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="meri", choices=["meri", "tractor", "chan"])
    parser.add_argument("--phones", type=int, default=4)
    parser.add_argument("--size", default="800x480")
    parser.add_argument("--speed", type=float, default=1.0)
    parser.add_argument("--limit", type=float, default=300.0, help="seconds, at most")
    parser.add_argument("--only", choices=["phones", "baseline"],
                        help="one run, in this process (default: the baseline, then phones)")
    args = parser.parse_args(argv)
    if args.only is not None:
        figures = measure(args, server=args.only == "phones")
        print(FIGURES + json.dumps(figures), flush=True)
        return 0
    own = list(sys.argv[1:] if argv is None else argv)
    base = baseline_in_child(own)
    print()
    phones = measure(args, server=True)
    if base is not None:
        print()
        print(f"phones - baseline: RSS after the table opened {phones['rss_open'] - base['rss_open']:+.1f} MB, "
              f"peak {phones['rss_peak'] - base['rss_peak']:+.1f} MB; UI-thread CPU ms/frame "
              f"p50 {phones['cpu_p50'] - base['cpu_p50']:+.2f}, p99 "
              f"{phones['cpu_p99'] - base['cpu_p99']:+.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
