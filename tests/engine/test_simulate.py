"""`python -m engine simulate`: the standings line is drawn from the typed match result."""

import io

from engine.simulate import simulate


def test_standings_follow_the_match_result() -> None:
    out = io.StringIO()
    records = simulate("chan", deals=1, seed=7, bots="heuristic", out=out)
    text = out.getvalue()
    assert len(records) == 1 and records[0].state.is_over
    standings = [line for line in text.splitlines() if line.startswith("standings: ")]
    assert standings == [line.replace("match over: ", "standings: ")
                         for line in text.splitlines() if line.startswith("match over: ")]
    (line,) = standings
    assert line.startswith("standings: deal 1 of 1; seats 0: ")
    scores = [int(part.split(": ")[1].split(" ")[0]) for part in line.split("; ")[1:]]
    assert sum(scores) == 0 and len(scores) == 4  # C-2: settlements cancel out


def test_a_meri_match_goes_on_after_one_deal() -> None:
    out = io.StringIO()
    simulate("meri", deals=1, seed=7, bots="random", out=out)
    (line,) = [t for t in out.getvalue().splitlines() if t.startswith("standings: ")]
    assert line.startswith("standings: deal 1 of 8; seats 0 2 4 6: ") and "winner" not in line
