"""Issue 18, part 6: in kiosk mode SIGINT/SIGTERM end the process with a failure status, so the
unit restarts the table instead of bringing the login prompt back (only the PIN path is 0)."""

from __future__ import annotations

import signal

import pytest

from device import lifecycle


@pytest.fixture
def restore_handlers():
    saved = {signum: signal.getsignal(signum) for signum in lifecycle.STOP_SIGNALS}
    yield
    for signum, handler in saved.items():
        signal.signal(signum, handler)


@pytest.mark.parametrize(("signum", "status"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_in_kiosk_mode_is_not_success(restore_handlers, signum: int,
                                               status: int) -> None:
    stops: list[str] = []
    signals = lifecycle.install(lambda: stops.append("stop"))
    signal.raise_signal(signum)
    assert stops == ["stop"]
    assert signals.exit_status(kiosk=True) == status
    assert signals.exit_status(kiosk=False) == 0  # a desktop run ends as before


def test_without_a_signal_the_exit_is_success(restore_handlers) -> None:
    signals = lifecycle.install(lambda: None)
    assert signals.exit_status(kiosk=True) == 0  # the exit gesture and its PIN


def test_the_first_signal_decides(restore_handlers) -> None:
    signals = lifecycle.install(lambda: None)
    signal.raise_signal(signal.SIGTERM)
    signal.raise_signal(signal.SIGINT)
    assert signals.exit_status(kiosk=True) == 143
