"""Independent audit of the Meri engine against a second reading of shared/rules/meri.md.

`Ref` (tests/engine/meri_audit_reference.py) is replayed side by side with `python -m engine
replay`'s in-process form on 1500 biased random deals: every key of records.md's output must be
equal, including the rule id of deliberately illegal actions (`turn`, `held`, H-12, H-14, H-22,
H-25, H-27), and the rare cases (H-32 transfers of 2 and 5, D-2 all-trump receivers, the H-26
Sun exception) must all occur.
"""

from __future__ import annotations

import json
import random

from engine.records import replay
from tests.engine.meri_audit_reference import Ref, biased_layout, random_actions, ref_replay


def engine_out(record: dict) -> tuple[int, dict]:
    status, out = replay(json.loads(json.dumps(record)))
    out = json.loads(json.dumps(out))
    if status == 1:
        assert isinstance(out["error"].pop("message"), str) and out["error"]["rule"]
    return status, out


def test_differential_against_a_second_reading_of_the_rules() -> None:
    """Every key of replay's output equals the plain reading's, on 1500 biased deals."""
    rng = random.Random(20261129)
    seen = {"transfer5_9": 0, "transfer5_robai": 0, "transfer2": 0, "d2": 0, "H-25": 0,
            "H-27": 0, "H-22": 0, "H-14": 0, "H-12": 0, "held": 0, "turn": 0, "sun": 0}
    for _ in range(1500):
        lay = biased_layout(rng)
        actions = random_actions(rng, lay, rng.randrange(200))
        record = {"game": "meri", "seed": rng.randrange(1000), "layout": lay, "actions": actions}
        want = ref_replay(record)
        got = engine_out(record)
        assert got == want, json.dumps(record)
        if want[0] == 1:
            seen[want[1]["error"]["rule"]] += 1
        elif want[1]["result"]:
            for t in want[1]["result"]["tricks"]:
                if t["transfer"] == 5:
                    seen["transfer5_9" if t is want[1]["result"]["tricks"][8] else
                         "transfer5_robai"] += 1
                elif t["transfer"] == 2:
                    seen["transfer2"] += 1
        ref = Ref(lay)
        for a in actions:
            if ref.apply(a.strip()):
                break
        seen["d2"] += ref.all_trump_receiver
        seen["sun"] += bool(ref.sun_only)
    print(seen)
    assert all(n > 0 for n in seen.values()), seen  # the rare cases did happen
