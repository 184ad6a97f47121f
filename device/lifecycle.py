"""How the app's process ends, so that systemd does the right thing next.

Under the unit (`Restart=on-failure`, an `ExecStopPost=` that starts `getty@tty1` when the
service's result is success) the exit status decides what follows: 0 brings the login prompt
back, anything else restarts the table. In kiosk mode
only the exit gesture (with its PIN) may end in success; SIGINT (Ctrl+C on a keyboard attached
to tty1) or SIGTERM from anything but an orderly `systemctl stop` must not hand a passer-by the
login prompt, so they end with the shell's convention, 128 + the signal number (130, 143).
`systemctl stop` also sees 143 and, having asked for the stop, does not restart the unit. Outside
kiosk mode a signal ends the app with 0, as before.
"""

from __future__ import annotations

import logging
import signal
from collections.abc import Callable
from typing import Any

log = logging.getLogger("parlor")

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


class StopSignals:
    """Records which stop signal arrived (the first one) and turns it into an exit status."""

    def __init__(self) -> None:
        self.received: int | None = None

    def handler(self, stop: Callable[[], None]) -> Callable[[int, Any], None]:
        def handle(signum: int, _frame: Any) -> None:
            log.info("received %s: stopping", signal.Signals(signum).name)
            if self.received is None:
                self.received = signum
            stop()

        return handle

    def exit_status(self, kiosk: bool) -> int:
        """0, or 128 + the signal in kiosk mode (the unit then restarts the table)."""
        if kiosk and self.received is not None:
            return 128 + self.received
        return 0


def install(stop: Callable[[], None]) -> StopSignals:
    """SIGTERM (systemd stop) and SIGINT (Ctrl+C) call `stop`; the returned object remembers
    which one came, for `exit_status(kiosk)` once the app has stopped."""
    signals = StopSignals()
    handle = signals.handler(stop)
    for signum in STOP_SIGNALS:
        signal.signal(signum, handle)
    return signals
