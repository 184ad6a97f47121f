"""Property-based (issue 18, parts 8 and 9): any bytes as a record give `python -m engine replay`
and `parlor replay --print` the same status and output (one byte-order-mark policy), never a
traceback; mutated real records go through the real parser."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from device import cli as device_cli
from engine import cli as engine_cli
from engine.errors import MalformedRecord
from engine.records import parse_record
from engine.session import Session

from .strategies import GAMES, mutated_json

pytestmark = pytest.mark.fuzz


@lru_cache(maxsize=32)
def real_record(game: str, seed: int, actions: int) -> str:
    session = Session.new(game, seed)
    for _ in range(actions):
        if session.state.is_over:
            break
        session.apply(session.state.legal_actions()[0])
    return json.dumps(session.record.to_dict())


real_records = st.builds(real_record, st.sampled_from(GAMES), st.integers(0, 5),
                         st.integers(0, 30))
record_bytes = st.one_of(
    real_records.flatmap(mutated_json).map(str.encode),
    real_records.map(str.encode),
    st.binary(max_size=300),
)
boms = st.sampled_from([b"", b"\xef\xbb\xbf"])


def run(main, argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = main(argv)
    return status, out.getvalue(), err.getvalue()


@given(record_bytes, boms)
def test_both_replay_commands_agree_on_any_bytes(tmp_path: Path, body: bytes, bom: bytes) -> None:
    path = tmp_path / "record.json"
    path.write_bytes(bom + body)
    engine = run(engine_cli.main, ["replay", str(path)])
    parlor = run(device_cli.main, ["replay", str(path), "--print"])
    assert engine[0] in (0, 1, 2) and "Traceback" not in engine[2] + parlor[2]
    assert (engine[0], engine[1]) == (parlor[0], parlor[1])
    if engine[0] == 2:
        assert parlor[2].count("\n") == 1  # one line saying why


@given(real_records.flatmap(mutated_json))
def test_the_parser_accepts_or_refuses_in_one_exception(text: str) -> None:
    try:
        parse_record(text)
    except MalformedRecord as exc:
        assert str(exc)
