"""One exception tree for the hardware package (like gpiozero's `GPIOZeroError`).

Everything the package raises on purpose derives from `HardwareError`, so the composition root can
catch one type and print a one-line message. Configuration mistakes are also `ValueError`s.
"""

from __future__ import annotations


class HardwareError(Exception):
    """Base of every error raised by `hardware`."""


class HardwareConfigError(HardwareError, ValueError):
    """Invalid settings: the message is one line naming the offending key."""


class UnknownEvent(HardwareError, ValueError):
    """A name that is not one of the eight semantic events."""


class SourceClosed(HardwareError):
    """The source (or output) was closed and cannot be used again."""


class SourceStopped(HardwareError):
    """A mock test verb was used while the source was not started."""


class BackendError(HardwareError):
    """A backend could not be set up (pin factory missing, pin busy, ...)."""


class ProtocolError(HardwareError):
    """A serial keypad line that breaks the protocol (logged and ignored, never raised out)."""
