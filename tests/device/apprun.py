"""Start the real app in a child process, wait until it tells systemd it is ready, stop it with
SIGTERM as the service manager would, and hand back its exit status and log."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
from pathlib import Path


def start_until_ready_then_stop(env: dict[str, str], folder: Path, cwd: Path | None = None,
                                wait: float = 60) -> tuple[int, str]:
    """(exit status, stderr) of `python -m device` run with `env`, its notify socket in `folder`."""
    path = folder / "notify.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(wait)
    env = dict(env, NOTIFY_SOCKET=str(path))
    proc = subprocess.Popen([sys.executable, "-m", "device"], env=env, cwd=cwd,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            stdin=subprocess.DEVNULL)
    try:
        ready = False
        while not ready:
            try:
                ready = sock.recv(4096).decode().startswith("READY=1")
            except TimeoutError:
                proc.kill()
                raise AssertionError("never ready: " + proc.communicate()[1][-3000:]) from None
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
        sock.close()
    return proc.returncode, err
