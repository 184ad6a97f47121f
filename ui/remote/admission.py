"""Who may open a WebSocket to the table: token holders and strangers, in separate pools.

A connection *shows the table token* at the upgrade when it offers the subprotocol
`protocol.TOKEN_PREFIX + token` (the page does, with the token of its QR link), or later with
the token in its first message (`hello` or `join`). Until it has, it is a *stranger*: it takes
a slot in a small pool of its own, shared out per source address, and must show the token
within `HELLO_TIMEOUT` seconds of its opening; its first refused message closes it. Token
holders have `MAX_PROVEN` slots no stranger can take, so whoever has the link always gets in.
The numbers are documented in docs/protocol.md ("Limits").

A stranger may also trade the *table code* for the token (`TableCode`): four digits the kiosk
shows beside the QR code, for a phone that cannot scan. Four digits can be guessed, so every
wrong code counts, whoever sends it, and after `CODE_TRIES` the code is locked (the QR code
still works); each guess also costs a stranger its connection (closed at its first refusal).
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable

from websockets.asyncio.server import ServerConnection
from websockets.http11 import Request

from ui.remote import protocol

MAX_PROVEN = 32  # connections that showed the token (phones, pages choosing a seat)
MAX_UNPROVEN = 8  # connections that have not shown it yet, in all
MAX_UNPROVEN_PER_ADDRESS = 2  # … from one source address
HELLO_TIMEOUT = 30.0  # seconds from its opening a connection has to show the token
#: Wrong table codes, from anyone, before the code stops working for the server's life: a
#: guesser's chance is at most CODE_TRIES in 10 000 (0.2 %), however many addresses it has.
CODE_TRIES = 20


class TableCode:
    """The table's four-digit code and how many wrong guesses it has left (event loop only)."""

    def __init__(self, tries: int = CODE_TRIES, code: str | None = None) -> None:
        self.code = code if code is not None else f"{secrets.randbelow(10_000):04d}"
        self.tries_left = tries

    @property
    def locked(self) -> bool:
        return self.tries_left <= 0

    def shown(self) -> str:
        """What the kiosk shows: the code, or "" once it is locked."""
        return "" if self.locked else self.code

    def check(self, guess: str) -> bool:
        """Whether `guess` is the code (compared in constant time); a wrong one uses a try.
        Always False once locked."""
        if self.locked:
            return False
        if secrets.compare_digest(guess.encode(), self.code.encode()):
            return True
        self.tries_left -= 1
        return False


def offered(request: Request) -> list[str]:
    """The subprotocols a client offered in its upgrade request, in order."""
    return [item.strip() for value in request.headers.get_all("Sec-WebSocket-Protocol")
            for item in value.split(",") if item.strip()]


def shows_token(request: Request, token: str) -> bool:
    """Whether the upgrade request offers the table token (compared in constant time)."""
    shown = protocol.offered_token(offered(request))
    return shown is not None and secrets.compare_digest(shown.encode(), token.encode())


def choose_subprotocol(_connection: ServerConnection, offers: Iterable[str]) -> str | None:
    """websockets' `select_subprotocol`: answer with the protocol when offered (a browser that
    offered subprotocols drops a connection whose answer names none), never with the token."""
    return protocol.SUBPROTOCOL if protocol.SUBPROTOCOL in offers else None


def source_address(connection: ServerConnection) -> str:
    """The client's IP address ("?" when the socket does not say)."""
    try:
        return str(connection.remote_address[0])
    except (TypeError, IndexError, AttributeError, OSError):
        return "?"


def has_room(members: Iterable[tuple[bool, str]], proven: bool, address: str, *,
             max_proven: int, max_unproven: int, per_address: int) -> bool:
    """Whether a connection may open (or a stranger become a token holder) next to `members`,
    the open connections as (shows the token, source address)."""
    holders = strangers = here = 0
    for member_proven, member_address in members:
        if member_proven:
            holders += 1
        else:
            strangers += 1
            here += member_address == address
    if proven:
        return holders < max_proven
    return strangers < max_unproven and here < per_address
