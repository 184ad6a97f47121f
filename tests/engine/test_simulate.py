"""`python -m engine simulate`: the standings line is drawn from the typed match result."""

import io

from engine.simulate import simulate


def test_standings_follow_the_match_result() -> None:
    out = io.StringIO()
    records = simulate("chan", deals=None, seed=7, bots="heuristic", out=out)  # one match
    text = out.getvalue()
    assert len(records) == 4 and all(r.state.is_over for r in records)  # a sitting of 4 deals
    standings = [line for line in text.splitlines() if line.startswith("standings: ")]
    assert standings[-1:] == [line.replace("match over: ", "standings: ")
                              for line in text.splitlines() if line.startswith("match over: ")]
    line = standings[-1]
    assert line.startswith("standings: deal 4 of 4; seats 0: ")
    scores = [int(part.split(": ")[1].split(" ")[0]) for part in line.split("; ")[1:]]
    assert sum(scores) == 0 and len(scores) == 4  # C-2: settlements cancel out


def test_a_meri_match_goes_on_after_one_deal() -> None:
    out = io.StringIO()
    simulate("meri", deals=1, seed=7, bots="random", out=out)
    (line,) = [t for t in out.getvalue().splitlines() if t.startswith("standings: ")]
    assert line.startswith("standings: deal 1 of 8; seats 0 2 4 6: ") and "winner" not in line
