"""The phone protocol (docs/protocol.md): parse and check what a phone sends, build what it gets.

Pure Python and pure functions: no sockets, no engine, no Kivy. Everything that arrives is
untrusted; `parse` turns one WebSocket text message into a typed message or raises
`ProtocolError` with one of the documented `CODES`, never another exception. Outgoing messages
are plain dicts made by `message(...)` and turned into text by `encode`.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from typing import Any

VERSION = 1
#: The largest message a phone may send, in bytes of UTF-8 (a Tractor burial is ~60 bytes).
MAX_MESSAGE = 2048
#: Frames above this are closed by the WebSocket layer itself (close code 1009, message too big);
#: between MAX_MESSAGE and this they get an `size` error and the connection stays open.
MAX_FRAME = 4 * MAX_MESSAGE
MAX_NAME = 24  # characters of a player's name
MAX_ACTION = 200  # characters of an action in record notation
MAX_REF = 2**31 - 1
LANGUAGES = ("en", "vi", "es", "fr", "nl")
# Tokens and seat secrets are `secrets.token_urlsafe` text: URL-safe base64 letters only.
KEY_PATTERN = re.compile(r"[A-Za-z0-9_-]{16,64}")
#: The WebSocket subprotocol the server answers with (`Sec-WebSocket-Protocol`).
SUBPROTOCOL = "parlor.v1"
#: A client shows the table token at the upgrade by also offering the subprotocol
#: `TOKEN_PREFIX + token`: such a connection takes a token holder's slot from the start, so
#: connections without the token can never keep it out (see docs/protocol.md, "Limits").
TOKEN_PREFIX = "parlor.token."

#: Error code -> what it means (English; the page shows its own translated text per code).
CODES: dict[str, str] = {
    "json": "the message is not a JSON object",
    "size": "the message is too large",
    "version": "unsupported protocol version",
    "type": "unknown message type",
    "field": "a field is missing or has the wrong form",
    "token": "wrong table token",
    "seat": "no such phone seat",
    "taken": "another phone holds that seat",
    "name": "another seat at the table has that name",
    "secret": "wrong seat secret",
    "order": "that message is not allowed now",
    "rate": "too many messages",
    "malformed": "the action does not parse",
    "illegal": "the rules forbid that action",
    "closed": "the table is closed",
    "busy": "the table has no room for another phone",
    "code": "wrong table code",
    "locked": "the table code no longer works: scan the QR code",
}
#: The table code a player types instead of scanning (`admission.TableCode`): four digits.
CODE_PATTERN = re.compile(r"[0-9]{4}")


class ProtocolError(Exception):
    """A message refused: `code` is one of `CODES`, `detail` says what exactly (English)."""

    def __init__(self, code: str, detail: str = "", ref: int | None = None) -> None:
        assert code in CODES, code
        super().__init__(f"{code}: {detail or CODES[code]}")
        self.code = code
        self.detail = detail or CODES[code]
        self.ref = ref


@dataclass(frozen=True)
class Hello:
    """Ask for the table (game, seats, which are free, the page's words in `lang`)."""

    token: str
    lang: str | None = None


@dataclass(frozen=True)
class Join:
    """Take phone seat `seat`; with `secret`, return to it (a reconnect)."""

    token: str
    seat: int
    name: str | None
    lang: str | None
    secret: str | None


@dataclass(frozen=True)
class Act:
    """Play `action` (records.md notation) for the joined seat; `ref` comes back in the answer."""

    action: str
    ref: int | None


@dataclass(frozen=True)
class Check:
    """Ask whether `action` would be legal now, without playing it (a selection's feedback)."""

    action: str
    ref: int | None


@dataclass(frozen=True)
class Code:
    """Trade the table code shown on the kiosk for the table token (no camera, no QR scan)."""

    code: str


@dataclass(frozen=True)
class Lang:
    """Switch the seat's language."""

    lang: str


Message = Hello | Join | Act | Check | Lang | Code
_FIELDS: dict[str, set[str]] = {
    "code": {"code"},
    "hello": {"token", "lang"},
    "join": {"token", "seat", "name", "lang", "secret"},
    "act": {"action", "ref"},
    "check": {"action", "ref"},
    "lang": {"lang"},
}


def parse(raw: str | bytes) -> Message:
    """One incoming message, checked (see docs/protocol.md); `ProtocolError` if it is refused."""
    if isinstance(raw, bytes | bytearray | memoryview):
        raise ProtocolError("json", "binary frames are not used")
    if len(raw) > MAX_MESSAGE or len(raw.encode("utf-8", "surrogatepass")) > MAX_MESSAGE:
        raise ProtocolError("size", f"over {MAX_MESSAGE} bytes")
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        raise ProtocolError("json", "not JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError("json", "not a JSON object")
    ref = data.get("ref")
    ref = ref if _is_int(ref) and 0 <= ref <= MAX_REF else None
    if data.get("v") != VERSION or not _is_int(data.get("v")):
        raise ProtocolError("version", f"this table speaks version {VERSION}", ref)
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise ProtocolError("type", f"known types: {', '.join(sorted(_FIELDS))}", ref)
    extra = set(data) - _FIELDS[kind] - {"v", "type"}
    if extra:
        raise ProtocolError("field", f"unknown field {_excerpt(sorted(extra)[0])}", ref)
    if kind == "hello":
        return Hello(_key(data, "token"), _lang(data) if data.get("lang") is not None else None)
    if kind == "join":
        seat = data.get("seat")
        if not _is_int(seat) or not 0 <= seat < 64:
            raise ProtocolError("field", "seat: a seat number", ref)
        secret = _key(data, "secret") if data.get("secret") is not None else None
        name = clean_name(data["name"]) if data.get("name") is not None else None
        lang = _lang(data) if data.get("lang") is not None else None
        return Join(_key(data, "token"), seat, name, lang, secret)
    if kind == "lang":
        return Lang(_lang(data))
    if kind == "code":
        code = data.get("code")
        if not isinstance(code, str) or not CODE_PATTERN.fullmatch(code):
            raise ProtocolError("field", "code: four digits")
        return Code(code)
    if data.get("ref") is not None and ref is None:
        raise ProtocolError("field", f"ref: an integer 0..{MAX_REF}")
    action = data.get("action")
    if not isinstance(action, str) or not 0 < len(action) <= MAX_ACTION:
        raise ProtocolError("field", f"action: text of 1..{MAX_ACTION} characters", ref)
    if not action.isprintable() or not action.strip():
        raise ProtocolError("field", "action: printable text", ref)
    action = " ".join(action.split())
    return Act(action, ref) if kind == "act" else Check(action, ref)


def clean_name(value: Any) -> str:
    """A player's name: text of 1..MAX_NAME characters after trimming, no control or format
    characters (no bidi overrides, no zero-width tricks); `ProtocolError` otherwise."""
    if not isinstance(value, str):
        raise ProtocolError("field", "name: text")
    text = unicodedata.normalize("NFC", " ".join(value.split()))
    if not 0 < len(text) <= MAX_NAME:
        raise ProtocolError("field", f"name: 1..{MAX_NAME} characters")
    if any(unicodedata.category(ch)[0] == "C" for ch in text):
        raise ProtocolError("field", "name: letters, digits, spaces and punctuation only")
    return text


def name_key(name: str) -> str:
    """What makes two names one person's (case and spacing aside): a table never seats two
    people under one name, since the pass-and-play cover and the statistics go by name."""
    return " ".join(name.split()).casefold()


def message(kind: str, **fields: Any) -> dict[str, Any]:
    """An outgoing message: `{"v": 1, "type": kind, ...fields}`."""
    return {"v": VERSION, "type": kind, **fields}


def error(code: str, detail: str = "", ref: int | None = None, **extra: Any) -> dict[str, Any]:
    """An `error` message (`rule` and `reason` are added for an `illegal` action)."""
    body: dict[str, Any] = {"code": code, "message": detail or CODES[code]}
    if ref is not None:
        body["ref"] = ref
    body.update(extra)
    return message("error", **body)


def encode(msg: dict[str, Any]) -> str:
    """The text sent on the wire: compact JSON, UTF-8 kept as is."""
    return json.dumps(msg, ensure_ascii=False, separators=(",", ":"))


def _is_int(value: Any) -> bool:
    return type(value) is int


def _key(data: dict[str, Any], field: str) -> str:
    value = data.get(field)
    if not isinstance(value, str) or not KEY_PATTERN.fullmatch(value):
        raise ProtocolError("field", f"{field}: 16..64 URL-safe characters", data_ref(data))
    return value


def _lang(data: dict[str, Any]) -> str:
    value = data.get("lang")
    if not isinstance(value, str) or value not in LANGUAGES:
        raise ProtocolError("field", f"lang: one of {', '.join(LANGUAGES)}")
    return value


def data_ref(data: dict[str, Any]) -> int | None:
    ref = data.get("ref")
    return ref if _is_int(ref) and 0 <= ref <= MAX_REF else None


def _excerpt(text: str) -> str:
    """A short, printable excerpt of untrusted text for a message or a log line."""
    cut = text[:24]
    return repr(cut + ("…" if len(text) > 24 else ""))


def subprotocols(token: str | None) -> list[str]:
    """What a client offers at the upgrade: the protocol, and the table token if it has one
    of the right form (what the page does with the token of its QR link)."""
    if token is None or not KEY_PATTERN.fullmatch(token):
        return [SUBPROTOCOL]
    return [SUBPROTOCOL, TOKEN_PREFIX + token]


def offered_token(offers: list[str]) -> str | None:
    """The table token a client offered among its subprotocols (`subprotocols`), if any."""
    for offer in offers:
        if offer.startswith(TOKEN_PREFIX):
            token = offer[len(TOKEN_PREFIX):]
            if KEY_PATTERN.fullmatch(token):
                return token
    return None
