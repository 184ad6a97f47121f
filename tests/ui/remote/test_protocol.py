"""The phone protocol's parsing (docs/protocol.md): every documented form accepted, everything
else refused with its error code, and never another exception (hypothesis fuzz)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ui.remote import protocol
from ui.remote.protocol import Act, Check, Hello, Join, Lang, ProtocolError

TOKEN = "k" * 22


def enc(**fields: object) -> str:
    return json.dumps({"v": 1, **fields})


def code_of(raw: str | bytes) -> str:
    with pytest.raises(ProtocolError) as err:
        protocol.parse(raw)
    return err.value.code


def test_the_documented_messages_parse() -> None:
    assert protocol.parse(enc(type="hello", token=TOKEN)) == Hello(TOKEN)
    assert protocol.parse(enc(type="hello", token=TOKEN, lang="fr")) == Hello(TOKEN, "fr")
    assert protocol.parse(enc(type="join", token=TOKEN, seat=2, name=" Ann  B ", lang="vi")) == \
        Join(TOKEN, 2, "Ann B", "vi", None)
    assert protocol.parse(enc(type="join", token=TOKEN, seat=0, secret="s" * 24)) == \
        Join(TOKEN, 0, None, None, "s" * 24)
    assert protocol.parse(enc(type="act", action="8H  8H", ref=3)) == Act("8H 8H", 3)
    assert protocol.parse(enc(type="act", action="pass")) == Act("pass", None)
    assert protocol.parse(enc(type="check", action="capture 7C", ref=0)) == Check("capture 7C", 0)
    assert protocol.parse(enc(type="lang", lang="nl")) == Lang("nl")


@pytest.mark.parametrize("raw, code", [
    ("", "json"),
    ("null", "json"),
    ('"hello"', "json"),
    (b'{"v":1}', "json"),
    ('{"type":"hello"}', "version"),
    ('{"v":"1","type":"hello"}', "version"),
    ('{"v":1.0,"type":"hello"}', "version"),
    (enc(type="HELLO", token=TOKEN), "type"),
    (enc(type=None), "type"),
    (enc(type="hello"), "field"),
    (enc(type="hello", token="short"), "field"),
    (enc(type="hello", token="x" * 22 + "/"), "field"),
    (enc(type="hello", token=TOKEN, seat=1), "field"),
    (enc(type="join", token=TOKEN, seat=True), "field"),
    (enc(type="join", token=TOKEN, seat=1.0), "field"),
    (enc(type="join", token=TOKEN, seat=64), "field"),
    (enc(type="join", token=TOKEN, seat=0, name=""), "field"),
    (enc(type="join", token=TOKEN, seat=0, name="\u200bx"), "field"),
    (enc(type="join", token=TOKEN, seat=0, name=["a"]), "field"),
    (enc(type="join", token=TOKEN, seat=0, lang="de"), "field"),
    (enc(type="join", token=TOKEN, seat=0, secret=5), "field"),
    (enc(type="act"), "field"),
    (enc(type="act", action=""), "field"),
    (enc(type="act", action="x" * 201), "field"),
    (enc(type="act", action="8H\n8H"), "field"),
    (enc(type="act", action="pass", ref=-1), "field"),
    (enc(type="act", action="pass", ref=2**31), "field"),
    (enc(type="act", action="pass", ref=True), "field"),
    (enc(type="lang"), "field"),
    ("[" * 5000 + "]" * 5000, "size"),
    (enc(type="act", action="é" * 1100), "size"),  # under 2048 characters, over 2048 bytes
])
def test_refusals_have_their_codes(raw: str | bytes, code: str) -> None:
    assert code_of(raw) == code
    assert code in protocol.CODES


def test_deep_nesting_under_the_size_limit_is_not_a_crash() -> None:
    assert code_of("[" * 1020 + "]" * 1020) == "json"
    assert code_of('{"a":' * 300 + "1" + "}" * 300) == "version"


def test_the_ref_comes_back_with_an_error_when_it_can_be_read() -> None:
    with pytest.raises(ProtocolError) as err:
        protocol.parse(json.dumps({"v": 1, "type": "act", "action": 5, "ref": 7}))
    assert err.value.ref == 7
    message = protocol.error(err.value.code, err.value.detail, err.value.ref)
    assert message == {"v": 1, "type": "error", "code": "field",
                       "message": err.value.detail, "ref": 7}


def test_encode_is_compact_utf8() -> None:
    text = protocol.encode(protocol.message("state", name="Chắn"))
    assert text == '{"v":1,"type":"state","name":"Chắn"}'


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=30),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=8), children, max_size=5),
    max_leaves=20,
)
FIELDS = st.sampled_from(["v", "type", "token", "seat", "name", "lang", "secret", "action", "ref"])
TYPES = st.sampled_from(["hello", "join", "act", "check", "lang", "x", ""])


@given(st.one_of(
    st.text(max_size=3000),
    st.binary(max_size=100),
    JSONISH.map(json.dumps),
    st.fixed_dictionaries({"v": st.sampled_from([1, 1, 2, True, "1"]), "type": TYPES},
                          optional={"token": st.text(max_size=70) | st.just(TOKEN),
                                    "seat": JSONISH, "name": JSONISH, "lang": JSONISH,
                                    "secret": JSONISH, "action": JSONISH | st.text(max_size=300),
                                    "ref": JSONISH})
    .map(json.dumps),
    st.dictionaries(FIELDS, JSONISH, max_size=9).map(json.dumps),
))
def test_fuzz_any_input_parses_or_is_refused_with_a_code(raw: str | bytes) -> None:
    try:
        msg = protocol.parse(raw)
    except ProtocolError as exc:
        assert exc.code in protocol.CODES
        return
    assert isinstance(msg, Hello | Join | Act | Check | Lang)
    if isinstance(msg, Act | Check):
        assert msg.action == " ".join(msg.action.split()) and msg.action.isprintable()
    if isinstance(msg, Join) and msg.name is not None:
        assert 0 < len(msg.name) <= protocol.MAX_NAME
